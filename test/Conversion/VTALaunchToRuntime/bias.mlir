// RUN: raf-opt %s --convert-vta-launch-to-runtime | FileCheck %s

// A launch of a program with a fused bias calls the runtime's biased entry
// point: the bias rows (int32) after the weight, their offset after the
// weight's.
// CHECK-LABEL: func.func @h(
// CHECK:         %[[B:.*]] = bufferization.to_buffer %arg2 read_only
// CHECK:         %[[BU:.*]] = memref.cast %[[B]] : {{.*}} to memref<*xi32>
// CHECK:         %[[C512:.*]] = arith.constant 512 : i64
// CHECK:         call @rafVTALaunchBiased(%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %[[BU]], %{{.*}}, %{{.*}}, %{{.*}}, %[[C512]], %{{.*}}, %{{.*}}, %{{.*}}) : (memref<*xi8>, memref<*xi8>, memref<*xi8>, memref<*xi8>, memref<*xi32>, memref<*xi32>, i64, i64, i64, i64, i64, i64) -> ()
// CHECK:       func.func private @rafVTALaunchBiased({{.*}}) attributes {llvm.emit_c_interface}
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
