// What --raf-flatten-tuples leaves to --target=interp: a tuple held in a
// reference, or passed to a closure that is still a value, is reported at
// its op and nothing is rewritten.
// RUN: raf-opt %s --raf-flatten-tuples --split-input-file -verify-diagnostics

func.func @in_ref(%x: tensor<4xf32>) -> tensor<4xf32> {
  %t = relay.tuple(%x, %x) : tensor<4xf32>, tensor<4xf32>
  // expected-error @+1 {{relay.ref_new takes or gives a tuple, which --raf-flatten-tuples cannot flatten}}
  %cell = relay.ref_new %t : tuple<tensor<4xf32>, tensor<4xf32>>
  return %x : tensor<4xf32>
}

// -----

func.func @closure(%x: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{relay.fn takes or gives a tuple, which --raf-flatten-tuples cannot flatten}}
  %f = relay.fn(%p: tuple<tensor<4xf32>, tensor<4xf32>>) -> tensor<4xf32> {
    %a = relay.tuple_get %p[0] : tuple<tensor<4xf32>, tensor<4xf32>>
    relay.return %a : tensor<4xf32>
  }
  %t = relay.tuple(%x, %x) : tensor<4xf32>, tensor<4xf32>
  // expected-error @+1 {{relay.call takes or gives a tuple}}
  %r = relay.call %f(%t) : (tuple<tensor<4xf32>, tensor<4xf32>>) -> tensor<4xf32>
  return %r : tensor<4xf32>
}
