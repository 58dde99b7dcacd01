// RUN: raf-opt --relay-lambda-lift %s | FileCheck %s
// RUN: raf-opt --relay-lambda-lift %s | raf-run - --entry=run --target=interp | FileCheck %s --check-prefix=EVAL

// Every relay.fn becomes a private func.func taking its free variables
// first. A closure that captures nothing is then a relay.global_ref; one
// that captures values is a partial application: a relay.fn whose body only
// calls the lifted function with the captured values and its arguments.

// Constants are cloned into the lifted function rather than captured.
// CHECK-LABEL: func.func @closed(
// CHECK-SAME:      %[[A:.*]]: tensor<4xf32>)
// CHECK-NEXT:    %[[F:.*]] = relay.global_ref @closed_lambda_0 : (tensor<4xf32>) -> tensor<4xf32>
// CHECK-NEXT:    %[[R:.*]] = relay.call %[[F]](%[[A]])
// CHECK-NEXT:    return %[[R]]
// CHECK-LABEL: func.func private @closed_lambda_0(
// CHECK-SAME:      %[[Y:.*]]: tensor<4xf32>) -> tensor<4xf32>
// CHECK-NEXT:    %[[K:.*]] = relay.constant dense<2.000000e+00>
// CHECK-NEXT:    %[[Z:.*]] = relay.multiply %[[Y]], %[[K]]
// CHECK-NEXT:    return %[[Z]]
func.func @closed(%a: tensor<4xf32>) -> tensor<4xf32> {
  %k = relay.constant dense<2.0> : tensor<4xf32>
  %f = relay.fn(%y: tensor<4xf32>) -> tensor<4xf32> {
    %z = relay.multiply %y, %k : (tensor<4xf32>, tensor<4xf32>)
    relay.return %z : tensor<4xf32>
  }
  %r = relay.call %f(%a) : (tensor<4xf32>) -> tensor<4xf32>
  return %r : tensor<4xf32>
}

// Nested closures are lifted innermost first. %h uses the closure %f, which
// is cloned into @capturing_lambda_2 (closure values are as cheap to build
// as constants), so %h captures %a itself. `primitive` becomes
// `relay.primitive` on the lifted function.
// CHECK-LABEL: func.func @capturing(
// CHECK-SAME:      %[[A:.*]]: tensor<4xf32>, %{{.*}}: tensor<i32>)
// CHECK-NEXT:    %[[H:.*]] = relay.fn(%[[ARG:.*]]: tensor<4xf32>) -> tensor<4xf32> {
// CHECK-NEXT:      %[[C:.*]] = func.call @capturing_lambda_2(%[[A]], %[[ARG]])
// CHECK-NEXT:      relay.return %[[C]]
// CHECK-NEXT:    }
// CHECK-NEXT:    relay.call %[[H]](%[[A]])
// CHECK-LABEL: func.func private @capturing_lambda_0(
// CHECK-SAME:      %[[A0:.*]]: tensor<4xf32>, %[[Z:.*]]: tensor<4xf32>)
// CHECK-NEXT:    relay.add %[[Z]], %[[A0]]
// CHECK-LABEL: func.func private @capturing_lambda_1(
// CHECK-SAME:      %[[A1:.*]]: tensor<4xf32>, %[[Y1:.*]]: tensor<4xf32>)
// CHECK-NEXT:    %[[G:.*]] = relay.fn(%[[ARG1:.*]]: tensor<4xf32>) -> tensor<4xf32> {
// CHECK-NEXT:      func.call @capturing_lambda_0(%[[A1]], %[[ARG1]])
// CHECK:         relay.call %[[G]](%[[Y1]])
// CHECK-LABEL: func.func private @capturing_lambda_2(
// CHECK-SAME:      %[[A2:.*]]: tensor<4xf32>, %[[Y2:.*]]: tensor<4xf32>) -> tensor<4xf32> attributes {relay.primitive}
// CHECK-NEXT:    %[[F2:.*]] = relay.fn(%[[ARG2:.*]]: tensor<4xf32>) -> tensor<4xf32> {
// CHECK-NEXT:      func.call @capturing_lambda_1(%[[A2]], %[[ARG2]])
// CHECK:         relay.call %[[F2]](%[[Y2]])
func.func @capturing(%a: tensor<4xf32>, %n: tensor<i32>) -> tensor<4xf32> {
  %f = relay.fn(%y: tensor<4xf32>) -> tensor<4xf32> {
    %g = relay.fn(%z: tensor<4xf32>) -> tensor<4xf32> {
      %s = relay.add %z, %a : (tensor<4xf32>, tensor<4xf32>)
      relay.return %s : tensor<4xf32>
    }
    %u = relay.call %g(%y) : (tensor<4xf32>) -> tensor<4xf32>
    relay.return %u : tensor<4xf32>
  }
  %h = relay.fn(%y: tensor<4xf32>) -> tensor<4xf32> attributes {primitive} {
    %u = relay.call %f(%y) : (tensor<4xf32>) -> tensor<4xf32>
    relay.return %u : tensor<4xf32>
  }
  %r = relay.call %h(%a) : (tensor<4xf32>) -> tensor<4xf32>
  return %r : tensor<4xf32>
}

// A closure capturing a reference cell keeps sharing it after lifting.
// CHECK-LABEL: func.func @counter(
// CHECK:         %[[CELL:.*]] = relay.ref_new
// CHECK:         %[[BUMP:.*]] = relay.fn() -> tensor<f32> {
// CHECK-NEXT:      func.call @counter_lambda_0(%[[CELL]])
// CHECK:         relay.call %[[BUMP]]()
// CHECK:         relay.call %[[BUMP]]()
// CHECK-LABEL: func.func private @counter_lambda_0(
// CHECK-SAME:      %{{.*}}: !relay.ref<tensor<f32>>) -> tensor<f32>
func.func @counter(%x: tensor<f32>) -> tensor<f32> {
  %cell = relay.ref_new %x : tensor<f32>
  %bump = relay.fn() -> tensor<f32> {
    %v = relay.ref_read %cell : !relay.ref<tensor<f32>>
    %w = relay.add %v, %v : (tensor<f32>, tensor<f32>)
    relay.ref_write %cell, %w : !relay.ref<tensor<f32>>
    relay.return %w : tensor<f32>
  }
  %u0 = relay.call %bump() : () -> tensor<f32>
  %u1 = relay.call %bump() : () -> tensor<f32>
  return %u1 : tensor<f32>
}

// relay.grad gets a closed operand. A closed closure is a global_ref. A
// closure capturing %c is differentiated as its lifted function of (%c, %y)
// and the gradient of %c is dropped (@grads_lambda_1_partial_grad_0).
// CHECK-LABEL: func.func @grads(
// CHECK-SAME:      %[[X:.*]]: tensor<f32>, %[[C:.*]]: tensor<f32>)
// CHECK-NEXT:    %[[F0:.*]] = relay.global_ref @grads_lambda_0 : (tensor<f32>) -> tensor<f32>
// CHECK-NEXT:    %[[G0:.*]] = relay.grad %[[F0]]
// CHECK-NEXT:    relay.call %[[G0]](%[[X]])
// CHECK-NEXT:    %[[G1:.*]] = relay.fn(%[[Y:.*]]: tensor<f32>) -> tuple<tensor<f32>, tuple<tensor<f32>>> {
// CHECK-NEXT:      %[[P:.*]] = func.call @grads_lambda_1_partial_grad_0(%[[C]], %[[Y]])
// CHECK-NEXT:      relay.return %[[P]]
// CHECK-NEXT:    }
// CHECK-NEXT:    relay.call %[[G1]](%[[X]])
// CHECK-LABEL: func.func private @grads_lambda_0(
// CHECK-LABEL: func.func private @grads_lambda_1(
// CHECK-SAME:      %[[C1:.*]]: tensor<f32>, %[[Y1:.*]]: tensor<f32>) -> tensor<f32>
// CHECK-NEXT:    relay.multiply %[[Y1]], %[[C1]]
// CHECK-LABEL: func.func private @grads_lambda_1_partial_grad_0(
// CHECK-SAME:      %[[PC:.*]]: tensor<f32>, %[[PY:.*]]: tensor<f32>) -> tuple<tensor<f32>, tuple<tensor<f32>>>
// CHECK-NEXT:    %[[L:.*]] = relay.global_ref @grads_lambda_1 : (tensor<f32>, tensor<f32>) -> tensor<f32>
// CHECK-NEXT:    %[[GL:.*]] = relay.grad %[[L]] : (tensor<f32>, tensor<f32>) -> tensor<f32>
// CHECK-NEXT:    %[[ALL:.*]] = relay.call %[[GL]](%[[PC]], %[[PY]])
// CHECK-NEXT:    %[[V:.*]] = relay.tuple_get %[[ALL]][0]
// CHECK-NEXT:    %[[GS:.*]] = relay.tuple_get %[[ALL]][1]
// CHECK-NEXT:    %[[GY:.*]] = relay.tuple_get %[[GS]][1]
// CHECK-NEXT:    %[[T:.*]] = relay.tuple(%[[GY]])
// CHECK-NEXT:    %[[OUT:.*]] = relay.tuple(%[[V]], %[[T]])
// CHECK-NEXT:    return %[[OUT]]
// CHECK-NOT:     relay.fn(
func.func @grads(%x: tensor<f32>, %c: tensor<f32>) -> (tuple<tensor<f32>, tuple<tensor<f32>>>, tuple<tensor<f32>, tuple<tensor<f32>>>) {
  %closed = relay.fn(%y: tensor<f32>) -> tensor<f32> {
    %m = relay.multiply %y, %y : (tensor<f32>, tensor<f32>)
    relay.return %m : tensor<f32>
  }
  %g0 = relay.grad %closed : (tensor<f32>) -> tensor<f32>
  %r0 = relay.call %g0(%x) : (tensor<f32>) -> tuple<tensor<f32>, tuple<tensor<f32>>>
  %open = relay.fn(%y: tensor<f32>) -> tensor<f32> {
    %m = relay.multiply %y, %c : (tensor<f32>, tensor<f32>)
    relay.return %m : tensor<f32>
  }
  %g1 = relay.grad %open : (tensor<f32>) -> tensor<f32>
  %r1 = relay.call %g1(%x) : (tensor<f32>) -> tuple<tensor<f32>, tuple<tensor<f32>>>
  return %r0, %r1 : tuple<tensor<f32>, tuple<tensor<f32>>>, tuple<tensor<f32>, tuple<tensor<f32>>>
}

// The lifted program computes what the closures did: @capturing gives
// a + a, @closed doubles that, and the counter doubles 3 twice.
// EVAL:      result #0: tensor<4xf32>
// EVAL-NEXT: [4, 8, 12, 16]
// EVAL-NEXT: result #1: tensor<f32>
// EVAL-NEXT: 12
func.func @run() -> (tensor<4xf32>, tensor<f32>) {
  %a = relay.constant dense<[1.0, 2.0, 3.0, 4.0]> : tensor<4xf32>
  %n = relay.constant dense<0> : tensor<i32>
  %v = func.call @capturing(%a, %n) : (tensor<4xf32>, tensor<i32>) -> tensor<4xf32>
  %w = func.call @closed(%v) : (tensor<4xf32>) -> tensor<4xf32>
  %three = relay.constant dense<3.0> : tensor<f32>
  %c = func.call @counter(%three) : (tensor<f32>) -> tensor<f32>
  return %w, %c : tensor<4xf32>, tensor<f32>
}
