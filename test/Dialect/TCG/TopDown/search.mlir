// RUN: raf-opt %s --tcg-topdown-search="config=1 print-time=false" -o /dev/null | FileCheck %s --check-prefix=C1
// RUN: raf-opt %s --tcg-topdown-search="config=2 print-time=false" -o /dev/null | FileCheck %s --check-prefix=C2
// RUN: raf-opt %s --tcg-topdown-search="config=3 print-time=false" -o /dev/null | FileCheck %s --check-prefix=C3
// RUN: raf-opt %s --tcg-topdown-search="config=4 print-time=false" -o /dev/null | FileCheck %s --check-prefix=C4
// RUN: raf-opt %s --tcg-topdown-search="config=4 print-time=false max-graphs=2" -o /dev/null | FileCheck %s --check-prefix=LIMIT
// RUN: raf-opt %s --tcg-topdown-search="config=4 print-time=false layout=1,0" -o /dev/null | FileCheck %s --check-prefix=LAYOUT
// RUN: raf-opt %s --tcg-topdown-search="config=4 print-time=false print-best=true" -o /dev/null | FileCheck %s --check-prefix=BEST
// RUN: not raf-opt %s --tcg-topdown-search=layout=1,1 -o /dev/null 2>&1 | FileCheck %s --check-prefix=BADLAYOUT
// RUN: not raf-opt %s --tcg-topdown-search=config=5 -o /dev/null 2>&1 | FileCheck %s --check-prefix=BADCONFIG

// The search of Rieber 2022, §3.4.1 under the configurations of Tab. 3.4 on
// FC + bias, GEMM and attention (Eqs. 3.2 + 3.3). Configuration 1 solves
// GEMM (mv.mul.add) and attention (mv.mul.add, vs.mul), as §3.4.3 says;
// fission (configuration 2) splits FC + bias into the products, their sum
// and the bias; fusion and inlining after fission (configuration 4) rebuild
// the products and sums into mv.mul.add; configuration 3 adds nothing for
// FC + bias (nothing to fuse or inline in one computation).

// C1: topdown-search fc_bias: config 1, 14 nodes, 1 graphs, 0 candidates, 0 solutions, hit rate 0.0%, median transformations 0.0
// C1-NEXT: topdown-search gemm: config 1, 11 nodes, 1 graphs, 2 candidates, 2 solutions, hit rate 100.0%, median transformations 1.5
// C1-NEXT:   best: graph 0, covers 8 of 11 nodes with 1 instructions, 1 transformations: mv.mul.add.16x16
// C1-NEXT: topdown-search attention: config 1, 18 nodes, 1 graphs, 5 candidates, 2 solutions, hit rate 40.0%, median transformations 3.5
// C1-NEXT:   best: graph 0, covers 13 of 18 nodes with 2 instructions, 3 transformations: mv.mul.add.16x16 vs.mul.16

// C2: topdown-search fc_bias: config 2, 14 nodes, 1 graphs, 7 candidates, 1 solutions, hit rate 14.3%, median transformations 6.0
// C2-NEXT:   best: graph 0, covers 16 of 26 nodes with 3 instructions, 6 transformations: vv.mul.16 red.add.16 vv.add.16
// C2-NEXT: topdown-search gemm: config 2, 11 nodes, 1 graphs, 3 candidates, 1 solutions, hit rate 33.3%, median transformations 4.0
// C2-NEXT:   best: graph 0, covers 10 of 18 nodes with 2 instructions, 4 transformations: vv.mul.16 red.add.16
// C2-NEXT: topdown-search attention: config 2, 18 nodes, 1 graphs, 7 candidates, 1 solutions, hit rate 14.3%, median transformations 6.0

// C3: topdown-search fc_bias: config 3, 14 nodes, 1 graphs, 0 candidates, 0 solutions, hit rate 0.0%, median transformations 0.0
// C3-NEXT: topdown-search gemm: config 3, 11 nodes, 1 graphs, 2 candidates, 2 solutions
// C3: topdown-search attention: config 3, 18 nodes, 2 graphs, 10 candidates, 4 solutions, hit rate 40.0%, median transformations 3.5
// C3-NEXT:   best: graph 1, covers 13 of 16 nodes with 2 instructions, 3 transformations: mv.mul.add.16x16 vs.mul.16

// C4: topdown-search fc_bias: config 4, 14 nodes, 6 graphs, 38 candidates, 8 solutions, hit rate 21.1%, median transformations 6.0
// C4-NEXT:   best: graph 5, covers 14 of 17 nodes with 2 instructions, 6 transformations: mv.mul.add.16x16 vv.add.16
// C4-NEXT: topdown-search gemm: config 4, 11 nodes, 3 graphs, 8 candidates, 4 solutions, hit rate 50.0%, median transformations 4.0
// C4-NEXT:   best: graph 2, covers 8 of 11 nodes with 1 instructions, 3 transformations: mv.mul.add.16x16
// C4-NEXT: topdown-search attention: config 4, 18 nodes, 6 graphs, 38 candidates, 8 solutions, hit rate 21.1%, median transformations 6.0

// LIMIT: topdown-search fc_bias: config 4, 14 nodes, 2 graphs, 14 candidates, 2 solutions, hit rate 14.3%, median transformations 6.5, stopped by the graphs limit

// Transposing every rank-2 tensor (a[k, m], b[k, n], out[n, m]) leaves the
// products with the reduction outermost: nothing covers them.
// LAYOUT: topdown-search gemm: config 4, 11 nodes, 3 graphs, 2 candidates, 0 solutions

// BEST: topdown-search fc_bias: config 4
// BEST:      tcg.kernel "fc_bias"
// BEST:        tcg.reduce add %k
// BEST:          tcg.compute mul
// BEST:        tcg.compute add

// BADLAYOUT: error: --tcg-topdown-search: layout must be a permutation of 0 to 1
// BADCONFIG: error: --tcg-topdown-search: configuration 5 is not one of Tab. 3.4's (0 to 4)

func.func @fc_bias(%xin: tensor<4x8xf32>, %win: tensor<6x8xf32>, %bin: tensor<6xf32>) -> tensor<4x6xf32> {
  %r = tcg.kernel "fc_bias" (%x = %xin : tensor<4x8xf32>, %w = %win : tensor<6x8xf32>, %b = %bin : tensor<6xf32>) -> tensor<4x6xf32> attributes {arg_names = ["x", "w", "b"]} {
    %0 = tcg.tensor %m in [0, 4) name "m" -> tensor<4x6xf32> {
      %1 = tcg.tensor %n in [0, 6) name "n" -> tensor<6xf32> {
        %s = tcg.reduce add %k in [0, 8) name "k" -> f32 {
          %a = tcg.input %x[%m, %k] : tensor<4x8xf32>
          %c = tcg.input %w[%n, %k] : tensor<6x8xf32>
          %p = tcg.compute mul %a, %c : (f32, f32) -> f32
          tcg.yield %p : f32
        }
        %bias = tcg.input %b[%n] : tensor<6xf32>
        %y = tcg.compute add %s, %bias : (f32, f32) -> f32
        tcg.yield %y : f32
      }
      tcg.yield %1 : tensor<6xf32>
    }
    tcg.yield %0 : tensor<4x6xf32>
  }
  return %r : tensor<4x6xf32>
}
func.func @gemm(%ain: tensor<4x8xf32>, %bin: tensor<6x8xf32>) -> tensor<4x6xf32> {
  %r = tcg.kernel "gemm" (%a = %ain : tensor<4x8xf32>, %b = %bin : tensor<6x8xf32>) -> tensor<4x6xf32> attributes {arg_names = ["a", "b"]} {
    %0 = tcg.tensor %m in [0, 4) name "m" -> tensor<4x6xf32> {
      %1 = tcg.tensor %n in [0, 6) name "n" -> tensor<6xf32> {
        %s = tcg.reduce add %k in [0, 8) name "k" -> f32 {
          %x = tcg.input %a[%m, %k] : tensor<4x8xf32>
          %y = tcg.input %b[%n, %k] : tensor<6x8xf32>
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
func.func @attention(%qin: tensor<4x8xf32>, %kin: tensor<6x8xf32>, %sin: tensor<1xf32>) -> tensor<4x6xf32> {
  %r = tcg.kernel "attention" (%q = %qin : tensor<4x8xf32>, %k = %kin : tensor<6x8xf32>, %s = %sin : tensor<1xf32>) -> tensor<4x6xf32> attributes {arg_names = ["q", "k", "s"]} {
    %t = tcg.tensor %i in [0, 4) name "i" -> tensor<4x6xf32> {
      %1 = tcg.tensor %j in [0, 6) name "j" -> tensor<6xf32> {
        %d = tcg.reduce add %l in [0, 8) name "l" -> f32 {
          %x = tcg.input %q[%i, %l] : tensor<4x8xf32>
          %y = tcg.input %k[%j, %l] : tensor<6x8xf32>
          %p = tcg.compute mul %x, %y : (f32, f32) -> f32
          tcg.yield %p : f32
        }
        tcg.yield %d : f32
      }
      tcg.yield %1 : tensor<6xf32>
    }
    %o = tcg.tensor %i in [0, 4) name "i" -> tensor<4x6xf32> {
      %1 = tcg.tensor %j in [0, 6) name "j" -> tensor<6xf32> {
        %v = tcg.input %t[%i, %j] : tensor<4x6xf32>
        %c = tcg.input %s[0] : tensor<1xf32>
        %p = tcg.compute mul %c, %v : (f32, f32) -> f32
        tcg.yield %p : f32
      }
      tcg.yield %1 : tensor<6xf32>
    }
    tcg.yield %o : tensor<4x6xf32>
  }
  return %r : tensor<4x6xf32>
}
