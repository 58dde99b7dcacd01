// Hand-computed relay.grad vectors (Relay paper §4.2), lowered by
// --relay-grad-pipeline and run on the reference evaluator. Each entry
// returns tuple<value, tuple<gradients...>>, printed flattened.
//
// RUN: raf-opt --relay-grad-pipeline %s -o %t.mlir
// RUN: raf-run %t.mlir --entry=e1_square --target=interp | FileCheck %s --check-prefix=E1
// RUN: raf-run %t.mlir --entry=e2_two_args --target=interp | FileCheck %s --check-prefix=E2
// RUN: raf-run %t.mlir --entry=e3_closure --target=interp | FileCheck %s --check-prefix=E3
// RUN: raf-run %t.mlir --entry=e3_twice --target=interp | FileCheck %s --check-prefix=TWICE
// RUN: raf-run %t.mlir --entry=e4_if --target=interp | FileCheck %s --check-prefix=E4
// RUN: raf-run %t.mlir --entry=e5_recursion --target=interp | FileCheck %s --check-prefix=E5
// RUN: raf-run %t.mlir --entry=local_closure --target=interp | FileCheck %s --check-prefix=LOCAL
// RUN: raf-run %t.mlir --entry=references --target=interp | FileCheck %s --check-prefix=REFS
// RUN: raf-run %t.mlir --entry=vector --target=interp | FileCheck %s --check-prefix=VECTOR
// RUN: raf-run %t.mlir --entry=captured_cell --target=interp | FileCheck %s --check-prefix=CELL

!grad1 = tuple<tensor<f32>, tuple<tensor<f32>>>
!grad2 = tuple<tensor<f32>, tuple<tensor<f32>, tensor<f32>>>

// #1: f(x) = x * x at 3 -> (9, (6)).
// E1:      result #0: tensor<f32>
// E1-NEXT: 9
// E1-NEXT: result #1: tensor<f32>
// E1-NEXT: 6
func.func @square(%x: tensor<f32>) -> tensor<f32> {
  %r = relay.multiply %x, %x : (tensor<f32>, tensor<f32>)
  return %r : tensor<f32>
}
func.func @e1_square() -> !grad1 {
  %x = relay.constant dense<3.0> : tensor<f32>
  %f = relay.global_ref @square : (tensor<f32>) -> tensor<f32>
  %g = relay.grad %f : (tensor<f32>) -> tensor<f32>
  %r = relay.call %g(%x) : (tensor<f32>) -> !grad1
  return %r : !grad1
}

// #2: f(x, y) = x * y + sq(x) at (2, 5) -> (14, (9, 2)); sq is a module
// function reached by func.call.
// E2:      result #0: tensor<f32>
// E2-NEXT: 14
// E2-NEXT: result #1: tensor<f32>
// E2-NEXT: 9
// E2-NEXT: result #2: tensor<f32>
// E2-NEXT: 2
func.func @two_args(%x: tensor<f32>, %y: tensor<f32>) -> tensor<f32> {
  %xy = relay.multiply %x, %y : (tensor<f32>, tensor<f32>)
  %s = func.call @square(%x) : (tensor<f32>) -> tensor<f32>
  %r = relay.add %xy, %s : (tensor<f32>, tensor<f32>)
  return %r : tensor<f32>
}
func.func @e2_two_args() -> !grad2 {
  %x = relay.constant dense<2.0> : tensor<f32>
  %y = relay.constant dense<5.0> : tensor<f32>
  %f = relay.global_ref @two_args : (tensor<f32>, tensor<f32>) -> tensor<f32>
  %g = relay.grad %f : (tensor<f32>, tensor<f32>) -> tensor<f32>
  %r = relay.call %g(%x, %y) : (tensor<f32>, tensor<f32>) -> !grad2
  return %r : !grad2
}

// #3: higher order, f(x) = let g = fn(y) { y * x } in g(x) + g(1.0) at 3:
// f = x^2 + x -> (12, (7)).
// E3:      result #0: tensor<f32>
// E3-NEXT: 12
// E3-NEXT: result #1: tensor<f32>
// E3-NEXT: 7
func.func @closure(%x: tensor<f32>) -> tensor<f32> {
  %g = relay.fn(%y: tensor<f32>) -> tensor<f32> {
    %m = relay.multiply %y, %x : (tensor<f32>, tensor<f32>)
    relay.return %m : tensor<f32>
  }
  %a = relay.call %g(%x) : (tensor<f32>) -> tensor<f32>
  %one = relay.constant dense<1.0> : tensor<f32>
  %b = relay.call %g(%one) : (tensor<f32>) -> tensor<f32>
  %r = relay.add %a, %b : (tensor<f32>, tensor<f32>)
  return %r : tensor<f32>
}
func.func @e3_closure() -> !grad1 {
  %x = relay.constant dense<3.0> : tensor<f32>
  %f = relay.global_ref @closure : (tensor<f32>) -> tensor<f32>
  %g = relay.grad %f : (tensor<f32>) -> tensor<f32>
  %r = relay.call %g(%x) : (tensor<f32>) -> !grad1
  return %r : !grad1
}

// A function applying a closure twice: f(x) = twice(h, x) with
// h = fn(y) { y * y * x }, so f(x) = h(h(x)) = (x^3)^2 * x = x^7 and
// f'(x) = 7 x^6. At x = 2: (128, (448)). The gradient flows through both
// calls of the function-typed parameter and through the captured x.
// TWICE:      result #0: tensor<f32>
// TWICE-NEXT: 128
// TWICE-NEXT: result #1: tensor<f32>
// TWICE-NEXT: 448
func.func @twice(%h: (tensor<f32>) -> tensor<f32>, %x: tensor<f32>) -> tensor<f32> {
  %a = relay.call %h(%x) : (tensor<f32>) -> tensor<f32>
  %b = relay.call %h(%a) : (tensor<f32>) -> tensor<f32>
  return %b : tensor<f32>
}
func.func @seventh(%x: tensor<f32>) -> tensor<f32> {
  %h = relay.fn(%y: tensor<f32>) -> tensor<f32> {
    %yy = relay.multiply %y, %y : (tensor<f32>, tensor<f32>)
    %m = relay.multiply %yy, %x : (tensor<f32>, tensor<f32>)
    relay.return %m : tensor<f32>
  }
  %r = func.call @twice(%h, %x) : ((tensor<f32>) -> tensor<f32>, tensor<f32>) -> tensor<f32>
  return %r : tensor<f32>
}
func.func @e3_twice() -> !grad1 {
  %x = relay.constant dense<2.0> : tensor<f32>
  %f = relay.global_ref @seventh : (tensor<f32>) -> tensor<f32>
  %g = relay.grad %f : (tensor<f32>) -> tensor<f32>
  %r = relay.call %g(%x) : (tensor<f32>) -> !grad1
  return %r : !grad1
}

// #4: control flow, f(x) = if x > 0 then x * x else -x: at -2 -> (2, (-1)),
// at 3 -> (9, (6)).
// E4:      result #0: tensor<f32>
// E4-NEXT: 2
// E4-NEXT: result #1: tensor<f32>
// E4-NEXT: -1
// E4-NEXT: result #2: tensor<f32>
// E4-NEXT: 9
// E4-NEXT: result #3: tensor<f32>
// E4-NEXT: 6
func.func @branch(%x: tensor<f32>) -> tensor<f32> {
  %zero = relay.constant dense<0.0> : tensor<f32>
  %positive = relay.greater %x, %zero : (tensor<f32>, tensor<f32>)
  %r = relay.if %positive : tensor<i1> -> (tensor<f32>) {
    %m = relay.multiply %x, %x : (tensor<f32>, tensor<f32>)
    relay.yield %m : tensor<f32>
  } else {
    %n = relay.negative %x : (tensor<f32>)
    relay.yield %n : tensor<f32>
  }
  return %r : tensor<f32>
}
func.func @e4_if() -> (!grad1, !grad1) {
  %a = relay.constant dense<-2.0> : tensor<f32>
  %b = relay.constant dense<3.0> : tensor<f32>
  %f = relay.global_ref @branch : (tensor<f32>) -> tensor<f32>
  %g = relay.grad %f : (tensor<f32>) -> tensor<f32>
  %ra = relay.call %g(%a) : (tensor<f32>) -> !grad1
  %rb = relay.call %g(%b) : (tensor<f32>) -> !grad1
  return %ra, %rb : !grad1, !grad1
}

// #5: recursion through relay.global_ref with an integer counter (not
// lifted): pow(x, n) = n == 0 ? 1 : x * pow(x, n - 1), f(x) = pow(x, 3) at 2
// -> (8, (12)).
// E5:      result #0: tensor<f32>
// E5-NEXT: 8
// E5-NEXT: result #1: tensor<f32>
// E5-NEXT: 12
func.func @pow(%x: tensor<f32>, %n: tensor<i32>) -> tensor<f32> {
  %zero = relay.constant dense<0> : tensor<i32>
  %done = relay.equal %n, %zero : (tensor<i32>, tensor<i32>)
  %r = relay.if %done : tensor<i1> -> (tensor<f32>) {
    %one = relay.constant dense<1.0> : tensor<f32>
    relay.yield %one : tensor<f32>
  } else {
    %onei = relay.constant dense<1> : tensor<i32>
    %m = relay.subtract %n, %onei : (tensor<i32>, tensor<i32>)
    %self = relay.global_ref @pow : (tensor<f32>, tensor<i32>) -> tensor<f32>
    %p = relay.call %self(%x, %m) : (tensor<f32>, tensor<i32>) -> tensor<f32>
    %q = relay.multiply %x, %p : (tensor<f32>, tensor<f32>)
    relay.yield %q : tensor<f32>
  }
  return %r : tensor<f32>
}
func.func @cube(%x: tensor<f32>) -> tensor<f32> {
  %three = relay.constant dense<3> : tensor<i32>
  %r = func.call @pow(%x, %three) : (tensor<f32>, tensor<i32>) -> tensor<f32>
  return %r : tensor<f32>
}
func.func @e5_recursion() -> !grad1 {
  %x = relay.constant dense<2.0> : tensor<f32>
  %f = relay.global_ref @cube : (tensor<f32>) -> tensor<f32>
  %g = relay.grad %f : (tensor<f32>) -> tensor<f32>
  %r = relay.call %g(%x) : (tensor<f32>) -> !grad1
  return %r : !grad1
}

// relay.grad of a local closure capturing %cc, a value computed at run time
// (0.5 * 0.5 * 2 = 0.5): lambda lifting differentiates the closure with
// respect to cc and y and drops cc's gradient. f(y) = y * y * cc at 3 ->
// (4.5, (3)).
// LOCAL:      result #0: tensor<f32>
// LOCAL-NEXT: 4.5
// LOCAL-NEXT: result #1: tensor<f32>
// LOCAL-NEXT: 3
func.func @local_closure() -> !grad1 {
  %c = relay.constant dense<0.5> : tensor<f32>
  %half = relay.multiply %c, %c : (tensor<f32>, tensor<f32>)
  %cc = relay.add %half, %half : (tensor<f32>, tensor<f32>)
  %f = relay.fn(%y: tensor<f32>) -> tensor<f32> {
    %yy = relay.multiply %y, %y : (tensor<f32>, tensor<f32>)
    %m = relay.multiply %yy, %cc : (tensor<f32>, tensor<f32>)
    relay.return %m : tensor<f32>
  }
  %g = relay.grad %f : (tensor<f32>) -> tensor<f32>
  %y = relay.constant dense<3.0> : tensor<f32>
  %r = relay.call %g(%y) : (tensor<f32>) -> !grad1
  return %r : !grad1
}

// References inside the differentiated function are lifted too (a cell of
// reals holds (value, adjoint) pairs): cell := x; cell := !cell * x;
// f(x) = !cell = x^2 at 1.5 -> (2.25, (3)).
// REFS:      result #0: tensor<f32>
// REFS-NEXT: 2.25
// REFS-NEXT: result #1: tensor<f32>
// REFS-NEXT: 3
func.func @through_cell(%x: tensor<f32>) -> tensor<f32> {
  %cell = relay.ref_new %x : tensor<f32>
  %v = relay.ref_read %cell : !relay.ref<tensor<f32>>
  %w = relay.multiply %v, %x : (tensor<f32>, tensor<f32>)
  relay.ref_write %cell, %w : !relay.ref<tensor<f32>>
  %r = relay.ref_read %cell : !relay.ref<tensor<f32>>
  return %r : tensor<f32>
}
func.func @references() -> !grad1 {
  %x = relay.constant dense<1.5> : tensor<f32>
  %f = relay.global_ref @through_cell : (tensor<f32>) -> tensor<f32>
  %g = relay.grad %f : (tensor<f32>) -> tensor<f32>
  %r = relay.call %g(%x) : (tensor<f32>) -> !grad1
  return %r : !grad1
}

// A tensor-valued result is seeded with ones, i.e. the gradient of the sum
// of its elements: f(v) = v * v (through a tuple) at [1.5, -2, 0.25] ->
// ([2.25, 4, 0.0625], ([3, -4, 0.5])).
// VECTOR:      result #0: tensor<3xf32>
// VECTOR-NEXT: [2.25, 4, 0.0625]
// VECTOR-NEXT: result #1: tensor<3xf32>
// VECTOR-NEXT: [3, -4, 0.5]
func.func @elementwise(%v: tensor<3xf32>) -> tensor<3xf32> {
  %pair = relay.tuple(%v, %v) : tensor<3xf32>, tensor<3xf32>
  %a = relay.tuple_get %pair[0] : tuple<tensor<3xf32>, tensor<3xf32>>
  %b = relay.tuple_get %pair[1] : tuple<tensor<3xf32>, tensor<3xf32>>
  %r = relay.multiply %a, %b : (tensor<3xf32>, tensor<3xf32>)
  return %r : tensor<3xf32>
}
func.func @vector() -> tuple<tensor<3xf32>, tuple<tensor<3xf32>>> {
  %v = relay.constant dense<[1.5, -2.0, 0.25]> : tensor<3xf32>
  %f = relay.global_ref @elementwise : (tensor<3xf32>) -> tensor<3xf32>
  %g = relay.grad %f : (tensor<3xf32>) -> tensor<3xf32>
  %r = relay.call %g(%v) : (tensor<3xf32>) -> tuple<tensor<3xf32>, tuple<tensor<3xf32>>>
  return %r : tuple<tensor<3xf32>, tuple<tensor<3xf32>>>
}

// A closure capturing a reference cell, a tuple argument mixing a real and
// an integer, and a tuple-typed zero: cell := x; bump(x); bump(x) gives x^3,
// then pairsum((x^3, 3)) = 3 x^3 (+ 0). At 2 -> (24, (36)).
// CELL:      result #0: tensor<f32>
// CELL-NEXT: 24
// CELL-NEXT: result #1: tensor<f32>
// CELL-NEXT: 36
func.func @pairsum(%p: tuple<tensor<f32>, tensor<i32>>) -> tensor<f32> {
  %a = relay.tuple_get %p[0] : tuple<tensor<f32>, tensor<i32>>
  %n = relay.tuple_get %p[1] : tuple<tensor<f32>, tensor<i32>>
  %c = relay.cast %n {dtype = f32} : (tensor<i32>)
  %r = relay.multiply %a, %c : (tensor<f32>, tensor<f32>)
  return %r : tensor<f32>
}
func.func @bumped(%x: tensor<f32>) -> tensor<f32> {
  %cell = relay.ref_new %x : tensor<f32>
  %bump = relay.fn(%y: tensor<f32>) -> () {
    %v = relay.ref_read %cell : !relay.ref<tensor<f32>>
    %w = relay.multiply %v, %y : (tensor<f32>, tensor<f32>)
    relay.ref_write %cell, %w : !relay.ref<tensor<f32>>
    relay.return
  }
  relay.call %bump(%x) : (tensor<f32>) -> ()
  relay.call %bump(%x) : (tensor<f32>) -> ()
  %z = relay.zero : tuple<tensor<f32>, tensor<i32>>
  %zf = relay.tuple_get %z[0] : tuple<tensor<f32>, tensor<i32>>
  %three = relay.constant dense<3> : tensor<i32>
  %cube = relay.ref_read %cell : !relay.ref<tensor<f32>>
  %p = relay.tuple(%cube, %three) : tensor<f32>, tensor<i32>
  %s = func.call @pairsum(%p) : (tuple<tensor<f32>, tensor<i32>>) -> tensor<f32>
  %r = relay.add %s, %zf : (tensor<f32>, tensor<f32>)
  return %r : tensor<f32>
}
func.func @captured_cell() -> !grad1 {
  %x = relay.constant dense<2.0> : tensor<f32>
  %f = relay.global_ref @bumped : (tensor<f32>) -> tensor<f32>
  %g = relay.grad %f : (tensor<f32>) -> tensor<f32>
  %r = relay.call %g(%x) : (tensor<f32>) -> !grad1
  return %r : !grad1
}
