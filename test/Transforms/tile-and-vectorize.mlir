// RUN: raf-opt --split-input-file --raf-tile-and-vectorize %s | FileCheck %s
// RUN: raf-opt --split-input-file --raf-tile-and-vectorize="tile-m=4 tile-n=16" %s | FileCheck %s --check-prefix=SMALL
// RUN: not raf-opt --split-input-file --raf-tile-and-vectorize="tile-m=0" %s 2>&1 | FileCheck %s --check-prefix=ZERO
// ZERO: error: --raf-tile-and-vectorize: tile-m and tile-n must be at least 1 (got 0 and 32)

// A matrix product becomes column blocks of 32, row blocks of 8 and the
// reduction innermost, with the block computed by vector FMAs.
// CHECK-LABEL: func.func @matmul
// CHECK: scf.for %{{.*}} = %c0 to %c128 step %c32
// CHECK:   scf.for %{{.*}} = %c0 to %c64 step %c8
// CHECK:     scf.for %{{.*}} = %c0 to %c96 step %c1
// CHECK-COUNT-8: vector.fma {{.*}} : vector<32xf32>
// CHECK-NOT: linalg.matmul
// SMALL-LABEL: func.func @matmul
// SMALL: step %c16
// SMALL: step %c4
// SMALL-COUNT-4: vector.fma {{.*}} : vector<16xf32>
func.func @matmul(%a: tensor<64x96xf32>, %b: tensor<96x128xf32>,
                  %c: tensor<64x128xf32>) -> tensor<64x128xf32> {
  %r = linalg.matmul ins(%a, %b : tensor<64x96xf32>, tensor<96x128xf32>)
                     outs(%c : tensor<64x128xf32>) -> tensor<64x128xf32>
  return %r : tensor<64x128xf32>
}

// -----

// Batched products keep the batch loop outermost.
// CHECK-LABEL: func.func @batch_matmul
// CHECK: scf.for %{{.*}} = %c0 to %c4 step %c1
// CHECK:   scf.for %{{.*}} step %c32
// CHECK:     scf.for %{{.*}} step %c8
// CHECK: vector.fma
func.func @batch_matmul(%a: tensor<4x16x8xf32>, %b: tensor<4x8x32xf32>,
                        %c: tensor<4x16x32xf32>) -> tensor<4x16x32xf32> {
  %r = linalg.batch_matmul ins(%a, %b : tensor<4x16x8xf32>, tensor<4x8x32xf32>)
                           outs(%c : tensor<4x16x32xf32>) -> tensor<4x16x32xf32>
  return %r : tensor<4x16x32xf32>
}

// -----

// A convolution becomes an im2col copy and a blocked contraction.
// CHECK-LABEL: func.func @conv
// CHECK: linalg.generic
// CHECK-SAME: iterator_types = ["parallel", "parallel", "parallel"]
// CHECK: scf.for %{{.*}} step %c32
// CHECK:   scf.for %{{.*}} step %c8
// CHECK:     scf.for %{{.*}} = %c0 to %c72 step %c1
// CHECK:       vector.transfer_read {{.*}} vector<8x32xf32>
// CHECK-NOT: linalg.conv_2d_nchw_fchw
func.func @conv(%x: tensor<1x8x10x10xf32>, %w: tensor<16x8x3x3xf32>,
                %o: tensor<1x16x8x8xf32>) -> tensor<1x16x8x8xf32> {
  %r = linalg.conv_2d_nchw_fchw
         {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
         ins(%x, %w : tensor<1x8x10x10xf32>, tensor<16x8x3x3xf32>)
         outs(%o : tensor<1x16x8x8xf32>) -> tensor<1x16x8x8xf32>
  return %r : tensor<1x16x8x8xf32>
}

// -----

// Extents smaller than the block get power-of-two blocks: 30 columns are
// 16 + 8 + 4 + 2 and 7 rows 4 + 2 + 1, each piece vectorised.
// CHECK-LABEL: func.func @small
// CHECK-DAG: vector.fma {{.*}} : vector<16xf32>
// CHECK-DAG: vector.fma {{.*}} : vector<8xf32>
// CHECK-DAG: vector.fma {{.*}} : vector<4xf32>
// CHECK-DAG: vector.fma {{.*}} : vector<2xf32>
// CHECK-NOT: linalg.matmul
func.func @small(%a: tensor<7x5xf32>, %b: tensor<5x30xf32>,
                 %c: tensor<7x30xf32>) -> tensor<7x30xf32> {
  %r = linalg.matmul ins(%a, %b : tensor<7x5xf32>, tensor<5x30xf32>)
                     outs(%c : tensor<7x30xf32>) -> tensor<7x30xf32>
  return %r : tensor<7x30xf32>
}

// -----

// An output the block does not divide is split: 100 columns are three
// blocks of 32 plus one of 4, and 12 rows one block of 8 plus one of 4.
// CHECK-LABEL: func.func @ragged
// CHECK-DAG: vector.fma {{.*}} : vector<32xf32>
// CHECK-DAG: vector.fma {{.*}} : vector<4xf32>
// CHECK-NOT: linalg.matmul
func.func @ragged(%a: tensor<12x5xf32>, %b: tensor<5x100xf32>,
                  %c: tensor<12x100xf32>) -> tensor<12x100xf32> {
  %r = linalg.matmul ins(%a, %b : tensor<12x5xf32>, tensor<5x100xf32>)
                     outs(%c : tensor<12x100xf32>) -> tensor<12x100xf32>
  return %r : tensor<12x100xf32>
}

// -----

// Dynamic shapes are left alone too.
// CHECK-LABEL: func.func @dynamic
// CHECK: linalg.matmul
func.func @dynamic(%a: tensor<?x8xf32>, %b: tensor<8x32xf32>,
                   %c: tensor<?x32xf32>) -> tensor<?x32xf32> {
  %r = linalg.matmul ins(%a, %b : tensor<?x8xf32>, tensor<8x32xf32>)
                     outs(%c : tensor<?x32xf32>) -> tensor<?x32xf32>
  return %r : tensor<?x32xf32>
}

// -----

// Empty products have no block; they are left alone.
// CHECK-LABEL: func.func @empty
// CHECK: linalg.matmul
func.func @empty(%a: tensor<0x8xf32>, %b: tensor<8x32xf32>,
                 %c: tensor<0x32xf32>) -> tensor<0x32xf32> {
  %r = linalg.matmul ins(%a, %b : tensor<0x8xf32>, tensor<8x32xf32>)
                     outs(%c : tensor<0x32xf32>) -> tensor<0x32xf32>
  return %r : tensor<0x32xf32>
}
