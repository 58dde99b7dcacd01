// RUN: raf-opt %s --split-input-file --convert-vta-launch-to-runtime -verify-diagnostics

// A tile-level program has no binary yet.
func.func @f(%x: tensor<1x1x1x16xi8>, %w: tensor<1x1x16x16xi8>) -> tensor<1x1x1x16xi32> {
  // expected-error @below {{'f_kernel0' is not an assembled vta_isa.program (run --convert-vta-to-vta-isa first)}}
  %0 = vta.launch @f_kernel0(%x, %w) : (tensor<1x1x1x16xi8>, tensor<1x1x16x16xi8>) -> tensor<1x1x1x16xi32>
  return %0 : tensor<1x1x1x16xi32>
}
vta.program @f_kernel0 #vta.config<"1x16x16"> dram #vta.dram_layout<input_operand = 0, input_offset = 0, weight_operand = 1, weight_offset = 256, result_offset = 512, result_rows = 1, result_row_bytes = 16, result_planes = 4, size = 576> {
  vta.load_tile inp sram = 0, dram = 0, rows = 1, cols = 1, stride = 1
  vta.load_tile wgt sram = 0, dram = 1, rows = 1, cols = 1, stride = 1
  vta.gemm reset loops = [1, 1], dst = [0, 0], src = [0, 0], wgt = [0, 0] uops = [[0, 0, 0]]
  vta.gemm loops = [1, 1], dst = [0, 0], src = [0, 0], wgt = [0, 0] uops = [[0, 0, 0]]
  vta.alu add imm = 0, loops = [1, 1], dst = [0, 0], src = [0, 0] uops = [[0, 0, 0]]
  vta.store_tile sram = 0, dram = 32, rows = 1, cols = 1, stride = 1
}

// -----

// The runtime's entry point name is taken by something else.
// expected-error @below {{symbol 'rafVTALaunch' is the VTA runtime's launch entry point; expected a func.func of type}}
func.func private @rafVTALaunch(i32)
func.func @g(%x: tensor<1x1x1x16xi8>, %w: tensor<1x1x16x16xi8>) -> tensor<1x1x1x16xi32> {
  %0 = vta.launch @g_kernel0(%x, %w) : (tensor<1x1x1x16xi8>, tensor<1x1x16x16xi8>) -> tensor<1x1x1x16xi32>
  return %0 : tensor<1x1x1x16xi32>
}
vta_isa.program @g_kernel0 #vta.config<"1x16x16"> dram #vta.dram_layout<input_operand = 0, input_offset = 0, weight_operand = 1, weight_offset = 256, result_offset = 512, result_rows = 1, result_row_bytes = 16, result_planes = 4, size = 576> uops {
  vta_isa.uop dst_idx = 0, src_idx = 0, wgt_idx = 0
} instructions {
  vta_isa.load uop sram_base = 0, dram_base = 0, y_size = 1, x_size = 1, x_stride = 1, y_pad_0 = 0, y_pad_1 = 0, x_pad_0 = 0, x_pad_1 = 0
  vta_isa.load inp sram_base = 0, dram_base = 0, y_size = 1, x_size = 1, x_stride = 1, y_pad_0 = 0, y_pad_1 = 0, x_pad_0 = 0, x_pad_1 = 0
  vta_isa.load wgt sram_base = 0, dram_base = 1, y_size = 1, x_size = 1, x_stride = 1, y_pad_0 = 0, y_pad_1 = 0, x_pad_0 = 0, x_pad_1 = 0 push_next_dep
  vta_isa.gemm reset_reg uop_bgn = 0, uop_end = 1, iter_out = 1, iter_in = 1, dst_factor_out = 0, dst_factor_in = 0, src_factor_out = 0, src_factor_in = 0, wgt_factor_out = 0, wgt_factor_in = 0
  vta_isa.gemm uop_bgn = 0, uop_end = 1, iter_out = 1, iter_in = 1, dst_factor_out = 0, dst_factor_in = 0, src_factor_out = 0, src_factor_in = 0, wgt_factor_out = 0, wgt_factor_in = 0 pop_prev_dep
  vta_isa.alu add uop_bgn = 0, uop_end = 1, iter_out = 1, iter_in = 1, dst_factor_out = 0, dst_factor_in = 0, src_factor_out = 0, src_factor_in = 0, imm = 0 use_imm push_next_dep
  vta_isa.store out sram_base = 0, dram_base = 32, y_size = 1, x_size = 1, x_stride = 1, y_pad_0 = 0, y_pad_1 = 0, x_pad_0 = 0, x_pad_1 = 0 pop_prev_dep push_prev_dep
  vta_isa.finish pop_next_dep
}

// -----

// Likewise the entry point of launches with a fused bias.
// expected-error @below {{symbol 'rafVTALaunchBiased' is the VTA runtime's launch entry point; expected a func.func of type}}
func.func private @rafVTALaunchBiased(i32)
func.func @h(%x: tensor<1x1x1x16xi8>, %w: tensor<1x1x16x16xi8>, %b: tensor<1x1x16xi32>) -> tensor<1x1x1x16xi32> {
  %0 = vta.launch @h_kernel0(%x, %w, %b) : (tensor<1x1x1x16xi8>, tensor<1x1x16x16xi8>, tensor<1x1x16xi32>) -> tensor<1x1x1x16xi32>
  return %0 : tensor<1x1x1x16xi32>
}
vta_isa.program @h_kernel0 #vta.config<"1x16x16"> dram #vta.dram_layout<input_operand = 0, input_offset = 0, weight_operand = 1, weight_offset = 256, result_offset = 576, result_rows = 1, result_row_bytes = 16, result_planes = 4, size = 640, bias_offset = 512, bias_rows = 1> uops {
  vta_isa.uop dst_idx = 0, src_idx = 0, wgt_idx = 0
} instructions {
  vta_isa.load uop sram_base = 0, dram_base = 0, y_size = 1, x_size = 1, x_stride = 1, y_pad_0 = 0, y_pad_1 = 0, x_pad_0 = 0, x_pad_1 = 0
  vta_isa.load inp sram_base = 0, dram_base = 0, y_size = 1, x_size = 1, x_stride = 1, y_pad_0 = 0, y_pad_1 = 0, x_pad_0 = 0, x_pad_1 = 0
  vta_isa.load wgt sram_base = 0, dram_base = 1, y_size = 1, x_size = 1, x_stride = 1, y_pad_0 = 0, y_pad_1 = 0, x_pad_0 = 0, x_pad_1 = 0 push_next_dep
  vta_isa.gemm reset_reg uop_bgn = 0, uop_end = 1, iter_out = 1, iter_in = 1, dst_factor_out = 0, dst_factor_in = 0, src_factor_out = 0, src_factor_in = 0, wgt_factor_out = 0, wgt_factor_in = 0
  vta_isa.gemm uop_bgn = 0, uop_end = 1, iter_out = 1, iter_in = 1, dst_factor_out = 0, dst_factor_in = 0, src_factor_out = 0, src_factor_in = 0, wgt_factor_out = 0, wgt_factor_in = 0 pop_prev_dep
  vta_isa.alu add uop_bgn = 0, uop_end = 1, iter_out = 1, iter_in = 1, dst_factor_out = 0, dst_factor_in = 0, src_factor_out = 0, src_factor_in = 0, imm = 0 use_imm push_next_dep
  vta_isa.store out sram_base = 0, dram_base = 36, y_size = 1, x_size = 1, x_stride = 1, y_pad_0 = 0, y_pad_1 = 0, x_pad_0 = 0, x_pad_1 = 0 pop_prev_dep push_prev_dep
  vta_isa.finish pop_next_dep
}
