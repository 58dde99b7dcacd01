// RUN: raf-opt %s --convert-relay-to-tcg | FileCheck %s --check-prefix=IR
// RUN: raf-opt %s --convert-relay-to-tcg --tcg-print-tensor-exprs -o /dev/null | FileCheck %s

// nn.dense, nn.matmul and nn.batch_matmul: rows -> x, output features -> y,
// the reduced dimension -> z; batch iterators have no GEMM axis.

// IR-LABEL: func.func @dense_int8
// IR:       tcg.kernel "nn.dense" (%x = %arg0 : tensor<1x16xi8>, %weight = %arg1 : tensor<16x16xi8>) -> tensor<1x16xi32>
// IR:       tcg.compute mul %{{.*}}, %{{.*}} : (i8, i8) -> i32
// IR-NOT:   relay.nn

// nn.dense on a vector, a matrix and a 3-D tensor (leading batch axes).
// CHECK:      nn.dense: out[n] = add_{k} (x[k] * weight[n, k])
// CHECK-NEXT:   n: [0, 5) gemm y
// CHECK-NEXT:   k: [0, 4) reduction gemm z
// CHECK-NEXT:   x: tensor<4xf32>
// CHECK-NEXT:   weight: tensor<5x4xf32>
// CHECK-NEXT:   out: tensor<5xf32>
func.func @dense_vector(%x: tensor<4xf32>, %w: tensor<5x4xf32>) -> tensor<5xf32> {
  %0 = relay.nn.dense %x, %w : (tensor<4xf32>, tensor<5x4xf32>)
  return %0 : tensor<5xf32>
}

// CHECK-NEXT: nn.dense: out[m, n] = add_{k} (x[m, k] * weight[n, k])
// CHECK-NEXT:   m: [0, 3) gemm x
// CHECK-NEXT:   n: [0, 5) gemm y
// CHECK-NEXT:   k: [0, 4) reduction gemm z
// CHECK-NEXT:   x: tensor<3x4xf32>
// CHECK-NEXT:   weight: tensor<5x4xf32>
// CHECK-NEXT:   out: tensor<3x5xf32>
func.func @dense(%x: tensor<3x4xf32>, %w: tensor<5x4xf32>) -> tensor<3x5xf32> {
  %0 = relay.nn.dense %x, %w : (tensor<3x4xf32>, tensor<5x4xf32>)
  return %0 : tensor<3x5xf32>
}

// CHECK-NEXT: nn.dense: out[b0, m, n] = add_{k} (x[b0, m, k] * weight[n, k])
// CHECK-NEXT:   b0: [0, 2)
// CHECK-NEXT:   m: [0, 3) gemm x
// CHECK-NEXT:   n: [0, 5) gemm y
// CHECK-NEXT:   k: [0, 4) reduction gemm z
// CHECK-NEXT:   x: tensor<2x3x4xf32>
// CHECK-NEXT:   weight: tensor<5x4xf32>
// CHECK-NEXT:   out: tensor<2x3x5xf32>
func.func @dense_batched(%x: tensor<2x3x4xf32>, %w: tensor<5x4xf32>) -> tensor<2x3x5xf32> {
  %0 = relay.nn.dense %x, %w : (tensor<2x3x4xf32>, tensor<5x4xf32>)
  return %0 : tensor<2x3x5xf32>
}

// nn.dense, int8 x int8 accumulated in int32.
// CHECK-NEXT: nn.dense: out[m, n] = add_{k} (x[m, k] * weight[n, k])
// CHECK-NEXT:   m: [0, 1) gemm x
// CHECK-NEXT:   n: [0, 16) gemm y
// CHECK-NEXT:   k: [0, 16) reduction gemm z
// CHECK-NEXT:   x: tensor<1x16xi8>
// CHECK-NEXT:   weight: tensor<16x16xi8>
// CHECK-NEXT:   out: tensor<1x16xi32>
func.func @dense_int8(%x: tensor<1x16xi8>, %w: tensor<16x16xi8>) -> tensor<1x16xi32> {
  %0 = relay.nn.dense %x, %w {out_dtype = i32} : (tensor<1x16xi8>, tensor<16x16xi8>)
  return %0 : tensor<1x16xi32>
}

// nn.matmul with every combination of transposes.
// CHECK-NEXT: nn.matmul: out[m, n] = add_{k} (a[m, k] * b[k, n])
// CHECK-NEXT:   m: [0, 3) gemm x
// CHECK-NEXT:   n: [0, 5) gemm y
// CHECK-NEXT:   k: [0, 4) reduction gemm z
// CHECK-NEXT:   a: tensor<3x4xf32>
// CHECK-NEXT:   b: tensor<4x5xf32>
// CHECK-NEXT:   out: tensor<3x5xf32>
func.func @matmul(%a: tensor<3x4xf32>, %b: tensor<4x5xf32>) -> tensor<3x5xf32> {
  %0 = relay.nn.matmul %a, %b : (tensor<3x4xf32>, tensor<4x5xf32>)
  return %0 : tensor<3x5xf32>
}

// CHECK-NEXT: nn.matmul: out[m, n] = add_{k} (a[k, m] * b[k, n])
// CHECK-NEXT:   m: [0, 3) gemm x
// CHECK-NEXT:   n: [0, 5) gemm y
// CHECK-NEXT:   k: [0, 4) reduction gemm z
// CHECK-NEXT:   a: tensor<4x3xf32>
// CHECK-NEXT:   b: tensor<4x5xf32>
// CHECK-NEXT:   out: tensor<3x5xf32>
func.func @matmul_ta(%a: tensor<4x3xf32>, %b: tensor<4x5xf32>) -> tensor<3x5xf32> {
  %0 = relay.nn.matmul %a, %b {transpose_a = true} : (tensor<4x3xf32>, tensor<4x5xf32>)
  return %0 : tensor<3x5xf32>
}

// CHECK-NEXT: nn.matmul: out[m, n] = add_{k} (a[m, k] * b[n, k])
// CHECK-NEXT:   m: [0, 3) gemm x
// CHECK-NEXT:   n: [0, 5) gemm y
// CHECK-NEXT:   k: [0, 4) reduction gemm z
// CHECK-NEXT:   a: tensor<3x4xf32>
// CHECK-NEXT:   b: tensor<5x4xf32>
// CHECK-NEXT:   out: tensor<3x5xf32>
func.func @matmul_tb(%a: tensor<3x4xf32>, %b: tensor<5x4xf32>) -> tensor<3x5xf32> {
  %0 = relay.nn.matmul %a, %b {transpose_b = true} : (tensor<3x4xf32>, tensor<5x4xf32>)
  return %0 : tensor<3x5xf32>
}

// CHECK-NEXT: nn.matmul: out[m, n] = add_{k} (a[k, m] * b[n, k])
// CHECK-NEXT:   m: [0, 3) gemm x
// CHECK-NEXT:   n: [0, 5) gemm y
// CHECK-NEXT:   k: [0, 4) reduction gemm z
// CHECK-NEXT:   a: tensor<4x3xi8>
// CHECK-NEXT:   b: tensor<5x4xi8>
// CHECK-NEXT:   out: tensor<3x5xi32>
func.func @matmul_tab(%a: tensor<4x3xi8>, %b: tensor<5x4xi8>) -> tensor<3x5xi32> {
  %0 = relay.nn.matmul %a, %b {transpose_a = true, transpose_b = true, out_dtype = i32} : (tensor<4x3xi8>, tensor<5x4xi8>)
  return %0 : tensor<3x5xi32>
}

// nn.batch_matmul: TVM's default transpose_b, no transposes, transpose_a,
// and a batch of 1 broadcast to the other operand's batch.
// CHECK-NEXT: nn.batch_matmul: out[batch, m, n] = add_{k} (a[batch, m, k] * b[batch, n, k])
// CHECK-NEXT:   batch: [0, 2)
// CHECK-NEXT:   m: [0, 3) gemm x
// CHECK-NEXT:   n: [0, 5) gemm y
// CHECK-NEXT:   k: [0, 4) reduction gemm z
// CHECK-NEXT:   a: tensor<2x3x4xf32>
// CHECK-NEXT:   b: tensor<2x5x4xf32>
// CHECK-NEXT:   out: tensor<2x3x5xf32>
func.func @batch_matmul(%a: tensor<2x3x4xf32>, %b: tensor<2x5x4xf32>) -> tensor<2x3x5xf32> {
  %0 = relay.nn.batch_matmul %a, %b : (tensor<2x3x4xf32>, tensor<2x5x4xf32>)
  return %0 : tensor<2x3x5xf32>
}

// CHECK-NEXT: nn.batch_matmul: out[batch, m, n] = add_{k} (a[batch, m, k] * b[batch, k, n])
// CHECK-NEXT:   batch: [0, 2)
// CHECK-NEXT:   m: [0, 3) gemm x
// CHECK-NEXT:   n: [0, 5) gemm y
// CHECK-NEXT:   k: [0, 4) reduction gemm z
// CHECK-NEXT:   a: tensor<2x3x4xf32>
// CHECK-NEXT:   b: tensor<2x4x5xf32>
// CHECK-NEXT:   out: tensor<2x3x5xf32>
func.func @batch_matmul_nt(%a: tensor<2x3x4xf32>, %b: tensor<2x4x5xf32>) -> tensor<2x3x5xf32> {
  %0 = relay.nn.batch_matmul %a, %b {transpose_b = false} : (tensor<2x3x4xf32>, tensor<2x4x5xf32>)
  return %0 : tensor<2x3x5xf32>
}

// CHECK-NEXT: nn.batch_matmul: out[batch, m, n] = add_{k} (a[batch, k, m] * b[batch, n, k])
// CHECK-NEXT:   batch: [0, 2)
// CHECK-NEXT:   m: [0, 3) gemm x
// CHECK-NEXT:   n: [0, 5) gemm y
// CHECK-NEXT:   k: [0, 4) reduction gemm z
// CHECK-NEXT:   a: tensor<2x4x3xf32>
// CHECK-NEXT:   b: tensor<2x5x4xf32>
// CHECK-NEXT:   out: tensor<2x3x5xf32>
func.func @batch_matmul_ta(%a: tensor<2x4x3xf32>, %b: tensor<2x5x4xf32>) -> tensor<2x3x5xf32> {
  %0 = relay.nn.batch_matmul %a, %b {transpose_a = true} : (tensor<2x4x3xf32>, tensor<2x5x4xf32>)
  return %0 : tensor<2x3x5xf32>
}

// CHECK-NEXT: nn.batch_matmul: out[batch, m, n] = add_{k} (a[0, m, k] * b[batch, n, k])
// CHECK-NEXT:   batch: [0, 2)
// CHECK-NEXT:   m: [0, 3) gemm x
// CHECK-NEXT:   n: [0, 5) gemm y
// CHECK-NEXT:   k: [0, 4) reduction gemm z
// CHECK-NEXT:   a: tensor<1x3x4xf32>
// CHECK-NEXT:   b: tensor<2x5x4xf32>
// CHECK-NEXT:   out: tensor<2x3x5xf32>
func.func @batch_matmul_broadcast(%a: tensor<1x3x4xf32>, %b: tensor<2x5x4xf32>) -> tensor<2x3x5xf32> {
  %0 = relay.nn.batch_matmul %a, %b : (tensor<1x3x4xf32>, tensor<2x5x4xf32>)
  return %0 : tensor<2x3x5xf32>
}
