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
