// Upstream mlir-opt (MLIR 22) with RAF-MLIR as a plugin (libRAFPlugin.so,
// docs/ecosystem.md): it parses relay IR and runs our passes and pipelines,
// with the same results as raf-opt. Pass plugins are loaded after the command
// line is parsed, so their passes are named in --pass-pipeline.
// RUN: mlir-opt --load-dialect-plugin=%raf_obj_root/lib/RAFPlugin.so %s | FileCheck %s --check-prefix=PARSE
// RUN: mlir-opt --load-dialect-plugin=%raf_obj_root/lib/RAFPlugin.so --load-pass-plugin=%raf_obj_root/lib/RAFPlugin.so %s --pass-pipeline="builtin.module(convert-relay-to-linalg)" | FileCheck %s --check-prefix=LINALG
// RUN: mlir-opt --load-dialect-plugin=%raf_obj_root/lib/RAFPlugin.so --load-pass-plugin=%raf_obj_root/lib/RAFPlugin.so %s --pass-pipeline="builtin.module(raf-autodiff{inline-backward=true})" | FileCheck %s --check-prefix=GRAD

// The same passes give the same output in both tools.
// RUN: raf-opt --raf-autodiff=inline-backward=true --convert-relay-to-linalg %s > %t.raf-opt.mlir
// RUN: mlir-opt --load-dialect-plugin=%raf_obj_root/lib/RAFPlugin.so --load-pass-plugin=%raf_obj_root/lib/RAFPlugin.so %s --pass-pipeline="builtin.module(raf-autodiff{inline-backward=true},convert-relay-to-linalg)" > %t.mlir-opt.mlir
// RUN: diff %t.raf-opt.mlir %t.mlir-opt.mlir

// The whole CPU pipeline, down to the LLVM dialect.
// RUN: raf-opt --mlir-disable-threading --raf-cpu-pipeline %s > %t.raf-opt-llvm.mlir
// RUN: mlir-opt --mlir-disable-threading --load-dialect-plugin=%raf_obj_root/lib/RAFPlugin.so --load-pass-plugin=%raf_obj_root/lib/RAFPlugin.so %s --pass-pipeline="builtin.module(raf-cpu-pipeline)" > %t.mlir-opt-llvm.mlir
// RUN: diff %t.raf-opt-llvm.mlir %t.mlir-opt-llvm.mlir
// RUN: FileCheck %s --check-prefix=LLVM < %t.mlir-opt-llvm.mlir

// Pass errors are located errors and a failure in mlir-opt too (mlir-opt
// prints the module with a diagnostic unless told not to). Relay IR needs
// the dialect plugin as well as the pass plugin.
// RUN: not mlir-opt --mlir-print-op-on-diagnostic=false --load-dialect-plugin=%raf_obj_root/lib/RAFPlugin.so --load-pass-plugin=%raf_obj_root/lib/RAFPlugin.so %s --pass-pipeline="builtin.module(raf-autodiff{entry=nothing})" 2>&1 | FileCheck %s --check-prefix=ENTRY
// RUN: not mlir-opt --load-pass-plugin=%raf_obj_root/lib/RAFPlugin.so %s --pass-pipeline="builtin.module(raf-fuse)" 2>&1 | FileCheck %s --check-prefix=NODIALECT
// ENTRY: error: --raf-autodiff: no function @nothing with a body
// ENTRY-NOT: see current operation
// NODIALECT: mlir-opt-plugin.mlir:[[# @LINE + 25]]:8: error: Dialect `relay' not found for custom op 'relay.nn.dense'

// PARSE-LABEL: func.func @main(
// PARSE: relay.nn.dense %arg0, %arg1
// PARSE: relay.nn.relu

// LINALG-LABEL: func.func @main(
// LINALG-NOT: relay.
// LINALG: linalg.matmul
// LINALG: arith.maximumf

// The loss and its gradients with respect to x and w.
// GRAD-LABEL: func.func @main(
// GRAD-SAME: -> (tensor<f32>, tensor<4x8xf32>, tensor<16x8xf32>)
// GRAD: relay.nn.dense
// GRAD: relay.sum
// GRAD: relay.where
// GRAD: relay.nn.matmul
// GRAD: relay.nn.matmul {{.*}}transpose_a = true

// LLVM-NOT: = relay.
// LLVM: llvm.func @_mlir_ciface_main(
// LLVM-NOT: = relay.

func.func @main(%x: tensor<4x8xf32>, %w: tensor<16x8xf32>) -> tensor<f32> {
  %0 = relay.nn.dense %x, %w : (tensor<4x8xf32>, tensor<16x8xf32>)
  %1 = relay.nn.relu %0 : (tensor<4x16xf32>)
  %2 = relay.sum %1 : (tensor<4x16xf32>) -> tensor<f32>
  return %2 : tensor<f32>
}
