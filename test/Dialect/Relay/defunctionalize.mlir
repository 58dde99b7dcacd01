// RUN: raf-opt --relay-lambda-lift --relay-defunctionalize %s | FileCheck %s
// RUN: raf-opt --relay-lambda-lift --relay-defunctionalize %s | raf-run - --entry=run --target=interp | FileCheck %s --check-prefix=EVAL
// RUN: raf-run %s --entry=run --target=interp | FileCheck %s --check-prefix=EVAL

// After lambda lifting, --relay-defunctionalize removes every function value
// (Reynolds 1972): calls of known closures become func.call of the lifted
// function with the captured values in front, higher-order functions are
// specialised per closure shape, a returned closure is returned as its
// captured values, and a choice between closures of different functions is
// a tag plus a relay.if dispatch. The second and third RUN lines check that
// the reference evaluator computes the same before and after.

// A local closure: the call goes straight to the lifted function.
// CHECK-LABEL: func.func @local(
// CHECK-SAME:      %[[X:.*]]: tensor<4xf32>, %[[K:.*]]: tensor<4xf32>)
// CHECK-NEXT:    %[[A:.*]] = call @local_lambda_0(%[[K]], %[[X]])
// CHECK-NEXT:    %[[B:.*]] = call @local_lambda_0(%[[K]], %[[A]])
// CHECK-NEXT:    return %[[B]]
// CHECK-NOT:   relay.fn
// CHECK-LABEL: func.func private @local_lambda_0(
func.func @local(%x: tensor<4xf32>, %k: tensor<4xf32>) -> tensor<4xf32> {
  %scale = relay.fn(%y: tensor<4xf32>) -> tensor<4xf32> {
    %m = relay.multiply %y, %k : (tensor<4xf32>, tensor<4xf32>)
    relay.return %m : tensor<4xf32>
  }
  %a = relay.call %scale(%x) : (tensor<4xf32>) -> tensor<4xf32>
  %b = relay.call %scale(%a) : (tensor<4xf32>) -> tensor<4xf32>
  return %b : tensor<4xf32>
}

// A higher-order function gets one clone per closure shape: two closures
// of the same lifted function (captures %k, %j) share a clone that takes the
// captured value first; @square's closure gets its own; the original @twice
// is gone.
// CHECK-NOT:   func.func @twice(
// CHECK-LABEL: func.func private @twice_defun_0(
// CHECK-SAME:      %[[K0:.*]]: tensor<4xf32>, %[[X0:.*]]: tensor<4xf32>) -> tensor<4xf32>
// CHECK-NEXT:    %[[A0:.*]] = call @make_shift_lambda_0(%[[K0]], %[[X0]])
// CHECK-NEXT:    %[[B0:.*]] = call @make_shift_lambda_0(%[[K0]], %[[A0]])
// CHECK-NEXT:    return %[[B0]]
// CHECK-LABEL: func.func private @twice_defun_1(
// CHECK-SAME:      %[[X1:.*]]: tensor<4xf32>) -> tensor<4xf32>
// CHECK-NEXT:    call @square(%[[X1]])
// CHECK-NEXT:    call @square(
// CHECK-LABEL: func.func @map_twice(
// CHECK-SAME:      %[[X:.*]]: tensor<4xf32>, %[[K:.*]]: tensor<4xf32>, %[[J:.*]]: tensor<4xf32>)
// CHECK-NEXT:    %[[EK:.*]] = call @make_shift_defun_0(%[[K]])
// CHECK-NEXT:    %[[EJ:.*]] = call @make_shift_defun_0(%[[J]])
// CHECK-NEXT:    %[[A:.*]] = call @twice_defun_0(%[[EK]], %[[X]])
// CHECK-NEXT:    %[[B:.*]] = call @twice_defun_0(%[[EJ]], %[[A]])
// CHECK-NEXT:    %[[C:.*]] = call @twice_defun_1(%[[B]])
// CHECK-NEXT:    return %[[C]]
func.func @twice(%f: (tensor<4xf32>) -> tensor<4xf32>, %x: tensor<4xf32>) -> tensor<4xf32> {
  %a = relay.call %f(%x) : (tensor<4xf32>) -> tensor<4xf32>
  %b = relay.call %f(%a) : (tensor<4xf32>) -> tensor<4xf32>
  return %b : tensor<4xf32>
}
func.func @square(%y: tensor<4xf32>) -> tensor<4xf32> {
  %m = relay.multiply %y, %y : (tensor<4xf32>, tensor<4xf32>)
  return %m : tensor<4xf32>
}
func.func @map_twice(%x: tensor<4xf32>, %k: tensor<4xf32>, %j: tensor<4xf32>) -> tensor<4xf32> {
  %shift_k = func.call @make_shift(%k) : (tensor<4xf32>) -> ((tensor<4xf32>) -> tensor<4xf32>)
  %shift_j = func.call @make_shift(%j) : (tensor<4xf32>) -> ((tensor<4xf32>) -> tensor<4xf32>)
  %a = func.call @twice(%shift_k, %x) : ((tensor<4xf32>) -> tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  %b = func.call @twice(%shift_j, %a) : ((tensor<4xf32>) -> tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  %sq = relay.global_ref @square : (tensor<4xf32>) -> tensor<4xf32>
  %c = func.call @twice(%sq, %b) : ((tensor<4xf32>) -> tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  return %c : tensor<4xf32>
}

// A function returning a closure returns what the closure captured.
// CHECK-LABEL: func.func private @make_shift_defun_0(
// CHECK-SAME:      %[[B:.*]]: tensor<4xf32>) -> tensor<4xf32>
// CHECK-NEXT:    return %[[B]]
// CHECK-LABEL: func.func @returned(
// CHECK-SAME:      %[[X:.*]]: tensor<4xf32>, %[[K:.*]]: tensor<4xf32>)
// CHECK-NEXT:    %[[E:.*]] = call @make_shift_defun_0(%[[K]])
// CHECK-NEXT:    %[[R:.*]] = call @make_shift_lambda_0(%[[E]], %[[X]])
// CHECK-NEXT:    return %[[R]]
func.func private @make_shift(%b: tensor<4xf32>) -> ((tensor<4xf32>) -> tensor<4xf32>) {
  %f = relay.fn(%y: tensor<4xf32>) -> tensor<4xf32> {
    %s = relay.add %y, %b : (tensor<4xf32>, tensor<4xf32>)
    relay.return %s : tensor<4xf32>
  }
  return %f : (tensor<4xf32>) -> tensor<4xf32>
}
func.func @returned(%x: tensor<4xf32>, %k: tensor<4xf32>) -> tensor<4xf32> {
  %f = func.call @make_shift(%k) : (tensor<4xf32>) -> ((tensor<4xf32>) -> tensor<4xf32>)
  %r = relay.call %f(%x) : (tensor<4xf32>) -> tensor<4xf32>
  return %r : tensor<4xf32>
}

// Closures of two functions through relay.if: the relay.if yields a tag and
// both environments (zeros for the closure not chosen); the call dispatches
// on the tag.
// CHECK-LABEL: func.func @choose(
// CHECK-SAME:      %[[X:.*]]: tensor<4xf32>, %[[K:.*]]: tensor<4xf32>, %[[C:.*]]: tensor<i1>)
// CHECK-NEXT:    %[[U:.*]]:3 = relay.if %[[C]] : tensor<i1> -> (tensor<i32>, tensor<4xf32>, tensor<4xf32>) {
// CHECK-NEXT:      %[[T0:.*]] = relay.constant dense<0> : tensor<i32>
// CHECK-NEXT:      %[[Z0:.*]] = relay.constant dense<0.000000e+00> : tensor<4xf32>
// CHECK-NEXT:      relay.yield %[[T0]], %[[K]], %[[Z0]]
// CHECK-NEXT:    } else {
// CHECK-NEXT:      %[[T1:.*]] = relay.constant dense<1> : tensor<i32>
// CHECK-NEXT:      %[[Z1:.*]] = relay.constant dense<0.000000e+00> : tensor<4xf32>
// CHECK-NEXT:      relay.yield %[[T1]], %[[Z1]], %[[K]]
// CHECK-NEXT:    }
// CHECK-NEXT:    %[[ZERO:.*]] = relay.constant dense<0> : tensor<i32>
// CHECK-NEXT:    %[[IS0:.*]] = relay.equal %[[U]]#0, %[[ZERO]]
// CHECK-NEXT:    %[[R:.*]] = relay.if %[[IS0]] : tensor<i1> -> (tensor<4xf32>) {
// CHECK-NEXT:      %[[M:.*]] = func.call @choose_lambda_0(%[[U]]#1, %[[X]])
// CHECK-NEXT:      relay.yield %[[M]]
// CHECK-NEXT:    } else {
// CHECK-NEXT:      %[[S:.*]] = func.call @choose_lambda_1(%[[U]]#2, %[[X]])
// CHECK-NEXT:      relay.yield %[[S]]
// CHECK-NEXT:    }
// CHECK-NEXT:    return %[[R]]
func.func @choose(%x: tensor<4xf32>, %k: tensor<4xf32>, %c: tensor<i1>) -> tensor<4xf32> {
  %f = relay.if %c : tensor<i1> -> ((tensor<4xf32>) -> tensor<4xf32>) {
    %g = relay.fn(%y: tensor<4xf32>) -> tensor<4xf32> {
      %m = relay.multiply %y, %k : (tensor<4xf32>, tensor<4xf32>)
      relay.return %m : tensor<4xf32>
    }
    relay.yield %g : (tensor<4xf32>) -> tensor<4xf32>
  } else {
    %h = relay.fn(%y: tensor<4xf32>) -> tensor<4xf32> {
      %s = relay.add %y, %k : (tensor<4xf32>, tensor<4xf32>)
      relay.return %s : tensor<4xf32>
    }
    relay.yield %h : (tensor<4xf32>) -> tensor<4xf32>
  }
  %r = relay.call %f(%x) : (tensor<4xf32>) -> tensor<4xf32>
  return %r : tensor<4xf32>
}

// Closures of the same function need no tag: the relay.if chooses the
// captured value.
// CHECK-LABEL: func.func @same_function(
// CHECK-SAME:      %[[X:.*]]: tensor<4xf32>, %[[K:.*]]: tensor<4xf32>, %[[C:.*]]: tensor<i1>)
// CHECK-NEXT:    %[[E:.*]] = relay.if %[[C]] : tensor<i1> -> (tensor<4xf32>) {
// CHECK-NEXT:      %[[EK:.*]] = func.call @make_shift_defun_0(%[[K]])
// CHECK-NEXT:      relay.yield %[[EK]]
// CHECK-NEXT:    } else {
// CHECK-NEXT:      %[[EX:.*]] = func.call @make_shift_defun_0(%[[X]])
// CHECK-NEXT:      relay.yield %[[EX]]
// CHECK-NEXT:    }
// CHECK-NEXT:    %[[R:.*]] = call @make_shift_lambda_0(%[[E]], %[[X]])
// CHECK-NEXT:    return %[[R]]
func.func @same_function(%x: tensor<4xf32>, %k: tensor<4xf32>, %c: tensor<i1>) -> tensor<4xf32> {
  %f = relay.if %c : tensor<i1> -> ((tensor<4xf32>) -> tensor<4xf32>) {
    %g = func.call @make_shift(%k) : (tensor<4xf32>) -> ((tensor<4xf32>) -> tensor<4xf32>)
    relay.yield %g : (tensor<4xf32>) -> tensor<4xf32>
  } else {
    %h = func.call @make_shift(%x) : (tensor<4xf32>) -> ((tensor<4xf32>) -> tensor<4xf32>)
    relay.yield %h : (tensor<4xf32>) -> tensor<4xf32>
  }
  %r = relay.call %f(%x) : (tensor<4xf32>) -> tensor<4xf32>
  return %r : tensor<4xf32>
}

// Recursion through the function's own value keeps the specialisation:
// the clone calls itself.
// CHECK-LABEL: func.func private @countdown_defun_0(
// CHECK-SAME:      %[[N:.*]]: tensor<i32>, %[[ACC:.*]]: tensor<4xf32>, %[[K:.*]]: tensor<4xf32>) -> tensor<4xf32>
// CHECK:         %[[NEXT:.*]] = func.call @loop_lambda_0(%[[K]], %[[ACC]])
// CHECK:         func.call @countdown_defun_0(%{{.*}}, %[[NEXT]], %[[K]])
// CHECK-LABEL: func.func @loop(
// CHECK-SAME:      %[[X:.*]]: tensor<4xf32>, %[[K:.*]]: tensor<4xf32>, %[[N:.*]]: tensor<i32>)
// CHECK-NEXT:    call @countdown_defun_0(%[[N]], %[[X]], %[[K]])
func.func private @countdown(%n: tensor<i32>, %acc: tensor<4xf32>, %step: (tensor<4xf32>) -> tensor<4xf32>) -> tensor<4xf32> {
  %zero = relay.constant dense<0> : tensor<i32>
  %done = relay.less_equal %n, %zero : (tensor<i32>, tensor<i32>)
  %r = relay.if %done : tensor<i1> -> (tensor<4xf32>) {
    relay.yield %acc : tensor<4xf32>
  } else {
    %next = relay.call %step(%acc) : (tensor<4xf32>) -> tensor<4xf32>
    %one = relay.constant dense<1> : tensor<i32>
    %m = relay.subtract %n, %one : (tensor<i32>, tensor<i32>)
    %self = relay.global_ref @countdown : (tensor<i32>, tensor<4xf32>, (tensor<4xf32>) -> tensor<4xf32>) -> tensor<4xf32>
    %rest = relay.call %self(%m, %next, %step) : (tensor<i32>, tensor<4xf32>, (tensor<4xf32>) -> tensor<4xf32>) -> tensor<4xf32>
    relay.yield %rest : tensor<4xf32>
  }
  return %r : tensor<4xf32>
}
func.func @loop(%x: tensor<4xf32>, %k: tensor<4xf32>, %n: tensor<i32>) -> tensor<4xf32> {
  %step = relay.fn(%a: tensor<4xf32>) -> tensor<4xf32> {
    %s = relay.add %a, %k : (tensor<4xf32>, tensor<4xf32>)
    relay.return %s : tensor<4xf32>
  }
  %r = func.call @countdown(%n, %x, %step) : (tensor<i32>, tensor<4xf32>, (tensor<4xf32>) -> tensor<4xf32>) -> tensor<4xf32>
  return %r : tensor<4xf32>
}

// A closure capturing a function value: compose(f, g) returns fn(y) {
// g(f(y)) }; its environment is those of f and g.
// CHECK-LABEL: func.func private @compose_defun_0(
// CHECK-SAME:      %[[K:.*]]: tensor<4xf32>) -> tensor<4xf32>
// CHECK-NEXT:    return %[[K]]
// CHECK-LABEL: func.func private @compose_lambda_0_defun_0(
// CHECK-SAME:      %[[K:.*]]: tensor<4xf32>, %[[Y:.*]]: tensor<4xf32>) -> tensor<4xf32>
// CHECK-NEXT:    %[[A:.*]] = call @make_shift_lambda_0(%[[K]], %[[Y]])
// CHECK-NEXT:    %[[B:.*]] = call @square(%[[A]])
// CHECK-NEXT:    return %[[B]]
// CHECK-LABEL: func.func @composed(
// CHECK-SAME:      %[[X:.*]]: tensor<4xf32>, %[[K:.*]]: tensor<4xf32>)
// CHECK-NEXT:    %[[S:.*]] = call @make_shift_defun_0(%[[K]])
// CHECK-NEXT:    %[[E:.*]] = call @compose_defun_0(%[[S]])
// CHECK-NEXT:    %[[R:.*]] = call @compose_lambda_0_defun_0(%[[E]], %[[X]])
// CHECK-NEXT:    return %[[R]]
func.func private @compose(%f: (tensor<4xf32>) -> tensor<4xf32>, %g: (tensor<4xf32>) -> tensor<4xf32>) -> ((tensor<4xf32>) -> tensor<4xf32>) {
  %h = relay.fn(%y: tensor<4xf32>) -> tensor<4xf32> {
    %a = relay.call %f(%y) : (tensor<4xf32>) -> tensor<4xf32>
    %b = relay.call %g(%a) : (tensor<4xf32>) -> tensor<4xf32>
    relay.return %b : tensor<4xf32>
  }
  return %h : (tensor<4xf32>) -> tensor<4xf32>
}
func.func @composed(%x: tensor<4xf32>, %k: tensor<4xf32>) -> tensor<4xf32> {
  %shift = func.call @make_shift(%k) : (tensor<4xf32>) -> ((tensor<4xf32>) -> tensor<4xf32>)
  %sq = relay.global_ref @square : (tensor<4xf32>) -> tensor<4xf32>
  %h = func.call @compose(%shift, %sq) : ((tensor<4xf32>) -> tensor<4xf32>, (tensor<4xf32>) -> tensor<4xf32>) -> ((tensor<4xf32>) -> tensor<4xf32>)
  %r = relay.call %h(%x) : (tensor<4xf32>) -> tensor<4xf32>
  return %r : tensor<4xf32>
}

// Closures in a tuple: the tuple is its fields' environments.
// CHECK-LABEL: func.func @pair(
// CHECK-SAME:      %[[X:.*]]: tensor<4xf32>, %[[K:.*]]: tensor<4xf32>)
// CHECK-NEXT:    %[[E:.*]] = call @make_shift_defun_0(%[[K]])
// CHECK-NEXT:    %[[A:.*]] = call @make_shift_lambda_0(%[[E]], %[[X]])
// CHECK-NEXT:    %[[B:.*]] = call @square(%[[A]])
// CHECK-NEXT:    %[[T:.*]] = relay.tuple(%[[B]], %[[K]])
// CHECK-NEXT:    return %[[T]]
func.func @pair(%x: tensor<4xf32>, %k: tensor<4xf32>) -> tuple<tensor<4xf32>, tensor<4xf32>> {
  %first = func.call @make_shift(%k) : (tensor<4xf32>) -> ((tensor<4xf32>) -> tensor<4xf32>)
  %second = relay.global_ref @square : (tensor<4xf32>) -> tensor<4xf32>
  %t = relay.tuple(%first, %second, %k) : (tensor<4xf32>) -> tensor<4xf32>, (tensor<4xf32>) -> tensor<4xf32>, tensor<4xf32>
  %f = relay.tuple_get %t[0] : tuple<(tensor<4xf32>) -> tensor<4xf32>, (tensor<4xf32>) -> tensor<4xf32>, tensor<4xf32>>
  %g = relay.tuple_get %t[1] : tuple<(tensor<4xf32>) -> tensor<4xf32>, (tensor<4xf32>) -> tensor<4xf32>, tensor<4xf32>>
  %k2 = relay.tuple_get %t[2] : tuple<(tensor<4xf32>) -> tensor<4xf32>, (tensor<4xf32>) -> tensor<4xf32>, tensor<4xf32>>
  %a = relay.call %f(%x) : (tensor<4xf32>) -> tensor<4xf32>
  %b = relay.call %g(%a) : (tensor<4xf32>) -> tensor<4xf32>
  %r = relay.tuple(%b, %k2) : tensor<4xf32>, tensor<4xf32>
  return %r : tuple<tensor<4xf32>, tensor<4xf32>>
}

// A reference captured by a closure stays shared after the rewrite.
// CHECK-LABEL: func.func @counter(
// CHECK:         %[[CELL:.*]] = relay.ref_new
// CHECK-NEXT:    call @counter_lambda_0(%[[CELL]])
// CHECK-NEXT:    call @counter_lambda_0(%[[CELL]])
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

// The evaluator agrees before and after. x = [1, 2, -3, 4], k = [0.5, -1,
// 2, 0.25], j = 1; results computed with numpy.
// EVAL:      result #0: tensor<4xf32>
// EVAL-NEXT: [0.25, 2, -12, 0.25]
// EVAL-NEXT: result #1: tensor<4xf32>
// EVAL-NEXT: [256, 16, 81, 1785.06]
// EVAL-NEXT: result #2: tensor<4xf32>
// EVAL-NEXT: [1.5, 1, -1, 4.25]
// EVAL-NEXT: result #3: tensor<4xf32>
// EVAL-NEXT: [0.5, -2, -6, 1]
// EVAL-NEXT: result #4: tensor<4xf32>
// EVAL-NEXT: [2, 4, -6, 8]
// EVAL-NEXT: result #5: tensor<4xf32>
// EVAL-NEXT: [3, -2, 5, 5]
// EVAL-NEXT: result #6: tensor<4xf32>
// EVAL-NEXT: [2.25, 1, 1, 18.0625]
// EVAL-NEXT: result #7: tensor<4xf32>
// EVAL-NEXT: [2.25, 1, 1, 18.0625]
// EVAL-NEXT: result #8: tensor<4xf32>
// EVAL-NEXT: [0.5, -1, 2, 0.25]
// EVAL-NEXT: result #9: tensor<f32>
// EVAL-NEXT: 12
func.func @run() -> (tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tuple<tensor<4xf32>, tensor<4xf32>>, tensor<f32>) {
  %x = relay.constant dense<[1.0, 2.0, -3.0, 4.0]> : tensor<4xf32>
  %k = relay.constant dense<[0.5, -1.0, 2.0, 0.25]> : tensor<4xf32>
  %j = relay.constant dense<1.0> : tensor<4xf32>
  %t = relay.constant dense<true> : tensor<i1>
  %f = relay.constant dense<false> : tensor<i1>
  %n = relay.constant dense<4> : tensor<i32>
  %three = relay.constant dense<3.0> : tensor<f32>
  %r0 = func.call @local(%x, %k) : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  %r1 = func.call @map_twice(%x, %k, %j) : (tensor<4xf32>, tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  %r2 = func.call @returned(%x, %k) : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  %r3 = func.call @choose(%x, %k, %t) : (tensor<4xf32>, tensor<4xf32>, tensor<i1>) -> tensor<4xf32>
  %r4 = func.call @same_function(%x, %k, %f) : (tensor<4xf32>, tensor<4xf32>, tensor<i1>) -> tensor<4xf32>
  %r5 = func.call @loop(%x, %k, %n) : (tensor<4xf32>, tensor<4xf32>, tensor<i32>) -> tensor<4xf32>
  %r6 = func.call @composed(%x, %k) : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  %r7 = func.call @pair(%x, %k) : (tensor<4xf32>, tensor<4xf32>) -> tuple<tensor<4xf32>, tensor<4xf32>>
  %r8 = func.call @counter(%three) : (tensor<f32>) -> tensor<f32>
  return %r0, %r1, %r2, %r3, %r4, %r5, %r6, %r7, %r8 : tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tuple<tensor<4xf32>, tensor<4xf32>>, tensor<f32>
}
