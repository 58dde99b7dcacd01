// Every evaluation failure is a located error and a non-zero exit.
// RUN: not raf-run %s --entry=grad --target=interp 2>&1 | FileCheck %s --check-prefix=GRAD
// RUN: not raf-run %s --entry=unsupported --target=interp 2>&1 | FileCheck %s --check-prefix=FOREIGN-OP
// RUN: not raf-run %s --entry=take --target=interp 2>&1 | FileCheck %s --check-prefix=TAKE
// RUN: not raf-run %s --entry=divide --target=interp 2>&1 | FileCheck %s --check-prefix=DIVIDE

func.func @square(%x: tensor<f32>) -> tensor<f32> {
  %r = relay.multiply %x, %x : (tensor<f32>, tensor<f32>)
  return %r : tensor<f32>
}

func.func @grad(%x: tensor<f32>) -> tensor<f32> {
  %f = relay.global_ref @square : (tensor<f32>) -> tensor<f32>
  // GRAD: interp-errors.mlir:[[@LINE+1]]:8: error: relay.grad cannot be evaluated; lower it first with --relay-grad-pipeline
  %g = relay.grad %f : (tensor<f32>) -> tensor<f32>
  %r = relay.call %g(%x) : (tensor<f32>) -> tuple<tensor<f32>, tuple<tensor<f32>>>
  %y = relay.tuple_get %r[0] : tuple<tensor<f32>, tuple<tensor<f32>>>
  return %y : tensor<f32>
}

func.func @unsupported(%x: tensor<2xf32>) -> tensor<2xf32> {
  // FOREIGN-OP: interp-errors.mlir:[[@LINE+1]]:8: error: operation 'arith.addf' is not supported by the reference evaluator
  %r = arith.addf %x, %x : tensor<2xf32>
  return %r : tensor<2xf32>
}

func.func @take(%x: tensor<3xf32>) -> tensor<2xf32> {
  %i = relay.constant dense<[0, 3]> : tensor<2xi32>
  // TAKE: interp-errors.mlir:[[@LINE+1]]:8: error: 'relay.take' op index 3 (element 1 of the indices) is out of range [0, 3) in mode "fast"
  %r = relay.take %x, %i {axis = 0 : i64, mode = #relay.take_mode<fast>} : (tensor<3xf32>, tensor<2xi32>)
  return %r : tensor<2xf32>
}

// The error is located at the op inside the called function.
func.func @divide_by(%x: tensor<2xi32>, %y: tensor<2xi32>) -> tensor<2xi32> {
  // DIVIDE: interp-errors.mlir:[[@LINE+1]]:8: error: 'relay.divide' op integer division by zero
  %r = relay.divide %x, %y : (tensor<2xi32>, tensor<2xi32>)
  return %r : tensor<2xi32>
}

func.func @divide(%x: tensor<2xi32>) -> tensor<2xi32> {
  %zero = relay.constant dense<0> : tensor<2xi32>
  %r = func.call @divide_by(%x, %zero) : (tensor<2xi32>, tensor<2xi32>) -> tensor<2xi32>
  return %r : tensor<2xi32>
}
