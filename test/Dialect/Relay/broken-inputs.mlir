// RUN: raf-opt %s -split-input-file -verify-diagnostics

// Deliberately broken inputs: malformed syntax, wrong attribute kinds, wrong
// shapes and unknown attributes. Each must give a located error, never a
// crash (exit-codes.test checks the exit status of some of them).

func.func @missing_colon(%x: tensor<4xf32>, %y: tensor<4xf32>) {
  // expected-error @+1 {{expected ':' followed by the operand types}}
  %0 = relay.add %x, %y
  return
}

// -----

func.func @missing_types(%x: tensor<4xf32>) {
  // expected-error @+1 {{expected '('}}
  %0 = relay.exp %x :
  return
}

// -----

func.func @types_not_parenthesised(%x: tensor<4xf32>) {
  // expected-error @+1 {{expected '('}}
  %0 = relay.exp %x : tensor<4xf32>
  return
}

// -----

func.func @too_few_types(%x: tensor<4xf32>, %y: tensor<4xf32>) {
  // expected-error @+1 {{custom op 'relay.add' number of operands and types do not match: got 2 operands and 1 types}}
  %0 = relay.add %x, %y : (tensor<4xf32>)
  return
}

// -----

func.func @too_many_types(%x: tensor<4xf32>) {
  // expected-error @+1 {{custom op 'relay.exp' number of operands and types do not match: got 1 operands and 2 types}}
  %0 = relay.exp %x : (tensor<4xf32>, tensor<4xf32>)
  return
}

// -----

func.func @wrong_operand_type(%x: tensor<4xf32>) {
  // expected-note @-1 {{prior use here}}
  // expected-error @+1 {{use of value '%x' expects different type than prior uses: 'tensor<5xf32>' vs 'tensor<4xf32>'}}
  %0 = relay.exp %x : (tensor<5xf32>)
  return
}

// -----

func.func @undefined_value(%x: tensor<4xf32>) {
  // expected-error @+1 {{use of undeclared SSA value name}}
  %0 = relay.add %x, %nope : (tensor<4xf32>, tensor<4xf32>)
  return
}

// -----

func.func @unclosed_paren(%x: tensor<4xf32>) {
  // expected-error @+1 {{expected ')'}}
  %0 = relay.exp %x : (tensor<4xf32>
  return
}

// -----

func.func @unclosed_attr_dict(%x: tensor<1x1x4x4xf32>) {
  // expected-error @+1 {{expected '}' in attribute dictionary}}
  %0 = relay.nn.max_pool2d %x {pool_size = array<i64: 2, 2> : (tensor<1x1x4x4xf32>)
  return
}

// -----

func.func @unbalanced_region(%x: tensor<4xf32>) {
  %f = relay.fn(%y: tensor<4xf32>) -> tensor<4xf32> {
    relay.return %y : tensor<4xf32>
  // expected-error @+1 {{expected operation name in quotes}}
}

// -----

func.func @bad_array_syntax(%x: tensor<1x1x4x4xf32>) {
  // expected-error @+1 {{expected integer literal}}
  %0 = relay.nn.max_pool2d %x {pool_size = array<i64: 2, x>} : (tensor<1x1x4x4xf32>)
  return
}

// -----

func.func @array_attr_not_dense(%x: tensor<1x3x8x8xf32>, %w: tensor<4x3x3x3xf32>) {
  // expected-error @+1 {{'relay.nn.conv2d' op attribute 'strides' failed to satisfy constraint: i64 dense array attribute}}
  %0 = relay.nn.conv2d %x, %w {strides = [1, 1]} : (tensor<1x3x8x8xf32>, tensor<4x3x3x3xf32>)
  return
}

// -----

func.func @i32_array(%x: tensor<1x3x8x8xf32>, %w: tensor<4x3x3x3xf32>) {
  // expected-error @+1 {{'relay.nn.conv2d' op attribute 'padding' failed to satisfy constraint: i64 dense array attribute}}
  %0 = relay.nn.conv2d %x, %w {padding = array<i32: 1>} : (tensor<1x3x8x8xf32>, tensor<4x3x3x3xf32>)
  return
}

// -----

func.func @string_for_int(%x: tensor<1x3x8x8xf32>, %w: tensor<4x3x3x3xf32>) {
  // expected-error @+1 {{'relay.nn.conv2d' op attribute 'groups' failed to satisfy constraint: 64-bit signless integer attribute}}
  %0 = relay.nn.conv2d %x, %w {groups = "1"} : (tensor<1x3x8x8xf32>, tensor<4x3x3x3xf32>)
  return
}

// -----

func.func @int_for_string(%x: tensor<1x3x8x8xf32>) {
  // expected-error @+1 {{'relay.nn.global_avg_pool2d' op attribute 'layout' failed to satisfy constraint: a 4-D tensor layout}}
  %0 = relay.nn.global_avg_pool2d %x {layout = 1 : i64} : (tensor<1x3x8x8xf32>)
  return
}

// -----

func.func @i32_for_i64(%x: tensor<2x3xf32>) {
  // expected-error @+1 {{'relay.nn.softmax' op attribute 'axis' failed to satisfy constraint: 64-bit signless integer attribute}}
  %0 = relay.nn.softmax %x {axis = 1 : i32} : (tensor<2x3xf32>)
  return
}

// -----

func.func @int_for_bool(%x: tensor<2x3xf32>) {
  // expected-error @+1 {{'relay.sum' op attribute 'keepdims' failed to satisfy constraint: bool attribute}}
  %0 = relay.sum %x {keepdims = 1 : i64} : (tensor<2x3xf32>)
  return
}

// -----

func.func @int_for_float(%x: tensor<2x3xf32>) {
  // expected-error @+1 {{'relay.nn.leaky_relu' op attribute 'alpha' failed to satisfy constraint: 64-bit float attribute}}
  %0 = relay.nn.leaky_relu %x {alpha = 1 : i64} : (tensor<2x3xf32>)
  return
}

// -----

func.func @string_for_type(%x: tensor<2x3xf32>) {
  // expected-error @+1 {{'relay.cast' op attribute 'dtype' failed to satisfy constraint: any type attribute}}
  %0 = relay.cast %x {dtype = "f16"} : (tensor<2x3xf32>)
  return
}

// -----

func.func @missing_required(%x: tensor<1x1x4x4xf32>) {
  // expected-error @+1 {{'relay.nn.max_pool2d' op requires attribute 'pool_size'}}
  %0 = relay.nn.max_pool2d %x : (tensor<1x1x4x4xf32>)
  return
}

// -----

func.func @unknown_op(%x: tensor<1x1x4x4x4xf32>) {
  // expected-error @+1 {{custom op 'relay.nn.conv3d' is unknown}}
  %0 = relay.nn.conv3d %x, %x : (tensor<1x1x4x4x4xf32>, tensor<1x1x4x4x4xf32>)
  return
}

// -----

func.func @unknown_op_generic(%x: tensor<4xf32>) {
  // expected-error @+1 {{unregistered operation 'relay.relu' found in dialect ('relay') that does not allow unknown operations}}
  %0 = "relay.relu"(%x) : (tensor<4xf32>) -> tensor<4xf32>
  return
}

// -----

func.func @misspelt_attribute(%x: tensor<1x3x8x8xf32>, %w: tensor<4x3x3x3xf32>) {
  // expected-error @+1 {{'relay.nn.conv2d' op has unknown attribute 'stride'}}
  %0 = relay.nn.conv2d %x, %w {stride = array<i64: 2, 2>} : (tensor<1x3x8x8xf32>, tensor<4x3x3x3xf32>)
  return
}

// -----

func.func @misspelt_attribute_pool(%x: tensor<1x3x8x8xf32>) {
  // expected-error @+1 {{'relay.nn.max_pool2d' op has unknown attribute 'ceilmode'}}
  %0 = relay.nn.max_pool2d %x {pool_size = array<i64: 2, 2>, ceilmode = true} : (tensor<1x3x8x8xf32>)
  return
}

// -----

func.func @conv_channel_mismatch(%x: tensor<1x3x8x8xf32>, %w: tensor<4x2x3x3xf32>) {
  // expected-error @+1 {{data has 3 input channels but the kernel expects 2 x groups (1) = 2}}
  %0 = relay.nn.conv2d %x, %w : (tensor<1x3x8x8xf32>, tensor<4x2x3x3xf32>)
  return
}

// -----

func.func @conv_nhwc_without_kernel_layout(%x: tensor<1x8x8x2xf32>, %w: tensor<3x3x2x4xf32>) {
  // The HWIO kernel is read as OIHW (I = 3) unless kernel_layout says HWIO.
  // expected-error @+1 {{data has 2 input channels but the kernel expects 3 x groups (1) = 3}}
  %0 = relay.nn.conv2d %x, %w {data_layout = #relay.layout<NHWC>} : (tensor<1x8x8x2xf32>, tensor<3x3x2x4xf32>)
  return
}

// -----

func.func @dense_mismatch(%x: tensor<4x8xf32>, %w: tensor<8x4xf32>) {
  // expected-error @+1 {{relay.nn.dense: x has 8 features but the weight [N, K] has K = 4}}
  %0 = relay.nn.dense %x, %w : (tensor<4x8xf32>, tensor<8x4xf32>)
  return
}

// -----

func.func @broadcast_mismatch(%a: tensor<2x3xf32>, %b: tensor<2xf32>) {
  // expected-error @+1 {{are not broadcastable}}
  %0 = relay.add %a, %b : (tensor<2x3xf32>, tensor<2xf32>)
  return
}

// -----

func.func @reshape_mismatch(%x: tensor<2x3xf32>) {
  // expected-error @+1 {{cannot reshape 'tensor<2x3xf32>' (6 elements) to 5 elements}}
  %0 = relay.reshape %x {newshape = array<i64: 5>} : (tensor<2x3xf32>)
  return
}

// -----

func.func @concat_rank(%a: tensor<2x3xf32>, %b: tensor<3xf32>) {
  // expected-error @+1 {{relay.concatenate: input #1 'tensor<3xf32>' does not match input #0 'tensor<2x3xf32>' outside the concatenation axis 0}}
  %0 = relay.concatenate %a, %b : (tensor<2x3xf32>, tensor<3xf32>)
  return
}

// -----

func.func @wrong_result_count(%x: tensor<4xf32>) {
  // expected-error @+1 {{operation defines 2 results but was provided 1 to bind}}
  %0 = relay.split %x {sections = 2 : i64} : (tensor<4xf32>)
  return
}

// -----

func.func @explicit_wrong_result(%x: tensor<2x3xf32>) {
  // expected-error @+2 {{'relay.transpose' op inferred type(s) 'tensor<3x2xf32>' are incompatible with return type(s) of operation 'tensor<2x3xf32>'}}
  // expected-error @+1 {{'relay.transpose' op failed to infer returned types}}
  %0 = relay.transpose %x : (tensor<2x3xf32>) -> tensor<2x3xf32>
  return
}

// -----

func.func @unranked(%x: tensor<*xf32>) {
  // expected-error @+1 {{relay.nn.relu: operand #0 must be a ranked tensor, got 'tensor<*xf32>'}}
  %0 = relay.nn.relu %x : (tensor<*xf32>)
  return
}

// -----

func.func @if_not_bool(%c: tensor<f32>) {
  // expected-error @+1 {{TYPE-IF: condition must be Tensor(BoolType, Shape())}}
  relay.if %c : tensor<f32> {
    relay.yield
  } else {
    relay.yield
  }
  return
}

// -----

func.func @if_missing_else(%c: tensor<i1>) {
  relay.if %c : tensor<i1> {
    relay.yield
  }
  // expected-error @+1 {{expected 'else'}}
  return
}

// -----

func.func @ref_bad_type() {
  // expected-error @+1 {{expected '<'}}
  %0 = relay.zero : !relay.ref
  return
}

// -----

func.func @unknown_type() {
  // expected-error @+1 {{unknown  type `cell` in dialect `relay`}}
  %0 = relay.zero : !relay.cell<tensor<f32>>
  return
}

// -----

func.func @tuple_index_not_int(%t: tuple<tensor<f32>>) {
  // expected-error @+1 {{expected attribute value}}
  %0 = relay.tuple_get %t[x] : tuple<tensor<f32>>
  return
}

// -----

func.func @call_not_function_type(%f: (tensor<f32>) -> tensor<f32>, %x: tensor<f32>) {
  // expected-error @+1 {{invalid kind of type specified: expected builtin.function, but found 'tensor<f32>'}}
  %0 = relay.call %f(%x) : tensor<f32>
  return
}

// -----

func.func @constant_not_elements() {
  // expected-error @+1 {{invalid kind of attribute specified}}
  %0 = relay.constant 1.0 : f32
  return
}

// -----

func.func @negative_size(%x: tensor<1xf32>) {
  // expected-error @+1 {{relay.broadcast_to: shape sizes must be non-negative}}
  %0 = relay.broadcast_to %x {shape = array<i64: -1>} : (tensor<1xf32>)
  return
}
