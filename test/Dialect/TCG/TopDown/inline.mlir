// RUN: raf-opt %s --tcg-topdown-transform=kind=inline --split-input-file | FileCheck %s

// Compute inlining (Rieber 2022, Fig. 3.13): t[x, y] = n[x, y] * a[x, y]
// and r[x, y] = t[x, y] + s become r[x, y] = n[x, y] * a[x, y] + s.
// CHECK-LABEL: func.func @compute
// CHECK:       tcg.kernel
// CHECK-NEXT:    tcg.tensor %x in [0, 2) name "x" -> tensor<2x3xf32> {
// CHECK-NEXT:      tcg.tensor %y in [0, 3) name "y" -> tensor<3xf32> {
// CHECK-NEXT:        %[[N:.*]] = tcg.input %n[%x, %y] : tensor<2x3xf32>
// CHECK-NEXT:        %[[A:.*]] = tcg.input %a[%x, %y] : tensor<2x3xf32>
// CHECK-NEXT:        %[[P:.*]] = tcg.compute mul %[[N]], %[[A]] : (f32, f32) -> f32
// CHECK-NEXT:        %[[S:.*]] = tcg.input %s[0] : tensor<1xf32>
// CHECK-NEXT:        tcg.compute add %[[P]], %[[S]] : (f32, f32) -> f32
// CHECK-NOT:     tcg.tensor
func.func @compute(%nin: tensor<2x3xf32>, %ain: tensor<2x3xf32>, %sin: tensor<1xf32>) -> tensor<2x3xf32> {
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

// Reduction inlining (Fig. 3.14): t[x, y, z] = n[x, z] * a[z, y] and
// r[x, y] = sum_z t[x, y, z] become r[x, y] = sum_z n[x, z] * a[z, y]; the
// access functions compose (t is read transposed here, t[x, z, y]).
// CHECK-LABEL: func.func @reduction
// CHECK:       tcg.reduce add %z in [0, 4) name "z" -> f32 {
// CHECK-NEXT:    %[[N:.*]] = tcg.input %n[%x, %z] : tensor<2x4xf32>
// CHECK-NEXT:    %[[A:.*]] = tcg.input %a[%z, %y] : tensor<4x3xf32>
// CHECK-NEXT:    %[[P:.*]] = tcg.compute mul %[[N]], %[[A]] : (f32, f32) -> f32
// CHECK-NEXT:    tcg.yield %[[P]] : f32
func.func @reduction(%nin: tensor<2x4xf32>, %ain: tensor<4x3xf32>) -> tensor<2x3xf32> {
  %r = tcg.kernel (%n = %nin : tensor<2x4xf32>, %a = %ain : tensor<4x3xf32>) -> tensor<2x3xf32> attributes {arg_names = ["n", "a"]} {
    %t = tcg.tensor %i in [0, 2) name "i" -> tensor<2x4x3xf32> attributes {topdown.target} {
      %0 = tcg.tensor %k in [0, 4) name "k" -> tensor<4x3xf32> {
        %1 = tcg.tensor %j in [0, 3) name "j" -> tensor<3xf32> {
          %v = tcg.input %n[%i, %k] : tensor<2x4xf32>
          %w = tcg.input %a[%k, %j] : tensor<4x3xf32>
          %p = tcg.compute mul %v, %w : (f32, f32) -> f32
          tcg.yield %p : f32
        }
        tcg.yield %1 : tensor<3xf32>
      }
      tcg.yield %0 : tensor<4x3xf32>
    }
    %u = tcg.tensor %x in [0, 2) name "x" -> tensor<2x3xf32> {
      %0 = tcg.tensor %y in [0, 3) name "y" -> tensor<3xf32> {
        %1 = tcg.reduce add %z in [0, 4) name "z" -> f32 {
          %v = tcg.input %t[%x, %z, %y] : tensor<2x4x3xf32>
          tcg.yield %v : f32
        }
        tcg.yield %1 : f32
      }
      tcg.yield %0 : tensor<3xf32>
    }
    tcg.yield %u : tensor<2x3xf32>
  }
  return %r : tensor<2x3xf32>
}

// -----

// Two marked computations, one reading the other, inlined at every read;
// the access functions compose (t2 read at 3 - i reads a at 3 - i).
// CHECK-LABEL: func.func @chain
// CHECK:       tcg.kernel
// CHECK-NEXT:    tcg.tensor %i in [0, 4) name "i" -> tensor<4xf32> {
// CHECK-NEXT:      %[[A:.*]] = tcg.input %a[-%i + 3] : tensor<4xf32>
// CHECK-NEXT:      %[[P:.*]] = tcg.compute mul %[[A]], %[[A]]
// CHECK-NEXT:      %[[E:.*]] = tcg.compute exp %[[P]]
// CHECK-NEXT:      %[[B:.*]] = tcg.input %a[%i] : tensor<4xf32>
// CHECK-NEXT:      %[[Q:.*]] = tcg.compute mul %[[B]], %[[B]]
// CHECK-NEXT:      tcg.compute add %[[E]], %[[Q]]
// CHECK-NOT:     tcg.tensor
func.func @chain(%ain: tensor<4xf32>) -> tensor<4xf32> {
  %r = tcg.kernel (%a = %ain : tensor<4xf32>) -> tensor<4xf32> attributes {arg_names = ["a"]} {
    %t1 = tcg.tensor %i in [0, 4) name "i" -> tensor<4xf32> attributes {topdown.target} {
      %x = tcg.input %a[%i] : tensor<4xf32>
      %p = tcg.compute mul %x, %x : (f32, f32) -> f32
      tcg.yield %p : f32
    }
    %t2 = tcg.tensor %i in [0, 4) name "i" -> tensor<4xf32> attributes {topdown.target} {
      %x = tcg.input %t1[%i] : tensor<4xf32>
      %e = tcg.compute exp %x : (f32) -> f32
      tcg.yield %e : f32
    }
    %0 = tcg.tensor %i in [0, 4) name "i" -> tensor<4xf32> {
      %x = tcg.input %t2[3 - %i] : tensor<4xf32>
      %y = tcg.input %t1[%i] : tensor<4xf32>
      %s = tcg.compute add %x, %y : (f32, f32) -> f32
      tcg.yield %s : f32
    }
    tcg.yield %0 : tensor<4xf32>
  }
  return %r : tensor<4xf32>
}
