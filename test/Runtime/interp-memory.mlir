// raf-run --target=interp --print-peak-memory / --print-memory-trace: the
// live tensor bytes the evaluator measures, against values worked out by
// hand from the memory model of docs/reference-evaluator.md (arguments live
// throughout; each operator result is a fresh buffer released after its last
// use in block order; tuples, tuple_get and returns alias; results live until
// the return).
// RUN: rm -rf %t && mkdir -p %t
// RUN: %python -c "import numpy as np; np.save('%t/u.npy', np.linspace(-1, 1, 4096, dtype=np.float32).reshape(64, 64)); np.save('%t/true.npy', np.array(True)); np.save('%t/false.npy', np.array(False))"

// 1 MiB per 512x512xf32 tensor.
// RUN: raf-run %s --entry=f --target=interp --print-peak-memory --print-memory-trace | FileCheck %s --check-prefix=F
// RUN: raf-run %s --entry=f_remat --target=interp --print-peak-memory | FileCheck %s --check-prefix=REMAT

// U = 64x64xf32 = 16384 bytes below.
// RUN: raf-run %s --entry=tuples --target=interp --print-peak-memory --print-memory-trace | FileCheck %s --check-prefix=TUPLES
// RUN: raf-run %s --entry=unused --target=interp --print-peak-memory --print-memory-trace | FileCheck %s --check-prefix=UNUSED
// RUN: raf-run %s --entry=returned --target=interp --print-peak-memory --print-memory-trace | FileCheck %s --check-prefix=RETURNED
// The peak lines of these are checked on their own (prefixes *-PEAK) since
// the op they name lies before the trace's ops in this file.
// RUN: raf-run %s --entry=branch --target=interp --input=%t/u.npy --input=%t/true.npy --print-peak-memory --print-memory-trace > %t/then.txt
// RUN: FileCheck %s --check-prefix=THEN < %t/then.txt
// RUN: FileCheck %s --check-prefix=THEN-PEAK < %t/then.txt
// RUN: raf-run %s --entry=branch --target=interp --input=%t/u.npy --input=%t/false.npy --print-peak-memory --print-memory-trace > %t/else.txt
// RUN: FileCheck %s --check-prefix=ELSE < %t/else.txt
// RUN: FileCheck %s --check-prefix=ELSE-PEAK < %t/else.txt
// RUN: raf-run %s --entry=branch_unused --target=interp --input=%t/u.npy --input=%t/true.npy --print-peak-memory --print-memory-trace > %t/unused-then.txt
// RUN: FileCheck %s --check-prefix=IF-UNUSED < %t/unused-then.txt
// RUN: FileCheck %s --check-prefix=IF-UNUSED-PEAK < %t/unused-then.txt
// RUN: raf-run %s --entry=branch_unused --target=interp --input=%t/u.npy --input=%t/false.npy --print-peak-memory --print-memory-trace | FileCheck %s --check-prefix=IF-UNUSED
// RUN: raf-run %s --entry=caller --target=interp --print-peak-memory --print-memory-trace > %t/call.txt
// RUN: FileCheck %s --check-prefix=CALL < %t/call.txt
// RUN: FileCheck %s --check-prefix=CALL-PEAK < %t/call.txt
// RUN: raf-run %s --entry=identity --target=interp --print-peak-memory | FileCheck %s --check-prefix=IDENTITY

// Tracking does not change results.
// RUN: raf-run %s --entry=f --target=interp --output=%t/f0.npy
// RUN: raf-run %s --entry=f --target=interp --print-peak-memory --print-memory-trace --output=%t/f1.npy
// RUN: cmp %t/f0.npy %t/f1.npy
// RUN: raf-run %s --entry=tuples --target=interp --output=%t/t0.npy
// RUN: raf-run %s --entry=tuples --target=interp --print-peak-memory --output=%t/t1.npy
// RUN: cmp %t/t0.npy %t/t1.npy
// RUN: raf-run %s --entry=branch --target=interp --input=%t/u.npy --input=%t/true.npy --output=%t/b0.npy
// RUN: raf-run %s --entry=branch --target=interp --input=%t/u.npy --input=%t/true.npy --print-memory-trace --output=%t/b1.npy
// RUN: cmp %t/b0.npy %t/b1.npy
// RUN: raf-run %s --entry=caller --target=interp --output=%t/c0.npy --output=%t/c1.npy
// RUN: raf-run %s --entry=caller --target=interp --print-peak-memory --output=%t/c2.npy --output=%t/c3.npy
// RUN: cmp %t/c0.npy %t/c2.npy
// RUN: cmp %t/c1.npy %t/c3.npy

// Only the first of --repeat's calls is measured; the report is printed once.
// RUN: raf-run %s --entry=f_remat --target=interp --repeat=2 --print-peak-memory | FileCheck %s --check-prefix=REPEAT
// REPEAT: timing: runs=2
// REPEAT: peak live buffer bytes: 4194304 (4.00 MiB) at
// REPEAT-NOT: peak live buffer bytes

// The compiled code's buffers are not observable: an error, exit code 1.
// RUN: not raf-run %s --entry=f --target=cpu --print-peak-memory 2>&1 | FileCheck %s --check-prefix=CPU
// RUN: not raf-run %s --entry=f --print-memory-trace 2>&1 | FileCheck %s --check-prefix=CPU
// CPU: interp-memory.mlir:0:0: error: --print-peak-memory and --print-memory-trace measure the reference evaluator's buffers; use them with --target=interp
// CPU-NOT: result #0

// At %x3: in, x0 (used by x4), x1, x2 (last used here, dropped after the
// sample) and x3.
// F:      result #0: tensor<512x512xf32>
func.func @f(%in: tensor<512x512xf32>) -> tensor<512x512xf32> {
  // F: memory-trace: 0 relay.exp {{.*}}interp-memory.mlir:[[#@LINE+1]]:9 2097152
  %x0 = relay.exp %in : (tensor<512x512xf32>)
  // F-NEXT: memory-trace: 1 relay.tanh {{.*}}interp-memory.mlir:[[#@LINE+1]]:9 3145728
  %x1 = relay.tanh %x0 : (tensor<512x512xf32>)
  // F-NEXT: memory-trace: 2 relay.sigmoid {{.*}}interp-memory.mlir:[[#@LINE+1]]:9 4194304
  %x2 = relay.sigmoid %in : (tensor<512x512xf32>)
  // F-NEXT: memory-trace: 3 relay.multiply {{.*}}interp-memory.mlir:[[#MUL:@LINE+1]]:9 5242880
  %x3 = relay.multiply %x1, %x2 : (tensor<512x512xf32>, tensor<512x512xf32>)
  // F-NEXT: memory-trace: 4 relay.add {{.*}}interp-memory.mlir:[[#@LINE+1]]:9 4194304
  %x4 = relay.add %x3, %x0 : (tensor<512x512xf32>, tensor<512x512xf32>)
  return %x4 : tensor<512x512xf32>
}
// F-NEXT: peak live buffer bytes: 5242880 (5.00 MiB) at {{.*}}interp-memory.mlir:[[#MUL]]:9
// F-NOT: {{.}}

// Recomputing x0 just before x4 frees the first x0 after x1: 4 MiB, reached
// first at x3 (in, x1, x2, x3).
func.func @f_remat(%in: tensor<512x512xf32>) -> tensor<512x512xf32> {
  %x0 = relay.exp %in : (tensor<512x512xf32>)
  %x1 = relay.tanh %x0 : (tensor<512x512xf32>)
  %x2 = relay.sigmoid %in : (tensor<512x512xf32>)
  // REMAT: peak live buffer bytes: 4194304 (4.00 MiB) at {{.*}}interp-memory.mlir:[[#@LINE+1]]:9
  %x3 = relay.multiply %x1, %x2 : (tensor<512x512xf32>, tensor<512x512xf32>)
  %x0_r = relay.exp %in : (tensor<512x512xf32>)
  %x4 = relay.add %x3, %x0_r : (tensor<512x512xf32>, tensor<512x512xf32>)
  return %x4 : tensor<512x512xf32>
}

// Tuples and projections share their fields' buffers: a buffer reached
// through several values counts once.
func.func @tuples(%in: tensor<64x64xf32>) -> tensor<64x64xf32> {
  // in a: 2U
  // TUPLES: memory-trace: 0 relay.exp {{.*}} 32768
  %a = relay.exp %in : (tensor<64x64xf32>)
  // in a b: 3U
  // TUPLES-NEXT: memory-trace: 1 relay.negative {{.*}} 49152
  %b = relay.negative %in : (tensor<64x64xf32>)
  // TUPLES-NEXT: memory-trace: 2 relay.tuple {{.*}} 49152
  %t = relay.tuple(%a, %b) : tensor<64x64xf32>, tensor<64x64xf32>
  // TUPLES-NEXT: memory-trace: 3 relay.tuple_get {{.*}} 49152
  %a2 = relay.tuple_get %t[0] : tuple<tensor<64x64xf32>, tensor<64x64xf32>>
  // A field twice and a nested tuple.
  // TUPLES-NEXT: memory-trace: 4 relay.tuple {{.*}} 49152
  %p = relay.tuple(%t, %a2, %a2) : tuple<tensor<64x64xf32>, tensor<64x64xf32>>, tensor<64x64xf32>, tensor<64x64xf32>
  // TUPLES-NEXT: memory-trace: 5 relay.tuple_get {{.*}} 49152
  %q = relay.tuple_get %p[0] : tuple<tuple<tensor<64x64xf32>, tensor<64x64xf32>>, tensor<64x64xf32>, tensor<64x64xf32>>
  // TUPLES-NEXT: memory-trace: 6 relay.tuple_get {{.*}} 49152
  %b2 = relay.tuple_get %q[1] : tuple<tensor<64x64xf32>, tensor<64x64xf32>>
  // in a b c: 4U; then a2 and b2, the last holders of a and b, go.
  // TUPLES-NEXT: memory-trace: 7 relay.add {{.*}}interp-memory.mlir:[[#ADD:@LINE+1]]:8 65536
  %c = relay.add %a2, %b2 : (tensor<64x64xf32>, tensor<64x64xf32>)
  // in c d: 3U
  // TUPLES-NEXT: memory-trace: 8 relay.exp {{.*}} 49152
  %d = relay.exp %c : (tensor<64x64xf32>)
  return %d : tensor<64x64xf32>
}
// TUPLES-NEXT: peak live buffer bytes: 65536 (0.06 MiB) at {{.*}}interp-memory.mlir:[[#ADD]]:8

// An unused result is allocated and released right after its op.
func.func @unused(%in: tensor<64x64xf32>) -> tensor<64x64xf32> {
  // UNUSED: memory-trace: 0 relay.exp {{.*}} 32768
  %a = relay.exp %in : (tensor<64x64xf32>)
  // in a u: 3U, then u goes.
  // UNUSED-NEXT: memory-trace: 1 relay.tanh {{.*}}interp-memory.mlir:[[#TANH:@LINE+1]]:8 49152
  %u = relay.tanh %a : (tensor<64x64xf32>)
  // in a b: 3U (4U if u were kept).
  // UNUSED-NEXT: memory-trace: 2 relay.exp {{.*}} 49152
  %b = relay.exp %a : (tensor<64x64xf32>)
  return %b : tensor<64x64xf32>
}
// UNUSED-NEXT: peak live buffer bytes: 49152 (0.05 MiB) at {{.*}}interp-memory.mlir:[[#TANH]]:8

// A returned value stays live until the function returns.
func.func @returned(%in: tensor<64x64xf32>) -> (tensor<64x64xf32>, tensor<64x64xf32>) {
  // RETURNED: memory-trace: 0 relay.exp {{.*}} 32768
  %r = relay.exp %in : (tensor<64x64xf32>)
  // RETURNED-NEXT: memory-trace: 1 relay.tanh {{.*}} 49152
  %a = relay.tanh %in : (tensor<64x64xf32>)
  // in r a b: 4U
  // RETURNED-NEXT: memory-trace: 2 relay.negative {{.*}}interp-memory.mlir:[[#NEG:@LINE+1]]:8 65536
  %b = relay.negative %a : (tensor<64x64xf32>)
  // in r b c: 4U, r included.
  // RETURNED-NEXT: memory-trace: 3 relay.exp {{.*}} 65536
  %c = relay.exp %b : (tensor<64x64xf32>)
  return %r, %c : tensor<64x64xf32>, tensor<64x64xf32>
}
// RETURNED-NEXT: peak live buffer bytes: 65536 (0.06 MiB) at {{.*}}interp-memory.mlir:[[#NEG]]:8

// A use inside a branch is a use by the relay.if: a and b live until the if
// has run. The condition is 1 byte. Ops inside the branch are sampled (the
// peak may lie there) but only top-level ops are traced.
func.func @branch(%in: tensor<64x64xf32>, %cond: tensor<i1>) -> tensor<64x64xf32> {
  // THEN: memory-trace: 0 relay.exp {{.*}} 32769
  // ELSE: memory-trace: 0 relay.exp {{.*}} 32769
  %a = relay.exp %in : (tensor<64x64xf32>)
  // THEN-NEXT: memory-trace: 1 relay.tanh {{.*}} 49153
  // ELSE-NEXT: memory-trace: 1 relay.tanh {{.*}} 49153
  %b = relay.tanh %in : (tensor<64x64xf32>)
  // After the if: in cond a b r (r aliases the branch's result).
  // THEN-NEXT: memory-trace: 2 relay.if {{.*}} 65537
  // ELSE-NEXT: memory-trace: 2 relay.if {{.*}} 65537
  %r = relay.if %cond : tensor<i1> -> (tensor<64x64xf32>) {
    // in cond a b s: 4U + 1
    %s = relay.multiply %a, %b : (tensor<64x64xf32>, tensor<64x64xf32>)
    // in cond a b s t: 5U + 1, then s goes.
    // THEN-PEAK: peak live buffer bytes: 81921 (0.08 MiB) at {{.*}}interp-memory.mlir:[[#@LINE+1]]:10
    %t = relay.exp %s : (tensor<64x64xf32>)
    relay.yield %t : tensor<64x64xf32>
  } else {
    // in cond a b s: 4U + 1
    // ELSE-PEAK: peak live buffer bytes: 65537 (0.06 MiB) at {{.*}}interp-memory.mlir:[[#@LINE+1]]:10
    %s = relay.negative %a : (tensor<64x64xf32>)
    relay.yield %s : tensor<64x64xf32>
  }
  // in cond r d: 3U + 1
  // THEN-NEXT: memory-trace: 3 relay.exp {{.*}} 49153
  // ELSE-NEXT: memory-trace: 3 relay.exp {{.*}} 49153
  %d = relay.exp %r : (tensor<64x64xf32>)
  return %d : tensor<64x64xf32>
}
// THEN-NEXT: peak live buffer bytes
// ELSE-NEXT: peak live buffer bytes

// The values a branch defines go with it, even when the if's result (which
// aliases them) is unused.
func.func @branch_unused(%in: tensor<64x64xf32>, %cond: tensor<i1>) -> tensor<64x64xf32> {
  // in cond r: 2U + 1, then r goes.
  // IF-UNUSED: memory-trace: 0 relay.if {{.*}} 32769
  %r = relay.if %cond : tensor<i1> -> (tensor<64x64xf32>) {
    // IF-UNUSED-PEAK: peak live buffer bytes: 32769 (0.03 MiB) at {{.*}}interp-memory.mlir:[[#@LINE+1]]:10
    %s = relay.exp %in : (tensor<64x64xf32>)
    relay.yield %s : tensor<64x64xf32>
  } else {
    %s = relay.negative %in : (tensor<64x64xf32>)
    relay.yield %s : tensor<64x64xf32>
  }
  // in cond d: 2U + 1 (3U + 1 if s stayed behind).
  // IF-UNUSED-NEXT: memory-trace: 1 relay.tanh {{.*}} 32769
  %d = relay.tanh %in : (tensor<64x64xf32>)
  return %d : tensor<64x64xf32>
}
// IF-UNUSED-NEXT: peak live buffer bytes: 32769 (0.03 MiB)

// Every active activation counts: inside @callee, the caller's values are
// still held.
func.func @callee(%x: tensor<64x64xf32>) -> tensor<64x64xf32> {
  // in p a: 3U
  %a = relay.exp %x : (tensor<64x64xf32>)
  // in p a b: 4U
  // CALL-PEAK: peak live buffer bytes: 65536 (0.06 MiB) at {{.*}}interp-memory.mlir:[[#@LINE+1]]:8
  %b = relay.tanh %a : (tensor<64x64xf32>)
  return %b : tensor<64x64xf32>
}
func.func @caller(%in: tensor<64x64xf32>) -> (tensor<64x64xf32>, tensor<64x64xf32>) {
  // CALL: memory-trace: 0 relay.exp {{.*}} 32768
  %p = relay.exp %in : (tensor<64x64xf32>)
  // in p q: 3U (the callee's a is gone with its frame).
  // CALL-NEXT: memory-trace: 1 func.call {{.*}} 49152
  %q = func.call @callee(%p) : (tensor<64x64xf32>) -> tensor<64x64xf32>
  // in q r: 3U
  // CALL-NEXT: memory-trace: 2 relay.add {{.*}} 49152
  %r = relay.add %q, %in : (tensor<64x64xf32>, tensor<64x64xf32>)
  // CALL-NEXT: memory-trace: 3 relay.tuple {{.*}} 49152
  %t = relay.tuple(%r, %q) : tensor<64x64xf32>, tensor<64x64xf32>
  %r2 = relay.tuple_get %t[0] : tuple<tensor<64x64xf32>, tensor<64x64xf32>>
  %q2 = relay.tuple_get %t[1] : tuple<tensor<64x64xf32>, tensor<64x64xf32>>
  return %r2, %q2 : tensor<64x64xf32>, tensor<64x64xf32>
}
// CALL:      memory-trace: 4 relay.tuple_get
// CALL-NEXT: memory-trace: 5 relay.tuple_get {{.*}} 49152
// CALL-NEXT: peak live buffer bytes

// No op allocates: the peak is the arguments at entry, located at the
// function.
// IDENTITY: peak live buffer bytes: 16384 (0.02 MiB) at {{.*}}interp-memory.mlir:[[#@LINE+1]]:1
func.func @identity(%in: tensor<64x64xf32>) -> tensor<64x64xf32> {
  %t = relay.tuple(%in) : tensor<64x64xf32>
  %x = relay.tuple_get %t[0] : tuple<tensor<64x64xf32>>
  return %x : tensor<64x64xf32>
}
