// RUN: raf-opt %s --raf-autocast="dtype=f16 out-dtype=f16" | FileCheck %s
// Canonicalisation (the relay.cast fold, the add fold of zeros) keeps every
// cast AutoCast made: the same output.
// RUN: raf-opt %s --raf-autocast="dtype=f16 out-dtype=f16" --canonicalize | FileCheck %s
// RUN: raf-opt %s --raf-autocast --raf-fuse | FileCheck %s --check-prefix=FUSE

// Vectors hand-derived from RAF's AutoCast rules (RAF source auto_cast.cc).

// matmul is always-AMP; add follows the binary-ufunc rule (its result was
// f32 and one operand is f16, so the bias is cast); softmax never casts, so
// the sum is cast back to its original f32; relu infers f32 from its only
// operand; the result is f32, not the AMP type, so it is left alone.
// CHECK-LABEL: func.func @vector(
// CHECK-SAME: %[[X:.*]]: tensor<4x8xf32>, %[[W:.*]]: tensor<8x16xf32>, %[[BIAS:.*]]: tensor<16xf32>) -> tensor<4x16xf32>
// CHECK-NEXT:   %[[C0:.*]] = relay.cast %[[X]] {dtype = f16} : (tensor<4x8xf32>) -> tensor<4x8xf16>
// CHECK-NEXT:   %[[C1:.*]] = relay.cast %[[W]] {dtype = f16} : (tensor<8x16xf32>) -> tensor<8x16xf16>
// CHECK-NEXT:   %[[A:.*]] = relay.nn.matmul %[[C0]], %[[C1]] : (tensor<4x8xf16>, tensor<8x16xf16>) -> tensor<4x16xf16>
// CHECK-NEXT:   %[[C2:.*]] = relay.cast %[[BIAS]] {dtype = f16} : (tensor<16xf32>) -> tensor<16xf16>
// CHECK-NEXT:   %[[B:.*]] = relay.add %[[A]], %[[C2]] : (tensor<4x16xf16>, tensor<16xf16>) -> tensor<4x16xf16>
// CHECK-NEXT:   %[[C3:.*]] = relay.cast %[[B]] {dtype = f32} : (tensor<4x16xf16>) -> tensor<4x16xf32>
// CHECK-NEXT:   %[[C:.*]] = relay.nn.softmax %[[C3]] : (tensor<4x16xf32>) -> tensor<4x16xf32>
// CHECK-NEXT:   %[[D:.*]] = relay.nn.relu %[[C]] : (tensor<4x16xf32>) -> tensor<4x16xf32>
// CHECK-NEXT:   return %[[D]] : tensor<4x16xf32>
func.func @vector(%x: tensor<4x8xf32>, %w: tensor<8x16xf32>, %bias: tensor<16xf32>)
    -> tensor<4x16xf32> attributes {raf.grad_params = array<i64: 1, 2>} {
  %a = relay.nn.matmul %x, %w : (tensor<4x8xf32>, tensor<8x16xf32>)
  %b = relay.add %a, %bias : (tensor<4x16xf32>, tensor<16xf32>)
  %c = relay.nn.softmax %b {axis = -1 : i64} : (tensor<4x16xf32>)
  %d = relay.nn.relu %c : (tensor<4x16xf32>)
  return %d : tensor<4x16xf32>
}

// The exclusive-cast principle (RAF Fig. 3): exactly 5 casts. %a is cast
// once and shared by the two matmuls (kind out_elemwise_fusable, beyond
// injective); %w1 and %w2 once each; %p twice, one for each add (kind
// broadcast), so each can fuse into its consumer.
// CHECK-LABEL: func.func @sharing(
// CHECK-SAME: %[[A:.*]]: tensor<4x8xf32>, %[[W1:.*]]: tensor<8x8xf32>, %[[W2:.*]]: tensor<8x8xf32>, %[[P:.*]]: tensor<8xf32>)
// CHECK-NEXT:   %[[CA:.*]] = relay.cast %[[A]] {dtype = f16}
// CHECK-NEXT:   %[[CW1:.*]] = relay.cast %[[W1]] {dtype = f16}
// CHECK-NEXT:   %[[H1:.*]] = relay.nn.matmul %[[CA]], %[[CW1]]
// CHECK-NEXT:   %[[CW2:.*]] = relay.cast %[[W2]] {dtype = f16}
// CHECK-NEXT:   %[[H2:.*]] = relay.nn.matmul %[[CA]], %[[CW2]]
// CHECK-NEXT:   %[[CP1:.*]] = relay.cast %[[P]] {dtype = f16}
// CHECK-NEXT:   %[[U:.*]] = relay.add %[[H1]], %[[CP1]]
// CHECK-NEXT:   %[[CP2:.*]] = relay.cast %[[P]] {dtype = f16}
// CHECK-NEXT:   %[[V:.*]] = relay.add %[[H2]], %[[CP2]]
// CHECK-NEXT:   return %[[U]], %[[V]] : tensor<4x8xf16>, tensor<4x8xf16>
// CHECK-NOT:  relay.cast
func.func @sharing(%a: tensor<4x8xf32>, %w1: tensor<8x8xf32>, %w2: tensor<8x8xf32>, %p: tensor<8xf32>)
    -> (tensor<4x8xf32>, tensor<4x8xf32>) attributes {raf.grad_params = array<i64: 1, 2, 3>} {
  %h1 = relay.nn.matmul %a, %w1 : (tensor<4x8xf32>, tensor<8x8xf32>)
  %h2 = relay.nn.matmul %a, %w2 : (tensor<4x8xf32>, tensor<8x8xf32>)
  %u = relay.add %h1, %p : (tensor<4x8xf32>, tensor<8xf32>)
  %v = relay.add %h2, %p : (tensor<4x8xf32>, tensor<8xf32>)
  return %u, %v : tensor<4x8xf32>, tensor<4x8xf32>
}

// After rule-based fusion on the CPU, each cast of %p is inside the fused
// group of its add (with the matmul that anchors it); the shared cast of %a
// stays outside, feeding both groups.
// FUSE-LABEL: func.func @sharing(
// FUSE-SAME: %[[A:.*]]: tensor<4x8xf32>, %{{.*}}: tensor<8x8xf32>, %{{.*}}: tensor<8x8xf32>, %[[P:.*]]: tensor<8xf32>)
// FUSE:        %[[CA:.*]] = relay.cast %[[A]] {dtype = f16}
// FUSE:        call @sharing_fused_0(%[[CA]], %{{.*}}, %[[P]])
// FUSE-NEXT:   call @sharing_fused_1(%[[CA]], %{{.*}}, %[[P]])
// FUSE-LABEL: func.func private @sharing_fused_0(
// FUSE-SAME: %{{.*}}: tensor<4x8xf16>, %{{.*}}: tensor<8x8xf16>, %[[P0:.*]]: tensor<8xf32>)
// FUSE:        relay.nn.matmul
// FUSE-NEXT:   %[[C0:.*]] = relay.cast %[[P0]] {dtype = f16
// FUSE-NEXT:   relay.add %{{.*}}, %[[C0]]
// FUSE-LABEL: func.func private @sharing_fused_1(
// FUSE-SAME: %{{.*}}: tensor<4x8xf16>, %{{.*}}: tensor<8x8xf16>, %[[P1:.*]]: tensor<8xf32>)
// FUSE:        relay.nn.matmul
// FUSE-NEXT:   %[[C1:.*]] = relay.cast %[[P1]] {dtype = f16
// FUSE-NEXT:   relay.add %{{.*}}, %[[C1]]
