// RUN: raf-opt %s --raf-autocast=inference=true | FileCheck %s

// Category `infer`: the first k float operands follow their majority,
// counting f16 against f32; ties go to f16. Elementwise, broadcast and
// injective consumers get exclusive casts.

// relu of an f16 value stays f16; divide (k = 2) of f16 and f32 is a tie:
// both f16; maximum of two f32 values: f32, nothing to do.
// CHECK-LABEL: func.func @majority(
// CHECK-SAME: %[[X:.*]]: tensor<4x8xf32>, %[[W:.*]]: tensor<8x8xf32>, %[[S:.*]]: tensor<8xf32>)
// CHECK:        %[[P:.*]] = relay.nn.matmul
// CHECK-NEXT:   %[[R:.*]] = relay.nn.relu %[[P]] : (tensor<4x8xf16>) -> tensor<4x8xf16>
// CHECK-NEXT:   %[[SH:.*]] = relay.cast %[[S]] {dtype = f16} : (tensor<8xf32>) -> tensor<8xf16>
// CHECK-NEXT:   %[[D:.*]] = relay.divide %[[R]], %[[SH]] : (tensor<4x8xf16>, tensor<8xf16>) -> tensor<4x8xf16>
// CHECK-NEXT:   %[[M:.*]] = relay.maximum %[[X]], %[[X]] : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
// CHECK-NEXT:   return %[[D]], %[[M]] : tensor<4x8xf16>, tensor<4x8xf32>
func.func @majority(%x: tensor<4x8xf32>, %w: tensor<8x8xf32>, %s: tensor<8xf32>)
    -> (tensor<4x8xf32>, tensor<4x8xf32>) {
  %p = relay.nn.matmul %x, %w : (tensor<4x8xf32>, tensor<8x8xf32>)
  %r = relay.nn.relu %p : (tensor<4x8xf32>)
  %d = relay.divide %r, %s : (tensor<4x8xf32>, tensor<8xf32>)
  %m = relay.maximum %x, %x : (tensor<4x8xf32>, tensor<4x8xf32>)
  return %d, %m : tensor<4x8xf32>, tensor<4x8xf32>
}

// where (k = 3): the i1 condition does not count and keeps its type; one
// f16 and one f32 operand tie, so both become f16. layer_norm (k = 3): one
// f16 operand against f32 gamma and beta: f32 wins and the product is cast
// back.
// CHECK-LABEL: func.func @three(
// CHECK-SAME: %[[X:.*]]: tensor<4x8xf32>, %[[W:.*]]: tensor<8x8xf32>, %[[C:.*]]: tensor<4x8xi1>, %[[G:.*]]: tensor<8xf32>, %[[B:.*]]: tensor<8xf32>)
// CHECK:        %[[P:.*]] = relay.nn.matmul
// CHECK-NEXT:   %[[XH:.*]] = relay.cast %[[X]] {dtype = f16}
// CHECK-NEXT:   %[[SEL:.*]] = relay.where %[[C]], %[[P]], %[[XH]] : (tensor<4x8xi1>, tensor<4x8xf16>, tensor<4x8xf16>) -> tensor<4x8xf16>
// CHECK-NEXT:   %[[PF:.*]] = relay.cast %[[P]] {dtype = f32}
// CHECK-NEXT:   %[[LN:.*]] = relay.nn.layer_norm %[[PF]], %[[G]], %[[B]] : (tensor<4x8xf32>, tensor<8xf32>, tensor<8xf32>) -> tensor<4x8xf32>
// CHECK-NEXT:   return %[[SEL]], %[[LN]] : tensor<4x8xf16>, tensor<4x8xf32>
func.func @three(%x: tensor<4x8xf32>, %w: tensor<8x8xf32>, %c: tensor<4x8xi1>,
                 %g: tensor<8xf32>, %b: tensor<8xf32>) -> (tensor<4x8xf32>, tensor<4x8xf32>) {
  %p = relay.nn.matmul %x, %w : (tensor<4x8xf32>, tensor<8x8xf32>)
  %sel = relay.where %c, %p, %x : (tensor<4x8xi1>, tensor<4x8xf32>, tensor<4x8xf32>)
  %ln = relay.nn.layer_norm %p, %g, %b : (tensor<4x8xf32>, tensor<8xf32>, tensor<8xf32>)
  return %sel, %ln : tensor<4x8xf32>, tensor<4x8xf32>
}

// Two broadcast consumers (maximum, minimum) of one f32 value, each tied
// with an f16 operand: each gets its own cast of the value (exclusive), so
// that fusion can take it in. The reduction mean (k = 1) follows its f16
// operand; a comparison of integers has nothing to cast; argmax follows its
// f16 operand and keeps its i32 result.
// CHECK-LABEL: func.func @exclusive(
// CHECK-SAME: %[[X:.*]]: tensor<4x8xf32>, %[[W:.*]]: tensor<8x8xf32>, %[[Y:.*]]: tensor<4x8xf32>, %[[I:.*]]: tensor<4xi32>)
// CHECK:        %[[P:.*]] = relay.nn.matmul
// CHECK-NEXT:   %[[A:.*]] = relay.divide %[[P]], %[[P]]
// CHECK-NEXT:   %[[Y1:.*]] = relay.cast %[[Y]] {dtype = f16}
// CHECK-NEXT:   %[[ADD1:.*]] = relay.maximum %[[A]], %[[Y1]]
// CHECK-NEXT:   %[[Y2:.*]] = relay.cast %[[Y]] {dtype = f16}
// CHECK-NEXT:   %[[ADD2:.*]] = relay.minimum %[[A]], %[[Y2]]
// CHECK-NEXT:   %[[MEAN:.*]] = relay.mean %[[ADD2]] : (tensor<4x8xf16>) -> tensor<f16>
// CHECK-NEXT:   %[[LESS:.*]] = relay.less %[[I]], %[[I]] : (tensor<4xi32>, tensor<4xi32>) -> tensor<4xi1>
// CHECK-NEXT:   %[[AM:.*]] = relay.argmax %[[ADD1]] : (tensor<4x8xf16>) -> tensor<i32>
// CHECK-NEXT:   return
func.func @exclusive(%x: tensor<4x8xf32>, %w: tensor<8x8xf32>, %y: tensor<4x8xf32>, %i: tensor<4xi32>)
    -> (tensor<4x8xf32>, tensor<f32>, tensor<4xi1>, tensor<i32>) {
  %p = relay.nn.matmul %x, %w : (tensor<4x8xf32>, tensor<8x8xf32>)
  %a = relay.divide %p, %p : (tensor<4x8xf32>, tensor<4x8xf32>)
  %m1 = relay.maximum %a, %y : (tensor<4x8xf32>, tensor<4x8xf32>)
  %m2 = relay.minimum %a, %y : (tensor<4x8xf32>, tensor<4x8xf32>)
  %mean = relay.mean %m2 : (tensor<4x8xf32>)
  %less = relay.less %i, %i : (tensor<4xi32>, tensor<4xi32>)
  %am = relay.argmax %m1 : (tensor<4x8xf32>)
  return %m1, %mean, %less, %am : tensor<4x8xf32>, tensor<f32>, tensor<4xi1>, tensor<i32>
}

// Without castable operands (zeros, k = 0) the result keeps its dtype.
// CHECK-LABEL: func.func @no_operands(
// CHECK-NEXT:   %[[Z:.*]] = relay.zeros {dtype = f32, shape = array<i64: 2>} : () -> tensor<2xf32>
// CHECK-NEXT:   return %[[Z]] : tensor<2xf32>
func.func @no_operands() -> tensor<2xf32> {
  %z = relay.zeros {dtype = f32, shape = array<i64: 2>} : ()
  return %z : tensor<2xf32>
}
