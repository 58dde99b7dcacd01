// RUN: raf-opt %s --tcg-lower-to-vta | FileCheck %s
// RUN: raf-opt %s --tcg-lower-to-vta=requant-shift=5 | FileCheck %s --check-prefix=REQUANT
// RUN: raf-opt %s --tcg-lower-to-vta=acc-dep-distance=3 -o /dev/null

// The packed dense layer of test/Dialect/TCG/Strategy/dense.mlir (3 rows,
// k = 2 x 16, n = 2 x 16). Every operand stays resident: the input (6 rows)
// and the weight (4 rows of 256 B, at byte 256) load once. The GEMM loops
// over the reduction k.o and the micro-ops enumerate the six output rows
// (m, n.o), so consecutive steps never write the same accumulator row.
// Micro-op 0 serves the reset and the epilogue.

// CHECK-LABEL: func.func @dense
// CHECK:       vta_isa.program #vta.config<"1x16x16"> attributes {vta.dram = {input_offset = 0 : i64, input_operand = 0 : i64, result_offset = 1280 : i64, result_planes = 4 : i64, result_rows = 6 : i64, size = 1664 : i64, weight_offset = 256 : i64, weight_operand = 1 : i64}, vta.kernel = "dense#0"} uops {
// CHECK-NEXT:    vta_isa.uop dst_idx = 0, src_idx = 0, wgt_idx = 0
// CHECK-NEXT:    vta_isa.uop dst_idx = 0, src_idx = 0, wgt_idx = 0
// CHECK-NEXT:    vta_isa.uop dst_idx = 1, src_idx = 0, wgt_idx = 2
// CHECK-NEXT:    vta_isa.uop dst_idx = 2, src_idx = 2, wgt_idx = 0
// CHECK-NEXT:    vta_isa.uop dst_idx = 3, src_idx = 2, wgt_idx = 2
// CHECK-NEXT:    vta_isa.uop dst_idx = 4, src_idx = 4, wgt_idx = 0
// CHECK-NEXT:    vta_isa.uop dst_idx = 5, src_idx = 4, wgt_idx = 2
// CHECK-NEXT:  } instructions {
// CHECK-NEXT:    vta_isa.load uop sram_base = 0, dram_base = 0, y_size = 1, x_size = 7, x_stride = 7,
// CHECK-NEXT:    vta_isa.load inp sram_base = 0, dram_base = 0, y_size = 1, x_size = 6, x_stride = 6, {{.*}}x_pad_1 = 0{{$}}
// CHECK-NEXT:    vta_isa.load wgt sram_base = 0, dram_base = 1, y_size = 1, x_size = 4, x_stride = 4, {{.*}} push_next_dep
// CHECK-NEXT:    vta_isa.gemm reset_reg uop_bgn = 0, uop_end = 1, iter_out = 6, iter_in = 1, dst_factor_out = 1, dst_factor_in = 0, src_factor_out = 0, src_factor_in = 0, wgt_factor_out = 0, wgt_factor_in = 0{{$}}
// CHECK-NEXT:    vta_isa.gemm uop_bgn = 1, uop_end = 7, iter_out = 2, iter_in = 1, dst_factor_out = 0, dst_factor_in = 0, src_factor_out = 1, src_factor_in = 0, wgt_factor_out = 1, wgt_factor_in = 0 pop_prev_dep
// CHECK-NEXT:    vta_isa.alu add uop_bgn = 0, uop_end = 1, iter_out = 6, iter_in = 1, dst_factor_out = 1, dst_factor_in = 0, src_factor_out = 1, src_factor_in = 0, imm = 0 use_imm push_next_dep
// CHECK-NEXT:    vta_isa.store out sram_base = 0, dram_base = 80, y_size = 1, x_size = 6, x_stride = 6, {{.*}} pop_prev_dep push_prev_dep
// CHECK-NEXT:    vta_isa.alu shr {{.*}} imm = 8 use_imm pop_next_dep push_next_dep
// CHECK-NEXT:    vta_isa.store out sram_base = 0, dram_base = 86, {{.*}} pop_prev_dep push_prev_dep
// CHECK-NEXT:    vta_isa.alu shr {{.*}} imm = 8 use_imm pop_next_dep push_next_dep
// CHECK-NEXT:    vta_isa.store out sram_base = 0, dram_base = 92, {{.*}} pop_prev_dep push_prev_dep
// CHECK-NEXT:    vta_isa.alu shr {{.*}} imm = 8 use_imm pop_next_dep push_next_dep
// CHECK-NEXT:    vta_isa.store out sram_base = 0, dram_base = 98, {{.*}} pop_prev_dep push_prev_dep
// CHECK-NEXT:    vta_isa.finish pop_next_dep
// CHECK-NEXT:  }

// With a shift, one int8 plane: shift, clip to [-128, 127], store.
// REQUANT:       result_planes = 1 : i64, result_rows = 6 : i64, size = 1376 : i64
// REQUANT:       vta_isa.gemm uop_bgn = 1
// REQUANT-NEXT:  vta_isa.alu shr {{.*}} imm = 5 use_imm{{$}}
// REQUANT-NEXT:  vta_isa.alu min {{.*}} imm = 127 use_imm{{$}}
// REQUANT-NEXT:  vta_isa.alu max {{.*}} imm = -128 use_imm push_next_dep
// REQUANT-NEXT:  vta_isa.store out sram_base = 0, dram_base = 80, {{.*}} pop_prev_dep push_prev_dep
// REQUANT-NEXT:  vta_isa.finish pop_next_dep
// REQUANT-NEXT:  }

func.func @dense(%data: tensor<3x2x1x16xi8>, %w: tensor<2x2x16x16xi8>) -> tensor<3x2x1x16xi32> {
  %0 = tcg.kernel "nn.dense" (%x = %data : tensor<3x2x1x16xi8>, %weight = %w : tensor<2x2x16x16xi8>) -> tensor<3x2x1x16xi32> attributes {arg_names = ["x", "weight"], result_name = "out", tcg.tensorize = "vta.gemm.1x16x16"} {
    %8 = tcg.tensor %m in [0, 3) name "m" -> tensor<3x2x1x16xi32> {
      %9 = tcg.tensor %n.o in [0, 2) name "n.o" -> tensor<2x1x16xi32> {
        %10 = tcg.tensor %x_0 in [0, 1) name "x" gemm_axis "x" -> tensor<1x16xi32> {
          %11 = tcg.tensor %y in [0, 16) name "y" gemm_axis "y" -> tensor<16xi32> {
            %12 = tcg.reduce add %k.o in [0, 2) name "k.o" -> i32 {
              %13 = tcg.reduce add %z in [0, 16) name "z" gemm_axis "z" -> i32 {
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
