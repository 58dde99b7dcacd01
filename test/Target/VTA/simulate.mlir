// RUN: raf-translate --vta-isa-to-bin %s -o %t.bin
// RUN: %python %S/Inputs/requant-dram.py %t.dram
// RUN: raf-vta-sim %t.bin --dram=%t.dram -o %t.out --timeline | FileCheck %s
// RUN: od -An -tx1 -v -j272 %t.out | FileCheck %s --check-prefix=OUT
// RUN: cmp -n 272 %t.dram %t.out
// The cycle model alone gives the same counters without DRAM.
// RUN: raf-vta-sim %t.bin --timing-only | FileCheck %s --check-prefix=TIMING
// RUN: not raf-vta-sim %t.bin --timing-only -o %t.none 2>&1 | FileCheck %s --check-prefix=TIMING-IO

// End to end: IR -> binary -> simulator. One 1x16x16 GEMM of the input row
// x = (-80, -70, ..., 70) with W = 3 I, then requantisation: shift right by
// 1 and clip to [-100, 100]: 3x = -240 ... 210, >> 1 = -120 ... 105.
// OUT: 9c 9c a6 b5 c4 d3 e2 f1 00 0f 1e 2d 3c 4b 5a 64
//      -100 -100 -90 -75 -60 -45 -30 -15 0 15 30 45 60 75 90 100

// Cycles (8 DRAM bytes per cycle, GEMM 1 and ALU 2 cycles per micro-op
// step): load module: INP 16 B in [0, 2), WGT 256 B in [2, 34), which pushes
// l2g at 34; compute: the uop load 4 B in [0, 1), the reset in [1, 2), the
// GEMM waits for l2g: [34, 35), three ALU ops [35, 41), pushing g2s at 41;
// store 16 B in [41, 43), pushing s2g; FINISH at 43.
// CHECK:      cycles: 43
// CHECK-NEXT: load: 2 instructions, 34 busy cycles
// CHECK-NEXT: compute: 7 instructions, 9 busy cycles
// CHECK-NEXT: store: 1 instructions, 2 busy cycles
// CHECK-NEXT: gemm micro-op steps: 2
// CHECK-NEXT: alu micro-op steps: 3
// CHECK-NEXT: loaded uop bytes: 4
// CHECK-NEXT: loaded wgt bytes: 256
// CHECK-NEXT: loaded inp bytes: 16
// CHECK-NEXT: stored bytes: 16
// CHECK-NEXT: instruction 1 (load, load): 0 - 2
// CHECK-NEXT: instruction 2 (load, load): 2 - 34
// CHECK-NEXT: instruction 0 (load, compute): 0 - 1
// CHECK-NEXT: instruction 3 (gemm, compute): 1 - 2
// CHECK-NEXT: instruction 4 (gemm, compute): 34 - 35
// CHECK-NEXT: instruction 5 (alu, compute): 35 - 37
// CHECK-NEXT: instruction 6 (alu, compute): 37 - 39
// CHECK-NEXT: instruction 7 (alu, compute): 39 - 41
// CHECK-NEXT: instruction 8 (store, store): 41 - 43
// CHECK-NEXT: instruction 9 (finish, compute): 43 - 43

vta_isa.program #vta.config<"1x16x16"> uops {
  vta_isa.uop dst_idx = 0, src_idx = 0, wgt_idx = 0
} instructions {
  vta_isa.load uop sram_base = 0, dram_base = 0, y_size = 1, x_size = 1, x_stride = 1, y_pad_0 = 0, y_pad_1 = 0, x_pad_0 = 0, x_pad_1 = 0
  // Input row 16 = bytes 256-271; weight row 0 = bytes 0-255.
  vta_isa.load inp sram_base = 0, dram_base = 16, y_size = 1, x_size = 1, x_stride = 1, y_pad_0 = 0, y_pad_1 = 0, x_pad_0 = 0, x_pad_1 = 0
  vta_isa.load wgt sram_base = 0, dram_base = 0, y_size = 1, x_size = 1, x_stride = 1, y_pad_0 = 0, y_pad_1 = 0, x_pad_0 = 0, x_pad_1 = 0 push_next_dep
  vta_isa.gemm reset_reg uop_bgn = 0, uop_end = 1, iter_out = 1, iter_in = 1, dst_factor_out = 0, dst_factor_in = 0, src_factor_out = 0, src_factor_in = 0, wgt_factor_out = 0, wgt_factor_in = 0
  vta_isa.gemm uop_bgn = 0, uop_end = 1, iter_out = 1, iter_in = 1, dst_factor_out = 0, dst_factor_in = 0, src_factor_out = 0, src_factor_in = 0, wgt_factor_out = 0, wgt_factor_in = 0 pop_prev_dep
  vta_isa.alu shr uop_bgn = 0, uop_end = 1, iter_out = 1, iter_in = 1, dst_factor_out = 0, dst_factor_in = 0, src_factor_out = 0, src_factor_in = 0, imm = 1 use_imm
  vta_isa.alu min uop_bgn = 0, uop_end = 1, iter_out = 1, iter_in = 1, dst_factor_out = 0, dst_factor_in = 0, src_factor_out = 0, src_factor_in = 0, imm = 100 use_imm
  vta_isa.alu max uop_bgn = 0, uop_end = 1, iter_out = 1, iter_in = 1, dst_factor_out = 0, dst_factor_in = 0, src_factor_out = 0, src_factor_in = 0, imm = -100 use_imm push_next_dep
  // Output row 17 = bytes 272-287.
  vta_isa.store out sram_base = 0, dram_base = 17, y_size = 1, x_size = 1, x_stride = 1, y_pad_0 = 0, y_pad_1 = 0, x_pad_0 = 0, x_pad_1 = 0 pop_prev_dep push_prev_dep
  vta_isa.finish pop_next_dep
}

// TIMING:      cycles: 43
// TIMING-NEXT: load: 2 instructions, 34 busy cycles
// TIMING-NEXT: compute: 7 instructions, 9 busy cycles
// TIMING-NEXT: store: 1 instructions, 2 busy cycles
// TIMING-NEXT: gemm micro-op steps: 2
// TIMING-NEXT: alu micro-op steps: 3
// TIMING-NEXT: loaded uop bytes: 4
// TIMING-NEXT: loaded wgt bytes: 256
// TIMING-NEXT: loaded inp bytes: 16
// TIMING-NEXT: stored bytes: 16
// TIMING-IO: --timing-only reads and writes no DRAM image
