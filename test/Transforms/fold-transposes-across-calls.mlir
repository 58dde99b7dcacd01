// RUN: raf-opt --split-input-file --raf-fold-transposes-across-calls %s | FileCheck %s

// A weight gradient laid out [I, O, KH, KW] by its primitive function and
// transposed back to [O, I, KH, KW] by every caller: the callee returns the
// value before its transpose and the callers' transposes go.
// CHECK-LABEL: func.func private @grad(
// CHECK-SAME: -> tensor<4x3x2x2xf32>
// CHECK-NOT: linalg.transpose
// CHECK: return %arg0 : tensor<4x3x2x2xf32>
// CHECK-LABEL: func.func @step(
// CHECK: %[[A:.*]] = call @grad(%arg0) : (tensor<4x3x2x2xf32>) -> tensor<4x3x2x2xf32>
// CHECK: %[[B:.*]] = call @grad(%arg1) : (tensor<4x3x2x2xf32>) -> tensor<4x3x2x2xf32>
// CHECK-NOT: linalg.transpose
// CHECK: return %[[A]], %[[B]]
func.func private @grad(%y: tensor<4x3x2x2xf32>) -> tensor<3x4x2x2xf32> {
  %e = tensor.empty() : tensor<3x4x2x2xf32>
  %t = linalg.transpose ins(%y : tensor<4x3x2x2xf32>) outs(%e : tensor<3x4x2x2xf32>) permutation = [1, 0, 2, 3]
  return %t : tensor<3x4x2x2xf32>
}
func.func @step(%a: tensor<4x3x2x2xf32>, %b: tensor<4x3x2x2xf32>) -> (tensor<4x3x2x2xf32>, tensor<4x3x2x2xf32>) {
  %0 = call @grad(%a) : (tensor<4x3x2x2xf32>) -> tensor<3x4x2x2xf32>
  %e0 = tensor.empty() : tensor<4x3x2x2xf32>
  %1 = linalg.transpose ins(%0 : tensor<3x4x2x2xf32>) outs(%e0 : tensor<4x3x2x2xf32>) permutation = [1, 0, 2, 3]
  %2 = call @grad(%b) : (tensor<4x3x2x2xf32>) -> tensor<3x4x2x2xf32>
  %e1 = tensor.empty() : tensor<4x3x2x2xf32>
  %3 = linalg.transpose ins(%2 : tensor<3x4x2x2xf32>) outs(%e1 : tensor<4x3x2x2xf32>) permutation = [1, 0, 2, 3]
  return %1, %3 : tensor<4x3x2x2xf32>, tensor<4x3x2x2xf32>
}

// -----

// One caller uses the transposed result itself: nothing changes.
// CHECK-LABEL: func.func private @grad(
// CHECK-SAME: -> tensor<3x4x2x2xf32>
// CHECK: linalg.transpose
// CHECK-LABEL: func.func @step(
// CHECK: linalg.transpose
// CHECK: return
func.func private @grad(%y: tensor<4x3x2x2xf32>) -> tensor<3x4x2x2xf32> {
  %e = tensor.empty() : tensor<3x4x2x2xf32>
  %t = linalg.transpose ins(%y : tensor<4x3x2x2xf32>) outs(%e : tensor<3x4x2x2xf32>) permutation = [1, 0, 2, 3]
  return %t : tensor<3x4x2x2xf32>
}
func.func @step(%a: tensor<4x3x2x2xf32>, %b: tensor<4x3x2x2xf32>) -> (tensor<4x3x2x2xf32>, tensor<3x4x2x2xf32>) {
  %0 = call @grad(%a) : (tensor<4x3x2x2xf32>) -> tensor<3x4x2x2xf32>
  %e0 = tensor.empty() : tensor<4x3x2x2xf32>
  %1 = linalg.transpose ins(%0 : tensor<3x4x2x2xf32>) outs(%e0 : tensor<4x3x2x2xf32>) permutation = [1, 0, 2, 3]
  %2 = call @grad(%b) : (tensor<4x3x2x2xf32>) -> tensor<3x4x2x2xf32>
  return %1, %2 : tensor<4x3x2x2xf32>, tensor<3x4x2x2xf32>
}

// -----

// The caller's transpose is not the inverse (a 3-cycle applied twice).
// CHECK-LABEL: func.func private @cycle(
// CHECK: linalg.transpose
// CHECK-LABEL: func.func @use(
// CHECK: linalg.transpose
func.func private @cycle(%y: tensor<2x3x4xf32>) -> tensor<3x4x2xf32> {
  %e = tensor.empty() : tensor<3x4x2xf32>
  %t = linalg.transpose ins(%y : tensor<2x3x4xf32>) outs(%e : tensor<3x4x2xf32>) permutation = [1, 2, 0]
  return %t : tensor<3x4x2xf32>
}
func.func @use(%a: tensor<2x3x4xf32>) -> tensor<4x2x3xf32> {
  %0 = call @cycle(%a) : (tensor<2x3x4xf32>) -> tensor<3x4x2xf32>
  %e = tensor.empty() : tensor<4x2x3xf32>
  %1 = linalg.transpose ins(%0 : tensor<3x4x2xf32>) outs(%e : tensor<4x2x3xf32>) permutation = [1, 2, 0]
  return %1 : tensor<4x2x3xf32>
}

// -----

// A stride-2 convolution's weight gradient: computed [I, O, 4, 4], cut to
// the 3x3 kernel, then transposed back. The cut becomes a slice of the
// callee's [O, I, 4, 4] value with its offsets, sizes and strides permuted.
// CHECK-LABEL: func.func private @grad4(
// CHECK-SAME: -> tensor<4x3x4x4xf32>
// CHECK-NOT: linalg.transpose
// CHECK-LABEL: func.func @cut(
// CHECK: %[[G:.*]] = call @grad4(%arg0) : (tensor<4x3x4x4xf32>) -> tensor<4x3x4x4xf32>
// CHECK: %[[S:.*]] = tensor.extract_slice %[[G]][0, 0, 1, 0] [4, 3, 3, 3] [1, 1, 1, 1] : tensor<4x3x4x4xf32> to tensor<4x3x3x3xf32>
// CHECK-NOT: linalg.transpose
// CHECK: return %[[S]]
func.func private @grad4(%y: tensor<4x3x4x4xf32>) -> tensor<3x4x4x4xf32> {
  %e = tensor.empty() : tensor<3x4x4x4xf32>
  %t = linalg.transpose ins(%y : tensor<4x3x4x4xf32>) outs(%e : tensor<3x4x4x4xf32>) permutation = [1, 0, 2, 3]
  return %t : tensor<3x4x4x4xf32>
}
func.func @cut(%a: tensor<4x3x4x4xf32>) -> tensor<4x3x3x3xf32> {
  %0 = call @grad4(%a) : (tensor<4x3x4x4xf32>) -> tensor<3x4x4x4xf32>
  %1 = tensor.extract_slice %0[0, 0, 1, 0] [3, 4, 3, 3] [1, 1, 1, 1] : tensor<3x4x4x4xf32> to tensor<3x4x3x3xf32>
  %e = tensor.empty() : tensor<4x3x3x3xf32>
  %2 = linalg.transpose ins(%1 : tensor<3x4x3x3xf32>) outs(%e : tensor<4x3x3x3xf32>) permutation = [1, 0, 2, 3]
  return %2 : tensor<4x3x3x3xf32>
}

// -----

// A caller's transpose back that writes into the call result itself (the
// result as both ins and outs) is not a use the pass can replace: nothing
// changes (it appeared twice among the result's users and was erased twice).
// CHECK-LABEL: func.func private @self_init(
// CHECK-SAME: -> tensor<4x4xf32>
// CHECK: %[[T:.*]] = linalg.transpose
// CHECK: return %[[T]]
// CHECK-LABEL: func.func @self_init_use(
// CHECK: %[[R:.*]] = call @self_init(%arg0)
// CHECK: linalg.transpose ins(%[[R]] : tensor<4x4xf32>) outs(%[[R]] : tensor<4x4xf32>) permutation = [1, 0]
func.func private @self_init(%y: tensor<4x4xf32>) -> tensor<4x4xf32> {
  %e = tensor.empty() : tensor<4x4xf32>
  %t = linalg.transpose ins(%y : tensor<4x4xf32>) outs(%e : tensor<4x4xf32>) permutation = [1, 0]
  return %t : tensor<4x4xf32>
}
func.func @self_init_use(%a: tensor<4x4xf32>) -> tensor<4x4xf32> {
  %0 = call @self_init(%a) : (tensor<4x4xf32>) -> tensor<4x4xf32>
  %1 = linalg.transpose ins(%0 : tensor<4x4xf32>) outs(%0 : tensor<4x4xf32>) permutation = [1, 0]
  return %1 : tensor<4x4xf32>
}

// -----

// A slice between a 3-cycle transpose (1, 2, 0) and its inverse (2, 0, 1),
// with distinct offsets and strides: entry j of the new slice is entry
// (2, 0, 1)[j] of the old one, so offsets [1, 2, 1] -> [1, 1, 2], sizes
// [2, 3, 2] -> [2, 2, 3], strides [2, 1, 1] -> [1, 2, 1] (permuting by
// (1, 2, 0) instead would give [2, 1, 1] [3, 2, 2] [1, 1, 2]).
// CHECK-LABEL: func.func private @cycle3(
// CHECK-SAME: -> tensor<4x6x8xf32>
// CHECK-NOT: linalg.transpose
// CHECK: return %arg0 : tensor<4x6x8xf32>
// CHECK-LABEL: func.func @cycle3_cut(
// CHECK: %[[G:.*]] = call @cycle3(%arg0) : (tensor<4x6x8xf32>) -> tensor<4x6x8xf32>
// CHECK-NOT: linalg.transpose
// CHECK: %[[S:.*]] = tensor.extract_slice %[[G]][1, 1, 2] [2, 2, 3] [1, 2, 1] : tensor<4x6x8xf32> to tensor<2x2x3xf32>
// CHECK-NOT: linalg.transpose
// CHECK: return %[[S]]
func.func private @cycle3(%y: tensor<4x6x8xf32>) -> tensor<6x8x4xf32> {
  %e = tensor.empty() : tensor<6x8x4xf32>
  %t = linalg.transpose ins(%y : tensor<4x6x8xf32>) outs(%e : tensor<6x8x4xf32>) permutation = [1, 2, 0]
  return %t : tensor<6x8x4xf32>
}
func.func @cycle3_cut(%a: tensor<4x6x8xf32>) -> tensor<2x2x3xf32> {
  %0 = call @cycle3(%a) : (tensor<4x6x8xf32>) -> tensor<6x8x4xf32>
  %1 = tensor.extract_slice %0[1, 2, 1] [2, 3, 2] [2, 1, 1] : tensor<6x8x4xf32> to tensor<2x3x2xf32>
  %e = tensor.empty() : tensor<2x2x3xf32>
  %2 = linalg.transpose ins(%1 : tensor<2x3x2xf32>) outs(%e : tensor<2x2x3xf32>) permutation = [2, 0, 1]
  return %2 : tensor<2x2x3xf32>
}
