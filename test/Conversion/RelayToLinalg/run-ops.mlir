// Runs lowered element-wise, reduction, normalisation and shape operators on the CPU.
// Generated from PyTorch: every printed value below is the PyTorch result
// (torch.nn.functional) for the same literals, to 6 significant digits.
// REQUIRES: mlir-runner
// RUN: raf-opt %s --convert-relay-to-linalg | mlir-opt %lower_to_llvm \
// RUN: | mlir-runner -e main -entry-point-result=void %mlir_runner_libs \
// RUN: | FileCheck %s

// nn.softmax
// CHECK: rank = 2 offset = 0 sizes = [2, 4]
// CHECK-NEXT: {{\[\[}}0.159694,   0.0277506,   0.715697,   0.096859],
// CHECK-NEXT: [0.720117,   0.0974573,   0.0217457,   0.16068{{\]\]}}
// nn.log_softmax, axis 0
// CHECK: rank = 2 offset = 0 sizes = [2, 4]
// CHECK-NEXT: {{\[\[}}-2.57889,   -2.35021,   -0.0788897,   -1.70141],
// CHECK-NEXT: [-0.0788897,   -0.100207,   -2.57889,   -0.201413{{\]\]}}
// nn.layer_norm
// CHECK: rank = 2 offset = 0 sizes = [2, 4]
// CHECK-NEXT: {{\[\[}}0.161048,   -0.421033,   2.39886,   1.26841],
// CHECK-NEXT: [1.4,   0.15,   -3.29999,   0.800001{{\]\]}}
// nn.batch_norm, training, scale = false, center = false, result #0
// CHECK: rank = 3 offset = 0 sizes = [2, 3, 2]
// CHECK-NEXT: {{\[\[}}[-1.15078,   -0.821988],
// CHECK-NEXT: [-1.15078,   -0.821988],
// CHECK-NEXT: [-1.15078,   -0.821988{{\]\]}},
// CHECK-NEXT: {{\[\[}}0.821988,   1.15078],
// CHECK-NEXT: [0.821988,   1.15078],
// CHECK-NEXT: [0.821988,   1.15078{{\]\]}}]
// nn.batch_norm, training, scale = false, center = false, result #1
// CHECK: rank = 1 offset = 0 sizes = [3]
// CHECK-NEXT: [0.4375,   -0.4125,   0.0875]
// nn.batch_norm, training, scale = false, center = false, result #2
// CHECK: rank = 1 offset = 0 sizes = [3]
// CHECK-NEXT: [0.977083,   1.87708,   0.527083]
// nn.cross_entropy (class indices, mean)
// CHECK: rank = 0 offset = 0 sizes = []
// CHECK-NEXT: [0.33142]
// nn.gelu
// CHECK: rank = 2 offset = 0 sizes = [2, 4]
// CHECK-NEXT: {{\[\[}}0.345731,   -0.132062,   1.9545,   0],
// CHECK-NEXT: [2.99595,   0.841345,   -0.154269,   1.39979{{\]\]}}
// argmax over axis 1
// CHECK: rank = 1 offset = 0 sizes = [2]
// CHECK-NEXT: [2,   0]
// mean with keepdims
// CHECK: rank = 2 offset = 0 sizes = [1, 4]
// CHECK-NEXT: {{\[\[}}1.75,   -0.125,   0.75,   0.75{{\]\]}}
// nn.dropout rate 0.5 seed 3: kept elements doubled, mask from the documented hash
// CHECK: rank = 2 offset = 0 sizes = [2, 4]
// CHECK-NEXT: {{\[\[}}0,   2,   0,   0],
// CHECK-NEXT: [0,   2,   2,   2{{\]\]}}
// take, clip mode (indices clamped into [0, 3])
// CHECK: rank = 2 offset = 0 sizes = [2, 4]
// CHECK-NEXT: {{\[\[}}0,   0.5,   0,   0.5],
// CHECK-NEXT: [1.5,   3,   1.5,   3{{\]\]}}
// take, wrap mode
// CHECK: rank = 2 offset = 0 sizes = [2, 4]
// CHECK-NEXT: {{\[\[}}0,   0,   0,   0.5],
// CHECK-NEXT: [1.5,   1.5,   1.5,   3{{\]\]}}
// strided_slice with a negative stride
// CHECK: rank = 2 offset = 0 sizes = [2, 2]
// CHECK-NEXT: {{\[\[}}0,   -1.25],
// CHECK-NEXT: [1.5,   1{{\]\]}}
// nn.pad, reflect
// CHECK: rank = 2 offset = 0 sizes = [3, 7]
// CHECK-NEXT: {{\[\[}}-0.5,   1,   3,   1,   -0.5,   1.5,   -0.5],
// CHECK-NEXT: [2,   -1.25,   0.5,   -1.25,   2,   0,   2],
// CHECK-NEXT: [-0.5,   1,   3,   1,   -0.5,   1.5,   -0.5{{\]\]}}
// divide with broadcasting
// CHECK: rank = 2 offset = 0 sizes = [2, 4]
// CHECK-NEXT: {{\[\[}}0.5,   -2.5,   1,   -0],
// CHECK-NEXT: [3,   2,   -0.25,   -1.5{{\]\]}}

func.func private @printMemrefF32(tensor<*xf32>)

func.func @main() {
  // nn.softmax
  %v0 = relay.constant dense<[[0.5, -1.25, 2.0, 0.0], [3.0, 1.0, -0.5, 1.5]]> : tensor<2x4xf32>
  %v1 = relay.nn.softmax %v0 : (tensor<2x4xf32>)
  %v2 = tensor.cast %v1 : tensor<2x4xf32> to tensor<*xf32>
  func.call @printMemrefF32(%v2) : (tensor<*xf32>) -> ()
  // nn.log_softmax, axis 0
  %v3 = relay.constant dense<[[0.5, -1.25, 2.0, 0.0], [3.0, 1.0, -0.5, 1.5]]> : tensor<2x4xf32>
  %v4 = relay.nn.log_softmax %v3 {axis = 0 : i64} : (tensor<2x4xf32>)
  %v5 = tensor.cast %v4 : tensor<2x4xf32> to tensor<*xf32>
  func.call @printMemrefF32(%v5) : (tensor<*xf32>) -> ()
  // nn.layer_norm
  %v6 = relay.constant dense<[[0.5, -1.25, 2.0, 0.0], [3.0, 1.0, -0.5, 1.5]]> : tensor<2x4xf32>
  %v7 = relay.constant dense<[1.0, 0.5, 2.0, -1.0]> : tensor<4xf32>
  %v8 = relay.constant dense<[0.0, 0.25, -0.5, 1.0]> : tensor<4xf32>
  %v9 = relay.nn.layer_norm %v6, %v7, %v8 : (tensor<2x4xf32>, tensor<4xf32>, tensor<4xf32>)
  %v10 = tensor.cast %v9 : tensor<2x4xf32> to tensor<*xf32>
  func.call @printMemrefF32(%v10) : (tensor<*xf32>) -> ()
  // nn.batch_norm, training, scale = false, center = false
  %v11 = relay.constant dense<[[[-1.0, -0.75], [-0.5, -0.25], [0.0, 0.25]], [[0.5, 0.75], [1.0, 1.25], [1.5, 1.75]]]> : tensor<2x3x2xf32>
  %v12 = relay.constant dense<[0.5, -0.5, 0.0]> : tensor<3xf32>
  %v13 = relay.constant dense<[0.5, -0.5, 0.0]> : tensor<3xf32>
  %v14 = relay.constant dense<[0.5, -0.5, 0.0]> : tensor<3xf32>
  %v15 = relay.constant dense<[1.0, 2.0, 0.5]> : tensor<3xf32>
  %v16:3 = relay.nn.batch_norm %v11, %v12, %v13, %v14, %v15 {training = true, scale = false, center = false} : (tensor<2x3x2xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>)
  %v17 = tensor.cast %v16#0 : tensor<2x3x2xf32> to tensor<*xf32>
  func.call @printMemrefF32(%v17) : (tensor<*xf32>) -> ()
  %v18 = tensor.cast %v16#1 : tensor<3xf32> to tensor<*xf32>
  func.call @printMemrefF32(%v18) : (tensor<*xf32>) -> ()
  %v19 = tensor.cast %v16#2 : tensor<3xf32> to tensor<*xf32>
  func.call @printMemrefF32(%v19) : (tensor<*xf32>) -> ()
  // nn.cross_entropy (class indices, mean)
  %v20 = relay.constant dense<[[0.5, -1.25, 2.0, 0.0], [3.0, 1.0, -0.5, 1.5]]> : tensor<2x4xf32>
  %v21 = relay.constant dense<[2, 0]> : tensor<2xi64>
  %v22 = relay.nn.cross_entropy %v20, %v21 : (tensor<2x4xf32>, tensor<2xi64>)
  %v23 = tensor.cast %v22 : tensor<f32> to tensor<*xf32>
  func.call @printMemrefF32(%v23) : (tensor<*xf32>) -> ()
  // nn.gelu
  %v24 = relay.constant dense<[[0.5, -1.25, 2.0, 0.0], [3.0, 1.0, -0.5, 1.5]]> : tensor<2x4xf32>
  %v25 = relay.nn.gelu %v24 : (tensor<2x4xf32>)
  %v26 = tensor.cast %v25 : tensor<2x4xf32> to tensor<*xf32>
  func.call @printMemrefF32(%v26) : (tensor<*xf32>) -> ()
  // argmax over axis 1
  %v27 = relay.constant dense<[[0.5, -1.25, 2.0, 0.0], [3.0, 1.0, -0.5, 1.5]]> : tensor<2x4xf32>
  %v28 = relay.argmax %v27 {axis = array<i64: 1>} : (tensor<2x4xf32>)
  %v29 = relay.cast %v28 {dtype = f32} : (tensor<2xi32>)
  %v30 = tensor.cast %v29 : tensor<2xf32> to tensor<*xf32>
  func.call @printMemrefF32(%v30) : (tensor<*xf32>) -> ()
  // mean with keepdims
  %v31 = relay.constant dense<[[0.5, -1.25, 2.0, 0.0], [3.0, 1.0, -0.5, 1.5]]> : tensor<2x4xf32>
  %v32 = relay.mean %v31 {axis = array<i64: 0>, keepdims = true} : (tensor<2x4xf32>)
  %v33 = tensor.cast %v32 : tensor<1x4xf32> to tensor<*xf32>
  func.call @printMemrefF32(%v33) : (tensor<*xf32>) -> ()
  // nn.dropout rate 0.5 seed 3: kept elements doubled, mask from the documented hash
  %v34 = relay.constant dense<[[1.0, 1.0, 1.0, 1.0], [1.0, 1.0, 1.0, 1.0]]> : tensor<2x4xf32>
  %v35 = relay.nn.dropout %v34 {rate = 5.000000e-01 : f64, seed = 3 : i64} : (tensor<2x4xf32>)
  %v36 = tensor.cast %v35 : tensor<2x4xf32> to tensor<*xf32>
  func.call @printMemrefF32(%v36) : (tensor<*xf32>) -> ()
  // take, clip mode (indices clamped into [0, 3])
  %v37 = relay.constant dense<[[0.5, -1.25, 2.0, 0.0], [3.0, 1.0, -0.5, 1.5]]> : tensor<2x4xf32>
  %v38 = relay.constant dense<[3, -1, 7, 0]> : tensor<4xi32>
  %v39 = relay.take %v37, %v38 {axis = 1 : i64} : (tensor<2x4xf32>, tensor<4xi32>)
  %v40 = tensor.cast %v39 : tensor<2x4xf32> to tensor<*xf32>
  func.call @printMemrefF32(%v40) : (tensor<*xf32>) -> ()
  // take, wrap mode
  %v41 = relay.constant dense<[[0.5, -1.25, 2.0, 0.0], [3.0, 1.0, -0.5, 1.5]]> : tensor<2x4xf32>
  %v42 = relay.constant dense<[3, -1, 7, 0]> : tensor<4xi32>
  %v43 = relay.take %v41, %v42 {axis = 1 : i64, mode = #relay.take_mode<wrap>} : (tensor<2x4xf32>, tensor<4xi32>)
  %v44 = tensor.cast %v43 : tensor<2x4xf32> to tensor<*xf32>
  func.call @printMemrefF32(%v44) : (tensor<*xf32>) -> ()
  // strided_slice with a negative stride
  %v45 = relay.constant dense<[[0.5, -1.25, 2.0, 0.0], [3.0, 1.0, -0.5, 1.5]]> : tensor<2x4xf32>
  %v46 = relay.strided_slice %v45 {begin = array<i64: 3>, end = array<i64: -5>, strides = array<i64: -2>, axes = array<i64: 1>} : (tensor<2x4xf32>)
  %v47 = tensor.cast %v46 : tensor<2x2xf32> to tensor<*xf32>
  func.call @printMemrefF32(%v47) : (tensor<*xf32>) -> ()
  // nn.pad, reflect
  %v48 = relay.constant dense<[[0.5, -1.25, 2.0, 0.0], [3.0, 1.0, -0.5, 1.5]]> : tensor<2x4xf32>
  %v49 = relay.nn.pad %v48 {pad_width = array<i64: 1, 0, 2, 1>, pad_mode = #relay.pad_mode<reflect>} : (tensor<2x4xf32>)
  %v50 = tensor.cast %v49 : tensor<3x7xf32> to tensor<*xf32>
  func.call @printMemrefF32(%v50) : (tensor<*xf32>) -> ()
  // divide with broadcasting
  %v51 = relay.constant dense<[[0.5, -1.25, 2.0, 0.0], [3.0, 1.0, -0.5, 1.5]]> : tensor<2x4xf32>
  %v52 = relay.constant dense<[1.0, 0.5, 2.0, -1.0]> : tensor<4xf32>
  %v53 = relay.divide %v51, %v52 : (tensor<2x4xf32>, tensor<4xf32>)
  %v54 = tensor.cast %v53 : tensor<2x4xf32> to tensor<*xf32>
  func.call @printMemrefF32(%v54) : (tensor<*xf32>) -> ()
  return
}
