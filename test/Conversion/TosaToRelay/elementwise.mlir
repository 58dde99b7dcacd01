// RUN: raf-opt --convert-tosa-to-relay %s | FileCheck %s
// RUN: raf-opt --convert-tosa-to-relay %s | raf-opt | FileCheck %s

// CHECK-LABEL: func.func @unary
// CHECK-NEXT: %[[A:.*]] = relay.sigmoid %arg0 : (tensor<2x3xf32>) -> tensor<2x3xf32>
// CHECK-NEXT: %[[B:.*]] = relay.tanh %[[A]]
// CHECK-NEXT: %[[C:.*]] = relay.exp %[[B]]
// CHECK-NEXT: %[[D:.*]] = relay.log %[[C]]
// CHECK-NEXT: %[[E:.*]] = relay.rsqrt %[[D]]
// CHECK-NEXT: %[[F:.*]] = relay.erf %[[E]]
// CHECK-NEXT: return %[[F]]
func.func @unary(%x: tensor<2x3xf32>) -> tensor<2x3xf32> {
  %0 = tosa.sigmoid %x : (tensor<2x3xf32>) -> tensor<2x3xf32>
  %1 = tosa.tanh %0 : (tensor<2x3xf32>) -> tensor<2x3xf32>
  %2 = tosa.exp %1 : (tensor<2x3xf32>) -> tensor<2x3xf32>
  %3 = tosa.log %2 : (tensor<2x3xf32>) -> tensor<2x3xf32>
  %4 = tosa.rsqrt %3 : (tensor<2x3xf32>) -> tensor<2x3xf32>
  %5 = tosa.erf %4 : (tensor<2x3xf32>) -> tensor<2x3xf32>
  return %5 : tensor<2x3xf32>
}

// Size-1 axes broadcast as in relay.
// CHECK-LABEL: func.func @binary
// CHECK-NEXT: %[[A:.*]] = relay.add %arg0, %arg1 : (tensor<2x3xf32>, tensor<1x3xf32>) -> tensor<2x3xf32>
// CHECK-NEXT: %[[B:.*]] = relay.subtract %[[A]], %arg1
// CHECK-NEXT: %[[C:.*]] = relay.multiply %[[B]], %arg1
// CHECK-NEXT: %[[D:.*]] = relay.maximum %[[C]], %arg1
// CHECK-NEXT: %[[E:.*]] = relay.minimum %[[D]], %arg1
// CHECK-NEXT: %[[F:.*]] = relay.power %[[E]], %arg1
// CHECK-NEXT: return %[[F]]
func.func @binary(%x: tensor<2x3xf32>, %y: tensor<1x3xf32>) -> tensor<2x3xf32> {
  %shift = "tosa.const"() {values = dense<0> : tensor<1xi8>} : () -> tensor<1xi8>
  %0 = tosa.add %x, %y : (tensor<2x3xf32>, tensor<1x3xf32>) -> tensor<2x3xf32>
  %1 = tosa.sub %0, %y : (tensor<2x3xf32>, tensor<1x3xf32>) -> tensor<2x3xf32>
  %2 = tosa.mul %1, %y, %shift : (tensor<2x3xf32>, tensor<1x3xf32>, tensor<1xi8>) -> tensor<2x3xf32>
  %3 = tosa.maximum %2, %y : (tensor<2x3xf32>, tensor<1x3xf32>) -> tensor<2x3xf32>
  %4 = tosa.minimum %3, %y : (tensor<2x3xf32>, tensor<1x3xf32>) -> tensor<2x3xf32>
  %5 = tosa.pow %4, %y : (tensor<2x3xf32>, tensor<1x3xf32>) -> tensor<2x3xf32>
  return %5 : tensor<2x3xf32>
}

// i16 multiplication has an i32 result in TOSA: operands are widened first.
// CHECK-LABEL: func.func @mul_widening
// CHECK-NEXT: %[[A:.*]] = relay.cast %arg0 {dtype = i32} : (tensor<4xi16>) -> tensor<4xi32>
// CHECK-NEXT: %[[B:.*]] = relay.cast %arg1 {dtype = i32} : (tensor<4xi16>) -> tensor<4xi32>
// CHECK-NEXT: relay.multiply %[[A]], %[[B]] : (tensor<4xi32>, tensor<4xi32>) -> tensor<4xi32>
func.func @mul_widening(%x: tensor<4xi16>, %y: tensor<4xi16>) -> tensor<4xi32> {
  %shift = "tosa.const"() {values = dense<0> : tensor<1xi8>} : () -> tensor<1xi8>
  %0 = tosa.mul %x, %y, %shift : (tensor<4xi16>, tensor<4xi16>, tensor<1xi8>) -> tensor<4xi32>
  return %0 : tensor<4xi32>
}

// CHECK-LABEL: func.func @intdiv
// CHECK-NEXT: relay.divide %arg0, %arg1 : (tensor<4xi32>, tensor<4xi32>) -> tensor<4xi32>
func.func @intdiv(%x: tensor<4xi32>, %y: tensor<4xi32>) -> tensor<4xi32> {
  %0 = tosa.intdiv %x, %y : (tensor<4xi32>, tensor<4xi32>) -> tensor<4xi32>
  return %0 : tensor<4xi32>
}

// CHECK-LABEL: func.func @compare_select
// CHECK-NEXT: %[[E:.*]] = relay.equal %arg0, %arg1 : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xi1>
// CHECK-NEXT: %[[G:.*]] = relay.greater %arg0, %arg1 : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xi1>
// CHECK-NEXT: %[[GE:.*]] = relay.greater_equal %arg0, %arg1 : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xi1>
// CHECK-NEXT: %[[W:.*]] = relay.where %[[G]], %arg0, %arg1 : (tensor<2x3xi1>, tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
// CHECK-NEXT: return %[[E]], %[[GE]], %[[W]]
func.func @compare_select(%x: tensor<2x3xf32>, %y: tensor<2x3xf32>) -> (tensor<2x3xi1>, tensor<2x3xi1>, tensor<2x3xf32>) {
  %0 = tosa.equal %x, %y : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xi1>
  %1 = tosa.greater %x, %y : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xi1>
  %2 = tosa.greater_equal %x, %y : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xi1>
  %3 = tosa.select %1, %x, %y : (tensor<2x3xi1>, tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
  return %0, %2, %3 : tensor<2x3xi1>, tensor<2x3xi1>, tensor<2x3xf32>
}

// clamp is maximum then minimum with rank-0 bounds.
// CHECK-LABEL: func.func @clamp
// CHECK-NEXT: %[[LO:.*]] = relay.constant dense<0.000000e+00> : tensor<f32>
// CHECK-NEXT: %[[A:.*]] = relay.maximum %arg0, %[[LO]] : (tensor<2x3xf32>, tensor<f32>) -> tensor<2x3xf32>
// CHECK-NEXT: %[[HI:.*]] = relay.constant dense<6.000000e+00> : tensor<f32>
// CHECK-NEXT: %[[B:.*]] = relay.minimum %[[A]], %[[HI]]
// CHECK-NEXT: return %[[B]]
func.func @clamp(%x: tensor<2x3xf32>) -> tensor<2x3xf32> {
  %0 = tosa.clamp %x {min_val = 0.0 : f32, max_val = 6.0 : f32} : (tensor<2x3xf32>) -> tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}

// A bound that cannot clip (the infinity on its side, an integer type's
// extreme) emits nothing.
// CHECK-LABEL: func.func @clamp_one_sided
// CHECK-NEXT: %[[LO:.*]] = relay.constant dense<0.000000e+00> : tensor<f32>
// CHECK-NEXT: %[[A:.*]] = relay.maximum %arg0, %[[LO]]
// CHECK-NEXT: %[[HI:.*]] = relay.constant dense<100> : tensor<i32>
// CHECK-NEXT: %[[B:.*]] = relay.minimum %arg1, %[[HI]] : (tensor<4xi32>, tensor<i32>) -> tensor<4xi32>
// CHECK-NEXT: return %[[A]], %[[B]], %arg0
func.func @clamp_one_sided(%x: tensor<2x3xf32>, %i: tensor<4xi32>) -> (tensor<2x3xf32>, tensor<4xi32>, tensor<2x3xf32>) {
  %0 = tosa.clamp %x {min_val = 0.0 : f32, max_val = 0x7F800000 : f32} : (tensor<2x3xf32>) -> tensor<2x3xf32>
  %1 = tosa.clamp %i {min_val = -2147483648 : i32, max_val = 100 : i32} : (tensor<4xi32>) -> tensor<4xi32>
  %2 = tosa.clamp %x {min_val = 0xFF800000 : f32, max_val = 0x7F800000 : f32} : (tensor<2x3xf32>) -> tensor<2x3xf32>
  return %0, %1, %2 : tensor<2x3xf32>, tensor<4xi32>, tensor<2x3xf32>
}

// The largest finite float still clips infinities: clamp(-inf) with
// min_val = -65504 is -65504, so both f16 bounds are kept.
// CHECK-LABEL: func.func @clamp_largest_finite
// CHECK-NEXT: %[[LO:.*]] = relay.constant dense<-6.550400e+04> : tensor<f16>
// CHECK-NEXT: %[[A:.*]] = relay.maximum %arg0, %[[LO]] : (tensor<4xf16>, tensor<f16>) -> tensor<4xf16>
// CHECK-NEXT: %[[HI:.*]] = relay.constant dense<6.550400e+04> : tensor<f16>
// CHECK-NEXT: %[[B:.*]] = relay.minimum %[[A]], %[[HI]]
// CHECK-NEXT: return %[[B]]
func.func @clamp_largest_finite(%x: tensor<4xf16>) -> tensor<4xf16> {
  %0 = tosa.clamp %x {min_val = -65504.0 : f16, max_val = 65504.0 : f16} : (tensor<4xf16>) -> tensor<4xf16>
  return %0 : tensor<4xf16>
}

// CHECK-LABEL: func.func @reciprocal_negate_abs
// CHECK-NEXT: %[[ONE:.*]] = relay.constant dense<1.000000e+00> : tensor<f32>
// CHECK-NEXT: %[[R:.*]] = relay.divide %[[ONE]], %arg0 : (tensor<f32>, tensor<2x3xf32>) -> tensor<2x3xf32>
// CHECK-NEXT: %[[N:.*]] = relay.negative %[[R]]
// CHECK-NEXT: %[[M:.*]] = relay.negative %[[N]]
// CHECK-NEXT: %[[A:.*]] = relay.maximum %[[N]], %[[M]]
// CHECK-NEXT: return %[[A]]
func.func @reciprocal_negate_abs(%x: tensor<2x3xf32>) -> tensor<2x3xf32> {
  %zp = "tosa.const"() {values = dense<0.0> : tensor<1xf32>} : () -> tensor<1xf32>
  %0 = tosa.reciprocal %x : (tensor<2x3xf32>) -> tensor<2x3xf32>
  %1 = tosa.negate %0, %zp, %zp : (tensor<2x3xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<2x3xf32>
  %2 = tosa.abs %1 : (tensor<2x3xf32>) -> tensor<2x3xf32>
  return %2 : tensor<2x3xf32>
}

// CHECK-LABEL: func.func @cast
// CHECK-NEXT: %[[A:.*]] = relay.cast %arg0 {dtype = f32} : (tensor<4xi8>) -> tensor<4xf32>
// CHECK-NEXT: %[[B:.*]] = relay.cast %[[A]] {dtype = f16} : (tensor<4xf32>) -> tensor<4xf16>
// CHECK-NEXT: %[[C:.*]] = relay.cast %arg0 {dtype = i1} : (tensor<4xi8>) -> tensor<4xi1>
// CHECK-NEXT: return %[[B]], %[[C]]
func.func @cast(%x: tensor<4xi8>) -> (tensor<4xf16>, tensor<4xi1>) {
  %0 = tosa.cast %x : (tensor<4xi8>) -> tensor<4xf32>
  %1 = tosa.cast %0 : (tensor<4xf32>) -> tensor<4xf16>
  %2 = tosa.cast %x : (tensor<4xi8>) -> tensor<4xi1>
  return %1, %2 : tensor<4xf16>, tensor<4xi1>
}

// A constant used as data becomes relay.constant; identity disappears.
// CHECK-LABEL: func.func @const_identity
// CHECK-NEXT: %[[C:.*]] = relay.constant dense<[1.000000e+00, 2.000000e+00]> : tensor<2xf32>
// CHECK-NEXT: %[[A:.*]] = relay.add %arg0, %[[C]]
// CHECK-NEXT: return %[[A]]
func.func @const_identity(%x: tensor<2xf32>) -> tensor<2xf32> {
  %c = "tosa.const"() {values = dense<[1.0, 2.0]> : tensor<2xf32>} : () -> tensor<2xf32>
  %0 = tosa.identity %x : (tensor<2xf32>) -> tensor<2xf32>
  %1 = tosa.add %0, %c : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>
  return %1 : tensor<2xf32>
}
