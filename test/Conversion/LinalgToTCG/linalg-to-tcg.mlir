// RUN: raf-opt %s --convert-linalg-to-tcg | FileCheck %s
// RUN: raf-opt %s --convert-linalg-to-tcg --convert-tcg-to-linalg | FileCheck %s --check-prefix=BACK

// linalg on tensors as torch-mlir emits a PyTorch convolution: the input
// zero-padded by tensor.pad, the output a zero fill. The pad becomes the
// kernel's padded view, the fill disappears, and the iterators are relay's
// nn.conv2d's (test/Conversion/RelayToTCG/conv2d.mlir).
// CHECK-LABEL: func.func @conv_nchw
// CHECK-NOT: tensor.pad
// CHECK-NOT: linalg
// CHECK: tcg.kernel "linalg.conv_2d_nchw_fchw" (%data = %arg0 : tensor<1x3x8x8xf32>, %weight = %arg1 : tensor<4x3x3x3xf32>) -> tensor<1x4x4x4xf32>
// CHECK: tcg.tensor %n in [0, 1) name "n" gemm_axis x
// CHECK: tcg.tensor %oc in [0, 4) name "oc" gemm_axis y
// CHECK: tcg.tensor %oh in [0, 4) name "oh"
// CHECK: tcg.tensor %ow in [0, 4) name "ow"
// CHECK: tcg.reduce add %ic in [0, 3) name "ic" gemm_axis z
// CHECK: tcg.reduce add %kh in [0, 3) name "kh"
// CHECK: tcg.reduce add %kw in [0, 3) name "kw"
// CHECK: tcg.input %data[%n, %ic, %oh * 2 + %kh, %ow * 2 + %kw] pad_low [0, 0, 1, 1] pad_high [0, 0, 1, 1] : tensor<1x3x8x8xf32>
// CHECK: tcg.input %weight[%oc, %ic, %kh, %kw] : tensor<4x3x3x3xf32>
// CHECK: tcg.compute mul
// CHECK-NOT: arith.constant
// CHECK: return
// BACK-LABEL: func.func @conv_nchw
// BACK: tensor.pad
// BACK: linalg.generic
func.func @conv_nchw(%x: tensor<1x3x8x8xf32>, %w: tensor<4x3x3x3xf32>) -> tensor<1x4x4x4xf32> {
  %cst = arith.constant 0.0 : f32
  %p = tensor.pad %x low[0, 0, 1, 1] high[0, 0, 1, 1] {
  ^bb0(%i: index, %j: index, %k: index, %l: index):
    tensor.yield %cst : f32
  } : tensor<1x3x8x8xf32> to tensor<1x3x10x10xf32>
  %e = tensor.empty() : tensor<1x4x4x4xf32>
  %f = linalg.fill ins(%cst : f32) outs(%e : tensor<1x4x4x4xf32>) -> tensor<1x4x4x4xf32>
  %r = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<2> : vector<2xi64>}
    ins(%p, %w : tensor<1x3x10x10xf32>, tensor<4x3x3x3xf32>) outs(%f : tensor<1x4x4x4xf32>) -> tensor<1x4x4x4xf32>
  return %r : tensor<1x4x4x4xf32>
}

// NHWC / HWCF with dilation: the output's order (n, oh, ow, oc), then the
// input channel before the filter loops, as relay's NHWC conv2d.
// CHECK-LABEL: func.func @conv_nhwc_dilated
// CHECK: tcg.kernel "linalg.conv_2d_nhwc_hwcf"
// CHECK: name "n" gemm_axis x
// CHECK: name "oh"
// CHECK: name "ow"
// CHECK: name "oc" gemm_axis y
// CHECK: name "ic" gemm_axis z
// CHECK: name "kh"
// CHECK: name "kw"
// CHECK: tcg.input %data[%n, %oh + %kh * 2, %ow + %kw * 2, %ic] : tensor<1x9x9x8xi8>
// CHECK: tcg.input %weight[%kh, %kw, %ic, %oc] : tensor<3x3x8x16xi8>
// CHECK: tcg.compute mul {{.*}} : (i8, i8) -> i32
func.func @conv_nhwc_dilated(%x: tensor<1x9x9x8xi8>, %w: tensor<3x3x8x16xi8>) -> tensor<1x5x5x16xi32> {
  %c0 = arith.constant 0 : i32
  %e = tensor.empty() : tensor<1x5x5x16xi32>
  %f = linalg.fill ins(%c0 : i32) outs(%e : tensor<1x5x5x16xi32>) -> tensor<1x5x5x16xi32>
  %r = linalg.conv_2d_nhwc_hwcf {dilations = dense<2> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
    ins(%x, %w : tensor<1x9x9x8xi8>, tensor<3x3x8x16xi8>) outs(%f : tensor<1x5x5x16xi32>) -> tensor<1x5x5x16xi32>
  return %r : tensor<1x5x5x16xi32>
}

// Depthwise: the channel is the output channel (y), and there is no input
// channel reduction, as for relay's depthwise conv2d.
// CHECK-LABEL: func.func @depthwise
// CHECK: tcg.kernel "linalg.depthwise_conv_2d_nchw_chw"
// CHECK: name "n" gemm_axis x
// CHECK: name "oc" gemm_axis y
// CHECK-NOT: name "ic"
// CHECK: tcg.input %data[%n, %oc, %oh + %kh, %ow + %kw] : tensor<1x8x6x6xf32>
// CHECK: tcg.input %weight[%oc, %kh, %kw] : tensor<8x3x3xf32>
func.func @depthwise(%x: tensor<1x8x6x6xf32>, %w: tensor<8x3x3xf32>) -> tensor<1x8x4x4xf32> {
  %cst = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x8x4x4xf32>
  %f = linalg.fill ins(%cst : f32) outs(%e : tensor<1x8x4x4xf32>) -> tensor<1x8x4x4xf32>
  %r = linalg.depthwise_conv_2d_nchw_chw {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
    ins(%x, %w : tensor<1x8x6x6xf32>, tensor<8x3x3xf32>) outs(%f : tensor<1x8x4x4xf32>) -> tensor<1x8x4x4xf32>
  return %r : tensor<1x8x4x4xf32>
}

// A bias broadcast into the output (torch-mlir's conv with bias, or an
// accumulating matmul): the kernel computes the product, linalg.add adds
// the output operand.
// CHECK-LABEL: func.func @batch_matmul_accumulate
// CHECK: %[[K:.*]] = tcg.kernel "linalg.batch_matmul" (%a = %arg0 : tensor<2x4x8xf32>, %b = %arg1 : tensor<2x8x16xf32>)
// CHECK: name "batch"
// CHECK: name "m" gemm_axis x
// CHECK: name "n" gemm_axis y
// CHECK: name "k" gemm_axis z
// CHECK: %[[E:.*]] = tensor.empty() : tensor<2x4x16xf32>
// CHECK: %[[S:.*]] = linalg.add ins(%[[K]], %arg2 : tensor<2x4x16xf32>, tensor<2x4x16xf32>) outs(%[[E]] : tensor<2x4x16xf32>)
// CHECK: return %[[S]]
func.func @batch_matmul_accumulate(%a: tensor<2x4x8xf32>, %b: tensor<2x8x16xf32>, %c: tensor<2x4x16xf32>) -> tensor<2x4x16xf32> {
  %r = linalg.batch_matmul ins(%a, %b : tensor<2x4x8xf32>, tensor<2x8x16xf32>) outs(%c : tensor<2x4x16xf32>) -> tensor<2x4x16xf32>
  return %r : tensor<2x4x16xf32>
}

// A linalg.generic multiply-accumulate with a transposed output: the
// iterators follow the output, the body's operand order does not matter.
// CHECK-LABEL: func.func @generic_transposed_output
// CHECK: tcg.kernel "linalg.generic" (%a = %arg0 : tensor<4x8xf32>, %b = %arg1 : tensor<8x6xf32>) -> tensor<6x4xf32>
// CHECK: tcg.tensor %n in [0, 6) name "n" gemm_axis y
// CHECK: tcg.tensor %m in [0, 4) name "m" gemm_axis x
// CHECK: tcg.reduce add %k in [0, 8) name "k" gemm_axis z
// CHECK: tcg.input %a[%m, %k]
// CHECK: tcg.input %b[%k, %n]
#a = affine_map<(m, n, k) -> (m, k)>
#b = affine_map<(m, n, k) -> (k, n)>
#t = affine_map<(m, n, k) -> (n, m)>
func.func @generic_transposed_output(%a: tensor<4x8xf32>, %b: tensor<8x6xf32>) -> tensor<6x4xf32> {
  %cst = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<6x4xf32>
  %f = linalg.fill ins(%cst : f32) outs(%e : tensor<6x4xf32>) -> tensor<6x4xf32>
  %r = linalg.generic {indexing_maps = [#a, #b, #t], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%a, %b : tensor<4x8xf32>, tensor<8x6xf32>) outs(%f : tensor<6x4xf32>) {
  ^bb0(%x: f32, %y: f32, %acc: f32):
    %0 = arith.mulf %y, %x : f32
    %1 = arith.addf %0, %acc : f32
    linalg.yield %1 : f32
  } -> tensor<6x4xf32>
  return %r : tensor<6x4xf32>
}

// Element-wise generics (a ReLU) are not multiply-accumulates: left alone,
// without a remark.
// CHECK-LABEL: func.func @relu_after_matmul
// CHECK: tcg.kernel "linalg.matmul"
// CHECK: linalg.generic
// CHECK: arith.maximumf
func.func @relu_after_matmul(%a: tensor<4x8xf32>, %b: tensor<8x6xf32>) -> tensor<4x6xf32> {
  %cst = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<4x6xf32>
  %f = linalg.fill ins(%cst : f32) outs(%e : tensor<4x6xf32>) -> tensor<4x6xf32>
  %m = linalg.matmul ins(%a, %b : tensor<4x8xf32>, tensor<8x6xf32>) outs(%f : tensor<4x6xf32>) -> tensor<4x6xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]}
      ins(%m : tensor<4x6xf32>) outs(%e : tensor<4x6xf32>) {
  ^bb0(%x: f32, %o: f32):
    %0 = arith.maximumf %x, %cst : f32
    linalg.yield %0 : f32
  } -> tensor<4x6xf32>
  return %r : tensor<4x6xf32>
}
