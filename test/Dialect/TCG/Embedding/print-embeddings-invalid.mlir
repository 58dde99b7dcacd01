// RUN: raf-opt %s -split-input-file -verify-diagnostics --tcg-print-embeddings -o /dev/null

// tcg.embedding attributes --tcg-print-embeddings cannot read (written by
// hand or by another tool) are located errors, not crashes.

func.func @no_mode(%x: tensor<16xi8>, %y: tensor<16xi8>) -> tensor<1xi32> {
  // expected-error @+1 {{--tcg-print-embeddings: the tcg.embedding attribute lacks a readable 'mode'}}
  %r = tcg.kernel "dot" (%a = %x : tensor<16xi8>, %b = %y : tensor<16xi8>) -> tensor<1xi32>
      attributes {tcg.embedding = {intrinsic = "dot.16"}} {
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

func.func @bad_candidate(%x: tensor<16xi8>, %y: tensor<16xi8>) -> tensor<1xi32> {
  // expected-error @+1 {{--tcg-print-embeddings: the tcg.embedding attribute lacks a readable 'candidates[0].executed'}}
  %r = tcg.kernel "dot" (%a = %x : tensor<16xi8>, %b = %y : tensor<16xi8>) -> tensor<1xi32>
      attributes {tcg.embedding = {intrinsic = "dot.16", mode = "relaxed", optimal = true,
        iterators = {x = [], z = [["r0", 16, 1]]},
        operands = {a = {tensor = "in0", dims = [[["d0", 16, 1]]]}, b = {tensor = "in1", dims = [[["d0", 16, 1]]]}, c = {tensor = "out", dims = [[]]}},
        executed = [["d0", 1, 1], ["r0", 16, 16]], memory_access = true,
        candidates = [{iterators = {x = [], z = [["r0", 16, 1]]},
                       operands = {a = {tensor = "in0", dims = [[["d0", 16, 1]]]}, b = {tensor = "in1", dims = [[["d0", 16, 1]]]}, c = {tensor = "out", dims = [[]]}},
                       executed = [1], memory_access = true}]}} {
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
