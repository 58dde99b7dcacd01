// RUN: raf-opt --relay-lower-grad %s | FileCheck %s
// RUN: raf-opt --relay-grad-pipeline %s | FileCheck %s --check-prefix=CLEAN

// The structure of Relay's higher-order reverse mode (Relay paper §4.2): reals
// are paired with adjoint references, every operator pushes a backpropagator
// closure, and relay.grad becomes a function that seeds and runs the chain.

// ⟦square⟧: the backpropagator cell comes first, x is (value, adjoint ref).
// CHECK-LABEL: func.func private @square_lowergrad(
// CHECK-SAME:      %[[BP:.*]]: !relay.ref<() -> ()>, %[[X:.*]]: tuple<tensor<f32>, !relay.ref<tensor<f32>>>)
// CHECK-SAME:      -> tuple<tensor<f32>, !relay.ref<tensor<f32>>>
// CHECK-NEXT:    %[[XV:.*]] = relay.tuple_get %[[X]][0]
// CHECK-NEXT:    %[[XR:.*]] = relay.tuple_get %[[X]][1]
//                let v = op(v1..vk); let r = Ref (Zero typeof(v))
// CHECK-NEXT:    %[[V:.*]] = relay.multiply %[[XV]], %[[XV]]
// CHECK-NEXT:    %[[Z:.*]] = relay.zero : tensor<f32>
// CHECK-NEXT:    %[[R:.*]] = relay.ref_new %[[Z]] : tensor<f32>
// CHECK-NEXT:    %[[PAIR:.*]] = relay.tuple(%[[V]], %[[R]])
//                let old = !bp; bp := fn() { ... }
// CHECK-NEXT:    %[[OLD:.*]] = relay.ref_read %[[BP]] : !relay.ref<() -> ()>
// CHECK-NEXT:    %[[BACK:.*]] = relay.fn() {
//                  read, then clear
// CHECK-NEXT:      %[[G:.*]] = relay.ref_read %[[R]]
// CHECK-NEXT:      %[[Z2:.*]] = relay.zero : tensor<f32>
// CHECK-NEXT:      relay.ref_write %[[R]], %[[Z2]]
//                  the multiply rule gives g * rhs and g * lhs; both go
//                  into x's ref
// CHECK-NEXT:      relay.multiply %[[G]], %[[XV]]
// CHECK-NEXT:      relay.multiply %[[G]], %[[XV]]
// CHECK-NEXT:      %[[A0:.*]] = relay.ref_read %[[XR]]
// CHECK-NEXT:      %[[S0:.*]] = relay.add %[[A0]], %{{.*}}
// CHECK-NEXT:      relay.ref_write %[[XR]], %[[S0]]
// CHECK-NEXT:      %[[A1:.*]] = relay.ref_read %[[XR]]
// CHECK-NEXT:      %[[S1:.*]] = relay.add %[[A1]], %{{.*}}
// CHECK-NEXT:      relay.ref_write %[[XR]], %[[S1]]
//                  then the previous backpropagator
// CHECK-NEXT:      relay.call %[[OLD]]() : () -> ()
// CHECK-NEXT:      relay.return
// CHECK-NEXT:    }
// CHECK-NEXT:    relay.ref_write %[[BP]], %[[BACK]] : !relay.ref<() -> ()>
// CHECK-NEXT:    return %[[PAIR]]

// relay.grad of @square: fresh cell and argument refs, seed with ones, run
// the chain, read and clear the argument refs. Only tensors cross its
// boundary.
// CHECK-LABEL: func.func private @square_grad(
// CHECK-SAME:      %[[X:.*]]: tensor<f32>) -> tuple<tensor<f32>, tuple<tensor<f32>>>
// CHECK-NEXT:    %[[NOP:.*]] = relay.fn() {
// CHECK-NEXT:      relay.return
// CHECK-NEXT:    }
// CHECK-NEXT:    %[[CELL:.*]] = relay.ref_new %[[NOP]] : () -> ()
// CHECK-NEXT:    %[[Z:.*]] = relay.zero : tensor<f32>
// CHECK-NEXT:    %[[RX:.*]] = relay.ref_new %[[Z]]
// CHECK-NEXT:    %[[ARG:.*]] = relay.tuple(%[[X]], %[[RX]])
// CHECK-NEXT:    %[[RES:.*]] = call @square_lowergrad(%[[CELL]], %[[ARG]])
// CHECK-NEXT:    %[[Y:.*]] = relay.tuple_get %[[RES]][0]
// CHECK-NEXT:    %[[RY:.*]] = relay.tuple_get %[[RES]][1]
// CHECK-NEXT:    %[[ONES:.*]] = relay.ones_like %[[Y]]
// CHECK-NEXT:    relay.ref_write %[[RY]], %[[ONES]]
// CHECK-NEXT:    %[[CHAIN:.*]] = relay.ref_read %[[CELL]]
// CHECK-NEXT:    relay.call %[[CHAIN]]() : () -> ()
// CHECK-NEXT:    %[[GX:.*]] = relay.ref_read %[[RX]]
// CHECK-NEXT:    %[[Z2:.*]] = relay.zero : tensor<f32>
// CHECK-NEXT:    relay.ref_write %[[RX]], %[[Z2]]
// CHECK-NEXT:    %[[GS:.*]] = relay.tuple(%[[GX]])
// CHECK-NEXT:    %[[OUT:.*]] = relay.tuple(%[[Y]], %[[GS]])
// CHECK-NEXT:    return %[[OUT]] : tuple<tensor<f32>, tuple<tensor<f32>>>
func.func @square(%x: tensor<f32>) -> tensor<f32> {
  %r = relay.multiply %x, %x : (tensor<f32>, tensor<f32>)
  return %r : tensor<f32>
}

// Integers are not lifted: the counter stays tensor<i32>, the comparison
// and the integer subtraction get no adjoint and no backpropagator. The
// recursion calls the transformed function with the same cell; relay.if
// yields lifted values.
// CHECK-LABEL: func.func private @pow_lowergrad(
// CHECK-SAME:      %[[BP:.*]]: !relay.ref<() -> ()>, %[[X:.*]]: tuple<tensor<f32>, !relay.ref<tensor<f32>>>, %[[N:.*]]: tensor<i32>)
// CHECK:         %[[DONE:.*]] = relay.equal %[[N]], %{{.*}} : (tensor<i32>, tensor<i32>) -> tensor<i1>
// CHECK-NEXT:    relay.if %[[DONE]] : tensor<i1> -> (tuple<tensor<f32>, !relay.ref<tensor<f32>>>) {
// CHECK-NOT:       relay.fn
// CHECK:           relay.yield %{{.*}} : tuple<tensor<f32>, !relay.ref<tensor<f32>>>
// CHECK-NEXT:    } else {
// CHECK:           %[[M:.*]] = relay.subtract %[[N]], %{{.*}} : (tensor<i32>, tensor<i32>) -> tensor<i32>
// CHECK-NEXT:      func.call @pow_lowergrad(%[[BP]], %[[X]], %[[M]])
// CHECK:           relay.multiply
// CHECK:           relay.fn() {
// CHECK:           relay.ref_write %[[BP]]
// CHECK-NEXT:      relay.yield
func.func @pow(%x: tensor<f32>, %n: tensor<i32>) -> tensor<f32> {
  %zero = relay.constant dense<0> : tensor<i32>
  %done = relay.equal %n, %zero : (tensor<i32>, tensor<i32>)
  %r = relay.if %done : tensor<i1> -> (tensor<f32>) {
    %one = relay.constant dense<1.0> : tensor<f32>
    relay.yield %one : tensor<f32>
  } else {
    %onei = relay.constant dense<1> : tensor<i32>
    %m = relay.subtract %n, %onei : (tensor<i32>, tensor<i32>)
    %p = func.call @pow(%x, %m) : (tensor<f32>, tensor<i32>) -> tensor<f32>
    %q = relay.multiply %x, %p : (tensor<f32>, tensor<f32>)
    relay.yield %q : tensor<f32>
  }
  return %r : tensor<f32>
}

// Values no argument influences get a zero adjoint and no backpropagator,
// so an operator without a gradient rule (arith.addf) is fine off the path
// from the arguments. Only the multiply by x pushes a closure, and it only
// propagates into x.
// CHECK-LABEL: func.func private @constants_lowergrad(
// CHECK-SAME:      %[[BP:.*]]: !relay.ref<() -> ()>, %[[X:.*]]: tuple<tensor<2xf32>, !relay.ref<tensor<2xf32>>>)
// CHECK:         %[[XR:.*]] = relay.tuple_get %[[X]][1]
// CHECK:         arith.addf
// CHECK-NOT:     relay.fn
// CHECK:         relay.multiply
// CHECK:         relay.fn() {
// CHECK-NOT:       relay.ref_write
// CHECK:           relay.ref_write %{{.*}}, %{{.*}} : !relay.ref<tensor<2xf32>>
// CHECK-NOT:       relay.ref_write
// CHECK:           relay.ref_write %[[XR]], %{{.*}} : !relay.ref<tensor<2xf32>>
// CHECK-NOT:       relay.ref_write
// CHECK:           relay.return
// CHECK-NEXT:    }
// CHECK-NOT:     relay.fn
// CHECK:         return
func.func @constants(%x: tensor<2xf32>) -> tensor<2xf32> {
  %c = arith.constant dense<[1.0, 2.0]> : tensor<2xf32>
  %d = arith.addf %c, %c : tensor<2xf32>
  %y = relay.multiply %x, %d : (tensor<2xf32>, tensor<2xf32>)
  return %y : tensor<2xf32>
}

// A closure is lifted structurally: it takes the caller's cell first, and
// its call passes the current one.
// CHECK-LABEL: func.func private @apply_lowergrad(
// CHECK-SAME:      %[[BP:.*]]: !relay.ref<() -> ()>, %[[X:.*]]: tuple<tensor<f32>, !relay.ref<tensor<f32>>>)
// CHECK-NEXT:    %[[F:.*]] = relay.fn(%[[INNER:.*]]: !relay.ref<() -> ()>, %{{.*}}: tuple<tensor<f32>, !relay.ref<tensor<f32>>>) -> tuple<tensor<f32>, !relay.ref<tensor<f32>>> {
// CHECK:           relay.tanh
// CHECK:           relay.ref_read %[[INNER]] : !relay.ref<() -> ()>
// CHECK:           relay.ref_write %[[INNER]], %{{.*}} : !relay.ref<() -> ()>
// CHECK:           relay.return %{{.*}} : tuple<tensor<f32>, !relay.ref<tensor<f32>>>
// CHECK-NEXT:    }
// CHECK-NEXT:    %[[R:.*]] = relay.call %[[F]](%[[BP]], %[[X]]) : (!relay.ref<() -> ()>, tuple<tensor<f32>, !relay.ref<tensor<f32>>>) -> tuple<tensor<f32>, !relay.ref<tensor<f32>>>
// CHECK-NEXT:    return %[[R]]
func.func @apply(%x: tensor<f32>) -> tensor<f32> {
  %f = relay.fn(%y: tensor<f32>) -> tensor<f32> {
    %t = relay.tanh %y : (tensor<f32>)
    relay.return %t : tensor<f32>
  }
  %r = relay.call %f(%x) : (tensor<f32>) -> tensor<f32>
  return %r : tensor<f32>
}

// Every relay.grad becomes a reference to its gradient function; the two
// gradients of @square share one. A closed relay.fn operand is outlined
// first (@main_grad_operand).
// CHECK-LABEL: func.func @main(
// CHECK-NEXT:    relay.global_ref @square_grad
// CHECK-NEXT:    relay.call
// CHECK-NEXT:    relay.global_ref @main_grad_operand_grad
// CHECK-NEXT:    relay.call
// CHECK-NEXT:    relay.global_ref @constants_grad
// CHECK-NEXT:    relay.call
// CHECK-NEXT:    relay.global_ref @apply_grad
// CHECK-NEXT:    relay.call
// CHECK-NEXT:    relay.global_ref @square_grad
// CHECK-NEXT:    relay.call
// CHECK-NEXT:    return
// CHECK-LABEL: func.func private @main_grad_operand(
// CHECK-SAME:      %[[Y:.*]]: tensor<f32>) -> tensor<f32>
// CHECK:         call @pow(%[[Y]], %{{.*}}) : (tensor<f32>, tensor<i32>) -> tensor<f32>
// CHECK-LABEL: func.func private @main_grad_operand_lowergrad(
// CHECK:         call @pow_lowergrad(
// CHECK-LABEL: func.func private @main_grad_operand_grad(
// CHECK-SAME:      tensor<f32>) -> tuple<tensor<f32>, tuple<tensor<f32>>>

// After the whole pipeline (lambda lifting first, hence @main_lambda_0),
// no reference crosses a gradient function's boundary, and @main holds no
// reference at all.
// CLEAN: func.func private @square_grad(%{{[^:]*}}: tensor<f32>) -> tuple<tensor<f32>, tuple<tensor<f32>>> {
// CLEAN: func.func private @constants_grad(%{{[^:]*}}: tensor<2xf32>) -> tuple<tensor<2xf32>, tuple<tensor<2xf32>>> {
// CLEAN: func.func private @apply_grad(%{{[^:]*}}: tensor<f32>) -> tuple<tensor<f32>, tuple<tensor<f32>>> {
// CLEAN-LABEL: func.func @main(
// CLEAN-NOT:     relay.ref
// CLEAN:         return
// CLEAN: func.func private @main_lambda_0_grad(%{{[^:]*}}: tensor<f32>) -> tuple<tensor<f32>, tuple<tensor<f32>>> {
func.func @main(%x: tensor<f32>, %v: tensor<2xf32>) -> (tuple<tensor<f32>, tuple<tensor<f32>>>, tuple<tensor<f32>, tuple<tensor<f32>>>, tuple<tensor<2xf32>, tuple<tensor<2xf32>>>, tuple<tensor<f32>, tuple<tensor<f32>>>, tuple<tensor<f32>, tuple<tensor<f32>>>) {
  %sq = relay.global_ref @square : (tensor<f32>) -> tensor<f32>
  %g0 = relay.grad %sq : (tensor<f32>) -> tensor<f32>
  %r0 = relay.call %g0(%x) : (tensor<f32>) -> tuple<tensor<f32>, tuple<tensor<f32>>>
  %cube = relay.fn(%y: tensor<f32>) -> tensor<f32> {
    %three = relay.constant dense<3> : tensor<i32>
    %p = func.call @pow(%y, %three) : (tensor<f32>, tensor<i32>) -> tensor<f32>
    relay.return %p : tensor<f32>
  }
  %g1 = relay.grad %cube : (tensor<f32>) -> tensor<f32>
  %r1 = relay.call %g1(%x) : (tensor<f32>) -> tuple<tensor<f32>, tuple<tensor<f32>>>
  %cs = relay.global_ref @constants : (tensor<2xf32>) -> tensor<2xf32>
  %g2 = relay.grad %cs : (tensor<2xf32>) -> tensor<2xf32>
  %r2 = relay.call %g2(%v) : (tensor<2xf32>) -> tuple<tensor<2xf32>, tuple<tensor<2xf32>>>
  %ap = relay.global_ref @apply : (tensor<f32>) -> tensor<f32>
  %g3 = relay.grad %ap : (tensor<f32>) -> tensor<f32>
  %r3 = relay.call %g3(%x) : (tensor<f32>) -> tuple<tensor<f32>, tuple<tensor<f32>>>
  %g4 = relay.grad %sq : (tensor<f32>) -> tensor<f32>
  %r4 = relay.call %g4(%x) : (tensor<f32>) -> tuple<tensor<f32>, tuple<tensor<f32>>>
  return %r0, %r1, %r2, %r3, %r4 : tuple<tensor<f32>, tuple<tensor<f32>>>, tuple<tensor<f32>, tuple<tensor<f32>>>, tuple<tensor<2xf32>, tuple<tensor<2xf32>>>, tuple<tensor<f32>, tuple<tensor<f32>>>, tuple<tensor<f32>, tuple<tensor<f32>>>
}
