// --tcg-topdown-embed with a user's intrinsic library (intrinsics-file=path,
// the 4x4x4 GEMM of Embedding/Inputs/gemm-4x4x4.mlir): the user's
// intrinsics are matched like the built-in ones, --tcg-apply-strategy packs
// the kernel with the same file, and the packed kernel matches NumPy.
// RUN: raf-opt %s --tcg-topdown-embed="intrinsics-file=%S/../Embedding/Inputs/gemm-4x4x4.mlir intrinsics=user.gemm.4x4x4 ignore-element-types=true" --tcg-print-embeddings="intrinsics=%S/../Embedding/Inputs/gemm-4x4x4.mlir" -o /dev/null | FileCheck %s --check-prefix=REPORT
// RUN: %python %S/Inputs/oracle.py input %t.a.npy 4x6
// RUN: %python %S/Inputs/oracle.py input %t.b.npy 5x6
// RUN: raf-opt %s --tcg-topdown-embed="intrinsics-file=%S/../Embedding/Inputs/gemm-4x4x4.mlir intrinsics=user.gemm.4x4x4 ignore-element-types=true" --tcg-apply-strategy="intrinsics=%S/../Embedding/Inputs/gemm-4x4x4.mlir" -o %t.user.mlir
// RUN: FileCheck %s --check-prefix=PACKED --input-file=%t.user.mlir
// RUN: raf-run %t.user.mlir --entry=gemm --input=%t.a.npy --input=%t.b.npy --output=%t.user.npy
// RUN: %python %S/Inputs/oracle.py check abt %t.a.npy %t.b.npy %t.user.npy | FileCheck %s --check-prefix=OK
//
// Without a list, the user's intrinsics come first and the built-in ones
// follow: the user's GEMM and the built-in ones are all candidates.
// RUN: raf-opt %s --tcg-topdown-embed="intrinsics-file=%S/../Embedding/Inputs/gemm-4x4x4.mlir ignore-element-types=true" -o /dev/null
// A bad file is a located error.
// RUN: not raf-opt %s --tcg-topdown-embed="intrinsics-file=%S/../Embedding/Inputs/intrinsics-empty.mlir" -o /dev/null 2>&1 | FileCheck %s --check-prefix=EMPTY

// REPORT: embedding of user.gemm.4x4x4 (topdown) into gemm
// REPORT: padding: n 5 -> 8, k 6 -> 8
// PACKED: tcg.tensorize = #tcg.tensorize<"user.gemm.4x4x4">
// OK: ok
// EMPTY: error: the intrinsic file '{{.*}}intrinsics-empty.mlir' holds no tcg.kernel

func.func @gemm(%ain: tensor<4x6xf32>, %bin: tensor<5x6xf32>) -> tensor<4x5xf32> {
  %r = tcg.kernel "gemm" (%a = %ain : tensor<4x6xf32>, %b = %bin : tensor<5x6xf32>) -> tensor<4x5xf32> attributes {arg_names = ["a", "b"]} {
    %0 = tcg.tensor %m in [0, 4) name "m" -> tensor<4x5xf32> {
      %1 = tcg.tensor %n in [0, 5) name "n" -> tensor<5xf32> {
        %2 = tcg.reduce add %k in [0, 6) name "k" -> f32 {
          %x = tcg.input %a[%m, %k] : tensor<4x6xf32>
          %y = tcg.input %b[%n, %k] : tensor<5x6xf32>
          %p = tcg.compute mul %x, %y : (f32, f32) -> f32
          tcg.yield %p : f32
        }
        tcg.yield %2 : f32
      }
      tcg.yield %1 : tensor<5xf32>
    }
    tcg.yield %0 : tensor<4x5xf32>
  }
  return %r : tensor<4x5xf32>
}
