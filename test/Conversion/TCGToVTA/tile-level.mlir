// The lowering through the tile-level vta dialect: the schedule as a
// vta.program (knobs as attributes, no tokens), which round-trips, and
// which --convert-vta-to-vta-isa turns into exactly the program the direct
// lowering emits.
// RUN: raf-opt %S/lower-dense.mlir --tcg-lower-to-vta="tile-sizes=3,1,1 virtual-threads=2 tile-level=true" | FileCheck %s
// RUN: raf-opt %S/lower-dense.mlir --tcg-lower-to-vta="tile-sizes=3,1,1 virtual-threads=2 tile-level=true" | raf-opt | raf-opt --convert-vta-to-vta-isa -o %t.via-vta.mlir
// RUN: raf-opt %S/lower-dense.mlir --tcg-lower-to-vta="tile-sizes=3,1,1 virtual-threads=2" -o %t.direct.mlir
// RUN: grep -v "^ *tcg\.\|^ *%\|vta.kernel" %t.via-vta.mlir > %t.a
// RUN: grep -v "^ *tcg\.\|^ *%\|vta.kernel" %t.direct.mlir > %t.b
// RUN: diff %t.a %t.b
// RUN: grep -c "vta_isa.gemm" %t.a | FileCheck %s --check-prefix=COUNT
// RUN: raf-opt %S/lower-dense.mlir --tcg-lower-to-vta="tile-sizes=3,1,1 virtual-threads=2" | FileCheck %s --check-prefix=DIRECT
// RUN: raf-opt %S/lower-dense.mlir --tcg-lower-to-vta="tile-sizes=3,1,1 virtual-threads=2 tile-level=true" | raf-opt --convert-vta-to-vta-isa | FileCheck %s --check-prefix=DIRECT

// CHECK: vta.program #vta.config<"1x16x16"> dram #vta.dram_layout<{{.*}}> attributes {tile_sizes = array<i64: 3, 1, 1>, {{.*}}virtual_threads = 2 : i64
// CHECK-NOT: dep
// CHECK: vta.gemm
// COUNT: 6

// The same instruction stream either way (2 output tiles x 2 reduction
// tiles, double buffered).
// DIRECT-COUNT-6: vta_isa.gemm
// DIRECT: vta_isa.finish
