// RUN: raf-opt --relay-tail-recursion-to-loops %s | FileCheck %s
// The CPU pipeline runs the pass; the loops compute what the recursion
// computes on the evaluator (steps(20, 1): 20 -> 18 -> ... -> 4 with
// acc doubling 8 times, then 4 more steps adding 1: 256 + 4).
// RUN: raf-run %s --entry=run --target=cpu | FileCheck %s --check-prefix=EVAL
// RUN: raf-run %s --entry=run --target=interp | FileCheck %s --check-prefix=EVAL
// EVAL-LABEL: result #0: tensor<i64>
// EVAL-NEXT:  260

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

// Tail calls in nested relay.if branches: both continue the loop.
// steps(n, acc) = n <= 0 ? acc : (n > 5 ? steps(n - 2, 2 acc)
//                                       : steps(n - 1, acc + 1))
// CHECK-LABEL: func.func @steps(
// CHECK:         scf.while
// CHECK:           relay.if
// CHECK:             relay.if
// CHECK:           scf.condition
// CHECK-NOT:     call @steps
func.func @steps(%n: tensor<i64>, %acc: tensor<i64>) -> tensor<i64> {
  %zero = relay.constant dense<0> : tensor<i64>
  %done = relay.less_equal %n, %zero : (tensor<i64>, tensor<i64>)
  %r = relay.if %done : tensor<i1> -> (tensor<i64>) {
    relay.yield %acc : tensor<i64>
  } else {
    %five = relay.constant dense<5> : tensor<i64>
    %big = relay.greater %n, %five : (tensor<i64>, tensor<i64>)
    %s = relay.if %big : tensor<i1> -> (tensor<i64>) {
      %two = relay.constant dense<2> : tensor<i64>
      %m = relay.subtract %n, %two : (tensor<i64>, tensor<i64>)
      %a = relay.multiply %acc, %two : (tensor<i64>, tensor<i64>)
      %t = func.call @steps(%m, %a) : (tensor<i64>, tensor<i64>) -> tensor<i64>
      relay.yield %t : tensor<i64>
    } else {
      %one = relay.constant dense<1> : tensor<i64>
      %m = relay.subtract %n, %one : (tensor<i64>, tensor<i64>)
      %a = relay.add %acc, %one : (tensor<i64>, tensor<i64>)
      %t = func.call @steps(%m, %a) : (tensor<i64>, tensor<i64>) -> tensor<i64>
      relay.yield %t : tensor<i64>
    }
    relay.yield %s : tensor<i64>
  }
  return %r : tensor<i64>
}
// CHECK-LABEL: func.func @run(
// CHECK-NEXT:    relay.constant
// CHECK-NEXT:    relay.constant
// CHECK-NEXT:    call @steps(
func.func @run() -> tensor<i64> {
  %n = relay.constant dense<20> : tensor<i64>
  %one = relay.constant dense<1> : tensor<i64>
  %r = func.call @steps(%n, %one) : (tensor<i64>, tensor<i64>) -> tensor<i64>
  return %r : tensor<i64>
}

// A tail call whose result another op also uses is left alone.
// CHECK-LABEL: func.func @used_twice(
// CHECK-NOT:     scf.while
// CHECK:         call @used_twice(
func.func @used_twice(%n: tensor<i32>) -> tensor<i32> {
  %zero = relay.constant dense<0> : tensor<i32>
  %done = relay.less_equal %n, %zero : (tensor<i32>, tensor<i32>)
  %r = relay.if %done : tensor<i1> -> (tensor<i32>) {
    relay.yield %n : tensor<i32>
  } else {
    %one = relay.constant dense<1> : tensor<i32>
    %m = relay.subtract %n, %one : (tensor<i32>, tensor<i32>)
    %t = func.call @used_twice(%m) : (tensor<i32>) -> tensor<i32>
    %unused = relay.add %t, %t : (tensor<i32>, tensor<i32>)
    relay.yield %t : tensor<i32>
  }
  return %r : tensor<i32>
}
