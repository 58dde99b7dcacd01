// Tuples on --target=cpu: the CPU pipeline passes them as their elements
// across functions, calls and relay.if (--raf-flatten-tuples), and an entry
// point returning a tuple returns its elements depth first, as
// --target=interp prints and saves them. Each program's outputs on both
// targets are compared, and checked against numpy.
// RUN: rm -rf %t && mkdir -p %t
// RUN: %python -c "import numpy as np; np.save('%t/x.npy', np.array([1, 2, -3, 0.5], np.float32)); np.save('%t/t.npy', np.bool_(True)); np.save('%t/f.npy', np.bool_(False))"
//
// (a) a private function returning a pair that @pair takes apart.
// RUN: raf-run %s --entry=pair --target=cpu --input=%t/x.npy --output=%t/pair.cpu.npy
// RUN: raf-run %s --entry=pair --target=interp --input=%t/x.npy --output=%t/pair.ref.npy
// (b) nested tuples through a function's argument and result; the entry
// returns a nested tuple and a tensor (four files, depth first).
// RUN: raf-run %s --entry=nested --target=cpu --input=%t/x.npy --output=%t/n0.cpu.npy --output=%t/n1.cpu.npy --output=%t/n2.cpu.npy --output=%t/n3.cpu.npy
// RUN: raf-run %s --entry=nested --target=interp --input=%t/x.npy --output=%t/n0.ref.npy --output=%t/n1.ref.npy --output=%t/n2.ref.npy --output=%t/n3.ref.npy
// (c) relay.if returning a tuple, on both branches.
// RUN: raf-run %s --entry=choose --target=cpu --input=%t/x.npy --input=%t/t.npy --output=%t/ct0.cpu.npy --output=%t/ct1.cpu.npy
// RUN: raf-run %s --entry=choose --target=interp --input=%t/x.npy --input=%t/t.npy --output=%t/ct0.ref.npy --output=%t/ct1.ref.npy
// RUN: raf-run %s --entry=choose --target=cpu --input=%t/x.npy --input=%t/f.npy --output=%t/cf0.cpu.npy --output=%t/cf1.cpu.npy
// RUN: raf-run %s --entry=choose --target=interp --input=%t/x.npy --input=%t/f.npy --output=%t/cf0.ref.npy --output=%t/cf1.ref.npy
// RUN: %python %S/Inputs/check-cpu-tuples.py %t | FileCheck %s --check-prefix=NUMERICS
// NUMERICS: match
//
// Printed results: one per leaf, numbered in order.
// RUN: raf-run %s --entry=nested --target=cpu --input=%t/x.npy | FileCheck %s --check-prefix=PRINT
// PRINT:      result #0: tensor<f32>
// PRINT-NEXT: 2
// PRINT:      result #1: tensor<4xf32>
// PRINT-NEXT: [1, 4, 9, 0.25]
// PRINT:      result #2: tensor<4xi32>
// PRINT-NEXT: [1, 2, -3, 0]
// PRINT:      result #3: tensor<4xi32>
// PRINT-NEXT: [1, 2, -3, 0]

func.func private @both(%x: tensor<4xf32>) -> tuple<tensor<4xf32>, tensor<4xf32>> {
  %e = relay.exp %x : (tensor<4xf32>)
  %n = relay.negative %x : (tensor<4xf32>)
  %t = relay.tuple(%e, %n) : tensor<4xf32>, tensor<4xf32>
  return %t : tuple<tensor<4xf32>, tensor<4xf32>>
}

// exp(x) - x
func.func @pair(%x: tensor<4xf32>) -> tensor<4xf32> {
  %t = call @both(%x) : (tensor<4xf32>) -> tuple<tensor<4xf32>, tensor<4xf32>>
  %a = relay.tuple_get %t[0] : tuple<tensor<4xf32>, tensor<4xf32>>
  %b = relay.tuple_get %t[1] : tuple<tensor<4xf32>, tensor<4xf32>>
  %s = relay.add %a, %b : (tensor<4xf32>, tensor<4xf32>)
  return %s : tensor<4xf32>
}

// ((x * x, cast(x)), max(x)) -> (max(x), (x * x, cast(x)))
func.func private @swap(%p: tuple<tuple<tensor<4xf32>, tensor<4xi32>>, tensor<f32>>)
    -> tuple<tensor<f32>, tuple<tensor<4xf32>, tensor<4xi32>>> {
  %inner = relay.tuple_get %p[0] : tuple<tuple<tensor<4xf32>, tensor<4xi32>>, tensor<f32>>
  %m = relay.tuple_get %p[1] : tuple<tuple<tensor<4xf32>, tensor<4xi32>>, tensor<f32>>
  %r = relay.tuple(%m, %inner) : tensor<f32>, tuple<tensor<4xf32>, tensor<4xi32>>
  return %r : tuple<tensor<f32>, tuple<tensor<4xf32>, tensor<4xi32>>>
}

func.func @nested(%x: tensor<4xf32>)
    -> (tuple<tensor<f32>, tuple<tensor<4xf32>, tensor<4xi32>>>, tensor<4xi32>) {
  %sq = relay.multiply %x, %x : (tensor<4xf32>, tensor<4xf32>)
  %i = relay.cast %x {dtype = i32} : (tensor<4xf32>)
  %m = relay.max %x : (tensor<4xf32>)
  %inner = relay.tuple(%sq, %i) : tensor<4xf32>, tensor<4xi32>
  %p = relay.tuple(%inner, %m) : tuple<tensor<4xf32>, tensor<4xi32>>, tensor<f32>
  %r = call @swap(%p) : (tuple<tuple<tensor<4xf32>, tensor<4xi32>>, tensor<f32>>) -> tuple<tensor<f32>, tuple<tensor<4xf32>, tensor<4xi32>>>
  %g = relay.tuple_get %r[1] : tuple<tensor<f32>, tuple<tensor<4xf32>, tensor<4xi32>>>
  %j = relay.tuple_get %g[1] : tuple<tensor<4xf32>, tensor<4xi32>>
  return %r, %j : tuple<tensor<f32>, tuple<tensor<4xf32>, tensor<4xi32>>>, tensor<4xi32>
}

// c ? (exp(x), sum(exp(x))) : zeros; the caller gets (2 * first, second).
func.func private @branch(%x: tensor<4xf32>, %c: tensor<i1>) -> tuple<tensor<4xf32>, tensor<f32>> {
  %z = relay.zero : tuple<tensor<4xf32>, tensor<f32>>
  %r = relay.if %c : tensor<i1> -> (tuple<tensor<4xf32>, tensor<f32>>) {
    %e = relay.exp %x : (tensor<4xf32>)
    %s = relay.sum %e : (tensor<4xf32>)
    %t = relay.tuple(%e, %s) : tensor<4xf32>, tensor<f32>
    relay.yield %t : tuple<tensor<4xf32>, tensor<f32>>
  } else {
    relay.yield %z : tuple<tensor<4xf32>, tensor<f32>>
  }
  return %r : tuple<tensor<4xf32>, tensor<f32>>
}

func.func @choose(%x: tensor<4xf32>, %c: tensor<i1>) -> tuple<tensor<4xf32>, tensor<f32>> {
  %r = call @branch(%x, %c) : (tensor<4xf32>, tensor<i1>) -> tuple<tensor<4xf32>, tensor<f32>>
  %a = relay.tuple_get %r[0] : tuple<tensor<4xf32>, tensor<f32>>
  %b = relay.tuple_get %r[1] : tuple<tensor<4xf32>, tensor<f32>>
  %d = relay.add %a, %a : (tensor<4xf32>, tensor<4xf32>)
  %t = relay.tuple(%d, %b) : tensor<4xf32>, tensor<f32>
  return %t : tuple<tensor<4xf32>, tensor<f32>>
}
