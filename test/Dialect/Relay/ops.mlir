// RUN: raf-opt %s | raf-opt | FileCheck %s
// RUN: raf-opt %s --mlir-print-op-generic | raf-opt | FileCheck %s

// Round trip of every relay operator (RelayOperators.td) in its custom form.
// Result types are left out of the input: they are inferred and printed.
// Attributes equal to their default are elided when printing.

// CHECK-LABEL: func.func @unary
func.func @unary(%x: tensor<2x3xf32>, %i: tensor<4xi32>) {
  // CHECK: relay.nn.relu %{{.*}} : (tensor<2x3xf32>) -> tensor<2x3xf32>
  %0 = relay.nn.relu %x : (tensor<2x3xf32>)
  // CHECK: relay.nn.relu %{{.*}} : (tensor<4xi32>) -> tensor<4xi32>
  %1 = relay.nn.relu %i : (tensor<4xi32>)
  // CHECK: relay.nn.leaky_relu %{{.*}} {alpha = 2.000000e-01 : f64} : (tensor<2x3xf32>) -> tensor<2x3xf32>
  %2 = relay.nn.leaky_relu %x {alpha = 2.000000e-01 : f64} : (tensor<2x3xf32>)
  // CHECK: relay.sigmoid %{{.*}} : (tensor<2x3xf32>) -> tensor<2x3xf32>
  %3 = relay.sigmoid %x : (tensor<2x3xf32>)
  // CHECK: relay.tanh %{{.*}} : (tensor<2x3xf32>) -> tensor<2x3xf32>
  %4 = relay.tanh %x : (tensor<2x3xf32>)
  // CHECK: relay.exp %{{.*}} : (tensor<2x3xf32>) -> tensor<2x3xf32>
  %5 = relay.exp %x : (tensor<2x3xf32>)
  // CHECK: relay.log %{{.*}} : (tensor<2x3xf32>) -> tensor<2x3xf32>
  %6 = relay.log %x : (tensor<2x3xf32>)
  // CHECK: relay.sqrt %{{.*}} : (tensor<2x3xf32>) -> tensor<2x3xf32>
  %7 = relay.sqrt %x : (tensor<2x3xf32>)
  // CHECK: relay.rsqrt %{{.*}} : (tensor<2x3xf32>) -> tensor<2x3xf32>
  %8 = relay.rsqrt %x : (tensor<2x3xf32>)
  // CHECK: relay.erf %{{.*}} : (tensor<2x3xf32>) -> tensor<2x3xf32>
  %9 = relay.erf %x : (tensor<2x3xf32>)
  // CHECK: relay.nn.gelu %{{.*}} : (tensor<2x3xf32>) -> tensor<2x3xf32>
  %10 = relay.nn.gelu %x : (tensor<2x3xf32>)
  // CHECK: relay.nn.gelu %{{.*}} {approximate = #relay.gelu_approximation<tanh>} : (tensor<2x3xf32>) -> tensor<2x3xf32>
  %11 = relay.nn.gelu %x {approximate = #relay.gelu_approximation<tanh>} : (tensor<2x3xf32>)
  // CHECK: relay.negative %{{.*}} : (tensor<4xi32>) -> tensor<4xi32>
  %12 = relay.negative %i : (tensor<4xi32>)
  // CHECK: relay.square %{{.*}} : (tensor<2x3xf32>) -> tensor<2x3xf32>
  %13 = relay.square %x : (tensor<2x3xf32>)
  // CHECK: relay.nn.dropout %{{.*}} {rate = 2.500000e-01 : f64, seed = 7 : i64} : (tensor<2x3xf32>) -> tensor<2x3xf32>
  %14 = relay.nn.dropout %x {rate = 2.500000e-01 : f64, seed = 7 : i64} : (tensor<2x3xf32>)
  // CHECK: relay.zeros_like %{{.*}} : (tensor<2x3xf32>) -> tensor<2x3xf32>
  %15 = relay.zeros_like %x : (tensor<2x3xf32>)
  // CHECK: relay.ones_like %{{.*}} : (tensor<4xi32>) -> tensor<4xi32>
  %16 = relay.ones_like %i : (tensor<4xi32>)
  // CHECK: relay.cast %{{.*}} {dtype = f16} : (tensor<2x3xf32>) -> tensor<2x3xf16>
  %17 = relay.cast %x {dtype = f16} : (tensor<2x3xf32>)
  return
}
// CHECK-LABEL: func.func @binary
func.func @binary(%a: tensor<2x3xf32>, %b: tensor<3xf32>, %i: tensor<4xi32>, %c: tensor<2x1xi1>) {
  // CHECK: relay.add %{{.*}}, %{{.*}} : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xf32>
  %0 = relay.add %a, %b : (tensor<2x3xf32>, tensor<3xf32>)
  // CHECK: relay.subtract %{{.*}}, %{{.*}} : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xf32>
  %1 = relay.subtract %a, %b : (tensor<2x3xf32>, tensor<3xf32>)
  // CHECK: relay.multiply %{{.*}}, %{{.*}} : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xf32>
  %2 = relay.multiply %a, %b : (tensor<2x3xf32>, tensor<3xf32>)
  // CHECK: relay.divide %{{.*}}, %{{.*}} : (tensor<4xi32>, tensor<4xi32>) -> tensor<4xi32>
  %3 = relay.divide %i, %i : (tensor<4xi32>, tensor<4xi32>)
  // CHECK: relay.power %{{.*}}, %{{.*}} : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xf32>
  %4 = relay.power %a, %b : (tensor<2x3xf32>, tensor<3xf32>)
  // CHECK: relay.maximum %{{.*}}, %{{.*}} : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xf32>
  %5 = relay.maximum %a, %b : (tensor<2x3xf32>, tensor<3xf32>)
  // CHECK: relay.minimum %{{.*}}, %{{.*}} : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xf32>
  %6 = relay.minimum %a, %b : (tensor<2x3xf32>, tensor<3xf32>)
  // CHECK: relay.equal %{{.*}}, %{{.*}} : (tensor<2x1xi1>, tensor<2x1xi1>) -> tensor<2x1xi1>
  %7 = relay.equal %c, %c : (tensor<2x1xi1>, tensor<2x1xi1>)
  // CHECK: relay.not_equal %{{.*}}, %{{.*}} : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xi1>
  %8 = relay.not_equal %a, %b : (tensor<2x3xf32>, tensor<3xf32>)
  // CHECK: relay.less %{{.*}}, %{{.*}} : (tensor<4xi32>, tensor<4xi32>) -> tensor<4xi1>
  %9 = relay.less %i, %i : (tensor<4xi32>, tensor<4xi32>)
  // CHECK: relay.less_equal %{{.*}}, %{{.*}} : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xi1>
  %10 = relay.less_equal %a, %b : (tensor<2x3xf32>, tensor<3xf32>)
  // CHECK: relay.greater %{{.*}}, %{{.*}} : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xi1>
  %11 = relay.greater %a, %b : (tensor<2x3xf32>, tensor<3xf32>)
  // CHECK: relay.greater_equal %{{.*}}, %{{.*}} : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xi1>
  %12 = relay.greater_equal %a, %b : (tensor<2x3xf32>, tensor<3xf32>)
  // CHECK: relay.where %{{.*}}, %{{.*}}, %{{.*}} : (tensor<2x1xi1>, tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xf32>
  %13 = relay.where %c, %a, %b : (tensor<2x1xi1>, tensor<2x3xf32>, tensor<3xf32>)
  // CHECK: relay.nn.bias_add %{{.*}}, %{{.*}} {axis = -1 : i64} : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xf32>
  %14 = relay.nn.bias_add %a, %b {axis = -1 : i64} : (tensor<2x3xf32>, tensor<3xf32>)
  return
}

// CHECK-LABEL: func.func @linalg
func.func @linalg(%x: tensor<1x3x8x8xf32>, %w: tensor<4x3x3x3xf32>, %tw: tensor<3x2x3x3xf32>,
                  %m: tensor<5x7xf32>, %n: tensor<6x7xf32>, %p: tensor<2x5x7xf32>, %q: tensor<2x6x7xf32>) {
  // CHECK: relay.nn.conv2d %{{.*}}, %{{.*}} {padding = array<i64: 1>, strides = array<i64: 2, 2>} : (tensor<1x3x8x8xf32>, tensor<4x3x3x3xf32>) -> tensor<1x4x4x4xf32>
  %0 = relay.nn.conv2d %x, %w {padding = array<i64: 1>, strides = array<i64: 2, 2>} : (tensor<1x3x8x8xf32>, tensor<4x3x3x3xf32>)
  // CHECK: relay.nn.conv2d_transpose %{{.*}}, %{{.*}} {output_padding = array<i64: 1, 1>, padding = array<i64: 1>, strides = array<i64: 2, 2>} : (tensor<1x3x8x8xf32>, tensor<3x2x3x3xf32>) -> tensor<1x2x16x16xf32>
  %1 = relay.nn.conv2d_transpose %x, %tw {strides = array<i64: 2, 2>, padding = array<i64: 1>, output_padding = array<i64: 1, 1>} : (tensor<1x3x8x8xf32>, tensor<3x2x3x3xf32>)
  // CHECK: relay.nn.dense %{{.*}}, %{{.*}} : (tensor<5x7xf32>, tensor<6x7xf32>) -> tensor<5x6xf32>
  %2 = relay.nn.dense %m, %n : (tensor<5x7xf32>, tensor<6x7xf32>)
  // CHECK: relay.nn.matmul %{{.*}}, %{{.*}} {transpose_b = true} : (tensor<5x7xf32>, tensor<6x7xf32>) -> tensor<5x6xf32>
  %3 = relay.nn.matmul %m, %n {transpose_b = true} : (tensor<5x7xf32>, tensor<6x7xf32>)
  // CHECK: relay.nn.batch_matmul %{{.*}}, %{{.*}} : (tensor<2x5x7xf32>, tensor<2x6x7xf32>) -> tensor<2x5x6xf32>
  %4 = relay.nn.batch_matmul %p, %q : (tensor<2x5x7xf32>, tensor<2x6x7xf32>)
  // Attributes spelt out at their default value are elided when printing.
  // CHECK: relay.nn.conv2d %{{.*}}, %{{.*}} : (tensor<1x3x8x8xf32>, tensor<4x3x3x3xf32>) -> tensor<1x4x6x6xf32>
  %5 = relay.nn.conv2d %x, %w {strides = array<i64: 1, 1>, padding = array<i64: 0, 0, 0, 0>, dilation = array<i64: 1, 1>, groups = 1 : i64, data_layout = #relay.layout<NCHW>, kernel_layout = #relay.layout<OIHW>} : (tensor<1x3x8x8xf32>, tensor<4x3x3x3xf32>)
  // An explicit result type is accepted when it matches the inferred one.
  // CHECK: relay.nn.batch_matmul %{{.*}}, %{{.*}} : (tensor<2x5x7xf32>, tensor<2x6x7xf32>) -> tensor<2x5x6xf32>
  %6 = relay.nn.batch_matmul %p, %q {transpose_b = true} : (tensor<2x5x7xf32>, tensor<2x6x7xf32>) -> tensor<2x5x6xf32>
  return
}

// CHECK-LABEL: func.func @nn
func.func @nn(%x: tensor<4x10xf32>, %g: tensor<10xf32>, %t: tensor<4xi64>,
              %img: tensor<2x3x8x8xf32>, %c: tensor<3xf32>) {
  // CHECK: relay.nn.softmax %{{.*}} : (tensor<4x10xf32>) -> tensor<4x10xf32>
  %0 = relay.nn.softmax %x : (tensor<4x10xf32>)
  // CHECK: relay.nn.log_softmax %{{.*}} {axis = 0 : i64} : (tensor<4x10xf32>) -> tensor<4x10xf32>
  %1 = relay.nn.log_softmax %x {axis = 0 : i64} : (tensor<4x10xf32>)
  // CHECK: relay.nn.layer_norm %{{.*}}, %{{.*}}, %{{.*}} {epsilon = 9.9999999999999995E-7 : f64} : (tensor<4x10xf32>, tensor<10xf32>, tensor<10xf32>) -> tensor<4x10xf32>
  %2 = relay.nn.layer_norm %x, %g, %g {epsilon = 1.000000e-06 : f64} : (tensor<4x10xf32>, tensor<10xf32>, tensor<10xf32>)
  // CHECK: relay.nn.batch_norm %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}} {training = true} : (tensor<2x3x8x8xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>) -> (tensor<2x3x8x8xf32>, tensor<3xf32>, tensor<3xf32>)
  %3:3 = relay.nn.batch_norm %img, %c, %c, %c, %c {training = true} : (tensor<2x3x8x8xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>)
  // CHECK: relay.nn.cross_entropy %{{.*}}, %{{.*}} : (tensor<4x10xf32>, tensor<4xi64>) -> tensor<f32>
  %4 = relay.nn.cross_entropy %x, %t : (tensor<4x10xf32>, tensor<4xi64>)
  // CHECK: relay.nn.nll_loss %{{.*}}, %{{.*}} {ignore_index = 0 : i64, reduction = #relay.loss_reduction<sum>} : (tensor<4x10xf32>, tensor<4xi64>) -> tensor<f32>
  %5 = relay.nn.nll_loss %x, %t {reduction = #relay.loss_reduction<sum>, ignore_index = 0 : i64} : (tensor<4x10xf32>, tensor<4xi64>)
  // CHECK: relay.nn.max_pool2d %{{.*}} {pool_size = array<i64: 2, 2>, strides = array<i64: 2, 2>} : (tensor<2x3x8x8xf32>) -> tensor<2x3x4x4xf32>
  %6 = relay.nn.max_pool2d %img {pool_size = array<i64: 2, 2>, strides = array<i64: 2, 2>} : (tensor<2x3x8x8xf32>)
  // CHECK: relay.nn.avg_pool2d %{{.*}} {count_include_pad = true, padding = array<i64: 1>, pool_size = array<i64: 3, 3>} : (tensor<2x3x8x8xf32>) -> tensor<2x3x8x8xf32>
  %7 = relay.nn.avg_pool2d %img {pool_size = array<i64: 3, 3>, padding = array<i64: 1>, count_include_pad = true} : (tensor<2x3x8x8xf32>)
  // CHECK: relay.nn.global_avg_pool2d %{{.*}} : (tensor<2x3x8x8xf32>) -> tensor<2x3x1x1xf32>
  %8 = relay.nn.global_avg_pool2d %img : (tensor<2x3x8x8xf32>)
  return
}

// The pooling gradients take (out_grad, data) and have data's type.
// CHECK-LABEL: func.func @pool_grad
func.func @pool_grad(%img: tensor<2x3x8x8xf32>, %g4: tensor<2x3x4x4xf32>,
                     %g8: tensor<2x3x8x8xf32>) {
  // CHECK: relay.nn.max_pool2d_grad %{{.*}}, %{{.*}} {pool_size = array<i64: 2, 2>, strides = array<i64: 2, 2>} : (tensor<2x3x4x4xf32>, tensor<2x3x8x8xf32>) -> tensor<2x3x8x8xf32>
  %0 = relay.nn.max_pool2d_grad %g4, %img {pool_size = array<i64: 2, 2>, strides = array<i64: 2, 2>} : (tensor<2x3x4x4xf32>, tensor<2x3x8x8xf32>)
  // CHECK: relay.nn.avg_pool2d_grad %{{.*}}, %{{.*}} {count_include_pad = true, padding = array<i64: 1>, pool_size = array<i64: 3, 3>} : (tensor<2x3x8x8xf32>, tensor<2x3x8x8xf32>) -> tensor<2x3x8x8xf32>
  %1 = relay.nn.avg_pool2d_grad %g8, %img {pool_size = array<i64: 3, 3>, padding = array<i64: 1>, count_include_pad = true} : (tensor<2x3x8x8xf32>, tensor<2x3x8x8xf32>)
  return
}

// CHECK-LABEL: func.func @reduce
func.func @reduce(%x: tensor<2x3x4xf32>) {
  // CHECK: relay.sum %{{.*}} {axis = array<i64: 1>} : (tensor<2x3x4xf32>) -> tensor<2x4xf32>
  %0 = relay.sum %x {axis = array<i64: 1>} : (tensor<2x3x4xf32>)
  // CHECK: relay.mean %{{.*}} {axis = array<i64: -1>, keepdims = true} : (tensor<2x3x4xf32>) -> tensor<2x3x1xf32>
  %1 = relay.mean %x {axis = array<i64: -1>, keepdims = true} : (tensor<2x3x4xf32>)
  // CHECK: relay.max %{{.*}} : (tensor<2x3x4xf32>) -> tensor<f32>
  %2 = relay.max %x : (tensor<2x3x4xf32>)
  // CHECK: relay.argmax %{{.*}} {axis = array<i64: 0>, exclude = true} : (tensor<2x3x4xf32>) -> tensor<2xi32>
  %3 = relay.argmax %x {axis = array<i64: 0>, exclude = true} : (tensor<2x3x4xf32>)
  return
}

// CHECK-LABEL: func.func @shape
func.func @shape(%x: tensor<2x3x4xf32>, %idx: tensor<5xi32>) {
  // CHECK: relay.reshape %{{.*}} {newshape = array<i64: 6, -1>} : (tensor<2x3x4xf32>) -> tensor<6x4xf32>
  %0 = relay.reshape %x {newshape = array<i64: 6, -1>} : (tensor<2x3x4xf32>)
  // CHECK: relay.transpose %{{.*}} : (tensor<2x3x4xf32>) -> tensor<4x3x2xf32>
  %1 = relay.transpose %x : (tensor<2x3x4xf32>)
  // CHECK: relay.transpose %{{.*}} {axes = array<i64: 1, 0, 2>} : (tensor<2x3x4xf32>) -> tensor<3x2x4xf32>
  %2 = relay.transpose %x {axes = array<i64: 1, 0, 2>} : (tensor<2x3x4xf32>)
  // CHECK: relay.expand_dims %{{.*}} {axis = 1 : i64, num_newaxis = 2 : i64} : (tensor<2x3x4xf32>) -> tensor<2x1x1x3x4xf32>
  %3 = relay.expand_dims %x {axis = 1 : i64, num_newaxis = 2 : i64} : (tensor<2x3x4xf32>)
  // CHECK: relay.squeeze %{{.*}} {axis = array<i64: 1>} : (tensor<2x1x1x3x4xf32>) -> tensor<2x1x3x4xf32>
  %4 = relay.squeeze %3 {axis = array<i64: 1>} : (tensor<2x1x1x3x4xf32>)
  // CHECK: relay.concatenate %{{.*}}, %{{.*}} {axis = 2 : i64} : (tensor<2x3x4xf32>, tensor<2x3x4xf32>) -> tensor<2x3x8xf32>
  %5 = relay.concatenate %x, %x {axis = 2 : i64} : (tensor<2x3x4xf32>, tensor<2x3x4xf32>)
  // CHECK: relay.split %{{.*}} {axis = 2 : i64, sections = 2 : i64} : (tensor<2x3x4xf32>) -> (tensor<2x3x2xf32>, tensor<2x3x2xf32>)
  %6:2 = relay.split %x {sections = 2 : i64, axis = 2 : i64} : (tensor<2x3x4xf32>)
  // CHECK: relay.split %{{.*}} {axis = 1 : i64, indices = array<i64: 1, 2>} : (tensor<2x3x4xf32>) -> (tensor<2x1x4xf32>, tensor<2x1x4xf32>, tensor<2x1x4xf32>)
  %7:3 = relay.split %x {indices = array<i64: 1, 2>, axis = 1 : i64} : (tensor<2x3x4xf32>)
  // CHECK: relay.strided_slice %{{.*}} {axes = array<i64: 0, 2>, begin = array<i64: 0, 1>, end = array<i64: 2, 3>, strides = array<i64: 1, 2>} : (tensor<2x3x4xf32>) -> tensor<2x3x1xf32>
  %8 = relay.strided_slice %x {begin = array<i64: 0, 1>, end = array<i64: 2, 3>, strides = array<i64: 1, 2>, axes = array<i64: 0, 2>} : (tensor<2x3x4xf32>)
  // CHECK: relay.take %{{.*}}, %{{.*}} {axis = 1 : i64, mode = #relay.take_mode<wrap>} : (tensor<2x3x4xf32>, tensor<5xi32>) -> tensor<2x5x4xf32>
  %9 = relay.take %x, %idx {axis = 1 : i64, mode = #relay.take_mode<wrap>} : (tensor<2x3x4xf32>, tensor<5xi32>)
  // CHECK: relay.nn.pad %{{.*}} {pad_value = 1.000000e+00 : f64, pad_width = array<i64: 0, 0, 1, 1, 2, 0>} : (tensor<2x3x4xf32>) -> tensor<2x5x6xf32>
  %10 = relay.nn.pad %x {pad_width = array<i64: 0, 0, 1, 1, 2, 0>, pad_value = 1.000000e+00 : f64} : (tensor<2x3x4xf32>)
  // CHECK: relay.broadcast_to %{{.*}} {shape = array<i64: 5, 2, 3, 4>} : (tensor<2x3x4xf32>) -> tensor<5x2x3x4xf32>
  %11 = relay.broadcast_to %x {shape = array<i64: 5, 2, 3, 4>} : (tensor<2x3x4xf32>)
  // CHECK: relay.zeros {dtype = f32, shape = array<i64: 2, 2>} : () -> tensor<2x2xf32>
  %12 = relay.zeros {shape = array<i64: 2, 2>, dtype = f32} : ()
  // CHECK: relay.ones {dtype = i8, shape = array<i64: 3>} : () -> tensor<3xi8>
  %13 = relay.ones {shape = array<i64: 3>, dtype = i8} : ()
  return
}
