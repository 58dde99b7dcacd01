// --convert-tcg-to-vta replaces the packed kernel by a launch of its program,
// a module-level symbol with its DRAM layout; --convert-vta-to-vta-isa
// assembles the program and keeps both. raf-run --target=vta-sim runs the
// compiled module as it is (and compiles a module with kernels the same way
// when it loads it): same result, same cycles.
// RUN: rm -rf %t && mkdir -p %t
// RUN: raf-opt %s --vta-schedule --convert-tcg-to-vta | FileCheck %s --check-prefix=TILE
// RUN: raf-opt %s --vta-schedule --convert-tcg-to-vta --convert-vta-to-vta-isa -o %t/compiled.mlir
// RUN: FileCheck %s --check-prefix=ISA < %t/compiled.mlir
// RUN: raf-opt %t/compiled.mlir | raf-opt | FileCheck %s --check-prefix=ISA
// RUN: %python -c "import numpy as np; np.save('%t/x.npy', ((np.arange(60) * 37) % 256 - 128).astype(np.int8).reshape(3, 20)); np.save('%t/w.npy', ((np.arange(480) * 91 + 5) % 256 - 128).astype(np.int8).reshape(24, 20))"
// RUN: raf-run %t/compiled.mlir --entry=dense --target=vta-sim --input=%t/x.npy --input=%t/w.npy --output=%t/compiled.npy | FileCheck %s --check-prefix=SIM
// RUN: raf-run %s --entry=dense --target=vta-sim --input=%t/x.npy --input=%t/w.npy --output=%t/packed.npy | FileCheck %s --check-prefix=SIM
// RUN: raf-run %s --entry=dense --target=cpu --input=%t/x.npy --input=%t/w.npy --output=%t/cpu.npy
// RUN: %python -c "import numpy as np; a = np.load('%t/compiled.npy'); b = np.load('%t/packed.npy'); c = np.load('%t/cpu.npy'); assert (a == c).all() and (b == c).all()"
// A requantisation shift cannot change launches compiled before.
// RUN: not raf-run %t/compiled.mlir --entry=dense --target=vta-sim --input=%t/x.npy --input=%t/w.npy --vta-requant-shift=6 2>&1 | FileCheck %s --check-prefix=REQUANT
// REQUANT: error: this launch was compiled before; a requantisation shift applies only to packed kernels compiled now (give requant-shift to --convert-tcg-to-vta)

// TILE: %[[R:.*]] = vta.launch @dense_kernel0(%{{.*}}, %{{.*}}) : (tensor<3x2x1x16xi8>, tensor<2x2x16x16xi8>) -> tensor<3x2x1x16xi32>
// TILE-NOT: tcg.kernel
// TILE: vta.program @dense_kernel0 #vta.config<"1x16x16"> dram #vta.dram_layout<input_operand = 0, input_offset = 0, weight_operand = 1, weight_offset = 256, result_offset = 1280, result_rows = 6, result_row_bytes = 16, result_planes = 4, size = 1664>
// ISA: vta.launch @dense_kernel0
// ISA: vta_isa.program @dense_kernel0 #vta.config<"1x16x16"> dram #vta.dram_layout<input_operand = 0,
// SIM: vta-sim: kernels=1 cycles=191 instructions=30 uops=5

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
