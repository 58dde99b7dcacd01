// RUN: raf-opt %s -split-input-file -verify-diagnostics

// One case per diagnostic of the tcg attributes' parsers and verifiers
// (lib/Dialect/TCG/IR/TCGAttrs.cpp) and of the dialect's check of its
// discardable attributes.

func.func @negative_dim() attributes {
  // expected-error @+1 {{axis mapping dimension -1 is negative}}
  maps = #tcg.axis_maps<[(-1, 2, 1)]>} {
  return
}

// -----

func.func @zero_length() attributes {
  // expected-error @+1 {{axis mapping (0, 0, 1) needs a positive length and a nonzero stride}}
  maps = #tcg.axis_maps<[(0, 0, 1)]>} {
  return
}

// -----

func.func @extents_count() attributes {
  // expected-error @+1 {{the candidate lists 2 extents but 1 executed extents}}
  c = #tcg.candidate<iterators = [], operands = [], extents = [1, 16], executed = [1], cost = 0, mac = [0, 0], data = [0, 0], memory_access = true>} {
  return
}

// -----

func.func @executed_below() attributes {
  // expected-error @+1 {{iterator 1: executed extent 8 does not cover extent 16}}
  c = #tcg.candidate<iterators = [], operands = [], extents = [1, 16], executed = [1, 8], cost = 0, mac = [0, 0], data = [0, 0], memory_access = true>} {
  return
}

// -----

func.func @minimum_above_total() attributes {
  // expected-error @+1 {{a minimal count exceeds the executed one (mac [16, 32], data [0, 0])}}
  c = #tcg.candidate<iterators = [], operands = [], extents = [], executed = [], cost = 0, mac = [16, 32], data = [0, 0], memory_access = true>} {
  return
}

// -----

func.func @not_a_bool() attributes {
  // expected-error @+1 {{expected 'true' or 'false'}}
  c = #tcg.candidate<iterators = [], operands = [], extents = [], executed = [], cost = 0, mac = [0, 0], data = [0, 0], memory_access = 1>} {
  return
}

// -----

func.func @no_candidate() attributes {
  // expected-error @+1 {{the embedding of 'dot.16' has no candidate}}
  e = #tcg.embedding<"dot.16", strict, optimal = true, candidates = [], search = {nodes = 0, fails = 0, solutions = 0, assets = 0}>} {
  return
}

// -----

func.func @no_intrinsic() attributes {
  // expected-error @+1 {{the embedding names no intrinsic}}
  e = #tcg.embedding<"", strict, optimal = true, candidates = [], search = {nodes = 0, fails = 0, solutions = 0, assets = 0}>} {
  return
}

// -----

func.func @candidate_shapes() attributes {
  // expected-error @+1 {{candidate 1 has another shape than candidate 0 (iterators, operands or extents)}}
  e = #tcg.embedding<"dot.16", strict, optimal = true, candidates = [#tcg.candidate<iterators = [[], []], operands = [], extents = [], executed = [], cost = 0, mac = [0, 0], data = [0, 0], memory_access = true>, #tcg.candidate<iterators = [[]], operands = [], extents = [], executed = [], cost = 0, mac = [0, 0], data = [0, 0], memory_access = true>], search = {nodes = 0, fails = 0, solutions = 0, assets = 0}>} {
  return
}

// -----

func.func @unknown_mode() attributes {
  // expected-error @+1 {{unknown embedding mode 'loose' (expected one of strict, relaxed, topdown)}}
  e = #tcg.embedding<"dot.16", loose, optimal = true, candidates = [], search = {}>} {
  return
}

// -----

func.func @not_a_candidate() attributes {
  // expected-error @+1 {{expected a #tcg.candidate}}
  e = #tcg.embedding<"dot.16", strict, optimal = true, candidates = [1], search = {}>} {
  return
}

// -----

func.func @unknown_statistic() attributes {
  // expected-error @+1 {{unknown search statistic 'depth' (expected nodes, fails, solutions, assets, distinct, complete or time_ms)}}
  e = #tcg.embedding<"dot.16", strict, optimal = true, candidates = [], search = {depth = 3}>} {
  return
}

// -----

func.func @tensorize_no_name() attributes {
  // expected-error @+1 {{the tensorize attribute names no intrinsic}}
  t = #tcg.tensorize<"">} {
  return
}

// -----

func.func @tensorize_empty_target() attributes {
  // expected-error @+1 {{the tensorize target is empty}}
  t = #tcg.tensorize<"dot.16", target = "">} {
  return
}

// -----

func.func @tensorize_unknown_key() attributes {
  // expected-error @+1 {{unexpected 'axes' (expected target or gemm, each at most once)}}
  t = #tcg.tensorize<"vta.gemm.1x16x16", axes = [1, 16, 16]>} {
  return
}

// -----

func.func @tensorize_repeated_key() attributes {
  // expected-error @+1 {{unexpected 'target' (expected target or gemm, each at most once)}}
  t = #tcg.tensorize<"vta.gemm.1x16x16", target = "vta", target = "vta">} {
  return
}

// -----

func.func @tensorize_two_extents() attributes {
  // expected-error @+1 {{gemm lists 2 extents; a GEMM core has three (x, y, z)}}
  t = #tcg.tensorize<"vta.gemm.1x16x16", gemm = [1, 16]>} {
  return
}

// -----

func.func @tensorize_zero_extent() attributes {
  // expected-error @+1 {{GEMM extent 0 is not positive}}
  t = #tcg.tensorize<"vta.gemm.1x16x16", gemm = [0, 16, 16]>} {
  return
}

// -----

// expected-error @+1 {{'tcg.tensorize' is only meaningful on a tcg.kernel}}
func.func @not_on_kernel() attributes {tcg.tensorize = #tcg.tensorize<"dot.16">} {
  return
}

// -----

// expected-error @+1 {{unknown tcg attribute 'tcg.schedule'}}
func.func @unknown_attribute() attributes {tcg.schedule = 1} {
  return
}

// -----

func.func @embedding_not_typed(%lhs: tensor<16xi8>, %rhs: tensor<16xi8>) -> tensor<1xi32> {
  // expected-error @+1 {{'tcg.embedding' must be a #tcg.embedding}}
  %c = tcg.kernel "dot" (%a = %lhs : tensor<16xi8>, %b = %rhs : tensor<16xi8>) -> tensor<1xi32>
      attributes {tcg.embedding = 1} {
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
  return %c : tensor<1xi32>
}

// -----

func.func @tensorize_not_typed(%lhs: tensor<16xi8>, %rhs: tensor<16xi8>) -> tensor<1xi32> {
  // expected-error @+1 {{'tcg.tensorize' must be a #tcg.tensorize}}
  %c = tcg.kernel "dot" (%a = %lhs : tensor<16xi8>, %b = %rhs : tensor<16xi8>) -> tensor<1xi32>
      attributes {tcg.tensorize = "dot.16"} {
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
  return %c : tensor<1xi32>
}

// -----

func.func @zero_stride() attributes {
  // expected-error @+1 {{axis mapping (2, 4, 0) needs a positive length and a nonzero stride}}
  maps = #tcg.axis_maps<[(2, 4, 0)]>} {
  return
}
