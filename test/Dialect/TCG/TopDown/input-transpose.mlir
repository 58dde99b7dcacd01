// RUN: raf-opt %s --tcg-topdown-transform=kind=input-transpose | FileCheck %s --check-prefix=IN

// Input transpose (Fig. 3.8): the product reads b through a transposed
// copy, b^T[n, k] = b[k, n], placed first in the kernel.
// IN-LABEL: func.func @input
// IN:       %[[C:.*]] = tcg.tensor %t0 in [0, 3) name "t0" -> tensor<3x5xf32> {
// IN-NEXT:    tcg.tensor %t1 in [0, 5) name "t1" -> tensor<5xf32> {
// IN-NEXT:      tcg.input %b[%t1, %t0] : tensor<5x3xf32>
// IN:       tcg.tensor %m in [0, 2) name "m"
// IN:         tcg.input %a[%m, %k] : tensor<2x5xf32>
// IN-NEXT:    tcg.input %[[C]][%n, %k] : tensor<3x5xf32>
func.func @input(%ain: tensor<2x5xf32>, %bin: tensor<5x3xf32>) -> tensor<2x3xf32> {
  %r = tcg.kernel (%a = %ain : tensor<2x5xf32>, %b = %bin : tensor<5x3xf32>) -> tensor<2x3xf32> attributes {arg_names = ["a", "b"]} {
    %0 = tcg.tensor %m in [0, 2) name "m" -> tensor<2x3xf32> {
      %1 = tcg.tensor %n in [0, 3) name "n" -> tensor<3xf32> {
        %2 = tcg.reduce add %k in [0, 5) name "k" -> f32 {
          %x = tcg.input %a[%m, %k] : tensor<2x5xf32>
          %y = tcg.input %b[%k, %n] {topdown.target = array<i64: 1, 0>} : tensor<5x3xf32>
          %p = tcg.compute mul %x, %y : (f32, f32) -> f32
          tcg.yield %p : f32
        }
        tcg.yield %2 : f32
      }
      tcg.yield %1 : tensor<3xf32>
    }
    tcg.yield %0 : tensor<2x3xf32>
  }
  return %r : tensor<2x3xf32>
}
