// RUN: raf-opt %s -verify-diagnostics --tcg-apply-strategy=candidate=1 -o /dev/null

// A candidate index beyond the embedding's candidates.
func.func @candidate_out_of_range(%lhs: tensor<1x16xi8>, %rhs: tensor<16x16xi8>) -> tensor<1x16xi32> {
  // expected-error @+1 {{--tcg-apply-strategy: candidate 1 does not exist (the embedding has 1 candidate(s))}}
  %c = tcg.kernel "gemm" (%a = %lhs : tensor<1x16xi8>, %b = %rhs : tensor<16x16xi8>) -> tensor<1x16xi32>
      attributes {arg_names = ["a", "b"], result_name = "out",
                  tcg.embedding = #tcg.embedding<"vta.gemm.1x16x16", relaxed, optimal = false, candidates = [#tcg.candidate<iterators = [[], [(1, 16, 1)], [(2, 16, 1)]], operands = [[[], [(1, 16, 1)]], [[(0, 16, 1)], [(1, 16, 1)]], [[], [(1, 16, 1)]]], extents = [1, 16, 16], executed = [1, 16, 16], cost = 0, mac = [0, 0], data = [0, 0], memory_access = true>], search = {nodes = 0, fails = 0, solutions = 0, assets = 0}>} {
    %0 = tcg.tensor %m in [0, 1) name "m" -> tensor<1x16xi32> {
      %1 = tcg.tensor %n in [0, 16) name "n" -> tensor<16xi32> {
        %2 = tcg.reduce add %k in [0, 16) name "k" -> i32 {
          %3 = tcg.input %a[%m, %k] : tensor<1x16xi8>
          %4 = tcg.input %b[%n, %k] : tensor<16x16xi8>
          %5 = tcg.compute mul %3, %4 : (i8, i8) -> i32
          tcg.yield %5 : i32
        }
        tcg.yield %2 : i32
      }
      tcg.yield %1 : tensor<16xi32>
    }
    tcg.yield %0 : tensor<1x16xi32>
  }
  return %c : tensor<1x16xi32>
}
