// RUN: raf-opt %s -split-input-file -verify-diagnostics --convert-relay-to-tcg

// Operators whose types a tcg.kernel cannot express: a located error each.

func.func @dynamic(%x: tensor<?x4xf32>, %w: tensor<5x4xf32>) -> tensor<?x5xf32> {
  // expected-error @+1 {{'relay.nn.dense' op cannot be expressed as a tcg.kernel: operand #0 has a dynamic shape ('tensor<?x4xf32>')}}
  %0 = relay.nn.dense %x, %w : (tensor<?x4xf32>, tensor<5x4xf32>)
  return %0 : tensor<?x5xf32>
}

// -----

func.func @dynamic_kernel(%x: tensor<1x3x8x8xf32>, %w: tensor<4x3x?x3xf32>) -> tensor<1x4x?x6xf32> {
  // expected-error @+1 {{'relay.nn.conv2d' op cannot be expressed as a tcg.kernel: operand #1 has a dynamic shape ('tensor<4x3x?x3xf32>')}}
  %0 = relay.nn.conv2d %x, %w : (tensor<1x3x8x8xf32>, tensor<4x3x?x3xf32>)
  return %0 : tensor<1x4x?x6xf32>
}

// -----

func.func @empty(%x: tensor<3x0xf32>, %w: tensor<5x0xf32>) -> tensor<3x5xf32> {
  // expected-error @+1 {{'relay.nn.dense' op cannot be expressed as a tcg.kernel: operand #0 is empty ('tensor<3x0xf32>')}}
  %0 = relay.nn.dense %x, %w : (tensor<3x0xf32>, tensor<5x0xf32>)
  return %0 : tensor<3x5xf32>
}

// -----

func.func @unsigned(%a: tensor<3x4xui8>, %b: tensor<4x5xui8>) -> tensor<3x5xui8> {
  // expected-error @+1 {{'relay.nn.matmul' op cannot be expressed as a tcg.kernel: operand #0 has element type 'ui8'; tcg computes on signless integers and floats}}
  %0 = relay.nn.matmul %a, %b : (tensor<3x4xui8>, tensor<4x5xui8>)
  return %0 : tensor<3x5xui8>
}

// -----

func.func @narrowing(%x: tensor<3x4xf32>, %w: tensor<5x4xf32>) -> tensor<3x5xf16> {
  // expected-error @+1 {{'relay.nn.dense' op cannot be expressed as a tcg.kernel: the result element type 'f16' is not a widening of the operands' 'f32'}}
  %0 = relay.nn.dense %x, %w {out_dtype = f16} : (tensor<3x4xf32>, tensor<5x4xf32>)
  return %0 : tensor<3x5xf16>
}

// -----

func.func @int_to_float(%a: tensor<2x3x4xi8>, %b: tensor<2x5x4xi8>) -> tensor<2x3x5xf32> {
  // expected-error @+1 {{'relay.nn.batch_matmul' op cannot be expressed as a tcg.kernel: the result element type 'f32' is not a widening of the operands' 'i8'}}
  %0 = relay.nn.batch_matmul %a, %b {out_dtype = f32} : (tensor<2x3x4xi8>, tensor<2x5x4xi8>)
  return %0 : tensor<2x3x5xf32>
}

// -----

// Every unsupported operator is reported, not only the first.
func.func @all_reported(%x: tensor<?x4xf32>, %w: tensor<5x4xf32>, %y: tensor<3x4xf32>) -> (tensor<?x5xf32>, tensor<3x5xf32>, tensor<3x5xf16>) {
  // expected-error @+1 {{operand #0 has a dynamic shape}}
  %0 = relay.nn.dense %x, %w : (tensor<?x4xf32>, tensor<5x4xf32>)
  %1 = relay.nn.dense %y, %w : (tensor<3x4xf32>, tensor<5x4xf32>)
  // expected-error @+1 {{is not a widening}}
  %2 = relay.nn.dense %y, %w {out_dtype = f16} : (tensor<3x4xf32>, tensor<5x4xf32>)
  return %0, %1, %2 : tensor<?x5xf32>, tensor<3x5xf32>, tensor<3x5xf16>
}
