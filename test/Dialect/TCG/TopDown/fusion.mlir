// RUN: raf-opt %s --tcg-topdown-transform=kind=fusion --split-input-file | FileCheck %s
// RUN: raf-opt %s --tcg-topdown-transform=kind=fusion --split-input-file | raf-opt --split-input-file | FileCheck %s

// Fusion (Rieber 2022, Fig. 3.12): t[x, y] = n[x, y] * a[x, y] and
// r[x, y] = t[x, y] + s become, for each x, the row t[y] followed by the
// row r[y], which reads the local row t.
// CHECK-LABEL: func.func @fig_3_12
// CHECK:       tcg.kernel
// CHECK-NEXT:    %[[R:.*]] = tcg.tensor %x in [0, 2) name "x" -> tensor<2x3xf32> {
// CHECK-NEXT:      %[[T:.*]] = tcg.tensor %y in [0, 3) name "y" -> tensor<3xf32> {
// CHECK-NEXT:        %[[N:.*]] = tcg.input %n[%x, %y] : tensor<2x3xf32>
// CHECK-NEXT:        %[[A:.*]] = tcg.input %a[%x, %y] : tensor<2x3xf32>
// CHECK-NEXT:        %[[P:.*]] = tcg.compute mul %[[N]], %[[A]] : (f32, f32) -> f32
// CHECK-NEXT:        tcg.yield %[[P]] : f32
// CHECK-NEXT:      }
// CHECK-NEXT:      %[[U:.*]] = tcg.tensor %y in [0, 3) name "y" -> tensor<3xf32> {
// CHECK-NEXT:        %[[V:.*]] = tcg.input %[[T]][%y] : tensor<3xf32>
// CHECK-NEXT:        %[[S:.*]] = tcg.input %s[0] : tensor<1xf32>
// CHECK-NEXT:        %[[Q:.*]] = tcg.compute add %[[V]], %[[S]] : (f32, f32) -> f32
// CHECK-NEXT:        tcg.yield %[[Q]] : f32
// CHECK-NEXT:      }
// CHECK-NEXT:      tcg.yield %[[U]] : tensor<3xf32>
// CHECK-NEXT:    }
// CHECK-NEXT:    tcg.yield %[[R]] : tensor<2x3xf32>
func.func @fig_3_12(%nin: tensor<2x3xf32>, %ain: tensor<2x3xf32>, %sin: tensor<1xf32>) -> tensor<2x3xf32> {
  %r = tcg.kernel (%n = %nin : tensor<2x3xf32>, %a = %ain : tensor<2x3xf32>, %s = %sin : tensor<1xf32>) -> tensor<2x3xf32> attributes {arg_names = ["n", "a", "s"]} {
    %t = tcg.tensor %x in [0, 2) name "x" -> tensor<2x3xf32> attributes {topdown.target} {
      %0 = tcg.tensor %y in [0, 3) name "y" -> tensor<3xf32> {
        %v = tcg.input %n[%x, %y] : tensor<2x3xf32>
        %w = tcg.input %a[%x, %y] : tensor<2x3xf32>
        %p = tcg.compute mul %v, %w : (f32, f32) -> f32
        tcg.yield %p : f32
      }
      tcg.yield %0 : tensor<3xf32>
    }
    %u = tcg.tensor %x in [0, 2) name "x" -> tensor<2x3xf32> {
      %0 = tcg.tensor %y in [0, 3) name "y" -> tensor<3xf32> {
        %v = tcg.input %t[%x, %y] : tensor<2x3xf32>
        %c = tcg.input %s[0] : tensor<1xf32>
        %q = tcg.compute add %v, %c : (f32, f32) -> f32
        tcg.yield %q : f32
      }
      tcg.yield %0 : tensor<3xf32>
    }
    tcg.yield %u : tensor<2x3xf32>
  }
  return %r : tensor<2x3xf32>
}

// -----

// A local row of a fused body fuses again along the next dimension: the
// kernel is written fused along x, and the row t[y, z] moves into the row
// r[y, z] that reads it, leaving for x: for y: {for z: t[z]; for z: r[z]}.
// CHECK-LABEL: func.func @second_level
// CHECK:       tcg.tensor %x in [0, 2) name "x" -> tensor<2x3x4xf32> {
// CHECK-NEXT:    %[[Y:.*]] = tcg.tensor %y in [0, 3) name "y" -> tensor<3x4xf32> {
// CHECK-NEXT:      %[[T:.*]] = tcg.tensor %z in [0, 4) name "z" -> tensor<4xf32> {
// CHECK-NEXT:        tcg.input %n[%x, %y, %z] : tensor<2x3x4xf32>
// CHECK-NEXT:        tcg.input %a[%x, %y, %z] : tensor<2x3x4xf32>
// CHECK-NEXT:        tcg.compute mul
// CHECK-NEXT:        tcg.yield
// CHECK-NEXT:      }
// CHECK-NEXT:      %[[U:.*]] = tcg.tensor %z in [0, 4) name "z" -> tensor<4xf32> {
// CHECK-NEXT:        tcg.input %[[T]][%z] : tensor<4xf32>
// CHECK:           tcg.yield
// CHECK-NEXT:      }
// CHECK-NEXT:      tcg.yield %[[U]] : tensor<4xf32>
// CHECK-NEXT:    }
// CHECK-NEXT:    tcg.yield %[[Y]] : tensor<3x4xf32>
func.func @second_level(%nin: tensor<2x3x4xf32>, %ain: tensor<2x3x4xf32>) -> tensor<2x3x4xf32> {
  %r = tcg.kernel (%n = %nin : tensor<2x3x4xf32>, %a = %ain : tensor<2x3x4xf32>) -> tensor<2x3x4xf32> attributes {arg_names = ["n", "a"]} {
    %0 = tcg.tensor %x in [0, 2) name "x" -> tensor<2x3x4xf32> {
      %t = tcg.tensor %y in [0, 3) name "y" -> tensor<3x4xf32> attributes {topdown.target} {
        %1 = tcg.tensor %z in [0, 4) name "z" -> tensor<4xf32> {
          %v = tcg.input %n[%x, %y, %z] : tensor<2x3x4xf32>
          %w = tcg.input %a[%x, %y, %z] : tensor<2x3x4xf32>
          %p = tcg.compute mul %v, %w : (f32, f32) -> f32
          tcg.yield %p : f32
        }
        tcg.yield %1 : tensor<4xf32>
      }
      %u = tcg.tensor %y in [0, 3) name "y" -> tensor<3x4xf32> {
        %1 = tcg.tensor %z in [0, 4) name "z" -> tensor<4xf32> {
          %v = tcg.input %t[%y, %z] : tensor<3x4xf32>
          %q = tcg.compute max %v, %v : (f32, f32) -> f32
          tcg.yield %q : f32
        }
        tcg.yield %1 : tensor<4xf32>
      }
      tcg.yield %u : tensor<3x4xf32>
    }
    tcg.yield %0 : tensor<2x3x4xf32>
  }
  return %r : tensor<2x3x4xf32>
}
