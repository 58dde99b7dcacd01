// RUN: raf-opt %s --raf-rematerialize="budget=4000000 method=raf" | FileCheck %s
// RUN: raf-opt %s --raf-rematerialize="budget=4000000 method=optimal" | FileCheck %s
// RUN: raf-opt %s --raf-rematerialize="budget=4000000" | raf-opt --raf-memory-report --mlir-print-op-on-diagnostic=false 2>&1 | FileCheck %s --check-prefix=REPORT

// A tensor recomputed twice, the second time as the input of another
// recomputation: the clone of f must read the newest copy of e (a clone
// reading the first copy would keep it alive past the budget).
// CHECK-LABEL: func.func @f
// CHECK-SAME: raf.remat.num_recomputed_ops = 3 : i64
// CHECK-SAME: raf.remat.peak_bytes = 3932160 : i64
// CHECK: relay.exp %arg0 {raf.recomputed}
// CHECK: %[[E2:.*]] = relay.exp %arg0 {raf.recomputed}
// CHECK-NEXT: %[[F:.*]] = relay.exp %[[E2]] {raf.recomputed}
// CHECK-NEXT: relay.sum %[[F]]
// REPORT: remark: @f: peak 3932160 bytes (3.75 MiB)
// e and f are 1 MiB candidates; p*, q* are 0.75 MiB non-candidates (below
// min-tensor-bytes) that put pressure on steps 2-3 and 6.
func.func @f(%x: tensor<262144xf32>, %z: tensor<196608xf32>) -> tensor<f32> {
  %e = relay.exp %x : (tensor<262144xf32>) -> tensor<262144xf32>
  %p1 = relay.exp %z : (tensor<196608xf32>) -> tensor<196608xf32>
  %p2 = relay.exp %p1 : (tensor<196608xf32>) -> tensor<196608xf32>
  %p3 = relay.exp %p2 : (tensor<196608xf32>) -> tensor<196608xf32>
  %f = relay.exp %e : (tensor<262144xf32>) -> tensor<262144xf32>
  %q1 = relay.exp %z : (tensor<196608xf32>) -> tensor<196608xf32>
  %q2 = relay.exp %q1 : (tensor<196608xf32>) -> tensor<196608xf32>
  %g = relay.sum %f {axis = array<i64: 0>} : (tensor<262144xf32>) -> tensor<f32>
  return %g : tensor<f32>
}
