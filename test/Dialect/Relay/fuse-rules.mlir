// RUN: raf-opt %s --raf-fuse | FileCheck %s
// The pass is deterministic: a second run over the same input prints the
// same module.
// RUN: raf-opt %s --raf-fuse > %t.1 && raf-opt %s --raf-fuse > %t.2 && diff %t.1 %t.2

// Rule-based fusion (RAF's FuseTVM) on cpu, where linalg is the top dispatch
// choice of every operator and no pattern applies. One function per rule.

// Rule 1: an elementwise producer fuses into a reduce consumer.
// CHECK-LABEL: func.func @rule1_into_reduce
// CHECK-NEXT:    %[[R:.*]] = call @rule1_into_reduce_fused_0(%arg0) : (tensor<4x8xf32>) -> tensor<4xf32>
// CHECK-NEXT:    return %[[R]]
// CHECK-LABEL: func.func private @rule1_into_reduce_fused_0(%arg0: tensor<4x8xf32>) -> tensor<4xf32> attributes {relay.backend = "linalg", relay.primitive}
// CHECK-NEXT:    %[[E:.*]] = relay.exp %arg0 {relay.backend = "linalg"}
// CHECK-NEXT:    %[[S:.*]] = relay.sum %[[E]] {axis = array<i64: 1>, relay.backend = "linalg"}
// CHECK-NEXT:    return %[[S]]
func.func @rule1_into_reduce(%x: tensor<4x8xf32>) -> tensor<4xf32> {
  %0 = relay.exp %x : (tensor<4x8xf32>)
  %1 = relay.sum %0 {axis = array<i64: 1>} : (tensor<4x8xf32>)
  return %1 : tensor<4xf32>
}

// Rule 1: a broadcast producer fuses into an injective consumer.
// CHECK-LABEL: func.func @rule1_into_injective
// CHECK-NEXT:    call @rule1_into_injective_fused_0(%arg0, %arg1)
// CHECK-LABEL: func.func private @rule1_into_injective_fused_0
// CHECK-NEXT:    relay.add
// CHECK-NEXT:    relay.transpose
// CHECK-NEXT:    return
func.func @rule1_into_injective(%x: tensor<4x8xf32>, %y: tensor<4x8xf32>) -> tensor<8x4xf32> {
  %0 = relay.add %x, %y : (tensor<4x8xf32>, tensor<4x8xf32>)
  %1 = relay.transpose %0 : (tensor<4x8xf32>)
  return %1 : tensor<8x4xf32>
}

// Rule 2: injective operators fuse with each other and with elementwise
// consumers.
// CHECK-LABEL: func.func @rule2_injective
// CHECK-NEXT:    call @rule2_injective_fused_0(%arg0)
// CHECK-NEXT:    return
// CHECK-LABEL: func.func private @rule2_injective_fused_0
// CHECK-NEXT:    relay.reshape
// CHECK-NEXT:    relay.transpose
// CHECK-NEXT:    relay.reshape
// CHECK-NEXT:    relay.exp
// CHECK-NEXT:    return
func.func @rule2_injective(%x: tensor<4x8xf32>) -> tensor<8x4xf32> {
  %0 = relay.reshape %x {newshape = array<i64: 4, 2, 4>} : (tensor<4x8xf32>)
  %1 = relay.transpose %0 {axes = array<i64: 1, 0, 2>} : (tensor<4x2x4xf32>)
  %2 = relay.reshape %1 {newshape = array<i64: 8, 4>} : (tensor<2x4x4xf32>)
  %3 = relay.exp %2 : (tensor<8x4xf32>)
  return %3 : tensor<8x4xf32>
}

// Rule 2: an injective producer does not fuse into a reduction; each group
// has one operator and is left alone (rule 7).
// CHECK-LABEL: func.func @rule2_not_into_reduce
// CHECK-NEXT:    relay.transpose %arg0 :
// CHECK-NEXT:    relay.sum
// CHECK-NEXT:    return
// CHECK-NOT:   @rule2_not_into_reduce_fused
func.func @rule2_not_into_reduce(%x: tensor<4x8xf32>) -> tensor<8xf32> {
  %0 = relay.transpose %x : (tensor<4x8xf32>)
  %1 = relay.sum %0 {axis = array<i64: 1>} : (tensor<8x4xf32>)
  return %1 : tensor<8xf32>
}

// Rule 3: an out-elementwise-fusable anchor absorbs the following chain of
// elementwise and broadcast operators, but not an injective one.
// CHECK-LABEL: func.func @rule3_anchor_chain
// CHECK-NEXT:    %[[F:.*]] = call @rule3_anchor_chain_fused_0(%arg0, %arg1, %arg2, %arg3) : (tensor<1x3x8x8xf32>, tensor<4x3x3x3xf32>, tensor<4xf32>, tensor<1x4x6x6xf32>) -> tensor<1x4x6x6xf32>
// CHECK-NEXT:    relay.reshape %[[F]]
// CHECK-NEXT:    return
// CHECK-LABEL: func.func private @rule3_anchor_chain_fused_0
// CHECK-NEXT:    relay.nn.conv2d
// CHECK-NEXT:    relay.nn.bias_add
// CHECK-NEXT:    relay.nn.relu
// CHECK-NEXT:    relay.multiply
// CHECK-NEXT:    return
func.func @rule3_anchor_chain(%x: tensor<1x3x8x8xf32>, %w: tensor<4x3x3x3xf32>, %b: tensor<4xf32>, %s: tensor<1x4x6x6xf32>) -> tensor<144xf32> {
  %0 = relay.nn.conv2d %x, %w : (tensor<1x3x8x8xf32>, tensor<4x3x3x3xf32>)
  %1 = relay.nn.bias_add %0, %b : (tensor<1x4x6x6xf32>, tensor<4xf32>)
  %2 = relay.nn.relu %1 : (tensor<1x4x6x6xf32>)
  %3 = relay.multiply %2, %s : (tensor<1x4x6x6xf32>, tensor<1x4x6x6xf32>)
  %4 = relay.reshape %3 {newshape = array<i64: -1>} : (tensor<1x4x6x6xf32>)
  return %4 : tensor<144xf32>
}

// Rule 3: the anchor does not absorb a reduction, and a group has one
// anchor: the second dense stays outside the first one's group.
// CHECK-LABEL: func.func @rule3_one_anchor
// CHECK-NEXT:    %[[D2:.*]] = relay.nn.dense %arg0, %arg2 :
// CHECK-NEXT:    %[[F:.*]] = call @rule3_one_anchor_fused_0(%arg0, %arg1, %[[D2]])
// CHECK-NEXT:    relay.sum %[[F]]
// CHECK-NEXT:    return
// CHECK-LABEL: func.func private @rule3_one_anchor_fused_0
// CHECK-NEXT:    relay.nn.dense
// CHECK-NEXT:    relay.add
// CHECK-NEXT:    return
func.func @rule3_one_anchor(%a: tensor<4x8xf32>, %w1: tensor<16x8xf32>, %w2: tensor<16x8xf32>) -> tensor<f32> {
  %0 = relay.nn.dense %a, %w1 : (tensor<4x8xf32>, tensor<16x8xf32>)
  %1 = relay.nn.dense %a, %w2 : (tensor<4x8xf32>, tensor<16x8xf32>)
  %2 = relay.add %0, %1 : (tensor<4x16xf32>, tensor<4x16xf32>)
  %3 = relay.sum %2 : (tensor<4x16xf32>)
  return %3 : tensor<f32>
}

// Rule 4: a reduction absorbs following elementwise operators, not a
// broadcast one.
// CHECK-LABEL: func.func @rule4_reduce_then_elemwise
// CHECK-NEXT:    %[[F:.*]] = call @rule4_reduce_then_elemwise_fused_0(%arg0)
// CHECK-NEXT:    relay.add %[[F]], %arg1
// CHECK-NEXT:    return
// CHECK-LABEL: func.func private @rule4_reduce_then_elemwise_fused_0
// CHECK-NEXT:    relay.sum
// CHECK-NEXT:    relay.sqrt
// CHECK-NEXT:    relay.negative
// CHECK-NEXT:    return
func.func @rule4_reduce_then_elemwise(%x: tensor<4x8xf32>, %y: tensor<4xf32>) -> tensor<4xf32> {
  %0 = relay.sum %x {axis = array<i64: 1>} : (tensor<4x8xf32>)
  %1 = relay.sqrt %0 : (tensor<4xf32>)
  %2 = relay.negative %1 : (tensor<4xf32>)
  %3 = relay.add %2, %y : (tensor<4xf32>, tensor<4xf32>)
  return %3 : tensor<4xf32>
}

// Rule 5: opaque operators never fuse; fusion continues on both sides.
// CHECK-LABEL: func.func @rule5_opaque
// CHECK-NEXT:    %[[A:.*]] = call @rule5_opaque_fused_0(%arg0, %arg1)
// CHECK-NEXT:    %[[S:.*]] = relay.nn.softmax %[[A]]
// CHECK-NEXT:    %[[B:.*]] = call @rule5_opaque_fused_1(%[[S]])
// CHECK-NEXT:    return %[[B]]
// CHECK-LABEL: func.func private @rule5_opaque_fused_0
// CHECK-NEXT:    relay.add
// CHECK-NEXT:    relay.exp
// CHECK-NEXT:    return
// CHECK-LABEL: func.func private @rule5_opaque_fused_1
// CHECK-NEXT:    relay.nn.relu
// CHECK-NEXT:    relay.negative
// CHECK-NEXT:    return
func.func @rule5_opaque(%x: tensor<4x8xf32>, %y: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %0 = relay.add %x, %y : (tensor<4x8xf32>, tensor<4x8xf32>)
  %1 = relay.exp %0 : (tensor<4x8xf32>)
  %2 = relay.nn.softmax %1 : (tensor<4x8xf32>)
  %3 = relay.nn.relu %2 : (tensor<4x8xf32>)
  %4 = relay.negative %3 : (tensor<4x8xf32>)
  return %4 : tensor<4x8xf32>
}

// Rule 6: {exp, add} would not be convex (exp -> softmax -> add leaves the
// group and comes back), so nothing fuses.
// CHECK-LABEL: func.func @rule6_convex
// CHECK-NEXT:    relay.exp
// CHECK-NEXT:    relay.nn.softmax
// CHECK-NEXT:    relay.add
// CHECK-NEXT:    return
// CHECK-NOT:   @rule6_convex_fused
func.func @rule6_convex(%x: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %0 = relay.exp %x : (tensor<4x8xf32>)
  %1 = relay.nn.softmax %0 : (tensor<4x8xf32>)
  %2 = relay.add %0, %1 : (tensor<4x8xf32>, tensor<4x8xf32>)
  return %2 : tensor<4x8xf32>
}

// Rule 6: an operation between the members that depends on the group but
// does not feed it is moved behind the call (it is pure).
// CHECK-LABEL: func.func @rule6_move_dependent
// CHECK-NEXT:    %[[F:.*]]:2 = call @rule6_move_dependent_fused_0(%arg0, %arg1) : (tensor<4x8xf32>, tensor<4x8xf32>) -> (tensor<4x8xf32>, tensor<4x8xf32>)
// CHECK-NEXT:    %[[S:.*]] = relay.nn.softmax %[[F]]#0
// CHECK-NEXT:    return %[[F]]#1, %[[S]]
// CHECK-LABEL: func.func private @rule6_move_dependent_fused_0
// CHECK-NEXT:    %[[E:.*]] = relay.exp %arg0
// CHECK-NEXT:    %[[A:.*]] = relay.add %[[E]], %arg1
// CHECK-NEXT:    return %[[E]], %[[A]]
func.func @rule6_move_dependent(%x: tensor<4x8xf32>, %y: tensor<4x8xf32>) -> (tensor<4x8xf32>, tensor<4x8xf32>) {
  %0 = relay.exp %x : (tensor<4x8xf32>)
  %1 = relay.nn.softmax %0 : (tensor<4x8xf32>)
  %2 = relay.add %0, %y : (tensor<4x8xf32>, tensor<4x8xf32>)
  return %2, %1 : tensor<4x8xf32>, tensor<4x8xf32>
}

// Rule 6: ... but an operation with effects is not moved, so that group is
// not formed.
// CHECK-LABEL: func.func @rule6_effects_stay
// CHECK-NEXT:    relay.exp
// CHECK-NEXT:    relay.ref_new
// CHECK-NEXT:    relay.add
// CHECK-NEXT:    return
// CHECK-NOT:   @rule6_effects_stay_fused
func.func @rule6_effects_stay(%x: tensor<4x8xf32>, %y: tensor<4x8xf32>) -> (tensor<4x8xf32>, !relay.ref<tensor<4x8xf32>>) {
  %0 = relay.exp %x : (tensor<4x8xf32>)
  %r = relay.ref_new %0 : tensor<4x8xf32>
  %2 = relay.add %0, %y : (tensor<4x8xf32>, tensor<4x8xf32>)
  return %2, %r : tensor<4x8xf32>, !relay.ref<tensor<4x8xf32>>
}

// Rule 7: a group of one operator is not wrapped.
// CHECK-LABEL: func.func @rule7_single
// CHECK-NEXT:    relay.exp %arg0
// CHECK-NEXT:    return
// CHECK-NOT:   @rule7_single_fused
func.func @rule7_single(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = relay.exp %x : (tensor<4xf32>)
  return %0 : tensor<4xf32>
}

// Rule 8 (default 256): the four-operator chain is one group here; see
// fuse-options.mlir for max-group-size.
// CHECK-LABEL: func.func @rule8_chain
// CHECK-NEXT:    call @rule8_chain_fused_0(%arg0)
// CHECK-NEXT:    return
// CHECK-LABEL: func.func private @rule8_chain_fused_0
// CHECK-NEXT:    relay.exp
// CHECK-NEXT:    relay.negative
// CHECK-NEXT:    relay.sqrt
// CHECK-NEXT:    relay.tanh
// CHECK-NEXT:    return
func.func @rule8_chain(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = relay.exp %x : (tensor<4xf32>)
  %1 = relay.negative %0 : (tensor<4xf32>)
  %2 = relay.sqrt %1 : (tensor<4xf32>)
  %3 = relay.tanh %2 : (tensor<4xf32>)
  return %3 : tensor<4xf32>
}

// A boolean mask takes in no producer group: the `where` that consumes it
// after the convolutions recomputes `greater` from the stored relu output,
// and no kernel returns an i1 tensor (one had loaded it byte by byte).
// CHECK-LABEL: func.func @mask_recomputed
// CHECK:         %[[R:.*]] = call @mask_recomputed_fused_0(%arg0) : (tensor<1x4x8x8xf32>) -> tensor<1x4x8x8xf32>
// CHECK:         %[[C:.*]] = relay.nn.conv2d %[[R]], %arg1
// CHECK:         call @mask_recomputed_fused_1(%[[R]], %{{.*}}, %[[C]], %arg1)
// CHECK-LABEL: func.func private @mask_recomputed_fused_0
// CHECK-NEXT:    relay.add
// CHECK-NEXT:    relay.nn.relu
// CHECK-NEXT:    return
// CHECK-LABEL: func.func private @mask_recomputed_fused_1
// CHECK-NEXT:    relay.greater
// CHECK-NEXT:    relay.nn.conv2d
// CHECK-NEXT:    relay.where
// CHECK-NEXT:    return
func.func @mask_recomputed(%x: tensor<1x4x8x8xf32>, %w: tensor<4x4x3x3xf32>) -> (tensor<1x4x8x8xf32>, tensor<1x4x8x8xf32>) {
  %zero = relay.constant dense<0.0> : tensor<f32>
  %a = relay.add %x, %x : (tensor<1x4x8x8xf32>, tensor<1x4x8x8xf32>) -> tensor<1x4x8x8xf32>
  %r = relay.nn.relu %a : (tensor<1x4x8x8xf32>) -> tensor<1x4x8x8xf32>
  %m = relay.greater %r, %zero : (tensor<1x4x8x8xf32>, tensor<f32>) -> tensor<1x4x8x8xi1>
  %c = relay.nn.conv2d %r, %w {padding = array<i64: 1>} : (tensor<1x4x8x8xf32>, tensor<4x4x3x3xf32>) -> tensor<1x4x8x8xf32>
  %d = relay.nn.conv2d %c, %w {padding = array<i64: 1>} : (tensor<1x4x8x8xf32>, tensor<4x4x3x3xf32>) -> tensor<1x4x8x8xf32>
  %g = relay.where %m, %d, %zero : (tensor<1x4x8x8xi1>, tensor<1x4x8x8xf32>, tensor<f32>) -> tensor<1x4x8x8xf32>
  return %g, %c : tensor<1x4x8x8xf32>, tensor<1x4x8x8xf32>
}
