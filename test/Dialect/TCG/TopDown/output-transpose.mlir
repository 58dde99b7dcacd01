// RUN: raf-opt %s --tcg-topdown-transform=kind=output-transpose --split-input-file | FileCheck %s --check-prefix=OUT

// Output transpose (Rieber 2022, Fig. 3.9): t's dimensions i and j trade
// places, and r reads t[j, i].
// OUT-LABEL: func.func @output
// OUT:       %[[T:.*]] = tcg.tensor %j in [0, 8) name "j" -> tensor<8x4xf32> {
// OUT-NEXT:    tcg.tensor %i in [0, 4) name "i" -> tensor<4xf32> {
// OUT-NEXT:      tcg.input %a[%i, %j] : tensor<4x8xf32>
// OUT:         tcg.yield %{{.*}} : tensor<4xf32>
// OUT:       tcg.tensor %i in [0, 4) name "i" -> tensor<4x8xf32> {
// OUT-NEXT:    tcg.tensor %j in [0, 8) name "j" -> tensor<8xf32> {
// OUT-NEXT:      tcg.input %[[T]][%j, %i] : tensor<8x4xf32>
func.func @output(%ain: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %r = tcg.kernel (%a = %ain : tensor<4x8xf32>) -> tensor<4x8xf32> attributes {arg_names = ["a"]} {
    %t = tcg.tensor %i in [0, 4) name "i" -> tensor<4x8xf32> attributes {topdown.target} {
      %0 = tcg.tensor %j in [0, 8) name "j" -> tensor<8xf32> {
        %x = tcg.input %a[%i, %j] : tensor<4x8xf32>
        %p = tcg.compute mul %x, %x : (f32, f32) -> f32
        tcg.yield %p : f32
      }
      tcg.yield %0 : tensor<8xf32>
    }
    %u = tcg.tensor %i in [0, 4) name "i" -> tensor<4x8xf32> {
      %0 = tcg.tensor %j in [0, 8) name "j" -> tensor<8xf32> {
        %x = tcg.input %t[%i, %j] : tensor<4x8xf32>
        %c = tcg.constant 1.0 : f32
        %s = tcg.compute add %x, %c : (f32, f32) -> f32
        tcg.yield %s : f32
      }
      tcg.yield %0 : tensor<8xf32>
    }
    tcg.yield %u : tensor<4x8xf32>
  }
  return %r : tensor<4x8xf32>
}

// -----

// An inner pair of a rank-3 computation, read through a padded view: the
// view's lists are permuted with the indices.
// OUT-LABEL: func.func @inner_pair
// OUT:       %[[T:.*]] = tcg.tensor %i in [0, 2) name "i" -> tensor<2x4x3xf32> {
// OUT-NEXT:    tcg.tensor %k in [0, 4) name "k" -> tensor<4x3xf32> {
// OUT-NEXT:      tcg.tensor %j in [0, 3) name "j" -> tensor<3xf32> {
// OUT-NEXT:        tcg.input %a[%i, %j, %k] : tensor<2x3x4xf32>
// OUT:       tcg.input %[[T]][%i, %k + 1, %j] pad_low [0, 1, 0] pad_high [0, 1, 0] : tensor<2x4x3xf32>
func.func @inner_pair(%ain: tensor<2x3x4xf32>) -> tensor<2x3x4xf32> {
  %r = tcg.kernel (%a = %ain : tensor<2x3x4xf32>) -> tensor<2x3x4xf32> attributes {arg_names = ["a"]} {
    %t = tcg.tensor %i in [0, 2) name "i" -> tensor<2x3x4xf32> {
      %0 = tcg.tensor %j in [0, 3) name "j" -> tensor<3x4xf32> attributes {topdown.target} {
        %1 = tcg.tensor %k in [0, 4) name "k" -> tensor<4xf32> {
          %x = tcg.input %a[%i, %j, %k] : tensor<2x3x4xf32>
          tcg.yield %x : f32
        }
        tcg.yield %1 : tensor<4xf32>
      }
      tcg.yield %0 : tensor<3x4xf32>
    }
    %u = tcg.tensor %i in [0, 2) name "i" -> tensor<2x3x4xf32> {
      %0 = tcg.tensor %j in [0, 3) name "j" -> tensor<3x4xf32> {
        %1 = tcg.tensor %k in [0, 4) name "k" -> tensor<4xf32> {
          %x = tcg.input %t[%i, %j, %k + 1] pad_low [0, 0, 1] pad_high [0, 0, 1] : tensor<2x3x4xf32>
          tcg.yield %x : f32
        }
        tcg.yield %1 : tensor<4xf32>
      }
      tcg.yield %0 : tensor<3x4xf32>
    }
    tcg.yield %u : tensor<2x3x4xf32>
  }
  return %r : tensor<2x3x4xf32>
}

