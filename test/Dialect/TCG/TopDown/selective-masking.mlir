// RUN: raf-opt %s --tcg-topdown-search="config=1 print-time=false" -o /dev/null | FileCheck %s --check-prefix=OUTER
// RUN: raf-opt %s --tcg-topdown-search="config=1 print-time=false selective-masking=true" -o /dev/null | FileCheck %s --check-prefix=SEL
// RUN: raf-opt %s --tcg-topdown-search="config=2 print-time=false" -o /dev/null | FileCheck %s --check-prefix=OUTER2
// RUN: raf-opt %s --tcg-topdown-search="config=2 print-time=false selective-masking=true" -o /dev/null | FileCheck %s --check-prefix=SEL2

// Selective masking (Rieber 2022, §3.2.2: "output dimensions can be masked
// out selectively"): t[i, j] = sum_k a[i, k] * w[k, j] reads w with the
// output dimension j innermost (as HWIO convolution weights do), so the
// product's innermost iterator k is w's second dimension. Hiding only outer
// dimensions leaves w's j visible and nothing matches; hiding j (a loop
// around a dot product, or around the vector product after fission) makes
// w's k the visible dimension d0, read with a stride.

// OUTER: topdown-search gemm_kn: config 1, 11 nodes, 1 graphs, 0 candidates, 0 solutions
// SEL: topdown-search gemm_kn: config 1, 11 nodes, 1 graphs, 1 candidates, 1 solutions, hit rate 100.0%
// SEL-NEXT: best: graph 0, covers 7 of 11 nodes with 1 instructions, 2 transformations: dot.mul.add.16
// OUTER2: topdown-search gemm_kn: config 2, 11 nodes, 1 graphs, {{[0-9]+}} candidates, 0 solutions
// SEL2: topdown-search gemm_kn: config 2, 11 nodes, 1 graphs, {{[0-9]+}} candidates, 1 solutions
// SEL2-NEXT: best: graph 0, {{.*}}: vv.mul.16 red.add.16

func.func @gemm_kn(%ain: tensor<4x8xf32>, %win: tensor<8x6xf32>) -> tensor<4x6xf32> {
  %r = tcg.kernel "gemm_kn" (%a = %ain : tensor<4x8xf32>, %w = %win : tensor<8x6xf32>) -> tensor<4x6xf32> attributes {arg_names = ["a", "w"]} {
    %0 = tcg.tensor %i in [0, 4) name "i" -> tensor<4x6xf32> {
      %1 = tcg.tensor %j in [0, 6) name "j" -> tensor<6xf32> {
        %s = tcg.reduce add %k in [0, 8) name "k" -> f32 {
          %x = tcg.input %a[%i, %k] : tensor<4x8xf32>
          %y = tcg.input %w[%k, %j] : tensor<8x6xf32>
          %p = tcg.compute mul %x, %y : (f32, f32) -> f32
          tcg.yield %p : f32
        }
        tcg.yield %s : f32
      }
      tcg.yield %1 : tensor<6xf32>
    }
    tcg.yield %0 : tensor<4x6xf32>
  }
  return %r : tensor<4x6xf32>
}
