// RUN: raf-opt %s --raf-autocast=inference=true | FileCheck %s

// Existing casts keep their target type. A cast whose operand already has
// that type (after AutoCast changed the operand) disappears, and a later
// request to cast a cast's result back to its source type yields the source
// itself (the reverse cache): no cast/uncast pairs.

// relu infers from the uncast operand (f32 %x): f32, and takes %x instead of
// casting %h back. The explicit cast, now unused, is removed.
// CHECK-LABEL: func.func @reverse(
// CHECK-SAME: %[[X:.*]]: tensor<4xf32>)
// CHECK-NEXT:   %[[R:.*]] = relay.nn.relu %[[X]] : (tensor<4xf32>) -> tensor<4xf32>
// CHECK-NEXT:   return %[[R]] : tensor<4xf32>
func.func @reverse(%x: tensor<4xf32>) -> tensor<4xf32> {
  %h = relay.cast %x {dtype = f16} : (tensor<4xf32>)
  %r = relay.nn.relu %h : (tensor<4xf16>)
  %f = relay.cast %r {dtype = f32} : (tensor<4xf16>)
  return %f : tensor<4xf32>
}

// The product is f16 after AutoCast, so the explicit cast to f16 is an
// identity and goes; its consumer exp keeps the precision the cast gave
// (f16): "don't touch" is the cast's own type.
// CHECK-LABEL: func.func @identity(
// CHECK:        %[[P:.*]] = relay.nn.matmul
// CHECK-NEXT:   %[[E:.*]] = relay.exp %[[P]] : (tensor<2x2xf16>) -> tensor<2x2xf16>
// CHECK-NEXT:   return %[[E]] : tensor<2x2xf16>
func.func @identity(%x: tensor<2x2xf32>) -> tensor<2x2xf16> {
  %p = relay.nn.matmul %x, %x : (tensor<2x2xf32>, tensor<2x2xf32>)
  %h = relay.cast %p {dtype = f16} : (tensor<2x2xf32>)
  %e = relay.exp %h : (tensor<2x2xf16>)
  return %e : tensor<2x2xf16>
}

// A cast from a non-float type is not undone: the i1 mask is cast to f32
// and, used with an f16 value, the f32 mask is cast on to f16 (the binary
// rule), never back to i1.
// CHECK-LABEL: func.func @from_bool(
// CHECK-SAME: %[[X:.*]]: tensor<2x2xf32>, %[[B:.*]]: tensor<2x2xi1>)
// CHECK:        %[[P:.*]] = relay.nn.matmul
// CHECK-NEXT:   %[[M:.*]] = relay.cast %[[B]] {dtype = f32} : (tensor<2x2xi1>) -> tensor<2x2xf32>
// CHECK-NEXT:   %[[MH:.*]] = relay.cast %[[M]] {dtype = f16} : (tensor<2x2xf32>) -> tensor<2x2xf16>
// CHECK-NEXT:   %[[A:.*]] = relay.add %[[P]], %[[MH]] : (tensor<2x2xf16>, tensor<2x2xf16>) -> tensor<2x2xf16>
func.func @from_bool(%x: tensor<2x2xf32>, %b: tensor<2x2xi1>) -> tensor<2x2xf32> {
  %p = relay.nn.matmul %x, %x : (tensor<2x2xf32>, tensor<2x2xf32>)
  %m = relay.cast %b {dtype = f32} : (tensor<2x2xi1>)
  %a = relay.add %p, %m : (tensor<2x2xf32>, tensor<2x2xf32>)
  return %a : tensor<2x2xf32>
}
