// RUN: raf-opt %s --raf-autocast=dtype=bf16 | FileCheck %s
// RUN: raf-opt %s --raf-autocast="dtype=bf16 out-dtype=f32" | FileCheck %s --check-prefix=OUT

// dtype=bf16: the same rules with bf16 as the low-precision type; f16
// values count as neither bf16 nor f32.

// CHECK-LABEL: func.func @bf16(
// CHECK-SAME: %[[X:.*]]: tensor<4x8xf32>, %[[W:.*]]: tensor<8x8xf32>, %[[B:.*]]: tensor<8xf32>, %[[H:.*]]: tensor<8x8xf16>)
// CHECK-SAME: -> (tensor<4x8xbf16>, tensor<4x8xf32>, tensor<8x8xbf16>)
// CHECK-NEXT:   %[[XB:.*]] = relay.cast %[[X]] {dtype = bf16} : (tensor<4x8xf32>) -> tensor<4x8xbf16>
// CHECK-NEXT:   %[[WB:.*]] = relay.cast %[[W]] {dtype = bf16}
// CHECK-NEXT:   %[[P:.*]] = relay.nn.matmul %[[XB]], %[[WB]] : (tensor<4x8xbf16>, tensor<8x8xbf16>) -> tensor<4x8xbf16>
// CHECK-NEXT:   %[[BB:.*]] = relay.cast %[[B]] {dtype = bf16}
// CHECK-NEXT:   %[[A:.*]] = relay.add %[[P]], %[[BB]] : (tensor<4x8xbf16>, tensor<8xbf16>) -> tensor<4x8xbf16>
// CHECK-NEXT:   %[[AF:.*]] = relay.cast %[[A]] {dtype = f32} : (tensor<4x8xbf16>) -> tensor<4x8xf32>
// CHECK-NEXT:   %[[S:.*]] = relay.nn.softmax %[[AF]]
// An f16 value under an infer rule (no bf16 and no f32 operand: a tie) is
// cast to bf16, and the bf16 result goes out as out-dtype.
// CHECK-NEXT:   %[[HB:.*]] = relay.cast %[[H]] {dtype = bf16} : (tensor<8x8xf16>) -> tensor<8x8xbf16>
// CHECK-NEXT:   %[[R:.*]] = relay.nn.relu %[[HB]] : (tensor<8x8xbf16>) -> tensor<8x8xbf16>
// CHECK-NEXT:   return %[[A]], %[[S]], %[[R]] : tensor<4x8xbf16>, tensor<4x8xf32>, tensor<8x8xbf16>

// OUT-LABEL: func.func @bf16(
// OUT-SAME: -> (tensor<4x8xf32>, tensor<4x8xf32>, tensor<8x8xf32>)
func.func @bf16(%x: tensor<4x8xf32>, %w: tensor<8x8xf32>, %b: tensor<8xf32>, %h: tensor<8x8xf16>)
    -> (tensor<4x8xf32>, tensor<4x8xf32>, tensor<8x8xf16>) attributes {raf.grad_params = array<i64: 1, 2>} {
  %p = relay.nn.matmul %x, %w : (tensor<4x8xf32>, tensor<8x8xf32>)
  %a = relay.add %p, %b : (tensor<4x8xf32>, tensor<8xf32>)
  %s = relay.nn.softmax %a : (tensor<4x8xf32>)
  %r = relay.nn.relu %h : (tensor<8x8xf16>)
  return %a, %s, %r : tensor<4x8xf32>, tensor<4x8xf32>, tensor<8x8xf16>
}
