// An intermediate larger than memory (or than --max-allocation-bytes) is a
// located error on both targets, before anything is allocated: not an abort
// in the evaluator nor a write through a failed allocation in compiled code.
// RUN: not raf-run %s --entry=huge --target=interp 2>&1 | FileCheck %s --check-prefix=INTERP
// RUN: not raf-run %s --entry=huge --target=cpu 2>&1 | FileCheck %s --check-prefix=CPU
// RUN: not raf-run %s --entry=small --target=interp --max-allocation-bytes=1000 2>&1 | FileCheck %s --check-prefix=LIMIT-INTERP
// RUN: not raf-run %s --entry=small --target=cpu --max-allocation-bytes=1000 2>&1 | FileCheck %s --check-prefix=LIMIT-CPU
// RUN: raf-run %s --entry=small --target=cpu --max-allocation-bytes=2048 | FileCheck %s --check-prefix=FITS
// Compiled code checks again when it allocates: the 1024-byte buffer passes
// the compile-time check, but with its alignment padding asks for 1088.
// RUN: not raf-run %s --entry=small --target=cpu --max-allocation-bytes=1050 2>&1 | FileCheck %s --check-prefix=RUNTIME
// RUNTIME: error: compiled code cannot allocate 1088 bytes: 1088 bytes exceed the allocation limit of 1050 bytes (--max-allocation-bytes)

// INTERP: allocation-limit.mlir:[[# @LINE + 7]]:8: error: cannot allocate result #0: tensor<65536x65536x16xf32>: 274877906944 bytes exceed the allocation limit of {{[0-9]+}} bytes (this machine's physical memory)
// CPU: allocation-limit.mlir:[[# @LINE + 6]]:8: error: cannot allocate a buffer of type 'memref<65536x65536x16xf32>': 274877906944 bytes exceed the allocation limit
// CPU: error: compiling for the CPU failed
// LIMIT-INTERP: allocation-limit.mlir:[[# @LINE + 10]]:8: error: cannot allocate result #0: tensor<16x16xf32>: 1024 bytes exceed the allocation limit of 1000 bytes (--max-allocation-bytes)
// LIMIT-CPU: allocation-limit.mlir:[[# @LINE + 9]]:8: error: cannot allocate a buffer of type 'memref<16x16xf32>': 1024 bytes exceed the allocation limit of 1000 bytes (--max-allocation-bytes)
// FITS: result #0: tensor<f32>
func.func @huge(%x: tensor<1xf32>) -> tensor<f32> {
  %b = relay.broadcast_to %x {shape = array<i64: 65536, 65536, 16>} : (tensor<1xf32>) -> tensor<65536x65536x16xf32>
  %s = relay.sum %b : (tensor<65536x65536x16xf32>) -> tensor<f32>
  return %s : tensor<f32>
}

func.func @small(%x: tensor<16xf32>) -> tensor<f32> {
  %b = relay.broadcast_to %x {shape = array<i64: 16, 16>} : (tensor<16xf32>) -> tensor<16x16xf32>
  %e = relay.exp %b : (tensor<16x16xf32>) -> tensor<16x16xf32>
  %s = relay.sum %e : (tensor<16x16xf32>) -> tensor<f32>
  return %s : tensor<f32>
}
