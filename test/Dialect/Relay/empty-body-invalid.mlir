// RUN: raf-opt %s -split-input-file -verify-diagnostics

// Empty bodies have no terminator: a located error, not a read past the
// block (found by raf-fuzz-mlir-parse, docs/fuzzing.md).

func.func @fn_empty_body() {
  // expected-error @+1 {{'relay.fn' op body must end in relay.return}}
  %f = relay.fn(%x: tensor<f32>) -> tensor<i32> {
  }
  return
}

// -----

func.func @if_empty_then(%c: tensor<i1>, %x: tensor<f32>) -> tensor<f32> {
  // expected-error @+1 {{'relay.if' op TYPE-IF: the then branch must end in relay.yield}}
  %0 = "relay.if"(%c) ({
  ^bb0:
  }, {
    "relay.yield"(%x) : (tensor<f32>) -> ()
  }) : (tensor<i1>) -> tensor<f32>
  return %0 : tensor<f32>
}
