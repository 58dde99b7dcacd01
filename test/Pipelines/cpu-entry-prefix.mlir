// --raf-cpu-pipeline="entry-prefix=raf_" exports the public functions as
// raf_<name> (and _mlir_ciface_raf_<name>), so that an object compiled from a
// module whose entry is @main links into a C program with its own main.
// RUN: rm -rf %t && split-file %s %t
// RUN: raf-opt %t/program.mlir --raf-cpu-pipeline="entry-prefix=raf_" -o %t/prefixed.mlir
// RUN: FileCheck %s < %t/prefixed.mlir
// CHECK-DAG: llvm.func @raf_main(
// CHECK-DAG: llvm.func @_mlir_ciface_raf_main(
// CHECK-DAG: llvm.call @raf_helper(
// CHECK-NOT: llvm.func @main(
// RUN: raf-translate --mlir-to-llvmir %t/prefixed.mlir -o %t/prefixed.ll
// RUN: llc -filetype=obj -relocation-model=pic %t/prefixed.ll -o %t/prefixed.o
// RUN: cc %S/Inputs/entry_prefix_main.c %t/prefixed.o -o %t/program
// RUN: %t/program | FileCheck %s --check-prefix=PROGRAM
// PROGRAM: y = 2 6 12 20

// Without the prefix the compiled @main is the symbol main, and the same
// program does not link (two definitions of main).
// RUN: raf-opt %t/program.mlir --raf-cpu-pipeline -o %t/plain.mlir
// RUN: raf-translate --mlir-to-llvmir %t/plain.mlir -o %t/plain.ll
// RUN: llc -filetype=obj -relocation-model=pic %t/plain.ll -o %t/plain.o
// RUN: not cc %S/Inputs/entry_prefix_main.c %t/plain.o -o %t/clash 2>&1 | FileCheck %s --check-prefix=CLASH
// CLASH: multiple definition of {{.*}}main

// raf-run compiles with the same option and calls the prefixed entry.
// RUN: %python -c "import numpy as np; np.save('%t/x.npy', np.array([1, 2, 3, 4], np.float32))"
// RUN: raf-run %t/program.mlir --target=cpu --pipeline-options="entry-prefix=raf_" --input=%t/x.npy --output=%t/y.npy
// RUN: %python -c "import numpy as np; x = np.load('%t/x.npy'); np.testing.assert_allclose(np.load('%t/y.npy'), x * x + x); print('match')" | FileCheck %s --check-prefix=EXEC
// EXEC: match

// A prefixed name another symbol of the module already has is an error.
// RUN: raf-opt %t/clash.mlir --raf-prefix-entry-points="prefix=raf_" -verify-diagnostics -o /dev/null

//--- program.mlir
func.func @main(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = func.call @helper(%x) : (tensor<4xf32>) -> tensor<4xf32>
  %1 = relay.add %0, %x : (tensor<4xf32>, tensor<4xf32>)
  return %1 : tensor<4xf32>
}

func.func @helper(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = relay.multiply %x, %x : (tensor<4xf32>, tensor<4xf32>)
  return %0 : tensor<4xf32>
}

//--- clash.mlir
// expected-error @+1 {{cannot export @main as @raf_main: the module has a symbol of that name}}
func.func @main(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = func.call @raf_main(%x) : (tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// expected-note @+1 {{@raf_main is here}}
func.func private @raf_main(%x: tensor<4xf32>) -> tensor<4xf32> {
  return %x : tensor<4xf32>
}
