// RUN: raf-opt %s --canonicalize --split-input-file | FileCheck %s

// Folds of the relay dialect.

// transpose(transpose(x, p), q) composes into one transpose with p o q.
// x: 2x3x4 -[1,0,2]-> 3x2x4 -[0,2,1]-> 3x4x2 = x permuted by [1,2,0].
// CHECK-LABEL: func.func @transpose_compose
// CHECK-SAME: (%[[X:.*]]: tensor<2x3x4xf32>)
// CHECK-NEXT: %[[T:.*]] = relay.transpose %[[X]] {axes = array<i64: 1, 2, 0>} : (tensor<2x3x4xf32>) -> tensor<3x4x2xf32>
// CHECK-NEXT: return %[[T]]
func.func @transpose_compose(%x: tensor<2x3x4xf32>) -> tensor<3x4x2xf32> {
  %0 = relay.transpose %x {axes = array<i64: 1, 0, 2>} : (tensor<2x3x4xf32>)
  %1 = relay.transpose %0 {axes = array<i64: 0, 2, 1>} : (tensor<3x2x4xf32>)
  return %1 : tensor<3x4x2xf32>
}

// -----

// Two default (reversing) transposes cancel.
// CHECK-LABEL: func.func @transpose_cancel_default
// CHECK-SAME: (%[[X:.*]]: tensor<2x3x4xf32>)
// CHECK-NEXT: return %[[X]]
func.func @transpose_cancel_default(%x: tensor<2x3x4xf32>) -> tensor<2x3x4xf32> {
  %0 = relay.transpose %x : (tensor<2x3x4xf32>)
  %1 = relay.transpose %0 : (tensor<4x3x2xf32>)
  return %1 : tensor<2x3x4xf32>
}

// -----

// A permutation and its inverse cancel.
// CHECK-LABEL: func.func @transpose_cancel_inverse
// CHECK-SAME: (%[[X:.*]]: tensor<2x3x4xf32>)
// CHECK-NEXT: return %[[X]]
func.func @transpose_cancel_inverse(%x: tensor<2x3x4xf32>) -> tensor<2x3x4xf32> {
  %0 = relay.transpose %x {axes = array<i64: 1, 2, 0>} : (tensor<2x3x4xf32>)
  %1 = relay.transpose %0 {axes = array<i64: 2, 0, 1>} : (tensor<3x4x2xf32>)
  return %1 : tensor<2x3x4xf32>
}

// -----

// The composed transpose keeps the inner one alive while it has other uses.
// CHECK-LABEL: func.func @transpose_compose_shared
// CHECK-SAME: (%[[X:.*]]: tensor<2x3xf32>)
// CHECK-NEXT: %[[T:.*]] = relay.transpose %[[X]] : (tensor<2x3xf32>) -> tensor<3x2xf32>
// CHECK-NEXT: return %[[X]], %[[T]]
func.func @transpose_compose_shared(%x: tensor<2x3xf32>) -> (tensor<2x3xf32>, tensor<3x2xf32>) {
  %0 = relay.transpose %x : (tensor<2x3xf32>)
  %1 = relay.transpose %0 : (tensor<3x2xf32>)
  return %1, %0 : tensor<2x3xf32>, tensor<3x2xf32>
}

// -----

// Identity permutations fold away (also spelt with negative axes).
// CHECK-LABEL: func.func @transpose_identity
// CHECK-SAME: (%[[X:.*]]: tensor<2x3xf32>, %[[S:.*]]: tensor<5xf32>)
// CHECK-NEXT: return %[[X]], %[[X]], %[[S]]
func.func @transpose_identity(%x: tensor<2x3xf32>, %s: tensor<5xf32>) -> (tensor<2x3xf32>, tensor<2x3xf32>, tensor<5xf32>) {
  %0 = relay.transpose %x {axes = array<i64: 0, 1>} : (tensor<2x3xf32>)
  %1 = relay.transpose %x {axes = array<i64: -2, -1>} : (tensor<2x3xf32>)
  %2 = relay.transpose %s : (tensor<5xf32>)
  return %0, %1, %2 : tensor<2x3xf32>, tensor<2x3xf32>, tensor<5xf32>
}

// -----

// reshape(reshape(x)) is one reshape to the final shape, spelt out (the 0 and
// -1 of the inner newshape referred to the old input).
// CHECK-LABEL: func.func @reshape_reshape
// CHECK-SAME: (%[[X:.*]]: tensor<2x3x4xf32>)
// CHECK-NEXT: %[[R:.*]] = relay.reshape %[[X]] {newshape = array<i64: 4, 6>} : (tensor<2x3x4xf32>) -> tensor<4x6xf32>
// CHECK-NEXT: return %[[R]]
func.func @reshape_reshape(%x: tensor<2x3x4xf32>) -> tensor<4x6xf32> {
  %0 = relay.reshape %x {newshape = array<i64: 0, -1>} : (tensor<2x3x4xf32>)
  %1 = relay.reshape %0 {newshape = array<i64: 4, -1>} : (tensor<2x12xf32>)
  return %1 : tensor<4x6xf32>
}

// -----

// A reshape chain back to the input type disappears entirely.
// CHECK-LABEL: func.func @reshape_roundtrip
// CHECK-SAME: (%[[X:.*]]: tensor<2x3xf32>)
// CHECK-NEXT: return %[[X]]
func.func @reshape_roundtrip(%x: tensor<2x3xf32>) -> tensor<2x3xf32> {
  %0 = relay.reshape %x {newshape = array<i64: 6>} : (tensor<2x3xf32>)
  %1 = relay.reshape %0 {newshape = array<i64: 2, 3>} : (tensor<6xf32>)
  return %1 : tensor<2x3xf32>
}

// -----

// Reshape to the same type is the identity.
// CHECK-LABEL: func.func @reshape_same
// CHECK-SAME: (%[[X:.*]]: tensor<2x3xf32>)
// CHECK-NEXT: return %[[X]]
func.func @reshape_same(%x: tensor<2x3xf32>) -> tensor<2x3xf32> {
  %0 = relay.reshape %x {newshape = array<i64: 0, -1>} : (tensor<2x3xf32>)
  return %0 : tensor<2x3xf32>
}

// -----

// A dynamic reshape chain is kept: the final shape cannot be spelt out.
// CHECK-LABEL: func.func @reshape_dynamic
// CHECK: relay.reshape
// CHECK: relay.reshape
func.func @reshape_dynamic(%x: tensor<?x4xf32>) -> tensor<?x2xf32> {
  %0 = relay.reshape %x {newshape = array<i64: -1>} : (tensor<?x4xf32>)
  %1 = relay.reshape %0 {newshape = array<i64: -1, 2>} : (tensor<?xf32>)
  return %1 : tensor<?x2xf32>
}

// -----

// x + 0, 0 + x and x - 0 are x for every kind of zero.
// CHECK-LABEL: func.func @add_zero
// CHECK-SAME: (%[[X:.*]]: tensor<2x3xf32>, %[[Y:.*]]: tensor<2x3xf32>, %[[I:.*]]: tensor<4xi32>)
// CHECK-NOT: relay.add
// CHECK-NOT: relay.subtract
// CHECK: return %[[X]], %[[X]], %[[X]], %[[X]], %[[X]], %[[I]], %[[I]]
func.func @add_zero(%x: tensor<2x3xf32>, %y: tensor<2x3xf32>, %i: tensor<4xi32>)
    -> (tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>, tensor<4xi32>, tensor<4xi32>) {
  %z = relay.zeros {shape = array<i64: 2, 3>, dtype = f32}
  %zl = relay.zeros_like %y : (tensor<2x3xf32>)
  %zc = relay.constant dense<0.0> : tensor<2x3xf32>
  %zi = relay.constant dense<0> : tensor<4xi32>
  // A zero that broadcasts to x's shape without stretching x.
  %zs = relay.zeros {shape = array<i64: 3>, dtype = f32}
  %0 = relay.add %x, %z : (tensor<2x3xf32>, tensor<2x3xf32>)
  %1 = relay.add %zl, %x : (tensor<2x3xf32>, tensor<2x3xf32>)
  %2 = relay.add %x, %zc : (tensor<2x3xf32>, tensor<2x3xf32>)
  %3 = relay.subtract %x, %zl : (tensor<2x3xf32>, tensor<2x3xf32>)
  %4 = relay.add %x, %zs : (tensor<2x3xf32>, tensor<3xf32>)
  %5 = relay.add %zi, %i : (tensor<4xi32>, tensor<4xi32>)
  %6 = relay.subtract %i, %zi : (tensor<4xi32>, tensor<4xi32>)
  return %0, %1, %2, %3, %4, %5, %6 : tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>, tensor<4xi32>, tensor<4xi32>
}

// -----

// No fold when the zero broadcasts x to a larger shape, for 0 - x, for a
// non-zero constant, or when a dynamic size could be stretched at run time.
// CHECK-LABEL: func.func @add_zero_no_fold
// CHECK: relay.add %{{.*}}, %{{.*}} : (tensor<3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
// CHECK: relay.add %{{.*}}, %{{.*}} : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xf32>
// CHECK: relay.subtract %{{.*}}, %{{.*}} : (tensor<3xf32>, tensor<3xf32>) -> tensor<3xf32>
// CHECK: relay.add %{{.*}}, %{{.*}} : (tensor<3xf32>, tensor<3xf32>) -> tensor<3xf32>
// CHECK: relay.add %{{.*}}, %{{.*}} : (tensor<?xf32>, tensor<?xf32>) -> tensor<?xf32>
func.func @add_zero_no_fold(%v: tensor<3xf32>, %d: tensor<?xf32>, %e: tensor<?xf32>)
    -> (tensor<2x3xf32>, tensor<2x3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<?xf32>) {
  %z = relay.zeros {shape = array<i64: 2, 3>, dtype = f32}
  %zv = relay.zeros_like %v : (tensor<3xf32>)
  %one = relay.constant dense<1.0> : tensor<3xf32>
  %ze = relay.zeros_like %e : (tensor<?xf32>)
  %0 = relay.add %v, %z : (tensor<3xf32>, tensor<2x3xf32>)
  %1 = relay.add %z, %v : (tensor<2x3xf32>, tensor<3xf32>)
  %2 = relay.subtract %zv, %v : (tensor<3xf32>, tensor<3xf32>)
  %3 = relay.add %v, %one : (tensor<3xf32>, tensor<3xf32>)
  // %d may be 1 and %e 5 at run time: %d + zeros_like(%e) has 5 elements.
  %4 = relay.add %d, %ze : (tensor<?xf32>, tensor<?xf32>)
  return %0, %1, %2, %3, %4 : tensor<2x3xf32>, tensor<2x3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<?xf32>
}

// -----

// With dynamic sizes, x + zeros_like(x) still folds.
// CHECK-LABEL: func.func @add_zeros_like_self_dynamic
// CHECK-SAME: (%[[X:.*]]: tensor<?x3xf32>)
// CHECK-NEXT: return %[[X]]
func.func @add_zeros_like_self_dynamic(%x: tensor<?x3xf32>) -> tensor<?x3xf32> {
  %z = relay.zeros_like %x : (tensor<?x3xf32>)
  %0 = relay.add %x, %z : (tensor<?x3xf32>, tensor<?x3xf32>)
  return %0 : tensor<?x3xf32>
}

// -----

// Cast to the operand's own type and broadcast_to the operand's own shape
// are the identity; real conversions are kept.
// CHECK-LABEL: func.func @cast_broadcast_same
// CHECK-SAME: (%[[X:.*]]: tensor<2x3xf32>)
// CHECK-NEXT: %[[C:.*]] = relay.cast %[[X]] {dtype = f16}
// CHECK-NEXT: %[[B:.*]] = relay.broadcast_to %[[X]] {shape = array<i64: 4, 2, 3>}
// CHECK-NEXT: return %[[X]], %[[X]], %[[C]], %[[B]]
func.func @cast_broadcast_same(%x: tensor<2x3xf32>) -> (tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xf16>, tensor<4x2x3xf32>) {
  %0 = relay.cast %x {dtype = f32} : (tensor<2x3xf32>)
  %1 = relay.broadcast_to %x {shape = array<i64: 2, 3>} : (tensor<2x3xf32>)
  %2 = relay.cast %x {dtype = f16} : (tensor<2x3xf32>)
  %3 = relay.broadcast_to %x {shape = array<i64: 4, 2, 3>} : (tensor<2x3xf32>)
  return %0, %1, %2, %3 : tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xf16>, tensor<4x2x3xf32>
}

// -----

// tuple_get(tuple(a, b), i) folds to the field; the tuple then dies.
// CHECK-LABEL: func.func @tuple_get_of_tuple
// CHECK-SAME: (%[[A:.*]]: tensor<2xf32>, %[[B:.*]]: tensor<i32>)
// CHECK-NEXT: return %[[B]], %[[A]]
func.func @tuple_get_of_tuple(%a: tensor<2xf32>, %b: tensor<i32>) -> (tensor<i32>, tensor<2xf32>) {
  %t = relay.tuple(%a, %b) : tensor<2xf32>, tensor<i32>
  %0 = relay.tuple_get %t[1] : tuple<tensor<2xf32>, tensor<i32>>
  %n = relay.tuple(%t) : tuple<tensor<2xf32>, tensor<i32>>
  %1 = relay.tuple_get %n[0] : tuple<tuple<tensor<2xf32>, tensor<i32>>>
  %2 = relay.tuple_get %1[0] : tuple<tensor<2xf32>, tensor<i32>>
  return %0, %2 : tensor<i32>, tensor<2xf32>
}

// -----

// A tuple_get of a tuple that is not built in view is kept.
// CHECK-LABEL: func.func @tuple_get_of_argument
// CHECK: relay.tuple_get %{{.*}}[0]
func.func @tuple_get_of_argument(%t: tuple<tensor<2xf32>>) -> tensor<2xf32> {
  %0 = relay.tuple_get %t[0] : tuple<tensor<2xf32>>
  return %0 : tensor<2xf32>
}

// -----

// relay.constant is ConstantLike: equal constants are merged, unused ones
// are removed, and folding through a tuple materialises the constant.
// CHECK-LABEL: func.func @constants
// CHECK-NEXT: %[[C:.*]] = relay.constant dense<[1.000000e+00, 2.000000e+00]> : tensor<2xf32>
// CHECK-NEXT: %[[S:.*]] = relay.add %[[C]], %[[C]] : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>
// CHECK-NEXT: return %[[S]], %[[C]]
func.func @constants() -> (tensor<2xf32>, tensor<2xf32>) {
  %a = relay.constant dense<[1.0, 2.0]> : tensor<2xf32>
  %b = relay.constant dense<[1.0, 2.0]> : tensor<2xf32>
  %unused = relay.constant dense<3> : tensor<4xi8>
  %s = relay.add %a, %b : (tensor<2xf32>, tensor<2xf32>)
  %t = relay.tuple(%b) : tensor<2xf32>
  %c = relay.tuple_get %t[0] : tuple<tensor<2xf32>>
  return %s, %c : tensor<2xf32>, tensor<2xf32>
}

// -----

// Folds chain: cast to the same type, then + 0, then a cancelling transpose.
// CHECK-LABEL: func.func @chain
// CHECK-SAME: (%[[X:.*]]: tensor<2x3xf32>)
// CHECK-NEXT: return %[[X]]
func.func @chain(%x: tensor<2x3xf32>) -> tensor<2x3xf32> {
  %0 = relay.cast %x {dtype = f32} : (tensor<2x3xf32>)
  %z = relay.zeros_like %0 : (tensor<2x3xf32>)
  %1 = relay.add %0, %z : (tensor<2x3xf32>, tensor<2x3xf32>)
  %2 = relay.transpose %1 : (tensor<2x3xf32>)
  %3 = relay.transpose %2 : (tensor<3x2xf32>)
  return %3 : tensor<2x3xf32>
}
