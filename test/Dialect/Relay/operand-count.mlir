// RUN: raf-opt %s -split-input-file -verify-diagnostics

// An operator written in the custom form with the wrong number of operands
// is a parse error at its operands, before the shape function (which reads
// operands by position) runs; a variadic operator states the minimum. The
// generic form reaches the same count through the verifier.

func.func @binary_one(%g: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{custom op 'relay.add' expected 2 operands, got 1}}
  %0 = relay.add %g : (tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

func.func @binary_one_inferred(%g: tensor<4xf32>) {
  // expected-error @+1 {{custom op 'relay.multiply' expected 2 operands, got 1}}
  %0 = relay.multiply %g : (tensor<4xf32>)
  return
}

// -----

func.func @binary_three(%g: tensor<4xf32>) {
  // expected-error @+1 {{custom op 'relay.subtract' expected 2 operands, got 3}}
  %0 = relay.subtract %g, %g, %g : (tensor<4xf32>, tensor<4xf32>, tensor<4xf32>)
  return
}

// -----

func.func @unary_none() {
  // expected-error @+1 {{custom op 'relay.exp' expected 1 operand, got 0}}
  %0 = relay.exp : () -> tensor<4xf32>
  return
}

// -----

func.func @unary_two(%g: tensor<4xf32>) {
  // expected-error @+1 {{custom op 'relay.nn.relu' expected 1 operand, got 2}}
  %0 = relay.nn.relu %g, %g : (tensor<4xf32>, tensor<4xf32>)
  return
}

// -----

func.func @ternary(%c: tensor<4xi1>, %x: tensor<4xf32>) {
  // expected-error @+1 {{custom op 'relay.where' expected 3 operands, got 2}}
  %0 = relay.where %c, %x : (tensor<4xi1>, tensor<4xf32>)
  return
}

// -----

func.func @conv_data_only(%x: tensor<1x3x8x8xf32>) {
  // expected-error @+1 {{custom op 'relay.nn.conv2d' expected 2 operands, got 1}}
  %0 = relay.nn.conv2d %x {padding = array<i64: 1, 1, 1, 1>} : (tensor<1x3x8x8xf32>)
  return
}

// -----

func.func @nullary_with_operand(%x: tensor<4xf32>) {
  // expected-error @+1 {{custom op 'relay.zeros' expected 0 operands, got 1}}
  %0 = relay.zeros %x {shape = array<i64: 4>, dtype = f32} : (tensor<4xf32>)
  return
}

// -----

// Variadic: any number parses; the shape function wants one at least.
func.func @variadic_none() {
  // expected-error @+1 {{relay.concatenate: expects at least one input}}
  %0 = relay.concatenate
  return
}

// -----

func.func @variadic_three(%a: tensor<2xf32>, %b: tensor<3xf32>) -> tensor<7xf32> {
  %0 = relay.concatenate %a, %b, %a : (tensor<2xf32>, tensor<3xf32>, tensor<2xf32>)
  return %0 : tensor<7xf32>
}

// -----

func.func @generic_form(%g: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{'relay.add' op expected 2 operands, but found 1}}
  %0 = "relay.add"(%g) : (tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}
