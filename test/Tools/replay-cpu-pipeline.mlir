// raf-opt registers every upstream dialect, extension and pass, so that a
// pipeline printed by --dump-pass-pipeline replays with --pass-pipeline and
// every IR dump of the pipeline re-parses (docs/ecosystem.md). replay.py
// runs the pipeline, replays its printed form, compares the outputs and
// re-parses the module after every pass.
// RUN: %python %S/Inputs/replay.py raf-opt %s --raf-cpu-pipeline | FileCheck %s
// RUN: %python %S/Inputs/replay.py raf-opt %s --raf-cpu-pipeline=threads=4 | FileCheck %s --check-prefix=OMP
// RUN: %python %S/Inputs/replay.py raf-opt %s "--raf-cpu-pipeline=fuse=0 vectorize=0" | FileCheck %s --check-prefix=PLAIN

// The strided pool becomes loops with affine.apply index maps, and the
// pipeline passes through every dialect from relay to llvm.
// CHECK: replayed {{[0-9]+}} passes: same output
// CHECK-NEXT: {{[0-9]+}} dumps re-parsed
// CHECK-NEXT: dialects: affine arith bufferization {{.*}}cf func linalg llvm memref relay scf tensor vector

// With threads, loops become OpenMP teams (omp.parallel, omp.wsloop).
// OMP: replayed {{[0-9]+}} passes: same output
// OMP-NEXT: {{[0-9]+}} dumps re-parsed
// OMP-NEXT: dialects: affine {{.*}}llvm memref omp relay scf

// PLAIN: replayed {{[0-9]+}} passes: same output
// PLAIN-NEXT: {{[0-9]+}} dumps re-parsed
// PLAIN-NEXT: dialects: affine {{.*}}llvm

func.func @net(%x: tensor<2x4x8x8xf32>, %w: tensor<8x64xf32>,
               %b: tensor<8xf32>) -> tensor<2x8xf32> {
  %0 = relay.nn.max_pool2d %x {pool_size = array<i64: 2, 2>, strides = array<i64: 2, 2>} : (tensor<2x4x8x8xf32>)
  %1 = relay.reshape %0 {newshape = array<i64: 2, 64>} : (tensor<2x4x4x4xf32>)
  %2 = relay.nn.dense %1, %w : (tensor<2x64xf32>, tensor<8x64xf32>)
  %3 = relay.nn.bias_add %2, %b : (tensor<2x8xf32>, tensor<8xf32>)
  %4 = relay.nn.relu %3 : (tensor<2x8xf32>)
  return %4 : tensor<2x8xf32>
}
