// --tcg-topdown-embed attaches the typed #tcg.embedding (mode topdown) that
// --tcg-print-embeddings and --tcg-apply-strategy read; each strategy-applied
// solution runs on raf-run and matches NumPy (a @ b^T).
// RUN: raf-opt %s --tcg-topdown-embed=ignore-element-types=true | FileCheck %s
// RUN: raf-opt %s --tcg-topdown-embed=ignore-element-types=true --tcg-print-embeddings -o /dev/null | FileCheck %s --check-prefix=REPORT
// RUN: raf-opt %s --tcg-topdown-embed=intrinsics=mv.mul.add.16x16 --tcg-print-embeddings -o /dev/null | FileCheck %s --check-prefix=MV
// RUN: raf-opt %s --tcg-topdown-embed=ignore-element-types=true | raf-opt | FileCheck %s
// RUN: %python %S/Inputs/oracle.py input %t.a.npy 4x6
// RUN: %python %S/Inputs/oracle.py input %t.b.npy 5x6
// RUN: raf-opt %s --tcg-topdown-embed="intrinsics=vta.gemm.1x16x16 ignore-element-types=true" --tcg-apply-strategy -o %t.gemm.mlir
// RUN: raf-run %t.gemm.mlir --entry=gemm --input=%t.a.npy --input=%t.b.npy --output=%t.gemm.npy
// RUN: %python %S/Inputs/oracle.py check abt %t.a.npy %t.b.npy %t.gemm.npy | FileCheck %s --check-prefix=OK
// RUN: raf-opt %s --tcg-topdown-embed=intrinsics=mv.mul.add.16x16 --tcg-apply-strategy -o %t.mv.mlir
// RUN: raf-run %t.mv.mlir --entry=gemm --input=%t.a.npy --input=%t.b.npy --output=%t.mv.npy
// RUN: %python %S/Inputs/oracle.py check abt %t.a.npy %t.b.npy %t.mv.npy | FileCheck %s --check-prefix=OK
// RUN: raf-opt %s --tcg-topdown-embed=intrinsics=dot.mul.add.16 --tcg-apply-strategy -o %t.dot.mlir
// RUN: raf-run %t.dot.mlir --entry=gemm --input=%t.a.npy --input=%t.b.npy --output=%t.dot.npy
// RUN: %python %S/Inputs/oracle.py check abt %t.a.npy %t.b.npy %t.dot.npy | FileCheck %s --check-prefix=OK
// RUN: FileCheck %s --check-prefix=PACKED --input-file=%t.mv.mlir

// The whole computation is one VTA GEMM (largest coverage, Eq. 3.4): each
// intrinsic iterator maps to the operator iterator matched to it, tiled by
// its extent and padded (n 5 -> 16, k 6 -> 16); cost = uncovered nodes.
// CHECK: tcg.embedding = #tcg.embedding<"vta.gemm.1x16x16", topdown, optimal = true, candidates = [#tcg.candidate<iterators = {{\[}}[(0, 1, 1)], [(1, 16, 1)], [(2, 16, 1)]], operands = {{\[}}[{{\[}}(0, 1, 1)], [(1, 16, 1)]], {{\[}}[(0, 16, 1)], [(1, 16, 1)]], {{\[}}[(0, 1, 1)], [(1, 16, 1)]]], extents = [4, 5, 6], executed = [4, 16, 16], cost = 1, mac = [1024, 120], data = [0, 0], memory_access = true>], search = {nodes = 11, fails = 0, solutions = 1, assets = 1, distinct = 6, complete = true}>

// REPORT:      embedding of vta.gemm.1x16x16 (topdown) into gemm
// REPORT-NEXT:   x: m 1
// REPORT-NEXT:   y: n 16
// REPORT-NEXT:   z: k 16
// REPORT:        padding: n 5 -> 16, k 6 -> 16
// REPORT:        search: optimal, 1 candidate(s), 11 nodes, 0 fails, 1 solutions, 1 assets, 6 distinct embeddings

// The matrix-vector product leaves m as a loop around it (a's row masked).
// MV:      embedding of mv.mul.add.16x16 (topdown) into gemm
// MV-NEXT:   y: n 16
// MV-NEXT:   z: k 16
// MV-NEXT:   a -> a: [d1 16]
// MV-NEXT:   b -> b: [d0 16] [d1 16]
// MV-NEXT:   c -> out: [d1 16]

// PACKED: tcg.tensorize = #tcg.tensorize<"mv.mul.add.16x16">

// OK: abt: ok
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
