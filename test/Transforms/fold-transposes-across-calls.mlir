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

// -----

// A kernel returning a value and a reshape of it (the depthwise weight
// gradient's [1, C, H, W] -> [C, 1, H, W] once lowered): the reshape moves
// to the callers, where it is a view, and the result goes; a result
// returned twice goes too. Bufferized, the callee would otherwise fill a
// second out-parameter with a copy of the whole tensor.
// CHECK-LABEL: func.func private @kernel(
// CHECK-SAME: -> (tensor<1x4x3x3xf32>, tensor<2xf32>)
// CHECK-NOT: expand_shape
// CHECK: return %[[V:.*]], %{{.*}} : tensor<1x4x3x3xf32>, tensor<2xf32>
// CHECK-LABEL: func.func @step(
// CHECK: %[[R:.*]]:2 = call @kernel(%arg0) : (tensor<1x4x3x3xf32>) -> (tensor<1x4x3x3xf32>, tensor<2xf32>)
// CHECK: %[[FLAT:.*]] = tensor.collapse_shape %[[R]]#0 {{\[\[}}0, 1, 2, 3]] : tensor<1x4x3x3xf32> into tensor<36xf32>
// CHECK: %[[VIEW:.*]] = tensor.expand_shape %[[FLAT]] {{\[\[}}0, 1, 2, 3]] output_shape [4, 1, 3, 3] : tensor<36xf32> into tensor<4x1x3x3xf32>
// CHECK: return %[[R]]#0, %[[VIEW]], %[[R]]#1, %[[R]]#0
func.func private @kernel(%x: tensor<1x4x3x3xf32>) -> (tensor<1x4x3x3xf32>, tensor<4x1x3x3xf32>, tensor<2xf32>, tensor<1x4x3x3xf32>) {
  %e = tensor.empty() : tensor<1x4x3x3xf32>
  %v = linalg.exp ins(%x : tensor<1x4x3x3xf32>) outs(%e : tensor<1x4x3x3xf32>) -> tensor<1x4x3x3xf32>
  %c = tensor.collapse_shape %v [[0, 1], [2], [3]] : tensor<1x4x3x3xf32> into tensor<4x3x3xf32>
  %r = tensor.expand_shape %c [[0, 1], [2], [3]] output_shape [4, 1, 3, 3] : tensor<4x3x3xf32> into tensor<4x1x3x3xf32>
  %s = tensor.empty() : tensor<2xf32>
  return %v, %r, %s, %v : tensor<1x4x3x3xf32>, tensor<4x1x3x3xf32>, tensor<2xf32>, tensor<1x4x3x3xf32>
}
func.func @step(%x: tensor<1x4x3x3xf32>) -> (tensor<1x4x3x3xf32>, tensor<4x1x3x3xf32>, tensor<2xf32>, tensor<1x4x3x3xf32>) {
  %0:4 = call @kernel(%x) : (tensor<1x4x3x3xf32>) -> (tensor<1x4x3x3xf32>, tensor<4x1x3x3xf32>, tensor<2xf32>, tensor<1x4x3x3xf32>)
  return %0#0, %0#1, %0#2, %0#3 : tensor<1x4x3x3xf32>, tensor<4x1x3x3xf32>, tensor<2xf32>, tensor<1x4x3x3xf32>
}

// -----

// Only the reshape is returned: the callee returns the value before it and
// each caller reshapes the call's result.
// CHECK-LABEL: func.func private @kernel(
// CHECK-SAME: -> tensor<1x6xf32>
// CHECK: return %{{.*}} : tensor<1x6xf32>
// CHECK-LABEL: func.func @step(
// CHECK: %[[A:.*]] = call @kernel(%arg0) : (tensor<1x6xf32>) -> tensor<1x6xf32>
// CHECK: %[[FA:.*]] = tensor.collapse_shape %[[A]] {{\[\[}}0, 1]] : tensor<1x6xf32> into tensor<6xf32>
// CHECK: %[[RA:.*]] = tensor.expand_shape %[[FA]] {{\[\[}}0, 1]] output_shape [2, 3] : tensor<6xf32> into tensor<2x3xf32>
// CHECK: %[[B:.*]] = call @kernel(%{{.*}}) : (tensor<1x6xf32>) -> tensor<1x6xf32>
// CHECK: %[[FB:.*]] = tensor.collapse_shape %[[B]]
// CHECK: %[[RB:.*]] = tensor.expand_shape %[[FB]]
// CHECK: return %[[RA]], %[[RB]] : tensor<2x3xf32>, tensor<2x3xf32>
func.func private @kernel(%x: tensor<1x6xf32>) -> tensor<2x3xf32> {
  %e = tensor.empty() : tensor<1x6xf32>
  %v = linalg.exp ins(%x : tensor<1x6xf32>) outs(%e : tensor<1x6xf32>) -> tensor<1x6xf32>
  %c = tensor.collapse_shape %v [[0, 1]] : tensor<1x6xf32> into tensor<6xf32>
  %r = tensor.expand_shape %c [[0, 1]] output_shape [2, 3] : tensor<6xf32> into tensor<2x3xf32>
  return %r : tensor<2x3xf32>
}
func.func @step(%x: tensor<1x6xf32>) -> (tensor<2x3xf32>, tensor<2x3xf32>) {
  %0 = call @kernel(%x) : (tensor<1x6xf32>) -> tensor<2x3xf32>
  %1 = tensor.collapse_shape %0 [[0, 1]] : tensor<2x3xf32> into tensor<6xf32>
  %2 = tensor.expand_shape %1 [[0, 1]] output_shape [1, 6] : tensor<6xf32> into tensor<1x6xf32>
  %3 = call @kernel(%2) : (tensor<1x6xf32>) -> tensor<2x3xf32>
  return %0, %3 : tensor<2x3xf32>, tensor<2x3xf32>
}

// -----

// A public function's results are its interface: left alone.
// CHECK-LABEL: func.func @api(
// CHECK-SAME: -> (tensor<1x4xf32>, tensor<4x1xf32>)
func.func @api(%x: tensor<1x4xf32>) -> (tensor<1x4xf32>, tensor<4x1xf32>) {
  %c = tensor.collapse_shape %x [[0, 1]] : tensor<1x4xf32> into tensor<4xf32>
  %r = tensor.expand_shape %c [[0, 1]] output_shape [4, 1] : tensor<4xf32> into tensor<4x1xf32>
  return %x, %r : tensor<1x4xf32>, tensor<4x1xf32>
}

// -----

// The same reshape returned twice (and another reshape of the same value):
// every result becomes a reshape in the caller and the callee's reshapes go,
// each erased once.
// CHECK-LABEL: func.func private @twice(
// CHECK-SAME: -> tensor<4xf32>
// CHECK-NOT: tensor.expand_shape
// CHECK: return %{{.*}} : tensor<4xf32>
// CHECK-LABEL: func.func @use_twice(
// CHECK: %[[V:.*]] = call @twice(%arg0) : (tensor<4xf32>) -> tensor<4xf32>
// CHECK-DAG: %[[A:.*]] = tensor.expand_shape %[[V]] {{\[\[}}0, 1]] output_shape [1, 4]
// CHECK-DAG: %[[B:.*]] = tensor.expand_shape %[[V]] {{\[\[}}0, 1]] output_shape [4, 1]
// CHECK-DAG: %[[C:.*]] = tensor.expand_shape %[[V]] {{\[\[}}0, 1]] output_shape [4, 1]
// CHECK: return %[[A]], {{%.*}}, {{%.*}} : tensor<1x4xf32>, tensor<4x1xf32>, tensor<4x1xf32>
func.func private @twice(%x: tensor<4xf32>) -> (tensor<1x4xf32>, tensor<4x1xf32>, tensor<4x1xf32>) {
  %y = math.exp %x : tensor<4xf32>
  %a = tensor.expand_shape %y [[0, 1]] output_shape [1, 4] : tensor<4xf32> into tensor<1x4xf32>
  %b = tensor.expand_shape %y [[0, 1]] output_shape [4, 1] : tensor<4xf32> into tensor<4x1xf32>
  return %a, %b, %b : tensor<1x4xf32>, tensor<4x1xf32>, tensor<4x1xf32>
}
func.func @use_twice(%x: tensor<4xf32>) -> (tensor<1x4xf32>, tensor<4x1xf32>, tensor<4x1xf32>) {
  %0:3 = call @twice(%x) : (tensor<4xf32>) -> (tensor<1x4xf32>, tensor<4x1xf32>, tensor<4x1xf32>)
  return %0#0, %0#1, %0#2 : tensor<1x4xf32>, tensor<4x1xf32>, tensor<4x1xf32>
}
