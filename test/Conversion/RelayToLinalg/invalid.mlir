// RUN: raf-opt %s -split-input-file -verify-diagnostics --convert-relay-to-linalg

// Everything --convert-relay-to-linalg rejects. The pass checks the whole
// module before rewriting, so every obstacle is reported, not only the first.

func.func @dynamic_shape(%x: tensor<?x4xf32>) -> tensor<?x4xf32> {
  // expected-error @+1 {{relay.exp: the lowering to linalg needs static shapes, got 'tensor<?x4xf32>'}}
  %0 = relay.exp %x : (tensor<?x4xf32>)
  return %0 : tensor<?x4xf32>
}

// -----

func.func @unsigned_elements(%x: tensor<4xui8>) -> tensor<4xui8> {
  // expected-error @+1 {{relay.add: the lowering to linalg supports signless integer and float elements, got 'tensor<4xui8>'}}
  %0 = relay.add %x, %x : (tensor<4xui8>, tensor<4xui8>)
  return %0 : tensor<4xui8>
}

// -----

func.func @every_error_is_reported(%x: tensor<?xf32>, %c: tensor<i1>) -> tensor<?xf32> {
  // expected-error @+1 {{relay.negative: the lowering to linalg needs static shapes}}
  %0 = relay.negative %x : (tensor<?xf32>)
  // expected-error @+1 {{relay.if result #0 has type 'tensor<?xf32>'; the lowering to linalg supports relay.if with statically shaped tensor results only}}
  %1 = relay.if %c : tensor<i1> -> (tensor<?xf32>) {
    // The branches' operators are checked too.
    // expected-error @+1 {{relay.exp: the lowering to linalg needs static shapes}}
    %2 = relay.exp %x : (tensor<?xf32>)
    relay.yield %2 : tensor<?xf32>
  } else {
    relay.yield %0 : tensor<?xf32>
  }
  return %1 : tensor<?xf32>
}

// -----

func.func @if_with_tuple_result(%x: tensor<2xf32>, %c: tensor<i1>) -> tensor<2xf32> {
  // expected-error @+1 {{relay.if result #0 has type 'tuple<tensor<2xf32>, tensor<2xf32>>'; the lowering to linalg supports relay.if with statically shaped tensor results only}}
  %1 = relay.if %c : tensor<i1> -> (tuple<tensor<2xf32>, tensor<2xf32>>) {
    // expected-error @+1 {{relay.tuple has no lowering to linalg yet}}
    %t = relay.tuple(%x, %x) : tensor<2xf32>, tensor<2xf32>
    relay.yield %t : tuple<tensor<2xf32>, tensor<2xf32>>
  } else {
    // expected-error @+1 {{relay.tuple has no lowering to linalg yet}}
    %t = relay.tuple(%x, %x) : tensor<2xf32>, tensor<2xf32>
    relay.yield %t : tuple<tensor<2xf32>, tensor<2xf32>>
  }
  // expected-error @+1 {{relay.tuple_get has no lowering to linalg yet}}
  %2 = relay.tuple_get %1[0] : tuple<tensor<2xf32>, tensor<2xf32>>
  return %2 : tensor<2xf32>
}

// -----

// expected-error @+1 {{function @tuple_signature has argument #0 of type 'tuple<tensor<2xf32>, tensor<2xf32>>', which the lowering to linalg cannot represent (only tensor and scalar types are supported; --raf-flatten-tuples passes tuples as their elements)}}
func.func @tuple_signature(%t: tuple<tensor<2xf32>, tensor<2xf32>>) -> tensor<2xf32> {
  // expected-error @+1 {{relay.tuple_get has no lowering to linalg yet}}
  %0 = relay.tuple_get %t[0] : tuple<tensor<2xf32>, tensor<2xf32>>
  return %0 : tensor<2xf32>
}

// -----

// expected-error @+1 {{function @closure_result has result #0 of type '(tensor<2xf32>) -> tensor<2xf32>', which the lowering to linalg cannot represent}}
func.func @closure_result() -> ((tensor<2xf32>) -> tensor<2xf32>) {
  // expected-error @+1 {{relay.fn has no lowering to linalg yet}}
  %f = relay.fn(%y: tensor<2xf32>) -> tensor<2xf32> {
    %z = relay.exp %y : (tensor<2xf32>)
    relay.return %z : tensor<2xf32>
  }
  return %f : (tensor<2xf32>) -> tensor<2xf32>
}

// -----

func.func @call_and_refs(%x: tensor<2xf32>) -> tensor<2xf32> {
  // expected-error @+1 {{relay.ref_new has no lowering to linalg yet}}
  %r = relay.ref_new %x : tensor<2xf32>
  // expected-error @+1 {{relay.ref_read has no lowering to linalg yet}}
  %v = relay.ref_read %r : !relay.ref<tensor<2xf32>>
  return %v : tensor<2xf32>
}

// -----

func.func @tuple_zero() {
  // expected-error @+1 {{relay.zero of type 'tuple<tensor<2xf32>, tensor<f32>>' has no lowering to linalg (only statically shaped tensor types do)}}
  %z = relay.zero : tuple<tensor<2xf32>, tensor<f32>>
  return
}

// -----

func.func @dynamic_zero() -> tensor<?xf32> {
  // expected-error @+1 {{relay.zero of type 'tensor<?xf32>' has no lowering to linalg}}
  %z = relay.zero : tensor<?xf32>
  return %z : tensor<?xf32>
}

// -----

func.func @take_from_empty_axis(%x: tensor<2x0xf32>, %i: tensor<3xi32>) -> tensor<2x3xf32> {
  // expected-error @+1 {{relay.take: cannot take elements from an empty axis (no index is in range)}}
  %0 = relay.take %x, %i {axis = 1 : i64} : (tensor<2x0xf32>, tensor<3xi32>)
  return %0 : tensor<2x3xf32>
}

// -----

func.func @pool_grad_dynamic(%g: tensor<1x1x?x2xf32>, %x: tensor<1x1x?x4xf32>) -> tensor<1x1x?x4xf32> {
  // Every dynamic type is reported: out_grad, and data and the result (the
  // same type, so one expectation matches both).
  // expected-error @+2 {{relay.nn.max_pool2d_grad: the lowering to linalg needs static shapes, got 'tensor<1x1x?x2xf32>'}}
  // expected-error @+1 {{relay.nn.max_pool2d_grad: the lowering to linalg needs static shapes, got 'tensor<1x1x?x4xf32>'}}
  %0 = relay.nn.max_pool2d_grad %g, %x {pool_size = array<i64: 2, 2>, strides = array<i64: 2, 2>} : (tensor<1x1x?x2xf32>, tensor<1x1x?x4xf32>)
  return %0 : tensor<1x1x?x4xf32>
}
