// Fused bias: a per-channel bias after a convolution or a dense layer
// (relay.nn.bias_add, or relay.add of a tensor broadcast along one axis) is
// added by the VTA program (LOAD acc of the bias rows and ALU ADD before the
// clamp and the store, as TVM-VTA's fused conv2d + bias), not by the host.
// The host builds the bias rows in the packed result's layout (relay.take of
// the flattened bias), the launch's third operand; the results equal numpy's
// bit for bit, and raf-run and raf-vta-sim agree on cycles and instructions.
// RUN: rm -rf %t && split-file %s %t
// RUN: raf-opt %t/layers.mlir --raf-vta-pipeline=mode=strict -o %t/compiled.mlir
// RUN: FileCheck %s < %t/compiled.mlir

// CHECK-LABEL: func.func @conv_bias_relu(
// CHECK-NOT:     relay.nn.bias_add
// CHECK-NOT:     relay.nn.relu
// CHECK:         %[[ROWS:.*]] = relay.take %{{.*}}, %{{.*}} {axis = 0 : i64} : (tensor<32xi32>, tensor<2x1x16xi32>) -> tensor<2x1x16xi32>
// CHECK:         vta.launch @conv_bias_relu_kernel0(%{{.*}}, %{{.*}}, %[[ROWS]]) : ({{.*}}, tensor<2x1x16xi32>) -> {{.*}}
// CHECK-NOT:     relay.nn.bias_add
// CHECK-NOT:     relay.nn.relu
// CHECK:         return
// CHECK-LABEL: vta_isa.program @conv_bias_relu_kernel0
// CHECK-SAME:    bias_offset = {{[0-9]+}}, bias_rows = 2>
// CHECK:         vta_isa.load acc
// CHECK:         vta_isa.alu add
// CHECK-NOT:     use_imm
// CHECK-NEXT:    vta_isa.alu max {{.*}} imm = 0 use_imm
// CHECK-LABEL: func.func @dense_add(
// CHECK-NOT:     relay.add
// CHECK:         relay.take
// CHECK:         vta.launch @dense_add_kernel0(%{{.*}}, %{{.*}}, %{{.*}})
// CHECK-NOT:     relay.add
// CHECK:         return
// CHECK-LABEL: func.func @after_relu(
// CHECK:         vta.launch @after_relu_kernel0(%{{.*}}, %{{.*}}) :
// CHECK:         relay.nn.bias_add
// CHECK-LABEL: func.func @spatial(
// CHECK:         vta.launch @spatial_kernel0(%{{.*}}, %{{.*}}) :
// CHECK:         relay.add

// RUN: %python %t/ref.py %t
// RUN: raf-run %t/compiled.mlir --entry=conv_bias_relu --target=vta-sim --input=%t/x.npy --input=%t/w.npy --input=%t/b.npy --output=%t/conv.npy
// RUN: raf-run %t/compiled.mlir --entry=dense_add --target=vta-sim --input=%t/dx.npy --input=%t/dw.npy --output=%t/dense.npy
// RUN: raf-run %t/compiled.mlir --entry=after_relu --target=vta-sim --input=%t/x.npy --input=%t/w.npy --input=%t/b.npy --output=%t/after.npy
// RUN: raf-run %t/compiled.mlir --entry=spatial --target=vta-sim --input=%t/x.npy --input=%t/w.npy --input=%t/s.npy --output=%t/spatial.npy
// RUN: %python -c "import numpy as np; [np.testing.assert_array_equal(np.load('%t/' + k + '.npy'), np.load('%t/ref_' + k + '.npy')) for k in ('conv', 'dense', 'after', 'spatial')]"

// Requantised, clip((relu(acc + bias)) >> 6, -128, 127): one plane; the
// cycles and instructions raf-run reports are raf-vta-sim's on the binary.
// RUN: raf-opt %t/layers.mlir --raf-vta-pipeline="mode=strict requant-shift=6" -o %t/requant.mlir
// RUN: FileCheck %s --check-prefix=REQUANT < %t/requant.mlir
// REQUANT-LABEL: vta_isa.program @conv_bias_relu_kernel0
// REQUANT:         vta_isa.alu add
// REQUANT-NEXT:    vta_isa.alu max {{.*}} imm = 0 use_imm
// REQUANT-NEXT:    vta_isa.alu shr {{.*}} imm = 6 use_imm
// RUN: raf-run %t/requant.mlir --entry=conv_bias_relu --target=vta-sim --input=%t/x.npy --input=%t/w.npy --input=%t/b.npy --output=%t/rq.npy | sed -n 's/^vta-sim: kernels=1 cycles=\([0-9]*\) instructions=\([0-9]*\) .*/cycles: \1 instructions: \2/p' > %t/run.txt
// RUN: %python -c "import numpy as np; np.testing.assert_array_equal(np.load('%t/rq.npy'), np.clip(np.load('%t/ref_conv.npy') >> 6, -128, 127))"
// RUN: raf-translate %t/requant.mlir --vta-isa-to-bin --vta-kernel=conv_bias_relu_kernel0 -o %t/conv.bin
// RUN: raf-vta-sim %t/conv.bin --timing-only | awk '/^cycles:/ { c = $2 } / instructions,/ { n += $2 } END { print "cycles: " c " instructions: " n }' > %t/sim.txt
// RUN: FileCheck %s --check-prefix=CYCLES < %t/run.txt
// CYCLES: cycles: {{[1-9][0-9]*}} instructions: {{[1-9][0-9]*}}
// RUN: diff %t/run.txt %t/sim.txt

// Without fusion the host keeps the bias and the launch has two operands.
// RUN: raf-opt %t/layers.mlir --convert-relay-to-tcg --tcg-dataflow-embed=mode=strict --tcg-apply-strategy --vta-schedule=fuse-epilogue=false --convert-tcg-to-vta=fuse-epilogue=false | FileCheck %s --check-prefix=UNFUSED
// UNFUSED-LABEL: func.func @conv_bias_relu(
// UNFUSED:         vta.launch @conv_bias_relu_kernel0(%{{.*}}, %{{.*}}) :
// UNFUSED:         relay.nn.bias_add
// UNFUSED-LABEL: vta.program @conv_bias_relu_kernel0
// UNFUSED-NOT:     vta.load_tile acc

//--- ref.py
import sys
import numpy as np

d = sys.argv[1]
r = np.random.default_rng(5)
x = r.integers(-128, 128, (1, 16, 6, 6), dtype=np.int8)
w = r.integers(-128, 128, (32, 16, 3, 3), dtype=np.int8)
b = r.integers(-40000, 40000, (32,), dtype=np.int32)
s = r.integers(-40000, 40000, (1, 1, 6, 6), dtype=np.int32)
for k, v in dict(x=x, w=w, b=b, s=s).items():
    np.save(f"{d}/{k}.npy", v)
xp = np.pad(x.astype(np.int64), ((0, 0), (0, 0), (1, 1), (1, 1)))
out = np.zeros((1, 32, 6, 6), np.int64)
for i in range(3):
    for j in range(3):
        out += np.einsum("nchw,oc->nohw", xp[:, :, i:i + 6, j:j + 6], w[:, :, i, j].astype(np.int64))
biased = out + b.reshape(1, 32, 1, 1)
np.save(f"{d}/ref_conv.npy", np.maximum(biased, 0).astype(np.int32))
np.save(f"{d}/ref_after.npy", (np.maximum(out, 0) + b.reshape(1, 32, 1, 1)).astype(np.int32))
np.save(f"{d}/ref_spatial.npy", (out + s).astype(np.int32))
dx = r.integers(-128, 128, (3, 20), dtype=np.int8)
dw = r.integers(-128, 128, (24, 20), dtype=np.int8)
np.save(f"{d}/dx.npy", dx)
np.save(f"{d}/dw.npy", dw)
db = np.arange(24, dtype=np.int64) * 1000 - 12000
np.save(f"{d}/ref_dense.npy", (dx.astype(np.int64) @ dw.astype(np.int64).T + db).astype(np.int32))

//--- layers.mlir
// relu(conv + bias): bias_add on the channel axis, then a ReLU; both fused.
func.func @conv_bias_relu(%x: tensor<1x16x6x6xi8>, %w: tensor<32x16x3x3xi8>, %b: tensor<32xi32>) -> tensor<1x32x6x6xi32> {
  %0 = relay.nn.conv2d %x, %w {padding = array<i64: 1, 1, 1, 1>, out_dtype = i32} : (tensor<1x16x6x6xi8>, tensor<32x16x3x3xi8>) -> tensor<1x32x6x6xi32>
  %1 = relay.nn.bias_add %0, %b {axis = 1 : i64} : (tensor<1x32x6x6xi32>, tensor<32xi32>) -> tensor<1x32x6x6xi32>
  %2 = relay.nn.relu %1 : (tensor<1x32x6x6xi32>) -> tensor<1x32x6x6xi32>
  return %2 : tensor<1x32x6x6xi32>
}

// dense + a constant bias by broadcasting relay.add (24 output channels: the
// packed result has 32, the unpacking slices 8 away).
func.func @dense_add(%x: tensor<3x20xi8>, %w: tensor<24x20xi8>) -> tensor<3x24xi32> {
  %0 = relay.nn.dense %x, %w {out_dtype = i32} : (tensor<3x20xi8>, tensor<24x20xi8>) -> tensor<3x24xi32>
  %b = relay.constant dense<[-12000, -11000, -10000, -9000, -8000, -7000, -6000, -5000, -4000, -3000, -2000, -1000, 0, 1000, 2000, 3000, 4000, 5000, 6000, 7000, 8000, 9000, 10000, 11000]> : tensor<24xi32>
  %1 = relay.add %b, %0 : (tensor<24xi32>, tensor<3x24xi32>) -> tensor<3x24xi32>
  return %1 : tensor<3x24xi32>
}

// A bias after the ReLU is not the fused order (the ALU adds before it
// clamps): the ReLU is fused, the bias stays on the host.
func.func @after_relu(%x: tensor<1x16x6x6xi8>, %w: tensor<32x16x3x3xi8>, %b: tensor<32xi32>) -> tensor<1x32x6x6xi32> {
  %0 = relay.nn.conv2d %x, %w {padding = array<i64: 1, 1, 1, 1>, out_dtype = i32} : (tensor<1x16x6x6xi8>, tensor<32x16x3x3xi8>) -> tensor<1x32x6x6xi32>
  %1 = relay.nn.relu %0 : (tensor<1x32x6x6xi32>) -> tensor<1x32x6x6xi32>
  %2 = relay.nn.bias_add %1, %b {axis = 1 : i64} : (tensor<1x32x6x6xi32>, tensor<32xi32>) -> tensor<1x32x6x6xi32>
  return %2 : tensor<1x32x6x6xi32>
}

// An addend that varies along two axes (here the image) is not a
// per-channel bias: the host adds it.
func.func @spatial(%x: tensor<1x16x6x6xi8>, %w: tensor<32x16x3x3xi8>, %s: tensor<1x1x6x6xi32>) -> tensor<1x32x6x6xi32> {
  %0 = relay.nn.conv2d %x, %w {padding = array<i64: 1, 1, 1, 1>, out_dtype = i32} : (tensor<1x16x6x6xi8>, tensor<32x16x3x3xi8>) -> tensor<1x32x6x6xi32>
  %1 = relay.add %0, %s : (tensor<1x32x6x6xi32>, tensor<1x1x6x6xi32>) -> tensor<1x32x6x6xi32>
  return %1 : tensor<1x32x6x6xi32>
}
