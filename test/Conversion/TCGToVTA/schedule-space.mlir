// The larger schedule space end to end: a #vta.schedule with a remainder
// tile (m = 3 in tiles of 2 and 1) and a loop order (n.o outside m) is the
// schedule that --convert-tcg-to-vta compiles and raf-run runs; it computes
// what the CPU computes, bit for bit, and raf-vta-sim reports the same
// cycles and instructions for the emitted binary. A loop order that puts a
// reduction outside a parallel loop is a located error.
// RUN: rm -rf %t && mkdir -p %t
// RUN: %python -c "import numpy as np; np.save('%t/x.npy', ((np.arange(60) * 37) % 256 - 128).astype(np.int8).reshape(3, 20)); np.save('%t/w.npy', ((np.arange(480) * 91 + 5) % 256 - 128).astype(np.int8).reshape(24, 20))"

// RUN: raf-opt %s --vta-schedule | raf-opt | FileCheck %s --check-prefix=KEEP
// KEEP: vta.schedule = #vta.schedule<tiles = [2, 1, 1], virtual_threads = 2, loop_order = [1, 0, 2]>

// The program follows the attribute: two m tiles (2 rows, then 1) per n.o
// tile; the weight tile of n.o stays in each buffer half while m moves.
// RUN: raf-opt %s --convert-tcg-to-vta="report=true" --convert-vta-to-vta-isa -o /dev/null 2>&1 | FileCheck %s --check-prefix=LOWER
// LOWER: remark: vta: cycles={{[0-9]+}} tiles=[m=2, n.o=1, k.o=1] virtual-threads=2

// RUN: raf-run %s --entry=dense --target=vta-sim --input=%t/x.npy --input=%t/w.npy --output=%t/vta.npy | sed -n 's/^vta-sim: kernels=1 cycles=\([0-9]*\) instructions=\([0-9]*\) .*/cycles: \1 instructions: \2/p' > %t/run.txt
// RUN: raf-opt %s --convert-tcg-to-vta --convert-vta-to-vta-isa | raf-translate --vta-isa-to-bin --vta-kernel=dense_kernel0 -o %t/dense.bin
// RUN: raf-vta-sim %t/dense.bin --timing-only | awk '/^cycles:/ { c = $2 } / instructions,/ { n += $2 } END { print "cycles: " c " instructions: " n }' > %t/sim.txt
// RUN: diff %t/run.txt %t/sim.txt
// RUN: FileCheck %s --check-prefix=SAME < %t/run.txt
// SAME: cycles: {{[1-9][0-9]*}} instructions: {{[1-9][0-9]*}}
// RUN: raf-run %s --entry=dense --target=cpu --input=%t/x.npy --input=%t/w.npy --output=%t/cpu.npy
// RUN: %python -c "import numpy as np; a = np.load('%t/vta.npy'); b = np.load('%t/cpu.npy'); assert a.dtype == b.dtype and (a == b).all(), (a, b)"
// And against numpy's own int32 product.
// RUN: %python -c "import numpy as np; x = np.load('%t/x.npy').astype(np.int32); w = np.load('%t/w.npy').astype(np.int32); assert (np.load('%t/vta.npy') == x @ w.T).all()"

// Every loop order of the kernel's tiles gives the same result.
// RUN: sed 's/loop_order = \[1, 0, 2\]/loop_order = [0, 1, 2]/' %s > %t/kernel-order.mlir
// RUN: raf-run %t/kernel-order.mlir --entry=dense --target=vta-sim --input=%t/x.npy --input=%t/w.npy --output=%t/vta2.npy
// RUN: %python -c "import numpy as np; assert (np.load('%t/vta2.npy') == np.load('%t/cpu.npy')).all()"

// RUN: sed 's/loop_order = \[1, 0, 2\]/loop_order = [0, 2, 1]/' %s > %t/bad-order.mlir
// RUN: not raf-opt %t/bad-order.mlir --vta-schedule -o /dev/null 2>&1 | FileCheck %s --check-prefix=ORDER
// ORDER: error: cannot lower this kernel to VTA: invalid schedule: the loop order puts reduction 'k.o' outside parallel iterator 'n.o' (an output tile must be complete before the next)

func.func @dense(%arg0: tensor<3x20xi8>, %arg1: tensor<24x20xi8>) -> tensor<3x24xi32> {
  %0 = relay.nn.pad %arg0 {pad_width = array<i64: 0, 0, 0, 12>} : (tensor<3x20xi8>) -> tensor<3x32xi8>
  %1 = relay.reshape %0 {newshape = array<i64: 3, 2, 1, 16>} : (tensor<3x32xi8>) -> tensor<3x2x1x16xi8>
  %2 = relay.nn.pad %arg1 {pad_width = array<i64: 0, 8, 0, 12>} : (tensor<24x20xi8>) -> tensor<32x32xi8>
  %3 = relay.reshape %2 {newshape = array<i64: 2, 16, 2, 16>} : (tensor<32x32xi8>) -> tensor<2x16x2x16xi8>
  %4 = relay.transpose %3 {axes = array<i64: 0, 2, 1, 3>} : (tensor<2x16x2x16xi8>) -> tensor<2x2x16x16xi8>
  %5 = tcg.kernel "nn.dense" (%x = %1 : tensor<3x2x1x16xi8>, %weight = %4 : tensor<2x2x16x16xi8>) -> tensor<3x2x1x16xi32> attributes {arg_names = ["x", "weight"], result_name = "out", vta.schedule = #vta.schedule<tiles = [2, 1, 1], virtual_threads = 2, loop_order = [1, 0, 2]>, tcg.tensorize = #tcg.tensorize<"vta.gemm.1x16x16", target = "vta", gemm = [1, 16, 16]>} {
    %8 = tcg.tensor %m in [0, 3) name "m" -> tensor<3x2x1x16xi32> {
      %9 = tcg.tensor %n.o in [0, 2) name "n.o" -> tensor<2x1x16xi32> {
        %10 = tcg.tensor %x_0 in [0, 1) name "x" gemm_axis x -> tensor<1x16xi32> {
          %11 = tcg.tensor %y in [0, 16) name "y" gemm_axis y -> tensor<16xi32> {
            %12 = tcg.reduce add %k.o in [0, 2) name "k.o" -> i32 {
              %13 = tcg.reduce add %z in [0, 16) name "z" gemm_axis z -> i32 {
                %14 = tcg.input %x[%m, %k.o, %x_0, %z] : tensor<3x2x1x16xi8>
                %15 = tcg.input %weight[%n.o, %k.o, %y, %z] : tensor<2x2x16x16xi8>
                %16 = tcg.compute mul %14, %15 : (i8, i8) -> i32
                tcg.yield %16 : i32
              }
              tcg.yield %13 : i32
            }
            tcg.yield %12 : i32
          }
          tcg.yield %11 : tensor<16xi32>
        }
        tcg.yield %10 : tensor<1x16xi32>
      }
      tcg.yield %9 : tensor<2x1x16xi32>
    }
    tcg.yield %8 : tensor<3x2x1x16xi32>
  }
  %6 = relay.reshape %5 {newshape = array<i64: 3, 32>} : (tensor<3x2x1x16xi32>) -> tensor<3x32xi32>
  %7 = relay.strided_slice %6 {begin = array<i64: 0, 0>, end = array<i64: 3, 24>, strides = array<i64: 1, 1>} : (tensor<3x32xi32>) -> tensor<3x24xi32>
  return %7 : tensor<3x24xi32>
}
