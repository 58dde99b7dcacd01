// The evaluator's simulated ranks (raf-run --target=interp --ranks=N): every
// collective against values computed by hand. Rank r's input is
// [r+1, 10(r+1), 100(r+1), 1000(r+1)] as a 4-vector and 2x2 matrix.
// RUN: rm -rf %t && mkdir -p %t
// RUN: %python -c "import numpy as np; [np.save('%t/x%%d.npy' %% r, np.array([1, 10, 100, 1000], np.float32) * (r + 1)) for r in range(4)]"
// RUN: raf-run %s --target=interp --ranks=2 --entry=collectives --input=%t/x%%r.npy | FileCheck %s --check-prefix=TWO
// RUN: raf-run %s --target=interp --ranks=4 --entry=four --input=%t/x%%r.npy | FileCheck %s --check-prefix=FOUR
// Results saved per rank.
// RUN: raf-run %s --target=interp --ranks=2 --entry=collectives --input=%t/x%%r.npy --output=%t/sum%%r.npy
// RUN: %python -c "import numpy as np; [np.testing.assert_array_equal(np.load('%t/sum%%d.npy' %% r), [3, 30, 300, 3000]) for r in range(2)]"

func.func @collectives(%x: tensor<4xf32>)
    -> (tensor<4xf32>, tensor<4xf32>, tensor<2xf32>, tensor<8xf32>, tensor<4xf32>) {
  %sum = relay.comm.allreduce %x {world_size = 2 : i64} : (tensor<4xf32>)
  %avg = relay.comm.allreduce %x {reduction = "avg", world_size = 2 : i64} : (tensor<4xf32>)
  %rs = relay.comm.reduce_scatter %x {world_size = 2 : i64} : (tensor<4xf32>)
  %ag = relay.comm.allgather %x {world_size = 2 : i64} : (tensor<4xf32>)
  %bc = relay.comm.broadcast %x {root = 1 : i64, world_size = 2 : i64} : (tensor<4xf32>)
  return %sum, %avg, %rs, %ag, %bc : tensor<4xf32>, tensor<4xf32>, tensor<2xf32>, tensor<8xf32>, tensor<4xf32>
}
// TWO: rank 0 result #0: tensor<4xf32>
// TWO-NEXT: [3, 30, 300, 3000]
// TWO: rank 0 result #1: tensor<4xf32>
// TWO-NEXT: [1.5, 15, 150, 1500]
// TWO: rank 0 result #2: tensor<2xf32>
// TWO-NEXT: [3, 30]
// TWO: rank 0 result #3: tensor<8xf32>
// TWO-NEXT: [1, 10, 100, 1000, 2, 20, 200, 2000]
// TWO: rank 0 result #4: tensor<4xf32>
// TWO-NEXT: [2, 20, 200, 2000]
// TWO: rank 1 result #0: tensor<4xf32>
// TWO-NEXT: [3, 30, 300, 3000]
// TWO: rank 1 result #2: tensor<2xf32>
// TWO-NEXT: [300, 3000]
// TWO: rank 1 result #3: tensor<8xf32>
// TWO-NEXT: [1, 10, 100, 1000, 2, 20, 200, 2000]
// TWO: rank 1 result #4: tensor<4xf32>
// TWO-NEXT: [2, 20, 200, 2000]

// Four ranks, a 2-D reduce_scatter and collectives in sequence.
func.func @four(%x: tensor<4xf32>) -> (tensor<1xf32>, tensor<4xf32>) {
  %rs = relay.comm.reduce_scatter %x {reduction = "avg", world_size = 4 : i64} : (tensor<4xf32>)
  %ag = relay.comm.allgather %rs {world_size = 4 : i64} : (tensor<1xf32>)
  return %rs, %ag : tensor<1xf32>, tensor<4xf32>
}
// FOUR: rank 0 result #0: tensor<1xf32>
// FOUR-NEXT: [2.5]
// FOUR: rank 0 result #1: tensor<4xf32>
// FOUR-NEXT: [2.5, 25, 250, 2500]
// FOUR: rank 3 result #0: tensor<1xf32>
// FOUR-NEXT: [2500]
// FOUR: rank 3 result #1: tensor<4xf32>
// FOUR-NEXT: [2.5, 25, 250, 2500]
