// Invalid schedules get a located error naming the limit they break, with
// the kernel's tile iterators; a kernel without any valid schedule names
// what even the smallest tiles break.
// RUN: rm -rf %t && split-file %s %t
// RUN: raf-opt %t/input.mlir --convert-tcg-to-vta="tile-sizes=3000" --verify-diagnostics -o /dev/null
// RUN: not raf-opt %t/input.mlir --convert-tcg-to-vta="tile-sizes=1500 virtual-threads=2" -o /dev/null 2>&1 | FileCheck %s --check-prefix=THREADS
// RUN: raf-opt %t/weight.mlir --convert-tcg-to-vta="tile-sizes=1100" --verify-diagnostics -o /dev/null
// RUN: raf-opt %t/uop.mlir --convert-tcg-to-vta="tile-sizes=64,64,64,64,64" --verify-diagnostics -o /dev/null
// RUN: not raf-opt %t/input.mlir --convert-tcg-to-vta="max-instructions=10" -o /dev/null 2>&1 | FileCheck %s --check-prefix=LIMIT
// RUN: not raf-opt %t/input.mlir --convert-tcg-to-vta="tile-sizes=3001" -o /dev/null 2>&1 | FileCheck %s --check-prefix=EXTENT
// RUN: not raf-opt %t/input.mlir --convert-tcg-to-vta="tile-sizes=1,1" -o /dev/null 2>&1 | FileCheck %s --check-prefix=COUNT
// RUN: raf-opt %t/attribute.mlir --vta-schedule --verify-diagnostics -o /dev/null
// RUN: raf-opt %t/attribute.mlir --convert-tcg-to-vta --verify-diagnostics -o /dev/null
// RUN: raf-opt %t/hoisted.mlir --convert-tcg-to-vta --verify-diagnostics -o /dev/null
// THREADS: error: cannot lower this kernel to VTA: invalid schedule: the input tile needs 1500 rows of the inp buffer, which holds 1024 per virtual thread
// LIMIT: error: cannot lower this kernel to VTA: no schedule fits VTA: even with tiles of 1, the program needs {{[0-9]+}} instructions, more than the limit of 10
// EXTENT: error: cannot lower this kernel to VTA: invalid schedule: tile size 3001 is not in [1, 3000], the extent of iterator 'k.o'
// COUNT: error: cannot lower this kernel to VTA: invalid schedule: the schedule gives 2 tile sizes; the kernel has 1 tile iterators

//--- input.mlir
func.func @input_overflow(%a: tensor<3000x1x16xi8>, %b: tensor<1x16x16xi8>) -> tensor<1x16xi32> {
  // expected-error @+2 {{cannot lower this kernel to VTA: invalid schedule: the input tile needs 3000 rows of the inp buffer, which holds 2048}}
  // expected-note @+1 {{tile iterators (parallel first): k.o = 3000}}
  %0 = tcg.kernel "nn.dense" (%x = %a : tensor<3000x1x16xi8>, %w = %b : tensor<1x16x16xi8>) -> tensor<1x16xi32> attributes {tcg.tensorize = #tcg.tensorize<"vta.gemm.1x16x16", target = "vta", gemm = [1, 16, 16]>} {
    %1 = tcg.tensor %i in [0, 1) name "x" gemm_axis x -> tensor<1x16xi32> {
      %2 = tcg.tensor %n in [0, 16) name "y" gemm_axis y -> tensor<16xi32> {
        %3 = tcg.reduce add %k.o in [0, 3000) name "k.o" -> i32 {
          %4 = tcg.reduce add %k in [0, 16) name "z" gemm_axis z -> i32 {
            %5 = tcg.input %x[%k.o, %i, %k] : tensor<3000x1x16xi8>
            %6 = tcg.input %w[0, %n, %k] : tensor<1x16x16xi8>
            %7 = tcg.compute mul %5, %6 : (i8, i8) -> i32
            tcg.yield %7 : i32
          }
          tcg.yield %4 : i32
        }
        tcg.yield %3 : i32
      }
      tcg.yield %2 : tensor<16xi32>
    }
    tcg.yield %1 : tensor<1x16xi32>
  }
  return %0 : tensor<1x16xi32>
}

//--- weight.mlir
func.func @weight_overflow(%a: tensor<1100x1x16xi8>, %b: tensor<1100x16x16xi8>) -> tensor<1x16xi32> {
  // expected-error @+2 {{cannot lower this kernel to VTA: invalid schedule: the weight tile needs 1100 rows of the wgt buffer, which holds 1024}}
  // expected-note @+1 {{tile iterators (parallel first): k.o = 1100}}
  %0 = tcg.kernel "nn.dense" (%x = %a : tensor<1100x1x16xi8>, %w = %b : tensor<1100x16x16xi8>) -> tensor<1x16xi32> attributes {tcg.tensorize = #tcg.tensorize<"vta.gemm.1x16x16", target = "vta", gemm = [1, 16, 16]>} {
    %1 = tcg.tensor %i in [0, 1) name "x" gemm_axis x -> tensor<1x16xi32> {
      %2 = tcg.tensor %n in [0, 16) name "y" gemm_axis y -> tensor<16xi32> {
        %3 = tcg.reduce add %k.o in [0, 1100) name "k.o" -> i32 {
          %4 = tcg.reduce add %k in [0, 16) name "z" gemm_axis z -> i32 {
            %5 = tcg.input %x[%k.o, %i, %k] : tensor<1100x1x16xi8>
            %6 = tcg.input %w[%k.o, %n, %k] : tensor<1100x16x16xi8>
            %7 = tcg.compute mul %5, %6 : (i8, i8) -> i32
            tcg.yield %7 : i32
          }
          tcg.yield %4 : i32
        }
        tcg.yield %3 : i32
      }
      tcg.yield %2 : tensor<16xi32>
    }
    tcg.yield %1 : tensor<1x16xi32>
  }
  return %0 : tensor<1x16xi32>
}

//--- uop.mlir
// Five reductions of 64: the GEMM's two loops cover two of them, so the
// micro-ops enumerate the others.
func.func @uop_overflow(%a: tensor<253x1x16xi8>, %b: tensor<64x16x16xi8>) -> tensor<1x16xi32> {
  // expected-error @+2 {{cannot lower this kernel to VTA: invalid schedule: the GEMMs need 262146 micro-ops, the micro-op buffer holds 8192}}
  // expected-note @+1 {{tile iterators (parallel first): r1 = 64, r2 = 64, r3 = 64, r4 = 64, r5 = 64}}
  %0 = tcg.kernel "nn.dense" (%x = %a : tensor<253x1x16xi8>, %w = %b : tensor<64x16x16xi8>) -> tensor<1x16xi32> attributes {tcg.tensorize = #tcg.tensorize<"vta.gemm.1x16x16", target = "vta", gemm = [1, 16, 16]>} {
    %1 = tcg.tensor %i in [0, 1) name "x" gemm_axis x -> tensor<1x16xi32> {
      %2 = tcg.tensor %n in [0, 16) name "y" gemm_axis y -> tensor<16xi32> {
        %3 = tcg.reduce add %r1 in [0, 64) name "r1" -> i32 {
          %4 = tcg.reduce add %r2 in [0, 64) name "r2" -> i32 {
            %5 = tcg.reduce add %r3 in [0, 64) name "r3" -> i32 {
              %6 = tcg.reduce add %r4 in [0, 64) name "r4" -> i32 {
                %7 = tcg.reduce add %r5 in [0, 64) name "r5" -> i32 {
                  %8 = tcg.reduce add %k in [0, 16) name "z" gemm_axis z -> i32 {
                    %9 = tcg.input %x[%r1 + %r2 + %r3 + %r4, %i, %k] : tensor<253x1x16xi8>
                    %10 = tcg.input %w[%r5, %n, %k] : tensor<64x16x16xi8>
                    %11 = tcg.compute mul %9, %10 : (i8, i8) -> i32
                    tcg.yield %11 : i32
                  }
                  tcg.yield %8 : i32
                }
                tcg.yield %7 : i32
              }
              tcg.yield %6 : i32
            }
            tcg.yield %5 : i32
          }
          tcg.yield %4 : i32
        }
        tcg.yield %3 : i32
      }
      tcg.yield %2 : tensor<16xi32>
    }
    tcg.yield %1 : tensor<1x16xi32>
  }
  return %0 : tensor<1x16xi32>
}

//--- attribute.mlir
// The same schedule given as the kernel's #vta.schedule.
func.func @attribute_overflow(%a: tensor<3000x1x16xi8>, %b: tensor<1x16x16xi8>) -> tensor<1x16xi32> {
  // expected-error @+2 {{cannot lower this kernel to VTA: invalid schedule: the input tile needs 3000 rows of the inp buffer, which holds 2048}}
  // expected-note @+1 {{tile iterators (parallel first): k.o = 3000}}
  %0 = tcg.kernel "nn.dense" (%x = %a : tensor<3000x1x16xi8>, %w = %b : tensor<1x16x16xi8>) -> tensor<1x16xi32> attributes {vta.schedule = #vta.schedule<tiles = [3000], virtual_threads = 1>, tcg.tensorize = #tcg.tensorize<"vta.gemm.1x16x16", target = "vta", gemm = [1, 16, 16]>} {
    %1 = tcg.tensor %i in [0, 1) name "x" gemm_axis x -> tensor<1x16xi32> {
      %2 = tcg.tensor %n in [0, 16) name "y" gemm_axis y -> tensor<16xi32> {
        %3 = tcg.reduce add %k.o in [0, 3000) name "k.o" -> i32 {
          %4 = tcg.reduce add %k in [0, 16) name "z" gemm_axis z -> i32 {
            %5 = tcg.input %x[%k.o, %i, %k] : tensor<3000x1x16xi8>
            %6 = tcg.input %w[0, %n, %k] : tensor<1x16x16xi8>
            %7 = tcg.compute mul %5, %6 : (i8, i8) -> i32
            tcg.yield %7 : i32
          }
          tcg.yield %4 : i32
        }
        tcg.yield %3 : i32
      }
      tcg.yield %2 : tensor<16xi32>
    }
    tcg.yield %1 : tensor<1x16xi32>
  }
  return %0 : tensor<1x16xi32>
}

//--- hoisted.mlir
// Tiles of one weight row fit; hoisted out of the output-tile loop, the
// weight of every reduction tile (1100 rows) must fit at once.
func.func @hoisted_overflow(%a: tensor<1100x1x16xi8>, %b: tensor<1100x16x16xi8>) -> tensor<1x16xi32> {
  // expected-error @+2 {{cannot lower this kernel to VTA: invalid schedule: the hoisted weight (every reduction tile) needs 1100 rows of the wgt buffer, which holds 1024}}
  // expected-note @+1 {{tile iterators (parallel first): k.o = 1100}}
  %0 = tcg.kernel "nn.dense" (%x = %a : tensor<1100x1x16xi8>, %w = %b : tensor<1100x16x16xi8>) -> tensor<1x16xi32> attributes {vta.schedule = #vta.schedule<tiles = [1], virtual_threads = 1, dma = hoist_weight>, tcg.tensorize = #tcg.tensorize<"vta.gemm.1x16x16", target = "vta", gemm = [1, 16, 16]>} {
    %1 = tcg.tensor %i in [0, 1) name "x" gemm_axis x -> tensor<1x16xi32> {
      %2 = tcg.tensor %n in [0, 16) name "y" gemm_axis y -> tensor<16xi32> {
        %3 = tcg.reduce add %k.o in [0, 1100) name "k.o" -> i32 {
          %4 = tcg.reduce add %k in [0, 16) name "z" gemm_axis z -> i32 {
            %5 = tcg.input %x[%k.o, %i, %k] : tensor<1100x1x16xi8>
            %6 = tcg.input %w[%k.o, %n, %k] : tensor<1100x16x16xi8>
            %7 = tcg.compute mul %5, %6 : (i8, i8) -> i32
            tcg.yield %7 : i32
          }
          tcg.yield %4 : i32
        }
        tcg.yield %3 : i32
      }
      tcg.yield %2 : tensor<16xi32>
    }
    tcg.yield %1 : tensor<1x16xi32>
  }
  return %0 : tensor<1x16xi32>
}
