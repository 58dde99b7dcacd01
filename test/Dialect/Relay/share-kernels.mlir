// RUN: raf-opt --raf-share-kernels %s | FileCheck %s
// RUN: raf-opt --raf-share-kernels %s | grep -c "func.func private" | FileCheck %s --check-prefix=COUNT

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
// Three private functions are left: the two convolutions and add + relu.
// COUNT: 3
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
