// RUN: raf-opt %s --raf-rematerialize="budget=4325376 method=raf entry=gap score-offsets=0.1 prune=false" --mlir-print-op-on-diagnostic=false 2>&1 | FileCheck %s --check-prefix=GAP-RAF-C5
// RUN: raf-opt %s --raf-rematerialize="budget=4325376 method=raf entry=gap score-offsets=0.1" --mlir-print-op-on-diagnostic=false 2>&1 | FileCheck %s --check-prefix=GAP-RAF
// RUN: raf-opt %s --raf-rematerialize="budget=4325376 method=raf entry=gap" --mlir-print-op-on-diagnostic=false 2>&1 | FileCheck %s --check-prefix=GAP-RAF
// RUN: raf-opt %s --raf-rematerialize="budget=4325376 method=optimal entry=gap" --mlir-print-op-on-diagnostic=false 2>&1 | FileCheck %s --check-prefix=GAP-OPT
// RUN: raf-opt %s --raf-rematerialize="budget=95361 method=raf entry=train_step min-tensor-bytes=16384" --mlir-print-op-on-diagnostic=false 2>&1 | FileCheck %s --check-prefix=MLP-RAF
// RUN: raf-opt %s --raf-rematerialize="budget=95361 method=optimal entry=train_step min-tensor-bytes=16384" --mlir-print-op-on-diagnostic=false 2>&1 | FileCheck %s --check-prefix=MLP-OPT
// Both plans meet the budget in the memory model.
// RUN: raf-opt %s --raf-rematerialize="budget=95361 method=optimal entry=train_step min-tensor-bytes=16384" | raf-opt --raf-memory-report=entry=train_step --mlir-print-op-on-diagnostic=false 2>&1 | FileCheck %s --check-prefix=MLP-REPORT

// RAF's own trace (score-offsets=0.1 prune=false) recomputes more than it
// needs; pruning its plan finds the optimum, which method=optimal proves.
//
// @gap, sizes in MiB: a (dense, 8.4 MFLOPs), b (exp, 0.26 MFLOPs), p, q
// and the results are 1 MiB; the parameters 1.06. The peak, 5.06, is at
// %q and %s1; 4.12 leaves room for one fewer tensor. At %q raf evicts a
// (score (0.008 + 0.1) * (1 + 1) against b's (0.0003 + 0.1) * (2 + 1)),
// then at %s1, which reads a, recomputes a and evicts b too. Evicting b at
// %q already covers both steps: one exp recomputed before %s2. Pruning
// drops the dense clone (the most expensive) and the plan still fits.

// GAP-RAF-C5: remark: @gap: peak 5308416 bytes (5.06 MiB) -> 4259840 bytes (4.06 MiB) (budget 4325376 bytes (4.12 MiB)); 2 ops recomputed, 8650752 FLOPs (raf)
// GAP-RAF: remark: @gap: peak 5308416 bytes (5.06 MiB) -> 4259840 bytes (4.06 MiB) (budget 4325376 bytes (4.12 MiB)); 1 ops recomputed, 262144 FLOPs (raf)
// GAP-RAF-LABEL: func.func @gap(%arg0
// GAP-RAF: %[[S1:.*]] = relay.add %{{.*}}, %{{.*}} :
// GAP-RAF-NEXT: %[[B:.*]] = relay.exp %arg2 {raf.recomputed}
// GAP-RAF-NEXT: %[[S2:.*]] = relay.add %[[S1]], %[[B]]
// GAP-OPT: remark: @gap: peak 5308416 bytes (5.06 MiB) -> 4259840 bytes (4.06 MiB) (budget 4325376 bytes (4.12 MiB)); 1 ops recomputed, 262144 FLOPs (optimal: optimal (Gecode, proven:
// GAP-OPT-LABEL: func.func @gap(%arg0
// GAP-OPT-SAME: raf.remat.method = "optimal", raf.remat.num_recomputed_ops = 1 : i64, raf.remat.optimal_proven = true
// GAP-OPT: %[[S1:.*]] = relay.add %{{.*}}, %{{.*}} :
// GAP-OPT-NEXT: %[[B:.*]] = relay.exp %arg2 {raf.recomputed}
// GAP-OPT-NEXT: %[[S2:.*]] = relay.add %[[S1]], %[[B]]
// GAP-OPT-NEXT: relay.multiply %[[S2]], %[[B]]
func.func @gap(%x: tensor<512x16xf32>, %w: tensor<512x16xf32>, %y: tensor<512x512xf32>) -> tensor<512x512xf32> {
  %a = relay.nn.dense %x, %w : (tensor<512x16xf32>, tensor<512x16xf32>) -> tensor<512x512xf32>
  %b = relay.exp %y : (tensor<512x512xf32>) -> tensor<512x512xf32>
  %p = relay.tanh %y : (tensor<512x512xf32>) -> tensor<512x512xf32>
  %q = relay.tanh %p : (tensor<512x512xf32>) -> tensor<512x512xf32>
  %s1 = relay.add %a, %q : (tensor<512x512xf32>, tensor<512x512xf32>) -> tensor<512x512xf32>
  %s2 = relay.add %s1, %b : (tensor<512x512xf32>, tensor<512x512xf32>) -> tensor<512x512xf32>
  %s3 = relay.multiply %s2, %b : (tensor<512x512xf32>, tensor<512x512xf32>) -> tensor<512x512xf32>
  return %s3 : tensor<512x512xf32>
}

// @train_step: the training step of an MLP 8-16x4-2 at batch 256
// (--raf-training-pipeline on the torch import), 16 KiB activations. Its
// peak is at step 38, in the backward pass, with the four ReLU outputs
// live. Under 95 % of it both methods recompute the first layer's dense,
// bias and ReLU chain; raf's plan is the first the search finds and is
// proven optimal. The model keeps it by making the dense and bias clones
// early, before an op that reads neither (clones nothing reads in their
// stage, kept to a later use): made all at once before the ReLU's first
// reader, the three clones would exceed the budget in the model, which
// counts every clone of a stage at once.

// MLP-RAF: remark: @train_step: peak 100380 bytes (0.10 MiB) -> 83996 bytes (0.08 MiB) (budget 95361 bytes (0.09 MiB)); 3 ops recomputed, 73728 FLOPs (raf)
// MLP-OPT: remark: @train_step: peak 100380 bytes (0.10 MiB) -> 83996 bytes (0.08 MiB) (budget 95361 bytes (0.09 MiB)); 3 ops recomputed, 73728 FLOPs (optimal: optimal (Gecode, proven:
// MLP-OPT: raf.remat.method = "optimal", raf.remat.num_recomputed_ops = 3 : i64, raf.remat.optimal_proven = true
// MLP-OPT: %[[D:.*]] = relay.nn.dense %arg10, %arg0 {raf.recomputed}
// MLP-OPT-NEXT: %[[B:.*]] = relay.nn.bias_add %[[D]], %arg1 {axis = -1 : i64, raf.recomputed}
// MLP-OPT-NEXT: relay.greater %{{.*}}, %{{.*}} :
// MLP-OPT-COUNT-3: relay.
// MLP-OPT-NEXT: %[[R:.*]] = relay.nn.relu %[[B]] {raf.recomputed}
// MLP-OPT-NEXT: relay.nn.matmul %{{.*}}, %[[R]] {transpose_a = true}
// MLP-OPT-NEXT: relay.greater %[[R]]
// MLP-REPORT: remark: @train_step: peak 83996 bytes
func.func @train_step(%arg0: tensor<16x8xf32> {raf.updatable}, %arg1: tensor<16xf32> {raf.updatable}, %arg2: tensor<16x16xf32> {raf.updatable}, %arg3: tensor<16xf32> {raf.updatable}, %arg4: tensor<16x16xf32> {raf.updatable}, %arg5: tensor<16xf32> {raf.updatable}, %arg6: tensor<16x16xf32> {raf.updatable}, %arg7: tensor<16xf32> {raf.updatable}, %arg8: tensor<2x16xf32> {raf.updatable}, %arg9: tensor<2xf32> {raf.updatable}, %arg10: tensor<256x8xf32>, %arg11: tensor<256xi64>) -> (tensor<f32>, tensor<16x8xf32> {raf.updates_arg = 0 : i64}, tensor<16xf32> {raf.updates_arg = 1 : i64}, tensor<16x16xf32> {raf.updates_arg = 2 : i64}, tensor<16xf32> {raf.updates_arg = 3 : i64}, tensor<16x16xf32> {raf.updates_arg = 4 : i64}, tensor<16xf32> {raf.updates_arg = 5 : i64}, tensor<16x16xf32> {raf.updates_arg = 6 : i64}, tensor<16xf32> {raf.updates_arg = 7 : i64}, tensor<2x16xf32> {raf.updates_arg = 8 : i64}, tensor<2xf32> {raf.updates_arg = 9 : i64}) attributes {raf.num_aux = 0 : i64, raf.num_params = 10 : i64, raf.num_states = 0 : i64, raf.optimizer = "sgd"} {
  %0 = relay.constant dense<0.00999999977> : tensor<f32>
  %1 = relay.constant dense<0.000000e+00> : tensor<f32>
  %2 = relay.constant dense<-100> : tensor<i64>
  %3 = relay.constant dense<[[0, 1]]> : tensor<1x2xi64>
  %4 = relay.constant dense<1.000000e+00> : tensor<f32>
  %5 = relay.nn.dense %arg10, %arg0 : (tensor<256x8xf32>, tensor<16x8xf32>) -> tensor<256x16xf32>
  %6 = relay.nn.bias_add %5, %arg1 {axis = -1 : i64} : (tensor<256x16xf32>, tensor<16xf32>) -> tensor<256x16xf32>
  %7 = relay.nn.relu %6 : (tensor<256x16xf32>) -> tensor<256x16xf32>
  %8 = relay.nn.dense %7, %arg2 : (tensor<256x16xf32>, tensor<16x16xf32>) -> tensor<256x16xf32>
  %9 = relay.nn.bias_add %8, %arg3 {axis = -1 : i64} : (tensor<256x16xf32>, tensor<16xf32>) -> tensor<256x16xf32>
  %10 = relay.nn.relu %9 : (tensor<256x16xf32>) -> tensor<256x16xf32>
  %11 = relay.nn.dense %10, %arg4 : (tensor<256x16xf32>, tensor<16x16xf32>) -> tensor<256x16xf32>
  %12 = relay.nn.bias_add %11, %arg5 {axis = -1 : i64} : (tensor<256x16xf32>, tensor<16xf32>) -> tensor<256x16xf32>
  %13 = relay.nn.relu %12 : (tensor<256x16xf32>) -> tensor<256x16xf32>
  %14 = relay.nn.dense %13, %arg6 : (tensor<256x16xf32>, tensor<16x16xf32>) -> tensor<256x16xf32>
  %15 = relay.nn.bias_add %14, %arg7 {axis = -1 : i64} : (tensor<256x16xf32>, tensor<16xf32>) -> tensor<256x16xf32>
  %16 = relay.nn.relu %15 : (tensor<256x16xf32>) -> tensor<256x16xf32>
  %17 = relay.nn.dense %16, %arg8 : (tensor<256x16xf32>, tensor<2x16xf32>) -> tensor<256x2xf32>
  %18 = relay.nn.bias_add %17, %arg9 {axis = -1 : i64} : (tensor<256x2xf32>, tensor<2xf32>) -> tensor<256x2xf32>
  %19 = relay.nn.log_softmax %18 {axis = 1 : i64} : (tensor<256x2xf32>) -> tensor<256x2xf32>
  %20 = relay.nn.nll_loss %19, %arg11 : (tensor<256x2xf32>, tensor<256xi64>) -> tensor<f32>
  %21 = relay.reshape %arg11 {newshape = array<i64: 256, 1>} : (tensor<256xi64>) -> tensor<256x1xi64>
  %22 = relay.equal %21, %3 : (tensor<256x1xi64>, tensor<1x2xi64>) -> tensor<256x2xi1>
  %23 = relay.cast %22 {dtype = f32} : (tensor<256x2xi1>) -> tensor<256x2xf32>
  %24 = relay.not_equal %21, %2 : (tensor<256x1xi64>, tensor<i64>) -> tensor<256x1xi1>
  %25 = relay.cast %24 {dtype = f32} : (tensor<256x1xi1>) -> tensor<256x1xf32>
  %26 = relay.sum %25 {axis = array<i64: 0, 1>} : (tensor<256x1xf32>) -> tensor<f32>
  %27 = relay.divide %4, %26 : (tensor<f32>, tensor<f32>) -> tensor<f32>
  %28 = relay.multiply %23, %25 : (tensor<256x2xf32>, tensor<256x1xf32>) -> tensor<256x2xf32>
  %29 = relay.multiply %28, %27 : (tensor<256x2xf32>, tensor<f32>) -> tensor<256x2xf32>
  %30 = relay.negative %29 : (tensor<256x2xf32>) -> tensor<256x2xf32>
  %31 = relay.sum %30 {axis = array<i64: 1>, keepdims = true} : (tensor<256x2xf32>) -> tensor<256x1xf32>
  %32 = relay.exp %19 : (tensor<256x2xf32>) -> tensor<256x2xf32>
  %33 = relay.multiply %32, %31 : (tensor<256x2xf32>, tensor<256x1xf32>) -> tensor<256x2xf32>
  %34 = relay.subtract %30, %33 : (tensor<256x2xf32>, tensor<256x2xf32>) -> tensor<256x2xf32>
  %35 = relay.sum %34 {axis = array<i64: 0>} : (tensor<256x2xf32>) -> tensor<2xf32>
  %36 = relay.nn.matmul %34, %arg8 : (tensor<256x2xf32>, tensor<2x16xf32>) -> tensor<256x16xf32>
  %37 = relay.nn.matmul %34, %16 {transpose_a = true} : (tensor<256x2xf32>, tensor<256x16xf32>) -> tensor<2x16xf32>
  %38 = relay.greater %16, %1 : (tensor<256x16xf32>, tensor<f32>) -> tensor<256x16xi1>
  %39 = relay.where %38, %36, %1 : (tensor<256x16xi1>, tensor<256x16xf32>, tensor<f32>) -> tensor<256x16xf32>
  %40 = relay.sum %39 {axis = array<i64: 0>} : (tensor<256x16xf32>) -> tensor<16xf32>
  %41 = relay.nn.matmul %39, %arg6 : (tensor<256x16xf32>, tensor<16x16xf32>) -> tensor<256x16xf32>
  %42 = relay.nn.matmul %39, %13 {transpose_a = true} : (tensor<256x16xf32>, tensor<256x16xf32>) -> tensor<16x16xf32>
  %43 = relay.greater %13, %1 : (tensor<256x16xf32>, tensor<f32>) -> tensor<256x16xi1>
  %44 = relay.where %43, %41, %1 : (tensor<256x16xi1>, tensor<256x16xf32>, tensor<f32>) -> tensor<256x16xf32>
  %45 = relay.sum %44 {axis = array<i64: 0>} : (tensor<256x16xf32>) -> tensor<16xf32>
  %46 = relay.nn.matmul %44, %arg4 : (tensor<256x16xf32>, tensor<16x16xf32>) -> tensor<256x16xf32>
  %47 = relay.nn.matmul %44, %10 {transpose_a = true} : (tensor<256x16xf32>, tensor<256x16xf32>) -> tensor<16x16xf32>
  %48 = relay.greater %10, %1 : (tensor<256x16xf32>, tensor<f32>) -> tensor<256x16xi1>
  %49 = relay.where %48, %46, %1 : (tensor<256x16xi1>, tensor<256x16xf32>, tensor<f32>) -> tensor<256x16xf32>
  %50 = relay.sum %49 {axis = array<i64: 0>} : (tensor<256x16xf32>) -> tensor<16xf32>
  %51 = relay.nn.matmul %49, %arg2 : (tensor<256x16xf32>, tensor<16x16xf32>) -> tensor<256x16xf32>
  %52 = relay.nn.matmul %49, %7 {transpose_a = true} : (tensor<256x16xf32>, tensor<256x16xf32>) -> tensor<16x16xf32>
  %53 = relay.greater %7, %1 : (tensor<256x16xf32>, tensor<f32>) -> tensor<256x16xi1>
  %54 = relay.where %53, %51, %1 : (tensor<256x16xi1>, tensor<256x16xf32>, tensor<f32>) -> tensor<256x16xf32>
  %55 = relay.sum %54 {axis = array<i64: 0>} : (tensor<256x16xf32>) -> tensor<16xf32>
  %56 = relay.nn.matmul %54, %arg10 {transpose_a = true} : (tensor<256x16xf32>, tensor<256x8xf32>) -> tensor<16x8xf32>
  %57 = relay.multiply %0, %56 : (tensor<f32>, tensor<16x8xf32>) -> tensor<16x8xf32>
  %58 = relay.subtract %arg0, %57 : (tensor<16x8xf32>, tensor<16x8xf32>) -> tensor<16x8xf32>
  %59 = relay.multiply %0, %55 : (tensor<f32>, tensor<16xf32>) -> tensor<16xf32>
  %60 = relay.subtract %arg1, %59 : (tensor<16xf32>, tensor<16xf32>) -> tensor<16xf32>
  %61 = relay.multiply %0, %52 : (tensor<f32>, tensor<16x16xf32>) -> tensor<16x16xf32>
  %62 = relay.subtract %arg2, %61 : (tensor<16x16xf32>, tensor<16x16xf32>) -> tensor<16x16xf32>
  %63 = relay.multiply %0, %50 : (tensor<f32>, tensor<16xf32>) -> tensor<16xf32>
  %64 = relay.subtract %arg3, %63 : (tensor<16xf32>, tensor<16xf32>) -> tensor<16xf32>
  %65 = relay.multiply %0, %47 : (tensor<f32>, tensor<16x16xf32>) -> tensor<16x16xf32>
  %66 = relay.subtract %arg4, %65 : (tensor<16x16xf32>, tensor<16x16xf32>) -> tensor<16x16xf32>
  %67 = relay.multiply %0, %45 : (tensor<f32>, tensor<16xf32>) -> tensor<16xf32>
  %68 = relay.subtract %arg5, %67 : (tensor<16xf32>, tensor<16xf32>) -> tensor<16xf32>
  %69 = relay.multiply %0, %42 : (tensor<f32>, tensor<16x16xf32>) -> tensor<16x16xf32>
  %70 = relay.subtract %arg6, %69 : (tensor<16x16xf32>, tensor<16x16xf32>) -> tensor<16x16xf32>
  %71 = relay.multiply %0, %40 : (tensor<f32>, tensor<16xf32>) -> tensor<16xf32>
  %72 = relay.subtract %arg7, %71 : (tensor<16xf32>, tensor<16xf32>) -> tensor<16xf32>
  %73 = relay.multiply %0, %37 : (tensor<f32>, tensor<2x16xf32>) -> tensor<2x16xf32>
  %74 = relay.subtract %arg8, %73 : (tensor<2x16xf32>, tensor<2x16xf32>) -> tensor<2x16xf32>
  %75 = relay.multiply %0, %35 : (tensor<f32>, tensor<2xf32>) -> tensor<2xf32>
  %76 = relay.subtract %arg9, %75 : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>
  return %20, %58, %60, %62, %64, %66, %68, %70, %72, %74, %76 : tensor<f32>, tensor<16x8xf32>, tensor<16xf32>, tensor<16x16xf32>, tensor<16xf32>, tensor<16x16xf32>, tensor<16xf32>, tensor<16x16xf32>, tensor<16xf32>, tensor<2x16xf32>, tensor<2xf32>
}
