// RUN: raf-opt %s --convert-vta-to-vta-isa -split-input-file -verify-diagnostics

// What raf::vta::assemble() rejects in programs whose ops are valid one by
// one, located at the vta.program.

// An 8-row micro-op buffer holds each body but not both.
// expected-error @+1 {{cannot assemble the VTA program: the micro-op table has 10 entries (2 distinct loop bodies), more than the 8 rows of the uop buffer}}
vta.program #vta.config<"1x16x16", log_uop_buff_size = 5> {
  vta.gemm loops = [1, 1], dst = [0, 0], src = [0, 0], wgt = [0, 0] uops = [[0, 0, 0], [0, 1, 1], [0, 2, 2], [0, 3, 3], [0, 4, 4]]
  vta.gemm loops = [1, 1], dst = [0, 0], src = [0, 0], wgt = [0, 0] uops = [[1, 0, 0], [1, 1, 1], [1, 2, 2], [1, 3, 3], [1, 4, 4]]
}

// -----

// Reading back a stored tile: out element 4 and inp element 4 are both
// bytes [64, 80).
// expected-error @+1 {{cannot assemble the VTA program: tile instruction 1 (load inp) reads DRAM bytes [64, 80), which an earlier STORE writes ([64, 80), bounding intervals); DRAM hazards between the load and store modules are not synchronised by tokens}}
vta.program #vta.config<"1x16x16"> {
  vta.store_tile sram = 0, dram = 4, rows = 1, cols = 1, stride = 1
  vta.load_tile inp sram = 0, dram = 4, rows = 1, cols = 1, stride = 1
}

// -----

// Bounding intervals: a strided store covers the gaps between its rows.
// expected-error @+1 {{tile instruction 1 (load acc) reads DRAM bytes [64, 128), which an earlier STORE writes ([0, 80), bounding intervals)}}
vta.program #vta.config<"1x16x16"> {
  vta.store_tile sram = 0, dram = 0, rows = 2, cols = 1, stride = 4
  vta.load_tile acc sram = 0, dram = 1, rows = 1, cols = 1, stride = 1
}
