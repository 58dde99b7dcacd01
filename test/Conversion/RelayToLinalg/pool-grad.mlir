// RUN: raf-opt %s --convert-relay-to-linalg | FileCheck %s
// The result bufferizes and lowers to LLVM IR:
// RUN: raf-opt %s --convert-relay-to-linalg | mlir-opt %lower_to_llvm \
// RUN:   | mlir-translate --mlir-to-llvmir -o /dev/null
// And through the CPU pipeline raf-run uses:
// RUN: raf-opt %s --raf-cpu-pipeline -o /dev/null

// The pooling gradients (NNToLinalg.cpp). avg scatters: for each window
// position (kh, kw), an element-wise linalg.generic over the output windows
// adds their contribution into the strided plane of the padded input that
// the position reads (rows kh * dilation + oh * stride), and the padding is
// cropped at the end. max loops over the windows and scatters each one's
// gradient to its maximum.

// max: loops over (n, c, oh, ow) carrying the zero result, in them loops
// over the 3x3 taps finding the maximum's row and column, then the window's
// gradient added there. No padded copy: taps outside the 7x7 input (row
// oh * 2 - 1 + kh) are skipped by comparisons.
// CHECK-LABEL: func.func @max_pool2d_grad
func.func @max_pool2d_grad(%g: tensor<1x2x4x4xf32>, %x: tensor<1x2x7x7xf32>) -> tensor<1x2x7x7xf32> {
  // CHECK-NOT: tensor.pad
  // CHECK: %[[ZERO:.*]] = linalg.fill ins(%{{.*}} : f32) outs(%{{.*}} : tensor<1x2x7x7xf32>)
  // CHECK: scf.for %[[N:.*]] = %{{.*}} iter_args(%{{.*}} = %[[ZERO]]) -> (tensor<1x2x7x7xf32>)
  // CHECK: scf.for %[[C:.*]] = %{{.*}} to %c2
  // CHECK: scf.for %[[OH:.*]] = %{{.*}} to %c4
  // CHECK: scf.for %[[OW:.*]] = %{{.*}} to %c4{{.*}} iter_args(%[[RESULT:.*]] = %{{.*}}) -> (tensor<1x2x7x7xf32>)
  // CHECK: %[[BEST:.*]]:4 = scf.for {{.*}} to %c3 {{.*}} -> (f32, index, index, i1)
  // CHECK: scf.for {{.*}} to %c3{{.*}} -> (f32, index, index, i1)
  // CHECK: arith.select %[[INSIDE:[^,]*]], %{{.*}}, %c0 : index
  // CHECK: %[[X:.*]] = tensor.extract %arg1[%[[N]], %[[C]], %{{.*}}, %{{.*}}]
  // The first in-bounds tap starts, then a strictly greater value or a NaN
  // takes over.
  // CHECK: %[[GREATER:.*]] = arith.cmpf ogt, %[[X]]
  // CHECK: %[[NAN:.*]] = arith.cmpf uno, %[[X]], %[[X]]
  // CHECK: %[[FIRST:.*]] = arith.xori
  // CHECK: %[[OR:.*]] = arith.ori %[[GREATER]], %[[NAN]]
  // CHECK: %[[EITHER:.*]] = arith.ori %[[FIRST]], %[[OR]]
  // CHECK: arith.andi %[[INSIDE]], %[[EITHER]]
  // CHECK: %[[G:.*]] = tensor.extract %arg0[%[[N]], %[[C]], %[[OH]], %[[OW]]]
  // CHECK: %[[OLD:.*]] = tensor.extract %[[RESULT]][%[[N]], %[[C]], %[[BEST]]#1, %[[BEST]]#2]
  // CHECK: %[[KEPT:.*]] = arith.select %[[BEST]]#3, %[[G]]
  // CHECK: %[[SUM:.*]] = arith.addf %[[OLD]], %[[KEPT]]
  // CHECK: tensor.insert %[[SUM]] into %[[RESULT]][%[[N]], %[[C]], %[[BEST]]#1, %[[BEST]]#2]
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
