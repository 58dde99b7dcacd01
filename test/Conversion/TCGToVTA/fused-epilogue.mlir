// Fused ALU epilogue: a ReLU or clip after a convolution is computed by the
// VTA program (ALU MAX / MIN by an immediate on the accumulators before the
// store, as TVM-VTA's fused conv2d + relu), not by the host. The relay
// function keeps no relu / maximum / minimum; the results equal numpy's
// bit for bit (exact int32 and requantised), and raf-run and raf-vta-sim
// agree on cycles and instructions.
// RUN: rm -rf %t && split-file %s %t
// RUN: raf-opt %t/conv.mlir --raf-vta-pipeline=mode=strict -o %t/compiled.mlir
// RUN: FileCheck %s < %t/compiled.mlir

// CHECK-LABEL: func.func @relu(
// CHECK-NOT:     relay.nn.relu
// CHECK:         vta.launch @relu_kernel0
// CHECK-NOT:     relay.nn.relu
// CHECK:         return
// CHECK-LABEL: vta_isa.program @relu_kernel0
// CHECK:         vta_isa.gemm
// CHECK:         vta_isa.alu max {{.*}} imm = 0 use_imm
// CHECK-NEXT:    vta_isa.alu add {{.*}} imm = 0 use_imm
// CHECK-LABEL: func.func @clip(
// CHECK-NOT:     relay.maximum
// CHECK-NOT:     relay.minimum
// CHECK:         vta.launch @clip_kernel0
// CHECK-NOT:     relay.maximum
// CHECK-NOT:     relay.minimum
// CHECK:         return
// CHECK-LABEL: vta_isa.program @clip_kernel0
// CHECK:         vta_isa.alu max {{.*}} imm = -1000 use_imm
// CHECK-NEXT:    vta_isa.alu min {{.*}} imm = 3000 use_imm
// CHECK-LABEL: func.func @wide(
// CHECK:         vta.launch @wide_kernel0
// CHECK:         relay.minimum
// CHECK-LABEL: vta_isa.program @wide_kernel0
// CHECK:         vta_isa.alu max {{.*}} imm = 0 use_imm
// CHECK-NOT:     vta_isa.alu min

// Without fusion the program has no clamp and the host keeps the ReLU.
// RUN: raf-opt %t/conv.mlir --convert-relay-to-tcg --tcg-dataflow-embed=mode=strict --tcg-apply-strategy --vta-schedule=fuse-epilogue=false --convert-tcg-to-vta=fuse-epilogue=false | FileCheck %s --check-prefix=UNFUSED
// UNFUSED-LABEL: func.func @relu(
// UNFUSED:         vta.launch @relu_kernel0
// UNFUSED:         relay.nn.relu
// UNFUSED-LABEL: vta.program @relu_kernel0
// UNFUSED-NOT:     vta.alu max

// RUN: %python %t/ref.py %t
// RUN: raf-run %t/compiled.mlir --entry=relu --target=vta-sim --input=%t/x.npy --input=%t/w.npy --output=%t/relu.npy
// RUN: raf-run %t/compiled.mlir --entry=clip --target=vta-sim --input=%t/x.npy --input=%t/w.npy --output=%t/clip.npy
// RUN: raf-run %t/compiled.mlir --entry=wide --target=vta-sim --input=%t/x.npy --input=%t/w.npy --output=%t/wide.npy
// RUN: %python -c "import numpy as np; [np.testing.assert_array_equal(np.load('%t/' + k + '.npy'), np.load('%t/ref_' + k + '.npy')) for k in ('relu', 'clip', 'wide')]"

// Requantised: clip(relu(acc) >> 6, -128, 127), one plane.
// RUN: raf-opt %t/conv.mlir --raf-vta-pipeline="mode=strict requant-shift=6" -o %t/requant.mlir
// RUN: FileCheck %s --check-prefix=REQUANT < %t/requant.mlir
// REQUANT-LABEL: vta_isa.program @relu_kernel0
// REQUANT:         vta_isa.alu max {{.*}} imm = 0 use_imm
// REQUANT-NEXT:    vta_isa.alu shr {{.*}} imm = 6 use_imm
// REQUANT-NEXT:    vta_isa.alu min {{.*}} imm = 127 use_imm
// REQUANT-NEXT:    vta_isa.alu max {{.*}} imm = -128 use_imm
// RUN: raf-run %t/requant.mlir --entry=relu --target=vta-sim --input=%t/x.npy --input=%t/w.npy --output=%t/rq.npy | sed -n 's/^vta-sim: kernels=1 cycles=\([0-9]*\) instructions=\([0-9]*\) .*/cycles: \1 instructions: \2/p' > %t/run.txt
// RUN: %python -c "import numpy as np; np.testing.assert_array_equal(np.load('%t/rq.npy'), np.clip(np.load('%t/ref_relu.npy') >> 6, -128, 127))"
// RUN: raf-translate %t/requant.mlir --vta-isa-to-bin --vta-kernel=relu_kernel0 -o %t/relu.bin
// RUN: raf-vta-sim %t/relu.bin --timing-only | awk '/^cycles:/ { c = $2 } / instructions,/ { n += $2 } END { print "cycles: " c " instructions: " n }' > %t/sim.txt
// RUN: diff %t/run.txt %t/sim.txt

//--- ref.py
import sys
import numpy as np

d = sys.argv[1]
r = np.random.default_rng(11)
x = r.integers(-128, 128, (1, 16, 6, 6), dtype=np.int8)
w = r.integers(-128, 128, (32, 16, 3, 3), dtype=np.int8)
np.save(f"{d}/x.npy", x)
np.save(f"{d}/w.npy", w)
xp = np.pad(x.astype(np.int64), ((0, 0), (0, 0), (1, 1), (1, 1)))
out = np.zeros((1, 32, 6, 6), np.int64)
for i in range(3):
    for j in range(3):
        out += np.einsum("nchw,oc->nohw", xp[:, :, i:i + 6, j:j + 6], w[:, :, i, j].astype(np.int64))
assert out.min() < -3000 and out.max() > 3000
np.save(f"{d}/ref_relu.npy", np.maximum(out, 0).astype(np.int32))
np.save(f"{d}/ref_clip.npy", np.clip(out, -1000, 3000).astype(np.int32))
np.save(f"{d}/ref_wide.npy", np.minimum(np.maximum(out, 0), 100000).astype(np.int32))

//--- conv.mlir
func.func @relu(%x: tensor<1x16x6x6xi8>, %w: tensor<32x16x3x3xi8>) -> tensor<1x32x6x6xi32> {
  %0 = relay.nn.conv2d %x, %w {padding = array<i64: 1, 1, 1, 1>, out_dtype = i32} : (tensor<1x16x6x6xi8>, tensor<32x16x3x3xi8>) -> tensor<1x32x6x6xi32>
  %1 = relay.nn.relu %0 : (tensor<1x32x6x6xi32>) -> tensor<1x32x6x6xi32>
  return %1 : tensor<1x32x6x6xi32>
}

// clip(x, -1000, 3000) as maximum then minimum with splat constants (the
// constant on either side).
func.func @clip(%x: tensor<1x16x6x6xi8>, %w: tensor<32x16x3x3xi8>) -> tensor<1x32x6x6xi32> {
  %lo = relay.constant dense<-1000> : tensor<i32>
  %hi = relay.constant dense<3000> : tensor<1x32x6x6xi32>
  %0 = relay.nn.conv2d %x, %w {padding = array<i64: 1, 1, 1, 1>, out_dtype = i32} : (tensor<1x16x6x6xi8>, tensor<32x16x3x3xi8>) -> tensor<1x32x6x6xi32>
  %1 = relay.maximum %0, %lo : (tensor<1x32x6x6xi32>, tensor<i32>) -> tensor<1x32x6x6xi32>
  %2 = relay.minimum %hi, %1 : (tensor<1x32x6x6xi32>, tensor<1x32x6x6xi32>) -> tensor<1x32x6x6xi32>
  return %2 : tensor<1x32x6x6xi32>
}

// A bound beyond an ALU immediate stays on the host (the ReLU before it is
// fused).
func.func @wide(%x: tensor<1x16x6x6xi8>, %w: tensor<32x16x3x3xi8>) -> tensor<1x32x6x6xi32> {
  %hi = relay.constant dense<100000> : tensor<i32>
  %0 = relay.nn.conv2d %x, %w {padding = array<i64: 1, 1, 1, 1>, out_dtype = i32} : (tensor<1x16x6x6xi8>, tensor<32x16x3x3xi8>) -> tensor<1x32x6x6xi32>
  %1 = relay.nn.relu %0 : (tensor<1x32x6x6xi32>) -> tensor<1x32x6x6xi32>
  %2 = relay.minimum %1, %hi : (tensor<1x32x6x6xi32>, tensor<i32>) -> tensor<1x32x6x6xi32>
  return %2 : tensor<1x32x6x6xi32>
}
