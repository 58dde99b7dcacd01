// RUN: raf-opt %s --raf-fuse=device=cuda | FileCheck %s --check-prefix=CUDA
// RUN: raf-opt %s --raf-fuse | FileCheck %s --check-prefix=CPU

// Pattern-based fusion (RAF paper §3.2.2) with the default table on cuda, then
// linalg rule-based fusion of what is left; on cpu only the latter.

// Fig. 6 of the RAF paper in f16: the CUTLASS fp16 pattern (priority 15)
// takes conv2d + relu (bias is optional: Fig. 6 has none), then the linalg
// rules fuse add + multiply. On cpu the CUDA backends are disabled and one
// linalg group takes all four operators (rule 3).
// CUDA-LABEL: func.func @fig6(
// CUDA-NEXT:    %[[C:.*]] = call @fig6_fused_0(%arg0, %arg1) : (tensor<1x3x8x8xf16>, tensor<4x3x3x3xf16>) -> tensor<1x4x6x6xf16>
// CUDA-NEXT:    %[[T:.*]] = call @fig6_fused_1(%[[C]], %arg2, %arg3) : (tensor<1x4x6x6xf16>, tensor<1x4x6x6xf16>, tensor<1x4x6x6xf16>) -> tensor<1x4x6x6xf16>
// CUDA-NEXT:    return %[[T]]
// CUDA-LABEL: func.func private @fig6_fused_0(%arg0: tensor<1x3x8x8xf16>, %arg1: tensor<4x3x3x3xf16>) -> tensor<1x4x6x6xf16>
// CUDA-SAME:    attributes {relay.backend = "cutlass", relay.fusion_pattern = "conv2d_bias_relu_fp16", relay.primitive}
// CUDA-NEXT:    %[[V:.*]] = relay.nn.conv2d %arg0, %arg1 {relay.backend = "cutlass"}
// CUDA-NEXT:    %[[R:.*]] = relay.nn.relu %[[V]] {relay.backend = "cutlass"}
// CUDA-NEXT:    return %[[R]]
// CUDA-LABEL: func.func private @fig6_fused_1(%arg0: tensor<1x4x6x6xf16>, %arg1: tensor<1x4x6x6xf16>, %arg2: tensor<1x4x6x6xf16>) -> tensor<1x4x6x6xf16>
// CUDA-SAME:    attributes {relay.backend = "linalg", relay.primitive}
// CUDA-NEXT:    %[[A:.*]] = relay.add %arg0, %arg1 {relay.backend = "linalg"}
// CUDA-NEXT:    %[[M:.*]] = relay.multiply %[[A]], %arg2 {relay.backend = "linalg"}
// CUDA-NEXT:    return %[[M]]
// CPU-LABEL: func.func @fig6(
// CPU-NEXT:    call @fig6_fused_0(%arg0, %arg1, %arg2, %arg3)
// CPU-NEXT:    return
// CPU-LABEL: func.func private @fig6_fused_0
// CPU-SAME:    attributes {relay.backend = "linalg", relay.primitive}
// CPU-NEXT:    relay.nn.conv2d
// CPU-NEXT:    relay.nn.relu
// CPU-NEXT:    relay.add
// CPU-NEXT:    relay.multiply
// CPU-NEXT:    return
func.func @fig6(%x: tensor<1x3x8x8xf16>, %w: tensor<4x3x3x3xf16>, %y: tensor<1x4x6x6xf16>, %z: tensor<1x4x6x6xf16>) -> tensor<1x4x6x6xf16> {
  %1 = relay.nn.conv2d %x, %w : (tensor<1x3x8x8xf16>, tensor<4x3x3x3xf16>)
  %2 = relay.nn.relu %1 : (tensor<1x4x6x6xf16>)
  %3 = relay.add %2, %y : (tensor<1x4x6x6xf16>, tensor<1x4x6x6xf16>)
  %4 = relay.multiply %3, %z : (tensor<1x4x6x6xf16>, tensor<1x4x6x6xf16>)
  return %4 : tensor<1x4x6x6xf16>
}

// The fp16 gate: the same program in f32 is not taken by the CUTLASS fp16
// pattern; the cuda pattern (priority 12) takes it (Tab. 1).
// CUDA-LABEL: func.func @fig6_f32(
// CUDA-NEXT:    call @fig6_f32_fused_0(%arg0, %arg1)
// CUDA-NEXT:    call @fig6_f32_fused_1
// CUDA-NEXT:    return
// CUDA-LABEL: func.func private @fig6_f32_fused_0
// CUDA-SAME:    attributes {relay.backend = "cuda", relay.fusion_pattern = "conv2d_bias_relu", relay.primitive}
// CUDA-NEXT:    relay.nn.conv2d {{.*}}{relay.backend = "cuda"}
// CUDA-NEXT:    relay.nn.relu {{.*}}{relay.backend = "cuda"}
// CUDA-NEXT:    return
// CUDA-LABEL: func.func private @fig6_f32_fused_1
// CUDA-SAME:    attributes {relay.backend = "linalg", relay.primitive}
// CUDA-NEXT:    relay.add
// CUDA-NEXT:    relay.multiply
// CUDA-NEXT:    return
func.func @fig6_f32(%x: tensor<1x3x8x8xf32>, %w: tensor<4x3x3x3xf32>, %y: tensor<1x4x6x6xf32>, %z: tensor<1x4x6x6xf32>) -> tensor<1x4x6x6xf32> {
  %1 = relay.nn.conv2d %x, %w : (tensor<1x3x8x8xf32>, tensor<4x3x3x3xf32>)
  %2 = relay.nn.relu %1 : (tensor<1x4x6x6xf32>)
  %3 = relay.add %2, %y : (tensor<1x4x6x6xf32>, tensor<1x4x6x6xf32>)
  %4 = relay.multiply %3, %z : (tensor<1x4x6x6xf32>, tensor<1x4x6x6xf32>)
  return %4 : tensor<1x4x6x6xf32>
}

// With a bias, as nn.bias_add (f16, cutlass) or as add (f32, cuda).
// CUDA-LABEL: func.func @conv_bias_add_relu_f16(
// CUDA-NEXT:    call @conv_bias_add_relu_f16_fused_0(%arg0, %arg1, %arg2)
// CUDA-NEXT:    return
// CUDA-LABEL: func.func private @conv_bias_add_relu_f16_fused_0
// CUDA-SAME:    relay.fusion_pattern = "conv2d_bias_relu_fp16"
// CUDA-NEXT:    relay.nn.conv2d
// CUDA-NEXT:    relay.nn.bias_add
// CUDA-NEXT:    relay.nn.relu
// CUDA-NEXT:    return
func.func @conv_bias_add_relu_f16(%x: tensor<1x3x8x8xf16>, %w: tensor<4x3x3x3xf16>, %b: tensor<4xf16>) -> tensor<1x4x6x6xf16> {
  %0 = relay.nn.conv2d %x, %w : (tensor<1x3x8x8xf16>, tensor<4x3x3x3xf16>)
  %1 = relay.nn.bias_add %0, %b : (tensor<1x4x6x6xf16>, tensor<4xf16>)
  %2 = relay.nn.relu %1 : (tensor<1x4x6x6xf16>)
  return %2 : tensor<1x4x6x6xf16>
}
// CUDA-LABEL: func.func @conv_add_relu_f32(
// CUDA-NEXT:    call @conv_add_relu_f32_fused_0(%arg0, %arg1, %arg2)
// CUDA-NEXT:    return
// CUDA-LABEL: func.func private @conv_add_relu_f32_fused_0
// CUDA-SAME:    relay.backend = "cuda", relay.fusion_pattern = "conv2d_bias_relu"
// CUDA-NEXT:    relay.nn.conv2d
// CUDA-NEXT:    relay.add
// CUDA-NEXT:    relay.nn.relu
// CUDA-NEXT:    return
func.func @conv_add_relu_f32(%x: tensor<1x3x8x8xf32>, %w: tensor<4x3x3x3xf32>, %b: tensor<1x4x1x1xf32>) -> tensor<1x4x6x6xf32> {
  %0 = relay.nn.conv2d %x, %w : (tensor<1x3x8x8xf32>, tensor<4x3x3x3xf32>)
  %1 = relay.add %0, %b : (tensor<1x4x6x6xf32>, tensor<1x4x1x1xf32>)
  %2 = relay.nn.relu %1 : (tensor<1x4x6x6xf32>)
  return %2 : tensor<1x4x6x6xf32>
}

// A lone conv2d is Table 1's single-op cuda pattern (priority 10): pattern
// groups are wrapped even with one operator.
// CUDA-LABEL: func.func @conv_alone(
// CUDA-NEXT:    call @conv_alone_fused_0(%arg0, %arg1)
// CUDA-NEXT:    return
// CUDA-LABEL: func.func private @conv_alone_fused_0
// CUDA-SAME:    relay.backend = "cuda", relay.fusion_pattern = "conv2d"
// CUDA-NEXT:    relay.nn.conv2d
// CUDA-NEXT:    return
func.func @conv_alone(%x: tensor<1x3x8x8xf32>, %w: tensor<4x3x3x3xf32>) -> tensor<1x4x6x6xf32> {
  %0 = relay.nn.conv2d %x, %w : (tensor<1x3x8x8xf32>, tensor<4x3x3x3xf32>)
  return %0 : tensor<1x4x6x6xf32>
}

// An intermediate value of a match used outside it rejects the match: the
// conv2d result is returned too, so conv2d + relu is not taken; conv2d
// alone is, and relu is left single.
// CUDA-LABEL: func.func @conv_intermediate_used(
// CUDA-NEXT:    %[[C:.*]] = call @conv_intermediate_used_fused_0(%arg0, %arg1)
// CUDA-NEXT:    %[[R:.*]] = relay.nn.relu %[[C]]
// CUDA-NEXT:    return %[[C]], %[[R]]
// CUDA-LABEL: func.func private @conv_intermediate_used_fused_0
// CUDA-SAME:    relay.fusion_pattern = "conv2d"
// CUDA-NEXT:    relay.nn.conv2d
// CUDA-NEXT:    return
func.func @conv_intermediate_used(%x: tensor<1x3x8x8xf16>, %w: tensor<4x3x3x3xf16>) -> (tensor<1x4x6x6xf16>, tensor<1x4x6x6xf16>) {
  %0 = relay.nn.conv2d %x, %w : (tensor<1x3x8x8xf16>, tensor<4x3x3x3xf16>)
  %1 = relay.nn.relu %0 : (tensor<1x4x6x6xf16>)
  return %0, %1 : tensor<1x4x6x6xf16>, tensor<1x4x6x6xf16>
}

// CUTLASS matmul_fusion (priority 9): matmul + bias + activation.
// CUDA-LABEL: func.func @dense_bias_relu(
// CUDA-NEXT:    call @dense_bias_relu_fused_0(%arg0, %arg1, %arg2)
// CUDA-NEXT:    return
// CUDA-LABEL: func.func private @dense_bias_relu_fused_0
// CUDA-SAME:    attributes {relay.backend = "cutlass", relay.fusion_pattern = "matmul_fusion", relay.primitive}
// CUDA-NEXT:    relay.nn.dense {{.*}}{relay.backend = "cutlass"}
// CUDA-NEXT:    relay.add {{.*}}{relay.backend = "cutlass"}
// CUDA-NEXT:    relay.nn.relu {{.*}}{relay.backend = "cutlass"}
// CUDA-NEXT:    return
func.func @dense_bias_relu(%a: tensor<4x8xf32>, %w: tensor<16x8xf32>, %b: tensor<16xf32>) -> tensor<4x16xf32> {
  %0 = relay.nn.dense %a, %w : (tensor<4x8xf32>, tensor<16x8xf32>)
  %1 = relay.add %0, %b : (tensor<4x16xf32>, tensor<16xf32>)
  %2 = relay.nn.relu %1 : (tensor<4x16xf32>)
  return %2 : tensor<4x16xf32>
}

// matmul + activation, no bias.
// CUDA-LABEL: func.func @matmul_gelu(
// CUDA-NEXT:    call @matmul_gelu_fused_0(%arg0, %arg1)
// CUDA-LABEL: func.func private @matmul_gelu_fused_0
// CUDA-SAME:    relay.fusion_pattern = "matmul_fusion"
// CUDA-NEXT:    relay.nn.matmul
// CUDA-NEXT:    relay.nn.gelu
// CUDA-NEXT:    return
func.func @matmul_gelu(%a: tensor<4x8xf32>, %b: tensor<8x16xf32>) -> tensor<4x16xf32> {
  %0 = relay.nn.matmul %a, %b : (tensor<4x8xf32>, tensor<8x16xf32>)
  %1 = relay.nn.gelu %0 : (tensor<4x16xf32>)
  return %1 : tensor<4x16xf32>
}

// batch_matmul + bias, no activation.
// CUDA-LABEL: func.func @batch_matmul_bias(
// CUDA-NEXT:    call @batch_matmul_bias_fused_0(%arg0, %arg1, %arg2)
// CUDA-LABEL: func.func private @batch_matmul_bias_fused_0
// CUDA-SAME:    relay.fusion_pattern = "matmul_fusion"
// CUDA-NEXT:    relay.nn.batch_matmul
// CUDA-NEXT:    relay.add
// CUDA-NEXT:    return
func.func @batch_matmul_bias(%a: tensor<2x4x8xf32>, %b: tensor<2x16x8xf32>, %c: tensor<16xf32>) -> tensor<2x4x16xf32> {
  %0 = relay.nn.batch_matmul %a, %b : (tensor<2x4x8xf32>, tensor<2x16x8xf32>)
  %1 = relay.add %0, %c : (tensor<2x4x16xf32>, tensor<16xf32>)
  return %1 : tensor<2x4x16xf32>
}

// A bias scaled by a scalar (shape () or (1,)) belongs to the match; a
// bias scaled by a tensor is a plain input and the multiply stays outside.
// CUDA-LABEL: func.func @scaled_bias(
// CUDA-NEXT:    %[[F:.*]] = call @scaled_bias_fused_0(%arg0, %arg1, %arg3, %arg2)
// CUDA-NEXT:    %[[S:.*]] = relay.multiply %arg4, %arg2
// CUDA-NEXT:    %[[G:.*]] = call @scaled_bias_fused_1(%arg0, %arg1, %[[S]])
// CUDA-NEXT:    return %[[F]], %[[G]]
// CUDA-LABEL: func.func private @scaled_bias_fused_0(%arg0: tensor<4x8xf32>, %arg1: tensor<16x8xf32>, %arg2: tensor<1xf32>, %arg3: tensor<16xf32>)
// CUDA-SAME:    relay.fusion_pattern = "matmul_fusion"
// CUDA-NEXT:    relay.nn.dense
// CUDA-NEXT:    relay.multiply %arg2, %arg3
// CUDA-NEXT:    relay.add
// CUDA-NEXT:    relay.nn.gelu
// CUDA-NEXT:    return
// CUDA-LABEL: func.func private @scaled_bias_fused_1
// CUDA-SAME:    relay.fusion_pattern = "matmul_fusion"
// CUDA-NEXT:    relay.nn.dense
// CUDA-NEXT:    relay.add
// CUDA-NEXT:    return
func.func @scaled_bias(%a: tensor<4x8xf32>, %w: tensor<16x8xf32>, %b: tensor<16xf32>, %beta: tensor<1xf32>, %vec: tensor<16xf32>) -> (tensor<4x16xf32>, tensor<4x16xf32>) {
  %0 = relay.nn.dense %a, %w : (tensor<4x8xf32>, tensor<16x8xf32>)
  %s = relay.multiply %beta, %b : (tensor<1xf32>, tensor<16xf32>)
  %1 = relay.add %0, %s : (tensor<4x16xf32>, tensor<16xf32>)
  %2 = relay.nn.gelu %1 : (tensor<4x16xf32>)
  %3 = relay.nn.dense %a, %w : (tensor<4x8xf32>, tensor<16x8xf32>)
  %t = relay.multiply %vec, %b : (tensor<16xf32>, tensor<16xf32>)
  %4 = relay.add %3, %t : (tensor<4x16xf32>, tensor<16xf32>)
  return %2, %4 : tensor<4x16xf32>, tensor<4x16xf32>
}

// A single matmul is excluded from matmul_fusion (cuBLAS is faster); it
// dispatches to cublas, so the linalg rules do not take it either.
// CUDA-LABEL: func.func @dense_single(
// CUDA-NEXT:    %[[D:.*]] = relay.nn.dense %arg0, %arg1 :
// CUDA-NEXT:    %[[S:.*]] = relay.nn.softmax %[[D]]
// CUDA-NEXT:    return %[[S]]
// CUDA-NOT:    @dense_single_fused
// CPU-LABEL: func.func @dense_single(
// CPU-NEXT:    relay.nn.dense
// CPU-NEXT:    relay.nn.softmax
// CPU-NEXT:    return
func.func @dense_single(%a: tensor<4x8xf32>, %w: tensor<16x8xf32>) -> tensor<4x16xf32> {
  %0 = relay.nn.dense %a, %w : (tensor<4x8xf32>, tensor<16x8xf32>)
  %1 = relay.nn.softmax %0 : (tensor<4x16xf32>)
  return %1 : tensor<4x16xf32>
}

// The add is used outside, so matmul + bias + relu is rejected at the relu;
// matmul + bias matches at the add, and relu alone is not wrapped.
// CUDA-LABEL: func.func @matmul_intermediate_used(
// CUDA-NEXT:    %[[F:.*]] = call @matmul_intermediate_used_fused_0(%arg0, %arg1, %arg2)
// CUDA-NEXT:    %[[R:.*]] = relay.nn.relu %[[F]]
// CUDA-NEXT:    return %[[F]], %[[R]]
// CUDA-LABEL: func.func private @matmul_intermediate_used_fused_0
// CUDA-NEXT:    relay.nn.dense
// CUDA-NEXT:    relay.add
// CUDA-NEXT:    return
func.func @matmul_intermediate_used(%a: tensor<4x8xf32>, %w: tensor<16x8xf32>, %b: tensor<16xf32>) -> (tensor<4x16xf32>, tensor<4x16xf32>) {
  %0 = relay.nn.dense %a, %w : (tensor<4x8xf32>, tensor<16x8xf32>)
  %1 = relay.add %0, %b : (tensor<4x16xf32>, tensor<16xf32>)
  %2 = relay.nn.relu %1 : (tensor<4x16xf32>)
  return %1, %2 : tensor<4x16xf32>, tensor<4x16xf32>
}
