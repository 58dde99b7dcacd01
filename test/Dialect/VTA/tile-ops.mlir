// RUN: raf-opt %s | raf-opt | FileCheck %s
// RUN: raf-opt %s --mlir-print-op-generic | raf-opt | FileCheck %s

// Every tile op with every optional part, in both configurations; the custom
// and the generic form print back the same.

// CHECK-LABEL: vta.program #vta.config<"1x16x16"> attributes {tile_sizes = array<i64: 1, 2>, virtual_threads = 2 : i64} {
// CHECK-NEXT: vta.load_tile inp sram = 0, dram = 0, rows = 1, cols = 2, stride = 2, pad = [1, 0, 0, 1]
// CHECK-NEXT: vta.load_tile wgt sram = 0, dram = 1, rows = 1, cols = 2, stride = 2
// CHECK-NEXT: vta.load_tile acc sram = 4, dram = 8, rows = 2, cols = 1, stride = 3
// CHECK-NEXT: vta.load_tile acc_8bit sram = 6, dram = 0, rows = 1, cols = 1, stride = 1
// CHECK-NEXT: vta.gemm reset loops = [2, 1], dst = [1, 0], src = [0, 0], wgt = [0, 0] uops = {{\[\[}}0, 0, 0]]
// CHECK-NEXT: vta.gemm loops = [2, 3], dst = [1, 0], src = [0, 2], wgt = [6, 2] uops = {{\[\[}}0, 0, 0], [0, 1, 1]]
// CHECK-NEXT: vta.alu shr imm = 6, loops = [2, 1], dst = [1, 0], src = [1, 0] uops = {{\[\[}}0, 0, 0]]
// CHECK-NEXT: vta.alu min imm = -3, loops = [1, 1], dst = [0, 0], src = [0, 0] uops = {{\[\[}}0, 0, 0]]
// CHECK-NEXT: vta.alu max imm = 0, loops = [1, 1], dst = [0, 0], src = [0, 0] uops = {{\[\[}}0, 0, 0]]
// CHECK-NEXT: vta.alu add loops = [1, 1], dst = [0, 0], src = [0, 0] uops = {{\[\[}}0, 4, 0], [1, 5, 0]]
// CHECK-NEXT: vta.alu mul loops = [1, 1], dst = [0, 0], src = [0, 0] uops = {{\[\[}}0, 4, 0]]
// CHECK-NEXT: vta.store_tile sram = 0, dram = 48, rows = 2, cols = 1, stride = 1
// CHECK-NEXT: }
vta.program #vta.config<"1x16x16"> attributes {tile_sizes = array<i64: 1, 2>, virtual_threads = 2} {
  vta.load_tile inp sram = 0, dram = 0, rows = 1, cols = 2, stride = 2, pad = [1, 0, 0, 1]
  vta.load_tile wgt sram = 0, dram = 1, rows = 1, cols = 2, stride = 2
  vta.load_tile acc sram = 4, dram = 8, rows = 2, cols = 1, stride = 3
  vta.load_tile acc_8bit sram = 6, dram = 0, rows = 1, cols = 1, stride = 1
  vta.gemm reset loops = [2, 1], dst = [1, 0], src = [0, 0], wgt = [0, 0] uops = [[0, 0, 0]]
  vta.gemm loops = [2, 3], dst = [1, 0], src = [0, 2], wgt = [6, 2] uops = [[0, 0, 0], [0, 1, 1]]
  vta.alu shr imm = 6, loops = [2, 1], dst = [1, 0], src = [1, 0] uops = [[0, 0, 0]]
  vta.alu min imm = -3, loops = [1, 1], dst = [0, 0], src = [0, 0] uops = [[0, 0, 0]]
  vta.alu max imm = 0, loops = [1, 1], dst = [0, 0], src = [0, 0] uops = [[0, 0, 0]]
  vta.alu add loops = [1, 1], dst = [0, 0], src = [0, 0] uops = [[0, 4, 0], [1, 5, 0]]
  vta.alu mul loops = [1, 1], dst = [0, 0], src = [0, 0] uops = [[0, 4, 0]]
  vta.store_tile sram = 0, dram = 48, rows = 2, cols = 1, stride = 1
}

// The knobs are optional, and so is the body.
// CHECK-LABEL: vta.program #vta.config<"8x8x8"> {
// CHECK-NEXT: vta.store_tile sram = 511, dram = 0, rows = 1, cols = 1, stride = 1
// CHECK-NEXT: }
vta.program #vta.config<"8x8x8"> {
  vta.store_tile sram = 511, dram = 0, rows = 1, cols = 1, stride = 1
}

// CHECK-LABEL: vta.program #vta.config<"8x8x8"> {
// CHECK-NEXT: }
vta.program #vta.config<"8x8x8"> {
}
