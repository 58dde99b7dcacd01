// Calls and relay.if on the gradient path: the callee gets an adjoint
// version returning a backpropagator, each branch yields one, and the
// gradients come out right on the reference interpreter.
// RUN: raf-opt --raf-autodiff="inline-backward=true" %s | FileCheck %s
// RUN: raf-opt --raf-autodiff="inline-backward=true" %s -o %t.mlir
// RUN: %python -c "import numpy as np; np.save('%t.x.npy', np.float32(2)); np.save('%t.xn.npy', np.float32(-2)); np.save('%t.w.npy', np.float32(3)); np.save('%t.one.npy', np.float32(1))"
// RUN: raf-run %t.mlir --target=interp --input=%t.x.npy --input=%t.w.npy --input=%t.one.npy | FileCheck %s --check-prefix=POSITIVE
// RUN: raf-run %t.mlir --target=interp --input=%t.xn.npy --input=%t.w.npy --input=%t.one.npy | FileCheck %s --check-prefix=NEGATIVE

// CHECK-LABEL: func.func @cube(
// CHECK-LABEL: func.func private @cube_adjoint(%arg0: tensor<f32>) -> (tensor<f32>, (tensor<f32>) -> tuple<tensor<f32>>)
// CHECK: relay.fn(%{{.*}}: tensor<f32>) -> tuple<tensor<f32>>
// CHECK-LABEL: func.func @main(
// CHECK: %[[IF:.*]]:2 = relay.if
// CHECK: %[[C:.*]]:2 = func.call @cube_adjoint(%arg0)
// CHECK: %[[BPT:.*]] = relay.fn(
// CHECK: relay.call %[[C]]#1(
// CHECK: relay.yield %{{.*}}, %[[BPT]] : tensor<f32>, (tensor<f32>) -> tuple<tensor<f32>, tensor<f32>>
// CHECK: } else {
// CHECK: %[[BPE:.*]] = relay.fn(
// CHECK: relay.yield %{{.*}}, %[[BPE]]
// CHECK: %[[G:.*]] = relay.call %[[IF]]#1(
// CHECK-DAG: relay.tuple_get %[[G]][0]
// CHECK-DAG: relay.tuple_get %[[G]][1]

// y = (x > 0 ? cube(x) * w : -x) + w
// x = 2, w = 3: y = 27, dy/dx = 3 x^2 w = 36, dy/dw = x^3 + 1 = 9.
// POSITIVE: result #0: tensor<f32>
// POSITIVE-NEXT: 27
// POSITIVE-NEXT: result #1: tensor<f32>
// POSITIVE-NEXT: 36
// POSITIVE-NEXT: result #2: tensor<f32>
// POSITIVE-NEXT: 9
// x = -2: y = 5, dy/dx = -1, dy/dw = 1.
// NEGATIVE: result #0: tensor<f32>
// NEGATIVE-NEXT: 5
// NEGATIVE-NEXT: result #1: tensor<f32>
// NEGATIVE-NEXT: -1
// NEGATIVE-NEXT: result #2: tensor<f32>
// NEGATIVE-NEXT: 1
func.func @cube(%x: tensor<f32>) -> tensor<f32> {
  %s = relay.multiply %x, %x : (tensor<f32>, tensor<f32>)
  %c = relay.multiply %s, %x : (tensor<f32>, tensor<f32>)
  return %c : tensor<f32>
}

func.func @main(%x: tensor<f32>, %w: tensor<f32>) -> tensor<f32> {
  %zero = relay.constant dense<0.0> : tensor<f32>
  %pos = relay.greater %x, %zero : (tensor<f32>, tensor<f32>)
  %r = relay.if %pos : tensor<i1> -> (tensor<f32>) {
    %c = func.call @cube(%x) : (tensor<f32>) -> tensor<f32>
    %m = relay.multiply %c, %w : (tensor<f32>, tensor<f32>)
    relay.yield %m : tensor<f32>
  } else {
    %n = relay.negative %x : (tensor<f32>)
    relay.yield %n : tensor<f32>
  }
  // Through a tuple and back.
  %t = relay.tuple(%r, %w) : tensor<f32>, tensor<f32>
  %a = relay.tuple_get %t[0] : tuple<tensor<f32>, tensor<f32>>
  %b = relay.tuple_get %t[1] : tuple<tensor<f32>, tensor<f32>>
  %y = relay.add %a, %b : (tensor<f32>, tensor<f32>)
  return %y : tensor<f32>
}
