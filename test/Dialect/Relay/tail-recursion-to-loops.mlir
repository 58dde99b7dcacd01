// RUN: raf-opt --relay-tail-recursion-to-loops %s | FileCheck %s

// A function whose recursive calls are tail calls becomes an scf.while over
// its arguments: each exit yields (continue?, next arguments, results).

// CHECK-LABEL: func.func @countdown(
// CHECK-SAME:      %[[N0:.*]]: tensor<i32>, %[[ACC0:.*]]: tensor<4xf32>) -> tensor<4xf32>
// CHECK-NEXT:    %[[LOOP:.*]]:3 = scf.while (%[[N:.*]] = %[[N0]], %[[ACC:.*]] = %[[ACC0]]) : (tensor<i32>, tensor<4xf32>) -> (tensor<i32>, tensor<4xf32>, tensor<4xf32>) {
// CHECK:           %[[EXIT:.*]]:4 = relay.if %{{.*}} : tensor<i1> -> (tensor<i1>, tensor<i32>, tensor<4xf32>, tensor<4xf32>) {
// CHECK-NEXT:        %[[STOP:.*]] = relay.constant dense<false> : tensor<i1>
// CHECK-NEXT:        relay.yield %[[STOP]], %[[N]], %[[ACC]], %[[ACC]]
// CHECK-NEXT:      } else {
// CHECK:             %[[M:.*]] = relay.subtract %[[N]]
// CHECK-NEXT:        %[[NEXT:.*]] = relay.add %[[ACC]], %[[ACC]]
// CHECK-NEXT:        %[[ZERO:.*]] = relay.constant dense<0.000000e+00> : tensor<4xf32>
// CHECK-NEXT:        %[[GO:.*]] = relay.constant dense<true> : tensor<i1>
// CHECK-NEXT:        relay.yield %[[GO]], %[[M]], %[[NEXT]], %[[ZERO]]
// CHECK-NEXT:      }
// CHECK-NEXT:      %[[FLAG:.*]] = tensor.extract %[[EXIT]]#0[] : tensor<i1>
// CHECK-NEXT:      scf.condition(%[[FLAG]]) %[[EXIT]]#1, %[[EXIT]]#2, %[[EXIT]]#3
// CHECK-NEXT:    } do {
// CHECK-NEXT:    ^bb0(%[[A:.*]]: tensor<i32>, %[[B:.*]]: tensor<4xf32>, %[[C:.*]]: tensor<4xf32>):
// CHECK-NEXT:      scf.yield %[[A]], %[[B]]
// CHECK-NEXT:    }
// CHECK-NEXT:    return %[[LOOP]]#2
// CHECK-NOT:     call @countdown
func.func @countdown(%n: tensor<i32>, %acc: tensor<4xf32>) -> tensor<4xf32> {
  %zero = relay.constant dense<0> : tensor<i32>
  %done = relay.less_equal %n, %zero : (tensor<i32>, tensor<i32>)
  %r = relay.if %done : tensor<i1> -> (tensor<4xf32>) {
    relay.yield %acc : tensor<4xf32>
  } else {
    %one = relay.constant dense<1> : tensor<i32>
    %m = relay.subtract %n, %one : (tensor<i32>, tensor<i32>)
    %next = relay.add %acc, %acc : (tensor<4xf32>, tensor<4xf32>)
    %rest = func.call @countdown(%m, %next) : (tensor<i32>, tensor<4xf32>) -> tensor<4xf32>
    relay.yield %rest : tensor<4xf32>
  }
  return %r : tensor<4xf32>
}

// Not a tail call: the result is used after the call returns.
// CHECK-LABEL: func.func @fact(
// CHECK-NOT:     scf.while
// CHECK:         call @fact(
func.func @fact(%n: tensor<i64>) -> tensor<i64> {
  %one = relay.constant dense<1> : tensor<i64>
  %done = relay.less_equal %n, %one : (tensor<i64>, tensor<i64>)
  %r = relay.if %done : tensor<i1> -> (tensor<i64>) {
    relay.yield %one : tensor<i64>
  } else {
    %m = relay.subtract %n, %one : (tensor<i64>, tensor<i64>)
    %sub = func.call @fact(%m) : (tensor<i64>) -> tensor<i64>
    %p = relay.multiply %n, %sub : (tensor<i64>, tensor<i64>)
    relay.yield %p : tensor<i64>
  }
  return %r : tensor<i64>
}

// A tuple result has no placeholder: the function stays recursive.
// CHECK-LABEL: func.func @pair_loop(
// CHECK-NOT:     scf.while
// CHECK:         call @pair_loop(
func.func @pair_loop(%n: tensor<i32>, %acc: tensor<f32>) -> tuple<tensor<f32>> {
  %zero = relay.constant dense<0> : tensor<i32>
  %done = relay.less_equal %n, %zero : (tensor<i32>, tensor<i32>)
  %r = relay.if %done : tensor<i1> -> (tuple<tensor<f32>>) {
    %t = relay.tuple(%acc) : tensor<f32>
    relay.yield %t : tuple<tensor<f32>>
  } else {
    %one = relay.constant dense<1> : tensor<i32>
    %m = relay.subtract %n, %one : (tensor<i32>, tensor<i32>)
    %rest = func.call @pair_loop(%m, %acc) : (tensor<i32>, tensor<f32>) -> tuple<tensor<f32>>
    relay.yield %rest : tuple<tensor<f32>>
  }
  return %r : tuple<tensor<f32>>
}
