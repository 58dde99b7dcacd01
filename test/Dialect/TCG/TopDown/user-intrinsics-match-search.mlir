// --tcg-topdown-match and --tcg-topdown-search with a user's intrinsic
// library (intrinsics-file=path, the 4x4x4 int8 GEMM core of
// Embedding/Inputs/gemm-4x4x4.mlir), searched before the built-in one.
// RUN: raf-opt %s --tcg-topdown-match="intrinsics-file=%S/../Embedding/Inputs/gemm-4x4x4.mlir intrinsics=user.gemm.4x4x4" -o /dev/null | FileCheck %s --check-prefix=MATCH
// RUN: raf-opt %s --tcg-topdown-search="intrinsics-file=%S/../Embedding/Inputs/gemm-4x4x4.mlir intrinsics=user.gemm.4x4x4 print-time=false" -o /dev/null | FileCheck %s --check-prefix=SEARCH
// Without a list, the user's intrinsics and the built-in ones are matched.
// RUN: raf-opt %s --tcg-topdown-search="intrinsics-file=%S/../Embedding/Inputs/gemm-4x4x4.mlir print-time=false" -o /dev/null | FileCheck %s --check-prefix=ALL
// A bad file is a located error.
// RUN: not raf-opt %s --tcg-topdown-search="intrinsics-file=%S/../Embedding/Inputs/intrinsics-empty.mlir" -o /dev/null 2>&1 | FileCheck %s --check-prefix=EMPTY
// RUN: not raf-opt %s --tcg-topdown-match="intrinsics-file=%S/../Embedding/Inputs/intrinsics-empty.mlir" -o /dev/null 2>&1 | FileCheck %s --check-prefix=EMPTY

func.func @gemm(%ain: tensor<8x8xi8>, %bin: tensor<8x8xi8>) -> tensor<8x8xi32> {
  %r = tcg.kernel "gemm" (%a = %ain : tensor<8x8xi8>, %b = %bin : tensor<8x8xi8>) -> tensor<8x8xi32> attributes {arg_names = ["a", "b"]} {
    %0 = tcg.tensor %m in [0, 8) name "m" -> tensor<8x8xi32> {
      %1 = tcg.tensor %n in [0, 8) name "n" -> tensor<8xi32> {
        %2 = tcg.reduce add %k in [0, 8) name "k" -> i32 {
          %x = tcg.input %a[%m, %k] : tensor<8x8xi8>
          %y = tcg.input %b[%n, %k] : tensor<8x8xi8>
          %p = tcg.compute mul %x, %y : (i8, i8) -> i32
          tcg.yield %p : i32
        }
        tcg.yield %2 : i32
      }
      tcg.yield %1 : tensor<8xi32>
    }
    tcg.yield %0 : tensor<8x8xi32>
  }
  return %r : tensor<8x8xi32>
}

// MATCH:      topdown gemm: 11 nodes, 2 algebraic, 1 candidates
// MATCH-NEXT:   candidate user.gemm.4x4x4 at tensor "m" (node 1); covers 10
// MATCH-NEXT:   selection: covers 10 of 11 nodes, algebraic 2 of 2: solution

// SEARCH:      topdown-search gemm: config 4, 11 nodes, 3 graphs, 1 candidates, 1 solutions
// SEARCH-NEXT:   best: graph 2, covers 10 of 11 nodes with 1 instructions, 2 transformations: user.gemm.4x4x4

// ALL:      topdown-search gemm: config 4, 11 nodes, 3 graphs, 3 candidates, 3 solutions
// ALL-NEXT:   best: {{.*}}: user.gemm.4x4x4

// EMPTY: error: the intrinsic file '{{.*}}intrinsics-empty.mlir' holds no tcg.kernel
