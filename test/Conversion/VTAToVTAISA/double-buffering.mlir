// RUN: raf-opt %s --convert-vta-to-vta-isa -split-input-file | FileCheck %s

// Two GEMM tiles of one input row block by one weight row block over four
// BLOCK_IN blocks each, requantised by a shift and stored. Double-buffered,
// tile 1 uses SRAM rows [4, 8) and accumulator row 1, so its loads need not
// wait for tile 0's GEMM, nor its reset for tile 0's store: the only tokens
// are data ready (l2g, g2s) and FINISH waiting for the last store.

// CHECK-LABEL: vta_isa.program #vta.config<"1x16x16"> attributes {vta.tile_sizes = array<i64: 1, 4>, vta.virtual_threads = 2 : i64} uops {
// The reset and the shift of a tile share a body, the GEMMs do not (their
// rows differ): 2 x 2 bodies, 1 + 4 entries each.
// CHECK-NEXT:   vta_isa.uop dst_idx = 0, src_idx = 0, wgt_idx = 0
// CHECK-NEXT:   vta_isa.uop dst_idx = 0, src_idx = 0, wgt_idx = 0
// CHECK-NEXT:   vta_isa.uop dst_idx = 0, src_idx = 1, wgt_idx = 1
// CHECK-NEXT:   vta_isa.uop dst_idx = 0, src_idx = 2, wgt_idx = 2
// CHECK-NEXT:   vta_isa.uop dst_idx = 0, src_idx = 3, wgt_idx = 3
// CHECK-NEXT:   vta_isa.uop dst_idx = 1, src_idx = 0, wgt_idx = 0
// CHECK-NEXT:   vta_isa.uop dst_idx = 1, src_idx = 4, wgt_idx = 4
// CHECK-COUNT-3: vta_isa.uop dst_idx = 1
// CHECK-NEXT: } instructions {
// CHECK-NEXT: vta_isa.load uop sram_base = 0, dram_base = 0, y_size = 1, x_size = 10, x_stride = 10,
// CHECK-SAME: x_pad_1 = 0{{$}}
// CHECK-NEXT: vta_isa.load inp sram_base = 0,
// CHECK-SAME: x_pad_1 = 0{{$}}
// CHECK-NEXT: vta_isa.load wgt sram_base = 0,
// CHECK-SAME: x_pad_1 = 0 push_next_dep{{$}}
// CHECK-NEXT: vta_isa.gemm reset_reg uop_bgn = 0, uop_end = 1,
// CHECK-SAME: wgt_factor_in = 0{{$}}
// CHECK-NEXT: vta_isa.gemm uop_bgn = 1, uop_end = 5,
// CHECK-SAME: wgt_factor_in = 0 pop_prev_dep{{$}}
// CHECK-NEXT: vta_isa.alu shr uop_bgn = 0, uop_end = 1,
// CHECK-SAME: imm = 8 use_imm push_next_dep{{$}}
// CHECK-NEXT: vta_isa.store out sram_base = 0, dram_base = 144,
// CHECK-SAME: x_pad_1 = 0 pop_prev_dep{{$}}
// CHECK-NEXT: vta_isa.load inp sram_base = 4,
// CHECK-SAME: x_pad_1 = 0{{$}}
// CHECK-NEXT: vta_isa.load wgt sram_base = 4,
// CHECK-SAME: x_pad_1 = 0 push_next_dep{{$}}
// CHECK-NEXT: vta_isa.gemm reset_reg uop_bgn = 5, uop_end = 6,
// CHECK-SAME: wgt_factor_in = 0{{$}}
// CHECK-NEXT: vta_isa.gemm uop_bgn = 6, uop_end = 10,
// CHECK-SAME: wgt_factor_in = 0 pop_prev_dep{{$}}
// CHECK-NEXT: vta_isa.alu shr uop_bgn = 5, uop_end = 6,
// CHECK-SAME: imm = 8 use_imm push_next_dep{{$}}
// CHECK-NEXT: vta_isa.store out sram_base = 1, dram_base = 145,
// CHECK-SAME: x_pad_1 = 0 pop_prev_dep push_prev_dep{{$}}
// CHECK-NEXT: vta_isa.finish pop_next_dep
// CHECK-NEXT: }
vta.program #vta.config<"1x16x16"> attributes {tile_sizes = array<i64: 1, 4>, virtual_threads = 2} {
  vta.load_tile inp sram = 0, dram = 0, rows = 1, cols = 4, stride = 4
  vta.load_tile wgt sram = 0, dram = 1, rows = 1, cols = 4, stride = 4
  vta.gemm reset loops = [1, 1], dst = [0, 0], src = [0, 0], wgt = [0, 0] uops = [[0, 0, 0]]
  vta.gemm loops = [1, 1], dst = [0, 0], src = [0, 0], wgt = [0, 0] uops = [[0, 0, 0], [0, 1, 1], [0, 2, 2], [0, 3, 3]]
  vta.alu shr imm = 8, loops = [1, 1], dst = [0, 0], src = [0, 0] uops = [[0, 0, 0]]
  vta.store_tile sram = 0, dram = 144, rows = 1, cols = 1, stride = 1
  vta.load_tile inp sram = 4, dram = 4, rows = 1, cols = 4, stride = 4
  vta.load_tile wgt sram = 4, dram = 5, rows = 1, cols = 4, stride = 4
  vta.gemm reset loops = [1, 1], dst = [0, 0], src = [0, 0], wgt = [0, 0] uops = [[1, 0, 0]]
  vta.gemm loops = [1, 1], dst = [0, 0], src = [0, 0], wgt = [0, 0] uops = [[1, 4, 4], [1, 5, 5], [1, 6, 6], [1, 7, 7]]
  vta.alu shr imm = 8, loops = [1, 1], dst = [0, 0], src = [0, 0] uops = [[1, 0, 0]]
  vta.store_tile sram = 1, dram = 145, rows = 1, cols = 1, stride = 1
}

// -----

// The same tiles single-buffered: tile 1's input load waits for tile 0's
// GEMM (g2l, popped with the load module's pop_next_dep), its reset for
// tile 0's store (s2g), and each GEMM reuses the one body.

// CHECK-LABEL: vta_isa.program #vta.config<"1x16x16"> uops {
// CHECK-COUNT-5: vta_isa.uop
// CHECK-NEXT: } instructions {
// CHECK-NEXT: vta_isa.load uop {{.*}} x_size = 5,
// CHECK-NEXT: vta_isa.load inp {{.*}} x_pad_1 = 0{{$}}
// CHECK-NEXT: vta_isa.load wgt {{.*}} push_next_dep{{$}}
// CHECK-NEXT: vta_isa.gemm reset_reg {{.*}} wgt_factor_in = 0{{$}}
// CHECK-NEXT: vta_isa.gemm {{.*}} pop_prev_dep push_prev_dep{{$}}
// CHECK-NEXT: vta_isa.alu {{.*}} push_next_dep{{$}}
// CHECK-NEXT: vta_isa.store {{.*}} pop_prev_dep push_prev_dep{{$}}
// CHECK-NEXT: vta_isa.load inp {{.*}} pop_next_dep{{$}}
// CHECK-NEXT: vta_isa.load wgt {{.*}} push_next_dep{{$}}
// CHECK-NEXT: vta_isa.gemm reset_reg {{.*}} pop_next_dep{{$}}
// CHECK-NEXT: vta_isa.gemm {{.*}} pop_prev_dep{{$}}
// CHECK-NEXT: vta_isa.alu {{.*}} push_next_dep{{$}}
// CHECK-NEXT: vta_isa.store {{.*}} pop_prev_dep push_prev_dep{{$}}
// CHECK-NEXT: vta_isa.finish pop_next_dep
vta.program #vta.config<"1x16x16"> {
  vta.load_tile inp sram = 0, dram = 0, rows = 1, cols = 4, stride = 4
  vta.load_tile wgt sram = 0, dram = 1, rows = 1, cols = 4, stride = 4
  vta.gemm reset loops = [1, 1], dst = [0, 0], src = [0, 0], wgt = [0, 0] uops = [[0, 0, 0]]
  vta.gemm loops = [1, 1], dst = [0, 0], src = [0, 0], wgt = [0, 0] uops = [[0, 0, 0], [0, 1, 1], [0, 2, 2], [0, 3, 3]]
  vta.alu shr imm = 8, loops = [1, 1], dst = [0, 0], src = [0, 0] uops = [[0, 0, 0]]
  vta.store_tile sram = 0, dram = 144, rows = 1, cols = 1, stride = 1
  vta.load_tile inp sram = 0, dram = 4, rows = 1, cols = 4, stride = 4
  vta.load_tile wgt sram = 0, dram = 5, rows = 1, cols = 4, stride = 4
  vta.gemm reset loops = [1, 1], dst = [0, 0], src = [0, 0], wgt = [0, 0] uops = [[0, 0, 0]]
  vta.gemm loops = [1, 1], dst = [0, 0], src = [0, 0], wgt = [0, 0] uops = [[0, 0, 0], [0, 1, 1], [0, 2, 2], [0, 3, 3]]
  vta.alu shr imm = 8, loops = [1, 1], dst = [0, 0], src = [0, 0] uops = [[0, 0, 0]]
  vta.store_tile sram = 0, dram = 145, rows = 1, cols = 1, stride = 1
}
