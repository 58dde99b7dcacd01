// A program for a configuration that is not a preset (64 KiB accumulators),
// for binary.mlir.
vta_isa.program #vta.config<"1x16x16", log_acc_buff_size = 16> uops {
  vta_isa.uop dst_idx = 1023, src_idx = 1023, wgt_idx = 1023
} instructions {
  vta_isa.load uop sram_base = 0, dram_base = 0, y_size = 1, x_size = 1, x_stride = 1, y_pad_0 = 0, y_pad_1 = 0, x_pad_0 = 0, x_pad_1 = 0
  vta_isa.alu max uop_bgn = 0, uop_end = 1, iter_out = 1, iter_in = 1, dst_factor_out = 1023, dst_factor_in = 0, src_factor_out = 0, src_factor_in = 0, imm = 0
  vta_isa.finish
}
