// RUN: raf-opt %s --convert-tcg-to-vta="tile-sizes=3,2,2" --convert-vta-to-vta-isa | FileCheck %s
// RUN: raf-opt %s --convert-tcg-to-vta="tile-sizes=3,2,2 requant-shift=5" --convert-vta-to-vta-isa | FileCheck %s --check-prefix=REQUANT
// RUN: raf-opt %s --convert-tcg-to-vta="report=true" --convert-vta-to-vta-isa --mlir-print-op-on-diagnostic=false -o /dev/null 2>&1 | FileCheck %s --check-prefix=SEARCH
// RUN: raf-opt %s --convert-tcg-to-vta="report=true exhaustive=true" --convert-vta-to-vta-isa --mlir-print-op-on-diagnostic=false -o /dev/null 2>&1 | FileCheck %s --check-prefix=ALL

// The packed dense layer of test/Dialect/TCG/Strategy/dense.mlir (3 rows,
// k = 2 x 16, n = 2 x 16), tile iterators m = 3, n.o = 2 (parallel) and
// k.o = 2 (reduction). With one tile of everything, the input (6 rows) and
// the weight (4 rows of 256 B, at byte 256) load once, each with one DMA.
// The GEMM loops over m and n.o and its two micro-ops enumerate k.o.
// Micro-op 0 serves the reset and the epilogue. Tokens: the GEMM waits
// for the weight load (l2g), each store for its ALU (g2s), each ALU after
// the first for the previous store (s2g: same output rows), FINISH for the
// last store.
// CHECK:      vta_isa.program @dense_kernel0 #vta.config<"1x16x16"> dram #vta.dram_layout<input_operand = 0, input_offset = 0, weight_operand = 1, weight_offset = 256, result_offset = 1280, result_rows = 6, result_row_bytes = 16, result_planes = 4, size = 1664> attributes {{.*}} uops {
// CHECK-NEXT:   vta_isa.uop dst_idx = 0, src_idx = 0, wgt_idx = 0
// CHECK-NEXT:   vta_isa.uop dst_idx = 0, src_idx = 0, wgt_idx = 0
// CHECK-NEXT:   vta_isa.uop dst_idx = 0, src_idx = 1, wgt_idx = 1
// CHECK-NEXT:   } instructions {
// CHECK-NEXT:   vta_isa.load uop sram_base = 0, dram_base = 0, y_size = 1, x_size = 3, x_stride = 3,{{.*}}x_pad_1 = 0{{$}}
// CHECK-NEXT:   vta_isa.load inp sram_base = 0, dram_base = 0, y_size = 1, x_size = 6, x_stride = 6,{{.*}}x_pad_1 = 0{{$}}
// CHECK-NEXT:   vta_isa.load wgt sram_base = 0, dram_base = 1, y_size = 1, x_size = 4, x_stride = 4,{{.*}}x_pad_1 = 0 push_next_dep
// CHECK-NEXT:   vta_isa.gemm reset_reg uop_bgn = 0, uop_end = 1, iter_out = 6, iter_in = 1, dst_factor_out = 1, dst_factor_in = 0, src_factor_out = 0, src_factor_in = 0, wgt_factor_out = 0, wgt_factor_in = 0{{$}}
// CHECK-NEXT:   vta_isa.gemm uop_bgn = 1, uop_end = 3, iter_out = 3, iter_in = 2, dst_factor_out = 2, dst_factor_in = 1, src_factor_out = 2, src_factor_in = 0, wgt_factor_out = 0, wgt_factor_in = 2 pop_prev_dep
// CHECK-NEXT:   vta_isa.alu add uop_bgn = 0, uop_end = 1, iter_out = 6, iter_in = 1, dst_factor_out = 1, dst_factor_in = 0, src_factor_out = 1, src_factor_in = 0, imm = 0 use_imm push_next_dep
// CHECK-NEXT:   vta_isa.store out sram_base = 0, dram_base = 80, y_size = 1, x_size = 6, x_stride = 6,{{.*}}x_pad_1 = 0 pop_prev_dep push_prev_dep
// CHECK-NEXT:   vta_isa.alu shr uop_bgn = 0, uop_end = 1, iter_out = 6, iter_in = 1, dst_factor_out = 1, dst_factor_in = 0, src_factor_out = 1, src_factor_in = 0, imm = 8 use_imm pop_next_dep push_next_dep
// CHECK-NEXT:   vta_isa.store out sram_base = 0, dram_base = 86, y_size = 1, x_size = 6, x_stride = 6,{{.*}}x_pad_1 = 0 pop_prev_dep push_prev_dep
// CHECK-NEXT:   vta_isa.alu shr uop_bgn = 0, uop_end = 1, iter_out = 6, iter_in = 1, dst_factor_out = 1, dst_factor_in = 0, src_factor_out = 1, src_factor_in = 0, imm = 8 use_imm pop_next_dep push_next_dep
// CHECK-NEXT:   vta_isa.store out sram_base = 0, dram_base = 92, y_size = 1, x_size = 6, x_stride = 6,{{.*}}x_pad_1 = 0 pop_prev_dep push_prev_dep
// CHECK-NEXT:   vta_isa.alu shr uop_bgn = 0, uop_end = 1, iter_out = 6, iter_in = 1, dst_factor_out = 1, dst_factor_in = 0, src_factor_out = 1, src_factor_in = 0, imm = 8 use_imm pop_next_dep push_next_dep
// CHECK-NEXT:   vta_isa.store out sram_base = 0, dram_base = 98, y_size = 1, x_size = 6, x_stride = 6,{{.*}}x_pad_1 = 0 pop_prev_dep push_prev_dep
// CHECK-NEXT:   vta_isa.finish pop_next_dep
// CHECK-NEXT: }

// Requantisation: shift, clip, one plane.
// REQUANT:      vta_isa.alu shr {{.*}}imm = 5 use_imm{{$}}
// REQUANT-NEXT: vta_isa.alu min {{.*}}imm = 127 use_imm{{$}}
// REQUANT-NEXT: vta_isa.alu max {{.*}}imm = -128 use_imm push_next_dep
// REQUANT-NEXT: vta_isa.store out sram_base = 0, dram_base = 80, y_size = 1, x_size = 6, x_stride = 6,{{.*}} pop_prev_dep push_prev_dep
// REQUANT-NEXT: vta_isa.finish pop_next_dep

// The search: 32 valid schedules (m tiles of 1, 2 (a remainder of 1) or 3,
// n.o and k.o tiles of 1 or 2; both orders of m and n.o when both have
// several tiles; one or two virtual threads), the 8 best by the estimate
// and the 8 best of the divisor space simulated (11 distinct), or all of
// them.
// SEARCH: remark: vta: cycles={{[0-9]+}} tiles=[m={{[1-3]}}, n.o={{[12]}}, k.o={{[12]}}] virtual-threads={{[12]}} instructions={{[0-9]+}} load-bytes={{[0-9]+}} store-bytes=384 gemm-steps={{[0-9]+}} alu-steps=24 valid-schedules=32 simulated=11
// ALL: remark: vta: cycles={{[0-9]+}} {{.*}} valid-schedules=32 simulated=32

func.func @dense(%data: tensor<3x2x1x16xi8>, %w: tensor<2x2x16x16xi8>) -> tensor<3x2x1x16xi32> {
  %0 = tcg.kernel "nn.dense" (%x = %data : tensor<3x2x1x16xi8>, %weight = %w : tensor<2x2x16x16xi8>) -> tensor<3x2x1x16xi32> attributes {arg_names = ["x", "weight"], result_name = "out", tcg.tensorize = #tcg.tensorize<"vta.gemm.1x16x16", target = "vta", gemm = [1, 16, 16]>} {
    %8 = tcg.tensor %m in [0, 3) name "m" -> tensor<3x2x1x16xi32> {
      %9 = tcg.tensor %n.o in [0, 2) name "n.o" -> tensor<2x1x16xi32> {
        %10 = tcg.tensor %x_0 in [0, 1) name "x" gemm_axis x -> tensor<1x16xi32> {
          %11 = tcg.tensor %y in [0, 16) name "y" gemm_axis y -> tensor<16xi32> {
            %12 = tcg.reduce add %k.o in [0, 2) name "k.o" -> i32 {
              %13 = tcg.reduce add %z in [0, 16) name "z" gemm_axis z -> i32 {
                %14 = tcg.input %x[%m, %k.o, %x_0, %z] : tensor<3x2x1x16xi8>
                %15 = tcg.input %weight[%n.o, %k.o, %y, %z] : tensor<2x2x16x16xi8>
                %16 = tcg.compute mul %14, %15 : (i8, i8) -> i32
                tcg.yield %16 : i32
              }
              tcg.yield %13 : i32
            }
            tcg.yield %12 : i32
          }
          tcg.yield %11 : tensor<16xi32>
        }
        tcg.yield %10 : tensor<1x16xi32>
      }
      tcg.yield %9 : tensor<2x1x16xi32>
    }
    tcg.yield %8 : tensor<3x2x1x16xi32>
  }
  return %0 : tensor<3x2x1x16xi32>
}
