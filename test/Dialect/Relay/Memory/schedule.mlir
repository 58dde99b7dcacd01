// RUN: raf-opt %s --raf-memory-schedule --raf-memory-report -verify-diagnostics | FileCheck %s
// RUN: raf-opt %s --raf-memory-schedule="threshold-mb=4" --mlir-print-op-on-diagnostic=false 2>/dev/null | FileCheck %s --check-prefix=HIGH

// RAF's p - c rule traced by hand (sizes in MiB): %big (2, no operands:
// inc +2 > 1) would go as late as possible, %s frees %big (inc about -2 < -1)
// and moves to just after it in the forward sweep; %big is then already right
// before its first use. The peak falls from 5 MiB (x, big, a, b at %b) to
// about 3.002 MiB.

// expected-remark @+2 {{@g: 1 moves; peak 5242880 bytes (5.00 MiB) -> 3147776 bytes (3.00 MiB)}}
// expected-remark @+1 {{@g: peak 3147776 bytes (3.00 MiB) at step 1 of 5 (relay.sum)}}
func.func @g(%x: tensor<512x512xf32>) -> tensor<512x512xf32> {
  %big = relay.zeros {shape = array<i64: 1024, 512>, dtype = f32}
  %a = relay.tanh %x : (tensor<512x512xf32>)
  %b = relay.tanh %a : (tensor<512x512xf32>)
  // expected-note @+1 {{peak reached here}}
  %s = relay.sum %big {axis = array<i64: 0>} : (tensor<1024x512xf32>)
  %r = relay.add %b, %s : (tensor<512x512xf32>, tensor<512xf32>)
  return %r : tensor<512x512xf32>
}
// CHECK-LABEL: func.func @g
// CHECK-NEXT: %[[BIG:.*]] = relay.zeros
// CHECK-NEXT: %[[S:.*]] = relay.sum %[[BIG]]
// CHECK-NEXT: %[[A:.*]] = relay.tanh %arg0
// CHECK-NEXT: %[[B:.*]] = relay.tanh %[[A]]
// CHECK-NEXT: relay.add %[[B]], %[[S]]

// With a 4 MiB threshold nothing qualifies: the order is kept.
// HIGH-LABEL: func.func @g
// HIGH-NEXT: relay.zeros
// HIGH-NEXT: relay.tanh
// HIGH-NEXT: relay.tanh
// HIGH-NEXT: relay.sum

// An op that allocates a lot moves to just before its first user; unused
// ops stay. %w (4 MiB, frees nothing) sinks below the two small tanh ops.
// The peak is at the add either way: parameters (4 MiB + 4 KiB), w, t2 and
// the result, 12591104 bytes; w is just allocated later.
// expected-remark @+2 {{@sink: 1 moves; peak 12591104 bytes (12.01 MiB) -> 12591104 bytes (12.01 MiB)}}
// expected-remark @+1 {{@sink: peak 12591104 bytes (12.01 MiB) at step 3 of 5 (relay.add)}}
func.func @sink(%x: tensor<1024xf32>, %y: tensor<1024x1024xf32>) -> tensor<1024x1024xf32> {
  %w = relay.exp %y : (tensor<1024x1024xf32>)
  %t1 = relay.tanh %x : (tensor<1024xf32>)
  %t2 = relay.tanh %t1 : (tensor<1024xf32>)
  // expected-note @+1 {{peak reached here}}
  %r = relay.add %w, %t2 : (tensor<1024x1024xf32>, tensor<1024xf32>)
  %unused = relay.exp %y : (tensor<1024x1024xf32>)
  return %r : tensor<1024x1024xf32>
}
// CHECK-LABEL: func.func @sink
// CHECK-NEXT: relay.tanh %arg0
// CHECK-NEXT: relay.tanh
// CHECK-NEXT: relay.exp %arg1
// CHECK-NEXT: relay.add
// CHECK-NEXT: relay.exp %arg1
