// Bad runs of collectives on the evaluator are located errors, never hangs.
// RUN: rm -rf %t && mkdir -p %t
// A world size that does not match the ranks running the program.
// RUN: not raf-run %s --target=interp --entry=two 2>&1 | FileCheck %s --check-prefix=ONE
// RUN: not raf-run %s --target=interp --ranks=3 --entry=two 2>&1 | FileCheck %s --check-prefix=THREE
// Ranks that disagree on the next collective (a rank-dependent branch).
// RUN: %python -c "import numpy as np; [np.save('%t/c%%d.npy' %% r, np.array(r == 0)) for r in range(2)]"
// RUN: not raf-run %s --target=interp --ranks=2 --entry=diverge --input=%t/c%%r.npy 2>&1 | FileCheck %s --check-prefix=DIVERGE
// A rank that returns without a collective the others run stops them.
// RUN: not raf-run %s --target=interp --ranks=2 --entry=skips --input=%t/c%%r.npy 2>&1 | FileCheck %s --check-prefix=SKIPS
// A rank that fails before a collective stops the others.
// RUN: not raf-run %s --target=interp --ranks=2 --entry=fails --input=%t/c%%r.npy 2>&1 | FileCheck %s --check-prefix=FAILS
// Option errors.
// RUN: not raf-run %s --target=cpu --ranks=2 --entry=two 2>&1 | FileCheck %s --check-prefix=CPU
// RUN: not raf-run %s --target=interp --ranks=0 --entry=two 2>&1 | FileCheck %s --check-prefix=ZERO
// RUN: not raf-run %s --target=interp --ranks=2 --entry=two --output=%t/y.npy 2>&1 | FileCheck %s --check-prefix=OUTPUT
// With world_size 1 a program runs without --ranks.
// RUN: raf-run %s --target=interp --entry=one | FileCheck %s --check-prefix=WORLD1

func.func @two(%x: tensor<4xf32>) -> tensor<4xf32> {
  // ONE: mpi-sim-errors.mlir:[[@LINE+2]]:8: error: 'relay.comm.allreduce' has world_size 2 but the program runs on 1 rank; run it on simulated ranks (raf-run --target=interp --ranks=N)
  // THREE: mpi-sim-errors.mlir:[[@LINE+1]]:8: error: 'relay.comm.allreduce' has world_size 2 but the program runs on 3 ranks
  %0 = relay.comm.allreduce %x {world_size = 2 : i64} : (tensor<4xf32>)
  return %0 : tensor<4xf32>
}

func.func @diverge(%c: tensor<i1>) -> tensor<4xf32> {
  %x = relay.constant dense<1.0> : tensor<4xf32>
  %r = relay.if %c : tensor<i1> -> (tensor<4xf32>) {
    // DIVERGE: error: rank {{[01]}}: ranks disagree on the collective: rank {{[01]}} runs relay.comm.{{allreduce|allgather}}
    %a = relay.comm.allreduce %x {world_size = 2 : i64} : (tensor<4xf32>)
    relay.yield %a : tensor<4xf32>
  } else {
    %h = relay.constant dense<1.0> : tensor<2xf32>
    %b = relay.comm.allgather %h {world_size = 2 : i64} : (tensor<2xf32>)
    relay.yield %b : tensor<4xf32>
  }
  return %r : tensor<4xf32>
}

func.func @skips(%c: tensor<i1>) -> tensor<4xf32> {
  %x = relay.constant dense<1.0> : tensor<4xf32>
  %r = relay.if %c : tensor<i1> -> (tensor<4xf32>) {
    relay.yield %x : tensor<4xf32>
  } else {
    // SKIPS: mpi-sim-errors.mlir:[[@LINE+1]]:10: error: rank 1: another rank returned without reaching this collective
    %a = relay.comm.allreduce %x {world_size = 2 : i64} : (tensor<4xf32>)
    relay.yield %a : tensor<4xf32>
  }
  return %r : tensor<4xf32>
}

func.func @square(%x: tensor<f32>) -> tensor<f32> {
  %r = relay.multiply %x, %x : (tensor<f32>, tensor<f32>)
  return %r : tensor<f32>
}

func.func @fails(%c: tensor<i1>) -> tensor<4xf32> {
  %x = relay.constant dense<1.0> : tensor<4xf32>
  %r = relay.if %c : tensor<i1> -> (tensor<4xf32>) {
    // FAILS-DAG: error: relay.grad cannot be evaluated
    %f = relay.global_ref @square : (tensor<f32>) -> tensor<f32>
    %g = relay.grad %f : (tensor<f32>) -> tensor<f32>
    relay.yield %x : tensor<4xf32>
  } else {
    relay.yield %x : tensor<4xf32>
  }
  // FAILS-DAG: error: rank 1: another rank failed
  %s = relay.comm.allreduce %r {world_size = 2 : i64} : (tensor<4xf32>)
  return %s : tensor<4xf32>
}

// CPU: error: --ranks simulates ranks on the reference evaluator; use it with --target=interp
// ZERO: error: --ranks must be at least 1
// OUTPUT: error: with --ranks > 1 every --output path must contain %r (the rank)

func.func @one(%x: tensor<2xf32>) -> (tensor<2xf32>, tensor<1xf32>) {
  %0 = relay.comm.allreduce %x {reduction = "avg", world_size = 1 : i64} : (tensor<2xf32>)
  %1 = relay.comm.reduce_scatter %0 {world_size = 1 : i64} : (tensor<2xf32>)
  %2 = relay.comm.allgather %1 {world_size = 1 : i64} : (tensor<2xf32>)
  %3 = relay.strided_slice %2 {begin = array<i64: 0>, end = array<i64: 1>} : (tensor<2xf32>)
  return %0, %3 : tensor<2xf32>, tensor<1xf32>
}
// WORLD1: result #0: tensor<2xf32>
