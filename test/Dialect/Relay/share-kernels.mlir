// RUN: raf-opt --raf-share-kernels --split-input-file %s | FileCheck %s --check-prefixes=CHECK,RED
// RUN: raf-opt --raf-share-kernels %s --split-input-file | grep -c "func.func private" | FileCheck %s --check-prefix=COUNT

// Two convolutions with the same shapes and attributes share one function;
// the third (other strides) gets its own. Identical fused functions merge.
// CHECK-LABEL: func.func @net
// CHECK: %[[A:.*]] = call @[[CONV:net_fused_[0-9]+]](%arg0, %arg1)
// CHECK: %[[B:.*]] = call @[[CONV]](%[[A]], %arg2)
// CHECK: call @[[STRIDED:net_fused_[0-9]+]](%[[B]], %arg3)
// CHECK: call @[[ADDRELU:net_fused_[0-9]+]](
// CHECK: call @[[ADDRELU]](
// CHECK-DAG: func.func private @[[CONV]]({{.*}}) -> tensor<1x8x6x6xf32> attributes {relay.backend = "linalg", relay.primitive}
// CHECK-DAG: func.func private @[[STRIDED]]({{.*}}) -> tensor<1x8x3x3xf32>
// CHECK-DAG: func.func private @[[ADDRELU]](
// Three private functions are left: the two convolutions and add + relu
// (and three in the second case below: mean, sum, batch_norm; two in the
// third).
// COUNT: 10
func.func @net(%x: tensor<1x8x6x6xf32>, %w1: tensor<8x8x3x3xf32>, %w2: tensor<8x8x3x3xf32>, %w3: tensor<8x8x3x3xf32>) -> (tensor<1x8x3x3xf32>, tensor<1x8x6x6xf32>, tensor<1x8x6x6xf32>) {
  %a = relay.nn.conv2d %x, %w1 {padding = array<i64: 1>} : (tensor<1x8x6x6xf32>, tensor<8x8x3x3xf32>)
  %b = relay.nn.conv2d %a, %w2 {padding = array<i64: 1>} : (tensor<1x8x6x6xf32>, tensor<8x8x3x3xf32>)
  %c = relay.nn.conv2d %b, %w3 {padding = array<i64: 1>, strides = array<i64: 2, 2>} : (tensor<1x8x6x6xf32>, tensor<8x8x3x3xf32>)
  %d = call @net_fused_0(%a, %b) : (tensor<1x8x6x6xf32>, tensor<1x8x6x6xf32>) -> tensor<1x8x6x6xf32>
  %e = call @net_fused_1(%b, %a) : (tensor<1x8x6x6xf32>, tensor<1x8x6x6xf32>) -> tensor<1x8x6x6xf32>
  return %c, %d, %e : tensor<1x8x3x3xf32>, tensor<1x8x6x6xf32>, tensor<1x8x6x6xf32>
}
func.func private @net_fused_0(%arg0: tensor<1x8x6x6xf32>, %arg1: tensor<1x8x6x6xf32>) -> tensor<1x8x6x6xf32> attributes {relay.backend = "linalg", relay.primitive} {
  %0 = relay.add %arg0, %arg1 : (tensor<1x8x6x6xf32>, tensor<1x8x6x6xf32>)
  %1 = relay.nn.relu %0 : (tensor<1x8x6x6xf32>)
  return %1 : tensor<1x8x6x6xf32>
}
func.func private @net_fused_1(%arg0: tensor<1x8x6x6xf32>, %arg1: tensor<1x8x6x6xf32>) -> tensor<1x8x6x6xf32> attributes {relay.backend = "linalg", relay.primitive} {
  %0 = relay.add %arg0, %arg1 : (tensor<1x8x6x6xf32>, tensor<1x8x6x6xf32>)
  %1 = relay.nn.relu %0 : (tensor<1x8x6x6xf32>)
  return %1 : tensor<1x8x6x6xf32>
}

// -----

// Reductions and opaque operators are kernels too (a training step has
// hundreds: batch-norm statistics and gradients, sums of bias gradients):
// identical ones share a function; views and constants stay in place.
// RED-LABEL: func.func @step
// RED: relay.reshape
// RED: %[[M1:.*]] = call @[[MEAN:step_fused_[0-9]+]](%arg0)
// RED: %[[M2:.*]] = call @[[MEAN]](%arg1)
// RED: call @[[SUM:step_fused_[0-9]+]](
// RED: call @[[BN:step_fused_[0-9]+]](
// RED-DAG: func.func private @[[MEAN]](%{{.*}}: tensor<2x4x3x3xf32>) -> tensor<4xf32> attributes {relay.backend = "linalg", relay.primitive}
// RED-DAG: func.func private @[[SUM]](
// RED-DAG: func.func private @[[BN]](

func.func @step(%x: tensor<2x4x3x3xf32>, %y: tensor<2x4x3x3xf32>, %g: tensor<4xf32>, %b: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>, tensor<f32>, tensor<2x4x3x3xf32>) {
  %r = relay.reshape %x {newshape = array<i64: 2, 4, 9>} : (tensor<2x4x3x3xf32>)
  %m1 = relay.mean %x {axis = array<i64: 0, 2, 3>} : (tensor<2x4x3x3xf32>)
  %m2 = relay.mean %y {axis = array<i64: 0, 2, 3>} : (tensor<2x4x3x3xf32>)
  %s = relay.sum %r : (tensor<2x4x9xf32>)
  %n:3 = relay.nn.batch_norm %x, %g, %b, %m1, %m2 : (tensor<2x4x3x3xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>)
  return %m1, %m2, %s, %n#0 : tensor<4xf32>, tensor<4xf32>, tensor<f32>, tensor<2x4x3x3xf32>
}

// -----

// Functions that become identical once the duplicates they call are
// redirected merge too: @m_fused_3 calls @m_fused_1, a copy of @m_fused_0,
// so it is a copy of @m_fused_2. Every use, in any function, is redirected.
// RED-LABEL: func.func @m
// RED: %[[X:.*]] = call @m_fused_2(%arg0)
// RED: call @m_fused_2(%[[X]])
// RED-NOT: @m_fused_1
// RED-NOT: @m_fused_3
// RED: func.func private @m_fused_0(
// RED: func.func private @m_fused_2(
// RED-NEXT: call @m_fused_0(
func.func @m(%x: tensor<4xf32>) -> tensor<4xf32> {
  %a = call @m_fused_2(%x) : (tensor<4xf32>) -> tensor<4xf32>
  %b = call @m_fused_3(%a) : (tensor<4xf32>) -> tensor<4xf32>
  return %b : tensor<4xf32>
}
func.func private @m_fused_0(%arg0: tensor<4xf32>) -> tensor<4xf32> attributes {relay.backend = "linalg", relay.primitive} {
  %0 = relay.nn.relu %arg0 : (tensor<4xf32>)
  return %0 : tensor<4xf32>
}
func.func private @m_fused_1(%arg0: tensor<4xf32>) -> tensor<4xf32> attributes {relay.backend = "linalg", relay.primitive} {
  %0 = relay.nn.relu %arg0 : (tensor<4xf32>)
  return %0 : tensor<4xf32>
}
func.func private @m_fused_2(%arg0: tensor<4xf32>) -> tensor<4xf32> attributes {relay.backend = "linalg", relay.primitive} {
  %0 = call @m_fused_0(%arg0) : (tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}
func.func private @m_fused_3(%arg0: tensor<4xf32>) -> tensor<4xf32> attributes {relay.backend = "linalg", relay.primitive} {
  %0 = call @m_fused_1(%arg0) : (tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

// A nested symbol table resolves its own symbols: the call of the inner
// @n_fused_1 is not redirected to the outer @n_fused_0 when the outer
// @n_fused_1 merges into it.
// RED-LABEL: func.func @n(
// RED: call @n_fused_0(
// RED: call @n_fused_0(
// RED: module @inner
// RED: call @n_fused_1(
// RED: func.func private @n_fused_1(
// RED-NEXT: relay.exp
func.func @n(%x: tensor<4xf32>) -> tensor<4xf32> {
  %a = call @n_fused_0(%x) : (tensor<4xf32>) -> tensor<4xf32>
  %b = call @n_fused_1(%a) : (tensor<4xf32>) -> tensor<4xf32>
  return %b : tensor<4xf32>
}
func.func private @n_fused_0(%arg0: tensor<4xf32>) -> tensor<4xf32> attributes {relay.backend = "linalg", relay.primitive} {
  %0 = relay.nn.relu %arg0 : (tensor<4xf32>)
  return %0 : tensor<4xf32>
}
func.func private @n_fused_1(%arg0: tensor<4xf32>) -> tensor<4xf32> attributes {relay.backend = "linalg", relay.primitive} {
  %0 = relay.nn.relu %arg0 : (tensor<4xf32>)
  return %0 : tensor<4xf32>
}
module @inner {
  func.func @g(%x: tensor<4xf32>) -> tensor<4xf32> {
    %a = call @n_fused_1(%x) : (tensor<4xf32>) -> tensor<4xf32>
    return %a : tensor<4xf32>
  }
  func.func private @n_fused_1(%arg0: tensor<4xf32>) -> tensor<4xf32> {
    %0 = relay.exp %arg0 : (tensor<4xf32>)
    return %0 : tensor<4xf32>
  }
}
