// RUN: raf-opt %s --raf-autocast=inference=true | FileCheck %s

// add and subtract (RAF's binary-ufunc rule): both operands go to f16 when
// the result was f32 and one operand is already f16; otherwise both are
// left alone (an f16 operand is cast back).

// f16 + f32 -> f16 (the f32 operand is cast); f32 - f32 -> untouched.
// CHECK-LABEL: func.func @mixed(
// CHECK-SAME: %[[X:.*]]: tensor<4x8xf32>, %[[W:.*]]: tensor<8x8xf32>, %[[B:.*]]: tensor<8xf32>)
// CHECK:        %[[P:.*]] = relay.nn.matmul
// CHECK-NEXT:   %[[BH:.*]] = relay.cast %[[B]] {dtype = f16} : (tensor<8xf32>) -> tensor<8xf16>
// CHECK-NEXT:   %[[A:.*]] = relay.add %[[P]], %[[BH]] : (tensor<4x8xf16>, tensor<8xf16>) -> tensor<4x8xf16>
// CHECK-NEXT:   %[[BH2:.*]] = relay.cast %[[B]] {dtype = f16} : (tensor<8xf32>) -> tensor<8xf16>
// CHECK-NEXT:   %[[S:.*]] = relay.subtract %[[BH2]], %[[A]] : (tensor<8xf16>, tensor<4x8xf16>) -> tensor<4x8xf16>
// CHECK-NEXT:   %[[F:.*]] = relay.subtract %[[X]], %[[X]] : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
// CHECK-NEXT:   return %[[S]], %[[F]]
func.func @mixed(%x: tensor<4x8xf32>, %w: tensor<8x8xf32>, %b: tensor<8xf32>)
    -> (tensor<4x8xf32>, tensor<4x8xf32>) {
  %p = relay.nn.matmul %x, %w : (tensor<4x8xf32>, tensor<8x8xf32>)
  %a = relay.add %p, %b : (tensor<4x8xf32>, tensor<8xf32>)
  %s = relay.subtract %b, %a : (tensor<8xf32>, tensor<4x8xf32>)
  %f = relay.subtract %x, %x : (tensor<4x8xf32>, tensor<4x8xf32>)
  return %s, %f : tensor<4x8xf32>, tensor<4x8xf32>
}

// The result was not f32 (f64, i32): operands keep their original types,
// so an f64 product cast to f16 comes back to f64.
// CHECK-LABEL: func.func @not_f32(
// CHECK-SAME: %[[X:.*]]: tensor<4x4xf64>, %[[I:.*]]: tensor<4xi32>)
// CHECK-NEXT:   %[[XH:.*]] = relay.cast %[[X]] {dtype = f16}
// CHECK-NEXT:   %[[P:.*]] = relay.nn.matmul %[[XH]], %[[XH]] {{.*}} -> tensor<4x4xf16>
// CHECK-NEXT:   %[[PD:.*]] = relay.cast %[[P]] {dtype = f64} : (tensor<4x4xf16>) -> tensor<4x4xf64>
// CHECK-NEXT:   %[[A:.*]] = relay.add %[[PD]], %[[X]] : (tensor<4x4xf64>, tensor<4x4xf64>) -> tensor<4x4xf64>
// CHECK-NEXT:   %[[N:.*]] = relay.add %[[I]], %[[I]] : (tensor<4xi32>, tensor<4xi32>) -> tensor<4xi32>
// CHECK-NEXT:   return %[[A]], %[[N]] : tensor<4x4xf64>, tensor<4xi32>
func.func @not_f32(%x: tensor<4x4xf64>, %i: tensor<4xi32>) -> (tensor<4x4xf64>, tensor<4xi32>) {
  %p = relay.nn.matmul %x, %x : (tensor<4x4xf64>, tensor<4x4xf64>)
  %a = relay.add %p, %x : (tensor<4x4xf64>, tensor<4x4xf64>)
  %n = relay.add %i, %i : (tensor<4xi32>, tensor<4xi32>)
  return %a, %n : tensor<4x4xf64>, tensor<4xi32>
}
