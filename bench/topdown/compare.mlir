// The GEMM and NHWC conv2d of operators.mlir at sizes the dataflow
// embedding (Rieber 2022, chapter 4) can map a 16-wide intrinsic onto
// without padding the reduction (k = 32; ic = oc = 16), for the comparison
// of top-down and dataflow embedding in bench/results/topdown.md. The
// top-down matching does not look at sizes (§3.3.2).

func.func @gemm(%ain: tensor<16x32xf32>, %bin: tensor<32x32xf32>) -> tensor<16x32xf32> {
  %r = tcg.kernel "gemm" (%a = %ain : tensor<16x32xf32>, %b = %bin : tensor<32x32xf32>) -> tensor<16x32xf32> attributes {arg_names = ["a", "b"]} {
    %0 = tcg.tensor %m in [0, 16) name "m" -> tensor<16x32xf32> {
      %1 = tcg.tensor %n in [0, 32) name "n" -> tensor<32xf32> {
        %s = tcg.reduce add %k in [0, 32) name "k" -> f32 {
          %x = tcg.input %a[%m, %k] : tensor<16x32xf32>
          %y = tcg.input %b[%n, %k] : tensor<32x32xf32>
          %p = tcg.compute mul %x, %y : (f32, f32) -> f32
          tcg.yield %p : f32
        }
        tcg.yield %s : f32
      }
      tcg.yield %1 : tensor<32xf32>
    }
    tcg.yield %0 : tensor<16x32xf32>
  }
  return %r : tensor<16x32xf32>
}

func.func @conv2d_nhwc(%din: tensor<1x10x10x16xf32>, %win: tensor<3x3x16x16xf32>) -> tensor<1x8x8x16xf32> {
  %r = tcg.kernel "conv2d_nhwc" (%data = %din : tensor<1x10x10x16xf32>, %w = %win : tensor<3x3x16x16xf32>) -> tensor<1x8x8x16xf32> attributes {arg_names = ["data", "w"]} {
    %0 = tcg.tensor %n in [0, 1) name "n" -> tensor<1x8x8x16xf32> {
      %1 = tcg.tensor %oh in [0, 8) name "oh" -> tensor<8x8x16xf32> {
        %2 = tcg.tensor %ow in [0, 8) name "ow" -> tensor<8x16xf32> {
          %3 = tcg.tensor %oc in [0, 16) name "oc" -> tensor<16xf32> {
            %4 = tcg.reduce add %kh in [0, 3) name "kh" -> f32 {
              %5 = tcg.reduce add %kw in [0, 3) name "kw" -> f32 {
                %6 = tcg.reduce add %ic in [0, 16) name "ic" -> f32 {
                  %x = tcg.input %data[%n, %oh + %kh, %ow + %kw, %ic] : tensor<1x10x10x16xf32>
                  %y = tcg.input %w[%kh, %kw, %ic, %oc] : tensor<3x3x16x16xf32>
                  %p = tcg.compute mul %x, %y : (f32, f32) -> f32
                  tcg.yield %p : f32
                }
                tcg.yield %6 : f32
              }
              tcg.yield %5 : f32
            }
            tcg.yield %4 : f32
          }
          tcg.yield %3 : tensor<16xf32>
        }
        tcg.yield %2 : tensor<8x16xf32>
      }
      tcg.yield %1 : tensor<8x8x16xf32>
    }
    tcg.yield %0 : tensor<1x8x8x16xf32>
  }
  return %r : tensor<1x8x8x16xf32>
}

