// RUN: raf-opt %s --raf-fuse=device=cuda | FileCheck %s --check-prefix=CUDA
// RUN: raf-opt %s --raf-fuse=device=cpu | FileCheck %s --check-prefix=CPU
// RUN: raf-opt %s --raf-fuse="device=cuda backend-preference=linalg" | FileCheck %s --check-prefix=CPU
// RUN: raf-opt %s --raf-backend-preference=linalg --raf-fuse=device=cuda | FileCheck %s --check-prefix=CPU
// RUN: raf-opt %s --raf-fuse="device=cuda backend-preference=cutlass,linalg" | FileCheck %s --check-prefix=PREF
// RUN: raf-opt %s --raf-fuse="device=cuda disable-backends=cutlass" | FileCheck %s --check-prefix=NOCUTLASS
// RUN: raf-opt %s --raf-disable-backends=cutlass --raf-fuse=device=cuda | FileCheck %s --check-prefix=NOCUTLASS
// RUN: raf-opt %s --raf-fuse="device=cuda disable-backends=cuda" | FileCheck %s --check-prefix=NOCUDA
// RUN: raf-opt %s --raf-fuse="device=cuda disable-backends=cuda,cutlass" | FileCheck %s --check-prefix=VENDORLESS
// RUN: raf-opt %s --raf-fuse="max-group-size=2" | FileCheck %s --check-prefix=MAX2
// RUN: raf-opt %s --raf-fuse="max-group-size=1" | FileCheck %s --check-prefix=MAX1

// The options of --raf-fuse on Fig. 6 in f16 and f32 and on a chain.

// CUDA-LABEL: func.func private @fig6_f16_fused_0
// CUDA-SAME:    relay.backend = "cutlass", relay.fusion_pattern = "conv2d_bias_relu_fp16"
// CUDA-LABEL: func.func private @fig6_f16_fused_1
// CUDA-SAME:    relay.backend = "linalg"
// CUDA-LABEL: func.func private @fig6_f32_fused_0
// CUDA-SAME:    relay.backend = "cuda", relay.fusion_pattern = "conv2d_bias_relu"
// CUDA-LABEL: func.func private @fig6_f32_fused_1
// CUDA-SAME:    relay.backend = "linalg"

// device=cpu, or only linalg preferred on cuda: one linalg group.
// CPU-LABEL: func.func private @fig6_f16_fused_0
// CPU-SAME:    attributes {relay.backend = "linalg", relay.primitive}
// CPU-NEXT:    relay.nn.conv2d
// CPU-NEXT:    relay.nn.relu
// CPU-NEXT:    relay.add
// CPU-NEXT:    relay.multiply
// CPU-NEXT:    return
// CPU-NOT:     @fig6_f16_fused_1
// CPU-LABEL: func.func private @fig6_f32_fused_0
// CPU-SAME:    attributes {relay.backend = "linalg", relay.primitive}
// CPU-NOT:     @fig6_f32_fused_1

// Preferring cutlass and linalg drops the cuda patterns: in f32 the
// CUTLASS pattern of priority 8 applies.
// PREF-LABEL: func.func private @fig6_f16_fused_0
// PREF-SAME:    relay.backend = "cutlass", relay.fusion_pattern = "conv2d_bias_relu_fp16"
// PREF-LABEL: func.func private @fig6_f32_fused_0
// PREF-SAME:    relay.backend = "cutlass", relay.fusion_pattern = "conv2d_bias_relu"
// PREF-LABEL: func.func private @fig6_f32_fused_1
// PREF-SAME:    relay.backend = "linalg"

// cutlass disabled: its fp16 pattern would win in f16; cuda's takes it.
// NOCUTLASS-LABEL: func.func private @fig6_f16_fused_0
// NOCUTLASS-SAME:    relay.backend = "cuda", relay.fusion_pattern = "conv2d_bias_relu"
// NOCUTLASS-LABEL: func.func private @fig6_f32_fused_0
// NOCUTLASS-SAME:    relay.backend = "cuda", relay.fusion_pattern = "conv2d_bias_relu"
// NOCUTLASS-NOT:     relay.backend = "cutlass"

// cuda disabled: in f32 the CUTLASS pattern of priority 8 applies.
// NOCUDA-LABEL: func.func private @fig6_f16_fused_0
// NOCUDA-SAME:    relay.backend = "cutlass", relay.fusion_pattern = "conv2d_bias_relu_fp16"
// NOCUDA-LABEL: func.func private @fig6_f32_fused_0
// NOCUDA-SAME:    relay.backend = "cutlass", relay.fusion_pattern = "conv2d_bias_relu"
// NOCUDA-NOT:     relay.backend = "cuda"

// No vendor patterns: conv2d dispatches to cudnn, so it is not eligible for
// the linalg rules; relu, add and multiply form the linalg group.
// VENDORLESS-LABEL: func.func @fig6_f16(
// VENDORLESS-NEXT:    %[[C:.*]] = relay.nn.conv2d %arg0, %arg1 :
// VENDORLESS-NEXT:    call @fig6_f16_fused_0(%[[C]], %arg2, %arg3)
// VENDORLESS-NEXT:    return
// VENDORLESS-LABEL: func.func private @fig6_f16_fused_0
// VENDORLESS-SAME:    attributes {relay.backend = "linalg", relay.primitive}
// VENDORLESS-NEXT:    relay.nn.relu
// VENDORLESS-NEXT:    relay.add
// VENDORLESS-NEXT:    relay.multiply
// VENDORLESS-NEXT:    return
func.func @fig6_f16(%x: tensor<1x3x8x8xf16>, %w: tensor<4x3x3x3xf16>, %y: tensor<1x4x6x6xf16>, %z: tensor<1x4x6x6xf16>) -> tensor<1x4x6x6xf16> {
  %1 = relay.nn.conv2d %x, %w : (tensor<1x3x8x8xf16>, tensor<4x3x3x3xf16>)
  %2 = relay.nn.relu %1 : (tensor<1x4x6x6xf16>)
  %3 = relay.add %2, %y : (tensor<1x4x6x6xf16>, tensor<1x4x6x6xf16>)
  %4 = relay.multiply %3, %z : (tensor<1x4x6x6xf16>, tensor<1x4x6x6xf16>)
  return %4 : tensor<1x4x6x6xf16>
}
func.func @fig6_f32(%x: tensor<1x3x8x8xf32>, %w: tensor<4x3x3x3xf32>, %y: tensor<1x4x6x6xf32>, %z: tensor<1x4x6x6xf32>) -> tensor<1x4x6x6xf32> {
  %1 = relay.nn.conv2d %x, %w : (tensor<1x3x8x8xf32>, tensor<4x3x3x3xf32>)
  %2 = relay.nn.relu %1 : (tensor<1x4x6x6xf32>)
  %3 = relay.add %2, %y : (tensor<1x4x6x6xf32>, tensor<1x4x6x6xf32>)
  %4 = relay.multiply %3, %z : (tensor<1x4x6x6xf32>, tensor<1x4x6x6xf32>)
  return %4 : tensor<1x4x6x6xf32>
}

// max-group-size=2 splits the chain of four into two groups (greedy, in
// program order); max-group-size=1 leaves every operator single.
// CPU-LABEL: func.func private @chain_fused_0
// CPU-NEXT:    relay.exp
// CPU-NEXT:    relay.negative
// CPU-NEXT:    relay.sqrt
// CPU-NEXT:    relay.tanh
// CPU-NEXT:    return
// MAX2-LABEL: func.func @chain(
// MAX2-NEXT:    %[[A:.*]] = call @chain_fused_0(%arg0)
// MAX2-NEXT:    %[[B:.*]] = call @chain_fused_1(%[[A]])
// MAX2-NEXT:    return %[[B]]
// MAX2-LABEL: func.func private @chain_fused_0
// MAX2-NEXT:    relay.exp
// MAX2-NEXT:    relay.negative
// MAX2-NEXT:    return
// MAX2-LABEL: func.func private @chain_fused_1
// MAX2-NEXT:    relay.sqrt
// MAX2-NEXT:    relay.tanh
// MAX2-NEXT:    return
// MAX1-LABEL: func.func @chain(
// MAX1-NEXT:    relay.exp
// MAX1-NEXT:    relay.negative
// MAX1-NEXT:    relay.sqrt
// MAX1-NEXT:    relay.tanh
// MAX1-NEXT:    return
// MAX1-NOT:     @chain_fused
func.func @chain(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = relay.exp %x : (tensor<4xf32>)
  %1 = relay.negative %0 : (tensor<4xf32>)
  %2 = relay.sqrt %1 : (tensor<4xf32>)
  %3 = relay.tanh %2 : (tensor<4xf32>)
  return %3 : tensor<4xf32>
}
