// RUN: raf-opt %s -split-input-file -verify-diagnostics

// One case per diagnostic of the vta_isa verifiers: the rules of
// raf/Target/VTA/Checks.h for instructions, micro-ops and whole programs
// (lib/Dialect/VTAISA/IR/VTAISAOps.cpp reports them on the op concerned).
// Field widths are those of the program's configuration.

// The load module has no previous stage and the store module no next one.
vta_isa.program #vta.config<"1x16x16"> uops {
} instructions {
  // expected-error @+2 {{'vta_isa.load' op pop_prev_dep is set but the load module, which executes this instruction, has no previous stage}}
  // expected-error @+1 {{'vta_isa.load' op push_prev_dep is set but the load module, which executes this instruction, has no previous stage}}
  vta_isa.load inp sram_base = 0, dram_base = 0, y_size = 1, x_size = 1, x_stride = 1, y_pad_0 = 0, y_pad_1 = 0, x_pad_0 = 0, x_pad_1 = 0 pop_prev_dep push_prev_dep
  vta_isa.finish
}

// -----

vta_isa.program #vta.config<"1x16x16"> uops {
} instructions {
  // expected-error @+2 {{'vta_isa.store' op pop_next_dep is set but the store module, which executes this instruction, has no next stage}}
  // expected-error @+1 {{'vta_isa.store' op push_next_dep is set but the store module, which executes this instruction, has no next stage}}
  vta_isa.store out sram_base = 0, dram_base = 0, y_size = 1, x_size = 1, x_stride = 1, y_pad_0 = 0, y_pad_1 = 0, x_pad_0 = 0, x_pad_1 = 0 pop_next_dep push_next_dep
  vta_isa.finish
}

// -----

vta_isa.program #vta.config<"1x16x16"> uops {
} instructions {
  // expected-error @+1 {{'vta_isa.load' op LOAD cannot write the out buffer (GEMM and ALU write it)}}
  vta_isa.load out sram_base = 0, dram_base = 0, y_size = 1, x_size = 1, x_stride = 1, y_pad_0 = 0, y_pad_1 = 0, x_pad_0 = 0, x_pad_1 = 0
  vta_isa.finish
}

// -----

vta_isa.program #vta.config<"1x16x16"> uops {
} instructions {
  // expected-error @+1 {{'vta_isa.store' op STORE reads the out buffer only, not inp}}
  vta_isa.store inp sram_base = 0, dram_base = 0, y_size = 1, x_size = 1, x_stride = 1, y_pad_0 = 0, y_pad_1 = 0, x_pad_0 = 0, x_pad_1 = 0
  vta_isa.finish
}

// -----

// Every LOAD/STORE field against its width.
vta_isa.program #vta.config<"1x16x16"> uops {
} instructions {
  // expected-error @+9 {{'vta_isa.load' op sram_base = 65536 does not fit in 16 bits}}
  // expected-error @+8 {{'vta_isa.load' op dram_base = 4294967296 does not fit in 32 bits}}
  // expected-error @+7 {{'vta_isa.load' op y_size = 65536 does not fit in 16 bits}}
  // expected-error @+6 {{'vta_isa.load' op x_size = 65536 does not fit in 16 bits}}
  // expected-error @+5 {{'vta_isa.load' op x_stride = 65536 does not fit in 16 bits}}
  // expected-error @+4 {{'vta_isa.load' op y_pad_0 = 16 does not fit in 4 bits}}
  // expected-error @+3 {{'vta_isa.load' op y_pad_1 = 16 does not fit in 4 bits}}
  // expected-error @+2 {{'vta_isa.load' op x_pad_0 = 16 does not fit in 4 bits}}
  // expected-error @+1 {{'vta_isa.load' op x_pad_1 = -1 does not fit in 4 bits}}
  vta_isa.load inp sram_base = 65536, dram_base = 4294967296, y_size = 65536, x_size = 65536, x_stride = 65536, y_pad_0 = 16, y_pad_1 = 16, x_pad_0 = 16, x_pad_1 = -1
  vta_isa.finish
}

// -----

vta_isa.program #vta.config<"1x16x16"> uops {
} instructions {
  // expected-error @+1 {{'vta_isa.store' op sram_base = -1 does not fit in 16 bits}}
  vta_isa.store out sram_base = -1, dram_base = 0, y_size = 1, x_size = 1, x_stride = 1, y_pad_0 = 0, y_pad_1 = 0, x_pad_0 = 0, x_pad_1 = 0
  vta_isa.finish
}

// -----

// Only INP loads pad (the HLS load module pads INP only; stores never pad).
vta_isa.program #vta.config<"1x16x16"> uops {
} instructions {
  // expected-error @+1 {{'vta_isa.load' op LOAD of wgt cannot pad (only INP loads pad): y_pad = (1, 0), x_pad = (0, 0)}}
  vta_isa.load wgt sram_base = 0, dram_base = 0, y_size = 1, x_size = 1, x_stride = 1, y_pad_0 = 1, y_pad_1 = 0, x_pad_0 = 0, x_pad_1 = 0
  vta_isa.finish
}

// -----

vta_isa.program #vta.config<"1x16x16"> uops {
} instructions {
  // expected-error @+1 {{'vta_isa.load' op LOAD of acc cannot pad (only INP loads pad): y_pad = (0, 0), x_pad = (0, 2)}}
  vta_isa.load acc sram_base = 0, dram_base = 0, y_size = 1, x_size = 1, x_stride = 1, y_pad_0 = 0, y_pad_1 = 0, x_pad_0 = 0, x_pad_1 = 2
  vta_isa.finish
}

// -----

vta_isa.program #vta.config<"1x16x16"> uops {
} instructions {
  // expected-error @+1 {{'vta_isa.store' op STORE of out cannot pad (only INP loads pad): y_pad = (0, 0), x_pad = (1, 0)}}
  vta_isa.store out sram_base = 0, dram_base = 0, y_size = 1, x_size = 1, x_stride = 1, y_pad_0 = 0, y_pad_1 = 0, x_pad_0 = 1, x_pad_1 = 0
  vta_isa.finish
}

// -----

// sram_base must address a row of the buffer: 2048 input rows in 1x16x16.
vta_isa.program #vta.config<"1x16x16"> uops {
} instructions {
  // expected-error @+1 {{'vta_isa.load' op sram_base = 2048 is outside the inp buffer (2048 rows)}}
  vta_isa.load inp sram_base = 2048, dram_base = 0, y_size = 1, x_size = 1, x_stride = 1, y_pad_0 = 0, y_pad_1 = 0, x_pad_0 = 0, x_pad_1 = 0
  vta_isa.finish
}

// -----

// The 8x8x8 configuration has 4096 weight rows and 512 accumulator rows.
vta_isa.program #vta.config<"8x8x8"> uops {
} instructions {
  vta_isa.load wgt sram_base = 4095, dram_base = 0, y_size = 1, x_size = 1, x_stride = 1, y_pad_0 = 0, y_pad_1 = 0, x_pad_0 = 0, x_pad_1 = 0
  // expected-error @+1 {{'vta_isa.load' op sram_base = 512 is outside the acc buffer (512 rows)}}
  vta_isa.load acc sram_base = 512, dram_base = 0, y_size = 1, x_size = 1, x_stride = 1, y_pad_0 = 0, y_pad_1 = 0, x_pad_0 = 0, x_pad_1 = 0
  vta_isa.finish
}

// -----

// A padded 4x4 tile with one row/column of padding on each side takes 36 rows.
vta_isa.program #vta.config<"1x16x16"> uops {
} instructions {
  // expected-error @+1 {{'vta_isa.load' op LOAD writes rows [2040, 2076) of the inp buffer, which has 2048 rows}}
  vta_isa.load inp sram_base = 2040, dram_base = 0, y_size = 4, x_size = 4, x_stride = 4, y_pad_0 = 1, y_pad_1 = 1, x_pad_0 = 1, x_pad_1 = 1
  vta_isa.finish
}

// -----

vta_isa.program #vta.config<"1x16x16"> uops {
} instructions {
  // expected-error @+1 {{'vta_isa.store' op STORE reads rows [2000, 2049) of the out buffer, which has 2048 rows}}
  vta_isa.store out sram_base = 2000, dram_base = 0, y_size = 7, x_size = 7, x_stride = 7, y_pad_0 = 0, y_pad_1 = 0, x_pad_0 = 0, x_pad_1 = 0
  vta_isa.finish
}

// -----

vta_isa.program #vta.config<"1x16x16"> uops {
  vta_isa.uop dst_idx = 0, src_idx = 0, wgt_idx = 0
  vta_isa.uop dst_idx = 0, src_idx = 0, wgt_idx = 0
} instructions {
  // expected-error @+1 {{'vta_isa.load' op a UOP load copies one row of micro-ops: y_size must be 1, got 2}}
  vta_isa.load uop sram_base = 0, dram_base = 0, y_size = 2, x_size = 1, x_stride = 1, y_pad_0 = 0, y_pad_1 = 0, x_pad_0 = 0, x_pad_1 = 0
  vta_isa.finish
}

// -----

// Every GEMM field against its width (1x16x16: uop 13/14 bits, acc and inp 11, wgt 10).
vta_isa.program #vta.config<"1x16x16"> uops {
} instructions {
  // expected-error @+10 {{'vta_isa.gemm' op uop_bgn = 8192 does not fit in 13 bits}}
  // expected-error @+9 {{'vta_isa.gemm' op uop_end = 16384 does not fit in 14 bits}}
  // expected-error @+8 {{'vta_isa.gemm' op iter_out = 16384 does not fit in 14 bits}}
  // expected-error @+7 {{'vta_isa.gemm' op iter_in = -1 does not fit in 14 bits}}
  // expected-error @+6 {{'vta_isa.gemm' op dst_factor_out = 2048 does not fit in 11 bits}}
  // expected-error @+5 {{'vta_isa.gemm' op dst_factor_in = 2048 does not fit in 11 bits}}
  // expected-error @+4 {{'vta_isa.gemm' op src_factor_out = 2048 does not fit in 11 bits}}
  // expected-error @+3 {{'vta_isa.gemm' op src_factor_in = 2048 does not fit in 11 bits}}
  // expected-error @+2 {{'vta_isa.gemm' op wgt_factor_out = 1024 does not fit in 10 bits}}
  // expected-error @+1 {{'vta_isa.gemm' op wgt_factor_in = 1024 does not fit in 10 bits}}
  vta_isa.gemm uop_bgn = 8192, uop_end = 16384, iter_out = 16384, iter_in = -1, dst_factor_out = 2048, dst_factor_in = 2048, src_factor_out = 2048, src_factor_in = 2048, wgt_factor_out = 1024, wgt_factor_in = 1024
  vta_isa.finish
}

// -----

// 8x8x8: acc and inp factors have 9 bits, wgt factors 12.
vta_isa.program #vta.config<"8x8x8"> uops {
} instructions {
  // expected-error @+3 {{'vta_isa.gemm' op dst_factor_out = 512 does not fit in 9 bits}}
  // expected-error @+2 {{'vta_isa.gemm' op src_factor_in = 512 does not fit in 9 bits}}
  // expected-error @+1 {{'vta_isa.gemm' op wgt_factor_out = 4096 does not fit in 12 bits}}
  vta_isa.gemm uop_bgn = 0, uop_end = 1, iter_out = 1, iter_in = 1, dst_factor_out = 512, dst_factor_in = 0, src_factor_out = 0, src_factor_in = 512, wgt_factor_out = 4096, wgt_factor_in = 4095
  vta_isa.finish
}

// -----

// ALU source factors index the accumulator buffer.
vta_isa.program #vta.config<"1x16x16"> uops {
} instructions {
  // expected-error @+2 {{'vta_isa.alu' op src_factor_out = 2048 does not fit in 11 bits}}
  // expected-error @+1 {{'vta_isa.alu' op imm = 32768 does not fit in a signed 16-bit immediate}}
  vta_isa.alu add uop_bgn = 0, uop_end = 1, iter_out = 1, iter_in = 1, dst_factor_out = 0, dst_factor_in = 0, src_factor_out = 2048, src_factor_in = 0, imm = 32768
  vta_isa.finish
}

// -----

vta_isa.program #vta.config<"1x16x16"> uops {
} instructions {
  // expected-error @+1 {{'vta_isa.alu' op imm = -32769 does not fit in a signed 16-bit immediate}}
  vta_isa.alu max uop_bgn = 0, uop_end = 1, iter_out = 1, iter_in = 1, dst_factor_out = 0, dst_factor_in = 0, src_factor_out = 0, src_factor_in = 0, imm = -32769 use_imm
  vta_isa.finish
}

// -----

// uop_end may be 8192 (the whole buffer) but not more.
vta_isa.program #vta.config<"1x16x16"> uops {
} instructions {
  // expected-error @+1 {{'vta_isa.gemm' op uop_end = 8193 is past the uop buffer (8192 rows)}}
  vta_isa.gemm uop_bgn = 0, uop_end = 8193, iter_out = 1, iter_in = 1, dst_factor_out = 0, dst_factor_in = 0, src_factor_out = 0, src_factor_in = 0, wgt_factor_out = 0, wgt_factor_in = 0
  vta_isa.finish
}

// -----

vta_isa.program #vta.config<"1x16x16"> uops {
} instructions {
  // expected-error @+1 {{'vta_isa.gemm' op uop_bgn = 3 must be less than uop_end = 3}}
  vta_isa.gemm uop_bgn = 3, uop_end = 3, iter_out = 1, iter_in = 1, dst_factor_out = 0, dst_factor_in = 0, src_factor_out = 0, src_factor_in = 0, wgt_factor_out = 0, wgt_factor_in = 0
  vta_isa.finish
}

// -----

vta_isa.program #vta.config<"1x16x16"> uops {
} instructions {
  // expected-error @+2 {{'vta_isa.gemm' op iter_out must be at least 1}}
  // expected-error @+1 {{'vta_isa.gemm' op iter_in must be at least 1}}
  vta_isa.gemm uop_bgn = 0, uop_end = 1, iter_out = 0, iter_in = 0, dst_factor_out = 0, dst_factor_in = 0, src_factor_out = 0, src_factor_in = 0, wgt_factor_out = 0, wgt_factor_in = 0
  vta_isa.finish
}

// -----

// The HLS ALU shifts by the operand's low 5 bits read as signed.
vta_isa.program #vta.config<"1x16x16"> uops {
} instructions {
  // expected-error @+1 {{'vta_isa.alu' op SHR by imm = 16 is outside [-16, 15]: the shift amount is the operand's low 5 bits, read as signed}}
  vta_isa.alu shr uop_bgn = 0, uop_end = 1, iter_out = 1, iter_in = 1, dst_factor_out = 0, dst_factor_in = 0, src_factor_out = 0, src_factor_in = 0, imm = 16 use_imm
  vta_isa.finish
}

// -----

vta_isa.program #vta.config<"1x16x16"> uops {
} instructions {
  // expected-error @+1 {{'vta_isa.alu' op ALU has no reset: the ALU ignores reset_reg (reset accumulators with a GEMM)}}
  vta_isa.alu min reset_reg uop_bgn = 0, uop_end = 1, iter_out = 1, iter_in = 1, dst_factor_out = 0, dst_factor_in = 0, src_factor_out = 0, src_factor_in = 0, imm = 0
  vta_isa.finish
}

// -----

// Micro-op indices in 1x16x16: dst 11 bits, src 11, wgt 10.
vta_isa.program #vta.config<"1x16x16"> uops {
  // expected-error @+3 {{'vta_isa.uop' op dst_idx = 2048 does not fit in 11 bits}}
  // expected-error @+2 {{'vta_isa.uop' op src_idx = 2048 does not fit in 11 bits}}
  // expected-error @+1 {{'vta_isa.uop' op wgt_idx = 1024 does not fit in 10 bits}}
  vta_isa.uop dst_idx = 2048, src_idx = 2048, wgt_idx = 1024
} instructions {
  vta_isa.finish
}

// -----

// 8x8x8: dst and src 9 bits, wgt 12.
vta_isa.program #vta.config<"8x8x8"> uops {
  vta_isa.uop dst_idx = 511, src_idx = 511, wgt_idx = 4095
  // expected-error @+3 {{'vta_isa.uop' op dst_idx = 512 does not fit in 9 bits}}
  // expected-error @+2 {{'vta_isa.uop' op src_idx = -1 does not fit in 9 bits}}
  // expected-error @+1 {{'vta_isa.uop' op wgt_idx = 4096 does not fit in 12 bits}}
  vta_isa.uop dst_idx = 512, src_idx = -1, wgt_idx = 4096
} instructions {
  vta_isa.finish
}

// -----

vta_isa.program #vta.config<"1x16x16"> uops {
  // expected-error @+1 {{'vta_isa.finish' op cannot be in the uops region of a program, which holds vta_isa.uop ops only}}
  vta_isa.finish
} instructions {
  vta_isa.finish
}

// -----

vta_isa.program #vta.config<"1x16x16"> uops {
} instructions {
  // expected-error @+1 {{'vta_isa.uop' op cannot be in the instructions region of a program, which holds instructions only}}
  vta_isa.uop dst_idx = 0, src_idx = 0, wgt_idx = 0
  vta_isa.finish
}

// -----

vta_isa.program #vta.config<"1x16x16"> uops {
} instructions {
  // expected-error @+1 {{'vta_isa.finish' op FINISH must be the last instruction (this is instruction 0 of 2)}}
  vta_isa.finish
  vta_isa.finish
}

// -----

// expected-error @+1 {{'vta_isa.program' op the program must end with FINISH}}
vta_isa.program #vta.config<"1x16x16"> uops {
} instructions {
  vta_isa.load inp sram_base = 0, dram_base = 0, y_size = 1, x_size = 1, x_stride = 1, y_pad_0 = 0, y_pad_1 = 0, x_pad_0 = 0, x_pad_1 = 0
}

// -----

// expected-error @+1 {{'vta_isa.program' op the program must end with FINISH}}
vta_isa.program #vta.config<"1x16x16"> uops {
} instructions {
}

// -----

// Each FIFO must be pushed as often as it is popped.
// expected-error @+1 {{'vta_isa.program' op dependence tokens of l2g do not balance: the load module pushes 2 (push_next_dep) and the compute module pops 1 (pop_prev_dep)}}
vta_isa.program #vta.config<"1x16x16"> uops {
  vta_isa.uop dst_idx = 0, src_idx = 0, wgt_idx = 0
} instructions {
  vta_isa.load uop sram_base = 0, dram_base = 0, y_size = 1, x_size = 1, x_stride = 1, y_pad_0 = 0, y_pad_1 = 0, x_pad_0 = 0, x_pad_1 = 0
  vta_isa.load inp sram_base = 0, dram_base = 0, y_size = 1, x_size = 1, x_stride = 1, y_pad_0 = 0, y_pad_1 = 0, x_pad_0 = 0, x_pad_1 = 0 push_next_dep
  vta_isa.load inp sram_base = 0, dram_base = 0, y_size = 1, x_size = 1, x_stride = 1, y_pad_0 = 0, y_pad_1 = 0, x_pad_0 = 0, x_pad_1 = 0 push_next_dep
  vta_isa.gemm reset_reg uop_bgn = 0, uop_end = 1, iter_out = 1, iter_in = 1, dst_factor_out = 0, dst_factor_in = 0, src_factor_out = 0, src_factor_in = 0, wgt_factor_out = 0, wgt_factor_in = 0 pop_prev_dep
  vta_isa.finish
}

// -----

// expected-error @+1 {{'vta_isa.program' op dependence tokens of g2l do not balance: the compute module pushes 0 (push_prev_dep) and the load module pops 1 (pop_next_dep)}}
vta_isa.program #vta.config<"1x16x16"> uops {
} instructions {
  vta_isa.load wgt sram_base = 0, dram_base = 0, y_size = 1, x_size = 1, x_stride = 1, y_pad_0 = 0, y_pad_1 = 0, x_pad_0 = 0, x_pad_1 = 0 pop_next_dep
  vta_isa.finish
}

// -----

// expected-error @+1 {{'vta_isa.program' op dependence tokens of g2s do not balance: the compute module pushes 1 (push_next_dep) and the store module pops 0 (pop_prev_dep)}}
vta_isa.program #vta.config<"1x16x16"> uops {
  vta_isa.uop dst_idx = 0, src_idx = 0, wgt_idx = 0
} instructions {
  vta_isa.load uop sram_base = 0, dram_base = 0, y_size = 1, x_size = 1, x_stride = 1, y_pad_0 = 0, y_pad_1 = 0, x_pad_0 = 0, x_pad_1 = 0 push_next_dep
  vta_isa.finish
}

// -----

// expected-error @+1 {{'vta_isa.program' op dependence tokens of s2g do not balance: the store module pushes 1 (push_prev_dep) and the compute module pops 0 (pop_next_dep)}}
vta_isa.program #vta.config<"1x16x16"> uops {
} instructions {
  vta_isa.store out sram_base = 0, dram_base = 0, y_size = 1, x_size = 1, x_stride = 1, y_pad_0 = 0, y_pad_1 = 0, x_pad_0 = 0, x_pad_1 = 0 push_prev_dep
  vta_isa.finish
}

// -----

// UOP loads read the program's micro-op table.
vta_isa.program #vta.config<"1x16x16"> uops {
  vta_isa.uop dst_idx = 0, src_idx = 0, wgt_idx = 0
  vta_isa.uop dst_idx = 0, src_idx = 0, wgt_idx = 0
} instructions {
  // expected-error @+1 {{'vta_isa.load' op UOP load reads micro-ops [1, 3) but the micro-op table has 2 entries}}
  vta_isa.load uop sram_base = 0, dram_base = 1, y_size = 1, x_size = 2, x_stride = 2, y_pad_0 = 0, y_pad_1 = 0, x_pad_0 = 0, x_pad_1 = 0
  vta_isa.finish
}

// -----

// GEMMs and ALU operations run micro-ops an earlier UOP load filled.
vta_isa.program #vta.config<"1x16x16"> uops {
  vta_isa.uop dst_idx = 0, src_idx = 0, wgt_idx = 0
  vta_isa.uop dst_idx = 0, src_idx = 0, wgt_idx = 0
} instructions {
  vta_isa.load uop sram_base = 0, dram_base = 0, y_size = 1, x_size = 1, x_stride = 1, y_pad_0 = 0, y_pad_1 = 0, x_pad_0 = 0, x_pad_1 = 0
  // expected-error @+1 {{'vta_isa.gemm' op GEMM runs micro-op 1 of the uop buffer, which no earlier UOP load filled}}
  vta_isa.gemm uop_bgn = 0, uop_end = 2, iter_out = 1, iter_in = 1, dst_factor_out = 0, dst_factor_in = 0, src_factor_out = 0, src_factor_in = 0, wgt_factor_out = 0, wgt_factor_in = 0
  vta_isa.finish
}

// -----

// A UOP load after the GEMM does not count.
vta_isa.program #vta.config<"1x16x16"> uops {
  vta_isa.uop dst_idx = 0, src_idx = 0, wgt_idx = 0
} instructions {
  // expected-error @+1 {{'vta_isa.alu' op ALU runs micro-op 0 of the uop buffer, which no earlier UOP load filled}}
  vta_isa.alu add uop_bgn = 0, uop_end = 1, iter_out = 1, iter_in = 1, dst_factor_out = 0, dst_factor_in = 0, src_factor_out = 0, src_factor_in = 0, imm = 0
  vta_isa.load uop sram_base = 0, dram_base = 0, y_size = 1, x_size = 1, x_stride = 1, y_pad_0 = 0, y_pad_1 = 0, x_pad_0 = 0, x_pad_1 = 0
  vta_isa.finish
}

// -----

// The rows a GEMM reaches: uop index + (iter - 1) * factor, for each loop.
vta_isa.program #vta.config<"1x16x16"> uops {
  vta_isa.uop dst_idx = 0, src_idx = 0, wgt_idx = 0
  vta_isa.uop dst_idx = 0, src_idx = 2047, wgt_idx = 0
  vta_isa.uop dst_idx = 0, src_idx = 0, wgt_idx = 1000
} instructions {
  vta_isa.load uop sram_base = 0, dram_base = 0, y_size = 1, x_size = 3, x_stride = 3, y_pad_0 = 0, y_pad_1 = 0, x_pad_0 = 0, x_pad_1 = 0
  // expected-error @+1 {{'vta_isa.gemm' op GEMM reaches acc row 2048 (dst_idx of micro-op 0 at i_out = 1, i_in = 2), past the end of the acc buffer (2048 rows)}}
  vta_isa.gemm uop_bgn = 0, uop_end = 1, iter_out = 2, iter_in = 3, dst_factor_out = 1000, dst_factor_in = 524, src_factor_out = 0, src_factor_in = 0, wgt_factor_out = 0, wgt_factor_in = 0
  // expected-error @+1 {{'vta_isa.gemm' op GEMM reaches inp row 2048 (src_idx of micro-op 1 at i_out = 1, i_in = 0), past the end of the inp buffer (2048 rows)}}
  vta_isa.gemm uop_bgn = 1, uop_end = 2, iter_out = 2, iter_in = 1, dst_factor_out = 0, dst_factor_in = 0, src_factor_out = 1, src_factor_in = 0, wgt_factor_out = 0, wgt_factor_in = 0
  // expected-error @+1 {{'vta_isa.gemm' op GEMM reaches wgt row 1024 (wgt_idx of micro-op 2 at i_out = 1, i_in = 0), past the end of the wgt buffer (1024 rows)}}
  vta_isa.gemm uop_bgn = 2, uop_end = 3, iter_out = 2, iter_in = 1, dst_factor_out = 0, dst_factor_in = 0, src_factor_out = 0, src_factor_in = 0, wgt_factor_out = 24, wgt_factor_in = 0
  vta_isa.finish
}

// -----

// A reset GEMM writes accumulators only; an ALU reads its second operand from the accumulators unless it uses the immediate.
vta_isa.program #vta.config<"8x8x8"> uops {
  vta_isa.uop dst_idx = 0, src_idx = 500, wgt_idx = 4000
} instructions {
  vta_isa.load uop sram_base = 0, dram_base = 0, y_size = 1, x_size = 1, x_stride = 1, y_pad_0 = 0, y_pad_1 = 0, x_pad_0 = 0, x_pad_1 = 0
  vta_isa.gemm reset_reg uop_bgn = 0, uop_end = 1, iter_out = 1, iter_in = 1, dst_factor_out = 0, dst_factor_in = 0, src_factor_out = 0, src_factor_in = 0, wgt_factor_out = 0, wgt_factor_in = 0
  vta_isa.alu add uop_bgn = 0, uop_end = 1, iter_out = 1, iter_in = 1, dst_factor_out = 0, dst_factor_in = 0, src_factor_out = 0, src_factor_in = 0, imm = 1 use_imm
  // expected-error @+1 {{'vta_isa.alu' op ALU reaches acc row 520 (src_idx of micro-op 0 at i_out = 1, i_in = 0), past the end of the acc buffer (512 rows)}}
  vta_isa.alu add uop_bgn = 0, uop_end = 1, iter_out = 2, iter_in = 1, dst_factor_out = 0, dst_factor_in = 0, src_factor_out = 20, src_factor_in = 0, imm = 0
  vta_isa.finish
}

// -----

func.func @outside() {
  // expected-error @+1 {{'vta_isa.finish' op expects parent op 'vta_isa.program'}}
  vta_isa.finish
  return
}
