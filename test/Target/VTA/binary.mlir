// RUN: raf-translate --vta-isa-to-bin %s -o %t.bin
// RUN: od -An -tx1 -v -N32 %t.bin | FileCheck %s --check-prefix=HEADER
// RUN: od -An -tx1 -v -j32 -N8 %t.bin | FileCheck %s --check-prefix=UOPS
// RUN: od -An -tx1 -v -j40 -w16 %t.bin | FileCheck %s --check-prefix=INSNS
//
// isa -> bin -> isa gives the program back, and bin -> isa -> bin the same
// bytes.
// RUN: raf-translate --bin-to-vta-isa %t.bin | raf-opt -o %t.mlir
// RUN: raf-opt %s -o %t.expected.mlir
// RUN: diff %t.expected.mlir %t.mlir
// RUN: raf-translate --vta-isa-to-bin %t.mlir -o %t.again.bin
// RUN: cmp %t.bin %t.again.bin
//
// The same for an 8x8x8 program and for a configuration that is not a
// preset (log_acc_buff_size 16: header byte 20 is 0x10, and dst_factor_out
// has 10 bits).
// RUN: raf-translate --vta-isa-to-bin %S/Inputs/small-8x8x8.mlir -o %t.small.bin
// RUN: raf-translate --bin-to-vta-isa %t.small.bin | raf-translate --vta-isa-to-bin -o %t.small.again.bin
// RUN: cmp %t.small.bin %t.small.again.bin
// RUN: raf-translate --vta-isa-to-bin %S/Inputs/custom-config.mlir -o %t.custom.bin
// RUN: od -An -tx1 -v -N32 %t.custom.bin | FileCheck %s --check-prefix=CUSTOM
// RUN: raf-translate --bin-to-vta-isa %t.custom.bin | FileCheck %s --check-prefix=CUSTOM-ISA
// RUN: raf-translate --bin-to-vta-isa %t.custom.bin | raf-translate --vta-isa-to-bin -o %t.custom.again.bin
// RUN: cmp %t.custom.bin %t.custom.again.bin

// The container and every instruction kind of the default configuration.
// Each expected word was computed by hand from the bit ranges of
// tvm-vta's hw_spec.h bit-fields (little-endian: the first byte holds bits
// 0-7).

// Magic "RAF-VTA\0", version 1, the nine log2 parameters (3 3 5 0 4 15 15
// 18 17), 3 reserved bytes, 2 micro-ops, 10 instructions.
// HEADER:      52 41 46 2d 56 54 41 00 01 00 00 00 03 03 05 00
// HEADER-NEXT: 04 0f 0f 12 11 00 00 00 02 00 00 00 0a 00 00 00

// dst_idx [10:0], src_idx [21:11], wgt_idx [31:22]:
// {2047, 2047, 1023} = 0xffffffff; {1, 2, 3} = 1 | 2 << 11 | 3 << 22 = 0x00c01001.
// UOPS: ff ff ff ff 01 10 c0 00

// CUSTOM:      52 41 46 2d 56 54 41 00 01 00 00 00 03 03 05 00
// CUSTOM-NEXT: 04 0f 0f 12 10 00 00 00 01 00 00 00 03 00 00 00
// CUSTOM-ISA: vta_isa.program #vta.config<log_inp_width = 3, log_wgt_width = 3, log_acc_width = 5, log_batch = 0, log_block = 4, log_uop_buff_size = 15, log_inp_buff_size = 15, log_wgt_buff_size = 18, log_acc_buff_size = 16>
// CUSTOM-ISA: vta_isa.uop dst_idx = 1023, src_idx = 1023, wgt_idx = 1023
// CUSTOM-ISA: vta_isa.alu max {{.*}} dst_factor_out = 1023,

// One instruction per line: bits 0-63, then bits 64-127.
// 0: LOAD UOP, y_size 1 @64, x_size 2 @80, x_stride 2 @96.
// INSNS:      00 00 00 00 00 00 00 00 01 00 02 00 02 00 00 00
// 1: LOAD INP: push_next 1<<6, memory_type 2<<7, sram_base 5<<10,
//    dram_base 0x12345678<<26 = 0x48d159e0000000; y_size 3, x_size 4<<16,
//    x_stride 16<<32, pads 1<<48 | 2<<52 | 3<<56 | 4<<60.
// INSNS-NEXT: 40 15 00 e0 59 d1 48 00 03 00 04 00 10 00 21 43
// 2: LOAD WGT: pop_next 1<<4, push_next 1<<6, memory_type 1<<7,
//    sram_base 7<<10, dram_base 1<<26 = 0x4001cd0.
// INSNS-NEXT: d0 1c 00 04 00 00 00 00 01 00 01 00 01 00 00 00
// 3: LOAD ACC: memory_type 3<<7, sram_base 8<<10, dram_base 2<<26.
// INSNS-NEXT: 80 21 00 08 00 00 00 00 01 00 02 00 02 00 00 00
// 4: GEMM reset: opcode 2, pop_prev 1<<3, push_prev 1<<5, reset_reg 1<<7,
//    uop_end 1<<21, iter_out 1<<35, iter_in 1<<49 = 0x00020008002000aa.
// INSNS-NEXT: aa 00 20 00 08 00 02 00 00 00 00 00 00 00 00 00
// 5: GEMM: 2 | pop_prev | uop_bgn 1<<8 | uop_end 2<<21 | iter_out 3<<35 |
//    iter_in 5<<49 = 0x000a00180040010a; dst_factor_out 6 | dst_factor_in
//    7<<11 | src_factor_out 8<<22 | src_factor_in 9<<33 | wgt_factor_out
//    10<<44 | wgt_factor_in 11<<54 = 0x02c0a01202003806.
// INSNS-NEXT: 0a 01 40 00 18 00 0a 00 06 38 00 02 12 a0 c0 02
// 6: ALU add: 4 | uop_bgn 1<<8 | uop_end 2<<21 | iter_out 2<<35 | iter_in
//    1<<49; dst_factor_out 4 | src_factor_out 5<<22 | alu_opcode 2<<44 |
//    imm 0x1234<<48 (encoded without use_imm).
// INSNS-NEXT: 04 01 40 00 10 00 02 00 04 00 40 01 00 20 34 12
// 7: ALU shr by -3: 4 | push_next 1<<6 | uop_end 1<<21 | iter_out 1<<35 |
//    iter_in 1<<49; alu_opcode 3<<44 | use_imm 1<<47 | 0xfffd<<48.
// INSNS-NEXT: 44 00 20 00 08 00 02 00 00 00 00 00 00 b0 fd ff
// 8: STORE: 1 | pop_prev 1<<3 | push_prev 1<<5 | memory_type 4<<7 |
//    sram_base 9<<10 | dram_base 0xabcd<<26 = 0x2af34002629; y_size 2,
//    x_size 3<<16, x_stride 4<<32.
// INSNS-NEXT: 29 26 00 34 af 02 00 00 02 00 03 00 04 00 00 00
// 9: FINISH: 3 | pop_next 1<<4.
// INSNS-NEXT: 13 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00
// INSNS-NOT: {{.}}

vta_isa.program #vta.config<"1x16x16"> uops {
  vta_isa.uop dst_idx = 2047, src_idx = 2047, wgt_idx = 1023
  vta_isa.uop dst_idx = 1, src_idx = 2, wgt_idx = 3
} instructions {
  vta_isa.load uop sram_base = 0, dram_base = 0, y_size = 1, x_size = 2, x_stride = 2, y_pad_0 = 0, y_pad_1 = 0, x_pad_0 = 0, x_pad_1 = 0
  vta_isa.load inp sram_base = 5, dram_base = 305419896, y_size = 3, x_size = 4, x_stride = 16, y_pad_0 = 1, y_pad_1 = 2, x_pad_0 = 3, x_pad_1 = 4 push_next_dep
  vta_isa.load wgt sram_base = 7, dram_base = 1, y_size = 1, x_size = 1, x_stride = 1, y_pad_0 = 0, y_pad_1 = 0, x_pad_0 = 0, x_pad_1 = 0 pop_next_dep push_next_dep
  vta_isa.load acc sram_base = 8, dram_base = 2, y_size = 1, x_size = 2, x_stride = 2, y_pad_0 = 0, y_pad_1 = 0, x_pad_0 = 0, x_pad_1 = 0
  vta_isa.gemm reset_reg uop_bgn = 0, uop_end = 1, iter_out = 1, iter_in = 1, dst_factor_out = 0, dst_factor_in = 0, src_factor_out = 0, src_factor_in = 0, wgt_factor_out = 0, wgt_factor_in = 0 pop_prev_dep push_prev_dep
  vta_isa.gemm uop_bgn = 1, uop_end = 2, iter_out = 3, iter_in = 5, dst_factor_out = 6, dst_factor_in = 7, src_factor_out = 8, src_factor_in = 9, wgt_factor_out = 10, wgt_factor_in = 11 pop_prev_dep
  vta_isa.alu add uop_bgn = 1, uop_end = 2, iter_out = 2, iter_in = 1, dst_factor_out = 4, dst_factor_in = 0, src_factor_out = 5, src_factor_in = 0, imm = 4660
  vta_isa.alu shr uop_bgn = 0, uop_end = 1, iter_out = 1, iter_in = 1, dst_factor_out = 0, dst_factor_in = 0, src_factor_out = 0, src_factor_in = 0, imm = -3 use_imm push_next_dep
  vta_isa.store out sram_base = 9, dram_base = 43981, y_size = 2, x_size = 3, x_stride = 4, y_pad_0 = 0, y_pad_1 = 0, x_pad_0 = 0, x_pad_1 = 0 pop_prev_dep push_prev_dep
  vta_isa.finish pop_next_dep
}
