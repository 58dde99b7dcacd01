// A strategy for a user intrinsic (the 4x4x4 GEMM of
// Embedding/Inputs/gemm-4x4x4.mlir): --tcg-apply-strategy reads the
// intrinsic from the file the embedding was found with (intrinsics=path),
// and the packed kernel computes the dense layer (numpy's product).
//
// RUN: rm -rf %t && split-file %s %t
// RUN: raf-opt %t/dense.mlir --convert-relay-to-tcg --tcg-dataflow-embed="intrinsics=%S/../Embedding/Inputs/gemm-4x4x4.mlir intrinsic=user.gemm.4x4x4 mode=strict" --tcg-apply-strategy="intrinsics=%S/../Embedding/Inputs/gemm-4x4x4.mlir" -o %t/packed.mlir
// RUN: FileCheck %s < %t/packed.mlir
// RUN: %python %t/ref.py %t
// RUN: raf-run %t/packed.mlir --entry=dense --target=cpu --input=%t/x.npy --input=%t/w.npy --output=%t/out.npy
// RUN: %python -c "import numpy as np; np.testing.assert_array_equal(np.load('%t/out.npy'), np.load('%t/ref.npy'))"
//
// Without the file the intrinsic is unknown: an error at the kernel.
// RUN: raf-opt %t/dense.mlir --convert-relay-to-tcg --tcg-dataflow-embed="intrinsics=%S/../Embedding/Inputs/gemm-4x4x4.mlir intrinsic=user.gemm.4x4x4 mode=strict" -o %t/embedded.mlir
// RUN: not raf-opt %t/embedded.mlir --tcg-apply-strategy -o /dev/null 2>&1 | FileCheck %s --check-prefix=NOFILE

// CHECK-LABEL: func.func @dense
// CHECK:         tcg.kernel "nn.dense"
// CHECK-SAME:      tcg.tensorize = #tcg.tensorize<"user.gemm.4x4x4">
// CHECK-DAG:       name "x" gemm_axis x
// CHECK-DAG:       name "y" gemm_axis y
// CHECK-DAG:       name "z" gemm_axis z
// CHECK-NOT:     relay.nn.dense

// NOFILE: error: unknown intrinsic 'user.gemm.4x4x4'

//--- dense.mlir
func.func @dense(%x: tensor<3x10xi8>, %w: tensor<6x10xi8>) -> tensor<3x6xi32> {
  %0 = relay.nn.dense %x, %w {out_dtype = i32} : (tensor<3x10xi8>, tensor<6x10xi8>) -> tensor<3x6xi32>
  return %0 : tensor<3x6xi32>
}

//--- ref.py
import sys
import numpy as np

d = sys.argv[1]
rng = np.random.default_rng(7)
x = rng.integers(-128, 128, (3, 10), dtype=np.int8)
w = rng.integers(-128, 128, (6, 10), dtype=np.int8)
np.save(f"{d}/x.npy", x)
np.save(f"{d}/w.npy", w)
np.save(f"{d}/ref.npy", (x.astype(np.int32) @ w.astype(np.int32).T))
