// RUN: raf-opt %s --raf-memory-report -verify-diagnostics -o /dev/null
// The expected-* lines are stripped for the table runs; line numbers stay.
// RUN: sed 's|// expected-.*||' %s | raf-opt --raf-memory-report="entry=e6 tensors=1 trace=1" -o /dev/null 2>&1 | FileCheck %s

// The memory model on remat.mlir's function (sizes in MiB,
// 512x512xf32 = 1 MiB): in (parameter) 1, then x0..x3 each +1, x3 at 5
// (in, x0, x1, x2, x3); after x3, x1 and x2 die; x4 allocates 1 and x3, x0
// die after it.

// expected-remark @+1 {{@e6: peak 5242880 bytes (5.00 MiB) at step 3 of 5 (relay.multiply); parameters 1048576 bytes (1.00 MiB); 6 buffers}}
func.func @e6(%in: tensor<512x512xf32>) -> tensor<512x512xf32> {
  %x0 = relay.exp %in : (tensor<512x512xf32>)
  %x1 = relay.tanh %x0 : (tensor<512x512xf32>)
  %x2 = relay.sigmoid %in : (tensor<512x512xf32>)
  // expected-note @+1 {{peak reached here}}
  %x3 = relay.multiply %x1, %x2 : (tensor<512x512xf32>, tensor<512x512xf32>)
  %x4 = relay.add %x3, %x0 : (tensor<512x512xf32>, tensor<512x512xf32>)
  return %x4 : tensor<512x512xf32>
}

// CHECK-LABEL: // liveness of @e6 (steps 0..5
// CHECK: %arg0 0 5 1048576 parameter
// CHECK: %0 0 4 1048576 intermediate
// CHECK: %1 1 3 1048576 intermediate
// CHECK: %2 2 3 1048576 intermediate
// CHECK: %3 3 4 1048576 intermediate
// CHECK: %4 4 5 1048576 result
// CHECK-LABEL: // memory trace of @e6 (parameters 1048576 bytes)
// CHECK: 0 relay.exp 1048576 0 2097152
// CHECK: 1 relay.tanh 1048576 0 3145728
// CHECK: 2 relay.sigmoid 1048576 0 4194304
// CHECK: 3 relay.multiply 1048576 2097152 5242880 <- peak
// CHECK: 4 relay.add 1048576 2097152 4194304

// Tuples alias their fields: the tuple and tuple_get allocate nothing, and
// %a stays live until its alias %g is last used. Live bytes (f32 4x4 = 64):
// step 0 (%a): 64 + 64; 1 (%b): 192; 2 (tuple): 192; 3 (%u, unused):
// 256, released right after; 4 (tuple_get): 192, %b dies; 5 (%c): 192.
// expected-remark @+1 {{@tuples: peak 256 bytes (0.00 MiB) at step 3 of 6 (relay.negative); parameters 64 bytes (0.00 MiB); 5 buffers}}
func.func @tuples(%x: tensor<4x4xf32>) -> tensor<4x4xf32> {
  %a = relay.exp %x : (tensor<4x4xf32>)
  %b = relay.tanh %x : (tensor<4x4xf32>)
  %t = relay.tuple(%a, %b) : tensor<4x4xf32>, tensor<4x4xf32>
  // expected-note @+1 {{peak reached here}}
  %u = relay.negative %x : (tensor<4x4xf32>)
  %g = relay.tuple_get %t[0] : tuple<tensor<4x4xf32>, tensor<4x4xf32>>
  %c = relay.add %g, %x : (tensor<4x4xf32>, tensor<4x4xf32>)
  return %c : tensor<4x4xf32>
}

// A function without ops peaks at its parameters.
// expected-remark @+1 {{@identity: peak 16 bytes (0.00 MiB) at entry (parameters only), 0 steps; parameters 16 bytes (0.00 MiB); 1 buffers}}
func.func @identity(%x: tensor<4xf32>) -> tensor<4xf32> {
  return %x : tensor<4xf32>
}

// Calls are not modelled: the callee's memory belongs to another frame.
// expected-warning @+1 {{@caller: not traced: calls are not modelled (run --inline first)}}
func.func @caller(%x: tensor<4xf32>) -> tensor<4xf32> {
  // expected-note @+1 {{at this op}}
  %y = func.call @identity(%x) : (tensor<4xf32>) -> tensor<4xf32>
  return %y : tensor<4xf32>
}

// Dynamic shapes have no size.
// expected-warning @+1 {{@dynamic: not traced: a parameter has a dynamic shape or an unsupported element type}}
func.func @dynamic(%x: tensor<?xf32>) -> tensor<?xf32> {
  return %x : tensor<?xf32>
}
