// RUN: raf-opt %s --convert-tcg-to-vta="tile-sizes=1500" --convert-vta-to-vta-isa | FileCheck %s
// RUN: raf-opt %s --convert-tcg-to-vta="report=true" --convert-vta-to-vta-isa --mlir-print-op-on-diagnostic=false -o /dev/null 2>&1 | FileCheck %s --check-prefix=SEARCH

// 3000 rows of a dense layer exceed the 2048-row input and accumulator
// buffers. Tiles of 1500 rows: the weight does not depend on m and is
// loaded once. Tokens: the second input load waits for the first tile's
// GEMM (g2l), the second reset for the first tile's last store (s2g: a
// reset writes the output buffer); FINISH waits for the last store.
// CHECK:      vta_isa.program @rows_kernel0 #vta.config<"1x16x16"> dram #vta.dram_layout<input_operand = 0, input_offset = 0, weight_operand = 1, weight_offset = 48128, result_offset = 48384, result_rows = 3000, result_row_bytes = 16, result_planes = 4, size = 240384> attributes {{.*}} uops {
// CHECK-NEXT:   vta_isa.uop dst_idx = 0, src_idx = 0, wgt_idx = 0
// CHECK-NEXT:   } instructions {
// CHECK-NEXT:   vta_isa.load uop sram_base = 0, dram_base = 0, y_size = 1, x_size = 1, x_stride = 1,{{.*}}x_pad_1 = 0{{$}}
// CHECK-NEXT:   vta_isa.load inp sram_base = 0, dram_base = 0, y_size = 1, x_size = 1500, x_stride = 1500,{{.*}}x_pad_1 = 0{{$}}
// CHECK-NEXT:   vta_isa.load wgt sram_base = 0, dram_base = 188, y_size = 1, x_size = 1, x_stride = 1,{{.*}}x_pad_1 = 0 push_next_dep
// CHECK-NEXT:   vta_isa.gemm reset_reg uop_bgn = 0, uop_end = 1, iter_out = 1500, iter_in = 1, dst_factor_out = 1, dst_factor_in = 0, src_factor_out = 0, src_factor_in = 0, wgt_factor_out = 0, wgt_factor_in = 0{{$}}
// CHECK-NEXT:   vta_isa.gemm uop_bgn = 0, uop_end = 1, iter_out = 1500, iter_in = 1, dst_factor_out = 1, dst_factor_in = 0, src_factor_out = 1, src_factor_in = 0, wgt_factor_out = 0, wgt_factor_in = 0 pop_prev_dep push_prev_dep
// CHECK-NEXT:   vta_isa.alu add uop_bgn = 0, uop_end = 1, iter_out = 1500, iter_in = 1, dst_factor_out = 1, dst_factor_in = 0, src_factor_out = 1, src_factor_in = 0, imm = 0 use_imm push_next_dep
// CHECK-NEXT:   vta_isa.store out sram_base = 0, dram_base = 3024, y_size = 1, x_size = 1500, x_stride = 1500,{{.*}}x_pad_1 = 0 pop_prev_dep push_prev_dep
// CHECK-NEXT:   vta_isa.alu shr uop_bgn = 0, uop_end = 1, iter_out = 1500, iter_in = 1, dst_factor_out = 1, dst_factor_in = 0, src_factor_out = 1, src_factor_in = 0, imm = 8 use_imm pop_next_dep push_next_dep
// CHECK-NEXT:   vta_isa.store out sram_base = 0, dram_base = 6024, y_size = 1, x_size = 1500, x_stride = 1500,{{.*}}x_pad_1 = 0 pop_prev_dep push_prev_dep
// CHECK-NEXT:   vta_isa.alu shr uop_bgn = 0, uop_end = 1, iter_out = 1500, iter_in = 1, dst_factor_out = 1, dst_factor_in = 0, src_factor_out = 1, src_factor_in = 0, imm = 8 use_imm pop_next_dep push_next_dep
// CHECK-NEXT:   vta_isa.store out sram_base = 0, dram_base = 9024, y_size = 1, x_size = 1500, x_stride = 1500,{{.*}}x_pad_1 = 0 pop_prev_dep push_prev_dep
// CHECK-NEXT:   vta_isa.alu shr uop_bgn = 0, uop_end = 1, iter_out = 1500, iter_in = 1, dst_factor_out = 1, dst_factor_in = 0, src_factor_out = 1, src_factor_in = 0, imm = 8 use_imm pop_next_dep push_next_dep
// CHECK-NEXT:   vta_isa.store out sram_base = 0, dram_base = 12024, y_size = 1, x_size = 1500, x_stride = 1500,{{.*}}x_pad_1 = 0 pop_prev_dep push_prev_dep
// CHECK-NEXT:   vta_isa.load inp sram_base = 0, dram_base = 1500, y_size = 1, x_size = 1500, x_stride = 1500,{{.*}}x_pad_1 = 0 pop_next_dep push_next_dep
// CHECK-NEXT:   vta_isa.gemm reset_reg uop_bgn = 0, uop_end = 1, iter_out = 1500, iter_in = 1, dst_factor_out = 1, dst_factor_in = 0, src_factor_out = 0, src_factor_in = 0, wgt_factor_out = 0, wgt_factor_in = 0 pop_next_dep
// CHECK-NEXT:   vta_isa.gemm uop_bgn = 0, uop_end = 1, iter_out = 1500, iter_in = 1, dst_factor_out = 1, dst_factor_in = 0, src_factor_out = 1, src_factor_in = 0, wgt_factor_out = 0, wgt_factor_in = 0 pop_prev_dep
// CHECK-NEXT:   vta_isa.alu add uop_bgn = 0, uop_end = 1, iter_out = 1500, iter_in = 1, dst_factor_out = 1, dst_factor_in = 0, src_factor_out = 1, src_factor_in = 0, imm = 0 use_imm push_next_dep
// CHECK-NEXT:   vta_isa.store out sram_base = 0, dram_base = 4524, y_size = 1, x_size = 1500, x_stride = 1500,{{.*}}x_pad_1 = 0 pop_prev_dep push_prev_dep
// CHECK-NEXT:   vta_isa.alu shr uop_bgn = 0, uop_end = 1, iter_out = 1500, iter_in = 1, dst_factor_out = 1, dst_factor_in = 0, src_factor_out = 1, src_factor_in = 0, imm = 8 use_imm pop_next_dep push_next_dep
// CHECK-NEXT:   vta_isa.store out sram_base = 0, dram_base = 7524, y_size = 1, x_size = 1500, x_stride = 1500,{{.*}}x_pad_1 = 0 pop_prev_dep push_prev_dep
// CHECK-NEXT:   vta_isa.alu shr uop_bgn = 0, uop_end = 1, iter_out = 1500, iter_in = 1, dst_factor_out = 1, dst_factor_in = 0, src_factor_out = 1, src_factor_in = 0, imm = 8 use_imm pop_next_dep push_next_dep
// CHECK-NEXT:   vta_isa.store out sram_base = 0, dram_base = 10524, y_size = 1, x_size = 1500, x_stride = 1500,{{.*}}x_pad_1 = 0 pop_prev_dep push_prev_dep
// CHECK-NEXT:   vta_isa.alu shr uop_bgn = 0, uop_end = 1, iter_out = 1500, iter_in = 1, dst_factor_out = 1, dst_factor_in = 0, src_factor_out = 1, src_factor_in = 0, imm = 8 use_imm pop_next_dep push_next_dep
// CHECK-NEXT:   vta_isa.store out sram_base = 0, dram_base = 13524, y_size = 1, x_size = 1500, x_stride = 1500,{{.*}}x_pad_1 = 0 pop_prev_dep push_prev_dep
// CHECK-NEXT:   vta_isa.finish pop_next_dep
// CHECK-NEXT: }

// The search tries every tile count of 3000 that fits (balanced sizes,
// remainders included), with one or two virtual threads; it simulates the
// best 8 by the estimate and the best 8 tilings by divisors.
// SEARCH: remark: vta: cycles={{[0-9]+}} tiles=[m={{[0-9]+}}] virtual-threads={{[12]}} {{.*}} valid-schedules={{[0-9]+}} simulated={{[89]|1[0-6]}}

func.func @rows(%a: tensor<3000x1x16xi8>, %b: tensor<1x16x16xi8>) -> tensor<3000x1x16xi32> {
  %0 = tcg.kernel "nn.dense" (%x = %a : tensor<3000x1x16xi8>, %w = %b : tensor<1x16x16xi8>) -> tensor<3000x1x16xi32> attributes {tcg.tensorize = #tcg.tensorize<"vta.gemm.1x16x16", target = "vta", gemm = [1, 16, 16]>} {
    %1 = tcg.tensor %m in [0, 3000) name "m" -> tensor<3000x1x16xi32> {
      %2 = tcg.tensor %i in [0, 1) name "x" gemm_axis x -> tensor<1x16xi32> {
        %3 = tcg.tensor %n in [0, 16) name "y" gemm_axis y -> tensor<16xi32> {
          %4 = tcg.reduce add %k in [0, 16) name "z" gemm_axis z -> i32 {
            %5 = tcg.input %x[%m, %i, %k] : tensor<3000x1x16xi8>
            %6 = tcg.input %w[0, %n, %k] : tensor<1x16x16xi8>
            %7 = tcg.compute mul %5, %6 : (i8, i8) -> i32
            tcg.yield %7 : i32
          }
          tcg.yield %4 : i32
        }
        tcg.yield %3 : tensor<16xi32>
      }
      tcg.yield %2 : tensor<1x16xi32>
    }
    tcg.yield %1 : tensor<3000x1x16xi32>
  }
  return %0 : tensor<3000x1x16xi32>
}
