// RUN: raf-opt %s --convert-tcg-to-vta="acc-dep-distance=3 tile-sizes=2,4" --convert-vta-to-vta-isa --verify-diagnostics -o /dev/null
// RUN: raf-opt %s --convert-tcg-to-vta="tile-sizes=2,4" --convert-vta-to-vta-isa | FileCheck %s
// RUN: raf-opt %s --convert-tcg-to-vta="acc-dep-distance=3 report=true" --convert-vta-to-vta-isa -o /dev/null 2>&1 | FileCheck %s --check-prefix=SEARCH

// Two output rows and a reduction of four in one tile: whatever the order,
// the GEMM writes a row again within two steps, which the HLS pipeline
// cannot do (ACC_DEP_DISTANCE = 3). The simulator computes the right result
// anyway, so the check is opt-in; without it the tile lowers with the
// fewest micro-ops (loops over k.o and m).
// CHECK:      vta_isa.gemm uop_bgn = 0, uop_end = 1, iter_out = 4, iter_in = 2, dst_factor_out = 0, dst_factor_in = 1, src_factor_out = 1, src_factor_in = 4, wgt_factor_out = 1, wgt_factor_in = 0 pop_prev_dep

// With the check, the search splits the reduction or the rows over more
// GEMM instructions; the pipeline drains between instructions.
// SEARCH: remark: vta: cycles={{[0-9]+}} tiles=[m={{[12]}}, k.o={{[1-4]}}]

func.func @two_rows(%a: tensor<2x4x1x16xi8>, %b: tensor<4x16x16xi8>) -> tensor<2x1x16xi32> {
  // expected-note @+2 {{tile iterators (parallel first): m = 2, k.o = 4}}
  // expected-error @+1 {{cannot lower this kernel to VTA: invalid schedule: the GEMM writes an accumulator row again within 3 micro-op steps (too few independent output rows per tile)}}
  %0 = tcg.kernel "nn.dense" (%x = %a : tensor<2x4x1x16xi8>, %w = %b : tensor<4x16x16xi8>) -> tensor<2x1x16xi32> attributes {tcg.tensorize = #tcg.tensorize<"vta.gemm.1x16x16", target = "vta", gemm = [1, 16, 16]>} {
    %1 = tcg.tensor %m in [0, 2) name "m" -> tensor<2x1x16xi32> {
      %2 = tcg.tensor %i in [0, 1) name "x" gemm_axis x -> tensor<1x16xi32> {
        %3 = tcg.tensor %n in [0, 16) name "y" gemm_axis y -> tensor<16xi32> {
          %4 = tcg.reduce add %k.o in [0, 4) name "k.o" -> i32 {
            %5 = tcg.reduce add %k in [0, 16) name "z" gemm_axis z -> i32 {
              %6 = tcg.input %x[%m, %k.o, %i, %k] : tensor<2x4x1x16xi8>
              %7 = tcg.input %w[%k.o, %n, %k] : tensor<4x16x16xi8>
              %8 = tcg.compute mul %6, %7 : (i8, i8) -> i32
              tcg.yield %8 : i32
            }
            tcg.yield %5 : i32
          }
          tcg.yield %4 : i32
        }
        tcg.yield %3 : tensor<16xi32>
      }
      tcg.yield %2 : tensor<1x16xi32>
    }
    tcg.yield %1 : tensor<2x1x16xi32>
  }
  return %0 : tensor<2x1x16xi32>
}
