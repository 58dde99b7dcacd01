// RUN: raf-opt %s --convert-vta-to-vta-isa | raf-translate --vta-isa-to-bin -o %t.bin
// RUN: %python %S/Inputs/two-tiles-dram.py %t.dram
// RUN: raf-vta-sim %t.bin --dram=%t.dram -o %t.out | FileCheck %s
// RUN: od -An -tu1 -v -j2304 %t.out | FileCheck %s --check-prefix=OUT

// End to end: tile ops -> vta_isa (tokens inferred) -> binary -> simulator.
// Two double-buffered tiles, each x_t (64 inputs, x_t[16 kb + ic] = ic +
// 10 t) times four stacked identities, shifted right by 1: C_t[oc] =
// 4 (oc + 10 t) >> 1 = 2 oc + 20 t. The run ends (no deadlock, no token
// left over: the simulator reports either as an error) and prints its
// cycles.

// CHECK: cycles: {{[1-9][0-9]*}}
// CHECK-NEXT: load: 4 instructions
// CHECK-NEXT: compute: 8 instructions
// CHECK-NEXT: store: 2 instructions
// CHECK: gemm micro-op steps: 10

// OUT: 0 2 4 6 8 10 12 14 16 18 20 22 24 26 28 30
// OUT-NEXT: 20 22 24 26 28 30 32 34 36 38 40 42 44 46 48 50

vta.program #vta.config<"1x16x16"> attributes {tile_sizes = array<i64: 1, 4>, virtual_threads = 2} {
  vta.load_tile inp sram = 0, dram = 0, rows = 1, cols = 4, stride = 4
  vta.load_tile wgt sram = 0, dram = 1, rows = 1, cols = 4, stride = 4
  vta.gemm reset loops = [1, 1], dst = [0, 0], src = [0, 0], wgt = [0, 0] uops = [[0, 0, 0]]
  vta.gemm loops = [1, 1], dst = [0, 0], src = [0, 0], wgt = [0, 0] uops = [[0, 0, 0], [0, 1, 1], [0, 2, 2], [0, 3, 3]]
  vta.alu shr imm = 1, loops = [1, 1], dst = [0, 0], src = [0, 0] uops = [[0, 0, 0]]
  vta.store_tile sram = 0, dram = 144, rows = 1, cols = 1, stride = 1
  vta.load_tile inp sram = 4, dram = 4, rows = 1, cols = 4, stride = 4
  vta.load_tile wgt sram = 4, dram = 5, rows = 1, cols = 4, stride = 4
  vta.gemm reset loops = [1, 1], dst = [0, 0], src = [0, 0], wgt = [0, 0] uops = [[1, 0, 0]]
  vta.gemm loops = [1, 1], dst = [0, 0], src = [0, 0], wgt = [0, 0] uops = [[1, 4, 4], [1, 5, 5], [1, 6, 6], [1, 7, 7]]
  vta.alu shr imm = 1, loops = [1, 1], dst = [0, 0], src = [0, 0] uops = [[1, 0, 0]]
  vta.store_tile sram = 1, dram = 145, rows = 1, cols = 1, stride = 1
}
