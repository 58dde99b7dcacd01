// RUN: raf-opt %s --convert-relay-to-linalg | FileCheck %s
// The result bufferizes and lowers to LLVM IR:
// RUN: raf-opt %s --convert-relay-to-linalg | mlir-opt %lower_to_llvm \
// RUN:   | mlir-translate --mlir-to-llvmir -o /dev/null

// Element-wise operators (ElementwiseToLinalg.cpp): one all-parallel
// linalg.generic each, inputs read through NumPy broadcasting maps.

// CHECK-DAG: #[[ID3:.*]] = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
// CHECK-DAG: #[[ROW:.*]] = affine_map<(d0, d1, d2) -> (d1, 0)>
// CHECK-DAG: #[[AXIS1:.*]] = affine_map<(d0, d1, d2) -> (d1)>

// CHECK-LABEL: func.func @broadcast_add
func.func @broadcast_add(%x: tensor<2x3x4xf32>, %y: tensor<3x1xf32>) -> tensor<2x3x4xf32> {
  // CHECK: linalg.generic {indexing_maps = [#[[ID3]], #[[ROW]], #[[ID3]]], iterator_types = ["parallel", "parallel", "parallel"]} ins(%arg0, %arg1 : tensor<2x3x4xf32>, tensor<3x1xf32>)
  // CHECK: arith.addf
  %0 = relay.add %x, %y : (tensor<2x3x4xf32>, tensor<3x1xf32>)
  return %0 : tensor<2x3x4xf32>
}

// CHECK-LABEL: func.func @integer_binary
func.func @integer_binary(%a: tensor<4xi32>, %b: tensor<4xi32>) -> (tensor<4xi32>, tensor<4xi32>, tensor<4xi32>, tensor<4xi32>, tensor<4xi32>) {
  // CHECK: arith.subi
  %0 = relay.subtract %a, %b : (tensor<4xi32>, tensor<4xi32>)
  // CHECK: arith.muli
  %1 = relay.multiply %a, %b : (tensor<4xi32>, tensor<4xi32>)
  // Division truncates; a zero divisor gives 0 and INT_MIN / -1 wraps
  // instead of trapping.
  // CHECK: arith.cmpi eq
  // CHECK: arith.select
  // CHECK: arith.divsi
  // CHECK: arith.select
  %2 = relay.divide %a, %b : (tensor<4xi32>, tensor<4xi32>)
  // CHECK: arith.maxsi
  %3 = relay.maximum %a, %b : (tensor<4xi32>, tensor<4xi32>)
  // CHECK: arith.minsi
  %4 = relay.minimum %a, %b : (tensor<4xi32>, tensor<4xi32>)
  return %0, %1, %2, %3, %4 : tensor<4xi32>, tensor<4xi32>, tensor<4xi32>, tensor<4xi32>, tensor<4xi32>
}

// CHECK-LABEL: func.func @float_binary
func.func @float_binary(%a: tensor<4xf32>, %b: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>) {
  // CHECK: arith.divf
  %0 = relay.divide %a, %b : (tensor<4xf32>, tensor<4xf32>)
  // CHECK: math.powf
  %1 = relay.power %a, %b : (tensor<4xf32>, tensor<4xf32>)
  // NaN-propagating, as torch.maximum / torch.minimum.
  // CHECK: arith.maximumf
  %2 = relay.maximum %a, %b : (tensor<4xf32>, tensor<4xf32>)
  // CHECK: arith.minimumf
  %3 = relay.minimum %a, %b : (tensor<4xf32>, tensor<4xf32>)
  return %0, %1, %2, %3 : tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>
}

// CHECK-LABEL: func.func @comparisons
func.func @comparisons(%a: tensor<4xf32>, %b: tensor<4xf32>, %i: tensor<4xi8>) -> (tensor<4xi1>, tensor<4xi1>, tensor<4xi1>, tensor<4xi1>, tensor<4xi1>, tensor<4xi1>, tensor<4xi1>) {
  // CHECK: arith.cmpf oeq
  // CHECK: -> tensor<4xi1>
  %0 = relay.equal %a, %b : (tensor<4xf32>, tensor<4xf32>)
  // CHECK: arith.cmpf une
  %1 = relay.not_equal %a, %b : (tensor<4xf32>, tensor<4xf32>)
  // CHECK: arith.cmpf olt
  %2 = relay.less %a, %b : (tensor<4xf32>, tensor<4xf32>)
  // CHECK: arith.cmpf ole
  %3 = relay.less_equal %a, %b : (tensor<4xf32>, tensor<4xf32>)
  // CHECK: arith.cmpf ogt
  %4 = relay.greater %a, %b : (tensor<4xf32>, tensor<4xf32>)
  // CHECK: arith.cmpf oge
  %5 = relay.greater_equal %a, %b : (tensor<4xf32>, tensor<4xf32>)
  // CHECK: arith.cmpi slt
  %6 = relay.less %i, %i : (tensor<4xi8>, tensor<4xi8>)
  return %0, %1, %2, %3, %4, %5, %6 : tensor<4xi1>, tensor<4xi1>, tensor<4xi1>, tensor<4xi1>, tensor<4xi1>, tensor<4xi1>, tensor<4xi1>
}

// CHECK-LABEL: func.func @where
func.func @where(%c: tensor<3x1xi1>, %x: tensor<2x3x4xf32>, %y: tensor<f32>) -> tensor<2x3x4xf32> {
  // CHECK: linalg.generic {indexing_maps = [#[[ROW]], #[[ID3]], {{.*}}, #[[ID3]]]
  // CHECK: arith.select
  %0 = relay.where %c, %x, %y : (tensor<3x1xi1>, tensor<2x3x4xf32>, tensor<f32>)
  return %0 : tensor<2x3x4xf32>
}

// CHECK-LABEL: func.func @bias_add
func.func @bias_add(%x: tensor<2x3x4xf32>, %b: tensor<3xf32>) -> tensor<2x3x4xf32> {
  // CHECK: linalg.generic {indexing_maps = [#[[ID3]], #[[AXIS1]], #[[ID3]]]
  // CHECK: arith.addf
  %0 = relay.nn.bias_add %x, %b : (tensor<2x3x4xf32>, tensor<3xf32>)
  return %0 : tensor<2x3x4xf32>
}

// CHECK-LABEL: func.func @unary
func.func @unary(%x: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>) {
  // CHECK: arith.maximumf
  %0 = relay.nn.relu %x : (tensor<4xf32>)
  // CHECK: arith.cmpf ogt
  // CHECK: arith.constant 2.000000e-01 : f32
  // CHECK: arith.select
  %1 = relay.nn.leaky_relu %x {alpha = 2.000000e-01 : f64} : (tensor<4xf32>)
  // CHECK: arith.negf
  // CHECK: math.exp
  // CHECK: arith.divf
  %2 = relay.sigmoid %x : (tensor<4xf32>)
  // CHECK: math.tanh
  %3 = relay.tanh %x : (tensor<4xf32>)
  // CHECK: math.exp
  %4 = relay.exp %x : (tensor<4xf32>)
  // CHECK: math.log
  %5 = relay.log %x : (tensor<4xf32>)
  // CHECK: math.sqrt
  %6 = relay.sqrt %x : (tensor<4xf32>)
  // rsqrt is 1 / sqrt: math.rsqrt has no libm function to lower to.
  // CHECK: math.sqrt
  // CHECK: arith.divf
  %7 = relay.rsqrt %x : (tensor<4xf32>)
  // CHECK: math.erf
  %8 = relay.erf %x : (tensor<4xf32>)
  // gelu: x * 0.5 * (1 + erf(x / sqrt(2))).
  // CHECK: arith.constant 0.707106769 : f32
  // CHECK: math.erf
  %9 = relay.nn.gelu %x : (tensor<4xf32>)
  // CHECK: arith.constant 0.797884583 : f32
  // CHECK: math.tanh
  %10 = relay.nn.gelu %x {approximate = #relay.gelu_approximation<tanh>} : (tensor<4xf32>)
  // CHECK: arith.negf
  %11 = relay.negative %x : (tensor<4xf32>)
  // CHECK: arith.mulf %[[IN:.*]], %[[IN]] : f32
  %12 = relay.square %x : (tensor<4xf32>)
  return %0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12 : tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>
}

// Transcendental functions of narrow floats are computed in f32.
// CHECK-LABEL: func.func @exp_f16
func.func @exp_f16(%x: tensor<4xf16>) -> tensor<4xf16> {
  // CHECK: arith.extf %{{.*}} : f16 to f32
  // CHECK: math.exp %{{.*}} : f32
  // CHECK: arith.truncf %{{.*}} : f32 to f16
  %0 = relay.exp %x : (tensor<4xf16>)
  return %0 : tensor<4xf16>
}

// CHECK-LABEL: func.func @integer_unary
func.func @integer_unary(%x: tensor<4xi32>) -> (tensor<4xi32>, tensor<4xi32>) {
  // CHECK: arith.maxsi
  %0 = relay.nn.relu %x : (tensor<4xi32>)
  // CHECK: arith.subi
  %1 = relay.negative %x : (tensor<4xi32>)
  return %0, %1 : tensor<4xi32>, tensor<4xi32>
}

// The keep mask hashes the row-major index and the seed: 7 * 0x9E3779B9
// wraps to 1401181199; u = (hash >> 8) * 2^-24 is compared in f64 with the
// rate, and survivors are scaled by 1 / (1 - rate).
// CHECK-LABEL: func.func @dropout
func.func @dropout(%x: tensor<2x3xf32>) -> tensor<2x3xf32> {
  // CHECK: linalg.index 0
  // CHECK: linalg.index 1
  // CHECK: arith.index_cast %{{.*}} : index to i32
  // CHECK: arith.constant 1401181199 : i32
  // CHECK: arith.constant -2048144789 : i32
  // CHECK: arith.constant -1028477387 : i32
  // CHECK: arith.uitofp %{{.*}} : i32 to f64
  // CHECK: arith.constant 2.500000e-01 : f64
  // CHECK: arith.cmpf oge
  // CHECK: arith.constant 1.33333337 : f32
  // CHECK: arith.select
  %0 = relay.nn.dropout %x {rate = 2.500000e-01 : f64, seed = 7 : i64} : (tensor<2x3xf32>)
  return %0 : tensor<2x3xf32>
}

// CHECK-LABEL: func.func @casts
func.func @casts(%x: tensor<4xf32>, %i: tensor<4xi32>, %b: tensor<4xi1>) -> (tensor<4xi32>, tensor<4xf16>, tensor<4xi1>, tensor<4xf32>, tensor<4xi8>, tensor<4xi64>) {
  // CHECK: arith.fptosi %{{.*}} : f32 to i32
  %0 = relay.cast %x {dtype = i32} : (tensor<4xf32>)
  // CHECK: arith.truncf %{{.*}} : f32 to f16
  %1 = relay.cast %x {dtype = f16} : (tensor<4xf32>)
  // Casting to bool tests != 0.
  // CHECK: arith.cmpf une
  %2 = relay.cast %x {dtype = i1} : (tensor<4xf32>)
  // CHECK: arith.uitofp %{{.*}} : i1 to f32
  %3 = relay.cast %b {dtype = f32} : (tensor<4xi1>)
  // CHECK: arith.trunci %{{.*}} : i32 to i8
  %4 = relay.cast %i {dtype = i8} : (tensor<4xi32>)
  // CHECK: arith.extsi %{{.*}} : i32 to i64
  %5 = relay.cast %i {dtype = i64} : (tensor<4xi32>)
  return %0, %1, %2, %3, %4, %5 : tensor<4xi32>, tensor<4xf16>, tensor<4xi1>, tensor<4xf32>, tensor<4xi8>, tensor<4xi64>
}

// CHECK-LABEL: func.func @fills
func.func @fills(%x: tensor<2x3xf32>) -> (tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x2xi32>, tensor<3xf16>) {
  // CHECK: %[[ZERO:.*]] = arith.constant 0.000000e+00 : f32
  // CHECK: linalg.fill ins(%[[ZERO]] : f32) outs(%{{.*}} : tensor<2x3xf32>)
  %0 = relay.zeros_like %x : (tensor<2x3xf32>)
  // CHECK: %[[ONE:.*]] = arith.constant 1.000000e+00 : f32
  // CHECK: linalg.fill ins(%[[ONE]] : f32)
  %1 = relay.ones_like %x : (tensor<2x3xf32>)
  // CHECK: %[[ZERO_I:.*]] = arith.constant 0 : i32
  // CHECK: linalg.fill ins(%[[ZERO_I]] : i32) outs(%{{.*}} : tensor<2x2xi32>)
  %2 = relay.zeros {shape = array<i64: 2, 2>, dtype = i32}
  // CHECK: %[[ONE_H:.*]] = arith.constant 1.000000e+00 : f16
  // CHECK: linalg.fill ins(%[[ONE_H]] : f16) outs(%{{.*}} : tensor<3xf16>)
  %3 = relay.ones {shape = array<i64: 3>, dtype = f16}
  return %0, %1, %2, %3 : tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x2xi32>, tensor<3xf16>
}

// CHECK-LABEL: func.func @constants
func.func @constants() -> (tensor<2xf32>, tensor<2x2xi32>) {
  // CHECK: arith.constant dense<[1.000000e+00, 2.000000e+00]> : tensor<2xf32>
  %0 = relay.constant dense<[1.0, 2.0]> : tensor<2xf32>
  // CHECK: arith.constant dense<0> : tensor<2x2xi32>
  %1 = relay.zero : tensor<2x2xi32>
  // CHECK-NOT: relay.
  return %0, %1 : tensor<2xf32>, tensor<2x2xi32>
}
