// RUN: raf-opt --convert-tosa-to-relay %s -split-input-file -verify-diagnostics

func.func @no_conversion(%x: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{'tosa.floor' op has no conversion to relay}}
  %0 = tosa.floor %x : (tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

func.func @quantized_conv(%x: tensor<1x4x4x2xi8>, %w: tensor<3x1x1x2xi8>, %b: tensor<3xi32>) -> tensor<1x4x4x3xi32> {
  %zp = "tosa.const"() {values = dense<0> : tensor<1xi8>} : () -> tensor<1xi8>
  // expected-error @+1 {{'tosa.conv2d' op with 'i8' input is an integer (quantized) form, which the conversion to relay does not support (only float inputs)}}
  %0 = tosa.conv2d %x, %w, %b, %zp, %zp {acc_type = i32, dilation = array<i64: 1, 1>, pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 1, 1>} : (tensor<1x4x4x2xi8>, tensor<3x1x1x2xi8>, tensor<3xi32>, tensor<1xi8>, tensor<1xi8>) -> tensor<1x4x4x3xi32>
  return %0 : tensor<1x4x4x3xi32>
}

// -----

func.func @quantized_depthwise(%x: tensor<1x4x4x2xi8>, %w: tensor<1x1x2x1xi8>, %b: tensor<2xi32>) -> tensor<1x4x4x2xi32> {
  %zp = "tosa.const"() {values = dense<3> : tensor<1xi8>} : () -> tensor<1xi8>
  // expected-error @+1 {{'tosa.depthwise_conv2d' op with 'i8' input is an integer (quantized) form}}
  %0 = tosa.depthwise_conv2d %x, %w, %b, %zp, %zp {acc_type = i32, dilation = array<i64: 1, 1>, pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 1, 1>} : (tensor<1x4x4x2xi8>, tensor<1x1x2x1xi8>, tensor<2xi32>, tensor<1xi8>, tensor<1xi8>) -> tensor<1x4x4x2xi32>
  return %0 : tensor<1x4x4x2xi32>
}

// -----

func.func @quantized_matmul(%a: tensor<1x2x3xi8>, %b: tensor<1x3x4xi8>) -> tensor<1x2x4xi32> {
  %zp = "tosa.const"() {values = dense<0> : tensor<1xi8>} : () -> tensor<1xi8>
  // expected-error @+1 {{'tosa.matmul' op with 'i8' input is an integer (quantized) form}}
  %0 = tosa.matmul %a, %b, %zp, %zp : (tensor<1x2x3xi8>, tensor<1x3x4xi8>, tensor<1xi8>, tensor<1xi8>) -> tensor<1x2x4xi32>
  return %0 : tensor<1x2x4xi32>
}

// -----

func.func @quantized_avg_pool(%x: tensor<1x4x4x2xi8>) -> tensor<1x2x2x2xi8> {
  %zp = "tosa.const"() {values = dense<0> : tensor<1xi8>} : () -> tensor<1xi8>
  // expected-error @+1 {{'tosa.avg_pool2d' op with 'i8' input is an integer (quantized) form}}
  %0 = tosa.avg_pool2d %x, %zp, %zp {acc_type = i32, kernel = array<i64: 2, 2>, pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 2, 2>} : (tensor<1x4x4x2xi8>, tensor<1xi8>, tensor<1xi8>) -> tensor<1x2x2x2xi8>
  return %0 : tensor<1x2x2x2xi8>
}

// -----

// TOSA's verifier rejects a constant non-zero float zero point; one that is
// not a constant is ours to reject.
func.func @conv_zero_point(%x: tensor<1x4x4x2xf32>, %w: tensor<3x1x1x2xf32>, %b: tensor<3xf32>, %zp: tensor<1xf32>) -> tensor<1x4x4x3xf32> {
  %wzp = "tosa.const"() {values = dense<0.0> : tensor<1xf32>} : () -> tensor<1xf32>
  // expected-error @+1 {{'tosa.conv2d' op has input_zp that is not a constant zero; the conversion to relay supports zero zero points only}}
  %0 = tosa.conv2d %x, %w, %b, %zp, %wzp {acc_type = f32, dilation = array<i64: 1, 1>, pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 1, 1>} : (tensor<1x4x4x2xf32>, tensor<3x1x1x2xf32>, tensor<3xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x4x4x3xf32>
  return %0 : tensor<1x4x4x3xf32>
}

// -----

func.func @depthwise_weight_zero_point(%x: tensor<1x4x4x2xf32>, %w: tensor<1x1x2x1xf32>, %b: tensor<2xf32>, %zp: tensor<1xf32>) -> tensor<1x4x4x2xf32> {
  %izp = "tosa.const"() {values = dense<0.0> : tensor<1xf32>} : () -> tensor<1xf32>
  // expected-error @+1 {{'tosa.depthwise_conv2d' op has weight_zp that is not a constant zero}}
  %0 = tosa.depthwise_conv2d %x, %w, %b, %izp, %zp {acc_type = f32, dilation = array<i64: 1, 1>, pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 1, 1>} : (tensor<1x4x4x2xf32>, tensor<1x1x2x1xf32>, tensor<2xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x4x4x2xf32>
  return %0 : tensor<1x4x4x2xf32>
}

// -----

func.func @matmul_zero_point(%a: tensor<1x2x3xf32>, %b: tensor<1x3x4xf32>, %zp: tensor<1xf32>) -> tensor<1x2x4xf32> {
  %bzp = "tosa.const"() {values = dense<0.0> : tensor<1xf32>} : () -> tensor<1xf32>
  // expected-error @+1 {{'tosa.matmul' op has a_zp that is not a constant zero}}
  %0 = tosa.matmul %a, %b, %zp, %bzp : (tensor<1x2x3xf32>, tensor<1x3x4xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x2x4xf32>
  return %0 : tensor<1x2x4xf32>
}

// -----

func.func @avg_pool_zero_point(%x: tensor<1x4x4x2xf32>, %zp: tensor<1xf32>) -> tensor<1x2x2x2xf32> {
  %izp = "tosa.const"() {values = dense<0.0> : tensor<1xf32>} : () -> tensor<1xf32>
  // expected-error @+1 {{'tosa.avg_pool2d' op has output_zp that is not a constant zero}}
  %0 = tosa.avg_pool2d %x, %izp, %zp {acc_type = f32, kernel = array<i64: 2, 2>, pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 2, 2>} : (tensor<1x4x4x2xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x2x2x2xf32>
  return %0 : tensor<1x2x2x2xf32>
}

// -----

func.func @negate_zero_point(%x: tensor<4xi8>) -> tensor<4xi8> {
  %zp = "tosa.const"() {values = dense<5> : tensor<1xi8>} : () -> tensor<1xi8>
  // expected-error @+1 {{'tosa.negate' op has input1_zp that is not a constant zero}}
  %0 = tosa.negate %x, %zp, %zp : (tensor<4xi8>, tensor<1xi8>, tensor<1xi8>) -> tensor<4xi8>
  return %0 : tensor<4xi8>
}

// -----

func.func @mul_shift(%x: tensor<4xi32>) -> tensor<4xi32> {
  %shift = "tosa.const"() {values = dense<2> : tensor<1xi8>} : () -> tensor<1xi8>
  // expected-error @+1 {{'tosa.mul' op has a shift that is not a constant zero; the conversion to relay supports unshifted multiplication only}}
  %0 = tosa.mul %x, %x, %shift : (tensor<4xi32>, tensor<4xi32>, tensor<1xi8>) -> tensor<4xi32>
  return %0 : tensor<4xi32>
}

// -----

func.func @nan_mode(%x: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{'tosa.maximum' op has nan_mode IGNORE; relay propagates NaN, so only PROPAGATE is supported}}
  %0 = tosa.maximum %x, %x {nan_mode = #tosa.nan_mode<IGNORE>} : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

func.func @clamp_nan_mode(%x: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{'tosa.clamp' op has nan_mode IGNORE}}
  %0 = tosa.clamp %x {min_val = 0.0 : f32, max_val = 6.0 : f32, nan_mode = #tosa.nan_mode<IGNORE>} : (tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

func.func @reduce_min_int(%x: tensor<2x3xi32>) -> tensor<1x3xi32> {
  // expected-error @+1 {{'tosa.reduce_min' op on integers is not supported}}
  %0 = tosa.reduce_min %x {axis = 0 : i32} : (tensor<2x3xi32>) -> tensor<1x3xi32>
  return %0 : tensor<1x3xi32>
}

// -----

func.func @rounding_cast(%x: tensor<4xf32>) -> tensor<4xi32> {
  // expected-error @+1 {{'tosa.cast' op from 'f32' to 'i32' rounds to nearest (ties to even) in TOSA but truncates in relay.cast: float to integer casts are not supported}}
  %0 = tosa.cast %x : (tensor<4xf32>) -> tensor<4xi32>
  return %0 : tensor<4xi32>
}

// -----

func.func @dynamic_shape(%x: tensor<?x3xf32>) -> tensor<?x3xf32> {
  // expected-error @+1 {{'tosa.exp' op has the dynamically shaped type 'tensor<?x3xf32>'; the conversion to relay needs static shapes}}
  %0 = tosa.exp %x : (tensor<?x3xf32>) -> tensor<?x3xf32>
  return %0 : tensor<?x3xf32>
}

// -----

func.func @unsigned(%x: tensor<4xi8>) -> tensor<4xui8> {
  // expected-error @+1 {{'tosa.cast' op has the element type 'ui8'; the conversion to relay supports floats and signless integers}}
  %0 = tosa.cast %x : (tensor<4xi8>) -> tensor<4xui8>
  return %0 : tensor<4xui8>
}

// -----

func.func @pad_value(%x: tensor<2x3xf32>, %value: tensor<1xf32>) -> tensor<3x8xf32> {
  %padding = tosa.const_shape {values = dense<[0, 1, 2, 3]> : tensor<4xindex>} : () -> !tosa.shape<4>
  // expected-error @+1 {{'tosa.pad' op has a pad_const that is not a constant; relay's pad value is an attribute}}
  %0 = tosa.pad %x, %padding, %value : (tensor<2x3xf32>, !tosa.shape<4>, tensor<1xf32>) -> tensor<3x8xf32>
  return %0 : tensor<3x8xf32>
}

// -----

// Operands folded into relay attributes must have inline data: the values of
// a dense_resource blob are not read.
func.func @pad_value_resource(%x: tensor<2xf32>) -> tensor<4xf32> {
  %padding = tosa.const_shape {values = dense<[1, 1]> : tensor<2xindex>} : () -> !tosa.shape<2>
  %value = "tosa.const"() {values = dense_resource<blob> : tensor<1xf32>} : () -> tensor<1xf32>
  // expected-error @+1 {{'tosa.pad' op has a pad_const that is a constant without inline data (dense_resource is not read); the conversion to relay needs its value}}
  %0 = tosa.pad %x, %padding, %value : (tensor<2xf32>, !tosa.shape<2>, tensor<1xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

{-#
  dialect_resources: {
    builtin: {
      blob: "0x040000000000803F"
    }
  }
#-}

// -----

func.func @mul_shift_resource(%x: tensor<4xi32>) -> tensor<4xi32> {
  %shift = "tosa.const"() {values = dense_resource<blob> : tensor<1xi8>} : () -> tensor<1xi8>
  // expected-error @+1 {{'tosa.mul' op has a shift that is a constant without inline data (dense_resource is not read)}}
  %0 = tosa.mul %x, %x, %shift : (tensor<4xi32>, tensor<4xi32>, tensor<1xi8>) -> tensor<4xi32>
  return %0 : tensor<4xi32>
}

{-#
  dialect_resources: {
    builtin: {
      blob: "0x0100000000"
    }
  }
#-}

// -----

// Every obstacle is reported, and nothing is rewritten.
func.func @several(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = tosa.exp %x : (tensor<4xf32>) -> tensor<4xf32>
  // expected-error @+1 {{'tosa.ceil' op has no conversion to relay}}
  %1 = tosa.ceil %0 : (tensor<4xf32>) -> tensor<4xf32>
  // expected-error @+1 {{'tosa.sin' op has no conversion to relay}}
  %2 = tosa.sin %1 : (tensor<4xf32>) -> tensor<4xf32>
  return %2 : tensor<4xf32>
}
