// A small TOSA classifier (conv2d + bias, relu6 clamp, max pooling, reshape,
// matmul + bias, softmax from reduce_max/sub/exp/reduce_sum/reciprocal/mul)
// converts to relay that verifies, and the relay runs on both raf-run
// targets with the results of the same network written in PyTorch.
//
// RUN: raf-opt --convert-tosa-to-relay %s -o %t.mlir
// RUN: FileCheck %s < %t.mlir
// RUN: rm -rf %t.dir && mkdir -p %t.dir
// RUN: %python %S/Inputs/network.py generate %t.dir
// RUN: raf-run %t.mlir --entry=network --target=interp --input=%t.dir/x.npy --input=%t.dir/w.npy --input=%t.dir/b.npy --input=%t.dir/fc.npy --output=%t.dir/interp.npy
// RUN: raf-run %t.mlir --entry=network --target=cpu --input=%t.dir/x.npy --input=%t.dir/w.npy --input=%t.dir/b.npy --input=%t.dir/fc.npy --output=%t.dir/cpu.npy
// RUN: %python %S/Inputs/network.py check %t.dir %t.dir/interp.npy %t.dir/cpu.npy | FileCheck %s --check-prefix=NUMERIC

// CHECK-LABEL: func.func @network
// CHECK-NOT: tosa.
// CHECK: relay.nn.conv2d %arg0, %arg1 {data_layout = #relay.layout<NHWC>, kernel_layout = #relay.layout<OHWI>, padding = array<i64: 1, 1, 1, 1>}
// CHECK: relay.nn.bias_add
// CHECK: relay.maximum
// CHECK: relay.minimum
// CHECK: relay.nn.max_pool2d
// CHECK: relay.reshape
// CHECK: relay.nn.batch_matmul
// CHECK: relay.constant
// CHECK: relay.add
// CHECK: relay.max
// CHECK: relay.subtract
// CHECK: relay.exp
// CHECK: relay.sum
// CHECK: relay.divide
// CHECK: relay.multiply
// CHECK-NOT: tosa.

// NUMERIC: interp: max abs error {{[0-9.e-]+}} ok
// NUMERIC: cpu: max abs error {{[0-9.e-]+}} ok

func.func @network(%x: tensor<1x8x8x3xf32>, %w: tensor<4x3x3x3xf32>, %b: tensor<4xf32>, %fc: tensor<1x64x10xf32>) -> tensor<1x1x10xf32> {
  %zp = "tosa.const"() {values = dense<0.0> : tensor<1xf32>} : () -> tensor<1xf32>
  %shift = "tosa.const"() {values = dense<0> : tensor<1xi8>} : () -> tensor<1xi8>
  %conv = tosa.conv2d %x, %w, %b, %zp, %zp {acc_type = f32, dilation = array<i64: 1, 1>, pad = array<i64: 1, 1, 1, 1>, stride = array<i64: 1, 1>} : (tensor<1x8x8x3xf32>, tensor<4x3x3x3xf32>, tensor<4xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x8x8x4xf32>
  %relu6 = tosa.clamp %conv {min_val = 0.0 : f32, max_val = 6.0 : f32} : (tensor<1x8x8x4xf32>) -> tensor<1x8x8x4xf32>
  %pool = tosa.max_pool2d %relu6 {kernel = array<i64: 2, 2>, pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 2, 2>} : (tensor<1x8x8x4xf32>) -> tensor<1x4x4x4xf32>
  %shape = tosa.const_shape {values = dense<[1, 1, 64]> : tensor<3xindex>} : () -> !tosa.shape<3>
  %flat = tosa.reshape %pool, %shape : (tensor<1x4x4x4xf32>, !tosa.shape<3>) -> tensor<1x1x64xf32>
  %fc_out = tosa.matmul %flat, %fc, %zp, %zp : (tensor<1x1x64xf32>, tensor<1x64x10xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x1x10xf32>
  %fc_bias = "tosa.const"() {values = dense<[[[0.1, -0.2, 0.3, -0.4, 0.5, -0.6, 0.7, -0.8, 0.9, -1.0]]]> : tensor<1x1x10xf32>} : () -> tensor<1x1x10xf32>
  %logits = tosa.add %fc_out, %fc_bias : (tensor<1x1x10xf32>, tensor<1x1x10xf32>) -> tensor<1x1x10xf32>
  %max = tosa.reduce_max %logits {axis = 2 : i32} : (tensor<1x1x10xf32>) -> tensor<1x1x1xf32>
  %shifted = tosa.sub %logits, %max : (tensor<1x1x10xf32>, tensor<1x1x1xf32>) -> tensor<1x1x10xf32>
  %exp = tosa.exp %shifted : (tensor<1x1x10xf32>) -> tensor<1x1x10xf32>
  %sum = tosa.reduce_sum %exp {axis = 2 : i32} : (tensor<1x1x10xf32>) -> tensor<1x1x1xf32>
  %inv = tosa.reciprocal %sum : (tensor<1x1x1xf32>) -> tensor<1x1x1xf32>
  %probs = tosa.mul %exp, %inv, %shift : (tensor<1x1x10xf32>, tensor<1x1x1xf32>, tensor<1xi8>) -> tensor<1x1x10xf32>
  return %probs : tensor<1x1x10xf32>
}
