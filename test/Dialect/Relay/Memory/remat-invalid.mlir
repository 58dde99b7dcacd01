// RUN: rm -rf %t && split-file %s %t
// RUN: raf-opt %t/tight.mlir -verify-diagnostics --raf-rematerialize="budget=2MiB" -o /dev/null
// RUN: raf-opt %t/tight-optimal.mlir -verify-diagnostics --raf-rematerialize="budget=2MiB method=optimal" -o /dev/null
// RUN: raf-opt %t/no-budget.mlir -verify-diagnostics --raf-rematerialize -o /dev/null
// RUN: raf-opt %t/bad-unit.mlir -verify-diagnostics --raf-rematerialize="budget=4Mx" -o /dev/null
// RUN: raf-opt %t/bad-number.mlir -verify-diagnostics --raf-rematerialize="budget=lots" -o /dev/null
// RUN: raf-opt %t/overflow.mlir -verify-diagnostics --raf-rematerialize="budget=99999999999GiB" -o /dev/null
// An unknown method is an error when the pass is created, naming the
// accepted values (no IR is read).
// RUN: not raf-opt %t/method.mlir --raf-rematerialize="budget=1MiB method=greedy" -o /dev/null 2>&1 | FileCheck %s --check-prefix=METHOD
// METHOD: error: option 'method' of raf-rematerialize: unknown value 'greedy'; expected one of raf, optimal
// Option errors found while the pass runs do not print the module.
// RUN: not raf-opt %t/no-budget.mlir --raf-rematerialize -o /dev/null 2>&1 | FileCheck %s --check-prefix=BUDGET
// BUDGET: error: --raf-rematerialize: the budget option is required
// BUDGET-NOT: see current operation
// RUN: raf-opt %t/entry.mlir -verify-diagnostics --raf-rematerialize="budget=1MiB entry=main" -o /dev/null
// RUN: raf-opt %t/call.mlir -verify-diagnostics --raf-rematerialize="budget=1MiB" -o /dev/null
// RUN: raf-opt %t/limits.mlir -verify-diagnostics --raf-rematerialize="budget=1MiB min-tensor-bytes=-1" -o /dev/null
// RUN: raf-opt %t/limits.mlir -verify-diagnostics --raf-rematerialize="budget=1MiB max-depth=0" -o /dev/null
// RUN: raf-opt %t/offsets.mlir -verify-diagnostics --raf-rematerialize="budget=1MiB score-offsets=0.1,-1" -o /dev/null
// RUN: not raf-opt %t/tight.mlir --raf-rematerialize="budget=2MiB" -o /dev/null 2>/dev/null

//--- tight.mlir
// At %x1 the live tensors are in, x0 and x1 (3 MiB); x0 is its operand, so
// nothing can go. The heuristic reaches 4 MiB (see remat.mlir).
func.func @e6(%in: tensor<512x512xf32>) -> tensor<512x512xf32> {
  %x0 = relay.exp %in : (tensor<512x512xf32>)
  // expected-error @+1 {{cannot rematerialize more tensors to meet the memory budget of 2097152 bytes (2.00 MiB) at this op; the smallest budget method=raf reaches for @e6 is 4194304 bytes (4.00 MiB) (peak without rematerialisation 5242880 bytes (5.00 MiB))}}
  %x1 = relay.tanh %x0 : (tensor<512x512xf32>)
  %x2 = relay.sigmoid %in : (tensor<512x512xf32>)
  %x3 = relay.multiply %x1, %x2 : (tensor<512x512xf32>, tensor<512x512xf32>)
  %x4 = relay.add %x3, %x0 : (tensor<512x512xf32>, tensor<512x512xf32>)
  return %x4 : tensor<512x512xf32>
}

//--- tight-optimal.mlir
// expected-error @+1 {{cannot meet the memory budget of 2097152 bytes (2.00 MiB) in @e6 with any recomputation (method=optimal); the smallest budget method=optimal reaches is 4194304 bytes (4.00 MiB) (peak without rematerialisation 5242880 bytes (5.00 MiB))}}
func.func @e6(%in: tensor<512x512xf32>) -> tensor<512x512xf32> {
  %x0 = relay.exp %in : (tensor<512x512xf32>)
  %x1 = relay.tanh %x0 : (tensor<512x512xf32>)
  %x2 = relay.sigmoid %in : (tensor<512x512xf32>)
  %x3 = relay.multiply %x1, %x2 : (tensor<512x512xf32>, tensor<512x512xf32>)
  %x4 = relay.add %x3, %x0 : (tensor<512x512xf32>, tensor<512x512xf32>)
  return %x4 : tensor<512x512xf32>
}

//--- no-budget.mlir
// expected-error @+1 {{--raf-rematerialize: the budget option is required (e.g. budget=512MiB)}}
module {
}

//--- bad-unit.mlir
// expected-error @+1 {{--raf-rematerialize: invalid byte size '4Mx': unknown unit 'Mx' (expected B, KB, MB, GB, KiB, MiB or GiB)}}
module {
}

//--- bad-number.mlir
// expected-error @+1 {{--raf-rematerialize: invalid byte size 'lots': expected a non-negative number followed by an optional unit (B, KB, MB, GB, KiB, MiB, GiB)}}
module {
}

//--- overflow.mlir
// expected-error @+1 {{--raf-rematerialize: invalid byte size '99999999999GiB': the size overflows 64 bits}}
module {
}

//--- method.mlir
module {
}

//--- entry.mlir
// expected-error @+1 {{--raf-rematerialize: no function named 'main'}}
module {
  func.func @f(%x: tensor<4xf32>) -> tensor<4xf32> {
    return %x : tensor<4xf32>
  }
}

//--- call.mlir
func.func @id(%x: tensor<4xf32>) -> tensor<4xf32> {
  return %x : tensor<4xf32>
}
// expected-error @+1 {{cannot rematerialize @caller: calls are not modelled (run --inline first)}}
func.func @caller(%x: tensor<4xf32>) -> tensor<4xf32> {
  // expected-note @+1 {{at this op}}
  %y = func.call @id(%x) : (tensor<4xf32>) -> tensor<4xf32>
  return %y : tensor<4xf32>
}

//--- limits.mlir
// expected-error @+1 {{--raf-rematerialize: min-tensor-bytes must be >= 0 and max-depth > 0}}
module {
}

//--- offsets.mlir
// expected-error @+1 {{--raf-rematerialize: score-offsets must be >= 0}}
module {
}
