// Printing relay-dialect modules as Relay text, and reading the text back.
// RUN: raf-translate --export-relay %s | FileCheck %s
// RUN: raf-translate --export-relay %s | raf-translate --import-relay | FileCheck %s --check-prefix=REIMPORT

// CHECK: #[version = "0.0.5"]
// CHECK: def @main(%p0: Tensor[(1, 3, 4, 4), float32], %p1: Tensor[(3), float32]) -> (Tensor[(1, 3, 6, 6), float32], Tensor[(2, 2), int32], float32) {
// CHECK-NEXT{LITERAL}:   %0 = nn.pad(%p0, 0.5f, pad_width=[[0, 0], [0, 0], [1, 1], [1, 1]]);
// CHECK-NEXT:   %1 = nn.dropout(%0, rate=0.25f);
// CHECK-NEXT:   %2 = zeros(dtype="int32", shape=[2, 2]);
// CHECK-NEXT:   %3 = meta[relay.Constant][0];
// CHECK-NEXT:   %4 = nn.bias_add(%1.0, %3);
// CHECK-NEXT:   %5 = sum(%p1);
// CHECK-NEXT:   (%4, %2, %5)
// CHECK-NEXT: }
// CHECK: #[metadata]
// CHECK: "b64ndarrays"
// CHECK: "relay.Constant"

// REIMPORT: func.func @main(%arg0: tensor<1x3x4x4xf32>, %arg1: tensor<3xf32>) -> tuple<tensor<1x3x6x6xf32>, tensor<2x2xi32>, tensor<f32>>
// REIMPORT: relay.nn.pad %arg0 {pad_value = 5.000000e-01 : f64, pad_width = array<i64: 0, 0, 0, 0, 1, 1, 1, 1>}
// REIMPORT: relay.nn.dropout %{{.*}} {rate = 2.500000e-01 : f64}
// REIMPORT: relay.zeros {dtype = i32, shape = array<i64: 2, 2>}
// REIMPORT: relay.constant dense<[1.000000e+00, 2.000000e+00, 3.000000e+00]> : tensor<3xf32>
// REIMPORT: relay.tuple
func.func @main(%x: tensor<1x3x4x4xf32>, %b: tensor<3xf32>) -> (tensor<1x3x6x6xf32>, tensor<2x2xi32>, tensor<f32>) {
  %0 = relay.nn.pad %x {pad_width = array<i64: 0, 0, 0, 0, 1, 1, 1, 1>, pad_value = 0.5 : f64} : (tensor<1x3x4x4xf32>) -> tensor<1x3x6x6xf32>
  %1 = relay.nn.dropout %0 {rate = 0.25 : f64} : (tensor<1x3x6x6xf32>) -> tensor<1x3x6x6xf32>
  %2 = relay.zeros {shape = array<i64: 2, 2>, dtype = i32}
  %c = relay.constant dense<[1.0, 2.0, 3.0]> : tensor<3xf32>
  %3 = relay.nn.bias_add %1, %c : (tensor<1x3x6x6xf32>, tensor<3xf32>) -> tensor<1x3x6x6xf32>
  %4 = relay.sum %b : (tensor<3xf32>) -> tensor<f32>
  return %3, %2, %4 : tensor<1x3x6x6xf32>, tensor<2x2xi32>, tensor<f32>
}
