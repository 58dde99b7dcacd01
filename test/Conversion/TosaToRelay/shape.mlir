// RUN: raf-opt --convert-tosa-to-relay %s | FileCheck %s
// RUN: raf-opt --convert-tosa-to-relay %s | raf-opt | FileCheck %s

// Shapes given as !tosa.shape values become relay attributes; the
// tosa.const_shape producers are erased.

// CHECK-LABEL: func.func @reshape
// CHECK-NEXT: %[[R:.*]] = relay.reshape %arg0 {newshape = array<i64: 3, 4>} : (tensor<2x6xf32>) -> tensor<3x4xf32>
// CHECK-NEXT: return %[[R]]
func.func @reshape(%x: tensor<2x6xf32>) -> tensor<3x4xf32> {
  %s = tosa.const_shape {values = dense<[3, 4]> : tensor<2xindex>} : () -> !tosa.shape<2>
  %0 = tosa.reshape %x, %s : (tensor<2x6xf32>, !tosa.shape<2>) -> tensor<3x4xf32>
  return %0 : tensor<3x4xf32>
}

// A -1 in the TOSA shape is resolved from the result type.
// CHECK-LABEL: func.func @reshape_inferred
// CHECK-NEXT: relay.reshape %arg0 {newshape = array<i64: 12>} : (tensor<2x6xf32>) -> tensor<12xf32>
func.func @reshape_inferred(%x: tensor<2x6xf32>) -> tensor<12xf32> {
  %s = tosa.const_shape {values = dense<[-1]> : tensor<1xindex>} : () -> !tosa.shape<1>
  %0 = tosa.reshape %x, %s : (tensor<2x6xf32>, !tosa.shape<1>) -> tensor<12xf32>
  return %0 : tensor<12xf32>
}

// CHECK-LABEL: func.func @transpose
// CHECK-NEXT: relay.transpose %arg0 {axes = array<i64: 2, 0, 1>} : (tensor<2x3x4xf32>) -> tensor<4x2x3xf32>
func.func @transpose(%x: tensor<2x3x4xf32>) -> tensor<4x2x3xf32> {
  %0 = tosa.transpose %x {perms = array<i32: 2, 0, 1>} : (tensor<2x3x4xf32>) -> tensor<4x2x3xf32>
  return %0 : tensor<4x2x3xf32>
}

// CHECK-LABEL: func.func @concat
// CHECK-NEXT: relay.concatenate %arg0, %arg1, %arg0 {axis = 1 : i64} : (tensor<2x3xf32>, tensor<2x1xf32>, tensor<2x3xf32>) -> tensor<2x7xf32>
func.func @concat(%x: tensor<2x3xf32>, %y: tensor<2x1xf32>) -> tensor<2x7xf32> {
  %0 = tosa.concat %x, %y, %x {axis = 1 : i32} : (tensor<2x3xf32>, tensor<2x1xf32>, tensor<2x3xf32>) -> tensor<2x7xf32>
  return %0 : tensor<2x7xf32>
}

// CHECK-LABEL: func.func @slice
// CHECK-NEXT: relay.strided_slice %arg0 {begin = array<i64: 1, 0, 2>, end = array<i64: 2, 3, 4>} : (tensor<2x3x4xf32>) -> tensor<1x3x2xf32>
func.func @slice(%x: tensor<2x3x4xf32>) -> tensor<1x3x2xf32> {
  %start = tosa.const_shape {values = dense<[1, 0, 2]> : tensor<3xindex>} : () -> !tosa.shape<3>
  %size = tosa.const_shape {values = dense<[1, -1, 2]> : tensor<3xindex>} : () -> !tosa.shape<3>
  %0 = tosa.slice %x, %start, %size : (tensor<2x3x4xf32>, !tosa.shape<3>, !tosa.shape<3>) -> tensor<1x3x2xf32>
  return %0 : tensor<1x3x2xf32>
}

// CHECK-LABEL: func.func @pad
// CHECK-NEXT: %[[P:.*]] = relay.nn.pad %arg0 {pad_value = 1.500000e+00 : f64, pad_width = array<i64: 0, 1, 2, 3>} : (tensor<2x3xf32>) -> tensor<3x8xf32>
// CHECK-NEXT: return %[[P]]
func.func @pad(%x: tensor<2x3xf32>) -> tensor<3x8xf32> {
  %padding = tosa.const_shape {values = dense<[0, 1, 2, 3]> : tensor<4xindex>} : () -> !tosa.shape<4>
  %value = "tosa.const"() {values = dense<1.5> : tensor<1xf32>} : () -> tensor<1xf32>
  %0 = tosa.pad %x, %padding, %value : (tensor<2x3xf32>, !tosa.shape<4>, tensor<1xf32>) -> tensor<3x8xf32>
  return %0 : tensor<3x8xf32>
}
