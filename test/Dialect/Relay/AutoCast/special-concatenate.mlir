// RUN: raf-opt %s --raf-autocast=inference=true | FileCheck %s

// concatenate: every input goes to f16 when more than half of them are f16
// and there are at most 5; otherwise every input goes to f32 (RAF: more
// inputs exceed the GPU registers of the f16 injective schedule).

// 2 of 3 inputs f16: the f32 one is cast to f16.
// CHECK-LABEL: func.func @majority_low(
// CHECK-SAME: %[[X:.*]]: tensor<2x2xf32>
// CHECK:        %[[P:.*]] = relay.nn.matmul
// CHECK-NEXT:   %[[XH:.*]] = relay.cast %[[X]] {dtype = f16}
// CHECK-NEXT:   %[[C:.*]] = relay.concatenate %[[P]], %[[P]], %[[XH]] : (tensor<2x2xf16>, tensor<2x2xf16>, tensor<2x2xf16>) -> tensor<6x2xf16>
func.func @majority_low(%x: tensor<2x2xf32>) -> tensor<6x2xf32> {
  %p = relay.nn.matmul %x, %x : (tensor<2x2xf32>, tensor<2x2xf32>)
  %c = relay.concatenate %p, %p, %x : (tensor<2x2xf32>, tensor<2x2xf32>, tensor<2x2xf32>)
  return %c : tensor<6x2xf32>
}

// 2 of 4 inputs f16 is not more than half: all go to f32.
// CHECK-LABEL: func.func @half(
// CHECK-SAME: %[[X:.*]]: tensor<2x2xf32>
// CHECK:        %[[P:.*]] = relay.nn.matmul
// CHECK-NEXT:   %[[P1:.*]] = relay.cast %[[P]] {dtype = f32}
// CHECK-NEXT:   %[[C:.*]] = relay.concatenate %[[P1]], %[[P1]], %[[X]], %[[X]] : ({{.*}}xf32>{{.*}}) -> tensor<8x2xf32>
func.func @half(%x: tensor<2x2xf32>) -> tensor<8x2xf32> {
  %p = relay.nn.matmul %x, %x : (tensor<2x2xf32>, tensor<2x2xf32>)
  %c = relay.concatenate %p, %p, %x, %x : (tensor<2x2xf32>, tensor<2x2xf32>, tensor<2x2xf32>, tensor<2x2xf32>)
  return %c : tensor<8x2xf32>
}

// 6 f16 inputs: more than 5, so f32 (concatenate is injective: the cast is
// exclusive, made once for this consumer although the value appears six
// times).
// CHECK-LABEL: func.func @too_many(
// CHECK:        %[[P:.*]] = relay.nn.matmul
// CHECK-NEXT:   %[[PF:.*]] = relay.cast %[[P]] {dtype = f32}
// CHECK-NEXT:   %[[C:.*]] = relay.concatenate %[[PF]], %[[PF]], %[[PF]], %[[PF]], %[[PF]], %[[PF]] : {{.*}} -> tensor<12x2xf32>
// CHECK-NEXT:   return %[[C]] : tensor<12x2xf32>
func.func @too_many(%x: tensor<2x2xf32>) -> tensor<12x2xf32> {
  %p = relay.nn.matmul %x, %x : (tensor<2x2xf32>, tensor<2x2xf32>)
  %c = relay.concatenate %p, %p, %p, %p, %p, %p : (tensor<2x2xf32>, tensor<2x2xf32>, tensor<2x2xf32>, tensor<2x2xf32>, tensor<2x2xf32>, tensor<2x2xf32>)
  return %c : tensor<12x2xf32>
}

// 5 f16 inputs: still f16.
// CHECK-LABEL: func.func @five(
// CHECK:        %[[P:.*]] = relay.nn.matmul
// CHECK-NEXT:   %[[C:.*]] = relay.concatenate %[[P]], %[[P]], %[[P]], %[[P]], %[[P]] : {{.*}} -> tensor<10x2xf16>
func.func @five(%x: tensor<2x2xf32>) -> tensor<10x2xf32> {
  %p = relay.nn.matmul %x, %x : (tensor<2x2xf32>, tensor<2x2xf32>)
  %c = relay.concatenate %p, %p, %p, %p, %p : (tensor<2x2xf32>, tensor<2x2xf32>, tensor<2x2xf32>, tensor<2x2xf32>, tensor<2x2xf32>)
  return %c : tensor<10x2xf32>
}
