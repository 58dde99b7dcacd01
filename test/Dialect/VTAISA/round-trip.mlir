// RUN: raf-opt %s | raf-opt | FileCheck %s
// RUN: raf-opt %s --mlir-print-op-generic | raf-opt | FileCheck %s

// Every vta_isa op, memory type, ALU operation and dependence flag, with
// fields at the limits of their widths, printed back as written (and the
// same after a trip through the generic form).

// CHECK: vta_isa.program #vta.config<"1x16x16"> uops {
// CHECK-NEXT: vta_isa.uop dst_idx = 0, src_idx = 0, wgt_idx = 0
// CHECK-NEXT: vta_isa.uop dst_idx = 2047, src_idx = 2047, wgt_idx = 1023
// CHECK-NEXT: vta_isa.uop dst_idx = 1, src_idx = 2, wgt_idx = 3
// CHECK-NEXT: vta_isa.uop dst_idx = 100, src_idx = 17, wgt_idx = 0
// CHECK-NEXT: } instructions {
// CHECK-NEXT: vta_isa.load uop sram_base = 0, dram_base = 0, y_size = 1, x_size = 4, x_stride = 4, y_pad_0 = 0, y_pad_1 = 0, x_pad_0 = 0, x_pad_1 = 0
// CHECK-NEXT: vta_isa.load uop sram_base = 8188, dram_base = 0, y_size = 1, x_size = 4, x_stride = 4, y_pad_0 = 0, y_pad_1 = 0, x_pad_0 = 0, x_pad_1 = 0
// CHECK-NEXT: vta_isa.load inp sram_base = 0, dram_base = 4294967295, y_size = 4, x_size = 4, x_stride = 65535, y_pad_0 = 1, y_pad_1 = 15, x_pad_0 = 2, x_pad_1 = 3 pop_next_dep push_next_dep
// CHECK-NEXT: vta_isa.load wgt sram_base = 1023, dram_base = 7, y_size = 1, x_size = 1, x_stride = 0, y_pad_0 = 0, y_pad_1 = 0, x_pad_0 = 0, x_pad_1 = 0 push_next_dep
// CHECK-NEXT: vta_isa.load acc sram_base = 100, dram_base = 12, y_size = 2, x_size = 16, x_stride = 32, y_pad_0 = 0, y_pad_1 = 0, x_pad_0 = 0, x_pad_1 = 0
// CHECK-NEXT: vta_isa.load acc_8bit sram_base = 200, dram_base = 3, y_size = 1, x_size = 0, x_stride = 0, y_pad_0 = 0, y_pad_1 = 0, x_pad_0 = 0, x_pad_1 = 0
// CHECK-NEXT: vta_isa.gemm reset_reg uop_bgn = 0, uop_end = 4, iter_out = 16383, iter_in = 16383, dst_factor_out = 0, dst_factor_in = 0, src_factor_out = 0, src_factor_in = 0, wgt_factor_out = 0, wgt_factor_in = 0 pop_prev_dep
// CHECK-NEXT: vta_isa.gemm uop_bgn = 2, uop_end = 4, iter_out = 2, iter_in = 3, dst_factor_out = 1, dst_factor_in = 2, src_factor_out = 3, src_factor_in = 4, wgt_factor_out = 5, wgt_factor_in = 6 pop_prev_dep push_prev_dep
// CHECK-NEXT: vta_isa.alu min uop_bgn = 8188, uop_end = 8192, iter_out = 1, iter_in = 1, dst_factor_out = 0, dst_factor_in = 0, src_factor_out = 0, src_factor_in = 0, imm = -32768 use_imm
// CHECK-NEXT: vta_isa.alu max uop_bgn = 0, uop_end = 1, iter_out = 1, iter_in = 1, dst_factor_out = 0, dst_factor_in = 0, src_factor_out = 0, src_factor_in = 0, imm = 32767 use_imm
// CHECK-NEXT: vta_isa.alu add uop_bgn = 0, uop_end = 1, iter_out = 2, iter_in = 2, dst_factor_out = 7, dst_factor_in = 8, src_factor_out = 9, src_factor_in = 10, imm = 5
// CHECK-NEXT: vta_isa.alu shr uop_bgn = 0, uop_end = 1, iter_out = 1, iter_in = 1, dst_factor_out = 0, dst_factor_in = 0, src_factor_out = 0, src_factor_in = 0, imm = -16 use_imm
// CHECK-NEXT: vta_isa.alu mul uop_bgn = 0, uop_end = 1, iter_out = 1, iter_in = 1, dst_factor_out = 0, dst_factor_in = 0, src_factor_out = 0, src_factor_in = 0, imm = 0 push_next_dep
// CHECK-NEXT: vta_isa.store out sram_base = 2047, dram_base = 9, y_size = 1, x_size = 1, x_stride = 1, y_pad_0 = 0, y_pad_1 = 0, x_pad_0 = 0, x_pad_1 = 0 pop_prev_dep push_prev_dep
// CHECK-NEXT: vta_isa.finish pop_next_dep
// CHECK-NEXT: }
// CHECK: vta_isa.program #vta.config<"8x8x8"> uops {
// CHECK-NEXT: vta_isa.uop dst_idx = 0, src_idx = 0, wgt_idx = 0
// CHECK-NEXT: vta_isa.uop dst_idx = 11, src_idx = 511, wgt_idx = 95
// CHECK-NEXT: } instructions {
// CHECK-NEXT: vta_isa.load uop sram_base = 0, dram_base = 0, y_size = 1, x_size = 2, x_stride = 2, y_pad_0 = 0, y_pad_1 = 0, x_pad_0 = 0, x_pad_1 = 0
// CHECK-NEXT: vta_isa.load inp sram_base = 511, dram_base = 0, y_size = 1, x_size = 1, x_stride = 1, y_pad_0 = 0, y_pad_1 = 0, x_pad_0 = 0, x_pad_1 = 0 push_next_dep
// CHECK-NEXT: vta_isa.load wgt sram_base = 4095, dram_base = 0, y_size = 1, x_size = 1, x_stride = 1, y_pad_0 = 0, y_pad_1 = 0, x_pad_0 = 0, x_pad_1 = 0 push_next_dep
// CHECK-NEXT: vta_isa.gemm uop_bgn = 0, uop_end = 2, iter_out = 1, iter_in = 1, dst_factor_out = 0, dst_factor_in = 0, src_factor_out = 0, src_factor_in = 0, wgt_factor_out = 4000, wgt_factor_in = 0 pop_prev_dep
// CHECK-NEXT: vta_isa.gemm reset_reg uop_bgn = 1, uop_end = 2, iter_out = 1, iter_in = 1, dst_factor_out = 500, dst_factor_in = 0, src_factor_out = 0, src_factor_in = 0, wgt_factor_out = 0, wgt_factor_in = 0 pop_prev_dep push_next_dep
// CHECK-NEXT: vta_isa.store out sram_base = 511, dram_base = 1, y_size = 1, x_size = 1, x_stride = 1, y_pad_0 = 0, y_pad_1 = 0, x_pad_0 = 0, x_pad_1 = 0 pop_prev_dep
// CHECK-NEXT: vta_isa.finish
// CHECK-NEXT: }
// CHECK: vta_isa.program #vta.config<log_inp_width = 3, log_wgt_width = 3, log_acc_width = 5, log_batch = 0, log_block = 4, log_uop_buff_size = 15, log_inp_buff_size = 15, log_wgt_buff_size = 18, log_acc_buff_size = 16> uops {
// CHECK-NEXT: } instructions {
// CHECK-NEXT: vta_isa.finish
// CHECK-NEXT: }

vta_isa.program #vta.config<"1x16x16"> uops {
  vta_isa.uop dst_idx = 0, src_idx = 0, wgt_idx = 0
  vta_isa.uop dst_idx = 2047, src_idx = 2047, wgt_idx = 1023
  vta_isa.uop dst_idx = 1, src_idx = 2, wgt_idx = 3
  vta_isa.uop dst_idx = 100, src_idx = 17, wgt_idx = 0
} instructions {
  vta_isa.load uop sram_base = 0, dram_base = 0, y_size = 1, x_size = 4, x_stride = 4, y_pad_0 = 0, y_pad_1 = 0, x_pad_0 = 0, x_pad_1 = 0
  vta_isa.load uop sram_base = 8188, dram_base = 0, y_size = 1, x_size = 4, x_stride = 4, y_pad_0 = 0, y_pad_1 = 0, x_pad_0 = 0, x_pad_1 = 0
  vta_isa.load inp sram_base = 0, dram_base = 4294967295, y_size = 4, x_size = 4, x_stride = 65535, y_pad_0 = 1, y_pad_1 = 15, x_pad_0 = 2, x_pad_1 = 3 pop_next_dep push_next_dep
  vta_isa.load wgt sram_base = 1023, dram_base = 7, y_size = 1, x_size = 1, x_stride = 0, y_pad_0 = 0, y_pad_1 = 0, x_pad_0 = 0, x_pad_1 = 0 push_next_dep
  vta_isa.load acc sram_base = 100, dram_base = 12, y_size = 2, x_size = 16, x_stride = 32, y_pad_0 = 0, y_pad_1 = 0, x_pad_0 = 0, x_pad_1 = 0
  vta_isa.load acc_8bit sram_base = 200, dram_base = 3, y_size = 1, x_size = 0, x_stride = 0, y_pad_0 = 0, y_pad_1 = 0, x_pad_0 = 0, x_pad_1 = 0
  vta_isa.gemm reset_reg uop_bgn = 0, uop_end = 4, iter_out = 16383, iter_in = 16383, dst_factor_out = 0, dst_factor_in = 0, src_factor_out = 0, src_factor_in = 0, wgt_factor_out = 0, wgt_factor_in = 0 pop_prev_dep
  vta_isa.gemm uop_bgn = 2, uop_end = 4, iter_out = 2, iter_in = 3, dst_factor_out = 1, dst_factor_in = 2, src_factor_out = 3, src_factor_in = 4, wgt_factor_out = 5, wgt_factor_in = 6 pop_prev_dep push_prev_dep
  vta_isa.alu min uop_bgn = 8188, uop_end = 8192, iter_out = 1, iter_in = 1, dst_factor_out = 0, dst_factor_in = 0, src_factor_out = 0, src_factor_in = 0, imm = -32768 use_imm
  vta_isa.alu max uop_bgn = 0, uop_end = 1, iter_out = 1, iter_in = 1, dst_factor_out = 0, dst_factor_in = 0, src_factor_out = 0, src_factor_in = 0, imm = 32767 use_imm
  vta_isa.alu add uop_bgn = 0, uop_end = 1, iter_out = 2, iter_in = 2, dst_factor_out = 7, dst_factor_in = 8, src_factor_out = 9, src_factor_in = 10, imm = 5
  vta_isa.alu shr uop_bgn = 0, uop_end = 1, iter_out = 1, iter_in = 1, dst_factor_out = 0, dst_factor_in = 0, src_factor_out = 0, src_factor_in = 0, imm = -16 use_imm
  vta_isa.alu mul uop_bgn = 0, uop_end = 1, iter_out = 1, iter_in = 1, dst_factor_out = 0, dst_factor_in = 0, src_factor_out = 0, src_factor_in = 0, imm = 0 push_next_dep
  vta_isa.store out sram_base = 2047, dram_base = 9, y_size = 1, x_size = 1, x_stride = 1, y_pad_0 = 0, y_pad_1 = 0, x_pad_0 = 0, x_pad_1 = 0 pop_prev_dep push_prev_dep
  vta_isa.finish pop_next_dep
}

vta_isa.program #vta.config<"8x8x8"> uops {
  vta_isa.uop dst_idx = 0, src_idx = 0, wgt_idx = 0
  vta_isa.uop dst_idx = 11, src_idx = 511, wgt_idx = 95
} instructions {
  vta_isa.load uop sram_base = 0, dram_base = 0, y_size = 1, x_size = 2, x_stride = 2, y_pad_0 = 0, y_pad_1 = 0, x_pad_0 = 0, x_pad_1 = 0
  vta_isa.load inp sram_base = 511, dram_base = 0, y_size = 1, x_size = 1, x_stride = 1, y_pad_0 = 0, y_pad_1 = 0, x_pad_0 = 0, x_pad_1 = 0 push_next_dep
  vta_isa.load wgt sram_base = 4095, dram_base = 0, y_size = 1, x_size = 1, x_stride = 1, y_pad_0 = 0, y_pad_1 = 0, x_pad_0 = 0, x_pad_1 = 0 push_next_dep
  vta_isa.gemm uop_bgn = 0, uop_end = 2, iter_out = 1, iter_in = 1, dst_factor_out = 0, dst_factor_in = 0, src_factor_out = 0, src_factor_in = 0, wgt_factor_out = 4000, wgt_factor_in = 0 pop_prev_dep
  vta_isa.gemm reset_reg uop_bgn = 1, uop_end = 2, iter_out = 1, iter_in = 1, dst_factor_out = 500, dst_factor_in = 0, src_factor_out = 0, src_factor_in = 0, wgt_factor_out = 0, wgt_factor_in = 0 pop_prev_dep push_next_dep
  vta_isa.store out sram_base = 511, dram_base = 1, y_size = 1, x_size = 1, x_stride = 1, y_pad_0 = 0, y_pad_1 = 0, x_pad_0 = 0, x_pad_1 = 0 pop_prev_dep
  vta_isa.finish
}

vta_isa.program #vta.config<log_acc_buff_size = 16> uops {
} instructions {
  vta_isa.finish
}
