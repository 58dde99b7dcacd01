// RUN: raf-opt %s --tcg-topdown-transform=kind=reduction-fission | FileCheck %s --check-prefix=REDUCE

// Reduction fission (Fig. 3.11) of a matrix-vector product: the element
// computation moves into a computation with the reduced dimension k, which
// the reduction then reads.
// REDUCE-LABEL: func.func @gemv
// REDUCE:       %[[P:.*]] = tcg.tensor %i in [0, 4) name "i" -> tensor<4x6xf32> {
// REDUCE-NEXT:    tcg.tensor %k in [0, 6) name "k" -> tensor<6xf32> {
// REDUCE-NEXT:      tcg.input %a[%i, %k] : tensor<4x6xf32>
// REDUCE-NEXT:      tcg.input %b[%k] : tensor<6xf32>
// REDUCE-NEXT:      tcg.compute mul
// REDUCE:       tcg.reduce add %k in [0, 6) name "k" -> f32 {
// REDUCE-NEXT:    %[[R:.*]] = tcg.input %[[P]][%i, %k] : tensor<4x6xf32>
// REDUCE-NEXT:    tcg.yield %[[R]] : f32
func.func @gemv(%ain: tensor<4x6xf32>, %bin: tensor<6xf32>) -> tensor<4xf32> {
  %r = tcg.kernel "gemv" (%a = %ain : tensor<4x6xf32>, %b = %bin : tensor<6xf32>) -> tensor<4xf32> attributes {arg_names = ["a", "b"]} {
    %0 = tcg.tensor %i in [0, 4) name "i" -> tensor<4xf32> {
      %1 = tcg.reduce add %k in [0, 6) name "k" -> f32 attributes {topdown.target} {
        %x = tcg.input %a[%i, %k] : tensor<4x6xf32>
        %y = tcg.input %b[%k] : tensor<6xf32>
        %p = tcg.compute mul %x, %y : (f32, f32) -> f32
        tcg.yield %p : f32
      }
      tcg.yield %1 : f32
    }
    tcg.yield %0 : tensor<4xf32>
  }
  return %r : tensor<4xf32>
}
