// RUN: raf-opt %s -split-input-file -verify-diagnostics

// One case per diagnostic of the tile-level vta operations. Field widths,
// transfer bounds and padding are the rules of raf::vta::checkInstruction
// (the vta_isa verifiers' messages, which name the ISA fields: rows, cols
// and stride are y_size, x_size and x_stride; loops are iter_out and
// iter_in; dst, src and wgt are the factors).

// expected-error @+1 {{'vta.program' op tile_sizes must be positive, got 0}}
vta.program #vta.config<"1x16x16"> attributes {tile_sizes = array<i64: 4, 0>} {
}

// -----

// expected-error @+1 {{'vta.program' op virtual_threads must be 1 or 2, got 3}}
vta.program #vta.config<"1x16x16"> attributes {virtual_threads = 3} {
}

// -----

vta.program #vta.config<"1x16x16"> {
  // expected-error @+1 {{'arith.constant' op is not a vta tile operation; a vta.program holds vta.load_tile, vta.store_tile, vta.gemm and vta.alu only}}
  %c0 = arith.constant 0 : i32
}

// -----

// expected-error @+1 {{'vta.store_tile' op expects parent op 'vta.program'}}
vta.store_tile sram = 0, dram = 0, rows = 1, cols = 1, stride = 1

// -----

vta.program #vta.config<"1x16x16"> {
  // expected-error @+1 {{'vta.load_tile' op pad has 2 entries, expected 4: [y0, y1, x0, x1]}}
  vta.load_tile inp sram = 0, dram = 0, rows = 1, cols = 1, stride = 1, pad = [1, 1]
}

// -----

vta.program #vta.config<"1x16x16"> {
  // expected-error @+1 {{'vta.load_tile' op rows = 0 must be at least 1}}
  vta.load_tile inp sram = 0, dram = 0, rows = 0, cols = 1, stride = 1
}

// -----

vta.program #vta.config<"1x16x16"> {
  // expected-error @+1 {{'vta.store_tile' op cols = 0 must be at least 1}}
  vta.store_tile sram = 0, dram = 0, rows = 1, cols = 0, stride = 1
}

// -----

vta.program #vta.config<"1x16x16"> {
  // expected-error @+2 {{'vta.load_tile' op sram_base = -1 does not fit in 16 bits}}
  // expected-error @+1 {{'vta.load_tile' op dram_base = 4294967296 does not fit in 32 bits}}
  vta.load_tile wgt sram = -1, dram = 4294967296, rows = 1, cols = 1, stride = 1
}

// -----

vta.program #vta.config<"1x16x16"> {
  // expected-error @+1 {{'vta.load_tile' op LOAD of wgt cannot pad (only INP loads pad): y_pad = (0, 0), x_pad = (1, 0)}}
  vta.load_tile wgt sram = 0, dram = 0, rows = 1, cols = 1, stride = 1, pad = [0, 0, 1, 0]
}

// -----

vta.program #vta.config<"1x16x16"> {
  // expected-error @+1 {{'vta.load_tile' op sram_base = 3000 is outside the inp buffer (2048 rows)}}
  vta.load_tile inp sram = 3000, dram = 0, rows = 1, cols = 1, stride = 1
}

// -----

// Buffer overflow: the padding counts.
vta.program #vta.config<"1x16x16"> {
  // expected-error @+1 {{'vta.load_tile' op LOAD writes rows [2040, 2056) of the inp buffer, which has 2048 rows}}
  vta.load_tile inp sram = 2040, dram = 0, rows = 2, cols = 4, stride = 4, pad = [1, 1, 0, 0]
}

// -----

vta.program #vta.config<"8x8x8"> {
  // expected-error @+1 {{'vta.store_tile' op STORE reads rows [500, 516) of the out buffer, which has 512 rows}}
  vta.store_tile sram = 500, dram = 0, rows = 4, cols = 4, stride = 4
}

// -----

vta.program #vta.config<"1x16x16"> {
  // expected-error @+1 {{'vta.gemm' op loops has 3 entries, expected 2: [outer, inner]}}
  vta.gemm loops = [1, 1, 1], dst = [0, 0], src = [0, 0], wgt = [0, 0] uops = [[0, 0, 0]]
}

// -----

vta.program #vta.config<"1x16x16"> {
  // expected-error @+1 {{'vta.alu' op src has 1 entries, expected 2: [outer, inner]}}
  vta.alu add loops = [1, 1], dst = [0, 0], src = [0] uops = [[0, 1, 0]]
}

// -----

vta.program #vta.config<"1x16x16"> {
  // expected-error @+1 {{'vta.gemm' op has no micro-ops}}
  vta.gemm loops = [1, 1], dst = [0, 0], src = [0, 0], wgt = [0, 0] uops = []
}

// -----

vta.program #vta.config<"1x16x16"> {
  // expected-error @+1 {{'vta.gemm' op micro-op list has 4 values, not a multiple of 3}}
  "vta.gemm"() <{dst = array<i64: 0, 0>, loops = array<i64: 1, 1>, src = array<i64: 0, 0>, uops = array<i64: 0, 0, 0, 1>, wgt = array<i64: 0, 0>}> : () -> ()
}

// -----

// An 8-row micro-op buffer cannot hold a 9-step loop body.
vta.program #vta.config<"1x16x16", log_uop_buff_size = 5> {
  // expected-error @+1 {{'vta.gemm' op has 9 micro-ops, more than the uop buffer's 8 rows}}
  vta.gemm loops = [1, 1], dst = [0, 0], src = [0, 0], wgt = [0, 0] uops = [[0, 0, 0], [0, 1, 1], [0, 2, 2], [0, 3, 3], [0, 4, 4], [0, 5, 5], [0, 6, 6], [0, 7, 7], [0, 8, 8]]
}

// -----

vta.program #vta.config<"1x16x16"> {
  // expected-error @+1 {{'vta.gemm' op iter_out must be at least 1}}
  vta.gemm loops = [0, 1], dst = [0, 0], src = [0, 0], wgt = [0, 0] uops = [[0, 0, 0]]
}

// -----

// Factors are unsigned fields.
vta.program #vta.config<"1x16x16"> {
  // expected-error @+1 {{'vta.gemm' op dst_factor_in = -1 does not fit in 11 bits}}
  vta.gemm loops = [1, 1], dst = [0, -1], src = [0, 0], wgt = [0, 0] uops = [[0, 0, 0]]
}

// -----

vta.program #vta.config<"1x16x16"> {
  // expected-error @+1 {{'vta.alu' op iter_in = 16384 does not fit in 14 bits}}
  vta.alu max imm = 0, loops = [1, 16384], dst = [0, 0], src = [0, 0] uops = [[0, 0, 0]]
}

// -----

vta.program #vta.config<"1x16x16"> {
  // expected-error @+1 {{'vta.alu' op imm = 40000 does not fit in a signed 16-bit immediate}}
  vta.alu add imm = 40000, loops = [1, 1], dst = [0, 0], src = [0, 0] uops = [[0, 0, 0]]
}

// -----

vta.program #vta.config<"1x16x16"> {
  // expected-error @+1 {{'vta.alu' op SHR by imm = 40 is outside [-16, 15]: the shift amount is the operand's low 5 bits, read as signed}}
  vta.alu shr imm = 40, loops = [1, 1], dst = [0, 0], src = [0, 0] uops = [[0, 0, 0]]
}

// -----

vta.program #vta.config<"1x16x16"> {
  // expected-error @+2 {{'vta.gemm' op micro-op 1: dst_idx = 2048 does not fit in 11 bits}}
  // expected-error @+1 {{'vta.gemm' op micro-op 1: wgt_idx = -2 does not fit in 10 bits}}
  vta.gemm loops = [1, 1], dst = [0, 0], src = [0, 0], wgt = [0, 0] uops = [[0, 0, 0], [2048, 0, -2]]
}

// -----

// Buffer overflow of a loop nest: the last iteration of both loops reaches
// acc row 2000 + 15 * 4 + 1 * 1.
vta.program #vta.config<"1x16x16"> {
  // expected-error @+1 {{'vta.gemm' op reaches rows [2000, 2062) of the acc buffer, which has 2048 rows}}
  vta.gemm reset loops = [16, 2], dst = [4, 1], src = [0, 0], wgt = [0, 0] uops = [[2000, 0, 0]]
}

// -----

vta.program #vta.config<"1x16x16"> {
  // expected-error @+1 {{'vta.gemm' op reaches rows [1000, 1025) of the wgt buffer, which has 1024 rows}}
  vta.gemm loops = [1, 25], dst = [0, 1], src = [0, 1], wgt = [0, 1] uops = [[0, 0, 1000]]
}

// -----

// ALU sources index the accumulators.
vta.program #vta.config<"8x8x8"> {
  // expected-error @+1 {{'vta.alu' op reaches rows [510, 514) of the acc buffer, which has 512 rows}}
  vta.alu add loops = [4, 1], dst = [1, 0], src = [1, 0] uops = [[0, 510, 0]]
}
