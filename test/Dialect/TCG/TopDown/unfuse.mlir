// RUN: raf-opt %s --tcg-topdown-transform=kind=unfuse --split-input-file | FileCheck %s
// RUN: raf-opt %s --tcg-topdown-transform=kind=unfuse --split-input-file | raf-opt --split-input-file | FileCheck %s
// RUN: raf-opt %S/fusion.mlir --tcg-topdown-transform=kind=fusion --split-input-file | raf-opt --tcg-topdown-transform=kind=unfuse-all --split-input-file | FileCheck %s --check-prefix=ALL

// Inverse fusion (Fig. 3.12 read backwards): the local row t[y] of
// for x: {for y: t; for y: r} becomes the computation t[x, y] again, placed
// before the fused tensor, and r reads t[x, y]: the kernel before fusion.
// CHECK-LABEL: func.func @fig_3_12
// CHECK:       tcg.kernel
// CHECK-NEXT:    %[[T:.*]] = tcg.tensor %x in [0, 2) name "x" -> tensor<2x3xf32> {
// CHECK-NEXT:      %[[TR:.*]] = tcg.tensor %y in [0, 3) name "y" -> tensor<3xf32> {
// CHECK-NEXT:        %[[N:.*]] = tcg.input %n[%x, %y] : tensor<2x3xf32>
// CHECK-NEXT:        %[[A:.*]] = tcg.input %a[%x, %y] : tensor<2x3xf32>
// CHECK-NEXT:        %[[P:.*]] = tcg.compute mul %[[N]], %[[A]] : (f32, f32) -> f32
// CHECK-NEXT:        tcg.yield %[[P]] : f32
// CHECK-NEXT:      }
// CHECK-NEXT:      tcg.yield %[[TR]] : tensor<3xf32>
// CHECK-NEXT:    }
// CHECK-NEXT:    %[[R:.*]] = tcg.tensor %x in [0, 2) name "x" -> tensor<2x3xf32> {
// CHECK-NEXT:      %[[U:.*]] = tcg.tensor %y in [0, 3) name "y" -> tensor<3xf32> {
// CHECK-NEXT:        %[[V:.*]] = tcg.input %[[T]][%x, %y] : tensor<2x3xf32>
// CHECK-NEXT:        %[[S:.*]] = tcg.input %s[0] : tensor<1xf32>
// CHECK-NEXT:        %[[Q:.*]] = tcg.compute add %[[V]], %[[S]] : (f32, f32) -> f32
// CHECK-NEXT:        tcg.yield %[[Q]] : f32
// CHECK-NEXT:      }
// CHECK-NEXT:      tcg.yield %[[U]] : tensor<3xf32>
// CHECK-NEXT:    }
// CHECK-NEXT:    tcg.yield %[[R]] : tensor<2x3xf32>
func.func @fig_3_12(%nin: tensor<2x3xf32>, %ain: tensor<2x3xf32>, %sin: tensor<1xf32>) -> tensor<2x3xf32> {
  %r = tcg.kernel (%n = %nin : tensor<2x3xf32>, %a = %ain : tensor<2x3xf32>, %s = %sin : tensor<1xf32>) -> tensor<2x3xf32> attributes {arg_names = ["n", "a", "s"]} {
    %u = tcg.tensor %x in [0, 2) name "x" -> tensor<2x3xf32> {
      %t = tcg.tensor %y in [0, 3) name "y" -> tensor<3xf32> attributes {topdown.target} {
        %v = tcg.input %n[%x, %y] : tensor<2x3xf32>
        %w = tcg.input %a[%x, %y] : tensor<2x3xf32>
        %p = tcg.compute mul %v, %w : (f32, f32) -> f32
        tcg.yield %p : f32
      }
      %0 = tcg.tensor %y in [0, 3) name "y" -> tensor<3xf32> {
        %v = tcg.input %t[%y] : tensor<3xf32>
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

// A local row of a second-level fused body moves out one level: it becomes
// a local row of the x nest (t[y, z]), which the consumer reads at [y, z].
// The read t[z] uses no y (the fused iterator); it is added, t[y, z].
// CHECK-LABEL: func.func @second_level
// CHECK:       tcg.tensor %x in [0, 2) name "x" -> tensor<2x3x4xf32> {
// CHECK-NEXT:    %[[T:.*]] = tcg.tensor %y in [0, 3) name "y" -> tensor<3x4xf32> {
// CHECK-NEXT:      %[[TR:.*]] = tcg.tensor %z in [0, 4) name "z" -> tensor<4xf32> {
// CHECK-NEXT:        tcg.input %n[%x, %y, %z] : tensor<2x3x4xf32>
// CHECK-NEXT:        tcg.compute exp
// CHECK-NEXT:        tcg.yield
// CHECK-NEXT:      }
// CHECK-NEXT:      tcg.yield %[[TR]] : tensor<4xf32>
// CHECK-NEXT:    }
// CHECK-NEXT:    %[[Y:.*]] = tcg.tensor %y in [0, 3) name "y" -> tensor<3x4xf32> {
// CHECK-NEXT:      %[[U:.*]] = tcg.tensor %z in [0, 4) name "z" -> tensor<4xf32> {
// CHECK-NEXT:        tcg.input %[[T]][%y, %z] : tensor<3x4xf32>
// CHECK-NEXT:        tcg.compute exp
// CHECK:           tcg.yield
// CHECK-NEXT:      }
// CHECK-NEXT:      tcg.yield %[[U]] : tensor<4xf32>
// CHECK-NEXT:    }
// CHECK-NEXT:    tcg.yield %[[Y]] : tensor<3x4xf32>
func.func @second_level(%nin: tensor<2x3x4xf32>) -> tensor<2x3x4xf32> {
  %r = tcg.kernel (%n = %nin : tensor<2x3x4xf32>) -> tensor<2x3x4xf32> attributes {arg_names = ["n"]} {
    %0 = tcg.tensor %x in [0, 2) name "x" -> tensor<2x3x4xf32> {
      %u = tcg.tensor %y in [0, 3) name "y" -> tensor<3x4xf32> {
        %t = tcg.tensor %z in [0, 4) name "z" -> tensor<4xf32> attributes {topdown.target} {
          %v = tcg.input %n[%x, %y, %z] : tensor<2x3x4xf32>
          %e = tcg.compute exp %v : (f32) -> f32
          tcg.yield %e : f32
        }
        %1 = tcg.tensor %z in [0, 4) name "z" -> tensor<4xf32> {
          %v = tcg.input %t[%z] : tensor<4xf32>
          %q = tcg.compute exp %v : (f32) -> f32
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

// unfuse-all after fusion.mlir's fusions: every fused body split, the
// computations of one loop nest each. The first case is the kernel before
// its fusion; the second-level fused row ends as a top-level computation
// over x, y and z, which the consumer reads at [x, y, z].
// ALL-LABEL: func.func @fig_3_12
// ALL:       %[[T:.*]] = tcg.tensor %x in [0, 2) name "x" -> tensor<2x3xf32> {
// ALL-NEXT:    tcg.tensor %y in [0, 3) name "y" -> tensor<3xf32> {
// ALL-NEXT:      tcg.input %n[%x, %y]
// ALL:         tcg.tensor %x in [0, 2) name "x" -> tensor<2x3xf32> {
// ALL-NEXT:    tcg.tensor %y in [0, 3) name "y" -> tensor<3xf32> {
// ALL-NEXT:      tcg.input %[[T]][%x, %y] : tensor<2x3xf32>
// ALL-LABEL: func.func @second_level
// ALL:       tcg.kernel
// ALL-NEXT:    %[[T2:.*]] = tcg.tensor %x in [0, 2) name "x" -> tensor<2x3x4xf32> {
// ALL-NEXT:      tcg.tensor %y in [0, 3) name "y" -> tensor<3x4xf32> {
// ALL-NEXT:        tcg.tensor %z in [0, 4) name "z" -> tensor<4xf32> {
// ALL-NEXT:          tcg.input %n[%x, %y, %z]
// ALL:         tcg.tensor %x in [0, 2) name "x" -> tensor<2x3x4xf32> {
// ALL-NEXT:      tcg.tensor %y in [0, 3) name "y" -> tensor<3x4xf32> {
// ALL-NEXT:        tcg.tensor %z in [0, 4) name "z" -> tensor<4xf32> {
// ALL-NEXT:          tcg.input %[[T2]][%x, %y, %z] : tensor<2x3x4xf32>
// ALL-NOT:   tcg.input %{{[0-9]+}}[%z]
