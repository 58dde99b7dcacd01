// A minimal 8x8x8 program for corrupt-binary.test.
vta_isa.program #vta.config<"8x8x8"> uops {
  vta_isa.uop dst_idx = 0, src_idx = 0, wgt_idx = 0
} instructions {
  vta_isa.load uop sram_base = 0, dram_base = 0, y_size = 1, x_size = 1, x_stride = 1, y_pad_0 = 0, y_pad_1 = 0, x_pad_0 = 0, x_pad_1 = 0
  vta_isa.gemm reset_reg uop_bgn = 0, uop_end = 1, iter_out = 1, iter_in = 1, dst_factor_out = 0, dst_factor_in = 0, src_factor_out = 0, src_factor_in = 0, wgt_factor_out = 0, wgt_factor_in = 0
  vta_isa.finish
}
