// RUN: raf-opt %s -split-input-file -verify-diagnostics --tcg-apply-strategy -o /dev/null

// Embeddings --tcg-apply-strategy cannot apply, each with a located error at
// the kernel. The attributes are written by hand (as another tool might):
// well-formed #tcg.embedding attributes (their own syntax and verifier errors
// are in test/Dialect/TCG/attrs-invalid.mlir) that do not fit their kernel.


// An intrinsic the library does not have.
func.func @unknown_intrinsic(%lhs: tensor<1x16xi8>, %rhs: tensor<16x16xi8>) -> tensor<1x16xi32> {
  // expected-error @+1 {{unknown intrinsic 'vta.gemm.2x2x2'}}
  %c = tcg.kernel "gemm" (%a = %lhs : tensor<1x16xi8>, %b = %rhs : tensor<16x16xi8>) -> tensor<1x16xi32>
      attributes {arg_names = ["a", "b"], result_name = "out",
                  tcg.embedding = #tcg.embedding<"vta.gemm.2x2x2", relaxed, optimal = false, candidates = [#tcg.candidate<iterators = [[], [(1, 16, 1)], [(2, 16, 1)]], operands = [[[], [(1, 16, 1)]], [[(0, 16, 1)], [(1, 16, 1)]], [[], [(1, 16, 1)]]], extents = [1, 16, 16], executed = [1, 16, 16], cost = 0, mac = [0, 0], data = [0, 0], memory_access = true>], search = {nodes = 0, fails = 0, solutions = 0, assets = 0}>} {
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

// -----

// A mapping naming an iterator the kernel does not have.
func.func @unknown_iterator(%lhs: tensor<1x16xi8>, %rhs: tensor<16x16xi8>) -> tensor<1x16xi32> {
  // expected-error @+1 {{candidate 0 of the embedding of 'vta.gemm.1x16x16' does not fit the kernel: axis z: operator iterator dimension 7 does not exist (3 dimension(s))}}
  %c = tcg.kernel "gemm" (%a = %lhs : tensor<1x16xi8>, %b = %rhs : tensor<16x16xi8>) -> tensor<1x16xi32>
      attributes {arg_names = ["a", "b"], result_name = "out",
                  tcg.embedding = #tcg.embedding<"vta.gemm.1x16x16", relaxed, optimal = false, candidates = [#tcg.candidate<iterators = [[], [(1, 16, 1)], [(7, 16, 1)]], operands = [[[], [(1, 16, 1)]], [[(0, 16, 1)], [(1, 16, 1)]], [[], [(1, 16, 1)]]], extents = [1, 16, 16], executed = [1, 16, 16], cost = 0, mac = [0, 0], data = [0, 0], memory_access = true>], search = {nodes = 0, fails = 0, solutions = 0, assets = 0}>} {
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

// -----

// An operand mapping naming no view dimension.
func.func @unknown_view_dim(%lhs: tensor<1x16xi8>, %rhs: tensor<16x16xi8>) -> tensor<1x16xi32> {
  // expected-error @+1 {{candidate 0 of the embedding of 'vta.gemm.1x16x16' does not fit the kernel: operand a: view dimension 5 does not exist (2 dimension(s))}}
  %c = tcg.kernel "gemm" (%a = %lhs : tensor<1x16xi8>, %b = %rhs : tensor<16x16xi8>) -> tensor<1x16xi32>
      attributes {arg_names = ["a", "b"], result_name = "out",
                  tcg.embedding = #tcg.embedding<"vta.gemm.1x16x16", relaxed, optimal = false, candidates = [#tcg.candidate<iterators = [[], [(1, 16, 1)], [(2, 16, 1)]], operands = [[[], [(5, 16, 1)]], [[(0, 16, 1)], [(1, 16, 1)]], [[], [(1, 16, 1)]]], extents = [1, 16, 16], executed = [1, 16, 16], cost = 0, mac = [0, 0], data = [0, 0], memory_access = true>], search = {nodes = 0, fails = 0, solutions = 0, assets = 0}>} {
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

// -----

// `executed` for another number of iterators.
func.func @executed_count(%lhs: tensor<1x16xi8>, %rhs: tensor<16x16xi8>) -> tensor<1x16xi32> {
  // expected-error @+1 {{candidate 0 of the embedding of 'vta.gemm.1x16x16' does not fit the kernel: it lists 1 iterator extents, the operator has 3 iterators}}
  %c = tcg.kernel "gemm" (%a = %lhs : tensor<1x16xi8>, %b = %rhs : tensor<16x16xi8>) -> tensor<1x16xi32>
      attributes {arg_names = ["a", "b"], result_name = "out",
                  tcg.embedding = #tcg.embedding<"vta.gemm.1x16x16", relaxed, optimal = false, candidates = [#tcg.candidate<iterators = [[], [(1, 16, 1)], [(2, 16, 1)]], operands = [[[], [(1, 16, 1)]], [[(0, 16, 1)], [(1, 16, 1)]], [[], [(1, 16, 1)]]], extents = [1], executed = [1], cost = 0, mac = [0, 0], data = [0, 0], memory_access = true>], search = {nodes = 0, fails = 0, solutions = 0, assets = 0}>} {
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

// -----

// One iterator on two axes.
func.func @two_axes(%lhs: tensor<1x16xi8>, %rhs: tensor<16x16xi8>) -> tensor<1x16xi32> {
  // expected-error @+1 {{cannot derive the strategy of 'vta.gemm.1x16x16' (candidate 0): iterator n is covered by two axes}}
  %c = tcg.kernel "gemm" (%a = %lhs : tensor<1x16xi8>, %b = %rhs : tensor<16x16xi8>) -> tensor<1x16xi32>
      attributes {arg_names = ["a", "b"], result_name = "out",
                  tcg.embedding = #tcg.embedding<"vta.gemm.1x16x16", relaxed, optimal = false, candidates = [#tcg.candidate<iterators = [[], [(1, 16, 1)], [(1, 16, 1)]], operands = [[[], [(1, 16, 1)]], [[(0, 16, 1)], [(1, 16, 1)]], [[], [(1, 16, 1)]]], extents = [1, 16, 16], executed = [1, 16, 16], cost = 0, mac = [0, 0], data = [0, 0], memory_access = true>], search = {nodes = 0, fails = 0, solutions = 0, assets = 0}>} {
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

// -----

// A reduction iterator on a parallel axis.
func.func @reduction_on_parallel(%lhs: tensor<1x16xi8>, %rhs: tensor<16x16xi8>) -> tensor<1x16xi32> {
  // expected-error @+1 {{cannot derive the strategy of 'vta.gemm.1x16x16' (candidate 0): reduction iterator k is covered by parallel axis y}}
  %c = tcg.kernel "gemm" (%a = %lhs : tensor<1x16xi8>, %b = %rhs : tensor<16x16xi8>) -> tensor<1x16xi32>
      attributes {arg_names = ["a", "b"], result_name = "out",
                  tcg.embedding = #tcg.embedding<"vta.gemm.1x16x16", relaxed, optimal = false, candidates = [#tcg.candidate<iterators = [[], [(2, 16, 1)], [(1, 16, 1)]], operands = [[[], [(1, 16, 1)]], [[(0, 16, 1)], [(1, 16, 1)]], [[], [(1, 16, 1)]]], extents = [1, 16, 16], executed = [1, 16, 16], cost = 0, mac = [0, 0], data = [0, 0], memory_access = true>], search = {nodes = 0, fails = 0, solutions = 0, assets = 0}>} {
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

// -----

// An axis covered only in part.
func.func @partial_axis(%lhs: tensor<1x16xi8>, %rhs: tensor<16x16xi8>) -> tensor<1x16xi32> {
  // expected-error @+1 {{cannot derive the strategy of 'vta.gemm.1x16x16' (candidate 0): axis z covers 8 of its 16 points}}
  %c = tcg.kernel "gemm" (%a = %lhs : tensor<1x16xi8>, %b = %rhs : tensor<16x16xi8>) -> tensor<1x16xi32>
      attributes {arg_names = ["a", "b"], result_name = "out",
                  tcg.embedding = #tcg.embedding<"vta.gemm.1x16x16", relaxed, optimal = false, candidates = [#tcg.candidate<iterators = [[], [(1, 16, 1)], [(2, 8, 1)]], operands = [[[], [(1, 16, 1)]], [[(0, 16, 1)], [(1, 16, 1)]], [[], [(1, 16, 1)]]], extents = [1, 16, 16], executed = [1, 16, 16], cost = 0, mac = [0, 0], data = [0, 0], memory_access = true>], search = {nodes = 0, fails = 0, solutions = 0, assets = 0}>} {
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

// -----

// The GEMM's a does not vary with y, but this kernel's a reads n,
// which y covers: no layout gives a[tile..., x, z].
func.func @foreign_axis(%lhs: tensor<1x16xi8>, %rhs: tensor<16x16xi8>) -> tensor<1x16xi32> {
  // expected-error @+1 {{cannot derive the strategy of 'vta.gemm.1x16x16' (candidate 0): operand 'a' reads n, which intrinsic axis y covers, but the intrinsic's operand has no such axis}}
  %c = tcg.kernel "gemm" (%a = %lhs : tensor<1x16xi8>, %b = %rhs : tensor<16x16xi8>) -> tensor<1x16xi32>
      attributes {arg_names = ["a", "b"], result_name = "out",
                  tcg.embedding = #tcg.embedding<"vta.gemm.1x16x16", relaxed, optimal = false, candidates = [#tcg.candidate<iterators = [[], [(1, 16, 1)], [(2, 16, 1)]], operands = [[[], [(1, 16, 1)]], [[(0, 16, 1)], [(1, 16, 1)]], [[], [(1, 16, 1)]]], extents = [1, 16, 16], executed = [1, 16, 16], cost = 0, mac = [0, 0], data = [0, 0], memory_access = true>], search = {nodes = 0, fails = 0, solutions = 0, assets = 0}>} {
    %0 = tcg.tensor %m in [0, 1) name "m" -> tensor<1x16xi32> {
      %1 = tcg.tensor %n in [0, 16) name "n" -> tensor<16xi32> {
        %2 = tcg.reduce add %k in [0, 16) name "k" -> i32 {
          %3 = tcg.input %a[%m, %n] : tensor<1x16xi8>
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

// -----

// A kernel with one input against a two-input intrinsic.
func.func @one_input(%lhs: tensor<16x16xi8>) -> tensor<16xi32> {
  // expected-error @+1 {{candidate 0 of the embedding of 'vta.gemm.1x16x16' does not fit the kernel: it maps 3 operands; vta.gemm.1x16x16 has 3 and the operator 2}}
  %c = tcg.kernel "rowsum" (%a = %lhs : tensor<16x16xi8>) -> tensor<16xi32>
      attributes {arg_names = ["a"], result_name = "out",
                  tcg.embedding = #tcg.embedding<"vta.gemm.1x16x16", relaxed, optimal = false, candidates = [#tcg.candidate<iterators = [[], [(0, 16, 1)], [(1, 16, 1)]], operands = [[[], [(1, 16, 1)]], [[(0, 16, 1)], [(1, 16, 1)]], [[], [(1, 16, 1)]]], extents = [16, 16], executed = [16, 16], cost = 0, mac = [0, 0], data = [0, 0], memory_access = true>], search = {nodes = 0, fails = 0, solutions = 0, assets = 0}>} {
    %0 = tcg.tensor %n in [0, 16) name "n" -> tensor<16xi32> {
      %1 = tcg.reduce add %k in [0, 16) name "k" -> i32 {
        %2 = tcg.input %a[%n, %k] : tensor<16x16xi8>
        %3 = tcg.compute add %2, %2 : (i8, i8) -> i32
        tcg.yield %3 : i32
      }
      tcg.yield %1 : i32
    }
    tcg.yield %0 : tensor<16xi32>
  }
  return %c : tensor<16xi32>
}

// -----

// The fallback gather would need 64 * 256 * 128 * 16 indices (i, j, the
// tiles of k, and z), beyond the limit.
func.func @too_large(%lhs: tensor<64x256x2048xi8>, %rhs: tensor<256x2048xi8>) -> tensor<64xi32> {
  // expected-error @+1 {{cannot derive the strategy of 'dot.16' (candidate 0): operand 'a' needs the fallback gather (its index k mod 2048 is not affine) with 33554432 indices, more than the limit of 16777216}}
  %c = tcg.kernel "big" (%a = %lhs : tensor<64x256x2048xi8>, %b = %rhs : tensor<256x2048xi8>) -> tensor<64xi32>
      attributes {arg_names = ["a", "b"], result_name = "out",
                  tcg.embedding = #tcg.embedding<"dot.16", relaxed, optimal = false, candidates = [#tcg.candidate<iterators = [[], [(2, 16, 1)]], operands = [[[(2, 16, 1)]], [[(1, 16, 1)]], [[]]], extents = [64, 256, 2048], executed = [64, 256, 2048], cost = 0, mac = [0, 0], data = [0, 0], memory_access = true>], search = {nodes = 0, fails = 0, solutions = 0, assets = 0}>} {
    %0 = tcg.tensor %i in [0, 64) name "i" -> tensor<64xi32> {
      %1 = tcg.reduce add %j in [0, 256) name "j" -> i32 {
        %2 = tcg.reduce add %k in [0, 2048) name "k" -> i32 {
          %3 = tcg.input %a[%i, %j, %k mod 2048] : tensor<64x256x2048xi8>
          %4 = tcg.input %b[%j, %k] : tensor<256x2048xi8>
          %5 = tcg.compute mul %3, %4 : (i8, i8) -> i32
          tcg.yield %5 : i32
        }
        tcg.yield %2 : i32
      }
      tcg.yield %1 : i32
    }
    tcg.yield %0 : tensor<64xi32>
  }
  return %c : tensor<64xi32>
}

// -----

// A kernel without a tensor expression (a sequence of two computations).
func.func @sequence(%x: tensor<16xi8>) -> tensor<16xi8> {
  // expected-error @+1 {{'tcg.kernel' op holds a sequence of 2 computations; a tensor expression describes one}}
  %r = tcg.kernel (%a = %x : tensor<16xi8>) -> tensor<16xi8>
      attributes {tcg.embedding = #tcg.embedding<"dot.16", relaxed, optimal = false, candidates = [#tcg.candidate<iterators = [[], [(0, 16, 1)]], operands = [[[(0, 16, 1)]], [[(0, 16, 1)]], [[]]], extents = [16], executed = [16], cost = 0, mac = [0, 0], data = [0, 0], memory_access = true>], search = {nodes = 0, fails = 0, solutions = 0, assets = 0}>} {
    %t = tcg.tensor %i in [0, 16) -> tensor<16xi8> {
      %v = tcg.input %a[%i] : tensor<16xi8>
      %w = tcg.compute mul %v, %v : (i8, i8) -> i8
      tcg.yield %w : i8
    }
    %u = tcg.tensor %i in [0, 16) -> tensor<16xi8> {
      %v = tcg.input %t[%i] : tensor<16xi8>
      %w = tcg.compute add %v, %v : (i8, i8) -> i8
      tcg.yield %w : i8
    }
    tcg.yield %u : tensor<16xi8>
  }
  return %r : tensor<16xi8>
}

// -----

// Unrolling the stencil ow + kw would need 8192 * 4096 indices, beyond the
// limit.
func.func @unroll_too_large(%lhs: tensor<12287xi8>, %rhs: tensor<4096xi8>) -> tensor<8192xi32> {
  // expected-error @+1 {{cannot derive the strategy of 'dot.16' (candidate 0): operand 'a' needs a gather of 33554432 indices for its index ow + kw, more than the limit of 16777216}}
  %c = tcg.kernel "conv1d" (%a = %lhs : tensor<12287xi8>, %b = %rhs : tensor<4096xi8>) -> tensor<8192xi32>
      attributes {arg_names = ["a", "b"], result_name = "out",
                  tcg.embedding = #tcg.embedding<"dot.16", relaxed, optimal = false, candidates = [#tcg.candidate<iterators = [[], [(1, 16, 1)]], operands = [[[(0, 16, 1)]], [[(0, 16, 1)]], [[]]], extents = [8192, 4096], executed = [8192, 4096], cost = 0, mac = [0, 0], data = [0, 0], memory_access = true>], search = {nodes = 0, fails = 0, solutions = 0, assets = 0}>} {
    %0 = tcg.tensor %ow in [0, 8192) name "ow" -> tensor<8192xi32> {
      %1 = tcg.reduce add %kw in [0, 4096) name "kw" -> i32 {
        %2 = tcg.input %a[%ow + %kw] : tensor<12287xi8>
        %3 = tcg.input %b[%kw] : tensor<4096xi8>
        %4 = tcg.compute mul %2, %3 : (i8, i8) -> i32
        tcg.yield %4 : i32
      }
      tcg.yield %1 : i32
    }
    tcg.yield %0 : tensor<8192xi32>
  }
  return %c : tensor<8192xi32>
}
