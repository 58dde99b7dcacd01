// RUN: raf-opt %s --raf-memory-report --mlir-print-op-on-diagnostic=false -verify-diagnostics -o /dev/null
// RUN: sed 's|// expected-.*||' %s | raf-opt --raf-memory-report="inplace-update=0" --mlir-print-op-on-diagnostic=false -o /dev/null 2>&1 | FileCheck %s --check-prefix=COPY
// RUN: sed 's|// expected-.*||' %s | raf-opt --raf-memory-report="entry=sgd tensors=1" --mlir-print-op-on-diagnostic=false -o /dev/null 2>&1 | FileCheck %s --check-prefix=TENSORS

// In-place updates (RAF's InplaceUpdate): a result carrying raf.updates_arg
// lives in its argument's buffer when the argument is not read after the
// result's op, or only by that op when it is element-wise. 256x256xf32 is
// 256 KiB = 262144 bytes.

// SGD: w' = w - lr*g. In place: w and g (512 KiB) plus lr*g (256 KiB); the
// subtract writes into w. Without: w' is a fourth 256 KiB buffer (the
// constant is dead by then).
// expected-remark @+1 {{@sgd: peak 786436 bytes (0.75 MiB) at step 1 of 3 (relay.multiply); parameters 524288 bytes (0.50 MiB); 5 buffers; updated in place 262144 bytes (0.25 MiB)}}
func.func @sgd(%w: tensor<256x256xf32> {raf.updatable}, %g: tensor<256x256xf32>)
    -> (tensor<256x256xf32> {raf.updates_arg = 0 : i64}) {
  %lr = relay.constant dense<1.0e-01> : tensor<f32>
  // expected-note @+1 {{peak reached here}}
  %d = relay.multiply %lr, %g : (tensor<f32>, tensor<256x256xf32>)
  %n = relay.subtract %w, %d : (tensor<256x256xf32>, tensor<256x256xf32>)
  return %n : tensor<256x256xf32>
}
// COPY: @sgd: peak 1048576 bytes (1.00 MiB) at step 2 of 3 (relay.subtract); parameters 524288 bytes (0.50 MiB); 5 buffers{{$}}
// TENSORS: %arg0{{ +}}0{{ +}}3{{ +}}262144  parameter
// TENSORS: %2{{ +}}2{{ +}}3{{ +}}262144  result (in place of %arg0)

// The argument is read by the result's op, which is not element-wise: the
// transpose cannot overwrite its own input, so nothing is in place.
// expected-remark @+1 {{@transposed: peak 524288 bytes (0.50 MiB) at step 0 of 1 (relay.transpose); parameters 262144 bytes (0.25 MiB); 2 buffers}}
func.func @transposed(%w: tensor<256x256xf32> {raf.updatable})
    -> (tensor<256x256xf32> {raf.updates_arg = 0 : i64}) {
  // expected-note @+1 {{peak reached here}}
  %n = relay.transpose %w {axes = array<i64: 1, 0>} : (tensor<256x256xf32>)
  return %n : tensor<256x256xf32>
}

// The argument is read after the new value exists (by %u): not in place.
// expected-remark @+1 {{@read_after: peak 1048576 bytes (1.00 MiB) at step 1 of 2 (relay.add); parameters 524288 bytes (0.50 MiB); 4 buffers}}
func.func @read_after(%w: tensor<256x256xf32> {raf.updatable}, %g: tensor<256x256xf32>)
    -> (tensor<256x256xf32> {raf.updates_arg = 0 : i64}, tensor<256x256xf32>) {
  %n = relay.negative %g : (tensor<256x256xf32>)
  // expected-note @+1 {{peak reached here}}
  %u = relay.add %w, %n : (tensor<256x256xf32>, tensor<256x256xf32>)
  return %n, %u : tensor<256x256xf32>, tensor<256x256xf32>
}

// The argument is returned unchanged as well: writing it would change that
// result, so nothing is in place.
// expected-remark @+1 {{@returned_too: peak 524288 bytes (0.50 MiB) at step 0 of 1 (relay.negative); parameters 262144 bytes (0.25 MiB); 2 buffers}}
func.func @returned_too(%w: tensor<256x256xf32> {raf.updatable})
    -> (tensor<256x256xf32> {raf.updates_arg = 0 : i64}, tensor<256x256xf32>) {
  // expected-note @+1 {{peak reached here}}
  %n = relay.negative %w : (tensor<256x256xf32>)
  return %n, %w : tensor<256x256xf32>, tensor<256x256xf32>
}
