// RUN: raf-opt %s -verify-diagnostics --raf-rematerialize="budget=3MiB" -o /dev/null
// RUN: raf-opt %s --raf-rematerialize="budget=3932164" --mlir-print-op-on-diagnostic=false 2>&1 | FileCheck %s
// RUN: raf-opt %s --raf-rematerialize="budget=3932164" | raf-opt --raf-memory-report --mlir-print-op-on-diagnostic=false 2>&1 | FileCheck %s --check-prefix=REPORT

// The smallest budget method=raf reports is one it meets, and its plan
// reaches exactly that peak in the memory model. Sizes in MiB: x and f are
// 1, z and the p's 0.75; the parameters (1.75) are live throughout. The
// peak, 4.25, is at %p2 with f live; evicting f brings it to 3.5. f and
// then e are recomputed from x before %r: the clone of e is read by the
// clone of f and released right after it, so that step holds x, z, s, e
// and f (3.75 MiB and 4 bytes) and the step of %r x, z, s, f and r, as
// much. A trace that kept e to the end of %r (as RAF's does) would count
// 4.75 MiB there and reject every budget below the unoptimised peak.

// CHECK: remark: @tight: peak 4456448 bytes (4.25 MiB) -> 3932164 bytes (3.75 MiB) (budget 3932164 bytes (3.75 MiB)); 2 ops recomputed, 524288 FLOPs (raf)
// CHECK: raf.remat.peak_bytes = 3932164 : i64
// CHECK: %[[E:.*]] = relay.exp %arg0 {raf.recomputed}
// CHECK-NEXT: %[[F:.*]] = relay.exp %[[E]] {raf.recomputed}
// CHECK-NEXT: relay.exp %[[F]] :
// REPORT: remark: @tight: peak 3932164 bytes (3.75 MiB)
func.func @tight(%x: tensor<262144xf32>, %z: tensor<196608xf32>) -> (tensor<f32>, tensor<262144xf32>) {
  %e = relay.exp %x : (tensor<262144xf32>) -> tensor<262144xf32>
  // expected-error @+1 {{cannot rematerialize more tensors to meet the memory budget of 3145728 bytes (3.00 MiB) at this op; the smallest budget method=raf reaches for @tight is 3932164 bytes (3.75 MiB) (peak without rematerialisation 4456448 bytes (4.25 MiB))}}
  %f = relay.exp %e : (tensor<262144xf32>) -> tensor<262144xf32>
  %p1 = relay.exp %z : (tensor<196608xf32>) -> tensor<196608xf32>
  %p2 = relay.exp %p1 : (tensor<196608xf32>) -> tensor<196608xf32>
  %s = relay.sum %p2 {axis = array<i64: 0>} : (tensor<196608xf32>) -> tensor<f32>
  %r = relay.exp %f : (tensor<262144xf32>) -> tensor<262144xf32>
  return %s, %r : tensor<f32>, tensor<262144xf32>
}
