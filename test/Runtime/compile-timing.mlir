// raf-run --target=cpu reports where its compile time goes: --mlir-timing
// times the passes of the CPU pipeline, --time-passes LLVM's, the optimiser
// (-O3, run by the JIT) as well as code generation. A loop the optimiser
// vectorises makes LoopVectorizePass appear. With the module loaded from the
// compile cache nothing is compiled, so there is no report.
// RUN: rm -rf %t && mkdir -p %t
// RUN: raf-run %s --target=cpu --seed=1 --compile-cache=%t/cache --mlir-timing --mlir-timing-display=list --time-passes 2>&1 | FileCheck %s
// RUN: raf-run %s --target=cpu --seed=1 --compile-cache=%t/cache --mlir-timing --time-passes 2>&1 | FileCheck %s --check-prefix=CACHED
// -O3's CalledValuePropagationPass, which only annotates indirect calls, is
// skipped on a module that has none; the inliner (also module-level, and
// not skipped) still appears.
// RUN: raf-run %s --target=cpu --seed=1 --no-compile-cache --time-passes 2>&1 | FileCheck %s --check-prefix=SKIPPED
// SKIPPED-NOT: CalledValuePropagationPass
// SKIPPED: Pass execution timing report
// SKIPPED-NOT: CalledValuePropagationPass
// SKIPPED: InlinerPass
// SKIPPED-NOT: CalledValuePropagationPass
// CHECK-DAG: Execution time report
// CHECK-DAG: RafShareKernels
// CHECK-DAG: ConvertFuncToLLVMPass
// CHECK-DAG: Pass execution timing report
// CHECK-DAG: LoopVectorizePass
// CHECK-DAG: Instruction Selection
// CACHED-NOT: Execution time report
// CACHED-NOT: LoopVectorizePass
func.func @main(%x: tensor<1000xf32>, %y: tensor<1000xf32>) -> tensor<1000xf32> {
  %0 = relay.add %x, %y : (tensor<1000xf32>, tensor<1000xf32>)
  %1 = relay.multiply %0, %x : (tensor<1000xf32>, tensor<1000xf32>)
  return %1 : tensor<1000xf32>
}
