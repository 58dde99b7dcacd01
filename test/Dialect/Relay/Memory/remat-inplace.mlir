// --raf-rematerialize models in-place updates as --raf-memory-report does
// (inplace-update, default on: RAF's InplaceUpdate, what --target=cpu
// does): an updated parameter is counted once.
// RUN: raf-opt %s --raf-rematerialize="budget=4194320 entry=update" --mlir-print-op-on-diagnostic=false 2>&1 | FileCheck %s --check-prefix=INPLACE
// RUN: raf-opt %s --raf-rematerialize="budget=4194320 entry=update inplace-update=0" --mlir-print-op-on-diagnostic=false 2>&1 | FileCheck %s --check-prefix=COPY
// RUN: raf-opt %s --raf-rematerialize="budget=4194320 entry=update inplace-update=0" | raf-opt --raf-memory-report="entry=update inplace-update=0" --mlir-print-op-on-diagnostic=false 2>&1 | FileCheck %s --check-prefix=COPY-REPORT
// A clone never reads an argument after its in-place update.
// RUN: raf-opt %s -verify-diagnostics --raf-rematerialize="budget=3670016 entry=reads_updated" -o /dev/null

// @update, sizes in MiB: w, x, a, g and the new w are 1. With the update in
// place the peak is 4 (w, x, a, g at %g and at %nw, whose result goes
// into w's buffer): the budget of 4 MiB + 16 bytes holds without
// recomputation. Counting the new w as a buffer of its own, %nw holds 5:
// a is evicted and recomputed before %l.
// INPLACE-NOT: remark
// INPLACE: func.func @update(
// INPLACE-SAME: raf.remat.num_recomputed_ops = 0 : i64, raf.remat.peak_bytes = 4194304 : i64
// COPY: remark: @update: peak 5242880 bytes (5.00 MiB) -> 4194308 bytes (4.00 MiB) (budget 4194320 bytes (4.00 MiB)); 1 ops recomputed, 262144 FLOPs (raf)
// COPY: %[[NW:.*]] = relay.subtract %arg0
// COPY-NEXT: %[[A:.*]] = relay.exp %arg1 {raf.recomputed}
// COPY-NEXT: relay.sum %[[A]]
// COPY-REPORT: remark: @update: peak 4194308 bytes (4.00 MiB)
func.func @update(%w: tensor<512x512xf32> {raf.updatable}, %x: tensor<512x512xf32>)
    -> (tensor<f32>, tensor<512x512xf32> {raf.updates_arg = 0 : i64}) {
  %a = relay.exp %x : (tensor<512x512xf32>) -> tensor<512x512xf32>
  %g = relay.tanh %a : (tensor<512x512xf32>) -> tensor<512x512xf32>
  %nw = relay.subtract %w, %g : (tensor<512x512xf32>, tensor<512x512xf32>) -> tensor<512x512xf32>
  %l = relay.sum %a : (tensor<512x512xf32>) -> tensor<f32>
  return %l, %nw : tensor<f32>, tensor<512x512xf32>
}

// @reads_updated: a = exp(w) is read after %nw, which writes the new w
// into w's buffer; recomputing a there would read the new w. So a is not
// evicted, and 3.5 MiB (below the 4 MiB of w, x, a, g at %g) cannot be
// met: 4 MiB is the smallest budget (evicting a would give 3 MiB).
func.func @reads_updated(%w: tensor<512x512xf32> {raf.updatable}, %x: tensor<512x512xf32>)
    -> (tensor<f32>, tensor<512x512xf32> {raf.updates_arg = 0 : i64}) {
  %a = relay.exp %w : (tensor<512x512xf32>) -> tensor<512x512xf32>
  // expected-error @+1 {{the smallest budget method=raf reaches for @reads_updated is 4194304 bytes (4.00 MiB)}}
  %g = relay.tanh %x : (tensor<512x512xf32>) -> tensor<512x512xf32>
  %nw = relay.subtract %w, %g : (tensor<512x512xf32>, tensor<512x512xf32>) -> tensor<512x512xf32>
  %l = relay.sum %a : (tensor<512x512xf32>) -> tensor<f32>
  return %l, %nw : tensor<f32>, tensor<512x512xf32>
}
