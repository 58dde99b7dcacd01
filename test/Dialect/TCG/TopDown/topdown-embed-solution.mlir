// --tcg-topdown-embed=search=true solution=K applies the K-th applicable
// solution in the pass's ranking (Eq. 3.4 coverage of the applied graph,
// then fewer instructions); 0, the default, is the best. Each statement
// kernel's topdown.solution holds the rank and the number of applicable
// solutions. Solutions that apply the same program (the same statements
// with the same embeddings, e.g. a fused graph split back into the
// statements of an unfused one) count once. A rank beyond them is a
// located error naming the count, and the kernel is kept.
// RUN: raf-opt %s --tcg-topdown-embed="search=true selective-masking=true" | FileCheck %s --check-prefix=BEST
// RUN: raf-opt %s --tcg-topdown-embed="search=true selective-masking=true solution=1" | FileCheck %s --check-prefix=SECOND
// RUN: raf-opt %s --tcg-topdown-embed="search=true selective-masking=true solution=1" --tcg-apply-strategy | FileCheck %s --check-prefix=APPLIED
// RUN: raf-opt %s --tcg-topdown-embed="search=true selective-masking=true solution=2" -verify-diagnostics -o /dev/null

// GEMM (Rieber 2022, Tab. 3.3): the best is one matrix-vector product
// (8 of 11 nodes); next come the element products and a sum (10 of 18),
// which a fused graph gives again once split: two applicable solutions.
// BEST:       tcg.kernel "gemm.0" {{.*}}#tcg.embedding<"mv.mul.add.16x16", topdown{{.*}}topdown.applied_coverage = array<i64: 8, 11>, topdown.solution = array<i64: 0, 2>
// BEST-NOT:   tcg.kernel
// SECOND:     tcg.kernel "gemm.0" {{.*}}#tcg.embedding<"vv.mul.16", topdown{{.*}}topdown.applied_coverage = array<i64: 10, 18>, topdown.solution = array<i64: 1, 2>
// SECOND:     tcg.kernel "gemm.1" {{.*}}#tcg.embedding<"red.add.16", topdown{{.*}}topdown.solution = array<i64: 1, 2>
// APPLIED-COUNT-2: tcg.tensorize =
func.func @gemm(%ain: tensor<4x8xf32>, %bin: tensor<6x8xf32>) -> tensor<4x6xf32> {
  // expected-error @+1 {{--tcg-topdown-embed: solution=2 is out of range: the search (config 4) found 2 applicable solution(s) (0 to 1)}}
  %r = tcg.kernel "gemm" (%a = %ain : tensor<4x8xf32>, %b = %bin : tensor<6x8xf32>) -> tensor<4x6xf32> {
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
