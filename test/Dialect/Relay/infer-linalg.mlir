// RUN: raf-opt %s | FileCheck %s

// Result types of nn.dense, nn.matmul and nn.batch_matmul.

// nn.dense: x[..., K] * w[N, K]^T -> [..., N].
// CHECK-LABEL: func.func @dense
func.func @dense(%x: tensor<5x7xf32>, %x3: tensor<2x5x7xf32>, %x1: tensor<7xf32>,
                 %w: tensor<6x7xf32>, %q: tensor<3x16xi8>, %qw: tensor<4x16xi8>,
                 %dx: tensor<?x7xf32>) {
  // CHECK: relay.nn.dense %{{.*}}, %{{.*}} : (tensor<5x7xf32>, tensor<6x7xf32>) -> tensor<5x6xf32>
  %0 = relay.nn.dense %x, %w : (tensor<5x7xf32>, tensor<6x7xf32>)
  // Leading dimensions of a rank-3 input are kept.
  // CHECK: relay.nn.dense %{{.*}}, %{{.*}} : (tensor<2x5x7xf32>, tensor<6x7xf32>) -> tensor<2x5x6xf32>
  %1 = relay.nn.dense %x3, %w : (tensor<2x5x7xf32>, tensor<6x7xf32>)
  // CHECK: relay.nn.dense %{{.*}}, %{{.*}} : (tensor<7xf32>, tensor<6x7xf32>) -> tensor<6xf32>
  %2 = relay.nn.dense %x1, %w : (tensor<7xf32>, tensor<6x7xf32>)
  // CHECK: relay.nn.dense %{{.*}}, %{{.*}} {out_dtype = i32} : (tensor<3x16xi8>, tensor<4x16xi8>) -> tensor<3x4xi32>
  %3 = relay.nn.dense %q, %qw {out_dtype = i32} : (tensor<3x16xi8>, tensor<4x16xi8>)
  // CHECK: relay.nn.dense %{{.*}}, %{{.*}} : (tensor<?x7xf32>, tensor<6x7xf32>) -> tensor<?x6xf32>
  %4 = relay.nn.dense %dx, %w : (tensor<?x7xf32>, tensor<6x7xf32>)
  return
}

// nn.matmul: op(a)[M, K] * op(b)[K, N].
// CHECK-LABEL: func.func @matmul
func.func @matmul(%a: tensor<5x7xf32>, %at: tensor<7x5xf32>,
                  %b: tensor<7x6xf32>, %bt: tensor<6x7xf32>) {
  // CHECK: relay.nn.matmul %{{.*}}, %{{.*}} : (tensor<5x7xf32>, tensor<7x6xf32>) -> tensor<5x6xf32>
  %0 = relay.nn.matmul %a, %b : (tensor<5x7xf32>, tensor<7x6xf32>)
  // CHECK: relay.nn.matmul %{{.*}}, %{{.*}} {transpose_a = true} : (tensor<7x5xf32>, tensor<7x6xf32>) -> tensor<5x6xf32>
  %1 = relay.nn.matmul %at, %b {transpose_a = true} : (tensor<7x5xf32>, tensor<7x6xf32>)
  // CHECK: relay.nn.matmul %{{.*}}, %{{.*}} {transpose_b = true} : (tensor<5x7xf32>, tensor<6x7xf32>) -> tensor<5x6xf32>
  %2 = relay.nn.matmul %a, %bt {transpose_b = true} : (tensor<5x7xf32>, tensor<6x7xf32>)
  // CHECK: relay.nn.matmul %{{.*}}, %{{.*}} {transpose_a = true, transpose_b = true} : (tensor<7x5xf32>, tensor<6x7xf32>) -> tensor<5x6xf32>
  %3 = relay.nn.matmul %at, %bt {transpose_a = true, transpose_b = true} : (tensor<7x5xf32>, tensor<6x7xf32>)
  // a^T a: [7, 5] x [5, 7] -> [7, 7] with transpose_a on a [5, 7] operand.
  // CHECK: relay.nn.matmul %{{.*}}, %{{.*}} {transpose_a = true} : (tensor<5x7xf32>, tensor<5x7xf32>) -> tensor<7x7xf32>
  %4 = relay.nn.matmul %a, %a {transpose_a = true} : (tensor<5x7xf32>, tensor<5x7xf32>)
  return
}

// nn.batch_matmul: op(a)[B, M, K] * op(b)[B, K, N]; transpose_b defaults to
// true as in TVM, and a batch of 1 broadcasts.
// CHECK-LABEL: func.func @batch_matmul
func.func @batch_matmul(%a: tensor<4x5x7xf32>, %a1: tensor<1x5x7xf32>,
                        %at: tensor<4x7x5xf32>, %bt: tensor<4x6x7xf32>,
                        %b1: tensor<1x6x7xf32>, %b: tensor<4x7x6xf32>) {
  // Default transpose_b = true: b is [B, N, K].
  // CHECK: relay.nn.batch_matmul %{{.*}}, %{{.*}} : (tensor<4x5x7xf32>, tensor<4x6x7xf32>) -> tensor<4x5x6xf32>
  %0 = relay.nn.batch_matmul %a, %bt : (tensor<4x5x7xf32>, tensor<4x6x7xf32>)
  // transpose_b = false: b is [B, K, N].
  // CHECK: relay.nn.batch_matmul %{{.*}}, %{{.*}} {transpose_b = false} : (tensor<4x5x7xf32>, tensor<4x7x6xf32>) -> tensor<4x5x6xf32>
  %1 = relay.nn.batch_matmul %a, %b {transpose_b = false} : (tensor<4x5x7xf32>, tensor<4x7x6xf32>)
  // CHECK: relay.nn.batch_matmul %{{.*}}, %{{.*}} {transpose_a = true} : (tensor<4x7x5xf32>, tensor<4x6x7xf32>) -> tensor<4x5x6xf32>
  %2 = relay.nn.batch_matmul %at, %bt {transpose_a = true} : (tensor<4x7x5xf32>, tensor<4x6x7xf32>)
  // Batch broadcasting on either side.
  // CHECK: relay.nn.batch_matmul %{{.*}}, %{{.*}} : (tensor<1x5x7xf32>, tensor<4x6x7xf32>) -> tensor<4x5x6xf32>
  %3 = relay.nn.batch_matmul %a1, %bt : (tensor<1x5x7xf32>, tensor<4x6x7xf32>)
  // CHECK: relay.nn.batch_matmul %{{.*}}, %{{.*}} : (tensor<4x5x7xf32>, tensor<1x6x7xf32>) -> tensor<4x5x6xf32>
  %4 = relay.nn.batch_matmul %a, %b1 : (tensor<4x5x7xf32>, tensor<1x6x7xf32>)
  // CHECK: relay.nn.batch_matmul %{{.*}}, %{{.*}} : (tensor<1x5x7xf32>, tensor<1x6x7xf32>) -> tensor<1x5x6xf32>
  %5 = relay.nn.batch_matmul %a1, %b1 : (tensor<1x5x7xf32>, tensor<1x6x7xf32>)
  return
}
