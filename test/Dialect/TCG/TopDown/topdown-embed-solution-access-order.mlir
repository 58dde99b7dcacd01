// --tcg-topdown-embed=search=true counts solutions that apply the same
// program once, also when their graphs write a read's access with the
// terms of a sum in another order (`%oh + %kh` from one search path,
// `%kh + %oh` from another): both read the same element, and
// --tcg-apply-strategy makes them the same program.
// RUN: raf-opt %s --tcg-topdown-embed="search=true selective-masking=true max-maskings=65536" | FileCheck %s --check-prefix=BEST
// RUN: raf-opt %s --tcg-topdown-embed="search=true selective-masking=true max-maskings=65536 solution=1" | FileCheck %s --check-prefix=SECOND
// RUN: raf-opt %s --tcg-topdown-embed="search=true selective-masking=true max-maskings=65536 solution=2" -verify-diagnostics -o /dev/null

// Conv2D (Rieber 2022, Tab. 3.3, bench/topdown/operators.mlir): two
// applicable programs.
// BEST:       tcg.kernel "conv2d_nhwc.0" {{.*}}topdown.solution = array<i64: 0, 2>
// SECOND:     tcg.kernel "conv2d_nhwc.0" {{.*}}topdown.solution = array<i64: 1, 2>
func.func @conv2d_nhwc(%din: tensor<1x6x6x4xf32>, %win: tensor<3x3x4x8xf32>) -> tensor<1x4x4x8xf32> {
  // expected-error @+1 {{--tcg-topdown-embed: solution=2 is out of range: the search (config 4) found 2 applicable solution(s) (0 to 1)}}
  %r = tcg.kernel "conv2d_nhwc" (%data = %din : tensor<1x6x6x4xf32>, %w = %win : tensor<3x3x4x8xf32>) -> tensor<1x4x4x8xf32> attributes {arg_names = ["data", "w"]} {
    %0 = tcg.tensor %n in [0, 1) name "n" -> tensor<1x4x4x8xf32> {
      %1 = tcg.tensor %oh in [0, 4) name "oh" -> tensor<4x4x8xf32> {
        %2 = tcg.tensor %ow in [0, 4) name "ow" -> tensor<4x8xf32> {
          %3 = tcg.tensor %oc in [0, 8) name "oc" -> tensor<8xf32> {
            %4 = tcg.reduce add %kh in [0, 3) name "kh" -> f32 {
              %5 = tcg.reduce add %kw in [0, 3) name "kw" -> f32 {
                %6 = tcg.reduce add %ic in [0, 4) name "ic" -> f32 {
                  %x = tcg.input %data[%n, %oh + %kh, %ow + %kw, %ic] : tensor<1x6x6x4xf32>
                  %y = tcg.input %w[%kh, %kw, %ic, %oc] : tensor<3x3x4x8xf32>
                  %p = tcg.compute mul %x, %y : (f32, f32) -> f32
                  tcg.yield %p : f32
                }
                tcg.yield %6 : f32
              }
              tcg.yield %5 : f32
            }
            tcg.yield %4 : f32
          }
          tcg.yield %3 : tensor<8xf32>
        }
        tcg.yield %2 : tensor<4x8xf32>
      }
      tcg.yield %1 : tensor<4x4x8xf32>
    }
    tcg.yield %0 : tensor<1x4x4x8xf32>
  }
  return %r : tensor<1x4x4x8xf32>
}
