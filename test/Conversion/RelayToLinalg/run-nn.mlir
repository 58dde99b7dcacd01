// Runs lowered convolutions, matrix products and pooling on the CPU.
// Generated from PyTorch: every printed value below is the PyTorch result
// (torch.nn.functional) for the same literals, to 6 significant digits.
// REQUIRES: mlir-runner
// RUN: raf-opt %s --convert-relay-to-linalg | mlir-opt %lower_to_llvm \
// RUN: | mlir-runner -e main -entry-point-result=void %mlir_runner_libs \
// RUN: | FileCheck %s

// nn.conv2d, stride 2, padding 1
// CHECK: rank = 4 offset = 0 sizes = [1, 1, 2, 2]
// CHECK-NEXT: {{\[\[}}{{\[\[}}3.25,   -2.25],
// CHECK-NEXT: [-1,   -1.75{{\]\]}}{{\]\]}}
// nn.conv2d, groups 2, dilation 2, padding 2
// CHECK: rank = 4 offset = 0 sizes = [1, 2, 4, 4]
// CHECK-NEXT: {{\[\[}}{{\[\[}}1.5,   0.875,   -4.75,   -3.875],
// CHECK-NEXT: [-1,   -1.625,   -1.25,   -0.375],
// CHECK-NEXT: [0.5,   -0.125,   -1.75,   -0.875],
// CHECK-NEXT: [-2,   -2.625,   1.75,   2.625{{\]\]}},
// CHECK-NEXT: {{\[\[}}0.5,   0.65625,   -0.4375,   -0.65625],
// CHECK-NEXT: [-0.125,   0.03125,   0.4375,   0.21875],
// CHECK-NEXT: [0.25,   0.40625,   0.3125,   0.09375],
// CHECK-NEXT: [-0.375,   -0.21875,   1.1875,   0.96875{{\]\]}}{{\]\]}}
// nn.conv2d, i8 x i8 -> i32
// CHECK: rank = 4 offset = 0 sizes = [1, 1, 2, 2]
// CHECK-NEXT: {{\[\[}}{{\[\[}}-28956,   8181],
// CHECK-NEXT: [216,   -12157{{\]\]}}{{\]\]}}
// nn.conv2d_transpose, stride 2, padding 1, output_padding 1 (a view of
// the uncropped col2im sum, hence the offset)
// CHECK: rank = 4 offset = 6 sizes = [1, 1, 4, 4] strides = [25, 25, 5, 1]
// CHECK-NEXT: {{\[\[}}{{\[\[}}0.5,   -6,   -1,   4],
// CHECK-NEXT: [0,   -0.5,   0,   -1],
// CHECK-NEXT: [0.25,   5,   1.5,   -6],
// CHECK-NEXT: [0,   2.5,   0,   -3{{\]\]}}{{\]\]}}
// nn.dense
// CHECK: rank = 2 offset = 0 sizes = [2, 3]
// CHECK-NEXT: {{\[\[}}-0.5,   -1.875,   -0.5],
// CHECK-NEXT: [-0.5,   -1.375,   -0.5{{\]\]}}
// nn.batch_matmul (transpose_b)
// CHECK: rank = 3 offset = 0 sizes = [1, 2, 3]
// CHECK-NEXT: {{\[\[}}[4.375,   -2.125,   -8.625],
// CHECK-NEXT: [1.875,   -0.625,   -3.125{{\]\]}}]
// nn.max_pool2d, ceil_mode
// CHECK: rank = 4 offset = 0 sizes = [1, 1, 2, 2]
// CHECK-NEXT: {{\[\[}}{{\[\[}}0.5,   0.75],
// CHECK-NEXT: [1.5,   1.75{{\]\]}}{{\]\]}}
// nn.avg_pool2d, padding 1, count_include_pad = false
// CHECK: rank = 4 offset = 0 sizes = [1, 1, 2, 2]
// CHECK-NEXT: {{\[\[}}{{\[\[}}-1.375,   -1],
// CHECK-NEXT: [0.125,   0.5{{\]\]}}{{\]\]}}
// nn.max_pool2d_grad: out_grad is powers of two, so every sum shows which
// windows chose the element (9 = 1 + 8: the tie 3, 3 goes to the first).
// The gradients are the interior of a padded buffer (a view, offset 8).
// CHECK: rank = 4 offset = {{[0-9]+}} sizes = [1, 1, 4, 4]
// CHECK-NEXT: {{\[\[}}{{\[\[}}0,   0,   0,   4],
// CHECK-NEXT: [9,   18,   0,   0],
// CHECK-NEXT: [0,   0,   0,   0],
// CHECK-NEXT: [64,   0,   0,   416{{\]\]}}{{\]\]}}
// nn.avg_pool2d_grad (the last value is 832 / 9 summed in f32 in another
// order than PyTorch's 92.4444: one ulp apart)
// CHECK: rank = 4 offset = {{[0-9]+}} sizes = [1, 1, 4, 4]
// CHECK-NEXT: {{\[\[}}{{\[\[}}0.111111,   0.333333,   0.222222,   0.888889],
// CHECK-NEXT: [1,   3,   2,   8],
// CHECK-NEXT: [0.888889,   2.66667,   1.77778,   7.11111],
// CHECK-NEXT: [11.5556,   34.6667,   23.1111,   92.444{{4|5}}{{\]\]}}{{\]\]}}

func.func private @printMemrefF32(tensor<*xf32>)

func.func @main() {
  // nn.conv2d, stride 2, padding 1
  %v0 = relay.constant dense<[[[[-2.0, -1.75, -1.5, -1.25], [-1.0, -0.75, -0.5, -0.25], [0.0, 0.25, 0.5, 0.75], [1.0, 1.25, 1.5, 1.75]]]]> : tensor<1x1x4x4xf32>
  %v1 = relay.constant dense<[[[[1.0, 0.0, -1.0], [2.0, 0.5, -2.0], [1.0, 0.0, -1.0]]]]> : tensor<1x1x3x3xf32>
  %v2 = relay.nn.conv2d %v0, %v1 {strides = array<i64: 2, 2>, padding = array<i64: 1>} : (tensor<1x1x4x4xf32>, tensor<1x1x3x3xf32>)
  %v3 = tensor.cast %v2 : tensor<1x1x2x2xf32> to tensor<*xf32>
  func.call @printMemrefF32(%v3) : (tensor<*xf32>) -> ()
  // nn.conv2d, groups 2, dilation 2, padding 2
  %v4 = relay.constant dense<[[[[-2.0, -1.75, -1.5, -1.25], [-1.0, -0.75, -0.5, -0.25], [0.0, 0.25, 0.5, 0.75], [1.0, 1.25, 1.5, 1.75]], [[0.5, 0.625, 0.75, 0.875], [0.0, 0.125, 0.25, 0.375], [-0.5, -0.375, -0.25, -0.125], [-1.0, -0.875, -0.75, -0.625]]]]> : tensor<1x2x4x4xf32>
  %v5 = relay.constant dense<[[[[1.0, 0.0, -1.0], [2.0, 0.5, -2.0], [1.0, 0.0, -1.0]]], [[[-0.5, -0.0, 0.5], [-1.0, -0.25, 1.0], [-0.5, -0.0, 0.5]]]]> : tensor<2x1x3x3xf32>
  %v6 = relay.nn.conv2d %v4, %v5 {groups = 2 : i64, dilation = array<i64: 2, 2>, padding = array<i64: 2>} : (tensor<1x2x4x4xf32>, tensor<2x1x3x3xf32>)
  %v7 = tensor.cast %v6 : tensor<1x2x4x4xf32> to tensor<*xf32>
  func.call @printMemrefF32(%v7) : (tensor<*xf32>) -> ()
  // nn.conv2d, i8 x i8 -> i32
  %v8 = relay.constant dense<[[[[100, -100, 50], [127, -128, 3], [7, 8, 9]]]]> : tensor<1x1x3x3xi8>
  %v9 = relay.constant dense<[[[[100, 100], [-100, 127]]]]> : tensor<1x1x2x2xi8>
  %v10 = relay.nn.conv2d %v8, %v9 {out_dtype = i32} : (tensor<1x1x3x3xi8>, tensor<1x1x2x2xi8>)
  %v11 = relay.cast %v10 {dtype = f32} : (tensor<1x1x2x2xi32>)
  %v12 = tensor.cast %v11 : tensor<1x1x2x2xf32> to tensor<*xf32>
  func.call @printMemrefF32(%v12) : (tensor<*xf32>) -> ()
  // nn.conv2d_transpose, stride 2, padding 1, output_padding 1
  %v13 = relay.constant dense<[[[[1.0, -2.0], [0.5, 3.0]]]]> : tensor<1x1x2x2xf32>
  %v14 = relay.constant dense<[[[[1.0, 0.0, -1.0], [2.0, 0.5, -2.0], [1.0, 0.0, -1.0]]]]> : tensor<1x1x3x3xf32>
  %v15 = relay.nn.conv2d_transpose %v13, %v14 {strides = array<i64: 2, 2>, padding = array<i64: 1>, output_padding = array<i64: 1, 1>} : (tensor<1x1x2x2xf32>, tensor<1x1x3x3xf32>)
  %v16 = tensor.cast %v15 : tensor<1x1x4x4xf32> to tensor<*xf32>
  func.call @printMemrefF32(%v16) : (tensor<*xf32>) -> ()
  // nn.dense
  %v17 = relay.constant dense<[[-2.0, -1.75, -1.5], [-1.0, -0.75, -0.5]]> : tensor<2x3xf32>
  %v18 = relay.constant dense<[[1.0, 0.0, -1.0], [2.0, 0.5, -2.0], [1.0, 0.0, -1.0]]> : tensor<3x3xf32>
  %v19 = relay.nn.dense %v17, %v18 : (tensor<2x3xf32>, tensor<3x3xf32>)
  %v20 = tensor.cast %v19 : tensor<2x3xf32> to tensor<*xf32>
  func.call @printMemrefF32(%v20) : (tensor<*xf32>) -> ()
  // nn.batch_matmul (transpose_b)
  %v21 = relay.constant dense<[[[-2.0, -1.75, -1.5, -1.25], [-1.0, -0.75, -0.5, -0.25]]]> : tensor<1x2x4xf32>
  %v22 = relay.constant dense<[[[-1.0, -0.75, -0.5, -0.25], [0.0, 0.25, 0.5, 0.75], [1.0, 1.25, 1.5, 1.75]]]> : tensor<1x3x4xf32>
  %v23 = relay.nn.batch_matmul %v21, %v22 : (tensor<1x2x4xf32>, tensor<1x3x4xf32>)
  %v24 = tensor.cast %v23 : tensor<1x2x3xf32> to tensor<*xf32>
  func.call @printMemrefF32(%v24) : (tensor<*xf32>) -> ()
  // nn.max_pool2d, ceil_mode
  %v25 = relay.constant dense<[[[[-2.0, -1.75, -1.5, -1.25], [-1.0, -0.75, -0.5, -0.25], [0.0, 0.25, 0.5, 0.75], [1.0, 1.25, 1.5, 1.75]]]]> : tensor<1x1x4x4xf32>
  %v26 = relay.nn.max_pool2d %v25 {pool_size = array<i64: 3, 3>, strides = array<i64: 2, 2>, ceil_mode = true} : (tensor<1x1x4x4xf32>)
  %v27 = tensor.cast %v26 : tensor<1x1x2x2xf32> to tensor<*xf32>
  func.call @printMemrefF32(%v27) : (tensor<*xf32>) -> ()
  // nn.avg_pool2d, padding 1, count_include_pad = false
  %v28 = relay.constant dense<[[[[-2.0, -1.75, -1.5, -1.25], [-1.0, -0.75, -0.5, -0.25], [0.0, 0.25, 0.5, 0.75], [1.0, 1.25, 1.5, 1.75]]]]> : tensor<1x1x4x4xf32>
  %v29 = relay.nn.avg_pool2d %v28 {pool_size = array<i64: 3, 3>, strides = array<i64: 2, 2>, padding = array<i64: 1>} : (tensor<1x1x4x4xf32>)
  %v30 = tensor.cast %v29 : tensor<1x1x2x2xf32> to tensor<*xf32>
  func.call @printMemrefF32(%v30) : (tensor<*xf32>) -> ()
  // nn.max_pool2d_grad, padding 1, stride 2 < pool 3, ceil_mode, ties
  %v31 = relay.constant dense<[[[[1.0, 2.0, 2.0, 0.0], [3.0, 3.0, 1.0, 0.0], [0.0, 1.0, 2.0, 2.0], [1.0, 1.0, 0.0, 3.0]]]]> : tensor<1x1x4x4xf32>
  %v32 = relay.constant dense<[[[[1.0, 2.0, 4.0], [8.0, 16.0, 32.0], [64.0, 128.0, 256.0]]]]> : tensor<1x1x3x3xf32>
  %v33 = relay.nn.max_pool2d_grad %v32, %v31 {pool_size = array<i64: 3, 3>, strides = array<i64: 2, 2>, padding = array<i64: 1>, ceil_mode = true} : (tensor<1x1x3x3xf32>, tensor<1x1x4x4xf32>)
  %v34 = tensor.cast %v33 : tensor<1x1x4x4xf32> to tensor<*xf32>
  func.call @printMemrefF32(%v34) : (tensor<*xf32>) -> ()
  // nn.avg_pool2d_grad, same windows, count_include_pad = true
  %v35 = relay.nn.avg_pool2d_grad %v32, %v31 {pool_size = array<i64: 3, 3>, strides = array<i64: 2, 2>, padding = array<i64: 1>, ceil_mode = true, count_include_pad = true} : (tensor<1x1x3x3xf32>, tensor<1x1x4x4xf32>)
  %v36 = tensor.cast %v35 : tensor<1x1x4x4xf32> to tensor<*xf32>
  func.call @printMemrefF32(%v36) : (tensor<*xf32>) -> ()
  return
}
