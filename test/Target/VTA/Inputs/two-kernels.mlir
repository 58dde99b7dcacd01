// Two functions with one packed VTA GEMM kernel each (test/Target/VTA/select-kernel.test).
func.func @first(%a: tensor<2x1x16xi8>, %b: tensor<2x16x16xi8>) -> tensor<1x16xi32> {
  %0 = tcg.kernel "nn.dense" (%x = %a : tensor<2x1x16xi8>, %w = %b : tensor<2x16x16xi8>) -> tensor<1x16xi32> attributes {tcg.tensorize = #tcg.tensorize<"vta.gemm.1x16x16", target = "vta", gemm = [1, 16, 16]>} {
    %1 = tcg.tensor %i in [0, 1) name "x" gemm_axis x -> tensor<1x16xi32> {
      %2 = tcg.tensor %n in [0, 16) name "y" gemm_axis y -> tensor<16xi32> {
        %3 = tcg.reduce add %k.o in [0, 2) name "k.o" -> i32 {
          %4 = tcg.reduce add %k in [0, 16) name "z" gemm_axis z -> i32 {
            %5 = tcg.input %x[%k.o, %i, %k] : tensor<2x1x16xi8>
            %6 = tcg.input %w[%k.o, %n, %k] : tensor<2x16x16xi8>
            %7 = tcg.compute mul %5, %6 : (i8, i8) -> i32
            tcg.yield %7 : i32
          }
          tcg.yield %4 : i32
        }
        tcg.yield %3 : i32
      }
      tcg.yield %2 : tensor<16xi32>
    }
    tcg.yield %1 : tensor<1x16xi32>
  }
  return %0 : tensor<1x16xi32>
}

func.func @second(%a: tensor<2x1x16xi8>, %b: tensor<2x16x16xi8>) -> tensor<1x16xi32> {
  %0 = tcg.kernel "nn.dense" (%x = %a : tensor<2x1x16xi8>, %w = %b : tensor<2x16x16xi8>) -> tensor<1x16xi32> attributes {tcg.tensorize = #tcg.tensorize<"vta.gemm.1x16x16", target = "vta", gemm = [1, 16, 16]>} {
    %1 = tcg.tensor %i in [0, 1) name "x" gemm_axis x -> tensor<1x16xi32> {
      %2 = tcg.tensor %n in [0, 16) name "y" gemm_axis y -> tensor<16xi32> {
        %3 = tcg.reduce add %k.o in [0, 2) name "k.o" -> i32 {
          %4 = tcg.reduce add %k in [0, 16) name "z" gemm_axis z -> i32 {
            %5 = tcg.input %x[%k.o, %i, %k] : tensor<2x1x16xi8>
            %6 = tcg.input %w[%k.o, %n, %k] : tensor<2x16x16xi8>
            %7 = tcg.compute mul %5, %6 : (i8, i8) -> i32
            tcg.yield %7 : i32
          }
          tcg.yield %4 : i32
        }
        tcg.yield %3 : i32
      }
      tcg.yield %2 : tensor<16xi32>
    }
    tcg.yield %1 : tensor<1x16xi32>
  }
  return %0 : tensor<1x16xi32>
}

