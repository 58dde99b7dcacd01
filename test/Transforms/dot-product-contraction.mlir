// RUN: raf-opt --raf-dot-product-contraction %s | FileCheck %s
// RUN: raf-opt --raf-dot-product-contraction="vector-bits=128 block-m=2 block-n=3 k-block=8" %s | FileCheck %s --check-prefix=SMALL
// RUN: not raf-opt --raf-dot-product-contraction="block-m=0" %s 2>&1 | FileCheck %s --check-prefix=BAD

#mk = affine_map<(m, n, k) -> (m, k)>
#nk = affine_map<(m, n, k) -> (n, k)>
#mn = affine_map<(m, n, k) -> (m, n)>
#kn = affine_map<(m, n, k) -> (k, n)>

// x W^T with K = 40: two full 16-lane steps and a masked remainder of 8.
// CHECK-LABEL: func.func @dense
// CHECK-NOT: linalg.matmul
// CHECK: scf.for
// CHECK: scf.for
// CHECK: scf.for %{{.*}} iter_args(
// CHECK-COUNT-4: vector.load %arg0
// CHECK-COUNT-4: vector.load %arg1
// CHECK-COUNT-16: vector.fma {{.*}} : vector<16xf32>
// CHECK: vector.reduction <add>, %{{.*}} fastmath<reassoc> : vector<16xf32> into f32
// Remainder of the reduction: reads past K are zero.
// CHECK: vector.transfer_read %arg0{{.*}} : memref<8x40xf32>, vector<16xf32>
// SMALL-LABEL: func.func @dense
// SMALL-COUNT-2: vector.load %arg0
// SMALL-COUNT-3: vector.load %arg1
// SMALL-COUNT-6: vector.fma {{.*}} : vector<4xf32>
func.func @dense(%x: memref<8x40xf32>, %w: memref<12x40xf32>, %y: memref<8x12xf32>) {
  linalg.matmul indexing_maps = [#mk, #nk, #mn]
      ins(%x, %w : memref<8x40xf32>, memref<12x40xf32>) outs(%y : memref<8x12xf32>)
  return
}

// The right-hand side's contiguous dimension is the output's: not this form.
// CHECK-LABEL: func.func @plain
// CHECK: linalg.matmul
func.func @plain(%a: memref<8x40xf32>, %b: memref<40x12xf32>, %y: memref<8x12xf32>) {
  linalg.matmul ins(%a, %b : memref<8x40xf32>, memref<40x12xf32>) outs(%y : memref<8x12xf32>)
  return
}

// Integers stay with the other lowerings.
// CHECK-LABEL: func.func @integers
// CHECK: linalg.matmul
func.func @integers(%a: memref<8x40xi32>, %b: memref<12x40xi32>, %y: memref<8x12xi32>) {
  linalg.matmul indexing_maps = [#mk, #nk, #mn]
      ins(%a, %b : memref<8x40xi32>, memref<12x40xi32>) outs(%y : memref<8x12xi32>)
  return
}

// BAD: error: --raf-dot-product-contraction: vector-bits must be at least 64 and block-m, block-n, k-block at least 1
