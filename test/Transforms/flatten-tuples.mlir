// --raf-flatten-tuples: tuple-typed signatures, calls, returns and relay.if
// results become their leaves, depth first; relay.tuple and relay.tuple_get
// disappear.
// RUN: raf-opt %s --raf-flatten-tuples --split-input-file | FileCheck %s

// A private function returning a pair that the caller takes apart.
// CHECK-LABEL: func.func private @both
// CHECK-SAME: (%[[X:.*]]: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>)
// CHECK: %[[E:.*]] = relay.exp %[[X]]
// CHECK: %[[N:.*]] = relay.negative %[[X]]
// CHECK: return %[[E]], %[[N]] : tensor<4xf32>, tensor<4xf32>
// CHECK-LABEL: func.func @main
// CHECK: %[[R:.*]]:2 = call @both(%{{.*}}) : (tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>)
// CHECK: relay.add %[[R]]#1, %[[R]]#0
// CHECK-NOT: relay.tuple
func.func private @both(%x: tensor<4xf32>) -> tuple<tensor<4xf32>, tensor<4xf32>> {
  %e = relay.exp %x : (tensor<4xf32>)
  %n = relay.negative %x : (tensor<4xf32>)
  %t = relay.tuple(%e, %n) : tensor<4xf32>, tensor<4xf32>
  return %t : tuple<tensor<4xf32>, tensor<4xf32>>
}

func.func @main(%x: tensor<4xf32>) -> tensor<4xf32> {
  %t = call @both(%x) : (tensor<4xf32>) -> tuple<tensor<4xf32>, tensor<4xf32>>
  %a = relay.tuple_get %t[0] : tuple<tensor<4xf32>, tensor<4xf32>>
  %b = relay.tuple_get %t[1] : tuple<tensor<4xf32>, tensor<4xf32>>
  %s = relay.add %b, %a : (tensor<4xf32>, tensor<4xf32>)
  return %s : tensor<4xf32>
}

// -----

// Nested tuples in arguments and results, a field that is itself a tuple,
// and an entry point returning a tuple (flattened depth first).
// CHECK-LABEL: func.func private @nest
// CHECK-SAME: (%[[A:.*]]: tensor<2xf32>, %[[B:.*]]: tensor<3xi32>, %[[C:.*]]: tensor<f32>) -> (tensor<f32>, tensor<2xf32>, tensor<3xi32>)
// CHECK: return %[[C]], %[[A]], %[[B]]
// CHECK-LABEL: func.func @entry
// CHECK-SAME: -> (tensor<f32>, tensor<2xf32>, tensor<3xi32>, tensor<3xi32>)
// CHECK: %[[R:.*]]:3 = call @nest
// CHECK: return %[[R]]#0, %[[R]]#1, %[[R]]#2, %[[R]]#2
// CHECK-NOT: tuple
func.func private @nest(%p: tuple<tuple<tensor<2xf32>, tensor<3xi32>>, tensor<f32>>)
    -> tuple<tensor<f32>, tuple<tensor<2xf32>, tensor<3xi32>>> {
  %inner = relay.tuple_get %p[0] : tuple<tuple<tensor<2xf32>, tensor<3xi32>>, tensor<f32>>
  %c = relay.tuple_get %p[1] : tuple<tuple<tensor<2xf32>, tensor<3xi32>>, tensor<f32>>
  %r = relay.tuple(%c, %inner) : tensor<f32>, tuple<tensor<2xf32>, tensor<3xi32>>
  return %r : tuple<tensor<f32>, tuple<tensor<2xf32>, tensor<3xi32>>>
}

func.func @entry(%a: tensor<2xf32>, %b: tensor<3xi32>, %c: tensor<f32>)
    -> (tuple<tensor<f32>, tuple<tensor<2xf32>, tensor<3xi32>>>, tensor<3xi32>) {
  %inner = relay.tuple(%a, %b) : tensor<2xf32>, tensor<3xi32>
  %p = relay.tuple(%inner, %c) : tuple<tensor<2xf32>, tensor<3xi32>>, tensor<f32>
  %r = call @nest(%p) : (tuple<tuple<tensor<2xf32>, tensor<3xi32>>, tensor<f32>>) -> tuple<tensor<f32>, tuple<tensor<2xf32>, tensor<3xi32>>>
  %i = relay.tuple_get %r[1] : tuple<tensor<f32>, tuple<tensor<2xf32>, tensor<3xi32>>>
  %j = relay.tuple_get %i[1] : tuple<tensor<2xf32>, tensor<3xi32>>
  return %r, %j : tuple<tensor<f32>, tuple<tensor<2xf32>, tensor<3xi32>>>, tensor<3xi32>
}

// -----

// relay.if returning a tuple yields its leaves; tuple-typed relay.zero is a
// zero per leaf.
// CHECK-LABEL: func.func @choose
// CHECK: %[[Z0:.*]] = relay.zero : tensor<4xf32>
// CHECK: %[[Z1:.*]] = relay.zero : tensor<f32>
// CHECK: %[[R:.*]]:2 = relay.if %{{.*}} : tensor<i1> -> (tensor<4xf32>, tensor<f32>) {
// CHECK: relay.yield %{{.*}}, %{{.*}} : tensor<4xf32>, tensor<f32>
// CHECK: } else {
// CHECK: relay.yield %[[Z0]], %[[Z1]] : tensor<4xf32>, tensor<f32>
// CHECK: relay.add %[[R]]#0, %[[R]]#0
// CHECK: return %{{.*}}, %[[R]]#1
func.func @choose(%x: tensor<4xf32>, %c: tensor<i1>) -> (tensor<4xf32>, tensor<f32>) {
  %z = relay.zero : tuple<tensor<4xf32>, tensor<f32>>
  %r = relay.if %c : tensor<i1> -> (tuple<tensor<4xf32>, tensor<f32>>) {
    %e = relay.exp %x : (tensor<4xf32>)
    %s = relay.sum %e : (tensor<4xf32>)
    %t = relay.tuple(%e, %s) : tensor<4xf32>, tensor<f32>
    relay.yield %t : tuple<tensor<4xf32>, tensor<f32>>
  } else {
    relay.yield %z : tuple<tensor<4xf32>, tensor<f32>>
  }
  %a = relay.tuple_get %r[0] : tuple<tensor<4xf32>, tensor<f32>>
  %b = relay.tuple_get %r[1] : tuple<tensor<4xf32>, tensor<f32>>
  %d = relay.add %a, %a : (tensor<4xf32>, tensor<4xf32>)
  return %d, %b : tensor<4xf32>, tensor<f32>
}

// -----

// Argument and result attributes move with their values: the updated
// parameter's raf.updates_arg stays on it (result #2 after flattening, not
// the tuple's second leaf) and names the parameter's new position (#2).
// CHECK-LABEL: func.func @step
// CHECK-SAME: (%{{.*}}: tensor<2xf32>, %{{.*}}: tensor<2xf32>, %{{.*}}: tensor<2xf32> {raf.requires_grad})
// CHECK-SAME: -> (tensor<2xf32>, tensor<2xf32>, tensor<2xf32> {raf.updates_arg = 2 : i64})
func.func @step(%p: tuple<tensor<2xf32>, tensor<2xf32>>, %w: tensor<2xf32> {raf.requires_grad}) -> (tuple<tensor<2xf32>, tensor<2xf32>>, tensor<2xf32> {raf.updates_arg = 1 : i64}) {
  %n = relay.negative %w : (tensor<2xf32>)
  return %p, %n : tuple<tensor<2xf32>, tensor<2xf32>>, tensor<2xf32>
}
