// --raf-cpu-pipeline names the conversion an op of a dialect it does not
// lower needs, at the op, before any pass runs (bufferization used to say
// only "op was not bufferized").
// RUN: rm -rf %t && split-file %s %t
// RUN: raf-opt %t/tosa.mlir -verify-diagnostics --raf-cpu-pipeline
// RUN: raf-opt %t/other.mlir -verify-diagnostics --raf-cpu-pipeline
// RUN: raf-opt %t/other.mlir -verify-diagnostics --raf-check-foreign-ops
// After the conversion it names, the TOSA function compiles.
// RUN: raf-opt %t/tosa.mlir --convert-tosa-to-relay --raf-cpu-pipeline | FileCheck %s --check-prefix=TOSA
// TOSA: llvm.func @tosa
// `allow` accepts dialects the caller lowers itself.
// RUN: raf-opt %t/other.mlir --raf-check-foreign-ops="allow=shape,complex" -o /dev/null

//--- tosa.mlir
func.func @tosa(%x: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{tosa.abs: no conversion to relay/linalg in this pipeline; run --convert-tosa-to-relay first (2 tosa ops)}}
  %0 = tosa.abs %x : (tensor<4xf32>) -> tensor<4xf32>
  %1 = tosa.exp %0 : (tensor<4xf32>) -> tensor<4xf32>
  %2 = relay.exp %1 : (tensor<4xf32>)
  return %2 : tensor<4xf32>
}

//--- other.mlir
// A dialect without a known conversion gets the generic message; every
// foreign dialect is reported once, at its first op.
func.func @complex(%x: complex<f32>, %s: tensor<2xindex>) -> f32 {
  // expected-error @+1 {{complex.abs: no conversion to relay/linalg in this pipeline; convert the 'complex' dialect to relay, tcg or linalg on tensors first}}
  %0 = complex.abs %x : complex<f32>
  // expected-error @+1 {{shape.num_elements: no conversion to relay/linalg in this pipeline; run --convert-shape-to-std first}}
  %1 = shape.num_elements %s : tensor<2xindex> -> index
  %2 = complex.abs %x : complex<f32>
  return %0 : f32
}
