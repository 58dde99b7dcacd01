// RUN: raf-opt %s --convert-relay-to-linalg | FileCheck %s
// The result bufferizes and lowers to LLVM IR:
// RUN: raf-opt %s --convert-relay-to-linalg | mlir-opt %lower_to_llvm \
// RUN:   | mlir-translate --mlir-to-llvmir -o /dev/null

// Softmax, normalisation and losses (NormalizationToLinalg.cpp).

// Statistics and parameters of @batch_norm_inference are read by channel.
// CHECK-DAG: #[[CHANNEL:.*]] = affine_map<(d0, d1, d2, d3) -> (d1)>

// Max-subtracted: max, exp(x - max), sum, divide.
// CHECK-LABEL: func.func @softmax
func.func @softmax(%x: tensor<2x5xf32>) -> tensor<2x5xf32> {
  // CHECK: %[[MAX:.*]] = linalg.reduce ins(%arg0 : tensor<2x5xf32>) outs(%{{.*}} : tensor<2xf32>) dimensions = [1]
  // CHECK: arith.maximumf
  // CHECK: %[[EXP:.*]] = linalg.generic {{.*}} ins(%arg0, %[[MAX]] : tensor<2x5xf32>, tensor<2xf32>)
  // CHECK: arith.subf
  // CHECK: math.exp
  // CHECK: %[[SUM:.*]] = linalg.reduce ins(%[[EXP]] : tensor<2x5xf32>) outs(%{{.*}} : tensor<2xf32>) dimensions = [1]
  // CHECK: linalg.generic {{.*}} ins(%[[EXP]], %[[SUM]] : tensor<2x5xf32>, tensor<2xf32>)
  // CHECK: arith.divf
  %0 = relay.nn.softmax %x : (tensor<2x5xf32>)
  return %0 : tensor<2x5xf32>
}

// log_softmax = (x - max) - log(sum(exp(x - max))).
// CHECK-LABEL: func.func @log_softmax
func.func @log_softmax(%x: tensor<2x5xf32>) -> tensor<2x5xf32> {
  // CHECK: %[[MAX:.*]] = linalg.reduce ins(%arg0 : tensor<2x5xf32>) outs(%{{.*}} : tensor<5xf32>) dimensions = [0]
  // CHECK: %[[SUM:.*]] = linalg.reduce
  // CHECK: linalg.generic {{.*}} ins(%arg0, %[[MAX]], %[[SUM]] : tensor<2x5xf32>, tensor<5xf32>, tensor<5xf32>)
  // CHECK: arith.subf
  // CHECK: math.log
  // CHECK: arith.subf
  %0 = relay.nn.log_softmax %x {axis = 0 : i64} : (tensor<2x5xf32>)
  return %0 : tensor<2x5xf32>
}

// CHECK-LABEL: func.func @layer_norm
func.func @layer_norm(%x: tensor<2x5xf32>, %g: tensor<5xf32>, %b: tensor<5xf32>) -> tensor<2x5xf32> {
  // CHECK: linalg.reduce ins(%arg0
  // CHECK: arith.constant 5.000000e+00 : f32
  // CHECK: linalg.reduce
  // CHECK: linalg.generic {{.*}} ins(%arg0, %{{.*}}, %{{.*}}, %arg1, %arg2 : tensor<2x5xf32>, tensor<2xf32>, tensor<2xf32>, tensor<5xf32>, tensor<5xf32>)
  // CHECK: arith.constant 9.99999974E-6 : f32
  // CHECK: math.sqrt
  // CHECK: arith.divf
  // CHECK: arith.mulf
  // CHECK: arith.addf
  %0 = relay.nn.layer_norm %x, %g, %b : (tensor<2x5xf32>, tensor<5xf32>, tensor<5xf32>)
  return %0 : tensor<2x5xf32>
}

// center = false and scale = false drop beta and gamma.
// CHECK-LABEL: func.func @layer_norm_plain
func.func @layer_norm_plain(%x: tensor<2x5xf32>, %g: tensor<5xf32>, %b: tensor<5xf32>) -> tensor<2x5xf32> {
  // CHECK: linalg.generic {{.*}} ins(%arg0, %{{.*}}, %{{.*}} : tensor<2x5xf32>, tensor<2xf32>, tensor<2xf32>)
  %0 = relay.nn.layer_norm %x, %g, %b {center = false, scale = false} : (tensor<2x5xf32>, tensor<5xf32>, tensor<5xf32>)
  return %0 : tensor<2x5xf32>
}

// Inference: the moving statistics normalise and are returned unchanged.
// CHECK-LABEL: func.func @batch_norm_inference
func.func @batch_norm_inference(%x: tensor<2x3x4x4xf32>, %g: tensor<3xf32>, %b: tensor<3xf32>, %m: tensor<3xf32>, %v: tensor<3xf32>) -> (tensor<2x3x4x4xf32>, tensor<3xf32>, tensor<3xf32>) {
  // CHECK-NOT: linalg.reduce
  // CHECK: %[[Y:.*]] = linalg.generic {indexing_maps = [{{.*}}, #[[CHANNEL]], #[[CHANNEL]], #[[CHANNEL]], #[[CHANNEL]], {{.*}}]{{.*}} ins(%arg0, %arg3, %arg4, %arg1, %arg2 :
  // CHECK: return %[[Y]], %arg3, %arg4
  %0:3 = relay.nn.batch_norm %x, %g, %b, %m, %v : (tensor<2x3x4x4xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>)
  return %0#0, %0#1, %0#2 : tensor<2x3x4x4xf32>, tensor<3xf32>, tensor<3xf32>
}

// Training: batch statistics over N, H, W; the moving variance takes the
// unbiased variance: 0.9 * v + 0.1 * (32 / 31) * var.
// CHECK-LABEL: func.func @batch_norm_training
func.func @batch_norm_training(%x: tensor<2x3x4x4xf32>, %g: tensor<3xf32>, %b: tensor<3xf32>, %m: tensor<3xf32>, %v: tensor<3xf32>) -> (tensor<2x3x4x4xf32>, tensor<3xf32>, tensor<3xf32>) {
  // CHECK: %[[SUM:.*]] = linalg.reduce ins(%arg0 : tensor<2x3x4x4xf32>) outs(%{{.*}} : tensor<3xf32>) dimensions = [0, 2, 3]
  // CHECK: arith.constant 3.200000e+01 : f32
  // CHECK: %[[Y:.*]] = linalg.generic {{.*}} ins(%arg0, %{{.*}}, %{{.*}}, %arg1, %arg2 :
  // CHECK: %[[MEAN:.*]] = linalg.generic {{.*}} ins(%arg3, %{{.*}} : tensor<3xf32>, tensor<3xf32>)
  // CHECK: arith.constant 0.899999976 : f32
  // CHECK: arith.constant 1.000000e-01 : f32
  // CHECK: %[[VAR:.*]] = linalg.generic {{.*}} ins(%arg4, %{{.*}} : tensor<3xf32>, tensor<3xf32>)
  // CHECK: arith.constant 0.899999976 : f32
  // CHECK: arith.constant 0.103225805 : f32
  // CHECK: return %[[Y]], %[[MEAN]], %[[VAR]]
  %0:3 = relay.nn.batch_norm %x, %g, %b, %m, %v {training = true} : (tensor<2x3x4x4xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>)
  return %0#0, %0#1, %0#2 : tensor<2x3x4x4xf32>, tensor<3xf32>, tensor<3xf32>
}

// Gather of -p[n, target[n]]; ignored samples give 0 and weigh 0 in the mean.
// CHECK-LABEL: func.func @nll_loss
func.func @nll_loss(%p: tensor<4x10xf32>, %t: tensor<4xi32>) -> tensor<f32> {
  // CHECK: %[[L:.*]]:2 = linalg.generic {{.*}} ins(%arg1 : tensor<4xi32>) outs(%{{.*}}, %{{.*}} : tensor<4xf32>, tensor<4xf32>)
  // CHECK: arith.extsi %{{.*}} : i32 to i64
  // CHECK: arith.constant -100 : i64
  // CHECK: arith.cmpi eq
  // CHECK: arith.constant 9 : i64
  // CHECK: arith.minsi
  // CHECK: arith.maxsi
  // CHECK: tensor.extract %arg0[%{{.*}}, %{{.*}}] : tensor<4x10xf32>
  // CHECK: %[[SUM:.*]] = linalg.reduce ins(%[[L]]#0 : tensor<4xf32>) outs(%{{.*}} : tensor<f32>)
  // CHECK: %[[COUNT:.*]] = linalg.reduce ins(%[[L]]#1 : tensor<4xf32>) outs(%{{.*}} : tensor<f32>)
  // CHECK: linalg.generic {{.*}} ins(%[[SUM]], %[[COUNT]] : tensor<f32>, tensor<f32>)
  // CHECK: arith.divf
  %0 = relay.nn.nll_loss %p, %t : (tensor<4x10xf32>, tensor<4xi32>)
  return %0 : tensor<f32>
}

// CHECK-LABEL: func.func @nll_loss_none
func.func @nll_loss_none(%p: tensor<2x3x5x5xf32>, %t: tensor<2x5x5xi64>) -> tensor<2x5x5xf32> {
  // CHECK: %[[L:.*]]:2 = linalg.generic
  // CHECK: arith.constant 2 : i64
  // CHECK: tensor.extract %arg0[%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}] : tensor<2x3x5x5xf32>
  // CHECK-NOT: linalg.reduce
  // CHECK: return %[[L]]#0
  %0 = relay.nn.nll_loss %p, %t {reduction = #relay.loss_reduction<none>, ignore_index = 2 : i64} : (tensor<2x3x5x5xf32>, tensor<2x5x5xi64>)
  return %0 : tensor<2x5x5xf32>
}

// Class indices: log_softmax, then nll_loss with PyTorch's ignore_index.
// CHECK-LABEL: func.func @cross_entropy_indices
func.func @cross_entropy_indices(%x: tensor<4x10xf32>, %t: tensor<4xi64>) -> tensor<f32> {
  // CHECK: math.log
  // CHECK: linalg.generic {{.*}} ins(%arg1 : tensor<4xi64>)
  // CHECK: arith.constant -100 : i64
  // CHECK: tensor.extract
  // CHECK: linalg.reduce
  // CHECK-NOT: arith.divf
  // CHECK: return
  %0 = relay.nn.cross_entropy %x, %t {reduction = #relay.loss_reduction<sum>} : (tensor<4x10xf32>, tensor<4xi64>)
  return %0 : tensor<f32>
}

// Probabilities: -sum_c target * log_softmax, averaged over N.
// CHECK-LABEL: func.func @cross_entropy_probabilities
func.func @cross_entropy_probabilities(%x: tensor<4x10xf32>, %t: tensor<4x10xf32>) -> tensor<f32> {
  // CHECK: math.log
  // CHECK: linalg.generic {{.*}} ins(%arg1, %{{.*}} : tensor<4x10xf32>, tensor<4x10xf32>)
  // CHECK: arith.mulf
  // CHECK: arith.negf
  // CHECK: linalg.reduce {{.*}} dimensions = [1]
  // CHECK: arith.divf
  %0 = relay.nn.cross_entropy %x, %t : (tensor<4x10xf32>, tensor<4x10xf32>)
  return %0 : tensor<f32>
}
