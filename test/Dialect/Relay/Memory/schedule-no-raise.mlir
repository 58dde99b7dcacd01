// RUN: raf-opt %s --raf-memory-schedule --raf-memory-report -verify-diagnostics | FileCheck %s

// The scheduler never returns an order with a higher peak than the one it
// was given. Sizes in MiB: the parameter, b1, b2, d and a are 1, c 0.25.
// %a frees b1, b2 and c (inc -1.25 < -1), so the forward sweep would move
// it to just after %c, its operands' last definition, where d is still
// live: that step would hold p, b1, b2, d, c and a, 5.25 MiB, against a
// peak of 4.25 where it is. The backward sweep moves nothing (every other
// op allocates at most 1 MiB), so the sweeps end higher: the original
// order is kept.

// expected-remark @+2 {{@raise: 0 moves; peak 4456452 bytes (4.25 MiB) -> 4456452 bytes (4.25 MiB) (the schedule's 1 moves would reach 5505024 bytes (5.25 MiB): not kept)}}
// expected-remark @+1 {{@raise: peak 4456452 bytes (4.25 MiB) at step 4 of 6 (relay.sum)}}
func.func @raise(%p: tensor<262144xf32>) -> (tensor<f32>, tensor<262144xf32>) {
  %b1 = relay.exp %p : (tensor<262144xf32>) -> tensor<262144xf32>
  %b2 = relay.tanh %p : (tensor<262144xf32>) -> tensor<262144xf32>
  %d = relay.sigmoid %p : (tensor<262144xf32>) -> tensor<262144xf32>
  %c = relay.greater %p, %p : (tensor<262144xf32>, tensor<262144xf32>) -> tensor<262144xi1>
  // expected-note @+1 {{peak reached here}}
  %e = relay.sum %d {axis = array<i64: 0>} : (tensor<262144xf32>) -> tensor<f32>
  %a = relay.where %c, %b1, %b2 : (tensor<262144xi1>, tensor<262144xf32>, tensor<262144xf32>) -> tensor<262144xf32>
  return %e, %a : tensor<f32>, tensor<262144xf32>
}
// CHECK-LABEL: func.func @raise
// CHECK-NEXT: relay.exp
// CHECK-NEXT: relay.tanh
// CHECK-NEXT: relay.sigmoid
// CHECK-NEXT: relay.greater
// CHECK-NEXT: relay.sum
// CHECK-NEXT: relay.where
