// RUN: raf-opt %s --convert-relay-to-linalg | FileCheck %s
// The result bufferizes and lowers to LLVM IR:
// RUN: raf-opt %s --convert-relay-to-linalg | mlir-opt %lower_to_llvm \
// RUN:   | mlir-translate --mlir-to-llvmir -o /dev/null
// And through the CPU pipeline raf-run uses:
// RUN: raf-opt %s --raf-cpu-pipeline -o /dev/null

// The pooling gradients (NNToLinalg.cpp). Both gather: a linalg.generic over
// (n, c, h, w, kh, kw) with the window position as reduction dimensions
// reads the output gradient of window ((h + pad - kh * dilation) / stride,
// ...) when that division is exact and in range.

// The argmax reads the padded input at (oh * 2 + kh, ow * 2 + kw).
// CHECK-DAG: #[[READ:.*]] = affine_map<(d0, d1, d2, d3, d4, d5) -> (d0, d1, d2 * 2 + d4, d3 * 2 + d5)>
// CHECK-DAG: #[[WINDOW:.*]] = affine_map<(d0, d1, d2, d3, d4, d5) -> (d4, d5)>
// CHECK-DAG: #[[OUTER:.*]] = affine_map<(d0, d1, d2, d3, d4, d5) -> (d0, d1, d2, d3)>

// max: the window position (kh * 3 + kw) of every window's maximum (-1
// until an in-bounds tap is seen), then the gather takes an output gradient
// where that position is (kh, kw).
// CHECK-LABEL: func.func @max_pool2d_grad
func.func @max_pool2d_grad(%g: tensor<1x2x4x4xf32>, %x: tensor<1x2x7x7xf32>) -> tensor<1x2x7x7xf32> {
  // ceil_mode: the last window reaches the padding's end (row 8 of 9).
  // CHECK: %[[PAD:.*]] = tensor.pad %arg1 low[0, 0, 1, 1] high[0, 0, 1, 1]
  // CHECK: %[[NONE:.*]] = arith.constant -1 : i64
  // CHECK: %[[NONE_FILLED:.*]] = linalg.fill ins(%[[NONE]] : i64)
  // CHECK: %[[ARGMAX:.*]]:2 = linalg.generic {indexing_maps = [#[[READ]], #[[WINDOW]], #[[OUTER]], #[[OUTER]]], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction", "reduction"]} ins(%[[PAD]], %{{.*}} : tensor<1x2x9x9xf32>, tensor<3x3xf32>) outs(%{{.*}}, %[[NONE_FILLED]] : tensor<1x2x4x4xf32>, tensor<1x2x4x4xi64>)
  // Taps in the padding never count; the first in-bounds tap starts, then a
  // strictly greater value or a NaN takes over.
  // CHECK: %[[FIRST:.*]] = arith.cmpi slt, %{{.*}}, %{{.*}} : i64
  // CHECK: %[[GREATER:.*]] = arith.cmpf ogt
  // CHECK: %[[NAN:.*]] = arith.cmpf uno
  // CHECK: %[[OR:.*]] = arith.ori %[[GREATER]], %[[NAN]]
  // CHECK: arith.ori %[[FIRST]], %[[OR]]
  // CHECK: linalg.yield
  // CHECK: linalg.generic {indexing_maps = [#[[WINDOW]], #[[OUTER]]], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction", "reduction"]} ins(%{{.*}} : tensor<3x3xf32>) outs(%{{.*}} : tensor<1x2x7x7xf32>)
  // CHECK: arith.divsi
  // CHECK: arith.remsi
  // CHECK: %[[POSITION:.*]] = tensor.extract %[[ARGMAX]]#1
  // CHECK: %[[IS_MAX:.*]] = arith.cmpi eq, %[[POSITION]]
  // CHECK: %[[G:.*]] = tensor.extract %arg0
  // CHECK: arith.select %[[IS_MAX]], %[[G]]
  // CHECK: arith.addf
  // CHECK-NOT: relay.
  %0 = relay.nn.max_pool2d_grad %g, %x {pool_size = array<i64: 3, 3>, strides = array<i64: 2, 2>, padding = array<i64: 1>, ceil_mode = true} : (tensor<1x2x4x4xf32>, tensor<1x2x7x7xf32>)
  return %0 : tensor<1x2x7x7xf32>
}

// avg in NHWC: the output gradient is transposed to NCHW, divided by the
// forward's divisors (4 in a corner, 6 on an edge, 9 inside), gathered, and
// the result transposed back.
// CHECK-LABEL: func.func @avg_pool2d_grad_nhwc
func.func @avg_pool2d_grad_nhwc(%g: tensor<1x4x4x2xf32>, %x: tensor<1x4x4x2xf32>) -> tensor<1x4x4x2xf32> {
  // CHECK: %[[G:.*]] = linalg.transpose ins(%arg0 : tensor<1x4x4x2xf32>) outs(%{{.*}} : tensor<1x2x4x4xf32>) permutation = [0, 3, 1, 2]
  // CHECK: %[[COUNT:.*]] = arith.constant dense<{{\[\[}}4.000000e+00, 6.000000e+00, 6.000000e+00, 4.000000e+00], [6.000000e+00, 9.000000e+00
  // CHECK: %[[SCALED:.*]] = linalg.generic {{.*}} ins(%[[G]], %[[COUNT]] : tensor<1x2x4x4xf32>, tensor<4x4xf32>)
  // CHECK: arith.divf
  // CHECK: %[[GRAD:.*]] = linalg.generic {indexing_maps = [#[[WINDOW]], #[[OUTER]]], {{.*}} ins(%{{.*}} : tensor<3x3xf32>) outs(%{{.*}} : tensor<1x2x4x4xf32>)
  // CHECK: %[[SHARE:.*]] = tensor.extract %[[SCALED]]
  // CHECK: %[[KEPT:.*]] = arith.select %{{.*}}, %[[SHARE]]
  // CHECK: arith.addf %{{.*}}, %[[KEPT]]
  // CHECK: linalg.transpose ins(%[[GRAD]] : tensor<1x2x4x4xf32>) outs(%{{.*}} : tensor<1x4x4x2xf32>) permutation = [0, 2, 3, 1]
  %0 = relay.nn.avg_pool2d_grad %g, %x {pool_size = array<i64: 3, 3>, padding = array<i64: 1>, layout = #relay.layout<NHWC>} : (tensor<1x4x4x2xf32>, tensor<1x4x4x2xf32>)
  return %0 : tensor<1x4x4x2xf32>
}

// A window with no input element (the padding exceeds the window) divides
// by 1, not 0: its gradient reaches no input element anyway, and the
// forward average of such a window is 0.
// CHECK-LABEL: func.func @avg_pool2d_grad_empty_window
func.func @avg_pool2d_grad_empty_window(%g: tensor<1x1x4x4xf32>, %x: tensor<1x1x2x2xf32>) -> tensor<1x1x2x2xf32> {
  // CHECK: arith.constant dense<1.000000e+00> : tensor<4x4xf32>
  %0 = relay.nn.avg_pool2d_grad %g, %x {pool_size = array<i64: 1, 1>, padding = array<i64: 1>} : (tensor<1x1x4x4xf32>, tensor<1x1x2x2xf32>)
  return %0 : tensor<1x1x2x2xf32>
}
