// raf-run --target=vta-sim: the packed kernel of a dense layer runs as a VTA
// program on the simulator, called through the VTA runtime from the layout
// rewrites around it, compiled for the host CPU (or, with
// --vta-host=evaluator, run on the reference evaluator). The result equals
// the CPU path's exactly (int8 operands over the whole range, so
// accumulators of both signs and all four bytes).
// RUN: rm -rf %t && mkdir -p %t
// RUN: %python -c "import numpy as np; np.save('%t/x.npy', ((np.arange(60) * 37) % 256 - 128).astype(np.int8).reshape(3, 20)); np.save('%t/w.npy', ((np.arange(480) * 91 + 5) % 256 - 128).astype(np.int8).reshape(24, 20))"
// RUN: raf-run %s --entry=dense --target=vta-sim --input=%t/x.npy --input=%t/w.npy --output=%t/vta.npy | FileCheck %s --check-prefixes=CHECK,COMPILED
// RUN: raf-run %s --entry=dense --target=cpu --input=%t/x.npy --input=%t/w.npy --output=%t/cpu.npy
// RUN: %python -c "import numpy as np; a = np.load('%t/vta.npy'); b = np.load('%t/cpu.npy'); assert a.dtype == b.dtype and (a == b).all() and b.min() < -256 and b.max() > 256, (a, b)"
// RUN: raf-run %s --entry=dense --target=vta-sim --input=%t/x.npy --input=%t/w.npy --vta-requant-shift=6 --output=%t/requant.npy
// RUN: %python -c "import numpy as np; a = np.load('%t/requant.npy'); b = np.load('%t/cpu.npy'); assert (a == np.clip(b >> 6, -128, 127)).all(), (a, b)"
// RUN: raf-run %s --entry=dense --target=vta-sim --vta-host=evaluator --input=%t/x.npy --input=%t/w.npy --output=%t/eval.npy | FileCheck %s
// RUN: %python -c "import numpy as np; a = np.load('%t/eval.npy'); b = np.load('%t/cpu.npy'); assert (a == b).all(), (a, b)"
// RUN: raf-run %s --entry=dense --target=vta-sim --vta-host=evaluator --input=%t/x.npy --input=%t/w.npy --vta-requant-shift=6 --output=%t/eval-requant.npy
// RUN: %python -c "import numpy as np; a = np.load('%t/eval-requant.npy'); b = np.load('%t/requant.npy'); assert (a == b).all(), (a, b)"
// A kernel that is not a packed VTA GEMM runs on the host CPU with the rest
// of the host code; the evaluator has no kernel for it.
// RUN: raf-run %s --entry=unpacked --target=vta-sim --seed=3 | FileCheck %s --check-prefix=HOST
// RUN: not raf-run %s --entry=unpacked --target=vta-sim --vta-host=evaluator 2>&1 | FileCheck %s --check-prefix=ERR

// CHECK: vta-sim: kernels=1 cycles=191 instructions=30 uops=5
// Compiled host code: the last run's time outside and inside the launches.
// COMPILED-SAME: host-ms={{[0-9]+\.[0-9]+}} launch-ms={{[0-9]+\.[0-9]+}}
// COMPILED-SAME: host-cpu-ms={{[0-9]+\.[0-9]+}}
// HOST: result #0
// HOST: vta-sim: kernels=0 cycles=0 instructions=0 uops=0 host-ms={{[0-9]+\.[0-9]+}} launch-ms=0.000 host-cpu-ms={{[0-9]+\.[0-9]+}}

func.func @dense(%arg0: tensor<3x20xi8>, %arg1: tensor<24x20xi8>) -> tensor<3x24xi32> {
  %0 = relay.nn.pad %arg0 {pad_width = array<i64: 0, 0, 0, 12>} : (tensor<3x20xi8>) -> tensor<3x32xi8>
  %1 = relay.reshape %0 {newshape = array<i64: 3, 2, 1, 16>} : (tensor<3x32xi8>) -> tensor<3x2x1x16xi8>
  %2 = relay.nn.pad %arg1 {pad_width = array<i64: 0, 8, 0, 12>} : (tensor<24x20xi8>) -> tensor<32x32xi8>
  %3 = relay.reshape %2 {newshape = array<i64: 2, 16, 2, 16>} : (tensor<32x32xi8>) -> tensor<2x16x2x16xi8>
  %4 = relay.transpose %3 {axes = array<i64: 0, 2, 1, 3>} : (tensor<2x16x2x16xi8>) -> tensor<2x2x16x16xi8>
  %5 = tcg.kernel "nn.dense" (%x = %1 : tensor<3x2x1x16xi8>, %weight = %4 : tensor<2x2x16x16xi8>) -> tensor<3x2x1x16xi32> attributes {arg_names = ["x", "weight"], result_name = "out", tcg.tensorize = #tcg.tensorize<"vta.gemm.1x16x16", target = "vta", gemm = [1, 16, 16]>} {
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

// A kernel without tcg.tensorize has no VTA program (and the reference
// evaluator no kernel for it; the CPU pipeline lowers it to linalg).
func.func @unpacked(%a: tensor<1x16xi8>, %b: tensor<16x16xi8>) -> tensor<1x16xi32> {
  // ERR: error: operation 'tcg.kernel' is not supported by the reference evaluator
  %0 = tcg.kernel "nn.dense" (%x = %a : tensor<1x16xi8>, %w = %b : tensor<16x16xi8>) -> tensor<1x16xi32> {
    %1 = tcg.tensor %m in [0, 1) name "m" gemm_axis x -> tensor<1x16xi32> {
      %2 = tcg.tensor %n in [0, 16) name "n" gemm_axis y -> tensor<16xi32> {
        %3 = tcg.reduce add %k in [0, 16) name "k" gemm_axis z -> i32 {
          %4 = tcg.input %x[%m, %k] : tensor<1x16xi8>
          %5 = tcg.input %w[%n, %k] : tensor<16x16xi8>
          %6 = tcg.compute mul %4, %5 : (i8, i8) -> i32
          tcg.yield %6 : i32
        }
        tcg.yield %3 : i32
      }
      tcg.yield %2 : tensor<16xi32>
    }
    tcg.yield %1 : tensor<1x16xi32>
  }
  return %0 : tensor<1x16xi32>
}
