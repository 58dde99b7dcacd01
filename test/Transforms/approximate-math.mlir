// f32 erf, exp and tanh become polynomial/rational approximations (plain
// arithmetic, so the loops around them vectorise); f64 keeps libm, and
// functions= picks a subset.
// RUN: raf-opt --raf-approximate-math %s | FileCheck %s
// RUN: raf-opt --raf-approximate-math="functions=exp" %s | FileCheck %s --check-prefix=EXP
// RUN: not raf-opt --raf-approximate-math="functions=log" %s 2>&1 | FileCheck %s --check-prefix=BAD
// The CPU pipeline applies it by default: no erff call, tanh or exp
// intrinsic remains in a GELU, a tanh and a softmax; approximate-math=0
// keeps them.
// RUN: raf-opt --raf-cpu-pipeline %S/Inputs/approximate-math-relay.mlir | FileCheck %s --check-prefix=PIPE
// RUN: raf-opt --raf-cpu-pipeline="approximate-math=0" %S/Inputs/approximate-math-relay.mlir | FileCheck %s --check-prefix=LIBM
// BAD: unknown function 'log' (supported: erf, exp, tanh)

// CHECK-LABEL: func.func @scalar_erf(
// CHECK-NOT: math.erf
// CHECK: math.fma
// CHECK: arith.divf
// CHECK-NOT: math.erf
// EXP-LABEL: func.func @scalar_erf(
// EXP: math.erf
func.func @scalar_erf(%x: f32) -> f32 {
  %y = math.erf %x : f32
  return %y : f32
}

// CHECK-LABEL: func.func @vector_exp_tanh(
// CHECK-NOT: math.exp
// CHECK-NOT: math.tanh
// CHECK: math.floor {{.*}} : vector<16xf32>
// CHECK-NOT: math.exp
// CHECK-NOT: math.tanh
// CHECK: return
// EXP-LABEL: func.func @vector_exp_tanh(
// EXP-NOT: math.exp
// EXP: math.tanh
func.func @vector_exp_tanh(%x: vector<16xf32>) -> (vector<16xf32>, vector<16xf32>) {
  %e = math.exp %x : vector<16xf32>
  %t = math.tanh %x : vector<16xf32>
  return %e, %t : vector<16xf32>, vector<16xf32>
}

// f16 is computed in f32 and rounded back.
// CHECK-LABEL: func.func @half_erf(
// CHECK: arith.extf {{.*}} : f16 to f32
// CHECK-NOT: math.erf
// CHECK: arith.truncf {{.*}} : f32 to f16
func.func @half_erf(%x: f16) -> f16 {
  %y = math.erf %x : f16
  return %y : f16
}

// CHECK-LABEL: func.func @double_kept(
// CHECK: math.erf {{.*}} : f64
// CHECK: math.exp {{.*}} : f64
// CHECK: math.tanh {{.*}} : f64
func.func @double_kept(%x: f64) -> (f64, f64, f64) {
  %a = math.erf %x : f64
  %b = math.exp %x : f64
  %c = math.tanh %x : f64
  return %a, %b, %c : f64, f64, f64
}

// llvm.intr.tanh and llvm.intr.exp become calls of tanhf and expf.
// PIPE-NOT: llvm.call @erff
// PIPE-NOT: llvm.intr.tanh
// PIPE-NOT: llvm.intr.exp
// PIPE: llvm.intr.fma
// PIPE-NOT: llvm.call @erff
// PIPE-NOT: llvm.intr.tanh
// PIPE-NOT: llvm.intr.exp
// LIBM-DAG: llvm.call @erff
// LIBM-DAG: llvm.intr.tanh
// LIBM-DAG: llvm.intr.exp
