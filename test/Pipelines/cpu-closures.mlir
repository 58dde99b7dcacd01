// Closures on --target=cpu: the CPU pipeline lambda-lifts and
// defunctionalises them (--relay-lambda-lift, --relay-defunctionalize), so
// every program below prints the same results on both targets (expected
// values computed with numpy).
// RUN: rm -rf %t && mkdir -p %t
// RUN: %python -c "import numpy as np; np.save('%t/x.npy', np.array([1, 2, -3, 4], np.float32)); np.save('%t/k.npy', np.array([0.5, -1, 2, 0.25], np.float32)); np.save('%t/t.npy', np.bool_(True)); np.save('%t/f.npy', np.bool_(False)); np.save('%t/n.npy', np.int32(5)); np.save('%t/i0.npy', np.int32(0)); np.save('%t/i1.npy', np.int32(1)); np.save('%t/i2.npy', np.int32(2)); np.save('%t/n100k.npy', np.int32(100000))"
//
// (a) a local closure capturing a tensor.
// RUN: raf-run %s --entry=local --target=cpu --input=%t/x.npy --input=%t/k.npy | FileCheck %s --check-prefix=LOCAL
// RUN: raf-run %s --entry=local --target=interp --input=%t/x.npy --input=%t/k.npy | FileCheck %s --check-prefix=LOCAL
// LOCAL:      result #0: tensor<4xf32>
// LOCAL-NEXT: [0.25, 2, -12, 0.25]
//
// (b) a function passed to a higher-order function (apply twice).
// RUN: raf-run %s --entry=map_twice --target=cpu --input=%t/x.npy --input=%t/k.npy | FileCheck %s --check-prefix=TWICE
// RUN: raf-run %s --entry=map_twice --target=interp --input=%t/x.npy --input=%t/k.npy | FileCheck %s --check-prefix=TWICE
// TWICE:      result #0: tensor<4xf32>
// TWICE-NEXT: [4, 0, 1, 20.25]
//
// (c) closures returned by a function and called later.
// RUN: raf-run %s --entry=returned --target=cpu --input=%t/x.npy --input=%t/k.npy | FileCheck %s --check-prefix=RETURNED
// RUN: raf-run %s --entry=returned --target=interp --input=%t/x.npy --input=%t/k.npy | FileCheck %s --check-prefix=RETURNED
// RETURNED:      result #0: tensor<4xf32>
// RETURNED-NEXT: [2, -2, -3, 2.25]
//
// (d) relay.if chooses between closures of two functions (a tagged union),
// on both branches.
// RUN: raf-run %s --entry=choose --target=cpu --input=%t/x.npy --input=%t/k.npy --input=%t/t.npy | FileCheck %s --check-prefix=CHOOSE-T
// RUN: raf-run %s --entry=choose --target=interp --input=%t/x.npy --input=%t/k.npy --input=%t/t.npy | FileCheck %s --check-prefix=CHOOSE-T
// CHOOSE-T:      result #0: tensor<4xf32>
// CHOOSE-T-NEXT: [0.5, -2, -6, 1]
// RUN: raf-run %s --entry=choose --target=cpu --input=%t/x.npy --input=%t/k.npy --input=%t/f.npy | FileCheck %s --check-prefix=CHOOSE-F
// RUN: raf-run %s --entry=choose --target=interp --input=%t/x.npy --input=%t/k.npy --input=%t/f.npy | FileCheck %s --check-prefix=CHOOSE-F
// CHOOSE-F:      result #0: tensor<4xf32>
// CHOOSE-F-NEXT: [1.5, 1, -1, 4.25]
//
// Three closures through nested relay.if (the inner union is re-tagged).
// RUN: raf-run %s --entry=choose3 --target=cpu --input=%t/x.npy --input=%t/i0.npy | FileCheck %s --check-prefix=CHOOSE0
// RUN: raf-run %s --entry=choose3 --target=interp --input=%t/x.npy --input=%t/i0.npy | FileCheck %s --check-prefix=CHOOSE0
// CHOOSE0: [2, 4, -6, 8]
// RUN: raf-run %s --entry=choose3 --target=cpu --input=%t/x.npy --input=%t/i1.npy | FileCheck %s --check-prefix=CHOOSE1
// RUN: raf-run %s --entry=choose3 --target=interp --input=%t/x.npy --input=%t/i1.npy | FileCheck %s --check-prefix=CHOOSE1
// CHOOSE1: [-1, -2, 3, -4]
// RUN: raf-run %s --entry=choose3 --target=cpu --input=%t/x.npy --input=%t/i2.npy | FileCheck %s --check-prefix=CHOOSE2
// RUN: raf-run %s --entry=choose3 --target=interp --input=%t/x.npy --input=%t/i2.npy | FileCheck %s --check-prefix=CHOOSE2
// CHOOSE2: [4, 5, 0, 7]
//
// (e) a recursive countdown loop accumulating a tensor, stepping with a
// closure passed along every iteration.
// RUN: raf-run %s --entry=loop --target=cpu --input=%t/x.npy --input=%t/k.npy --input=%t/n.npy | FileCheck %s --check-prefix=LOOP
// RUN: raf-run %s --entry=loop --target=interp --input=%t/x.npy --input=%t/k.npy --input=%t/n.npy | FileCheck %s --check-prefix=LOOP
// LOOP:      result #0: tensor<4xf32>
// LOOP-NEXT: [2.25, -0.5, 2, 4.625]
// The loop's tail recursion is an scf.while on the CPU
// (--relay-tail-recursion-to-loops), so 100000 iterations need no stack
// (the evaluator stops at 1000 nested calls); x + 50000 k, from numpy.
// RUN: raf-run %s --entry=loop --target=cpu --input=%t/x.npy --input=%t/k.npy --input=%t/n100k.npy | FileCheck %s --check-prefix=DEEP
// DEEP:      result #0: tensor<4xf32>
// DEEP-NEXT: [25001, -49998, 99997, 12504]
//
// Closures in a tuple.
// RUN: raf-run %s --entry=pair --target=cpu --input=%t/x.npy --input=%t/k.npy | FileCheck %s --check-prefix=PAIR
// RUN: raf-run %s --entry=pair --target=interp --input=%t/x.npy --input=%t/k.npy | FileCheck %s --check-prefix=PAIR
// PAIR:      result #0: tensor<4xf32>
// PAIR-NEXT: [1.25, -1, 4, 14.0625]

// Unions of closures returned by a function, captured by another closure,
// merged with it by relay.if (re-tagged) and carried in a tuple.
// RUN: raf-run %s --entry=union_flow --target=cpu --input=%t/x.npy --input=%t/k.npy --input=%t/t.npy --input=%t/f.npy | FileCheck %s --check-prefix=FLOW-TF
// RUN: raf-run %s --entry=union_flow --target=interp --input=%t/x.npy --input=%t/k.npy --input=%t/t.npy --input=%t/f.npy | FileCheck %s --check-prefix=FLOW-TF
// FLOW-TF:      result #0: tensor<4xf32>
// FLOW-TF-NEXT: [-0.5, 2, 6, -1]
// FLOW-TF-NEXT: result #1: tensor<4xf32>
// FLOW-TF-NEXT: [-0.25, -1, -4, -0.0625]
// RUN: raf-run %s --entry=union_flow --target=cpu --input=%t/x.npy --input=%t/k.npy --input=%t/f.npy --input=%t/t.npy | FileCheck %s --check-prefix=FLOW-FT
// RUN: raf-run %s --entry=union_flow --target=interp --input=%t/x.npy --input=%t/k.npy --input=%t/f.npy --input=%t/t.npy | FileCheck %s --check-prefix=FLOW-FT
// FLOW-FT:      result #0: tensor<4xf32>
// FLOW-FT-NEXT: [1.5, 1, -1, 4.25]
// FLOW-FT-NEXT: result #1: tensor<4xf32>
// FLOW-FT-NEXT: [1.5, 1, -1, 4.25]

// (a) scale(scale(x)) with scale = fn(y) { y * k }: x * k * k.
func.func @local(%x: tensor<4xf32>, %k: tensor<4xf32>) -> tensor<4xf32> {
  %scale = relay.fn(%y: tensor<4xf32>) -> tensor<4xf32> {
    %m = relay.multiply %y, %k : (tensor<4xf32>, tensor<4xf32>)
    relay.return %m : tensor<4xf32>
  }
  %a = relay.call %scale(%x) : (tensor<4xf32>) -> tensor<4xf32>
  %b = relay.call %scale(%a) : (tensor<4xf32>) -> tensor<4xf32>
  return %b : tensor<4xf32>
}

// (b) twice(f, x) = f(f(x)), with a capturing closure, a closed closure and
// a module function: square(twice(neg, twice(+k, x))) twice, i.e.
// ((x + 2k)^2)^2.
func.func @twice(%f: (tensor<4xf32>) -> tensor<4xf32>, %x: tensor<4xf32>) -> tensor<4xf32> {
  %a = relay.call %f(%x) : (tensor<4xf32>) -> tensor<4xf32>
  %b = relay.call %f(%a) : (tensor<4xf32>) -> tensor<4xf32>
  return %b : tensor<4xf32>
}
func.func @square(%y: tensor<4xf32>) -> tensor<4xf32> {
  %m = relay.multiply %y, %y : (tensor<4xf32>, tensor<4xf32>)
  return %m : tensor<4xf32>
}
func.func @map_twice(%x: tensor<4xf32>, %k: tensor<4xf32>) -> tensor<4xf32> {
  %shift = relay.fn(%y: tensor<4xf32>) -> tensor<4xf32> {
    %s = relay.add %y, %k : (tensor<4xf32>, tensor<4xf32>)
    relay.return %s : tensor<4xf32>
  }
  %neg = relay.fn(%y: tensor<4xf32>) -> tensor<4xf32> {
    %n = relay.negative %y : (tensor<4xf32>)
    relay.return %n : tensor<4xf32>
  }
  %a = func.call @twice(%shift, %x) : ((tensor<4xf32>) -> tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  %b = func.call @twice(%neg, %a) : ((tensor<4xf32>) -> tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  %sq = relay.global_ref @square : (tensor<4xf32>) -> tensor<4xf32>
  %c = func.call @twice(%sq, %b) : ((tensor<4xf32>) -> tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  %r = relay.sqrt %c : (tensor<4xf32>)
  return %r : tensor<4xf32>
}

// (c) make_affine(w, b) = fn(y) { y * w + b }; g(f(x)) with f = affine(k,
// 1) and g = affine(1, k): x * k + 1 + k.
func.func private @make_affine(%w: tensor<4xf32>, %b: tensor<4xf32>) -> ((tensor<4xf32>) -> tensor<4xf32>) {
  %f = relay.fn(%y: tensor<4xf32>) -> tensor<4xf32> {
    %m = relay.multiply %y, %w : (tensor<4xf32>, tensor<4xf32>)
    %s = relay.add %m, %b : (tensor<4xf32>, tensor<4xf32>)
    relay.return %s : tensor<4xf32>
  }
  return %f : (tensor<4xf32>) -> tensor<4xf32>
}
func.func @returned(%x: tensor<4xf32>, %k: tensor<4xf32>) -> tensor<4xf32> {
  %one = relay.constant dense<1.0> : tensor<4xf32>
  %f = func.call @make_affine(%k, %one) : (tensor<4xf32>, tensor<4xf32>) -> ((tensor<4xf32>) -> tensor<4xf32>)
  %g = func.call @make_affine(%one, %k) : (tensor<4xf32>, tensor<4xf32>) -> ((tensor<4xf32>) -> tensor<4xf32>)
  %a = relay.call %f(%x) : (tensor<4xf32>) -> tensor<4xf32>
  %b = relay.call %g(%a) : (tensor<4xf32>) -> tensor<4xf32>
  return %b : tensor<4xf32>
}

// (d) c ? fn(y) { y * k } : fn(y) { y + k }, then called on x.
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

// i == 0 ? double : (i == 1 ? negate : plus 3), then called on x.
func.func @choose3(%x: tensor<4xf32>, %i: tensor<i32>) -> tensor<4xf32> {
  %zero = relay.constant dense<0> : tensor<i32>
  %one = relay.constant dense<1> : tensor<i32>
  %is0 = relay.equal %i, %zero : (tensor<i32>, tensor<i32>)
  %f = relay.if %is0 : tensor<i1> -> ((tensor<4xf32>) -> tensor<4xf32>) {
    %double = relay.fn(%y: tensor<4xf32>) -> tensor<4xf32> {
      %d = relay.add %y, %y : (tensor<4xf32>, tensor<4xf32>)
      relay.return %d : tensor<4xf32>
    }
    relay.yield %double : (tensor<4xf32>) -> tensor<4xf32>
  } else {
    %is1 = relay.equal %i, %one : (tensor<i32>, tensor<i32>)
    %g = relay.if %is1 : tensor<i1> -> ((tensor<4xf32>) -> tensor<4xf32>) {
      %negate = relay.fn(%y: tensor<4xf32>) -> tensor<4xf32> {
        %n = relay.negative %y : (tensor<4xf32>)
        relay.return %n : tensor<4xf32>
      }
      relay.yield %negate : (tensor<4xf32>) -> tensor<4xf32>
    } else {
      %three = relay.constant dense<3.0> : tensor<4xf32>
      %plus = relay.fn(%y: tensor<4xf32>) -> tensor<4xf32> {
        %s = relay.add %y, %three : (tensor<4xf32>, tensor<4xf32>)
        relay.return %s : tensor<4xf32>
      }
      relay.yield %plus : (tensor<4xf32>) -> tensor<4xf32>
    }
    relay.yield %g : (tensor<4xf32>) -> tensor<4xf32>
  }
  %r = relay.call %f(%x) : (tensor<4xf32>) -> tensor<4xf32>
  return %r : tensor<4xf32>
}

// (e) countdown(n, acc, step) = n <= 0 ? acc : countdown(n - 1, step(acc),
// step), recursing through its own function value (Relay's loop form);
// step(a) = a + k / 2, five times: x + 2.5 k.
func.func @countdown(%n: tensor<i32>, %acc: tensor<4xf32>, %step: (tensor<4xf32>) -> tensor<4xf32>) -> tensor<4xf32> {
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
  %half = relay.constant dense<0.5> : tensor<4xf32>
  %step = relay.fn(%a: tensor<4xf32>) -> tensor<4xf32> {
    %h = relay.multiply %k, %half : (tensor<4xf32>, tensor<4xf32>)
    %s = relay.add %a, %h : (tensor<4xf32>, tensor<4xf32>)
    relay.return %s : tensor<4xf32>
  }
  %r = func.call @countdown(%n, %x, %step) : (tensor<i32>, tensor<4xf32>, (tensor<4xf32>) -> tensor<4xf32>) -> tensor<4xf32>
  return %r : tensor<4xf32>
}

// A tuple of two closures, first(y) = y + k and second = @square, taken
// apart and called: (x + k)^2 - x.
func.func @pair(%x: tensor<4xf32>, %k: tensor<4xf32>) -> tensor<4xf32> {
  %first = relay.fn(%y: tensor<4xf32>) -> tensor<4xf32> {
    %s = relay.add %y, %k : (tensor<4xf32>, tensor<4xf32>)
    relay.return %s : tensor<4xf32>
  }
  %second = relay.global_ref @square : (tensor<4xf32>) -> tensor<4xf32>
  %t = relay.tuple(%first, %second) : (tensor<4xf32>) -> tensor<4xf32>, (tensor<4xf32>) -> tensor<4xf32>
  %f = relay.tuple_get %t[0] : tuple<(tensor<4xf32>) -> tensor<4xf32>, (tensor<4xf32>) -> tensor<4xf32>>
  %g = relay.tuple_get %t[1] : tuple<(tensor<4xf32>) -> tensor<4xf32>, (tensor<4xf32>) -> tensor<4xf32>>
  %a = relay.call %f(%x) : (tensor<4xf32>) -> tensor<4xf32>
  %b = relay.call %g(%a) : (tensor<4xf32>) -> tensor<4xf32>
  %r = relay.subtract %b, %x : (tensor<4xf32>, tensor<4xf32>)
  return %r : tensor<4xf32>
}

// pick(c) = c ? fn(y) { y * k } : fn(y) { y + k }; wrap = fn(y) { -f(y) };
// g = d ? f : wrap; (h, v) = d ? (g, x) : (wrap, k); returns g(x), h(v).
func.func private @pick(%c: tensor<i1>, %k: tensor<4xf32>) -> ((tensor<4xf32>) -> tensor<4xf32>) {
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
  return %f : (tensor<4xf32>) -> tensor<4xf32>
}
func.func @union_flow(%x: tensor<4xf32>, %k: tensor<4xf32>, %c: tensor<i1>, %d: tensor<i1>) -> (tensor<4xf32>, tensor<4xf32>) {
  %f = func.call @pick(%c, %k) : (tensor<i1>, tensor<4xf32>) -> ((tensor<4xf32>) -> tensor<4xf32>)
  %wrap = relay.fn(%y: tensor<4xf32>) -> tensor<4xf32> {
    %a = relay.call %f(%y) : (tensor<4xf32>) -> tensor<4xf32>
    %n = relay.negative %a : (tensor<4xf32>)
    relay.return %n : tensor<4xf32>
  }
  %g = relay.if %d : tensor<i1> -> ((tensor<4xf32>) -> tensor<4xf32>) {
    relay.yield %f : (tensor<4xf32>) -> tensor<4xf32>
  } else {
    relay.yield %wrap : (tensor<4xf32>) -> tensor<4xf32>
  }
  %t = relay.if %d : tensor<i1> -> (tuple<(tensor<4xf32>) -> tensor<4xf32>, tensor<4xf32>>) {
    %p = relay.tuple(%g, %x) : (tensor<4xf32>) -> tensor<4xf32>, tensor<4xf32>
    relay.yield %p : tuple<(tensor<4xf32>) -> tensor<4xf32>, tensor<4xf32>>
  } else {
    %p = relay.tuple(%wrap, %k) : (tensor<4xf32>) -> tensor<4xf32>, tensor<4xf32>
    relay.yield %p : tuple<(tensor<4xf32>) -> tensor<4xf32>, tensor<4xf32>>
  }
  %h = relay.tuple_get %t[0] : tuple<(tensor<4xf32>) -> tensor<4xf32>, tensor<4xf32>>
  %v = relay.tuple_get %t[1] : tuple<(tensor<4xf32>) -> tensor<4xf32>, tensor<4xf32>>
  %r0 = relay.call %g(%x) : (tensor<4xf32>) -> tensor<4xf32>
  %r1 = relay.call %h(%v) : (tensor<4xf32>) -> tensor<4xf32>
  return %r0, %r1 : tensor<4xf32>, tensor<4xf32>
}
