"""Numerical check of --convert-relay-to-linalg against PyTorch.

Every relay operator (and its main attribute variants) is applied to
literals, lowered with raf-opt, bufferized and lowered to LLVM with
mlir-opt, run with mlir-runner, and its printed result compared with
PyTorch / NumPy. Skipped when raf-opt or the MLIR tools are missing.
"""
import os
import re
import shutil
import subprocess

import numpy as np
import pytest

torch = pytest.importorskip("torch")
F = torch.nn.functional

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
BUILD = os.environ.get("RAF_BUILD_DIR", "build")
if not os.path.isabs(BUILD):
    BUILD = os.path.join(ROOT, BUILD)
RAF_OPT = os.path.join(BUILD, "bin", "raf-opt")
LLVM_BIN = "/usr/lib/llvm-22/bin"
LLVM_LIB = "/usr/lib/llvm-22/lib"
RUNNER_LIBS = [os.path.join(LLVM_LIB, name) for name in
               ("libmlir_c_runner_utils.so", "libmlir_runner_utils.so")]
TOOLS = [RAF_OPT, os.path.join(LLVM_BIN, "mlir-opt"),
         os.path.join(LLVM_BIN, "mlir-runner")] + RUNNER_LIBS
pytestmark = pytest.mark.skipif(
    not all(os.path.exists(tool) for tool in TOOLS),
    reason="needs raf-opt (built), mlir-opt, mlir-runner and the runner libraries")

PIPELINE = [
    "--one-shot-bufferize=bufferize-function-boundaries",
    "--convert-linalg-to-loops", "--expand-strided-metadata", "--lower-affine",
    "--convert-scf-to-cf", "--convert-math-to-libm", "--convert-math-to-llvm",
    "--finalize-memref-to-llvm", "--convert-arith-to-llvm",
    "--convert-index-to-llvm", "--convert-cf-to-llvm", "--convert-func-to-llvm",
    "--reconcile-unrealized-casts"]

MLIR_DTYPE = {np.float32: "f32", np.float64: "f64", np.int32: "i32",
              np.int64: "i64", np.int8: "i8", np.bool_: "i1", np.float16: "f16"}


def mlir_dtype(a):
    return MLIR_DTYPE[a.dtype.type]


def tensor_type(shape, dt):
    return "tensor<" + "".join(f"{d}x" for d in shape) + dt + ">"


def literal(a):
    """The relay.constant literal of a NumPy array."""
    def fmt(v):
        if a.dtype == np.bool_:
            return "true" if v else "false"
        if np.issubdtype(a.dtype, np.floating):
            return repr(float(v))
        return str(int(v))
    def rec(x):
        if x.ndim == 0:
            return fmt(x[()])
        return "[" + ", ".join(rec(y) for y in x) + "]"
    return f"dense<{rec(a)}> : {tensor_type(a.shape, mlir_dtype(a))}"


def build(inputs, op, expected):
    """A @main applying `op` ($$i are the inputs) to literals and printing
    every result as f32."""
    lines = ["func.func private @printMemrefF32(tensor<*xf32>)",
             "func.func @main() {"]
    for i, a in enumerate(inputs):
        lines.append(f"  %in{i} = relay.constant {literal(a)}")
    text = op
    for i in range(len(inputs)):
        text = text.replace(f"$${i}", f"%in{i}")
    n = len(expected)
    res = "%r" if n == 1 else f"%r:{n}"
    lines.append(f"  {res} = {text}")
    for k, e in enumerate(expected):
        name = "%r" if n == 1 else f"%r#{k}"
        dt = mlir_dtype(e)
        t = tensor_type(e.shape, dt)
        if dt != "f32":
            lines.append(f"  %c{k} = relay.cast {name} {{dtype = f32}} : ({t})")
            name = f"%c{k}"
        lines.append(f"  %u{k} = tensor.cast {name} : {tensor_type(e.shape, 'f32')} to tensor<*xf32>")
        lines.append(f"  func.call @printMemrefF32(%u{k}) : (tensor<*xf32>) -> ()")
    lines += ["  return", "}"]
    return "\n".join(lines) + "\n"


def run(source):
    """Lowers and executes `source`; returns what it printed."""
    def step(command, text):
        result = subprocess.run(command, input=text, capture_output=True,
                                text=True)
        assert result.returncode == 0, f"{command[0]} failed:\n{result.stderr}"
        return result.stdout
    lowered = step([RAF_OPT, "--convert-relay-to-linalg", "-"], source)
    llvm = step([os.path.join(LLVM_BIN, "mlir-opt")] + PIPELINE, lowered)
    return step([os.path.join(LLVM_BIN, "mlir-runner"), "-e", "main",
                 "-entry-point-result=void",
                 "-shared-libs=" + ",".join(RUNNER_LIBS)], llvm)


def parse(stdout):
    """The arrays printMemrefF32 printed, in order."""
    results = []
    for chunk in stdout.split("Unranked Memref")[1:]:
        sizes = [int(s) for s in re.search(r"sizes = \[([^\]]*)\]", chunk).group(1).replace(" ", "").split(",") if s]
        data = chunk.split("data =", 1)[1]
        nums = re.findall(r"-?nan|-?inf|-?\d+(?:\.\d*)?(?:e[-+]?\d+)?", data)
        vals = np.array([float(v) for v in nums], dtype=np.float64)
        results.append(vals.reshape(sizes))
    return results



CASES = []


def c(name, inputs, op, expected, rtol=1e-4, atol=1e-5):
    CASES.append(pytest.param(inputs, op, [np.asarray(e) for e in expected],
                              rtol, atol, id=name))


rng = np.random.default_rng(0)


def randn(*shape):
    return rng.standard_normal(shape).astype(np.float32)


def T(a):
    return torch.from_numpy(np.ascontiguousarray(a))


def N(t):
    return t.detach().numpy()


def ty(a):
    return tensor_type(a.shape, mlir_dtype(a))


def un(name, a, attrs=""):
    """A unary relay op on input $$0."""
    return f"relay.{name} $$0 {attrs} : ({ty(a)})"


def bi(name, a, b, attrs=""):
    """A binary relay op on inputs $$0, $$1."""
    return f"relay.{name} $$0, $$1 {attrs} : ({ty(a)}, {ty(b)})"


# The cases. Expected values come from PyTorch or NumPy on the same inputs;
# integer results and i1 results are printed through a relay.cast to f32.
x = randn(2, 3, 4)
pos = np.abs(x) + 0.1
xi = rng.integers(-5, 6, (2, 3, 4)).astype(np.int32)

# Unary
c("relu", [x], un("nn.relu", x), [N(F.relu(T(x)))])
c("relu i32", [xi], un("nn.relu", xi), [np.maximum(xi, 0)])
c("leaky_relu", [x], un("nn.leaky_relu", x, "{alpha = 0.2 : f64}"), [N(F.leaky_relu(T(x), 0.2))])
c("sigmoid", [x], un("sigmoid", x), [N(torch.sigmoid(T(x)))])
c("tanh", [x], un("tanh", x), [N(torch.tanh(T(x)))])
c("exp", [x], un("exp", x), [N(torch.exp(T(x)))])
c("log", [pos], un("log", pos), [N(torch.log(T(pos)))])
c("sqrt", [pos], un("sqrt", pos), [N(torch.sqrt(T(pos)))])
c("rsqrt", [pos], un("rsqrt", pos), [N(torch.rsqrt(T(pos)))])
c("erf", [x], un("erf", x), [N(torch.erf(T(x)))])
c("gelu", [x], un("nn.gelu", x), [N(F.gelu(T(x)))])
c("gelu tanh", [x], un("nn.gelu", x, '{approximate = #relay.gelu_approximation<tanh>}'), [N(F.gelu(T(x), approximate="tanh"))])
c("negative", [x], un("negative", x), [-x])
c("negative i32", [xi], un("negative", xi), [-xi])
c("square", [x], un("square", x), [x * x])
c("square i32", [xi], un("square", xi), [xi * xi])
x16 = x.astype(np.float16)
c("exp f16", [x16], un("exp", x16), [np.exp(x16.astype(np.float32)).astype(np.float16)], rtol=1e-3)

def dropout_ref(a, rate, seed):
    """The documented nn.dropout mask (RelayOperators.td), in NumPy."""
    n = a.size
    i = np.arange(n, dtype=np.uint64)
    m = 0xFFFFFFFF
    h = (i + (seed & m) * 0x9E3779B9) & m
    h ^= h >> 16; h = (h * 0x85EBCA6B) & m
    h ^= h >> 13; h = (h * 0xC2B2AE35) & m
    h ^= h >> 16
    u = (h >> 8).astype(np.float64) * 2.0 ** -24
    keep = (u >= rate).reshape(a.shape)
    scale = np.float32(1.0 / (1.0 - rate))
    return np.where(keep, a * scale, np.float32(0)).astype(np.float32)
big = randn(4, 5, 6)
c("dropout", [big], un("nn.dropout", big, "{rate = 0.3 : f64, seed = 12345 : i64}"), [dropout_ref(big, 0.3, 12345)])
c("dropout seed -1", [big], un("nn.dropout", big, "{rate = 0.5 : f64, seed = -1 : i64}"), [dropout_ref(big, 0.5, -1)])
c("dropout rate 0", [big], un("nn.dropout", big, "{rate = 0.0 : f64}"), [big])
c("zeros_like", [x], un("zeros_like", x), [np.zeros_like(x)])
c("ones_like", [xi], un("ones_like", xi), [np.ones_like(xi)])
c("zeros", [], "relay.zeros {shape = array<i64: 2, 3>, dtype = f32}", [np.zeros((2, 3), np.float32)])
c("ones i32", [], "relay.ones {shape = array<i64: 4>, dtype = i32}", [np.ones(4, np.int32)])
c("cast f32->i32", [x * 3], un("cast", x, "{dtype = i32}"), [N(T(x * 3).to(torch.int32))])
c("cast i32->f32", [xi], un("cast", xi, "{dtype = f32}"), [xi.astype(np.float32)])
xb = (xi > 0)
c("cast i1->i32", [xb], un("cast", xb, "{dtype = i32}"), [xb.astype(np.int32)])
xz = np.where(xi > 0, x, 0).astype(np.float32)
c("cast f32->i1", [xz], un("cast", xz, "{dtype = i1}"), [xz != 0])
c("cast f32->f16", [x], un("cast", x, "{dtype = f16}"), [x.astype(np.float16)])
c("cast i32->i8", [xi * 40], un("cast", xi, "{dtype = i8}"), [(xi * 40).astype(np.int8)])

# Binary
y = randn(3, 1)
for name, fn in [("add", torch.add), ("subtract", torch.sub), ("multiply", torch.mul),
                 ("divide", torch.div), ("maximum", torch.maximum), ("minimum", torch.minimum)]:
    c(name, [x, y], bi(name, x, y), [N(fn(T(x), T(y)))])
c("power", [pos, y], bi("power", pos, y), [N(torch.pow(T(pos), T(y)))])
yi = rng.integers(-3, 4, (3, 1)).astype(np.int32)
c("add i32", [xi, yi], bi("add", xi, yi), [xi + yi])
c("divide i32 (trunc, /0 -> 0)", [xi, yi], bi("divide", xi, yi),
  [np.where(yi == 0, 0, np.trunc(xi / np.where(yi == 0, 1, yi))).astype(np.int32)])
c("maximum i32", [xi, yi], bi("maximum", xi, yi), [np.maximum(xi, yi)])
xr = np.round(x); yr = np.round(y)
for name, fn in [("equal", np.equal), ("not_equal", np.not_equal), ("less", np.less),
                 ("less_equal", np.less_equal), ("greater", np.greater), ("greater_equal", np.greater_equal)]:
    c(name, [xr, yr], bi(name, xr, yr), [fn(xr, yr)])
    c(name + " i32", [xi, yi], bi(name, xi, yi), [fn(xi, yi)])
cond = rng.random((3, 1)) > 0.5
c("where", [cond, x, y[:, :1].reshape(3, 1)], "relay.where $$0, $$1, $$2 : (tensor<3x1xi1>, tensor<2x3x4xf32>, tensor<3x1xf32>)",
  [np.where(cond, x, y)])
bias = randn(3); bias4 = randn(4)
c("bias_add", [x, bias], bi("nn.bias_add", x, bias), [x + bias[:, None]])
c("bias_add axis -1", [x, bias4], bi("nn.bias_add", x, bias4, "{axis = -1 : i64}"), [x + bias4])

# Reductions
c("sum all", [x], un("sum", x), [x.sum()])
c("sum axis 1 keepdims", [x], un("sum", x, "{axis = array<i64: 1>, keepdims = true}"), [x.sum(1, keepdims=True)])
c("sum exclude", [x], un("sum", x, "{axis = array<i64: 1>, exclude = true}"), [x.sum((0, 2))])
c("sum i32", [xi], un("sum", xi, "{axis = array<i64: -1>}"), [xi.sum(-1).astype(np.int32)])
c("mean", [x], un("mean", x, "{axis = array<i64: 0, 2>}"), [x.mean((0, 2))])
c("mean keepdims", [x], un("mean", x, "{axis = array<i64: 2>, keepdims = true}"), [x.mean(2, keepdims=True)])
c("max", [x], un("max", x, "{axis = array<i64: -1>}"), [x.max(-1)])
c("max all", [x], un("max", x), [x.max()])
c("max i32", [xi], un("max", xi, "{axis = array<i64: 1>}"), [xi.max(1)])
c("argmax", [x], un("argmax", x, "{axis = array<i64: 1>}"), [N(torch.argmax(T(x), 1)).astype(np.int32)])
c("argmax all", [x], un("argmax", x), [np.int32(np.argmax(x))])
c("argmax 2 axes", [x], un("argmax", x, "{axis = array<i64: 1, 2>, keepdims = true}"),
  [np.argmax(x.reshape(2, 12), 1).astype(np.int32).reshape(2, 1, 1)])
c("argmax ties i32", [xi], un("argmax", xi, "{axis = array<i64: 2>}"), [N(torch.argmax(T(xi).long(), 2)).astype(np.int32)])

# NN
img = randn(2, 4, 7, 6); w = randn(6, 4, 3, 3)
def conv(x_, w_, s=1, p=0, d=1, g=1): return N(F.conv2d(T(x_), T(w_), stride=s, padding=p, dilation=d, groups=g))
c("conv2d", [img, w], bi("nn.conv2d", img, w), [conv(img, w)])
c("conv2d s2 p1 d2", [img, w], bi("nn.conv2d", img, w, "{strides = array<i64: 2, 1>, padding = array<i64: 1, 2>, dilation = array<i64: 2, 1>}"),
  [conv(img, w, (2, 1), (1, 2), (2, 1))])
c("conv2d pad4", [img, w], bi("nn.conv2d", img, w, "{padding = array<i64: 1, 0, 2, 1>}"),
  [conv(np.pad(img, ((0, 0), (0, 0), (1, 2), (0, 1))), w)])
wg = randn(6, 2, 3, 3)
c("conv2d groups 2", [img, wg], bi("nn.conv2d", img, wg, "{groups = 2 : i64, padding = array<i64: 1>}"), [conv(img, wg, p=1, g=2)])
wd = randn(4, 1, 3, 3)
c("conv2d depthwise", [img, wd], bi("nn.conv2d", img, wd, "{groups = 4 : i64, strides = array<i64: 2, 2>}"), [conv(img, wd, s=2, g=4)])
wd2 = randn(8, 1, 3, 3)
c("conv2d depthwise x2", [img, wd2], bi("nn.conv2d", img, wd2, "{groups = 4 : i64}"), [conv(img, wd2, g=4)])
img_nhwc = img.transpose(0, 2, 3, 1).copy(); w_hwio = w.transpose(2, 3, 1, 0).copy()
c("conv2d NHWC/HWIO", [img_nhwc, w_hwio], bi("nn.conv2d", img_nhwc, w_hwio, '{data_layout = #relay.layout<NHWC>, kernel_layout = #relay.layout<HWIO>, padding = array<i64: 1>}'),
  [conv(img, w, p=1).transpose(0, 2, 3, 1)])
c("conv2d NHWC/OIHW", [img_nhwc, w], bi("nn.conv2d", img_nhwc, w, '{data_layout = #relay.layout<NHWC>, strides = array<i64: 2, 2>}'),
  [conv(img, w, s=2).transpose(0, 2, 3, 1)])
wgh = wg.transpose(2, 3, 1, 0).copy()
c("conv2d NHWC/HWIO groups", [img_nhwc, wgh], bi("nn.conv2d", img_nhwc, wgh, '{data_layout = #relay.layout<NHWC>, kernel_layout = #relay.layout<HWIO>, groups = 2 : i64}'),
  [conv(img, wg, g=2).transpose(0, 2, 3, 1)])
i8 = rng.integers(-128, 128, (1, 3, 5, 5)).astype(np.int8); w8 = rng.integers(-128, 128, (2, 3, 3, 3)).astype(np.int8)
c("conv2d i8->i32", [i8, w8], bi("nn.conv2d", i8, w8, "{out_dtype = i32}"),
  [conv(i8.astype(np.float64), w8.astype(np.float64)).astype(np.int32)])
def convt(x_, w_, s=1, p=0, op=0, d=1, g=1):
    return N(F.conv_transpose2d(T(x_), T(w_), stride=s, padding=p, output_padding=op, dilation=d, groups=g))
ti = randn(2, 4, 5, 4); tw = randn(4, 3, 3, 3)
c("conv2d_transpose", [ti, tw], bi("nn.conv2d_transpose", ti, tw), [convt(ti, tw)])
c("conv2d_transpose s2 p1 op1", [ti, tw], bi("nn.conv2d_transpose", ti, tw, "{strides = array<i64: 2, 2>, padding = array<i64: 1>, output_padding = array<i64: 1, 1>}"),
  [convt(ti, tw, 2, 1, 1)])
c("conv2d_transpose dil2 s3 p(2,1)", [ti, tw], bi("nn.conv2d_transpose", ti, tw, "{strides = array<i64: 3, 2>, padding = array<i64: 2, 1>, dilation = array<i64: 2, 1>, output_padding = array<i64: 1, 0>}"),
  [convt(ti, tw, (3, 2), (2, 1), (1, 0), (2, 1))])
c("conv2d_transpose crop p3", [ti, tw], bi("nn.conv2d_transpose", ti, tw, "{strides = array<i64: 3, 3>, padding = array<i64: 3>}"),
  [convt(ti, tw, 3, 3)])
twg = randn(4, 2, 3, 2)
c("conv2d_transpose groups 2", [ti, twg], bi("nn.conv2d_transpose", ti, twg, "{groups = 2 : i64, strides = array<i64: 2, 2>}"),
  [convt(ti, twg, 2, g=2)])
ti_nhwc = ti.transpose(0, 2, 3, 1).copy()
c("conv2d_transpose NHWC", [ti_nhwc, tw], bi("nn.conv2d_transpose", ti_nhwc, tw, '{data_layout = #relay.layout<NHWC>, strides = array<i64: 2, 2>}'),
  [convt(ti, tw, 2).transpose(0, 2, 3, 1)])
dx = randn(2, 3, 4); dw = randn(5, 4)
c("dense", [dx, dw], bi("nn.dense", dx, dw), [N(F.linear(T(dx), T(dw)))])
dv = randn(4)
c("dense 1-D", [dv, dw], bi("nn.dense", dv, dw), [N(F.linear(T(dv), T(dw)))])
di = rng.integers(-128, 128, (3, 4)).astype(np.int8); dwi = rng.integers(-128, 128, (5, 4)).astype(np.int8)
c("dense i8->i32", [di, dwi], bi("nn.dense", di, dwi, "{out_dtype = i32}"), [(di.astype(np.int32) @ dwi.astype(np.int32).T)])
ma = randn(3, 4); mb = randn(4, 5)
c("matmul", [ma, mb], bi("nn.matmul", ma, mb), [ma @ mb])
c("matmul ta tb", [ma.T.copy(), mb.T.copy()], bi("nn.matmul", ma.T.copy(), mb.T.copy(), "{transpose_a = true, transpose_b = true}"), [ma @ mb])
ba = randn(2, 3, 4); bb = randn(2, 5, 4)
c("batch_matmul (tb default)", [ba, bb], bi("nn.batch_matmul", ba, bb), [ba @ bb.transpose(0, 2, 1)])
bb1 = randn(1, 4, 5)
c("batch_matmul bcast, tb false", [ba, bb1], bi("nn.batch_matmul", ba, bb1, "{transpose_b = false}"), [ba @ bb1])
ba1 = randn(1, 4, 3)
c("batch_matmul ta, bcast a", [ba1, bb], bi("nn.batch_matmul", ba1, bb, "{transpose_a = true}"), [ba1.transpose(0, 2, 1) @ bb.transpose(0, 2, 1)])
pimg = randn(2, 3, 7, 8)
def mp(**k): return N(F.max_pool2d(T(pimg), **k))
c("max_pool2d", [pimg], un("nn.max_pool2d", pimg, "{pool_size = array<i64: 3, 3>, strides = array<i64: 2, 2>, padding = array<i64: 1>}"),
  [mp(kernel_size=3, stride=2, padding=1)])
c("max_pool2d ceil", [pimg], un("nn.max_pool2d", pimg, "{pool_size = array<i64: 2, 3>, strides = array<i64: 2, 2>, ceil_mode = true}"),
  [mp(kernel_size=(2, 3), stride=2, ceil_mode=True)])
c("max_pool2d dil", [pimg], un("nn.max_pool2d", pimg, "{pool_size = array<i64: 2, 2>, dilation = array<i64: 2, 2>, padding = array<i64: 1>}"),
  [mp(kernel_size=2, stride=1, dilation=2, padding=1)])
pimg_nhwc = pimg.transpose(0, 2, 3, 1).copy()
c("max_pool2d NHWC", [pimg_nhwc], un("nn.max_pool2d", pimg_nhwc, '{pool_size = array<i64: 2, 2>, strides = array<i64: 2, 2>, layout = #relay.layout<NHWC>}'),
  [mp(kernel_size=2, stride=2).transpose(0, 2, 3, 1)])
pimgi = rng.integers(-100, 100, (1, 2, 5, 5)).astype(np.int32)
c("max_pool2d i32", [pimgi], un("nn.max_pool2d", pimgi, "{pool_size = array<i64: 3, 3>, padding = array<i64: 1>}"),
  [N(F.max_pool2d(T(pimgi.astype(np.float32)), 3, 1, 1)).astype(np.int32)])
def ap(**k): return N(F.avg_pool2d(T(pimg), **k))
c("avg_pool2d", [pimg], un("nn.avg_pool2d", pimg, "{pool_size = array<i64: 3, 3>, strides = array<i64: 2, 2>, padding = array<i64: 1>}"),
  [ap(kernel_size=3, stride=2, padding=1, count_include_pad=False)])
c("avg_pool2d include pad", [pimg], un("nn.avg_pool2d", pimg, "{pool_size = array<i64: 3, 3>, strides = array<i64: 2, 2>, padding = array<i64: 1>, count_include_pad = true}"),
  [ap(kernel_size=3, stride=2, padding=1, count_include_pad=True)])
c("avg_pool2d ceil include pad", [pimg], un("nn.avg_pool2d", pimg, "{pool_size = array<i64: 3, 2>, strides = array<i64: 2, 3>, padding = array<i64: 1>, ceil_mode = true, count_include_pad = true}"),
  [ap(kernel_size=(3, 2), stride=(2, 3), padding=1, ceil_mode=True, count_include_pad=True)])
c("avg_pool2d ceil exclude pad", [pimg], un("nn.avg_pool2d", pimg, "{pool_size = array<i64: 3, 3>, strides = array<i64: 2, 2>, padding = array<i64: 1>, ceil_mode = true}"),
  [ap(kernel_size=3, stride=2, padding=1, ceil_mode=True, count_include_pad=False)])
c("avg_pool2d NHWC", [pimg_nhwc], un("nn.avg_pool2d", pimg_nhwc, '{pool_size = array<i64: 2, 2>, strides = array<i64: 2, 2>, layout = #relay.layout<NHWC>}'),
  [ap(kernel_size=2, stride=2).transpose(0, 2, 3, 1)])
c("global_avg_pool2d", [pimg], un("nn.global_avg_pool2d", pimg), [N(F.adaptive_avg_pool2d(T(pimg), 1))])
c("global_avg_pool2d NHWC", [pimg_nhwc], un("nn.global_avg_pool2d", pimg_nhwc, '{layout = #relay.layout<NHWC>}'),
  [N(F.adaptive_avg_pool2d(T(pimg), 1)).transpose(0, 2, 3, 1)])

# Normalisation and losses
c("softmax", [x], un("nn.softmax", x), [N(F.softmax(T(x), -1))])
c("softmax axis 0", [x * 30], un("nn.softmax", x, "{axis = 0 : i64}"), [N(F.softmax(T(x * 30), 0))])
c("log_softmax", [x * 30], un("nn.log_softmax", x, "{axis = 1 : i64}"), [N(F.log_softmax(T(x * 30), 1))])
g4 = randn(4); b4 = randn(4); g3 = randn(3); b3 = randn(3)
c("layer_norm", [x, g4, b4], f"relay.nn.layer_norm $$0, $$1, $$2 : ({ty(x)}, {ty(g4)}, {ty(b4)})",
  [N(F.layer_norm(T(x), (4,), T(g4), T(b4)))])
c("layer_norm axis 1 no center", [x, g3, b3], f"relay.nn.layer_norm $$0, $$1, $$2 {{axis = 1 : i64, center = false, epsilon = 1.0e-3 : f64}} : ({ty(x)}, {ty(g3)}, {ty(b3)})",
  [N(F.layer_norm(T(x.transpose(0, 2, 1).copy()), (3,), T(g3), None, 1e-3)).transpose(0, 2, 1)])
bimg = randn(2, 3, 4, 5); mm = randn(3); mv = np.abs(randn(3)) + 0.5
bn_ty = f"({ty(bimg)}, {ty(g3)}, {ty(b3)}, {ty(mm)}, {ty(mv)})"
c("batch_norm inference", [bimg, g3, b3, mm, mv], f"relay.nn.batch_norm $$0, $$1, $$2, $$3, $$4 : {bn_ty}",
  [N(F.batch_norm(T(bimg), T(mm), T(mv), T(g3), T(b3), False)), mm, mv])
rm, rv = T(mm.copy()), T(mv.copy())
ytrain = N(F.batch_norm(T(bimg), rm, rv, T(g3), T(b3), True, 0.2, 1e-5))
c("batch_norm training", [bimg, g3, b3, mm, mv], f"relay.nn.batch_norm $$0, $$1, $$2, $$3, $$4 {{training = true, momentum = 0.2 : f64}} : {bn_ty}",
  [ytrain, N(rm), N(rv)])
c("batch_norm training no scale", [bimg, g3, b3, mm, mv], f"relay.nn.batch_norm $$0, $$1, $$2, $$3, $$4 {{training = true, scale = false}} : {bn_ty}",
  [N(F.batch_norm(T(bimg), T(mm.copy()), T(mv.copy()), None, T(b3), True, 0.1, 1e-5)),
   N(0.9 * T(mm) + 0.1 * T(bimg).mean((0, 2, 3))), N(0.9 * T(mv) + 0.1 * T(bimg).var((0, 2, 3), unbiased=True))])
lp = N(F.log_softmax(T(randn(5, 4)), 1)); tg = np.array([0, 3, -100, 1, 2], np.int64)
for red in ["mean", "sum", "none"]:
    c(f"nll_loss {red}", [lp, tg], f'relay.nn.nll_loss $$0, $$1 {{reduction = #relay.loss_reduction<{red}>}} : ({ty(lp)}, {ty(tg)})',
      [N(F.nll_loss(T(lp), T(tg), reduction=red))])
lp4 = randn(2, 3, 2, 2); tg4 = rng.integers(0, 3, (2, 2, 2)).astype(np.int32); tg4[0, 0, 0] = 1
c("nll_loss 4-D ignore 1", [lp4, tg4], f'relay.nn.nll_loss $$0, $$1 {{ignore_index = 1 : i64}} : ({ty(lp4)}, {ty(tg4)})',
  [N(F.nll_loss(T(lp4), T(tg4).long(), ignore_index=1))])
lg = randn(5, 4) * 3
for red in ["mean", "sum", "none"]:
    c(f"cross_entropy idx {red}", [lg, tg], f'relay.nn.cross_entropy $$0, $$1 {{reduction = #relay.loss_reduction<{red}>}} : ({ty(lg)}, {ty(tg)})',
      [N(F.cross_entropy(T(lg), T(tg), reduction=red))])
    pr = N(F.softmax(T(randn(5, 4)), 1))
    c(f"cross_entropy prob {red}", [lg, pr], f'relay.nn.cross_entropy $$0, $$1 {{reduction = #relay.loss_reduction<{red}>}} : ({ty(lg)}, {ty(pr)})',
      [N(F.cross_entropy(T(lg), T(pr), reduction=red))])

# Shape
c("reshape", [x], un("reshape", x, "{newshape = array<i64: 0, -1>}"), [x.reshape(2, 12)])
c("reshape 4x6", [x], un("reshape", x, "{newshape = array<i64: 4, 6>}"), [x.reshape(4, 6)])
c("transpose", [x], un("transpose", x, "{axes = array<i64: 1, -1, 0>}"), [x.transpose(1, 2, 0)])
c("transpose default", [x], un("transpose", x), [x.transpose()])
c("expand_dims", [x], un("expand_dims", x, "{axis = -1 : i64, num_newaxis = 2 : i64}"), [x[..., None, None]])
sq = randn(1, 3, 1, 2)
c("squeeze", [sq], un("squeeze", sq), [sq.squeeze()])
c("squeeze axis", [sq], un("squeeze", sq, "{axis = array<i64: 2>}"), [sq.squeeze(2)])
x2 = randn(2, 2, 4)
c("concatenate", [x, x2], f"relay.concatenate $$0, $$1 {{axis = -2 : i64}} : ({ty(x)}, {ty(x2)})", [np.concatenate([x, x2], 1)])
c("split sections", [x], un("split", x, "{sections = 2 : i64, axis = 2 : i64}"), list(np.split(x, 2, 2)))
c("split indices", [x], un("split", x, "{indices = array<i64: 1, 2>, axis = 1 : i64}"), list(np.split(x, [1, 2], 1)))
c("strided_slice", [x], un("strided_slice", x, "{begin = array<i64: 0, 1>, end = array<i64: 2, 4>, strides = array<i64: 1, 2>, axes = array<i64: 0, 2>}"),
  [x[0:2, :, 1:4:2]])
c("strided_slice negative", [x], un("strided_slice", x, "{begin = array<i64: -1, 3>, end = array<i64: -10, 0>, strides = array<i64: -1, -2>, axes = array<i64: 1, 2>}"),
  [x[:, -1:-10:-1, 3:0:-2]])
c("strided_slice clamp", [x], un("strided_slice", x, "{begin = array<i64: -100>, end = array<i64: 100>}"), [x[-100:100]])
idx = np.array([[0, 2], [-1, 5]], np.int32)
c("take clip axis 1", [x, idx], f"relay.take $$0, $$1 {{axis = 1 : i64}} : ({ty(x)}, {ty(idx)})",
  [np.take(x, np.clip(idx, 0, 2), axis=1)])
c("take wrap axis -1", [x, idx], f'relay.take $$0, $$1 {{axis = -1 : i64, mode = #relay.take_mode<wrap>}} : ({ty(x)}, {ty(idx)})',
  [np.take(x, idx, axis=-1, mode="wrap")])
idx64 = np.array([0, 23, 30, -3], np.int64)
c("take flat clip", [x, idx64], f"relay.take $$0, $$1 : ({ty(x)}, {ty(idx64)})", [np.take(x, np.clip(idx64, 0, 23))])
c("take flat wrap", [x, idx64], f'relay.take $$0, $$1 {{mode = #relay.take_mode<wrap>}} : ({ty(x)}, {ty(idx64)})', [np.take(x, idx64, mode="wrap")])
pw = "array<i64: 0, 1, 2, 1, 3, 2>"
c("pad constant", [x], un("nn.pad", x, f"{{pad_width = {pw}, pad_value = 1.5 : f64}}"), [np.pad(x, ((0, 1), (2, 1), (3, 2)), constant_values=1.5)])
c("pad constant i32", [xi], un("nn.pad", xi, f"{{pad_width = {pw}, pad_value = -2.0 : f64}}"), [np.pad(xi, ((0, 1), (2, 1), (3, 2)), constant_values=-2)])
c("pad edge", [x], un("nn.pad", x, f'{{pad_width = {pw}, pad_mode = #relay.pad_mode<edge>}}'), [np.pad(x, ((0, 1), (2, 1), (3, 2)), mode="edge")])
c("pad reflect", [x], un("nn.pad", x, f'{{pad_width = {pw}, pad_mode = #relay.pad_mode<reflect>}}'), [np.pad(x, ((0, 1), (2, 1), (3, 2)), mode="reflect")])
bt = randn(3, 1)
c("broadcast_to", [bt], un("broadcast_to", bt, "{shape = array<i64: 2, 3, 4>}"), [np.broadcast_to(bt, (2, 3, 4))])
c("broadcast_to scalar", [np.float32(2.5).reshape(())], "relay.broadcast_to $$0 {shape = array<i64: 2, 2>} : (tensor<f32>)", [np.full((2, 2), 2.5, np.float32)])



@pytest.mark.parametrize("inputs, op, expected, rtol, atol", CASES)
def test_operator_matches_torch(inputs, op, expected, rtol, atol):
    got = parse(run(build(inputs, op, expected)))
    assert len(got) == len(expected)
    for g, e in zip(got, expected):
        assert g.shape == e.shape
        np.testing.assert_allclose(g, e.astype(np.float64), rtol=rtol,
                                   atol=atol, equal_nan=True)
