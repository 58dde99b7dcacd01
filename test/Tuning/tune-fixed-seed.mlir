// Auto-tuning a small convolution (1x16x8x8 * 32x3x3, int32 results) with a
// fixed seed: --vta-schedule=method=tune chooses the same schedule on every
// run, and it is the exhaustive optimum of the template space that raf-tune
// computes for the same kernel; raf-tune's runs are deterministic for a seed;
// its ground truth is computed once, reused while the current model agrees
// with it and recomputed when it does not (docs/tuning.md).

// RUN: raf-opt %s --convert-relay-to-tcg --tcg-dataflow-embed="intrinsic=vta.gemm.1x16x16 mode=strict max-candidates=1" --tcg-apply-strategy=candidate=0 -o %t.packed.mlir
// RUN: raf-opt %t.packed.mlir --vta-schedule="method=tune tuner=validity trials=100 seed=7 report=true" -o %t.a.mlir 2> %t.remark
// RUN: raf-opt %t.packed.mlir --vta-schedule="method=tune tuner=validity trials=100 seed=7" -o %t.b.mlir
// RUN: diff %t.a.mlir %t.b.mlir
// RUN: rm -rf %t.cache
// RUN: raf-tune truth --conv=1,16,8,8,32,3,3,0,0,1,1 --requant-shift=-1 --cache=%t.cache > %t.truth 2> %t.progress
// RUN: cat %t.truth %t.remark %t.a.mlir | FileCheck %s --check-prefix=SAME
// SAME: "optimum_cycles":[[CYC:[0-9]+]],"optimum_loop_order":[0,1,2,3,4,5,6],"optimum_schedule":"#vta.schedule<tiles = [1, 1, 3, 6, 1, 3, 3], virtual_threads = 2, loop_order = [0, 1, 2, 3, 4, 5, 6]>","optimum_tiles":[1,1,3,6,1,3,3],"optimum_virtual_threads":2,"size":512,"valid":384,"valid_ratio":0.75}
// SAME: remark: vta-schedule: cycles=[[CYC]] instructions=
// SAME: vta.schedule = #vta.schedule<tiles = [1, 1, 3, 6, 1, 3, 3], virtual_threads = 2, loop_order = [0, 1, 2, 3, 4, 5, 6]>

// The ground truth: computed with progress, then read from the cache.
// RUN: FileCheck %s --check-prefix=COMPUTED < %t.progress
// COMPUTED: ground truth: 512/512 configurations, 384 valid
// RUN: raf-tune truth --conv=1,16,8,8,32,3,3,0,0,1,1 --requant-shift=-1 --cache=%t.cache 2>&1 > %t.truth2 | count 0
// RUN: sed -e 's/"[a-z_]*seconds[a-z_]*":[-+.0-9e]*,//g' %t.truth > %t.truth.notime
// RUN: sed -e 's/"[a-z_]*seconds[a-z_]*":[-+.0-9e]*,//g' %t.truth2 | diff %t.truth.notime -

// A table the current model disagrees with (every valid configuration's
// cycles changed) is stale: recomputed, with the same result.
// RUN: sed -i -e 's/^1 \([0-9]\)/1 9\1/' %t.cache/truth-*.txt
// RUN: raf-tune truth --conv=1,16,8,8,32,3,3,0,0,1,1 --requant-shift=-1 --cache=%t.cache > %t.truth3 2> %t.progress3
// RUN: FileCheck %s --check-prefix=STALE < %t.progress3
// STALE: ground truth: the cached table {{.*}}truth-{{[0-9A-F]+}}.txt is stale, recomputing: configuration {{[0-9]+}}: the table has 9{{[0-9]+}} (passes the check), the current model {{[0-9]+}} (passes the check)
// STALE: ground truth: 512/512 configurations, 384 valid
// RUN: sed -e 's/"[a-z_]*seconds[a-z_]*":[-+.0-9e]*,//g' %t.truth3 | diff %t.truth.notime -

// Tuning runs on the table: deterministic for a seed (timings aside), and
// every run reaches the optimum.
// RUN: raf-tune tune --conv=1,16,8,8,32,3,3,0,0,1,1 --requant-shift=-1 --cache=%t.cache --tuner=validity --runs=3 --trials=100 --seed=7 2>/dev/null | sed -e 's/"[a-z_]*seconds":[-+.0-9e]*,//g' > %t.tune1
// RUN: raf-tune tune --conv=1,16,8,8,32,3,3,0,0,1,1 --requant-shift=-1 --cache=%t.cache --tuner=validity --runs=3 --trials=100 --seed=7 2>/dev/null | sed -e 's/"[a-z_]*seconds":[-+.0-9e]*,//g' > %t.tune2
// RUN: diff %t.tune1 %t.tune2
// RUN: cat %t.truth %t.tune1 | FileCheck %s --check-prefix=TUNE
// TUNE: "optimum_cycles":[[CYC:[0-9]+]]
// TUNE: {"best_cycles":[[CYC]],"best_schedule":"#vta.schedule<{{.*}}>","bias_known":512,"optimum_cycles":[[CYC]],"plan_sizes":{{\[[0-9]+\]}},"prediction_spread":{{\[\[}}[[LOW:[-+.0-9e]+]],[[HIGH:[-+.0-9e]+]]{{\]\]}},"presampled_valid":{{[0-9]+}},"run":0,"seed":7,"trainings":1,"trials":100,"trials_to_1pct":{{[0-9]+}},"trials_to_best":{{[0-9]+}},"valid_trials":{{[0-9]+}},"validity_queries":512}
// TUNE: {"best_cycles":[[CYC]],{{.*}}"run":1,"seed":8,
// TUNE: {"best_cycles":[[CYC]],{{.*}}"run":2,"seed":9,

// Under TVM's pipeline rules fewer configurations are valid; the optimum
// of this layer is one of them.
// RUN: raf-tune truth --conv=1,16,8,8,32,3,3,0,0,1,1 --requant-shift=-1 --cache=%t.cache --validity=tvm | FileCheck %s --check-prefix=TVM
// TVM: "optimum_cycles":{{[0-9]+}},{{.*}}"size":512,"valid":{{[0-9]+}},"valid_ratio":0.{{[0-9]+}}}

// The DMA placement knob (--dma-knob) doubles the space; this layer's
// optimum hoists the weight loads, and raf-tune prints it as #vta.schedule
// prints itself.
// RUN: raf-tune truth --conv=1,16,8,8,32,3,3,0,0,1,1 --requant-shift=-1 --cache=%t.cache --dma-knob | FileCheck %s --check-prefix=DMA
// DMA: "optimum_schedule":"#vta.schedule<tiles = [1, 1, 2, 3, 1, 3, 3], virtual_threads = 2, loop_order = [0, 1, 2, 3, 4, 5, 6], dma = hoist_weight>",{{.*}}"size":1024,

// RUN: not raf-tune truth --conv=1,16,8,8,32,3,3,0,0,1,1 --validity=fpga 2>&1 | FileCheck %s --check-prefix=BAD
// BAD: error: unknown --validity 'fpga' (schedule or tvm)
// RUN: not raf-tune truth --conv=1,16,8,8,32,3,3,0,0,1,1 --relu --clip=1,2 2>&1 | FileCheck %s --check-prefix=BAD-EPI
// BAD-EPI: error: --relu and --clip are exclusive
// RUN: not raf-tune truth --conv=1,16,8,8,32,3,3,0,0,1,1 --clip=5 2>&1 | FileCheck %s --check-prefix=BAD-CLIP
// BAD-CLIP: error: --clip needs LO,HI (either may be empty)
// RUN: not raf-tune truth --conv=1,16,8,8,32,3,3,0,0,1,1 --clip=0,40000 2>&1 | FileCheck %s --check-prefix=BAD-RANGE
// BAD-RANGE: error: --clip: '40000' is not an integer in [-32768, 32767]
// RUN: not raf-tune truth --conv=1,16,8,8,32,3,3,0,0,1,1 --clip=9,3 2>&1 | FileCheck %s --check-prefix=BAD-ORDER
// BAD-ORDER: error: --clip: the lower bound exceeds the upper one

func.func @main(%x: tensor<1x16x8x8xi8>, %w: tensor<32x16x3x3xi8>) -> tensor<1x32x6x6xi32> {
  %0 = relay.nn.conv2d %x, %w {strides = array<i64: 1, 1>, padding = array<i64: 0, 0, 0, 0>, out_dtype = i32} : (tensor<1x16x8x8xi8>, tensor<32x16x3x3xi8>) -> tensor<1x32x6x6xi32>
  return %0 : tensor<1x32x6x6xi32>
}
