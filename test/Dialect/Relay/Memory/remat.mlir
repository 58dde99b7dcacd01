// RUN: raf-opt %s --raf-rematerialize="budget=4MiB" --mlir-print-op-on-diagnostic=false 2>&1 | FileCheck %s --check-prefixes=CHECK,RAF
// RUN: raf-opt %s --raf-rematerialize="budget=4194304 method=optimal" --mlir-print-op-on-diagnostic=false 2>&1 | FileCheck %s --check-prefixes=CHECK,OPT
// RUN: raf-opt %s --raf-rematerialize="budget=5MiB" | FileCheck %s --check-prefix=ROOMY
// RUN: raf-opt %s --raf-rematerialize="budget=5MiB method=optimal" | FileCheck %s --check-prefix=ROOMY
// The rewritten function meets the budget in the memory model.
// RUN: raf-opt %s --raf-rematerialize="budget=4MiB" --raf-memory-report --mlir-print-op-on-diagnostic=false 2>&1 | FileCheck %s --check-prefix=REPORT

// Traced by hand with RAF's algorithm, sizes in MiB: without rematerialisation
// the peak is 5 at %x3 (in, x0, x1, x2, x3). Under 4 MiB the only candidate at
// %x3 is %x0 (in is a parameter, x1 and x2 are operands, x3 the result): it is
// evicted and exp(in) is recomputed just before its use by %x4.

// RAF: remark: @e6: peak 5242880 bytes (5.00 MiB) -> 4194304 bytes (4.00 MiB) (budget 4194304 bytes (4.00 MiB)); 1 ops recomputed, 262144 FLOPs (raf)
// OPT: remark: @e6: peak 5242880 bytes (5.00 MiB) -> 4194304 bytes (4.00 MiB) (budget 4194304 bytes (4.00 MiB)); 1 ops recomputed, 262144 FLOPs (optimal: optimal (Gecode, proven:
// CHECK-LABEL: func.func @e6(%arg0: tensor<512x512xf32>)
// RAF-SAME: raf.remat.method = "raf"
// OPT-SAME: raf.remat.method = "optimal"
// CHECK-SAME: raf.remat.num_recomputed_ops = 1 : i64
// RAF-NOT: raf.remat.optimal_proven
// OPT-SAME: raf.remat.optimal_proven = true
// CHECK-SAME: raf.remat.peak_bytes = 4194304 : i64, raf.remat.recomputed_flops = 262144 : i64
// CHECK-NEXT: %[[X0:.*]] = relay.exp %arg0 :
// CHECK-NEXT: %[[X1:.*]] = relay.tanh %[[X0]]
// CHECK-NEXT: %[[X2:.*]] = relay.sigmoid %arg0
// CHECK-NEXT: %[[X3:.*]] = relay.multiply %[[X1]], %[[X2]]
// CHECK-NEXT: %[[R:.*]] = relay.exp %arg0 {raf.recomputed}
// CHECK-NEXT: relay.add %[[X3]], %[[R]]

// With 5 MiB nothing changes.
// ROOMY-LABEL: func.func @e6
// ROOMY-SAME: raf.remat.num_recomputed_ops = 0 : i64
// ROOMY-SAME: raf.remat.peak_bytes = 5242880 : i64, raf.remat.recomputed_flops = 0 : i64
// ROOMY-NOT: raf.recomputed

// REPORT: remark: @e6: peak 4194304 bytes (4.00 MiB) at step 3 of 6
func.func @e6(%in: tensor<512x512xf32>) -> tensor<512x512xf32> {
  %x0 = relay.exp %in : (tensor<512x512xf32>)
  %x1 = relay.tanh %x0 : (tensor<512x512xf32>)
  %x2 = relay.sigmoid %in : (tensor<512x512xf32>)
  %x3 = relay.multiply %x1, %x2 : (tensor<512x512xf32>, tensor<512x512xf32>)
  %x4 = relay.add %x3, %x0 : (tensor<512x512xf32>, tensor<512x512xf32>)
  return %x4 : tensor<512x512xf32>
}
