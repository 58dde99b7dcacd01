// RUN: raf-opt %s | FileCheck %s
// RUN: raf-opt %s | raf-opt | FileCheck %s

// The typed attributes of the tcg dialect print as they parse, and a printed
// module parses again to the same attributes.

// CHECK-LABEL: func.func @packed
// CHECK: tcg.tensorize = #tcg.tensorize<"vta.gemm.1x16x16", target = "vta", gemm = [1, 16, 16]>
// CHECK: gemm_axis x
// CHECK: gemm_axis y
// CHECK: gemm_axis z
func.func @packed(%lhs: tensor<2x1x16xi8>, %rhs: tensor<2x16x16xi8>) -> tensor<1x16xi32> {
  %c = tcg.kernel "gemm" (%a = %lhs : tensor<2x1x16xi8>, %b = %rhs : tensor<2x16x16xi8>) -> tensor<1x16xi32>
      attributes {arg_names = ["a", "b"],
                  tcg.tensorize = #tcg.tensorize<"vta.gemm.1x16x16", target = "vta", gemm = [1, 16, 16]>} {
    %0 = tcg.tensor %x in [0, 1) name "x" gemm_axis x -> tensor<1x16xi32> {
      %1 = tcg.tensor %y in [0, 16) name "y" gemm_axis y -> tensor<16xi32> {
        %2 = tcg.reduce add %t in [0, 2) name "t" -> i32 {
          %3 = tcg.reduce add %z in [0, 16) name "z" gemm_axis z -> i32 {
            %4 = tcg.input %a[%t, %x, %z] : tensor<2x1x16xi8>
            %5 = tcg.input %b[%t, %y, %z] : tensor<2x16x16xi8>
            %6 = tcg.compute mul %4, %5 : (i8, i8) -> i32
            tcg.yield %6 : i32
          }
          tcg.yield %3 : i32
        }
        tcg.yield %2 : i32
      }
      tcg.yield %1 : tensor<16xi32>
    }
    tcg.yield %0 : tensor<1x16xi32>
  }
  return %c : tensor<1x16xi32>
}

// An intrinsic no target implements has only its name.
// CHECK-LABEL: func.func @named_only
// CHECK: tcg.tensorize = #tcg.tensorize<"dot.16">
func.func @named_only(%lhs: tensor<16xi8>, %rhs: tensor<16xi8>) -> tensor<1xi32> {
  %c = tcg.kernel "dot" (%a = %lhs : tensor<16xi8>, %b = %rhs : tensor<16xi8>) -> tensor<1xi32>
      attributes {tcg.tensorize = #tcg.tensorize<"dot.16">} {
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

// Two candidates, the optional statistics, a mapping with two dimensions
// and a stride.
// CHECK-LABEL: func.func @embedded
// CHECK: tcg.embedding = #tcg.embedding<"dot.16", relaxed, optimal = false, candidates = [
// CHECK-SAME: #tcg.candidate<iterators = {{\[\[}}], [(0, 2, 1), (1, 8, 2)]], operands = {{\[\[}}[(0, 16, 1)]], {{\[\[}}(0, 16, 1)]], {{\[\[}}]]], extents = [1, 2, 16], executed = [1, 2, 16], cost = 0, mac = [32, 32], data = [64, 64], memory_access = true>,
// CHECK-SAME: #tcg.candidate<iterators = {{\[\[}}], [(1, 16, 1)]], operands = {{\[\[}}[(1, 16, 1)]], {{\[\[}}(1, 16, 1)]], {{\[\[}}]]], extents = [1, 2, 16], executed = [1, 2, 16], cost = 5, mac = [32, 32], data = [69, 64], memory_access = false>],
// CHECK-SAME: search = {nodes = 12, fails = 3, solutions = 2, assets = 1, distinct = 4, complete = true, time_ms = 1.5}>
func.func @embedded(%lhs: tensor<2x16xi8>, %rhs: tensor<2x16xi8>) -> tensor<1xi32> {
  %c = tcg.kernel "dot" (%a = %lhs : tensor<2x16xi8>, %b = %rhs : tensor<2x16xi8>) -> tensor<1xi32>
      attributes {tcg.embedding = #tcg.embedding<"dot.16", relaxed, optimal = false,
        candidates = [#tcg.candidate<iterators = [[], [(0, 2, 1), (1, 8, 2)]],
                                     operands = [[[(0, 16, 1)]], [[(0, 16, 1)]], [[]]],
                                     extents = [1, 2, 16], executed = [1, 2, 16], cost = 0,
                                     mac = [32, 32], data = [64, 64], memory_access = true>,
                      #tcg.candidate<iterators = [[], [(1, 16, 1)]],
                                     operands = [[[(1, 16, 1)]], [[(1, 16, 1)]], [[]]],
                                     extents = [1, 2, 16], executed = [1, 2, 16], cost = 5,
                                     mac = [32, 32], data = [69, 64], memory_access = false>],
        search = {nodes = 12, fails = 3, solutions = 2, assets = 1, distinct = 4, complete = true, time_ms = 1.5}>} {
    %0 = tcg.tensor %i in [0, 1) -> tensor<1xi32> {
      %1 = tcg.reduce add %r in [0, 2) -> i32 {
        %2 = tcg.reduce add %k in [0, 16) -> i32 {
          %3 = tcg.input %a[%r, %k] : tensor<2x16xi8>
          %4 = tcg.input %b[%r, %k] : tensor<2x16xi8>
          %5 = tcg.compute mul %3, %4 : (i8, i8) -> i32
          tcg.yield %5 : i32
        }
        tcg.yield %2 : i32
      }
      tcg.yield %1 : i32
    }
    tcg.yield %0 : tensor<1xi32>
  }
  return %c : tensor<1xi32>
}

// A stand-alone axis mapping.
// CHECK-LABEL: func.func @axis_maps
// CHECK: maps = #tcg.axis_maps<[(5, 2, 1), (6, 8, 4), (3, 2, -1)]>
func.func @axis_maps() attributes {maps = #tcg.axis_maps<[(5, 2, 1), (6, 8, 4), (3, 2, -1)]>} {
  return
}

// A strided access that leaves operand elements unread moves less data than
// the stored operands hold: data below its minimum is valid.
// CHECK-LABEL: func.func @data_below_minimum
// CHECK: c = #tcg.candidate<iterators = [], operands = [], extents = [], executed = [], cost = 0, mac = [16, 16], data = [1112576, 1115104], memory_access = true>
func.func @data_below_minimum() attributes {
  c = #tcg.candidate<iterators = [], operands = [], extents = [], executed = [], cost = 0, mac = [16, 16], data = [1112576, 1115104], memory_access = true>} {
  return
}
