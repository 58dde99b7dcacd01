// --vta-schedule=method=tune: the auto-tuners of docs/tuning.md choose the
// schedule of a packed convolution on the cycle model. With a fixed seed
// the choice is deterministic, and the lowering compiles the chosen
// schedule; an unknown tuner is an error.
// RUN: raf-opt %s --convert-relay-to-tcg --tcg-dataflow-embed="intrinsic=vta.gemm.1x16x16 mode=strict max-candidates=1" --tcg-apply-strategy=candidate=0 -o %t.packed.mlir
// RUN: raf-opt %t.packed.mlir --vta-schedule="method=tune tuner=validity trials=60 seed=3 report=true" -o %t.a.mlir 2>&1 | FileCheck %s --check-prefix=REPORT
// REPORT: remark: vta-schedule: cycles={{[1-9][0-9]*}} instructions={{[1-9][0-9]*}}
// RUN: raf-opt %t.packed.mlir --vta-schedule="method=tune tuner=validity trials=60 seed=3" -o %t.b.mlir
// RUN: diff %t.a.mlir %t.b.mlir
// RUN: FileCheck %s --check-prefix=ATTR < %t.a.mlir
// ATTR: vta.schedule = #vta.schedule<tiles = [1, {{[0-9]+}}, {{[0-9]+}}, {{[0-9]+}}, {{[0-9]+}}, 3, 3], virtual_threads = {{[12]}}, loop_order = [0, {{.*}}, 4, 5, 6]>
// RUN: raf-opt %t.packed.mlir --vta-schedule="method=tune tuner=autotvm trials=60 seed=3" --convert-tcg-to-vta="report=true" --convert-vta-to-vta-isa -o /dev/null 2>&1 | FileCheck %s --check-prefix=LOWER
// LOWER: remark: vta: cycles={{[1-9][0-9]*}}
// RUN: raf-opt %t.packed.mlir --vta-schedule="method=tune tuner=random trials=20" -o /dev/null
// RUN: not raf-opt %t.packed.mlir --vta-schedule="method=tune tuner=annealing" -o /dev/null 2>&1 | FileCheck %s --check-prefix=BAD
// BAD: error: option 'tuner' of vta-schedule: unknown value 'annealing'; expected one of random, autotvm, validity

func.func @main(%x: tensor<1x16x8x8xi8>, %w: tensor<32x16x3x3xi8>) -> tensor<1x32x8x8xi32> {
  %0 = relay.nn.conv2d %x, %w {strides = array<i64: 1, 1>, padding = array<i64: 1, 1, 1, 1>, out_dtype = i32} : (tensor<1x16x8x8xi8>, tensor<32x16x3x3xi8>) -> tensor<1x32x8x8xi32>
  return %0 : tensor<1x32x8x8xi32>
}
