// RUN: raf-opt %s --canonicalize | FileCheck %s

// What canonicalisation does to casts, which the training pipeline runs
// after AutoCast: a cast folds into its operand only when it casts to the
// operand's own type (AutoCast never creates one); casts between different
// types stay, including a cast pair (AutoCast avoids pairs itself, with its
// reverse cache) and two identical casts of one value (AutoCast's exclusive
// casts: only CSE would merge them).
// CHECK-LABEL: func.func @cast_folds
// CHECK-SAME: (%[[X:.*]]: tensor<4xf32>)
// CHECK-NEXT: %[[H:.*]] = relay.cast %[[X]] {dtype = f16}
// CHECK-NEXT: %[[F:.*]] = relay.cast %[[H]] {dtype = f32}
// CHECK-NEXT: %[[H2:.*]] = relay.cast %[[X]] {dtype = f16}
// CHECK-NEXT: return %[[X]], %[[H]], %[[F]], %[[H2]]
func.func @cast_folds(%x: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf16>, tensor<4xf32>, tensor<4xf16>) {
  %same = relay.cast %x {dtype = f32} : (tensor<4xf32>)
  %h = relay.cast %x {dtype = f16} : (tensor<4xf32>)
  %f = relay.cast %h {dtype = f32} : (tensor<4xf16>)
  %h2 = relay.cast %x {dtype = f16} : (tensor<4xf32>)
  return %same, %h, %f, %h2 : tensor<4xf32>, tensor<4xf16>, tensor<4xf32>, tensor<4xf16>
}
