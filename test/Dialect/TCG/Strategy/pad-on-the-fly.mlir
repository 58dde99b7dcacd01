// Padding on the fly: for a VTA intrinsic, --tcg-apply-strategy leaves the
// input's zero padding to VTA's loads (the y/x pad fields) when it lands on
// the two innermost row dimensions of the packed input within 0-15: the
// packed kernel reads the unpadded packed input through a zero-padded view,
// and no relay.nn.pad of the input runs on the host. Otherwise the host
// pads, and a remark says why. pad-on-the-fly=false always pads on the host.
// RUN: rm -rf %t && split-file %s %t
// RUN: raf-opt %t/fits.mlir --convert-relay-to-tcg --tcg-dataflow-embed=mode=strict --tcg-apply-strategy | FileCheck %s --check-prefix=FLY
// RUN: raf-opt %t/fits.mlir --convert-relay-to-tcg --tcg-dataflow-embed=mode=strict --tcg-apply-strategy=pad-on-the-fly=false | FileCheck %s --check-prefix=HOST
// RUN: raf-opt %t/fits.mlir --convert-relay-to-tcg --tcg-dataflow-embed="mode=strict intrinsic=vta.gemm.8x8x8" --tcg-apply-strategy | FileCheck %s --check-prefix=G8
// RUN: raf-opt %t/host.mlir --convert-relay-to-tcg --tcg-dataflow-embed=mode=relaxed --tcg-apply-strategy --verify-diagnostics | FileCheck %s --check-prefix=REMARK

// FLY-LABEL: func.func @conv(
// FLY-NOT:     relay.nn.pad
// FLY:         relay.reshape %arg0 {newshape = array<i64: 1, 2, 16, 8, 8>} : (tensor<1x32x8x8xi8>) -> tensor<1x2x16x8x8xi8>
// FLY:         tcg.kernel "nn.conv2d" (%data = %{{.*}} : tensor<1x2x8x8x1x16xi8>, %weight = %{{.*}} : tensor<3x2x3x3x16x16xi8>) -> tensor<1x3x8x8x1x16xi32>
// FLY:         tcg.input %data[%n, %ic.o, %oh + %kh, %ow + %kw, %x, %z] pad_low [0, 0, 1, 1, 0, 0] pad_high [0, 0, 1, 1, 0, 0] : tensor<1x2x8x8x1x16xi8>
// FLY-LABEL: func.func @asymmetric(
// FLY-NOT:     relay.nn.pad
// FLY:         tcg.input %data[%n, %ic.o, %oh * 2 + %kh, %ow * 2 + %kw, %x, %z] pad_low [0, 0, 2, 0, 0, 0] pad_high [0, 0, 15, 3, 0, 0] : tensor<1x1x9x9x1x16xi8>

// HOST-LABEL: func.func @conv(
// HOST:         relay.nn.pad %arg0 {pad_width = array<i64: 0, 0, 0, 0, 1, 1, 1, 1>}
// HOST:         tcg.input %data[%n, %ic.o, %oh + %kh, %ow + %kw, %x, %z] : tensor<1x2x10x10x1x16xi8>

// The 8x8x8 GEMM packs the batch too (n -> x); the image rows stay the
// innermost row dimensions.
// G8-LABEL: func.func @conv(
// G8-NOT:     relay.nn.pad %arg0 {pad_width = array<i64: 0, 0, 0, 0, 1, 1, 1, 1>}
// G8:         tcg.input %data[%n.o, %ic.o, %oh + %kh, %ow + %kw, %x, %z] pad_low [0, 0, 1, 1, 0, 0] pad_high [0, 0, 1, 1, 0, 0] : tensor<1x4x8x8x8x8xi8>

// REMARK-LABEL: func.func @wide(
// REMARK:         relay.nn.pad %arg0 {pad_width = array<i64: 0, 0, 0, 0, 16, 16, 0, 0>}
// REMARK-LABEL: func.func @stencil(
// REMARK:         relay.nn.pad %arg0 {pad_width = array<i64: 0, 0, 0, 0, 1, 1, 1, 1>}
// REMARK-LABEL: func.func @transposed(
// REMARK:         relay.nn.pad %arg0 {pad_width = array<i64: 0, 0, 0, 0, 0, 1, 0, 1>}

// The packed kernels compute what the relay convolution computes (numpy
// reference), with the loads padding (raf-run compiles the packed kernel
// for the simulator).
// RUN: raf-opt %t/fits.mlir --convert-relay-to-tcg --tcg-dataflow-embed=mode=strict --tcg-apply-strategy -o %t/packed.mlir
// RUN: %python %t/ref.py %t
// RUN: raf-run %t/packed.mlir --entry=conv --target=vta-sim --input=%t/x.npy --input=%t/w.npy --output=%t/vta.npy
// RUN: raf-run %t/packed.mlir --entry=asymmetric --target=vta-sim --input=%t/x2.npy --input=%t/w2.npy --output=%t/vta2.npy
// RUN: %python -c "import numpy as np; [np.testing.assert_array_equal(np.load('%t/vta%%s.npy' %% k), np.load('%t/ref%%s.npy' %% k)) for k in ('', '2')]"

//--- ref.py
import sys
import numpy as np

def conv(x, w, stride, top, left, bottom, right):
    x = np.pad(x.astype(np.int64), ((0, 0), (0, 0), (top, bottom), (left, right)))
    o, _, kh, kw = w.shape
    oh = (x.shape[2] - kh) // stride + 1
    ow = (x.shape[3] - kw) // stride + 1
    out = np.zeros((x.shape[0], o, oh, ow), np.int64)
    for i in range(kh):
        for j in range(kw):
            window = x[:, :, i:i + stride * (oh - 1) + 1:stride, j:j + stride * (ow - 1) + 1:stride]
            out += np.einsum("nchw,oc->nohw", window, w[:, :, i, j].astype(np.int64))
    return out.astype(np.int32)

d = sys.argv[1]
r = np.random.default_rng(7)
for k, xs, ws, args in (("", (1, 32, 8, 8), (48, 32, 3, 3), (1, 1, 1, 1, 1)),
                        ("2", (1, 16, 9, 9), (16, 16, 3, 3), (2, 2, 0, 15, 3))):
    x = r.integers(-128, 128, xs, dtype=np.int8)
    w = r.integers(-128, 128, ws, dtype=np.int8)
    np.save(f"{d}/x{k}.npy", x)
    np.save(f"{d}/w{k}.npy", w)
    ref = conv(x, w, *args)
    assert ref.min() < -256 and ref.max() > 256
    np.save(f"{d}/ref{k}.npy", ref)

//--- fits.mlir
func.func @conv(%x: tensor<1x32x8x8xi8>, %w: tensor<48x32x3x3xi8>) -> tensor<1x48x8x8xi32> {
  %0 = relay.nn.conv2d %x, %w {padding = array<i64: 1, 1, 1, 1>, out_dtype = i32} : (tensor<1x32x8x8xi8>, tensor<48x32x3x3xi8>) -> tensor<1x48x8x8xi32>
  return %0 : tensor<1x48x8x8xi32>
}

// Padding (top, left, bottom, right) = (2, 0, 15, 3), stride 2.
func.func @asymmetric(%x: tensor<1x16x9x9xi8>, %w: tensor<16x16x3x3xi8>) -> tensor<1x16x12x5xi32> {
  %0 = relay.nn.conv2d %x, %w {strides = array<i64: 2, 2>, padding = array<i64: 2, 0, 15, 3>, out_dtype = i32} : (tensor<1x16x9x9xi8>, tensor<16x16x3x3xi8>) -> tensor<1x16x12x5xi32>
  return %0 : tensor<1x16x12x5xi32>
}

//--- host.mlir
func.func @wide(%x: tensor<1x16x6x6xi8>, %w: tensor<16x16x3x3xi8>) -> tensor<1x16x36x4xi32> {
  // expected-remark @+1 {{--tcg-apply-strategy: padding operand 'data' on the host: the padding 16 and 16 exceeds the load's pad fields (0 to 15)}}
  %0 = relay.nn.conv2d %x, %w {padding = array<i64: 16, 0, 16, 0>, out_dtype = i32} : (tensor<1x16x6x6xi8>, tensor<16x16x3x3xi8>) -> tensor<1x16x36x4xi32>
  return %0 : tensor<1x16x36x4xi32>
}

// Relaxed mode maps the kernel columns into the GEMM: the stencil unroll
// gathers along the padded image rows.
func.func @stencil(%x: tensor<1x3x10x10xi8>, %w: tensor<16x3x3x3xi8>) -> tensor<1x16x10x10xi32> {
  // expected-remark @+1 {{--tcg-apply-strategy: padding operand 'data' on the host: the stencil unroll rewrite gathers along a padded dimension}}
  %0 = relay.nn.conv2d %x, %w {padding = array<i64: 1, 1, 1, 1>, out_dtype = i32} : (tensor<1x3x10x10xi8>, tensor<16x3x3x3xi8>) -> tensor<1x16x10x10xi32>
  return %0 : tensor<1x16x10x10xi32>
}

// A transposed convolution reads a dilated view of its input.
func.func @transposed(%x: tensor<1x16x5x5xi8>, %w: tensor<16x16x3x3xi8>) -> tensor<1x16x11x11xi32> {
  // expected-remark @+1 {{--tcg-apply-strategy: padding operand 'data' on the host: the view is dilated, which a load cannot do}}
  %0 = relay.nn.conv2d_transpose %x, %w {strides = array<i64: 2, 2>, out_dtype = i32} : (tensor<1x16x5x5xi8>, tensor<16x16x3x3xi8>) -> tensor<1x16x11x11xi32>
  return %0 : tensor<1x16x11x11xi32>
}
