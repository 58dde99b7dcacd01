// RUN: raf-opt %s -split-input-file -verify-diagnostics

// One case for every diagnostic of the relay dialect's verifiers and shape
// functions (lib/Dialect/Relay/IR/*.cpp). Operators are written in the custom
// form, which runs the shape function while parsing; the generic form reaches
// the same functions through the verifier (see the end of the file).

//===----------------------------------------------------------------------===//
// ShapeInference.cpp: shared checks
//===----------------------------------------------------------------------===//

func.func @unranked_operand(%x: tensor<*xf32>) {
  // expected-error @+1 {{relay.exp: operand #0 must be a ranked tensor, got 'tensor<*xf32>'}}
  %0 = relay.exp %x : (tensor<*xf32>)
  return
}

// -----

func.func @float_only(%x: tensor<4xi32>) {
  // expected-error @+1 {{relay.sigmoid: expects the operand to be a floating-point tensor, got 'tensor<4xi32>'}}
  %0 = relay.sigmoid %x : (tensor<4xi32>)
  return
}

// -----

func.func @numeric_only(%x: tensor<4xi1>) {
  // expected-error @+1 {{relay.nn.relu: expects the operand to be an integer or floating-point tensor, got 'tensor<4xi1>'}}
  %0 = relay.nn.relu %x : (tensor<4xi1>)
  return
}

// -----

func.func @broadcast_element(%a: tensor<4xf32>, %b: tensor<4xf16>) {
  // expected-error @+1 {{relay.add: operands must have the same element type, got 'tensor<4xf32>' and 'tensor<4xf16>'}}
  %0 = relay.add %a, %b : (tensor<4xf32>, tensor<4xf16>)
  return
}

// -----

func.func @broadcast_kind(%a: tensor<4xi1>) {
  // expected-error @+1 {{relay.less: expects the operands to be an integer or floating-point tensor, got 'tensor<4xi1>'}}
  %0 = relay.less %a, %a : (tensor<4xi1>, tensor<4xi1>)
  return
}

// -----

func.func @broadcast_shapes(%a: tensor<2x3xf32>, %b: tensor<4xf32>) {
  // expected-error @+1 {{relay.multiply: shapes of 'tensor<2x3xf32>' and 'tensor<4xf32>' are not broadcastable (trailing dimensions must be equal or 1)}}
  %0 = relay.multiply %a, %b : (tensor<2x3xf32>, tensor<4xf32>)
  return
}

// -----

func.func @axis_range(%x: tensor<2x3xf32>) {
  // expected-error @+1 {{relay.nn.softmax: axis 2 is out of range for a tensor of rank 2 (expected a value in [-2, 2))}}
  %0 = relay.nn.softmax %x {axis = 2 : i64} : (tensor<2x3xf32>)
  return
}

// -----

func.func @axis_preserving_rank0(%x: tensor<f32>) {
  // expected-error @+1 {{relay.nn.log_softmax: expects a tensor of rank >= 1, got 'tensor<f32>'}}
  %0 = relay.nn.log_softmax %x : (tensor<f32>)
  return
}

// -----

func.func @padding_count(%x: tensor<1x1x4x4xf32>, %w: tensor<1x1x3x3xf32>) {
  // expected-error @+1 {{relay.nn.conv2d: padding must have 1, 2 or 4 values, got 3}}
  %0 = relay.nn.conv2d %x, %w {padding = array<i64: 1, 1, 1>} : (tensor<1x1x4x4xf32>, tensor<1x1x3x3xf32>)
  return
}

// -----

func.func @padding_negative(%x: tensor<1x1x4x4xf32>) {
  // expected-error @+1 {{relay.nn.max_pool2d: padding must be non-negative}}
  %0 = relay.nn.max_pool2d %x {pool_size = array<i64: 2, 2>, padding = array<i64: 0, -1>} : (tensor<1x1x4x4xf32>)
  return
}

// -----

func.func @reduce_axis_range(%x: tensor<2x3xf32>) {
  // expected-error @+1 {{relay.sum: reduction axis -3 is out of range for a tensor of rank 2 (expected a value in [-2, 2))}}
  %0 = relay.sum %x {axis = array<i64: -3>} : (tensor<2x3xf32>)
  return
}

// -----

func.func @reduce_axis_twice(%x: tensor<2x3xf32>) {
  // expected-error @+1 {{relay.mean: reduction axis -1 is listed twice}}
  %0 = relay.mean %x {axis = array<i64: 1, -1>} : (tensor<2x3xf32>)
  return
}

//===----------------------------------------------------------------------===//
// RelayOperators.td: inline shape functions
//===----------------------------------------------------------------------===//

// -----

func.func @gelu_approximate(%x: tensor<4xf32>) {
  // expected-error @+2 {{expected one of none, tanh (approximation of nn.gelu)}}
  // expected-error @+1 {{failed to parse Relay_GeluApproximationAttr parameter 'value'}}
  %0 = relay.nn.gelu %x {approximate = #relay.gelu_approximation<fast>} : (tensor<4xf32>)
  return
}

// -----

func.func @gelu_approximate_string(%x: tensor<4xf32>) {
  // expected-error @+1 {{'relay.nn.gelu' op attribute 'approximate' failed to satisfy constraint: approximation of nn.gelu}}
  %0 = relay.nn.gelu %x {approximate = "tanh"} : (tensor<4xf32>)
  return
}

// -----

func.func @dropout_rate(%x: tensor<4xf32>) {
  // expected-error @+1 {{relay.nn.dropout: rate must be in [0, 1), got 1}}
  %0 = relay.nn.dropout %x {rate = 1.0 : f64} : (tensor<4xf32>)
  return
}

//===----------------------------------------------------------------------===//
// RelayOperators.cpp: element-wise
//===----------------------------------------------------------------------===//

// -----

func.func @cast_dtype(%x: tensor<4xf32>) {
  // expected-error @+1 {{relay.cast: dtype must be an integer or float type, got 'tuple<>'}}
  %0 = relay.cast %x {dtype = tuple<>} : (tensor<4xf32>)
  return
}

// -----

func.func @where_condition(%c: tensor<4xi8>, %x: tensor<4xf32>) {
  // expected-error @+1 {{relay.where: condition must be an i1 tensor, got 'tensor<4xi8>'}}
  %0 = relay.where %c, %x, %x : (tensor<4xi8>, tensor<4xf32>, tensor<4xf32>)
  return
}

// -----

func.func @where_element(%c: tensor<4xi1>, %x: tensor<4xf32>, %y: tensor<4xi32>) {
  // expected-error @+1 {{relay.where: x and y must have the same element type, got 'tensor<4xf32>' and 'tensor<4xi32>'}}
  %0 = relay.where %c, %x, %y : (tensor<4xi1>, tensor<4xf32>, tensor<4xi32>)
  return
}

// -----

func.func @where_shapes(%c: tensor<3xi1>, %x: tensor<4xf32>) {
  // expected-error @+1 {{relay.where: shapes of 'tensor<3xi1>', 'tensor<4xf32>' and 'tensor<4xf32>' are not broadcastable}}
  %0 = relay.where %c, %x, %x : (tensor<3xi1>, tensor<4xf32>, tensor<4xf32>)
  return
}

// -----

func.func @bias_add_shape(%x: tensor<2x16xf32>, %b: tensor<8xf32>) {
  // expected-error @+1 {{relay.nn.bias_add: bias must be 1-D with 16 elements (the size of axis 1), got 'tensor<8xf32>'}}
  %0 = relay.nn.bias_add %x, %b : (tensor<2x16xf32>, tensor<8xf32>)
  return
}

// -----

func.func @same_element(%x: tensor<2x16xf32>, %b: tensor<16xf16>) {
  // expected-error @+1 {{relay.nn.bias_add: operands must have the same element type, got 'tensor<2x16xf32>' and 'tensor<16xf16>'}}
  %0 = relay.nn.bias_add %x, %b : (tensor<2x16xf32>, tensor<16xf16>)
  return
}

// -----

func.func @numeric_pair(%a: tensor<2x2xi1>) {
  // expected-error @+1 {{relay.nn.matmul: expects integer or floating-point tensors, got 'tensor<2x2xi1>'}}
  %0 = relay.nn.matmul %a, %a : (tensor<2x2xi1>, tensor<2x2xi1>)
  return
}

//===----------------------------------------------------------------------===//
// RelayOperators.cpp: convolution
//===----------------------------------------------------------------------===//

// -----

func.func @conv_rank(%x: tensor<1x3x8xf32>, %w: tensor<4x3x3xf32>) {
  // expected-error @+1 {{relay.nn.conv2d: expects 4-D data and weight, got 'tensor<1x3x8xf32>' and 'tensor<4x3x3xf32>'}}
  %0 = relay.nn.conv2d %x, %w : (tensor<1x3x8xf32>, tensor<4x3x3xf32>)
  return
}

// -----

func.func @conv_data_layout(%x: tensor<1x3x8x8xf32>, %w: tensor<4x3x3x3xf32>) {
  // expected-error @+1 {{relay.nn.conv2d: data_layout #relay.layout<OIHW> is not a permutation of NCHW}}
  %0 = relay.nn.conv2d %x, %w {data_layout = #relay.layout<OIHW>} : (tensor<1x3x8x8xf32>, tensor<4x3x3x3xf32>)
  return
}

// -----

func.func @layout_not_a_permutation(%x: tensor<1x3x8x8xf32>, %w: tensor<4x3x3x3xf32>) {
  // expected-error @+1 {{layout "NCHH" is not a permutation of "NCHW" or "OIHW"}}
  %0 = relay.nn.conv2d %x, %w {data_layout = #relay.layout<NCHH>} : (tensor<1x3x8x8xf32>, tensor<4x3x3x3xf32>)
  return
}

// -----

func.func @layout_too_long(%x: tensor<1x3x8x8xf32>, %w: tensor<4x3x3x3xf32>) {
  // expected-error @+1 {{layout "NCHW16c" is not a permutation of "NCHW" or "OIHW"}}
  %0 = relay.nn.conv2d %x, %w {data_layout = #relay.layout<NCHW16c>} : (tensor<1x3x8x8xf32>, tensor<4x3x3x3xf32>)
  return
}

// -----

func.func @layout_string(%x: tensor<1x3x8x8xf32>, %w: tensor<4x3x3x3xf32>) {
  // expected-error @+1 {{'relay.nn.conv2d' op attribute 'data_layout' failed to satisfy constraint: a 4-D tensor layout: a permutation of NCHW or of OIHW}}
  %0 = relay.nn.conv2d %x, %w {data_layout = "NHWC"} : (tensor<1x3x8x8xf32>, tensor<4x3x3x3xf32>)
  return
}

// -----

func.func @conv_kernel_layout(%x: tensor<1x3x8x8xf32>, %w: tensor<4x3x3x3xf32>) {
  // expected-error @+1 {{relay.nn.conv2d: kernel_layout #relay.layout<NCHW> is not a permutation of OIHW}}
  %0 = relay.nn.conv2d %x, %w {kernel_layout = #relay.layout<NCHW>} : (tensor<1x3x8x8xf32>, tensor<4x3x3x3xf32>)
  return
}

// -----

func.func @conv_strides(%x: tensor<1x3x8x8xf32>, %w: tensor<4x3x3x3xf32>) {
  // expected-error @+1 {{relay.nn.conv2d: strides must have 2 values, each >= 1}}
  %0 = relay.nn.conv2d %x, %w {strides = array<i64: 0, 1>} : (tensor<1x3x8x8xf32>, tensor<4x3x3x3xf32>)
  return
}

// -----

func.func @conv_dilation(%x: tensor<1x3x8x8xf32>, %w: tensor<4x3x3x3xf32>) {
  // expected-error @+1 {{relay.nn.conv2d: dilation must have 2 values, each >= 1}}
  %0 = relay.nn.conv2d %x, %w {dilation = array<i64: 2>} : (tensor<1x3x8x8xf32>, tensor<4x3x3x3xf32>)
  return
}

// -----

func.func @conv_groups(%x: tensor<1x3x8x8xf32>, %w: tensor<4x3x3x3xf32>) {
  // expected-error @+1 {{relay.nn.conv2d: groups must be >= 1, got 0}}
  %0 = relay.nn.conv2d %x, %w {groups = 0 : i64} : (tensor<1x3x8x8xf32>, tensor<4x3x3x3xf32>)
  return
}

// -----

func.func @conv_channels(%x: tensor<1x4x8x8xf32>, %w: tensor<8x3x3x3xf32>) {
  // expected-error @+1 {{relay.nn.conv2d: data has 4 input channels but the kernel expects 3 x groups (1) = 3}}
  %0 = relay.nn.conv2d %x, %w : (tensor<1x4x8x8xf32>, tensor<8x3x3x3xf32>)
  return
}

// -----

func.func @conv_output_groups(%x: tensor<1x4x8x8xf32>, %w: tensor<6x1x3x3xf32>) {
  // expected-error @+1 {{relay.nn.conv2d: output channels (6) must be divisible by groups (4)}}
  %0 = relay.nn.conv2d %x, %w {groups = 4 : i64} : (tensor<1x4x8x8xf32>, tensor<6x1x3x3xf32>)
  return
}

// -----

func.func @conv_fit(%x: tensor<1x3x4x4xf32>, %w: tensor<4x3x3x3xf32>) {
  // The dilated kernel spans 5 > 4.
  // expected-error @+1 {{relay.nn.conv2d: the dilated kernel (3x3) does not fit the padded input (4x4)}}
  %0 = relay.nn.conv2d %x, %w {dilation = array<i64: 2, 2>} : (tensor<1x3x4x4xf32>, tensor<4x3x3x3xf32>)
  return
}

// -----

// Window arithmetic that overflows int64_t is an error, not a wrapped size.
func.func @conv_padding_overflow(%x: tensor<1x3x8x8xf32>, %w: tensor<4x3x3x3xf32>) {
  // expected-error @+1 {{relay.nn.conv2d: the output height overflows int64_t (input 8, kernel 3, padding 9223372036854775807 and 0, stride 1, dilation 1)}}
  %0 = relay.nn.conv2d %x, %w {padding = array<i64: 9223372036854775807, 0, 0, 0>} : (tensor<1x3x8x8xf32>, tensor<4x3x3x3xf32>)
  return
}

// -----

func.func @conv_dilation_overflow(%x: tensor<1x3x8x8xf32>, %w: tensor<4x3x3x3xf32>) {
  // expected-error @+1 {{relay.nn.conv2d: the output width overflows int64_t (input 8, kernel 3, padding 0 and 0, stride 1, dilation 4611686018427387904)}}
  %0 = relay.nn.conv2d %x, %w {dilation = array<i64: 1, 4611686018427387904>} : (tensor<1x3x8x8xf32>, tensor<4x3x3x3xf32>)
  return
}

// -----

func.func @conv_out_dtype(%x: tensor<1x3x4x4xi8>, %w: tensor<4x3x3x3xi8>) {
  // expected-error @+1 {{relay.nn.conv2d: out_dtype must be an integer or float type, got 'tensor<2xi32>'}}
  %0 = relay.nn.conv2d %x, %w {out_dtype = tensor<2xi32>} : (tensor<1x3x4x4xi8>, tensor<4x3x3x3xi8>)
  return
}

// -----

func.func @conv_transpose_channels(%x: tensor<1x4x5x5xf32>, %w: tensor<3x2x3x3xf32>) {
  // expected-error @+1 {{relay.nn.conv2d_transpose: data has 4 channels but the kernel expects 3}}
  %0 = relay.nn.conv2d_transpose %x, %w : (tensor<1x4x5x5xf32>, tensor<3x2x3x3xf32>)
  return
}

// -----

func.func @conv_transpose_groups(%x: tensor<1x3x5x5xf32>, %w: tensor<3x2x3x3xf32>) {
  // expected-error @+1 {{relay.nn.conv2d_transpose: input channels (3) must be divisible by groups (2)}}
  %0 = relay.nn.conv2d_transpose %x, %w {groups = 2 : i64} : (tensor<1x3x5x5xf32>, tensor<3x2x3x3xf32>)
  return
}

// -----

func.func @conv_transpose_output_padding(%x: tensor<1x3x5x5xf32>, %w: tensor<3x2x3x3xf32>) {
  // expected-error @+1 {{relay.nn.conv2d_transpose: output_padding must be smaller than the stride or the dilation}}
  %0 = relay.nn.conv2d_transpose %x, %w {strides = array<i64: 2, 2>, output_padding = array<i64: 0, 2>} : (tensor<1x3x5x5xf32>, tensor<3x2x3x3xf32>)
  return
}

// -----

func.func @conv_transpose_output_padding_pair(%x: tensor<1x3x5x5xf32>, %w: tensor<3x2x3x3xf32>) {
  // expected-error @+1 {{relay.nn.conv2d_transpose: output_padding must have 2 values, each >= 0}}
  %0 = relay.nn.conv2d_transpose %x, %w {output_padding = array<i64: -1, 0>} : (tensor<1x3x5x5xf32>, tensor<3x2x3x3xf32>)
  return
}

// -----

func.func @conv_transpose_empty(%x: tensor<1x3x1x1xf32>, %w: tensor<3x2x1x1xf32>) {
  // (1 - 1) * 1 - 1 - 1 + 0 + 0 + 1 = -1.
  // expected-error @+1 {{relay.nn.conv2d_transpose: padding leaves an empty output (-1x-1)}}
  %0 = relay.nn.conv2d_transpose %x, %w {padding = array<i64: 1>} : (tensor<1x3x1x1xf32>, tensor<3x2x1x1xf32>)
  return
}

//===----------------------------------------------------------------------===//
// RelayOperators.cpp: linear algebra
//===----------------------------------------------------------------------===//

// -----

func.func @dense_rank(%x: tensor<4x8xf32>, %w: tensor<2x3x8xf32>) {
  // expected-error @+1 {{relay.nn.dense: expects x of rank >= 1 and a 2-D weight [N, K], got 'tensor<4x8xf32>' and 'tensor<2x3x8xf32>'}}
  %0 = relay.nn.dense %x, %w : (tensor<4x8xf32>, tensor<2x3x8xf32>)
  return
}

// -----

func.func @dense_features(%x: tensor<4x8xf32>, %w: tensor<2x7xf32>) {
  // expected-error @+1 {{relay.nn.dense: x has 8 features but the weight [N, K] has K = 7}}
  %0 = relay.nn.dense %x, %w : (tensor<4x8xf32>, tensor<2x7xf32>)
  return
}

// -----

func.func @matmul_rank(%a: tensor<2x3x4xf32>, %b: tensor<4x5xf32>) {
  // expected-error @+1 {{relay.nn.matmul: expects 2-D operands, got 'tensor<2x3x4xf32>' and 'tensor<4x5xf32>'}}
  %0 = relay.nn.matmul %a, %b : (tensor<2x3x4xf32>, tensor<4x5xf32>)
  return
}

// -----

func.func @matmul_contraction(%a: tensor<3x4xf32>, %b: tensor<4x5xf32>) {
  // With transpose_a the contraction size of a is 3.
  // expected-error @+1 {{relay.nn.matmul: contraction sizes differ: a gives K = 3, b gives K = 4}}
  %0 = relay.nn.matmul %a, %b {transpose_a = true} : (tensor<3x4xf32>, tensor<4x5xf32>)
  return
}

// -----

func.func @batch_matmul_rank(%a: tensor<3x4xf32>, %b: tensor<2x5x4xf32>) {
  // expected-error @+1 {{relay.nn.batch_matmul: expects 3-D operands, got 'tensor<3x4xf32>' and 'tensor<2x5x4xf32>'}}
  %0 = relay.nn.batch_matmul %a, %b : (tensor<3x4xf32>, tensor<2x5x4xf32>)
  return
}

// -----

func.func @batch_matmul_batch(%a: tensor<2x3x4xf32>, %b: tensor<3x5x4xf32>) {
  // expected-error @+1 {{relay.nn.batch_matmul: batch sizes 2 and 3 differ and neither is 1}}
  %0 = relay.nn.batch_matmul %a, %b : (tensor<2x3x4xf32>, tensor<3x5x4xf32>)
  return
}

// -----

func.func @batch_matmul_contraction(%a: tensor<2x3x4xf32>, %b: tensor<2x4x5xf32>) {
  // b is read as [B, N, K] by default.
  // expected-error @+1 {{relay.nn.batch_matmul: contraction sizes differ: a gives K = 4, b gives K = 5 (transpose_b defaults to true)}}
  %0 = relay.nn.batch_matmul %a, %b : (tensor<2x3x4xf32>, tensor<2x4x5xf32>)
  return
}

//===----------------------------------------------------------------------===//
// RelayOperators.cpp: normalisation and losses
//===----------------------------------------------------------------------===//

// -----

func.func @layer_norm_rank(%x: tensor<f32>, %g: tensor<1xf32>) {
  // expected-error @+1 {{relay.nn.layer_norm: expects rank >= 1, got 'tensor<f32>'}}
  %0 = relay.nn.layer_norm %x, %g, %g : (tensor<f32>, tensor<1xf32>, tensor<1xf32>)
  return
}

// -----

func.func @layer_norm_float(%x: tensor<2x4xi32>, %g: tensor<4xi32>) {
  // expected-error @+1 {{relay.nn.layer_norm: expects x to be a floating-point tensor, got 'tensor<2x4xi32>'}}
  %0 = relay.nn.layer_norm %x, %g, %g : (tensor<2x4xi32>, tensor<4xi32>, tensor<4xi32>)
  return
}

// -----

func.func @layer_norm_epsilon(%x: tensor<2x4xf32>, %g: tensor<4xf32>) {
  // expected-error @+1 {{relay.nn.layer_norm: epsilon must be positive}}
  %0 = relay.nn.layer_norm %x, %g, %g {epsilon = 0.0 : f64} : (tensor<2x4xf32>, tensor<4xf32>, tensor<4xf32>)
  return
}

// -----

func.func @layer_norm_params(%x: tensor<2x4xf32>, %g: tensor<4xf32>, %b: tensor<2xf32>) {
  // expected-error @+1 {{relay.nn.layer_norm: beta must be a 1-D tensor of 4 'f32' elements, got 'tensor<2xf32>'}}
  %0 = relay.nn.layer_norm %x, %g, %b : (tensor<2x4xf32>, tensor<4xf32>, tensor<2xf32>)
  return
}

// -----

func.func @batch_norm_rank(%x: tensor<4xf32>, %c: tensor<4xf32>) {
  // expected-error @+1 {{relay.nn.batch_norm: expects rank >= 2, got 'tensor<4xf32>'}}
  %0:3 = relay.nn.batch_norm %x, %c, %c, %c, %c : (tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>)
  return
}

// -----

func.func @batch_norm_epsilon(%x: tensor<2x4xf32>, %c: tensor<4xf32>) {
  // expected-error @+1 {{relay.nn.batch_norm: epsilon must be positive}}
  %0:3 = relay.nn.batch_norm %x, %c, %c, %c, %c {epsilon = -1.0 : f64} : (tensor<2x4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>)
  return
}

// -----

func.func @batch_norm_momentum(%x: tensor<2x4xf32>, %c: tensor<4xf32>) {
  // expected-error @+1 {{relay.nn.batch_norm: momentum must be in [0, 1], got 1.5}}
  %0:3 = relay.nn.batch_norm %x, %c, %c, %c, %c {momentum = 1.5 : f64} : (tensor<2x4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>)
  return
}

// -----

func.func @batch_norm_params(%x: tensor<2x4xf32>, %c: tensor<4xf32>, %v: tensor<4xf16>) {
  // expected-error @+1 {{relay.nn.batch_norm: moving_var must be a 1-D tensor of 4 'f32' elements, got 'tensor<4xf16>'}}
  %0:3 = relay.nn.batch_norm %x, %c, %c, %c, %v : (tensor<2x4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf16>)
  return
}

// -----

func.func @cross_entropy_reduction(%x: tensor<2x4xf32>, %t: tensor<2xi64>) {
  // expected-error @+2 {{expected one of mean, sum, none (reduction of a loss over its samples)}}
  // expected-error @+1 {{failed to parse Relay_LossReductionAttr parameter 'value'}}
  %0 = relay.nn.cross_entropy %x, %t {reduction = #relay.loss_reduction<avg>} : (tensor<2x4xf32>, tensor<2xi64>)
  return
}

// -----

func.func @nll_loss_reduction_string(%x: tensor<2x4xf32>, %t: tensor<2xi64>) {
  // expected-error @+1 {{'relay.nn.nll_loss' op attribute 'reduction' failed to satisfy constraint: reduction of a loss over its samples}}
  %0 = relay.nn.nll_loss %x, %t {reduction = "sum"} : (tensor<2x4xf32>, tensor<2xi64>)
  return
}

// -----

func.func @cross_entropy_logits(%x: tensor<2x4x3xf32>, %t: tensor<2xi64>) {
  // expected-error @+1 {{relay.nn.cross_entropy: logits must be [N, C], got 'tensor<2x4x3xf32>'}}
  %0 = relay.nn.cross_entropy %x, %t : (tensor<2x4x3xf32>, tensor<2xi64>)
  return
}

// -----

func.func @cross_entropy_target(%x: tensor<2x4xf32>, %t: tensor<3xi64>) {
  // expected-error @+1 {{relay.nn.cross_entropy: target must be [2] integer class indices or probabilities of the logits' type 'tensor<2x4xf32>', got 'tensor<3xi64>'}}
  %0 = relay.nn.cross_entropy %x, %t : (tensor<2x4xf32>, tensor<3xi64>)
  return
}

// -----

func.func @nll_loss_rank(%x: tensor<4xf32>, %t: tensor<4xi64>) {
  // expected-error @+1 {{relay.nn.nll_loss: predictions must be [N, C, d...], got 'tensor<4xf32>'}}
  %0 = relay.nn.nll_loss %x, %t : (tensor<4xf32>, tensor<4xi64>)
  return
}

// -----

func.func @nll_loss_targets(%x: tensor<2x5x3xf32>, %t: tensor<2x4xi64>) {
  // expected-error @+1 {{relay.nn.nll_loss: targets must be integer class indices of shape [N, d...] = 'tensor<2x3xi64>', got 'tensor<2x4xi64>'}}
  %0 = relay.nn.nll_loss %x, %t : (tensor<2x5x3xf32>, tensor<2x4xi64>)
  return
}

//===----------------------------------------------------------------------===//
// RelayOperators.cpp: pooling
//===----------------------------------------------------------------------===//

// -----

func.func @pool_rank(%x: tensor<3x8x8xf32>) {
  // expected-error @+1 {{relay.nn.avg_pool2d: expects a 4-D tensor, got 'tensor<3x8x8xf32>'}}
  %0 = relay.nn.avg_pool2d %x {pool_size = array<i64: 2, 2>} : (tensor<3x8x8xf32>)
  return
}

// -----

func.func @pool_layout(%x: tensor<1x3x8x8xf32>) {
  // expected-error @+1 {{relay.nn.max_pool2d: layout #relay.layout<HWIO> is not a permutation of NCHW}}
  %0 = relay.nn.max_pool2d %x {pool_size = array<i64: 2, 2>, layout = #relay.layout<HWIO>} : (tensor<1x3x8x8xf32>)
  return
}

// -----

func.func @pool_size(%x: tensor<1x3x8x8xf32>) {
  // expected-error @+1 {{relay.nn.max_pool2d: pool_size must have 2 values, each >= 1}}
  %0 = relay.nn.max_pool2d %x {pool_size = array<i64: 2, 2, 2>} : (tensor<1x3x8x8xf32>)
  return
}

// -----

func.func @pool_fit(%x: tensor<1x3x2x8xf32>) {
  // expected-error @+1 {{relay.nn.max_pool2d: the pooling window (3x3) does not fit the padded input 'tensor<1x3x2x8xf32>'}}
  %0 = relay.nn.max_pool2d %x {pool_size = array<i64: 3, 3>} : (tensor<1x3x2x8xf32>)
  return
}

// -----

func.func @pool_size_overflow(%x: tensor<1x1x9223372036854775807x8xf32>) {
  // expected-error @+1 {{relay.nn.avg_pool2d: the output height overflows int64_t (input 9223372036854775807, pool size 2, padding 1 and 1, stride 1, dilation 1)}}
  %0 = relay.nn.avg_pool2d %x {pool_size = array<i64: 2, 2>, padding = array<i64: 1>} : (tensor<1x1x9223372036854775807x8xf32>)
  return
}

// -----

func.func @pool_padding_overflow(%x: tensor<1x1x8x8xf32>) {
  // expected-error @+1 {{relay.nn.max_pool2d: the output width overflows int64_t (input 8, pool size 2, padding 9223372036854775807 and 9223372036854775807, stride 1, dilation 1)}}
  %0 = relay.nn.max_pool2d %x {pool_size = array<i64: 2, 2>, padding = array<i64: 0, 9223372036854775807>} : (tensor<1x1x8x8xf32>)
  return
}

// -----

func.func @pool_grad_float_only(%g: tensor<1x1x2x2xi32>, %x: tensor<1x1x4x4xi32>) {
  // expected-error @+1 {{relay.nn.max_pool2d_grad: expects data to be a floating-point tensor, got 'tensor<1x1x4x4xi32>'}}
  %0 = relay.nn.max_pool2d_grad %g, %x {pool_size = array<i64: 2, 2>, strides = array<i64: 2, 2>} : (tensor<1x1x2x2xi32>, tensor<1x1x4x4xi32>)
  return
}

// -----

func.func @pool_grad_rank(%g: tensor<1x2x2xf32>, %x: tensor<1x4x4xf32>) {
  // expected-error @+1 {{relay.nn.avg_pool2d_grad: expects data to be a 4-D tensor, got 'tensor<1x4x4xf32>'}}
  %0 = relay.nn.avg_pool2d_grad %g, %x {pool_size = array<i64: 2, 2>} : (tensor<1x2x2xf32>, tensor<1x4x4xf32>)
  return
}

// -----

func.func @pool_grad_out_grad_shape(%g: tensor<1x1x3x3xf32>, %x: tensor<1x1x4x4xf32>) {
  // expected-error @+1 {{relay.nn.max_pool2d_grad: out_grad must have the type of the pooling result for data, 'tensor<1x1x2x2xf32>', got 'tensor<1x1x3x3xf32>'}}
  %0 = relay.nn.max_pool2d_grad %g, %x {pool_size = array<i64: 2, 2>, strides = array<i64: 2, 2>} : (tensor<1x1x3x3xf32>, tensor<1x1x4x4xf32>)
  return
}

// -----

func.func @pool_grad_out_grad_element(%g: tensor<1x1x3x3xf16>, %x: tensor<1x1x4x4xf32>) {
  // expected-error @+1 {{relay.nn.avg_pool2d_grad: out_grad must have the type of the pooling result for data, 'tensor<1x1x3x3xf32>', got 'tensor<1x1x3x3xf16>'}}
  %0 = relay.nn.avg_pool2d_grad %g, %x {pool_size = array<i64: 2, 2>} : (tensor<1x1x3x3xf16>, tensor<1x1x4x4xf32>)
  return
}

// -----

func.func @pool_grad_out_grad_rank(%g: tensor<1x3x3xf32>, %x: tensor<1x1x4x4xf32>) {
  // expected-error @+1 {{relay.nn.avg_pool2d_grad: out_grad must have the type of the pooling result for data, 'tensor<1x1x3x3xf32>', got 'tensor<1x3x3xf32>'}}
  %0 = relay.nn.avg_pool2d_grad %g, %x {pool_size = array<i64: 2, 2>} : (tensor<1x3x3xf32>, tensor<1x1x4x4xf32>)
  return
}

// -----

func.func @pool_grad_out_grad_dynamic(%g: tensor<?x1x3x3xf32>, %x: tensor<?x1x?x4xf32>) {
  // A dynamic size matches any size, a static mismatch elsewhere is still
  // an error.
  // expected-error @+1 {{relay.nn.max_pool2d_grad: out_grad must have the type of the pooling result for data, 'tensor<?x1x?x2xf32>', got 'tensor<?x1x3x3xf32>'}}
  %0 = relay.nn.max_pool2d_grad %g, %x {pool_size = array<i64: 2, 2>, strides = array<i64: 2, 2>} : (tensor<?x1x3x3xf32>, tensor<?x1x?x4xf32>)
  return
}

// -----

func.func @pool_grad_layout(%g: tensor<1x1x2x2xf32>, %x: tensor<1x1x4x4xf32>) {
  // expected-error @+1 {{relay.nn.max_pool2d_grad: layout #relay.layout<OHWI> is not a permutation of NCHW}}
  %0 = relay.nn.max_pool2d_grad %g, %x {pool_size = array<i64: 2, 2>, layout = #relay.layout<OHWI>} : (tensor<1x1x2x2xf32>, tensor<1x1x4x4xf32>)
  return
}

// -----

func.func @global_pool_layout(%x: tensor<1x3x8x8xf32>) {
  // expected-error @+1 {{relay.nn.global_avg_pool2d: layout #relay.layout<IOHW> is not a permutation of NCHW}}
  %0 = relay.nn.global_avg_pool2d %x {layout = #relay.layout<IOHW>} : (tensor<1x3x8x8xf32>)
  return
}

// -----

func.func @pool_grad_pool_size(%g: tensor<1x1x2x2xf32>, %x: tensor<1x1x4x4xf32>) {
  // expected-error @+1 {{relay.nn.avg_pool2d_grad: pool_size must have 2 values, each >= 1}}
  %0 = relay.nn.avg_pool2d_grad %g, %x {pool_size = array<i64: 0, 2>} : (tensor<1x1x2x2xf32>, tensor<1x1x4x4xf32>)
  return
}

// -----

func.func @pool_grad_strides(%g: tensor<1x1x2x2xf32>, %x: tensor<1x1x4x4xf32>) {
  // expected-error @+1 {{relay.nn.max_pool2d_grad: strides must have 2 values, each >= 1}}
  %0 = relay.nn.max_pool2d_grad %g, %x {pool_size = array<i64: 2, 2>, strides = array<i64: 2>} : (tensor<1x1x2x2xf32>, tensor<1x1x4x4xf32>)
  return
}

// -----

func.func @pool_grad_dilation(%g: tensor<1x1x2x2xf32>, %x: tensor<1x1x4x4xf32>) {
  // expected-error @+1 {{relay.nn.avg_pool2d_grad: dilation must have 2 values, each >= 1}}
  %0 = relay.nn.avg_pool2d_grad %g, %x {pool_size = array<i64: 2, 2>, dilation = array<i64: 1, 0>} : (tensor<1x1x2x2xf32>, tensor<1x1x4x4xf32>)
  return
}

// -----

func.func @pool_grad_padding(%g: tensor<1x1x2x2xf32>, %x: tensor<1x1x4x4xf32>) {
  // expected-error @+1 {{relay.nn.max_pool2d_grad: padding must have 1, 2 or 4 values, got 3}}
  %0 = relay.nn.max_pool2d_grad %g, %x {pool_size = array<i64: 2, 2>, padding = array<i64: 1, 1, 1>} : (tensor<1x1x2x2xf32>, tensor<1x1x4x4xf32>)
  return
}

// -----

func.func @pool_grad_padding_negative(%g: tensor<1x1x2x2xf32>, %x: tensor<1x1x4x4xf32>) {
  // expected-error @+1 {{relay.nn.avg_pool2d_grad: padding must be non-negative}}
  %0 = relay.nn.avg_pool2d_grad %g, %x {pool_size = array<i64: 2, 2>, padding = array<i64: -1>} : (tensor<1x1x2x2xf32>, tensor<1x1x4x4xf32>)
  return
}

// -----

func.func @pool_grad_fit(%g: tensor<1x1x1x1xf32>, %x: tensor<1x1x2x8xf32>) {
  // expected-error @+1 {{relay.nn.max_pool2d_grad: the pooling window (3x3) does not fit the padded input 'tensor<1x1x2x8xf32>'}}
  %0 = relay.nn.max_pool2d_grad %g, %x {pool_size = array<i64: 3, 3>} : (tensor<1x1x1x1xf32>, tensor<1x1x2x8xf32>)
  return
}

// -----

func.func @pool_grad_generic(%g: tensor<1x1x3x3xf32>, %x: tensor<1x1x4x4xf32>) {
  // The generic form reaches the shape function through the verifier.
  // expected-error @+2 {{relay.nn.avg_pool2d_grad: out_grad must have the type of the pooling result for data, 'tensor<1x1x2x2xf32>', got 'tensor<1x1x3x3xf32>'}}
  // expected-error @+1 {{'relay.nn.avg_pool2d_grad' op failed to infer returned types}}
  %0 = "relay.nn.avg_pool2d_grad"(%g, %x) {pool_size = array<i64: 2, 2>, strides = array<i64: 2, 2>} : (tensor<1x1x3x3xf32>, tensor<1x1x4x4xf32>) -> tensor<1x1x4x4xf32>
  return
}

// -----

func.func @pool_grad_result_type(%g: tensor<1x1x2x2xf32>, %x: tensor<1x1x4x4xf32>) {
  // The result must be data's type, not the pooled shape.
  // expected-error @+2 {{'relay.nn.max_pool2d_grad' op inferred type(s) 'tensor<1x1x4x4xf32>' are incompatible with return type(s) of operation 'tensor<1x1x2x2xf32>'}}
  // expected-error @+1 {{'relay.nn.max_pool2d_grad' op failed to infer returned types}}
  %0 = "relay.nn.max_pool2d_grad"(%g, %x) {pool_size = array<i64: 2, 2>, strides = array<i64: 2, 2>} : (tensor<1x1x2x2xf32>, tensor<1x1x4x4xf32>) -> tensor<1x1x2x2xf32>
  return
}

// -----

func.func @global_pool_rank(%x: tensor<3x8x8xf32>) {
  // expected-error @+1 {{relay.nn.global_avg_pool2d: expects a 4-D tensor, got 'tensor<3x8x8xf32>'}}
  %0 = relay.nn.global_avg_pool2d %x : (tensor<3x8x8xf32>)
  return
}

//===----------------------------------------------------------------------===//
// RelayOperators.cpp: shape operators
//===----------------------------------------------------------------------===//

// -----

func.func @reshape_two_minus_one(%x: tensor<2x3xf32>) {
  // expected-error @+1 {{relay.reshape: newshape may contain at most one -1}}
  %0 = relay.reshape %x {newshape = array<i64: -1, -1>} : (tensor<2x3xf32>)
  return
}

// -----

func.func @reshape_copy(%x: tensor<6xf32>) {
  // expected-error @+1 {{relay.reshape: newshape[1] = 0 copies a dimension the input (rank 1) does not have}}
  %0 = relay.reshape %x {newshape = array<i64: 6, 0>} : (tensor<6xf32>)
  return
}

// -----

func.func @reshape_size(%x: tensor<6xf32>) {
  // expected-error @+1 {{relay.reshape: newshape[0] = -2 is invalid (expected a size, 0 or -1)}}
  %0 = relay.reshape %x {newshape = array<i64: -2, -3>} : (tensor<6xf32>)
  return
}

// -----

func.func @reshape_overflow(%x: tensor<6xf32>) {
  // expected-error @+1 {{relay.reshape: the product of newshape overflows}}
  %0 = relay.reshape %x {newshape = array<i64: 4294967296, 4294967296>} : (tensor<6xf32>)
  return
}

// -----

func.func @reshape_infer(%x: tensor<2x3xf32>) {
  // expected-error @+1 {{relay.reshape: cannot reshape 'tensor<2x3xf32>' (6 elements) with a -1 next to dimensions of product 4}}
  %0 = relay.reshape %x {newshape = array<i64: 4, -1>} : (tensor<2x3xf32>)
  return
}

// -----

func.func @reshape_count(%x: tensor<2x3xf32>) {
  // expected-error @+1 {{relay.reshape: cannot reshape 'tensor<2x3xf32>' (6 elements) to 8 elements}}
  %0 = relay.reshape %x {newshape = array<i64: 2, 4>} : (tensor<2x3xf32>)
  return
}

// -----

func.func @transpose_count(%x: tensor<2x3xf32>) {
  // expected-error @+1 {{relay.transpose: axes has 3 entries but the tensor has rank 2}}
  %0 = relay.transpose %x {axes = array<i64: 0, 1, 2>} : (tensor<2x3xf32>)
  return
}

// -----

func.func @transpose_permutation(%x: tensor<2x3xf32>) {
  // expected-error @+1 {{relay.transpose: axes is not a permutation (-2 repeats)}}
  %0 = relay.transpose %x {axes = array<i64: 0, -2>} : (tensor<2x3xf32>)
  return
}

// -----

func.func @transpose_axis(%x: tensor<2x3xf32>) {
  // expected-error @+1 {{relay.transpose: axis 2 is out of range for a tensor of rank 2 (expected a value in [-2, 2))}}
  %0 = relay.transpose %x {axes = array<i64: 0, 2>} : (tensor<2x3xf32>)
  return
}

// -----

func.func @expand_dims_count(%x: tensor<2x3xf32>) {
  // expected-error @+1 {{relay.expand_dims: num_newaxis must be in [0, 64], got -1}}
  %0 = relay.expand_dims %x {axis = 0 : i64, num_newaxis = -1 : i64} : (tensor<2x3xf32>)
  return
}

// -----

func.func @expand_dims_huge(%x: tensor<2x3xf32>) {
  // Used to exhaust memory.
  // expected-error @+1 {{relay.expand_dims: num_newaxis must be in [0, 64], got 9223372036854775807}}
  %0 = relay.expand_dims %x {axis = 0 : i64, num_newaxis = 9223372036854775807 : i64} : (tensor<2x3xf32>)
  return
}

// -----

func.func @expand_dims_axis(%x: tensor<2x3xf32>) {
  // Valid positions are [-3, 3).
  // expected-error @+1 {{relay.expand_dims: axis 3 is out of range for a tensor of rank 3 (expected a value in [-3, 3))}}
  %0 = relay.expand_dims %x {axis = 3 : i64} : (tensor<2x3xf32>)
  return
}

// -----

func.func @squeeze_size(%x: tensor<1x3xf32>) {
  // expected-error @+1 {{relay.squeeze: cannot squeeze axis -1 of size 3 (only size-1 axes can be squeezed)}}
  %0 = relay.squeeze %x {axis = array<i64: -1>} : (tensor<1x3xf32>)
  return
}

// -----

func.func @concatenate_empty() {
  // expected-error @+1 {{relay.concatenate: expects at least one input}}
  %0 = relay.concatenate : ()
  return
}

// -----

func.func @concatenate_mismatch(%a: tensor<2x3xf32>, %b: tensor<2x4xf32>) {
  // expected-error @+1 {{relay.concatenate: input #1 'tensor<2x4xf32>' does not match input #0 'tensor<2x3xf32>' outside the concatenation axis 0}}
  %0 = relay.concatenate %a, %b : (tensor<2x3xf32>, tensor<2x4xf32>)
  return
}

// -----

func.func @split_both(%x: tensor<6xf32>) {
  // expected-error @+1 {{relay.split: expects exactly one of 'sections' and 'indices'}}
  %0:2 = relay.split %x {sections = 2 : i64, indices = array<i64: 3>} : (tensor<6xf32>)
  return
}

// -----

func.func @split_neither(%x: tensor<6xf32>) {
  // expected-error @+1 {{relay.split: expects exactly one of 'sections' and 'indices'}}
  %0 = relay.split %x : (tensor<6xf32>)
  return
}

// -----

func.func @split_sections(%x: tensor<6xf32>) {
  // expected-error @+1 {{relay.split: sections must be >= 1, got 0}}
  %0 = relay.split %x {sections = 0 : i64} : (tensor<6xf32>)
  return
}

// -----

func.func @split_uneven(%x: tensor<2x7xf32>) {
  // expected-error @+1 {{relay.split: axis 1 of size 7 does not split evenly into 2 sections}}
  %0:2 = relay.split %x {sections = 2 : i64, axis = 1 : i64} : (tensor<2x7xf32>)
  return
}

// -----

func.func @split_empty_axis(%x: tensor<0xf32>) {
  // Used to build 10^12 results.
  // expected-error @+1 {{relay.split: axis 0 of size 0 does not split evenly into 1000000000000 sections}}
  %0 = relay.split %x {sections = 1000000000000 : i64} : (tensor<0xf32>)
  return
}

// -----

func.func @split_indices(%x: tensor<6xf32>) {
  // expected-error @+1 {{relay.split: indices must be strictly increasing and inside (0, 6), got 2}}
  %0:3 = relay.split %x {indices = array<i64: 3, 2>} : (tensor<6xf32>)
  return
}

// -----

func.func @strided_slice_lengths(%x: tensor<6xf32>) {
  // expected-error @+1 {{relay.strided_slice: begin, end, strides and axes must have the same length}}
  %0 = relay.strided_slice %x {begin = array<i64: 0>, end = array<i64: 1, 2>} : (tensor<6xf32>)
  return
}

// -----

func.func @strided_slice_rank(%x: tensor<6xf32>) {
  // expected-error @+1 {{relay.strided_slice: slices 2 axes of a tensor of rank 1}}
  %0 = relay.strided_slice %x {begin = array<i64: 0, 0>, end = array<i64: 1, 1>} : (tensor<6xf32>)
  return
}

// -----

func.func @strided_slice_twice(%x: tensor<6x4xf32>) {
  // expected-error @+1 {{relay.strided_slice: axis -2 is sliced twice}}
  %0 = relay.strided_slice %x {begin = array<i64: 0, 0>, end = array<i64: 1, 1>, axes = array<i64: 0, -2>} : (tensor<6x4xf32>)
  return
}

// -----

func.func @strided_slice_stride(%x: tensor<6xf32>) {
  // expected-error @+1 {{relay.strided_slice: stride must not be 0}}
  %0 = relay.strided_slice %x {begin = array<i64: 0>, end = array<i64: 6>, strides = array<i64: 0>} : (tensor<6xf32>)
  return
}

// -----

func.func @take_indices(%x: tensor<6xf32>, %i: tensor<2xf32>) {
  // expected-error @+1 {{relay.take: indices must be an integer tensor, got 'tensor<2xf32>'}}
  %0 = relay.take %x, %i : (tensor<6xf32>, tensor<2xf32>)
  return
}

// -----

func.func @take_mode(%x: tensor<6xf32>, %i: tensor<2xi32>) {
  // expected-error @+2 {{expected one of clip, wrap, fast (index mode of take)}}
  // expected-error @+1 {{failed to parse Relay_TakeModeAttr parameter 'value'}}
  %0 = relay.take %x, %i {mode = #relay.take_mode<raise>} : (tensor<6xf32>, tensor<2xi32>)
  return
}

// -----

func.func @take_mode_other_enum(%x: tensor<6xf32>, %i: tensor<2xi32>) {
  // expected-error @+1 {{'relay.take' op attribute 'mode' failed to satisfy constraint: index mode of take}}
  %0 = relay.take %x, %i {mode = #relay.pad_mode<edge>} : (tensor<6xf32>, tensor<2xi32>)
  return
}

// -----

func.func @pad_mode(%x: tensor<6xf32>) {
  // expected-error @+2 {{expected one of constant, edge, reflect (padding mode of nn.pad)}}
  // expected-error @+1 {{failed to parse Relay_PadModeAttr parameter 'value'}}
  %0 = relay.nn.pad %x {pad_width = array<i64: 1, 1>, pad_mode = #relay.pad_mode<wrap>} : (tensor<6xf32>)
  return
}

// -----

func.func @pad_mode_string(%x: tensor<6xf32>) {
  // expected-error @+1 {{'relay.nn.pad' op attribute 'pad_mode' failed to satisfy constraint: padding mode of nn.pad}}
  %0 = relay.nn.pad %x {pad_width = array<i64: 1, 1>, pad_mode = "reflect"} : (tensor<6xf32>)
  return
}

// -----

func.func @pad_width_count(%x: tensor<2x6xf32>) {
  // expected-error @+1 {{relay.nn.pad: pad_width must have 2 * rank = 4 values (before, after per axis), got 2}}
  %0 = relay.nn.pad %x {pad_width = array<i64: 1, 1>} : (tensor<2x6xf32>)
  return
}

// -----

func.func @pad_width_negative(%x: tensor<6xf32>) {
  // expected-error @+1 {{relay.nn.pad: pad_width must be non-negative}}
  %0 = relay.nn.pad %x {pad_width = array<i64: 1, -1>} : (tensor<6xf32>)
  return
}

// -----

func.func @pad_reflect(%x: tensor<2x6xf32>) {
  // expected-error @+1 {{relay.nn.pad: reflect padding of axis 0 must be smaller than its size 2}}
  %0 = relay.nn.pad %x {pad_width = array<i64: 2, 0, 1, 1>, pad_mode = #relay.pad_mode<reflect>} : (tensor<2x6xf32>)
  return
}

// -----

func.func @pad_edge(%x: tensor<0x6xf32>) {
  // expected-error @+1 {{relay.nn.pad: edge padding needs a non-empty axis 0}}
  %0 = relay.nn.pad %x {pad_width = array<i64: 1, 0, 0, 0>, pad_mode = #relay.pad_mode<edge>} : (tensor<0x6xf32>)
  return
}

// -----

func.func @pad_overflow(%x: tensor<6xf32>) {
  // Used to produce tensor<-9223372036854775803xf32>.
  // expected-error @+1 {{relay.nn.pad: padding axis 0 overflows its size}}
  %0 = relay.nn.pad %x {pad_width = array<i64: 9223372036854775807, 0>} : (tensor<6xf32>)
  return
}

// -----

func.func @broadcast_to_negative(%x: tensor<1xf32>) {
  // Used to produce tensor<-1xf32>.
  // expected-error @+1 {{relay.broadcast_to: shape sizes must be non-negative, got [-1]}}
  %0 = relay.broadcast_to %x {shape = array<i64: -1>} : (tensor<1xf32>)
  return
}

// -----

func.func @broadcast_to_shape(%x: tensor<2x3xf32>) {
  // expected-error @+1 {{relay.broadcast_to: cannot broadcast 'tensor<2x3xf32>' to shape [3] (each input dimension must be 1 or match)}}
  %0 = relay.broadcast_to %x {shape = array<i64: 3>} : (tensor<2x3xf32>)
  return
}

// -----

func.func @fill_shape() {
  // expected-error @+1 {{relay.zeros: shape sizes must be non-negative}}
  %0 = relay.zeros {shape = array<i64: 2, -1>, dtype = f32}
  return
}

// -----

func.func @fill_dtype() {
  // expected-error @+1 {{relay.ones: dtype must be an integer or float type, got 'index'}}
  %0 = relay.ones {shape = array<i64: 2>, dtype = index}
  return
}

//===----------------------------------------------------------------------===//
// RelayOpBase.td / ODS: attribute kinds, missing attributes, operand kinds,
// result types that disagree with inference
//===----------------------------------------------------------------------===//

// -----

func.func @missing_colon(%x: tensor<4xf32>) {
  // expected-error @+1 {{expected ':' followed by the operand types, e.g. ': (tensor<4xf32>, tensor<4xf32>)'}}
  %0 = relay.exp %x
  return
}

// -----

func.func @attr_kind(%x: tensor<1x3x8x8xf32>, %w: tensor<4x3x3x3xf32>) {
  // expected-error @+1 {{'relay.nn.conv2d' op attribute 'strides' failed to satisfy constraint: i64 dense array attribute}}
  %0 = relay.nn.conv2d %x, %w {strides = [1, 1]} : (tensor<1x3x8x8xf32>, tensor<4x3x3x3xf32>)
  return
}

// -----

func.func @attr_missing(%x: tensor<6xf32>) {
  // expected-error @+1 {{'relay.reshape' op requires attribute 'newshape'}}
  %0 = relay.reshape %x : (tensor<6xf32>)
  return
}

// -----

func.func @operand_kind(%t: tuple<tensor<2xf32>>) {
  // expected-error @+1 {{relay.add: operand #0 must be a ranked tensor, got 'tuple<tensor<2xf32>>'}}
  %0 = relay.add %t, %t : (tuple<tensor<2xf32>>, tuple<tensor<2xf32>>)
  return
}

// -----

func.func @operand_kind_generic(%t: tuple<tensor<2xf32>>) {
  // expected-error @+1 {{'relay.negative' op operand #0 must be ranked tensor of any type values, but got 'tuple<tensor<2xf32>>'}}
  %0 = "relay.negative"(%t) : (tuple<tensor<2xf32>>) -> tensor<2xf32>
  return
}

// -----

func.func @result_mismatch(%x: tensor<4xf32>) {
  // expected-error @+2 {{'relay.add' op inferred type(s) 'tensor<4xf32>' are incompatible with return type(s) of operation 'tensor<2xf32>'}}
  // expected-error @+1 {{'relay.add' op failed to infer returned types}}
  %0 = relay.add %x, %x : (tensor<4xf32>, tensor<4xf32>) -> tensor<2xf32>
  return
}

// -----

func.func @result_count(%x: tensor<4xf32>) {
  // expected-error @+2 {{'relay.split' op inferred type(s) 'tensor<2xf32>', 'tensor<2xf32>' are incompatible with return type(s) of operation 'tensor<2xf32>'}}
  // expected-error @+1 {{'relay.split' op failed to infer returned types}}
  %0 = relay.split %x {sections = 2 : i64} : (tensor<4xf32>) -> tensor<2xf32>
  return
}

//===----------------------------------------------------------------------===//
// Generic form: the same shape functions run from the verifier
//===----------------------------------------------------------------------===//

// -----

func.func @generic_infer(%a: tensor<2x3xf32>, %b: tensor<4xf32>) {
  // expected-error @+2 {{relay.add: shapes of 'tensor<2x3xf32>' and 'tensor<4xf32>' are not broadcastable}}
  // expected-error @+1 {{'relay.add' op failed to infer returned types}}
  %0 = "relay.add"(%a, %b) : (tensor<2x3xf32>, tensor<4xf32>) -> tensor<2x3xf32>
  return
}

// -----

func.func @generic_attr(%x: tensor<1x3x8x8xf32>, %w: tensor<4x3x3x3xf32>) {
  // expected-error @+1 {{'relay.nn.conv2d' op attribute 'groups' failed to satisfy constraint: 64-bit signless integer attribute}}
  %0 = "relay.nn.conv2d"(%x, %w) {groups = "two"} : (tensor<1x3x8x8xf32>, tensor<4x3x3x3xf32>) -> tensor<1x4x6x6xf32>
  return
}

//===----------------------------------------------------------------------===//
// RelayTraits.cpp: unknown attributes
//===----------------------------------------------------------------------===//

// -----

func.func @unknown_attribute(%x: tensor<1x3x8x8xf32>, %w: tensor<4x3x3x3xf32>) {
  // expected-error @+1 {{'relay.nn.conv2d' op has unknown attribute 'stride'; expected one of: data_layout, dilation, groups, kernel_layout, out_dtype, padding, strides}}
  %0 = relay.nn.conv2d %x, %w {stride = array<i64: 2, 2>} : (tensor<1x3x8x8xf32>, tensor<4x3x3x3xf32>)
  return
}

// -----

func.func @unknown_attribute_none(%x: tensor<4xf32>) {
  // expected-error @+1 {{'relay.exp' op has unknown attribute 'fast'; it takes no attributes}}
  %0 = relay.exp %x {fast} : (tensor<4xf32>)
  return
}

// -----

func.func @unknown_attribute_structural(%x: tensor<4xf32>) {
  // expected-error @+1 {{'relay.ref_new' op has unknown attribute 'name'; it takes no attributes}}
  %0 = relay.ref_new %x {name = "r"} : tensor<4xf32>
  return
}

// -----

// Dialect-prefixed attributes are annotations and pass.
func.func @prefixed_attribute(%x: tensor<1x3x8x8xf32>, %w: tensor<4x3x3x3xf32>) {
  %0 = relay.nn.conv2d %x, %w {relay.backend = "cudnn", tvm.schedule = 3 : i64} : (tensor<1x3x8x8xf32>, tensor<4x3x3x3xf32>)
  %1 = relay.tuple(%0) {relay.backend = "cpu"} : tensor<1x4x6x6xf32>
  return
}

//===----------------------------------------------------------------------===//
// RelayStructuralOps.cpp
//===----------------------------------------------------------------------===//

// -----

// The shape function's own "expects a tuple operand and an integer index"
// check is unreachable from text: the parser and the ODS verifier reject a
// non-tuple operand or a missing index first.
func.func @tuple_get_not_tuple(%x: tensor<2xf32>) {
  // expected-error @+1 {{custom op 'relay.tuple_get' invalid kind of type specified: expected builtin.tuple, but found 'tensor<2xf32>'}}
  %0 = relay.tuple_get %x[0] : tensor<2xf32>
  return
}

// -----

func.func @tuple_get_not_tuple_generic(%x: tensor<2xf32>) {
  // expected-error @+1 {{'relay.tuple_get' op operand #0 must be tuple, but got 'tensor<2xf32>'}}
  %0 = "relay.tuple_get"(%x) {index = 0 : i64} : (tensor<2xf32>) -> tensor<f32>
  return
}

// -----

func.func @tuple_get_no_index(%t: tuple<tensor<2xf32>>) {
  // expected-error @+1 {{'relay.tuple_get' op requires attribute 'index'}}
  %0 = "relay.tuple_get"(%t) : (tuple<tensor<2xf32>>) -> tensor<2xf32>
  return
}

// -----

func.func @tuple_get_range(%t: tuple<tensor<2xf32>, tensor<i32>>) {
  // expected-error @+1 {{relay.tuple_get: TYPE-PROJECTION: index 2 is out of range for a tuple of 2 fields (expected 0 <= index < 2)}}
  %0 = relay.tuple_get %t[2] : tuple<tensor<2xf32>, tensor<i32>>
  return
}

// -----

func.func @tuple_get_negative(%t: tuple<tensor<2xf32>>) {
  // expected-error @+1 {{relay.tuple_get: TYPE-PROJECTION: index -1 is out of range for a tuple of 1 fields (expected 0 <= index < 1)}}
  %0 = relay.tuple_get %t[-1] : tuple<tensor<2xf32>>
  return
}

// -----

func.func @tuple_get_generic(%t: tuple<>) {
  // expected-error @+2 {{relay.tuple_get: TYPE-PROJECTION: index 0 is out of range for a tuple of 0 fields (expected 0 <= index < 0)}}
  // expected-error @+1 {{'relay.tuple_get' op failed to infer returned types}}
  %0 = "relay.tuple_get"(%t) {index = 0 : i64} : (tuple<>) -> tensor<f32>
  return
}

// -----

func.func @if_condition(%c: tensor<2xi1>, %x: tensor<f32>) {
  // expected-error @+1 {{'relay.if' op TYPE-IF: condition must be Tensor(BoolType, Shape()), i.e. tensor<i1>, got 'tensor<2xi1>'}}
  %0 = relay.if %c : tensor<2xi1> -> (tensor<f32>) {
    relay.yield %x : tensor<f32>
  } else {
    relay.yield %x : tensor<f32>
  }
  return
}

// -----

func.func @if_condition_element(%c: tensor<i32>) {
  // expected-error @+1 {{'relay.if' op TYPE-IF: condition must be Tensor(BoolType, Shape()), i.e. tensor<i1>, got 'tensor<i32>'}}
  relay.if %c : tensor<i32> {
    relay.yield
  } else {
    relay.yield
  }
  return
}

// -----

func.func @if_then_type(%c: tensor<i1>, %x: tensor<f32>, %i: tensor<i32>) {
  // expected-error @+1 {{'relay.if' op TYPE-IF: the then branch yields ('tensor<i32>') but the if produces ('tensor<f32>')}}
  %0 = relay.if %c : tensor<i1> -> (tensor<f32>) {
    relay.yield %i : tensor<i32>
  } else {
    relay.yield %x : tensor<f32>
  }
  return
}

// -----

func.func @if_else_count(%c: tensor<i1>, %x: tensor<f32>) {
  // expected-error @+1 {{'relay.if' op TYPE-IF: the else branch yields () but the if produces ('tensor<f32>')}}
  %0 = relay.if %c : tensor<i1> -> (tensor<f32>) {
    relay.yield %x : tensor<f32>
  } else {
    relay.yield
  }
  return
}

// -----

func.func @if_terminator(%c: tensor<i1>, %x: tensor<f32>) {
  // expected-error @+1 {{'relay.if' op TYPE-IF: the else branch must end in relay.yield}}
  %0 = "relay.if"(%c) ({
    "relay.yield"(%x) : (tensor<f32>) -> ()
  }, {
    "func.return"(%x) : (tensor<f32>) -> ()
  }) : (tensor<i1>) -> tensor<f32>
  return
}

// -----

func.func @yield_parent(%x: tensor<f32>) {
  // expected-error @+1 {{'relay.yield' op expects parent op 'relay.if'}}
  relay.yield %x : tensor<f32>
}

// -----

func.func @fn_parameters() {
  // expected-error @+1 {{'relay.fn' op parameter types ('tensor<f32>') do not match the closure's function type '(tensor<i32>) -> tensor<f32>'}}
  %f = "relay.fn"() ({
  ^bb0(%x: tensor<f32>):
    "relay.return"(%x) : (tensor<f32>) -> ()
  }) : () -> ((tensor<i32>) -> tensor<f32>)
  return
}

// -----

func.func @fn_terminator(%c: tensor<f32>) {
  // expected-error @+1 {{'relay.fn' op body must end in relay.return}}
  %f = "relay.fn"() ({
    "func.return"(%c) : (tensor<f32>) -> ()
  }) : () -> (() -> tensor<f32>)
  return
}

// -----

func.func @fn_return_type() {
  %f = relay.fn(%x: tensor<f32>) -> tensor<i32> {
    // expected-error @+1 {{'relay.return' op returns ('tensor<f32>') but the closure is declared to return ('tensor<i32>')}}
    relay.return %x : tensor<f32>
  }
  return
}

// -----

func.func @return_parent(%x: tensor<f32>) {
  // expected-error @+1 {{'relay.return' op expects parent op 'relay.fn'}}
  relay.return %x : tensor<f32>
}

// -----

func.func @call_arity(%f: (tensor<f32>) -> tensor<f32>, %x: tensor<f32>) {
  // expected-error @+1 {{'relay.call' op TYPE-CALL: the callee takes 1 arguments but 2 are given}}
  %0 = "relay.call"(%f, %x, %x) : ((tensor<f32>) -> tensor<f32>, tensor<f32>, tensor<f32>) -> tensor<f32>
  return
}

// -----

func.func @call_arity_custom(%f: (tensor<f32>) -> tensor<f32>, %x: tensor<f32>) {
  // The custom form takes the argument types from the callee type.
  // expected-error @+1 {{custom op 'relay.call' number of operands and types do not match: got 2 operands and 1 types}}
  %0 = relay.call %f(%x, %x) : (tensor<f32>) -> tensor<f32>
  return
}

// -----

func.func @call_argument(%f: (tensor<f32>, tensor<2xf32>) -> tensor<f32>, %x: tensor<f32>) {
  // expected-error @+1 {{'relay.call' op TYPE-CALL: argument #1 has type 'tensor<f32>' but the callee expects 'tensor<2xf32>'}}
  %0 = "relay.call"(%f, %x, %x) : ((tensor<f32>, tensor<2xf32>) -> tensor<f32>, tensor<f32>, tensor<f32>) -> tensor<f32>
  return
}

// -----

func.func @call_results(%f: (tensor<f32>) -> tensor<f32>, %x: tensor<f32>) {
  // expected-error @+1 {{'relay.call' op TYPE-CALL: the callee returns ('tensor<f32>') but the call produces ('tensor<i32>')}}
  %0 = "relay.call"(%f, %x) : ((tensor<f32>) -> tensor<f32>, tensor<f32>) -> tensor<i32>
  return
}

// -----

func.func @call_not_function(%x: tensor<f32>) {
  // expected-error @+1 {{'relay.call' op operand #0 must be function type, but got 'tensor<f32>'}}
  %0 = "relay.call"(%x, %x) : (tensor<f32>, tensor<f32>) -> tensor<f32>
  return
}

// -----

func.func @global_ref_missing() {
  // expected-error @+1 {{'relay.global_ref' op 'missing' does not reference a func.func}}
  %f = relay.global_ref @missing : (tensor<f32>) -> tensor<f32>
  return
}

// -----

func.func private @square(tensor<f32>) -> tensor<f32>

func.func @global_ref_type() {
  // expected-error @+1 {{'relay.global_ref' op type '(tensor<i32>) -> tensor<i32>' does not match the type '(tensor<f32>) -> tensor<f32>' of @square}}
  %f = relay.global_ref @square : (tensor<i32>) -> tensor<i32>
  return
}

// -----

func.func @ref_read_not_ref(%x: tensor<f32>) {
  // expected-error @+1 {{relay.ref_read: TYPE-VAL-REF: expects a !relay.ref operand, got 'tensor<f32>'}}
  %0 = relay.ref_read %x : tensor<f32>
  return
}

// -----

func.func @ref_read_not_ref_generic(%x: tensor<f32>) {
  // expected-error @+1 {{'relay.ref_read' op operand #0 must be mutable reference cell holding a value of type T, but got 'tensor<f32>'}}
  %0 = "relay.ref_read"(%x) : (tensor<f32>) -> tensor<f32>
  return
}

// -----

func.func @ref_write_type(%r: !relay.ref<tensor<f32>>, %x: tensor<2xf32>) {
  // expected-error @+1 {{'relay.ref_write' op failed to verify that value type matches the reference's content type}}
  "relay.ref_write"(%r, %x) : (!relay.ref<tensor<f32>>, tensor<2xf32>) -> ()
  return
}

// -----

// The custom form takes the value type from the reference type.
// expected-note @+1 {{prior use here}}
func.func @ref_write_type_custom(%r: !relay.ref<tensor<f32>>, %x: tensor<2xf32>) {
  // expected-error @+1 {{use of value '%x' expects different type than prior uses: 'tensor<f32>' vs 'tensor<2xf32>'}}
  relay.ref_write %r, %x : !relay.ref<tensor<f32>>
  return
}

// -----

func.func @zero_type() {
  // expected-error @+1 {{'relay.zero' op TYPE-ZERO: expects a tensor type or a tuple of tensor types, got 'tuple<tensor<2xf32>, !relay.ref<tensor<f32>>>'}}
  %0 = relay.zero : tuple<tensor<2xf32>, !relay.ref<tensor<f32>>>
  return
}

// -----

func.func @zero_function() {
  // expected-error @+1 {{'relay.zero' op TYPE-ZERO: expects a tensor type or a tuple of tensor types, got '(tensor<f32>) -> tensor<f32>'}}
  %0 = relay.zero : (tensor<f32>) -> tensor<f32>
  return
}

// -----

// As for tuple_get, the shape function's "expects a function-typed operand"
// is unreachable from text; the parser and ODS reject the operand first.
func.func @grad_not_function(%x: tensor<f32>) {
  // expected-error @+1 {{custom op 'relay.grad' invalid kind of type specified: expected builtin.function, but found 'tensor<f32>'}}
  %0 = relay.grad %x : tensor<f32>
  return
}

// -----

func.func @grad_not_function_generic(%x: tensor<f32>) {
  // expected-error @+1 {{'relay.grad' op operand #0 must be function type, but got 'tensor<f32>'}}
  %0 = "relay.grad"(%x) : (tensor<f32>) -> ((tensor<f32>) -> tensor<f32>)
  return
}

// -----

func.func @grad_parameter(%f: (tensor<f32>, tensor<i32>) -> tensor<f32>) {
  // expected-error @+1 {{relay.grad: TYPE-GRADIENT: parameter #1 has type 'tensor<i32>'; gradients need floating-point tensors}}
  %0 = relay.grad %f : (tensor<f32>, tensor<i32>) -> tensor<f32>
  return
}

// -----

func.func @grad_result(%f: (tensor<f32>) -> tuple<tensor<f32>>) {
  // expected-error @+1 {{relay.grad: TYPE-GRADIENT: the function must return one floating-point tensor, got ('tuple<tensor<f32>>')}}
  %0 = relay.grad %f : (tensor<f32>) -> tuple<tensor<f32>>
  return
}

// -----

func.func @grad_result_count(%f: (tensor<f32>) -> (tensor<f32>, tensor<f32>)) {
  // expected-error @+1 {{relay.grad: TYPE-GRADIENT: the function must return one floating-point tensor, got ('tensor<f32>', 'tensor<f32>')}}
  %0 = relay.grad %f : (tensor<f32>) -> (tensor<f32>, tensor<f32>)
  return
}

// -----

func.func @grad_generic(%f: (tensor<i32>) -> tensor<f32>) {
  // expected-error @+2 {{relay.grad: TYPE-GRADIENT: parameter #0 has type 'tensor<i32>'; gradients need floating-point tensors}}
  // expected-error @+1 {{'relay.grad' op failed to infer returned types}}
  %0 = "relay.grad"(%f) : ((tensor<i32>) -> tensor<f32>) -> ((tensor<i32>) -> tensor<f32>)
  return
}

// -----

func.func @constant_type() {
  // expected-error @+1 {{'relay.constant' op failed to verify that all of {value, result} have same type}}
  %0 = "relay.constant"() {value = dense<1.0> : tensor<2xf32>} : () -> tensor<3xf32>
  return
}

// -----

func.func @tuple_result_type(%x: tensor<f32>) {
  // expected-error @+2 {{'relay.tuple' op inferred type(s) 'tuple<tensor<f32>>' are incompatible with return type(s) of operation 'tuple<tensor<i32>>'}}
  // expected-error @+1 {{'relay.tuple' op failed to infer returned types}}
  %0 = "relay.tuple"(%x) : (tensor<f32>) -> tuple<tensor<i32>>
  return
}
