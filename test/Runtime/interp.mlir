// raf-run --target=interp evaluates relay's functional constructs; tuple
// results are printed flattened depth first.
// RUN: raf-run %s --entry=main --target=interp | FileCheck %s

// CHECK:      result #0: tensor<i64>
// CHECK-NEXT: 720
// CHECK-NEXT: result #1: tensor<2xf32>
// CHECK-NEXT: [11, 22]
// CHECK-NEXT: result #2: tensor<f32>
// CHECK-NEXT: 2
// CHECK-NEXT: result #3: tensor<2xf32>
// CHECK-NEXT: [0, 0]

// fact(n) = n <= 1 ? 1 : n * fact(n - 1), recursing through a function value.
func.func @fact(%n: tensor<i64>) -> tensor<i64> {
  %one = relay.constant dense<1> : tensor<i64>
  %done = relay.less_equal %n, %one : (tensor<i64>, tensor<i64>)
  %r = relay.if %done : tensor<i1> -> (tensor<i64>) {
    relay.yield %one : tensor<i64>
  } else {
    %m = relay.subtract %n, %one : (tensor<i64>, tensor<i64>)
    %self = relay.global_ref @fact : (tensor<i64>) -> tensor<i64>
    %sub = relay.call %self(%m) : (tensor<i64>) -> tensor<i64>
    %p = relay.multiply %n, %sub : (tensor<i64>, tensor<i64>)
    relay.yield %p : tensor<i64>
  }
  return %r : tensor<i64>
}

func.func @main() -> (tensor<i64>, tuple<tensor<2xf32>, tuple<tensor<f32>, tensor<2xf32>>>) {
  %six = relay.constant dense<6> : tensor<i64>
  %f = func.call @fact(%six) : (tensor<i64>) -> tensor<i64>

  // A closure over %offset.
  %offset = relay.constant dense<[10.0, 20.0]> : tensor<2xf32>
  %add = relay.fn(%a: tensor<2xf32>) -> tensor<2xf32> {
    %s = relay.add %a, %offset : (tensor<2xf32>, tensor<2xf32>)
    relay.return %s : tensor<2xf32>
  }
  %x = relay.constant dense<[1.0, 2.0]> : tensor<2xf32>
  %y = relay.call %add(%x) : (tensor<2xf32>) -> tensor<2xf32>

  // A counter cell bumped twice by a closure.
  %zero = relay.constant dense<0.0> : tensor<f32>
  %counter = relay.ref_new %zero : tensor<f32>
  %one = relay.constant dense<1.0> : tensor<f32>
  %bump = relay.fn() -> tuple<> {
    %v = relay.ref_read %counter : !relay.ref<tensor<f32>>
    %w = relay.add %v, %one : (tensor<f32>, tensor<f32>)
    relay.ref_write %counter, %w : !relay.ref<tensor<f32>>
    %unit = relay.tuple()
    relay.return %unit : tuple<>
  }
  %u0 = relay.call %bump() : () -> tuple<>
  %u1 = relay.call %bump() : () -> tuple<>
  %count = relay.ref_read %counter : !relay.ref<tensor<f32>>

  %z = relay.zero : tensor<2xf32>
  %inner = relay.tuple(%count, %z) : tensor<f32>, tensor<2xf32>
  %t = relay.tuple(%y, %inner) : tensor<2xf32>, tuple<tensor<f32>, tensor<2xf32>>
  return %f, %t : tensor<i64>, tuple<tensor<2xf32>, tuple<tensor<f32>, tensor<2xf32>>>
}
