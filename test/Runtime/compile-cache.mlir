// raf-run --target=cpu keeps compiled code in a cache keyed by the module,
// entry, options, host CPU and compiler: the second run loads it instead of
// compiling and computes the same; a damaged entry is compiled again and
// replaced; other options are other entries; --no-compile-cache bypasses it.
// RUN: rm -rf %t && mkdir -p %t
// RUN: raf-run %s --target=cpu --seed=1 --repeat=1 --compile-cache=%t/cache --output=%t/first.npy | FileCheck %s --check-prefix=MISS
// RUN: raf-run %s --target=cpu --seed=1 --repeat=1 --compile-cache=%t/cache --output=%t/second.npy | FileCheck %s --check-prefix=HIT
// RUN: %python -c "import numpy as np; assert np.array_equal(np.load('%t/first.npy'), np.load('%t/second.npy')); print('same')" | FileCheck %s --check-prefix=SAME
// RUN: raf-run %s --target=cpu --seed=1 --repeat=1 --compile-cache=%t/cache --pipeline-options="vectorize=0" | FileCheck %s --check-prefix=MISS
// RUN: ls %t/cache | count 2
// RUN: sh -c 'for f in %t/cache/*.a; do echo damaged > $f; done'
// RUN: raf-run %s --target=cpu --seed=1 --repeat=1 --compile-cache=%t/cache --output=%t/third.npy | FileCheck %s --check-prefix=MISS
// RUN: raf-run %s --target=cpu --seed=1 --repeat=1 --compile-cache=%t/cache | FileCheck %s --check-prefix=HIT
// RUN: %python -c "import numpy as np; assert np.array_equal(np.load('%t/first.npy'), np.load('%t/third.npy')); print('same')" | FileCheck %s --check-prefix=SAME
// RUN: raf-run %s --target=cpu --seed=1 --repeat=1 --compile-cache=%t/cache --no-compile-cache | FileCheck %s --check-prefixes=OFF,TIMING
// MISS: compile: pipeline-ms={{[0-9.]+}} llvm-ms={{[0-9.]+}} cache=miss
// HIT: compile: pipeline-ms=0.0 llvm-ms={{[0-9.]+}} cache=hit
// SAME: same
// OFF: cache=off
// The timed calls' wall and thread CPU times.
// TIMING: timing: runs=1 median-ms={{[0-9.]+}} min-ms={{[0-9.]+}} max-ms={{[0-9.]+}} cpu-median-ms={{[0-9.]+}} cpu-min-ms={{[0-9.]+}}{{$}}

func.func @main(%x: tensor<8x64xf32>, %w: tensor<16x64xf32>) -> tensor<8x16xf32> {
  %y = relay.nn.dense %x, %w : (tensor<8x64xf32>, tensor<16x64xf32>)
  %r = relay.nn.relu %y : (tensor<8x16xf32>)
  return %r : tensor<8x16xf32>
}
