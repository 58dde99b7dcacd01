// RUN: raf-opt %s --convert-relay-to-linalg | FileCheck %s
// The result bufferizes and lowers to LLVM IR:
// RUN: raf-opt %s --convert-relay-to-linalg | mlir-opt %lower_to_llvm \
// RUN:   | mlir-translate --mlir-to-llvmir -o /dev/null
// And through the CPU pipeline raf-run uses:
// RUN: raf-opt %s --raf-cpu-pipeline -o /dev/null

// The pooling gradients (NNToLinalg.cpp). Both scatter: for each window
// position (kh, kw), an element-wise linalg.generic over the output windows
// adds their contribution into the strided plane of the padded input that
// the position reads (rows kh * dilation + oh * stride), and the padding is
// cropped at the end.

// The argmax reads the padded input at (oh * 2 + kh, ow * 2 + kw).
// CHECK-DAG: #[[READ:.*]] = affine_map<(d0, d1, d2, d3, d4, d5) -> (d0, d1, d2 * 2 + d4, d3 * 2 + d5)>
// CHECK-DAG: #[[WINDOW:.*]] = affine_map<(d0, d1, d2, d3, d4, d5) -> (d4, d5)>
// CHECK-DAG: #[[OUTER:.*]] = affine_map<(d0, d1, d2, d3, d4, d5) -> (d0, d1, d2, d3)>

// max: the window position (kh * 3 + kw) of every window's maximum (-1
// until an in-bounds tap is seen), then tap (kh, kw) adds the output
// gradients of the windows whose maximum it is.
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
  // Tap (0, 0) = position 0 reads plane rows 0, 2, 4, 6 of the 9x9 buffer.
  // CHECK: %[[SUM:.*]] = linalg.fill ins(%{{.*}} : f32) outs(%{{.*}} : tensor<1x2x9x9xf32>)
  // CHECK: %[[PLANE:.*]] = tensor.extract_slice %[[SUM]][0, 0, 0, 0] [1, 2, 4, 4] [1, 1, 2, 2]
  // CHECK: linalg.generic {{.*}} iterator_types = ["parallel", "parallel", "parallel", "parallel"]} outs(%[[PLANE]] : tensor<1x2x4x4xf32>)
  // CHECK: %[[POSITION:.*]] = tensor.extract %[[ARGMAX]]#1
  // CHECK: %[[TAP:.*]] = arith.constant 0 : i64
  // CHECK: %[[IS_MAX:.*]] = arith.cmpi eq, %[[POSITION]], %[[TAP]]
  // CHECK: %[[G:.*]] = tensor.extract %arg0
  // CHECK: %[[KEPT:.*]] = arith.select %[[IS_MAX]], %[[G]]
  // CHECK: arith.addf %{{.*}}, %[[KEPT]]
  // CHECK: tensor.insert_slice %{{.*}} into %[[SUM]][0, 0, 0, 0] [1, 2, 4, 4] [1, 1, 2, 2]
  // The last tap (2, 2) = position 8, then the padding is cropped.
  // CHECK: tensor.extract_slice %{{.*}}[0, 0, 2, 2] [1, 2, 4, 4] [1, 1, 2, 2]
  // CHECK: arith.constant 8 : i64
  // CHECK: %[[LAST:.*]] = tensor.insert_slice %{{.*}}[0, 0, 2, 2] [1, 2, 4, 4] [1, 1, 2, 2]
  // CHECK: tensor.extract_slice %[[LAST]][0, 0, 1, 1] [1, 2, 7, 7] [1, 1, 1, 1] : tensor<1x2x9x9xf32> to tensor<1x2x7x7xf32>
  // CHECK-NOT: relay.
  %0 = relay.nn.max_pool2d_grad %g, %x {pool_size = array<i64: 3, 3>, strides = array<i64: 2, 2>, padding = array<i64: 1>, ceil_mode = true} : (tensor<1x2x4x4xf32>, tensor<1x2x7x7xf32>)
  return %0 : tensor<1x2x7x7xf32>
}

// avg in NHWC: the output gradient is transposed to NCHW, divided by the
// forward's divisors (4 in a corner, 6 on an edge, 9 inside), scattered,
// and the result transposed back.
// CHECK-LABEL: func.func @avg_pool2d_grad_nhwc
func.func @avg_pool2d_grad_nhwc(%g: tensor<1x4x4x2xf32>, %x: tensor<1x4x4x2xf32>) -> tensor<1x4x4x2xf32> {
  // CHECK: %[[G:.*]] = linalg.transpose ins(%arg0 : tensor<1x4x4x2xf32>) outs(%{{.*}} : tensor<1x2x4x4xf32>) permutation = [0, 3, 1, 2]
  // CHECK: %[[COUNT:.*]] = arith.constant dense<{{\[\[}}4.000000e+00, 6.000000e+00, 6.000000e+00, 4.000000e+00], [6.000000e+00, 9.000000e+00
  // CHECK: %[[SCALED:.*]] = linalg.generic {{.*}} ins(%[[G]], %[[COUNT]] : tensor<1x2x4x4xf32>, tensor<4x4xf32>)
  // CHECK: arith.divf
  // CHECK: linalg.fill ins(%{{.*}} : f32) outs(%{{.*}} : tensor<1x2x6x6xf32>)
  // CHECK: linalg.generic {{.*}} outs(%{{.*}} : tensor<1x2x4x4xf32>)
  // CHECK: %[[SHARE:.*]] = tensor.extract %[[SCALED]]
  // CHECK: arith.addf %{{.*}}, %[[SHARE]]
  // The last tap (2, 2), then the interior (stride 1: tap (1, 1) reads the
  // same plane as the crop).
  // CHECK: tensor.insert_slice %{{.*}}[0, 0, 2, 2] [1, 2, 4, 4] [1, 1, 1, 1]
  // CHECK: %[[GRAD:.*]] = tensor.extract_slice %{{.*}}[0, 0, 1, 1] [1, 2, 4, 4] [1, 1, 1, 1] : tensor<1x2x6x6xf32> to tensor<1x2x4x4xf32>
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
