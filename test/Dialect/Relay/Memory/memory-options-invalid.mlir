// RUN: rm -rf %t && split-file %s %t
// RUN: raf-opt %t/report-entry.mlir -verify-diagnostics --raf-memory-report=entry=main -o /dev/null
// RUN: raf-opt %t/schedule.mlir -verify-diagnostics --raf-memory-schedule=threshold-mb=-1 -o /dev/null
// RUN: raf-opt %t/schedule.mlir -verify-diagnostics --raf-memory-schedule=max-iters=0 -o /dev/null

//--- report-entry.mlir
// expected-error @+1 {{--raf-memory-report: no function named 'main'}}
module {
  func.func @f(%x: tensor<4xf32>) -> tensor<4xf32> {
    return %x : tensor<4xf32>
  }
}

//--- schedule.mlir
// expected-error @+1 {{--raf-memory-schedule: threshold-mb must be >= 0 and max-iters > 0}}
func.func @f(%x: tensor<4xf32>) -> tensor<4xf32> {
  return %x : tensor<4xf32>
}
