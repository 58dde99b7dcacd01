// The lowering through the tile-level vta dialect: --convert-tcg-to-vta
// emits the schedule as a vta.program (knobs as attributes, no tokens),
// which round-trips, and which --convert-vta-to-vta-isa turns into the same
// program whether or not it went through text in between; the
// --tcg-lower-to-vta alias (kernels kept) emits that program too.
// RUN: raf-opt %S/lower-dense.mlir --convert-tcg-to-vta="tile-sizes=3,1,1 virtual-threads=2" | FileCheck %s
// RUN: raf-opt %S/lower-dense.mlir --convert-tcg-to-vta="tile-sizes=3,1,1 virtual-threads=2" | raf-opt | raf-opt --convert-vta-to-vta-isa -o %t.via-vta.mlir
// RUN: raf-opt %S/lower-dense.mlir --convert-tcg-to-vta="tile-sizes=3,1,1 virtual-threads=2" --convert-vta-to-vta-isa -o %t.direct.mlir
// RUN: grep -v "^ *tcg\.\|^ *%" %t.via-vta.mlir > %t.a
// RUN: grep -v "^ *tcg\.\|^ *%" %t.direct.mlir > %t.b
// RUN: diff %t.a %t.b
// RUN: raf-opt %S/lower-dense.mlir --tcg-lower-to-vta="tile-sizes=3,1,1 virtual-threads=2" -o %t.alias.mlir
// RUN: sed -n '/vta_isa.program/,$p' %t.alias.mlir > %t.alias
// RUN: sed -n '/vta_isa.program/,$p' %t.direct.mlir > %t.direct
// RUN: diff %t.alias %t.direct
// RUN: FileCheck %s --check-prefix=ALIAS < %t.alias.mlir
// RUN: grep -c "vta_isa.gemm" %t.a | FileCheck %s --check-prefix=COUNT
// RUN: raf-opt %S/lower-dense.mlir --convert-tcg-to-vta="tile-sizes=3,1,1 virtual-threads=2" --convert-vta-to-vta-isa | FileCheck %s --check-prefix=DIRECT
// RUN: raf-opt %S/lower-dense.mlir --convert-tcg-to-vta="tile-sizes=3,1,1 virtual-threads=2" | raf-opt --convert-vta-to-vta-isa | FileCheck %s --check-prefix=DIRECT

// CHECK: vta.program @dense_kernel0 #vta.config<"1x16x16"> dram #vta.dram_layout<{{.*}}> attributes {tile_sizes = array<i64: 3, 1, 1>, {{.*}}virtual_threads = 2 : i64
// CHECK-NOT: dep
// CHECK: vta.gemm
// COUNT: 6
// ALIAS: tcg.kernel {{.*}}vta.program = @dense_kernel0

// The same instruction stream either way (2 output tiles x 2 reduction
// tiles, double buffered).
// DIRECT-COUNT-6: vta_isa.gemm
// DIRECT: vta_isa.finish
