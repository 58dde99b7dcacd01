// --raf-vta-pipeline: a relay convolution becomes a vta.launch in its
// function (with the layout rewrites around it, in relay) of a module-level
// vta_isa.program with its DRAM layout. --convert-vta-launch-to-runtime and
// --raf-cpu-pipeline compile the host code, the launch calling the VTA
// runtime; raf-run --target=vta-sim runs exactly that, and raf-vta-sim on
// the program's binary reports the same cycles and instructions.
// RUN: rm -rf %t && mkdir -p %t
// RUN: raf-opt %s --raf-vta-pipeline="mode=strict" -o %t/compiled.mlir
// RUN: FileCheck %s --check-prefix=PIPE < %t/compiled.mlir
// RUN: raf-opt %t/compiled.mlir --convert-vta-launch-to-runtime | FileCheck %s --check-prefix=HOST
// RUN: raf-opt %t/compiled.mlir --convert-vta-launch-to-runtime --raf-cpu-pipeline | FileCheck %s --check-prefix=LLVM

// PIPE-LABEL: func.func @conv(
// PIPE-NOT: relay.nn.conv2d
// The convolution's padding is written by the loads' pad fields.
// PIPE-NOT: relay.nn.pad
// PIPE: %[[R:.*]] = vta.launch @conv_kernel0(%{{.*}}, %{{.*}}) : (tensor<{{.*}}xi8>, tensor<{{.*}}xi8>) -> tensor<{{.*}}xi32>
// PIPE: return
// PIPE: vta_isa.program @conv_kernel0 #vta.config<"1x16x16"> dram #vta.dram_layout<
// PIPE-NOT: tcg.kernel

// HOST-LABEL: func.func @conv(
// HOST-NOT: vta.launch
// HOST: %[[OUT:.*]] = memref.alloc() : memref<{{.*}}xi32>
// HOST: memref.get_global @conv_kernel0_binary
// HOST: memref.get_global @conv_kernel0_name
// HOST: bufferization.to_buffer %{{.*}} read_only
// HOST: call @rafVTALaunch(
// HOST: bufferization.to_tensor %[[OUT]] restrict writable
// HOST-DAG: memref.global "private" constant @conv_kernel0_binary : memref<{{[0-9]+}}xi8> = dense<
// HOST-DAG: memref.global "private" constant @conv_kernel0_name : memref<12xi8>
// HOST-DAG: func.func private @rafVTALaunch(memref<*xi8>, memref<*xi8>, memref<*xi8>, memref<*xi8>, memref<*xi32>, i64, i64, i64, i64, i64) attributes {llvm.emit_c_interface}
// HOST-NOT: vta_isa.program

// LLVM: llvm.call @_mlir_ciface_rafVTALaunch(

// The compiled module runs and equals the CPU path on the relay function.
// RUN: %python -c "import numpy as np; np.save('%t/x.npy', ((np.arange(1*16*6*6) * 37) % 256 - 128).astype(np.int8).reshape(1, 16, 6, 6)); np.save('%t/w.npy', ((np.arange(32*16*3*3) * 91 + 5) % 256 - 128).astype(np.int8).reshape(32, 16, 3, 3))"
// RUN: raf-run %t/compiled.mlir --entry=conv --target=vta-sim --input=%t/x.npy --input=%t/w.npy --output=%t/vta.npy > %t/run.log
// RUN: raf-run %s --entry=conv --target=cpu --input=%t/x.npy --input=%t/w.npy --output=%t/cpu.npy
// RUN: %python -c "import numpy as np; a = np.load('%t/vta.npy'); b = np.load('%t/cpu.npy'); assert a.dtype == b.dtype and (a == b).all() and b.min() < -256 and b.max() > 256, (a, b)"
// The evaluator runs the same host code and the same program.
// RUN: raf-run %t/compiled.mlir --entry=conv --target=vta-sim --vta-host=evaluator --input=%t/x.npy --input=%t/w.npy --output=%t/eval.npy > %t/eval.log
// RUN: %python -c "import numpy as np; assert (np.load('%t/eval.npy') == np.load('%t/cpu.npy')).all()"
// The same statistics (the compiled run also reports its host and launch times).
// RUN: sed "s/ host-ms=.*//" %t/run.log | diff - %t/eval.log

// Same cycles and instructions as raf-vta-sim on the emitted binary.
// RUN: raf-translate %t/compiled.mlir --vta-isa-to-bin --vta-kernel=conv_kernel0 -o %t/conv.bin
// RUN: sed -n 's/^vta-sim: kernels=1 cycles=\([0-9]*\) instructions=\([0-9]*\) .*/cycles: \1 instructions: \2/p' %t/run.log > %t/run.txt
// RUN: raf-vta-sim %t/conv.bin --timing-only | awk '/^cycles:/ { c = $2 } / instructions,/ { n += $2 } END { print "cycles: " c " instructions: " n }' > %t/sim.txt
// RUN: diff %t/run.txt %t/sim.txt
// RUN: FileCheck %s --check-prefix=SAME < %t/run.txt
// SAME: cycles: {{[1-9][0-9]*}} instructions: {{[1-9][0-9]*}}

func.func @conv(%x: tensor<1x16x6x6xi8>, %w: tensor<32x16x3x3xi8>) -> tensor<1x32x6x6xi32> {
  %0 = relay.nn.conv2d %x, %w {strides = array<i64: 1, 1>, padding = array<i64: 1, 1, 1, 1>, dilation = array<i64: 1, 1>, groups = 1, out_dtype = i32} : (tensor<1x16x6x6xi8>, tensor<32x16x3x3xi8>) -> tensor<1x32x6x6xi32>
  return %0 : tensor<1x32x6x6xi32>
}
