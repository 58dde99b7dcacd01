// RUN: raf-opt %s --tcg-topdown-transform=kind=swap | FileCheck %s --check-prefix=SWAP
// RUN: raf-opt %s --tcg-topdown-transform=kind=canonicalize | FileCheck %s --check-prefix=CANON

// Operand swap (Rieber 2022, Fig. 3.7) of the marked compute, and the
// canonical form of Tab. 3.2 on every compute.

// SWAP-LABEL: func.func @swap
// SWAP:       %[[A:.*]] = tcg.input %a[%i] : tensor<4xf32>
// SWAP-NEXT:  %[[B:.*]] = tcg.input %b[%i] : tensor<4xf32>
// SWAP-NEXT:  tcg.compute mul %[[B]], %[[A]] : (f32, f32) -> f32
// SWAP-NOT:   topdown.target
func.func @swap(%ain: tensor<4xf32>, %bin: tensor<4xf32>) -> tensor<4xf32> {
  %r = tcg.kernel (%a = %ain : tensor<4xf32>, %b = %bin : tensor<4xf32>) -> tensor<4xf32> attributes {arg_names = ["a", "b"]} {
    %0 = tcg.tensor %i in [0, 4) name "i" -> tensor<4xf32> {
      %x = tcg.input %a[%i] : tensor<4xf32>
      %y = tcg.input %b[%i] : tensor<4xf32>
      %p = tcg.compute mul %x, %y {topdown.target} : (f32, f32) -> f32
      tcg.yield %p : f32
    }
    tcg.yield %0 : tensor<4xf32>
  }
  return %r : tensor<4xf32>
}

// Tab. 3.2: a constant goes right; an intermediate value (here a read of
// the earlier computation %t, and a compute result) goes left; a
// non-commutative operation keeps its order.
// CANON-LABEL: func.func @canonical
// CANON:       %[[T:.*]] = tcg.tensor %i in [0, 4) name "i"
// CANON:         %[[X:.*]] = tcg.input %a[%i]
// CANON-NEXT:    %[[ONE:.*]] = tcg.constant 1.000000e+00 : f32
// CANON-NEXT:    tcg.compute add %[[X]], %[[ONE]]
// CANON:         %[[X2:.*]] = tcg.input %a[%i]
// CANON-NEXT:    %[[D:.*]] = tcg.input %[[T]][%i]
// CANON-NEXT:    %[[M:.*]] = tcg.compute mul %[[D]], %[[X2]]
// CANON-NEXT:    %[[C:.*]] = tcg.constant 2.000000e+00 : f32
// CANON-NEXT:    %[[S:.*]] = tcg.compute sub %[[C]], %[[M]]
// CANON-NEXT:    tcg.compute max %[[S]], %[[X2]]
func.func @canonical(%ain: tensor<4xf32>) -> tensor<4xf32> {
  %r = tcg.kernel (%a = %ain : tensor<4xf32>) -> tensor<4xf32> attributes {arg_names = ["a"]} {
    %t = tcg.tensor %i in [0, 4) name "i" -> tensor<4xf32> {
      %x = tcg.input %a[%i] : tensor<4xf32>
      %one = tcg.constant 1.0 : f32
      %s = tcg.compute add %one, %x : (f32, f32) -> f32
      tcg.yield %s : f32
    }
    %u = tcg.tensor %i in [0, 4) name "i" -> tensor<4xf32> {
      %x = tcg.input %a[%i] : tensor<4xf32>
      %d = tcg.input %t[%i] : tensor<4xf32>
      %m = tcg.compute mul %x, %d : (f32, f32) -> f32
      %c = tcg.constant 2.0 : f32
      %s = tcg.compute sub %c, %m : (f32, f32) -> f32
      %n = tcg.compute max %x, %s : (f32, f32) -> f32
      tcg.yield %n : f32
    }
    tcg.yield %u : tensor<4xf32>
  }
  return %r : tensor<4xf32>
}
