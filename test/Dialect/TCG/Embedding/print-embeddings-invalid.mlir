// RUN: raf-opt %s -split-input-file -verify-diagnostics --tcg-print-embeddings -o /dev/null

// #tcg.embedding attributes --tcg-print-embeddings cannot report (written by
// hand or by another tool for another kernel) are located errors, not
// crashes.

func.func @unknown_intrinsic(%x: tensor<16xi8>, %y: tensor<16xi8>) -> tensor<1xi32> {
  // expected-error @+1 {{unknown intrinsic 'dot.32'}}
  %r = tcg.kernel "dot" (%a = %x : tensor<16xi8>, %b = %y : tensor<16xi8>) -> tensor<1xi32>
      attributes {tcg.embedding = #tcg.embedding<"dot.32", relaxed, optimal = true, candidates = [#tcg.candidate<iterators = [[], [(1, 16, 1)]], operands = [[[(0, 16, 1)]], [[(0, 16, 1)]], [[]]], extents = [1, 16], executed = [1, 16], cost = 0, mac = [16, 16], data = [32, 32], memory_access = true>], search = {nodes = 1, fails = 0, solutions = 1, assets = 1}>} {
    %0 = tcg.tensor %i in [0, 1) -> tensor<1xi32> {
      %1 = tcg.reduce add %k in [0, 16) -> i32 {
        %2 = tcg.input %a[%k] : tensor<16xi8>
        %3 = tcg.input %b[%k] : tensor<16xi8>
        %4 = tcg.compute mul %2, %3 : (i8, i8) -> i32
        tcg.yield %4 : i32
      }
      tcg.yield %1 : i32
    }
    tcg.yield %0 : tensor<1xi32>
  }
  return %r : tensor<1xi32>
}

// -----

// The second candidate maps an iterator the kernel does not have.
func.func @bad_candidate(%x: tensor<16xi8>, %y: tensor<16xi8>) -> tensor<1xi32> {
  // expected-error @+1 {{--tcg-print-embeddings: candidate 1 of the embedding of 'dot.16' does not fit the kernel: axis z: operator iterator dimension 2 does not exist (2 dimension(s))}}
  %r = tcg.kernel "dot" (%a = %x : tensor<16xi8>, %b = %y : tensor<16xi8>) -> tensor<1xi32>
      attributes {tcg.embedding = #tcg.embedding<"dot.16", relaxed, optimal = true, candidates = [#tcg.candidate<iterators = [[], [(1, 16, 1)]], operands = [[[(0, 16, 1)]], [[(0, 16, 1)]], [[]]], extents = [1, 16], executed = [1, 16], cost = 0, mac = [16, 16], data = [32, 32], memory_access = true>, #tcg.candidate<iterators = [[], [(2, 16, 1)]], operands = [[[(0, 16, 1)]], [[(0, 16, 1)]], [[]]], extents = [1, 16], executed = [1, 16], cost = 0, mac = [16, 16], data = [32, 32], memory_access = true>], search = {nodes = 1, fails = 0, solutions = 2, assets = 1}>} {
    %0 = tcg.tensor %i in [0, 1) -> tensor<1xi32> {
      %1 = tcg.reduce add %k in [0, 16) -> i32 {
        %2 = tcg.input %a[%k] : tensor<16xi8>
        %3 = tcg.input %b[%k] : tensor<16xi8>
        %4 = tcg.compute mul %2, %3 : (i8, i8) -> i32
        tcg.yield %4 : i32
      }
      tcg.yield %1 : i32
    }
    tcg.yield %0 : tensor<1xi32>
  }
  return %r : tensor<1xi32>
}
