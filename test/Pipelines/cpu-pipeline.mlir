// RUN: raf-opt --raf-fuse --convert-relay-to-linalg --linalg-fuse-elementwise-ops %s | FileCheck %s --check-prefix=KERNEL
// RUN: raf-opt --raf-cpu-pipeline %s | FileCheck %s --check-prefix=LLVM
// RUN: raf-opt --raf-cpu-pipeline="fuse=0 share-kernels=0 vectorize=0" %s | FileCheck %s --check-prefix=PLAIN

// The dense absorbs the elementwise chain after it (bias add, relu,
// multiply: fusion rule 3) into one private function; after the lowering
// the chain is a single loop nest behind the matrix product.
// KERNEL-LABEL: func.func @mlp
// KERNEL-NEXT: call @mlp_fused_0
// KERNEL-LABEL: func.func private @mlp_fused_0
// KERNEL-SAME: relay.primitive
// KERNEL: linalg.matmul
// KERNEL: linalg.generic
// KERNEL-NOT: linalg.generic
// KERNEL: return

// The whole pipeline ends in the LLVM dialect: the entry with its C
// interface, the fused kernel as its own function, results as
// out-parameters, the dense (x W^T) vectorised along its reduction: FMAs on
// 16-lane rows of x and W, lanes summed once per output.
// LLVM-NOT: relay.
// LLVM-NOT: linalg.
// LLVM-DAG: llvm.func @_mlir_ciface_mlp(%{{.*}}: !llvm.ptr, %{{.*}}: !llvm.ptr, %{{.*}}: !llvm.ptr, %{{.*}}: !llvm.ptr, %{{.*}}: !llvm.ptr)
// LLVM-DAG: llvm.func @mlp_fused_0(
// LLVM-DAG: llvm.intr.fmuladd{{.*}}vector<16xf32>
// LLVM-DAG: llvm.intr.vector.reduce.fadd

// Without fusion, kernel sharing and vectorisation: no outlined function,
// scalar code.
// PLAIN-NOT: mlp_fused_0
// PLAIN-NOT: vector<
// PLAIN: llvm.func @_mlir_ciface_mlp

func.func @mlp(%x: tensor<16x64xf32>, %w: tensor<32x64xf32>,
               %b: tensor<32xf32>, %s: tensor<16x32xf32>) -> tensor<16x32xf32> {
  %0 = relay.nn.dense %x, %w : (tensor<16x64xf32>, tensor<32x64xf32>)
  %1 = relay.nn.bias_add %0, %b : (tensor<16x32xf32>, tensor<32xf32>)
  %2 = relay.nn.relu %1 : (tensor<16x32xf32>)
  %3 = relay.multiply %2, %s : (tensor<16x32xf32>, tensor<16x32xf32>)
  return %3 : tensor<16x32xf32>
}
