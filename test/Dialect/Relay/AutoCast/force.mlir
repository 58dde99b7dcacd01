// RUN: raf-opt %s --raf-autocast="force-low=nn.softmax,relay.sum force-f32=nn.dense" | FileCheck %s
// RUN: raf-opt %s --raf-autocast | FileCheck %s --check-prefix=DEFAULT

// force-low puts every float operand of the named operators in the
// low-precision type; force-f32 leaves every operand of the named operators
// in (or brings it back to) its original type. Names may carry the relay.
// prefix.

// CHECK-LABEL: func.func @forced(
// CHECK-SAME: %[[X:.*]]: tensor<4x8xf32>, %[[W:.*]]: tensor<8x8xf32>, %[[D:.*]]: tensor<2x8xf32>)
// CHECK-NEXT:   %[[XH:.*]] = relay.cast %[[X]] {dtype = f16}
// CHECK-NEXT:   %[[S:.*]] = relay.nn.softmax %[[XH]] : (tensor<4x8xf16>) -> tensor<4x8xf16>
// CHECK-NEXT:   %[[SUM:.*]] = relay.sum %[[S]] : (tensor<4x8xf16>) -> tensor<f16>
// CHECK-NEXT:   %[[SF:.*]] = relay.cast %[[S]] {dtype = f32}
// CHECK-NEXT:   %[[DN:.*]] = relay.nn.dense %[[SF]], %[[D]] : (tensor<4x8xf32>, tensor<2x8xf32>) -> tensor<4x2xf32>
// CHECK-NEXT:   %[[WH:.*]] = relay.cast %[[W]] {dtype = f16}
// CHECK-NEXT:   %[[M:.*]] = relay.nn.matmul %[[S]], %[[WH]]
// CHECK-NEXT:   return %[[SUM]], %[[DN]], %[[M]] : tensor<f16>, tensor<4x2xf32>, tensor<4x8xf16>

// DEFAULT-LABEL: func.func @forced(
// DEFAULT-NEXT:   %[[S:.*]] = relay.nn.softmax %arg0 : (tensor<4x8xf32>) -> tensor<4x8xf32>
// DEFAULT-NEXT:   %[[SUM:.*]] = relay.sum %[[S]] : (tensor<4x8xf32>) -> tensor<f32>
// DEFAULT:        relay.nn.dense {{.*}} -> tensor<4x2xf16>
func.func @forced(%x: tensor<4x8xf32>, %w: tensor<8x8xf32>, %d: tensor<2x8xf32>)
    -> (tensor<f32>, tensor<4x2xf32>, tensor<4x8xf32>) attributes {raf.grad_params = array<i64: 1>} {
  %s = relay.nn.softmax %x : (tensor<4x8xf32>)
  %sum = relay.sum %s : (tensor<4x8xf32>)
  %dn = relay.nn.dense %s, %d : (tensor<4x8xf32>, tensor<2x8xf32>)
  %m = relay.nn.matmul %s, %w : (tensor<4x8xf32>, tensor<8x8xf32>)
  return %sum, %dn, %m : tensor<f32>, tensor<4x2xf32>, tensor<4x8xf32>
}
