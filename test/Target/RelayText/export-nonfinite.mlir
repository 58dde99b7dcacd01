// Relay text has no literal for infinity or NaN: a non-finite pad value is
// exported as a metadata constant, which reads back as the same pad value.
// RUN: raf-translate --export-relay %s | FileCheck %s
// RUN: raf-translate --export-relay %s | raf-translate --import-relay | FileCheck %s --check-prefix=REIMPORT

// CHECK: def @main(%p0: Tensor[(2), float32], %p1: Tensor[(2), float16]) -> (Tensor[(4), float32], Tensor[(3), float16]) {
// CHECK-NEXT{LITERAL}:   %0 = nn.pad(%p0, meta[relay.Constant][0], pad_width=[[1, 1]]);
// CHECK-NEXT{LITERAL}:   %1 = nn.pad(%p1, meta[relay.Constant][1], pad_width=[[0, 1]]);
// CHECK: #[metadata]
// CHECK: "b64ndarrays"

// REIMPORT: relay.nn.pad %arg0 {pad_value = 0xFFF0000000000000 : f64, pad_width = array<i64: 1, 1>}
// REIMPORT: relay.nn.pad %arg1 {pad_value = 0x7FF8000000000000 : f64, pad_width = array<i64: 0, 1>}

func.func @main(%x: tensor<2xf32>, %y: tensor<2xf16>) -> tuple<tensor<4xf32>, tensor<3xf16>> {
  %0 = relay.nn.pad %x {pad_value = 0xFFF0000000000000 : f64, pad_width = array<i64: 1, 1>} : (tensor<2xf32>) -> tensor<4xf32>
  %1 = relay.nn.pad %y {pad_value = 0x7FF8000000000000 : f64, pad_width = array<i64: 0, 1>} : (tensor<2xf16>) -> tensor<3xf16>
  %2 = relay.tuple(%0, %1) : tensor<4xf32>, tensor<3xf16>
  return %2 : tuple<tensor<4xf32>, tensor<3xf16>>
}
