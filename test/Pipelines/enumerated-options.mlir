// Enumerated options of the pipelines and of --vta-schedule: a value they do
// not accept is an error when the pipeline or pass is created, naming the
// option and the accepted values (taken from the option's own cl::values),
// before any IR is read, and without printing the module.

// RUN: not raf-opt %s --raf-cpu-pipeline=blas=maybe -o /dev/null 2>&1 | FileCheck %s --check-prefix=BLAS
// RUN: not raf-opt %s --pass-pipeline='builtin.module(raf-cpu-pipeline{threads=2 blas=yes})' -o /dev/null 2>&1 | FileCheck %s --check-prefix=BLAS2
// BLAS: error: option 'blas' of raf-cpu-pipeline: unknown value 'maybe'; expected one of auto, on, off
// BLAS2: error: option 'blas' of raf-cpu-pipeline: unknown value 'yes'; expected one of auto, on, off
// BLAS-NOT: Cannot find option
// BLAS-NOT: func.func

// RUN: not raf-opt %s --raf-training-pipeline=amp=fp8 -o /dev/null 2>&1 | FileCheck %s --check-prefix=AMP
// AMP: error: option 'amp' of raf-training-pipeline: unknown value 'fp8'; expected one of none, f16, bf16
// RUN: not raf-opt %s --raf-training-pipeline=optimizer=lamb -o /dev/null 2>&1 | FileCheck %s --check-prefix=OPT
// OPT: error: option 'optimizer' of raf-training-pipeline: unknown value 'lamb'; expected one of sgd, momentum, adam

// RUN: not raf-opt %s --raf-vta-pipeline=mode=loose -o /dev/null 2>&1 | FileCheck %s --check-prefix=MODE
// MODE: error: option 'mode' of raf-vta-pipeline: unknown value 'loose'; expected one of strict, relaxed
// RUN: not raf-opt %s --raf-vta-pipeline="schedule=tune" -o /dev/null 2>&1 | FileCheck %s --check-prefix=SCHEDULE
// SCHEDULE: error: option 'schedule' of raf-vta-pipeline: unknown value 'tune'; expected one of heuristic, exhaustive

// RUN: not raf-opt %s --vta-schedule=method=annealing -o /dev/null 2>&1 | FileCheck %s --check-prefix=METHOD
// METHOD: error: option 'method' of vta-schedule: unknown value 'annealing'; expected one of heuristic, exhaustive, tune
// RUN: not raf-opt %s --pass-pipeline='builtin.module(vta-schedule{method=tune tuner=xgb})' -o /dev/null 2>&1 | FileCheck %s --check-prefix=TUNER
// TUNER: error: option 'tuner' of vta-schedule: unknown value 'xgb'; expected one of random, autotvm, validity
// METHOD-NOT: see current operation
// TUNER-NOT: func.func

// Accepted values still parse, and --dump-pass-pipeline's text (which
// prints every option) is accepted again.
// RUN: raf-opt %s --raf-cpu-pipeline="blas=off" -o /dev/null
// RUN: raf-opt %s --raf-training-pipeline="amp=bf16 optimizer=adam" --dump-pass-pipeline -o /dev/null 2>&1 | FileCheck %s --check-prefix=DUMP
// DUMP: raf-append-optimizer{{.*}}kind=adam
// RUN: raf-opt %s --pass-pipeline='builtin.module(vta-schedule{method=tune tuner=random trials=4})' -o /dev/null
// RUN: raf-opt %s --raf-vta-pipeline="mode=strict schedule=exhaustive" --dump-pass-pipeline -o /dev/null 2>&1 | FileCheck %s --check-prefix=VTADUMP
// VTADUMP: tcg-dataflow-embed{{.*}}mode=strict
// VTADUMP: vta-schedule{{.*}}method=exhaustive

func.func @main(%x: tensor<4xf32>, %w: tensor<4xf32>) -> tensor<f32> {
  %d = relay.subtract %w, %x : (tensor<4xf32>, tensor<4xf32>)
  %s = relay.multiply %d, %d : (tensor<4xf32>, tensor<4xf32>)
  %l = relay.sum %s : (tensor<4xf32>)
  return %l : tensor<f32>
}
