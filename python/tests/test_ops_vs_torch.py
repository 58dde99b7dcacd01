"""Numerics of every relay operator against PyTorch.

Each case is one relay operator applied to seeded random inputs. The inputs
are written as .npy files, `raf-run` executes the single-op function on a
target (`interp`: the reference evaluator; `cpu`: the compiled path), and
the result is compared with the same computation done in PyTorch (NumPy
where PyTorch has no equivalent, e.g. negative-stride slices, edge/reflect
padding of arbitrary axes). A `cpu` case is expected to fail only when
raf-run reports that the operator has no lowering yet.

Run with:  /usr/bin/python3 -m pytest python/tests/test_ops_vs_torch.py
The build directory is $RAF_BUILD_DIR (default: <repo>/build).
"""

import re
import subprocess
import zlib

import numpy as np
import pytest
import torch
import torch.nn.functional as F

from raf_tools import require_tools, REPO, RAF_RUN  # noqa: E402

require_tools(RAF_RUN)

# What raf-run --target=cpu says when --convert-relay-to-linalg cannot lower
# an operator yet. Only this makes a cpu case an expected failure.
NOT_LOWERABLE = re.compile(r"has no lowering to linalg")

# Tolerances per result element type. The PyTorch reference is computed in
# float64 and rounded once to the result type, so it is as exact as the
# result type allows. The reference evaluator also computes in double and
# rounds once (within half an ulp of the reference); the compiled path
# accumulates in the element type, which for f32 sums of up to ~100 products
# of magnitude ~1 costs a few 1e-7 absolute. rtol = atol = 1e-5 leaves room
# for that and still catches any wrong index, padding or formula (those
# produce errors of order 1e-1). f16 has an ulp of ~1e-3 at 1.0.
TOLERANCES = {
    np.float64: dict(rtol=1e-12, atol=1e-12),
    np.float32: dict(rtol=1e-5, atol=1e-5),
    np.float16: dict(rtol=2e-3, atol=2e-3),
}

MLIR_DTYPES = {
    np.dtype(np.float16): "f16",
    np.dtype(np.float32): "f32",
    np.dtype(np.float64): "f64",
    np.dtype(np.int8): "i8",
    np.dtype(np.int16): "i16",
    np.dtype(np.int32): "i32",
    np.dtype(np.int64): "i64",
    np.dtype(np.uint8): "ui8",
    np.dtype(np.bool_): "i1",
}


def tensor_type(shape, dtype):
    dims = "".join(f"{d}x" for d in shape)
    return f"tensor<{dims}{MLIR_DTYPES[np.dtype(dtype)]}>"


# --------------------------------------------------------------------------
# Input generators (each takes the case's seeded numpy Generator)
# --------------------------------------------------------------------------


def f32(*shape, low=-1.0, high=1.0):
    return lambda r: r.uniform(low, high, shape).astype(np.float32)


def positive(*shape):
    return f32(*shape, low=0.1, high=2.0)


def f16(*shape):
    return lambda r: r.uniform(-1.0, 1.0, shape).astype(np.float16)


def ints(low, high, *shape, dtype=np.int32):
    return lambda r: r.integers(low, high, shape).astype(dtype)


def small_floats(*shape):
    """Floats from {0, 1, 2}: comparisons then see equal elements."""
    return lambda r: r.integers(0, 3, shape).astype(np.float32)


def booleans(*shape):
    return lambda r: r.integers(0, 2, shape).astype(np.bool_)


def log_probabilities(*shape):
    def make(r):
        x = torch.from_numpy(r.uniform(-2, 2, shape))
        return F.log_softmax(x, dim=1).numpy().astype(np.float32)

    return make


def probabilities(*shape):
    def make(r):
        x = torch.from_numpy(r.uniform(-2, 2, shape))
        return F.softmax(x, dim=1).numpy().astype(np.float32)

    return make


# --------------------------------------------------------------------------
# Cases
# --------------------------------------------------------------------------


class Case:
    """`relay.<op> %a0, %a1, ... {attrs}` against `reference(*tensors)`.

    `reference` receives torch tensors (floats as float64) and returns a
    tensor or a tuple of tensors. Float results take the element type of the
    first float input unless `result_dtypes` says otherwise.
    """

    def __init__(self, id, op, inputs, reference, attrs="",
                 result_dtypes=None, tol=None):
        self.id = id
        self.op = op
        self.inputs = inputs
        self.reference = reference
        self.attrs = attrs
        self.result_dtypes = result_dtypes
        self.tol = tol

    def make_inputs(self):
        rng = np.random.default_rng(zlib.crc32(self.id.encode()))
        return [make(rng) for make in self.inputs]

    def expected(self, arrays):
        tensors = [
            torch.from_numpy(a.astype(np.float64))
            if np.issubdtype(a.dtype, np.floating) else torch.from_numpy(a)
            for a in arrays
        ]
        with torch.no_grad():
            out = self.reference(*tensors)
        outs = list(out) if isinstance(out, (tuple, list)) else [out]
        outs = [o.numpy() if isinstance(o, torch.Tensor) else np.asarray(o)
                for o in outs]
        float_inputs = [a.dtype for a in arrays
                        if np.issubdtype(a.dtype, np.floating)]
        dtypes = self.result_dtypes or [
            float_inputs[0] if np.issubdtype(o.dtype, np.floating) else o.dtype
            for o in outs
        ]
        return [np.asarray(o).astype(d) for o, d in zip(outs, dtypes)]

    def mlir(self, arrays, results):
        arg_types = [tensor_type(a.shape, a.dtype) for a in arrays]
        result_types = [tensor_type(r.shape, r.dtype) for r in results]
        args = ", ".join(f"%a{i}: {t}" for i, t in enumerate(arg_types))
        operands = ", ".join(f"%a{i}" for i in range(len(arrays)))
        n = len(results)
        lhs = "%r" if n == 1 else f"%r:{n}"
        returned = "%r" if n == 1 else ", ".join(f"%r#{i}" for i in range(n))
        attrs = f" {{{self.attrs}}}" if self.attrs else ""
        space = " " if operands else ""
        return (
            f"func.func @main({args}) -> ({', '.join(result_types)}) {{\n"
            f"  {lhs} = relay.{self.op}{space}{operands}{attrs} : "
            f"({', '.join(arg_types)})\n"
            f"  return {returned} : {', '.join(result_types)}\n"
            "}\n"
        )


def dropout_reference(rate, seed):
    """The documented dropout mask, computed independently with numpy."""

    def reference(x):
        mask32 = np.uint64(0xFFFFFFFF)
        i = np.arange(x.numel(), dtype=np.uint64)
        h = (i + np.uint64(seed) * np.uint64(0x9E3779B9)) & mask32
        h ^= h >> np.uint64(16)
        h = (h * np.uint64(0x85EBCA6B)) & mask32
        h ^= h >> np.uint64(13)
        h = (h * np.uint64(0xC2B2AE35)) & mask32
        h ^= h >> np.uint64(16)
        u = (h >> np.uint64(8)).astype(np.float32) * np.float32(2.0 ** -24)
        keep = torch.from_numpy(u.astype(np.float64) >= rate).reshape(x.shape)
        return torch.where(keep, x / (1.0 - rate), torch.zeros_like(x))

    return reference


def nchw(x, layout):
    """Permutes a canonical NCHW/OIHW tensor into `layout` order."""
    return x.permute(*["NCHW".index(c) for c in layout])


def from_layout(x, layout, canonical="NCHW"):
    return x.permute(*[layout.index(c) for c in canonical])


def conv2d_nhwc_hwio(x, w):
    y = F.conv2d(from_layout(x, "NHWC"), from_layout(w, "HWIO", "OIHW"))
    return nchw(y, "NHWC")


def layer_norm_axis1(x, g, b):
    var, mean = torch.var_mean(x, dim=1, keepdim=True, unbiased=False)
    return (x - mean) / torch.sqrt(var + 1e-5) * g[:, None] + b[:, None]


def batch_norm_training(x, g, b, mean, var):
    running_mean, running_var = mean.clone(), var.clone()
    y = F.batch_norm(x, running_mean, running_var, g, b, training=True,
                     momentum=0.1, eps=1e-5)
    return y, running_mean, running_var


def batch_norm_inference(x, g, b, mean, var):
    return F.batch_norm(x, mean, var, g, b, training=False, eps=1e-5), mean, var


def take_reference(axis, mode):
    def reference(data, indices):
        flat = data.reshape(-1) if axis is None else data
        dim = 0 if axis is None else axis
        extent = flat.shape[dim]
        idx = indices.long()
        if mode == "clip":
            idx = idx.clamp(0, extent - 1)
        elif mode == "wrap":
            idx = idx.remainder(extent)
        out = flat.index_select(dim, idx.reshape(-1))
        shape = (list(flat.shape[:dim]) + list(indices.shape)
                 + list(flat.shape[dim + 1:]))
        return out.reshape(shape)

    return reference


def pool_grad_reference(pool, layout="NCHW", **kwargs):
    """The gradient of `pool(data, **kwargs)` (a PyTorch pooling in NCHW)
    with respect to `data`, for the output gradient `out_grad`, by autograd.
    Tensors arrive and leave in `layout`."""

    def reference(out_grad, data):
        with torch.enable_grad():
            x = from_layout(data, layout).clone().requires_grad_()
            pool(x, **kwargs).backward(from_layout(out_grad, layout))
        return nchw(x.grad, layout)

    return reference


def dilated_avg_pool2d(x, kernel_size, stride, padding, dilation):
    """avg_pool2d with dilation and count_include_pad = False, which
    F.avg_pool2d lacks: a depthwise convolution with ones, divided by the
    number of window positions inside the input."""
    channels = x.shape[1]
    ones = torch.ones(channels, 1, kernel_size, kernel_size, dtype=x.dtype)
    conv = dict(stride=stride, padding=padding, dilation=dilation)
    sums = F.conv2d(x, ones, groups=channels, **conv)
    counts = F.conv2d(torch.ones_like(x[:1, :1]), ones[:1], **conv)
    return sums / counts


def nan_floats(*shape):
    """Floats with a few NaNs, which win a max window (PyTorch)."""

    def make(r):
        x = r.uniform(-1.0, 1.0, shape).astype(np.float32)
        x[r.uniform(size=shape) < 0.1] = np.nan
        return x

    return make


def numpy_reference(fn):
    """For layouts PyTorch cannot express; numpy is the oracle there."""
    return lambda *xs: torch.from_numpy(
        np.ascontiguousarray(fn(*[x.numpy() for x in xs])))


def i64_array(values):
    return f"array<i64: {', '.join(str(v) for v in values)}>"


X = (2, 3, 4)
IMG = (2, 4, 7, 7)

CASES = [
    # Unary element-wise.
    Case("relu", "nn.relu", [f32(*X)], F.relu),
    Case("relu_i32", "nn.relu", [ints(-5, 5, *X)], torch.relu),
    Case("leaky_relu", "nn.leaky_relu", [f32(*X)],
         lambda x: F.leaky_relu(x, 0.2), attrs="alpha = 2.000000e-01 : f64"),
    Case("sigmoid", "sigmoid", [f32(*X, low=-6, high=6)], torch.sigmoid),
    Case("tanh", "tanh", [f32(*X, low=-3, high=3)], torch.tanh),
    Case("exp", "exp", [f32(*X, low=-3, high=3)], torch.exp),
    Case("log", "log", [positive(*X)], torch.log),
    Case("sqrt", "sqrt", [positive(*X)], torch.sqrt),
    Case("rsqrt", "rsqrt", [positive(*X)], torch.rsqrt),
    Case("erf", "erf", [f32(*X, low=-2, high=2)], torch.erf),
    Case("gelu_erf", "nn.gelu", [f32(*X, low=-3, high=3)], F.gelu),
    Case("gelu_tanh", "nn.gelu", [f32(*X, low=-3, high=3)],
         lambda x: F.gelu(x, approximate="tanh"), attrs='approximate = #relay.gelu_approximation<tanh>'),
    Case("negative", "negative", [f32(*X)], torch.neg),
    Case("negative_i32", "negative", [ints(-9, 9, *X)], torch.neg),
    Case("square", "square", [f32(*X)], torch.square),
    Case("square_f16", "square", [f16(*X)], torch.square),
    Case("dropout", "nn.dropout", [f32(4, 8, 8)], dropout_reference(0.3, 42),
         attrs="rate = 3.000000e-01 : f64, seed = 42 : i64"),
    Case("zeros_like", "zeros_like", [f32(*X)], torch.zeros_like),
    Case("ones_like_i32", "ones_like", [ints(0, 9, *X)], torch.ones_like),
    Case("cast_f32_i32", "cast", [f32(*X, low=-20, high=20)],
         lambda x: x.to(torch.int32), attrs="dtype = i32",
         result_dtypes=[np.int32]),
    Case("cast_f32_f16", "cast", [f32(*X)], lambda x: x.float().half(),
         attrs="dtype = f16", result_dtypes=[np.float16]),
    Case("cast_i32_f32", "cast", [ints(-1000, 1000, *X)],
         lambda x: x.float(), attrs="dtype = f32", result_dtypes=[np.float32]),
    Case("cast_i32_i8_wraps", "cast", [ints(-1000, 1000, *X)],
         lambda x: x.to(torch.int8), attrs="dtype = i8"),
    # Broadcasting binary operators.
    Case("add", "add", [f32(*X), f32(3, 1)], torch.add),
    Case("add_i32", "add", [ints(-50, 50, *X), ints(-50, 50, 4)], torch.add),
    Case("subtract", "subtract", [f32(4), f32(2, 3, 1)], torch.sub),
    Case("multiply", "multiply", [f32(*X), f32(1, 3, 1)], torch.mul),
    Case("multiply_i32", "multiply", [ints(-9, 9, *X), ints(-9, 9, *X)],
         torch.mul),
    Case("divide", "divide", [f32(*X), positive(*X)], torch.div),
    Case("divide_i32_truncates", "divide", [ints(-20, 20, *X), ints(1, 6, 4)],
         lambda a, b: torch.div(a, b, rounding_mode="trunc")),
    Case("power", "power", [positive(*X), f32(4)], torch.pow),
    Case("maximum", "maximum", [f32(*X), f32(3, 1)], torch.maximum),
    Case("minimum", "minimum", [f32(*X), f32(3, 1)], torch.minimum),
    Case("maximum_i32", "maximum", [ints(-9, 9, *X), ints(-9, 9, 4)],
         torch.maximum),
    Case("equal", "equal", [small_floats(*X), small_floats(3, 1)], torch.eq),
    Case("not_equal", "not_equal", [small_floats(*X), small_floats(4)],
         torch.ne),
    Case("less", "less", [small_floats(*X), small_floats(3, 1)], torch.lt),
    Case("less_equal", "less_equal", [small_floats(*X), small_floats(3, 1)],
         torch.le),
    Case("greater", "greater", [ints(0, 3, *X), ints(0, 3, 3, 1)], torch.gt),
    Case("greater_equal", "greater_equal",
         [small_floats(*X), small_floats(3, 1)], torch.ge),
    Case("equal_bool", "equal", [booleans(*X), booleans(4)], torch.eq),
    Case("where", "where", [booleans(2, 1, 4), f32(3, 4), f32(2, 3, 1)],
         torch.where),
    Case("bias_add", "nn.bias_add", [f32(2, 3, 4, 5), f32(3)],
         lambda x, b: x + b[:, None, None]),
    Case("bias_add_last_axis", "nn.bias_add", [f32(2, 3, 4), f32(4)],
         torch.add, attrs="axis = -1 : i64"),
    # Convolutions.
    Case("conv2d", "nn.conv2d", [f32(*IMG), f32(6, 4, 3, 3)], F.conv2d),
    Case("conv2d_stride2_pad1", "nn.conv2d", [f32(*IMG), f32(6, 4, 3, 3)],
         lambda x, w: F.conv2d(x, w, stride=2, padding=1),
         attrs="strides = array<i64: 2, 2>, padding = array<i64: 1, 1>"),
    Case("conv2d_rectangular_stride", "nn.conv2d",
         [f32(*IMG), f32(6, 4, 2, 3)],
         lambda x, w: F.conv2d(x, w, stride=(1, 2), padding=(0, 1)),
         attrs="strides = array<i64: 1, 2>, padding = array<i64: 0, 1>"),
    Case("conv2d_dilation2", "nn.conv2d", [f32(*IMG), f32(6, 4, 3, 3)],
         lambda x, w: F.conv2d(x, w, padding=2, dilation=2),
         attrs="dilation = array<i64: 2, 2>, padding = array<i64: 2>"),
    Case("conv2d_asymmetric_padding", "nn.conv2d",
         [f32(*IMG), f32(6, 4, 3, 3)],
         # TVM order (top, left, bottom, right); F.pad takes (l, r, t, b).
         lambda x, w: F.conv2d(F.pad(x, (0, 1, 1, 2)), w, stride=2),
         attrs="padding = array<i64: 1, 0, 2, 1>, strides = array<i64: 2, 2>"),
    Case("conv2d_groups2", "nn.conv2d", [f32(*IMG), f32(6, 2, 3, 3)],
         lambda x, w: F.conv2d(x, w, padding=1, groups=2),
         attrs="groups = 2 : i64, padding = array<i64: 1>"),
    Case("conv2d_depthwise", "nn.conv2d", [f32(*IMG), f32(4, 1, 3, 3)],
         lambda x, w: F.conv2d(x, w, padding=1, groups=4),
         attrs="groups = 4 : i64, padding = array<i64: 1>"),
    # Depthwise convolutions (--raf-tile-and-vectorize's vector kernel):
    # output rows as vectors with row ends masked (rows of 7, 19 and 37: a
    # partial block, one full block plus a tail, several), strides and
    # dilations deinterleaved from a contiguous read; filter rows as vectors
    # where the filter is larger than the output (Relay's weight gradient:
    # the input convolved with the output gradient, dilated by the stride).
    Case("conv2d_depthwise_stride2_pad1", "nn.conv2d",
         [f32(2, 3, 19, 37), f32(3, 1, 3, 3)],
         lambda x, w: F.conv2d(x, w, stride=2, padding=1, groups=3),
         attrs="groups = 3 : i64, strides = array<i64: 2, 2>, padding = array<i64: 1>"),
    Case("conv2d_depthwise_wide_rows", "nn.conv2d",
         [f32(1, 5, 6, 37), f32(5, 1, 3, 5)],
         lambda x, w: F.conv2d(x, w, padding=(1, 2), groups=5),
         attrs="groups = 5 : i64, padding = array<i64: 1, 2>"),
    Case("conv2d_depthwise_stride3_dilation2", "nn.conv2d",
         [f32(1, 2, 17, 40), f32(2, 1, 3, 3)],
         lambda x, w: F.conv2d(x, w, stride=(2, 3), padding=(1, 3),
                               dilation=2, groups=2),
         attrs="groups = 2 : i64, strides = array<i64: 2, 3>, "
               "padding = array<i64: 1, 3>, dilation = array<i64: 2, 2>"),
    # More than 25 taps per channel: the taps are read inside the row loop
    # (not broadcast once per channel), and rows of 56 end in a masked block.
    Case("conv2d_depthwise_7x7_56", "nn.conv2d",
         [f32(1, 3, 56, 56), f32(3, 1, 7, 7)],
         lambda x, w: F.conv2d(x, w, padding=3, groups=3),
         attrs="groups = 3 : i64, padding = array<i64: 3>"),
    # Rows whose every block lies inside the padded input (34 wide: 32
    # outputs in blocks of 8 or 16, no masked block), and a stride-2 row
    # whose first blocks are inside and whose last is masked (its
    # 2 * lanes-element read passes the 47-wide padded row).
    Case("conv2d_depthwise_rows_inside", "nn.conv2d",
         [f32(1, 2, 5, 32), f32(2, 1, 3, 3)],
         lambda x, w: F.conv2d(x, w, padding=1, groups=2),
         attrs="groups = 2 : i64, padding = array<i64: 1>"),
    Case("conv2d_depthwise_stride2_inside_then_tail", "nn.conv2d",
         [f32(1, 2, 6, 45), f32(2, 1, 3, 3)],
         lambda x, w: F.conv2d(x, w, stride=2, padding=1, groups=2),
         attrs="groups = 2 : i64, strides = array<i64: 2, 2>, padding = array<i64: 1>"),
    Case("conv2d_depthwise_asymmetric_padding", "nn.conv2d",
         [f32(2, 3, 9, 9), f32(3, 1, 3, 3)],
         lambda x, w: F.conv2d(F.pad(x, (0, 1, 1, 2)), w, stride=2, groups=3),
         attrs="groups = 3 : i64, padding = array<i64: 1, 0, 2, 1>, "
               "strides = array<i64: 2, 2>"),
    Case("conv2d_depthwise_weight_gradient", "nn.conv2d",
         [f32(1, 3, 28, 28), f32(3, 1, 28, 28)],
         lambda x, w: F.conv2d(x, w, padding=1, groups=3),
         attrs="groups = 3 : i64, padding = array<i64: 1>"),
    Case("conv2d_depthwise_weight_gradient_stride2", "nn.conv2d",
         [f32(1, 3, 29, 29), f32(3, 1, 14, 14)],
         lambda x, w: F.conv2d(x, w, padding=1, dilation=2, groups=3),
         attrs="groups = 3 : i64, padding = array<i64: 1>, "
               "dilation = array<i64: 2, 2>"),
    # Filter rows summed in blocks of output elements (up to 8 sums in
    # registers): a 4x4 output as 2 blocks of 2 rows, its 16-wide filter
    # rows whole blocks of 8 and its input reads plain loads for output
    # columns 0-2 and masked for column 3 (MobileNetV2's stride-2 weight
    # gradient, batch 2); a 7x2 output as one block of 4 rows and one of 3,
    # 13-wide filter rows ending in a masked block; a 2x10 output as a
    # block of 8 columns and one of 2.
    Case("conv2d_depthwise_weight_gradient_4x4", "nn.conv2d",
         [f32(2, 4, 32, 32), f32(4, 1, 16, 16)],
         lambda x, w: F.conv2d(x, w, padding=1, dilation=2, groups=4),
         attrs="groups = 4 : i64, padding = array<i64: 1>, "
               "dilation = array<i64: 2, 2>"),
    Case("conv2d_depthwise_weight_gradient_7x2", "nn.conv2d",
         [f32(1, 3, 20, 14), f32(3, 1, 14, 13)],
         lambda x, w: F.conv2d(x, w, groups=3),
         attrs="groups = 3 : i64"),
    Case("conv2d_depthwise_weight_gradient_2x10", "nn.conv2d",
         [f32(1, 2, 16, 40), f32(2, 1, 15, 31)],
         lambda x, w: F.conv2d(x, w, groups=2),
         attrs="groups = 2 : i64"),
    Case("conv2d_depthwise_f64", "nn.conv2d",
         [lambda r: r.uniform(-1.0, 1.0, (1, 3, 11, 21)),
          lambda r: r.uniform(-1.0, 1.0, (3, 1, 3, 3))],
         lambda x, w: F.conv2d(x, w, stride=2, padding=1, groups=3),
         attrs="groups = 3 : i64, strides = array<i64: 2, 2>, padding = array<i64: 1>"),
    Case("conv2d_transpose_depthwise_stride2", "nn.conv2d_transpose",
         [f32(1, 4, 7, 9), f32(4, 1, 3, 3)],
         lambda x, w: F.conv_transpose2d(x, w, stride=2, padding=1,
                                         output_padding=1, groups=4),
         attrs="groups = 4 : i64, strides = array<i64: 2, 2>, "
               "padding = array<i64: 1, 1>, output_padding = array<i64: 1, 1>"),
    Case("conv2d_nhwc_hwio", "nn.conv2d", [f32(2, 7, 7, 4), f32(3, 3, 4, 6)],
         conv2d_nhwc_hwio,
         attrs='data_layout = #relay.layout<NHWC>, kernel_layout = #relay.layout<HWIO>'),
    Case("conv2d_i8_out_i32", "nn.conv2d",
         [ints(-128, 128, *IMG, dtype=np.int8),
          ints(-128, 128, 6, 4, 3, 3, dtype=np.int8)],
         # Exact in float64: |sum| < 36 * 128 * 128.
         lambda x, w: F.conv2d(x.double(), w.double()).to(torch.int32),
         attrs="out_dtype = i32"),
    Case("conv2d_transpose", "nn.conv2d_transpose",
         [f32(2, 4, 5, 5), f32(4, 3, 3, 3)], F.conv_transpose2d),
    Case("conv2d_transpose_stride2", "nn.conv2d_transpose",
         [f32(2, 4, 5, 5), f32(4, 3, 3, 3)],
         lambda x, w: F.conv_transpose2d(x, w, stride=2, padding=1,
                                         output_padding=1),
         attrs="strides = array<i64: 2, 2>, padding = array<i64: 1, 1>, "
               "output_padding = array<i64: 1, 1>"),
    Case("conv2d_transpose_groups2", "nn.conv2d_transpose",
         [f32(2, 4, 5, 5), f32(4, 3, 3, 3)],
         lambda x, w: F.conv_transpose2d(x, w, groups=2),
         attrs="groups = 2 : i64"),
    Case("conv2d_transpose_dilation2", "nn.conv2d_transpose",
         [f32(2, 4, 5, 5), f32(4, 3, 3, 3)],
         lambda x, w: F.conv_transpose2d(x, w, dilation=2, padding=1),
         attrs="dilation = array<i64: 2, 2>, padding = array<i64: 1>"),
    # Stride 1 (the data gradient of a stride-1 convolution): a convolution
    # of the padded input with the flipped kernel, not col2im.
    Case("conv2d_transpose_stride1_pad1", "nn.conv2d_transpose",
         [f32(1, 8, 6, 7), f32(8, 5, 3, 3)],
         lambda x, w: F.conv_transpose2d(x, w, padding=1),
         attrs="padding = array<i64: 1>"),
    Case("conv2d_transpose_stride1_asymmetric", "nn.conv2d_transpose",
         [f32(2, 3, 6, 5), f32(3, 4, 3, 2)],
         lambda x, w: F.conv_transpose2d(x, w)[:, :, 1:-2, :-1],
         attrs="padding = array<i64: 1, 0, 2, 1>"),
    Case("conv2d_transpose_stride1_crop", "nn.conv2d_transpose",
         [f32(1, 2, 8, 8), f32(2, 3, 3, 3)],
         lambda x, w: F.conv_transpose2d(x, w, padding=3),
         attrs="padding = array<i64: 3>"),
    Case("conv2d_transpose_1x1", "nn.conv2d_transpose",
         [f32(1, 6, 5, 5), f32(6, 4, 1, 1)], F.conv_transpose2d),
    # Stride 1 with more input channels than positions (ResNet's last
    # stage): col2im, which copies no kernel.
    Case("conv2d_transpose_stride1_many_channels", "nn.conv2d_transpose",
         [f32(1, 16, 3, 3), f32(16, 4, 3, 3)],
         lambda x, w: F.conv_transpose2d(x, w, padding=1),
         attrs="padding = array<i64: 1>"),
    # Matrix products.
    Case("dense", "nn.dense", [f32(3, 5), f32(4, 5)], F.linear),
    Case("dense_3d", "nn.dense", [f32(2, 3, 5), f32(4, 5)], F.linear),
    Case("dense_i8_out_i32", "nn.dense",
         [ints(-128, 128, 3, 5, dtype=np.int8),
          ints(-128, 128, 4, 5, dtype=np.int8)],
         lambda x, w: F.linear(x.double(), w.double()).to(torch.int32),
         attrs="out_dtype = i32"),
    Case("matmul", "nn.matmul", [f32(3, 5), f32(5, 4)], torch.matmul),
    Case("matmul_ta", "nn.matmul", [f32(5, 3), f32(5, 4)],
         lambda a, b: a.T @ b, attrs="transpose_a = true"),
    Case("matmul_tb", "nn.matmul", [f32(3, 5), f32(4, 5)],
         lambda a, b: a @ b.T, attrs="transpose_b = true"),
    Case("matmul_ta_tb", "nn.matmul", [f32(5, 3), f32(4, 5)],
         lambda a, b: a.T @ b.T, attrs="transpose_a = true, transpose_b = true"),
    Case("batch_matmul", "nn.batch_matmul", [f32(2, 3, 5), f32(2, 4, 5)],
         lambda a, b: torch.bmm(a, b.transpose(1, 2))),
    Case("batch_matmul_ta_no_tb", "nn.batch_matmul",
         [f32(2, 5, 3), f32(2, 5, 4)],
         lambda a, b: torch.bmm(a.transpose(1, 2), b),
         attrs="transpose_a = true, transpose_b = false"),
    Case("batch_matmul_broadcast", "nn.batch_matmul",
         [f32(1, 3, 5), f32(2, 4, 5)],
         lambda a, b: torch.matmul(a, b.transpose(1, 2))),
    # Softmax and normalisation.
    Case("softmax", "nn.softmax", [f32(*X)], lambda x: F.softmax(x, -1)),
    Case("softmax_axis1_large", "nn.softmax", [f32(*X, low=-80, high=80)],
         lambda x: F.softmax(x, 1), attrs="axis = 1 : i64"),
    Case("log_softmax", "nn.log_softmax", [f32(*X)],
         lambda x: F.log_softmax(x, -1)),
    Case("log_softmax_axis0_large", "nn.log_softmax",
         [f32(*X, low=-80, high=80)], lambda x: F.log_softmax(x, 0),
         attrs="axis = 0 : i64"),
    Case("layer_norm", "nn.layer_norm", [f32(*X), f32(4), f32(4)],
         lambda x, g, b: F.layer_norm(x, (4,), g, b, eps=1e-5)),
    Case("layer_norm_axis1", "nn.layer_norm", [f32(*X), f32(3), f32(3)],
         layer_norm_axis1, attrs="axis = 1 : i64"),
    Case("layer_norm_no_affine", "nn.layer_norm", [f32(*X), f32(4), f32(4)],
         lambda x, g, b: F.layer_norm(x, (4,), eps=1e-3),
         attrs="center = false, scale = false, epsilon = 1.000000e-03 : f64"),
    Case("batch_norm_inference", "nn.batch_norm",
         [f32(2, 3, 4, 4), f32(3), f32(3), f32(3), positive(3)],
         batch_norm_inference),
    Case("batch_norm_training", "nn.batch_norm",
         [f32(2, 3, 4, 4), f32(3), f32(3), f32(3), positive(3)],
         batch_norm_training, attrs="training = true"),
    Case("batch_norm_last_axis_training", "nn.batch_norm",
         [f32(5, 4), f32(4), f32(4), f32(4), positive(4)],
         batch_norm_training, attrs="axis = -1 : i64, training = true"),
    # Losses.
    Case("cross_entropy_indices_mean", "nn.cross_entropy",
         [f32(4, 5, low=-3, high=3), ints(0, 5, 4, dtype=np.int64)],
         F.cross_entropy),
    Case("cross_entropy_indices_sum_i32", "nn.cross_entropy",
         [f32(4, 5, low=-3, high=3), ints(0, 5, 4)],
         lambda x, t: F.cross_entropy(x, t.long(), reduction="sum"),
         attrs='reduction = #relay.loss_reduction<sum>'),
    Case("cross_entropy_indices_none", "nn.cross_entropy",
         [f32(4, 5, low=-3, high=3), ints(0, 5, 4, dtype=np.int64)],
         lambda x, t: F.cross_entropy(x, t, reduction="none"),
         attrs='reduction = #relay.loss_reduction<none>'),
    Case("cross_entropy_probabilities", "nn.cross_entropy",
         [f32(4, 5, low=-3, high=3), probabilities(4, 5)], F.cross_entropy),
    Case("nll_loss", "nn.nll_loss",
         [log_probabilities(4, 5), ints(0, 5, 4, dtype=np.int64)], F.nll_loss),
    Case("nll_loss_ignore_index", "nn.nll_loss",
         [log_probabilities(6, 3), ints(0, 3, 6, dtype=np.int64)],
         lambda p, t: F.nll_loss(p, t, ignore_index=1),
         attrs="ignore_index = 1 : i64"),
    Case("nll_loss_spatial_none", "nn.nll_loss",
         [log_probabilities(2, 3, 4, 4), ints(0, 3, 2, 4, 4, dtype=np.int64)],
         lambda p, t: F.nll_loss(p, t, reduction="none"),
         attrs='reduction = #relay.loss_reduction<none>'),
    Case("nll_loss_spatial_sum", "nn.nll_loss",
         [log_probabilities(2, 3, 4), ints(0, 3, 2, 4, dtype=np.int64)],
         lambda p, t: F.nll_loss(p, t, reduction="sum"),
         attrs='reduction = #relay.loss_reduction<sum>'),
    # Pooling.
    Case("max_pool2d", "nn.max_pool2d", [f32(2, 3, 8, 8)],
         lambda x: F.max_pool2d(x, 2, 2),
         attrs="pool_size = array<i64: 2, 2>, strides = array<i64: 2, 2>"),
    Case("max_pool2d_pad_ceil", "nn.max_pool2d", [f32(2, 3, 8, 8)],
         lambda x: F.max_pool2d(x, 3, 2, 1, ceil_mode=True),
         attrs="pool_size = array<i64: 3, 3>, strides = array<i64: 2, 2>, "
               "padding = array<i64: 1>, ceil_mode = true"),
    Case("max_pool2d_ceil_drops_window", "nn.max_pool2d", [f32(1, 2, 5, 5)],
         lambda x: F.max_pool2d(x, 2, 2, 1, ceil_mode=True),
         attrs="pool_size = array<i64: 2, 2>, strides = array<i64: 2, 2>, "
               "padding = array<i64: 1>, ceil_mode = true"),
    Case("max_pool2d_dilation", "nn.max_pool2d", [f32(2, 3, 8, 8)],
         lambda x: F.max_pool2d(x, 2, 1, 0, dilation=2),
         attrs="pool_size = array<i64: 2, 2>, dilation = array<i64: 2, 2>"),
    Case("max_pool2d_asymmetric_padding", "nn.max_pool2d", [f32(2, 3, 7, 7)],
         lambda x: F.max_pool2d(F.pad(x, (0, 1, 1, 1), value=-np.inf), 3, 2),
         attrs="pool_size = array<i64: 3, 3>, strides = array<i64: 2, 2>, "
               "padding = array<i64: 1, 0, 1, 1>"),
    Case("max_pool2d_nhwc", "nn.max_pool2d", [f32(2, 8, 8, 3)],
         lambda x: nchw(F.max_pool2d(from_layout(x, "NHWC"), 3, 2, 1),
                        "NHWC"),
         attrs='pool_size = array<i64: 3, 3>, strides = array<i64: 2, 2>, '
               'padding = array<i64: 1>, layout = #relay.layout<NHWC>'),
    Case("avg_pool2d", "nn.avg_pool2d", [f32(2, 3, 8, 8)],
         lambda x: F.avg_pool2d(x, 2, 2),
         attrs="pool_size = array<i64: 2, 2>, strides = array<i64: 2, 2>"),
    Case("avg_pool2d_pad_exclude", "nn.avg_pool2d", [f32(2, 3, 7, 7)],
         lambda x: F.avg_pool2d(x, 3, 2, 1, count_include_pad=False),
         attrs="pool_size = array<i64: 3, 3>, strides = array<i64: 2, 2>, "
               "padding = array<i64: 1>"),
    Case("avg_pool2d_pad_include", "nn.avg_pool2d", [f32(2, 3, 7, 7)],
         lambda x: F.avg_pool2d(x, 3, 2, 1, count_include_pad=True),
         attrs="pool_size = array<i64: 3, 3>, strides = array<i64: 2, 2>, "
               "padding = array<i64: 1>, count_include_pad = true"),
    Case("avg_pool2d_ceil_include", "nn.avg_pool2d", [f32(2, 3, 8, 8)],
         lambda x: F.avg_pool2d(x, 3, 2, 1, ceil_mode=True,
                                count_include_pad=True),
         attrs="pool_size = array<i64: 3, 3>, strides = array<i64: 2, 2>, "
               "padding = array<i64: 1>, ceil_mode = true, "
               "count_include_pad = true"),
    Case("avg_pool2d_ceil_exclude", "nn.avg_pool2d", [f32(2, 3, 8, 8)],
         lambda x: F.avg_pool2d(x, 3, 2, 1, ceil_mode=True,
                                count_include_pad=False),
         attrs="pool_size = array<i64: 3, 3>, strides = array<i64: 2, 2>, "
               "padding = array<i64: 1>, ceil_mode = true"),
    Case("avg_pool2d_nhwc", "nn.avg_pool2d", [f32(2, 8, 8, 3)],
         lambda x: nchw(F.avg_pool2d(from_layout(x, "NHWC"), 2, 2), "NHWC"),
         attrs='pool_size = array<i64: 2, 2>, strides = array<i64: 2, 2>, '
               'layout = #relay.layout<NHWC>'),
    # Pooling gradients: (out_grad, data) against autograd through the
    # forward pooling.
    Case("max_pool2d_grad", "nn.max_pool2d_grad",
         [f32(2, 3, 4, 4), f32(2, 3, 8, 8)],
         pool_grad_reference(F.max_pool2d, kernel_size=2, stride=2),
         attrs="pool_size = array<i64: 2, 2>, strides = array<i64: 2, 2>"),
    # Values from {0, 1, 2} tie inside most windows: the first maximum in
    # row-major window order takes the gradient. Stride 1 < pool size 3:
    # every element lies in up to 9 windows, whose gradients add up.
    Case("max_pool2d_grad_overlap_ties", "nn.max_pool2d_grad",
         [f32(2, 3, 5, 5), small_floats(2, 3, 7, 7)],
         pool_grad_reference(F.max_pool2d, kernel_size=3, stride=1),
         attrs="pool_size = array<i64: 3, 3>"),
    Case("max_pool2d_grad_nan", "nn.max_pool2d_grad",
         [f32(1, 2, 4, 4), nan_floats(1, 2, 6, 6)],
         pool_grad_reference(F.max_pool2d, kernel_size=3, stride=1),
         attrs="pool_size = array<i64: 3, 3>"),
    Case("max_pool2d_grad_pad_ceil", "nn.max_pool2d_grad",
         [f32(2, 3, 5, 5), f32(2, 3, 8, 8)],
         pool_grad_reference(F.max_pool2d, kernel_size=3, stride=2,
                             padding=1, ceil_mode=True),
         attrs="pool_size = array<i64: 3, 3>, strides = array<i64: 2, 2>, "
               "padding = array<i64: 1>, ceil_mode = true"),
    Case("max_pool2d_grad_ceil_drops_window", "nn.max_pool2d_grad",
         [f32(1, 2, 3, 3), f32(1, 2, 5, 5)],
         pool_grad_reference(F.max_pool2d, kernel_size=2, stride=2,
                             padding=1, ceil_mode=True),
         attrs="pool_size = array<i64: 2, 2>, strides = array<i64: 2, 2>, "
               "padding = array<i64: 1>, ceil_mode = true"),
    Case("max_pool2d_grad_dilation", "nn.max_pool2d_grad",
         [f32(2, 3, 3, 3), f32(2, 3, 8, 8)],
         pool_grad_reference(F.max_pool2d, kernel_size=3, stride=2,
                             padding=1, dilation=2),
         attrs="pool_size = array<i64: 3, 3>, strides = array<i64: 2, 2>, "
               "padding = array<i64: 1>, dilation = array<i64: 2, 2>"),
    Case("max_pool2d_grad_asymmetric_padding", "nn.max_pool2d_grad",
         [f32(2, 3, 4, 3), f32(2, 3, 7, 7)],
         pool_grad_reference(
             lambda x: F.max_pool2d(F.pad(x, (0, 1, 1, 1), value=-np.inf),
                                    3, 2)),
         attrs="pool_size = array<i64: 3, 3>, strides = array<i64: 2, 2>, "
               "padding = array<i64: 1, 0, 1, 1>"),
    Case("max_pool2d_grad_nhwc", "nn.max_pool2d_grad",
         [f32(2, 4, 4, 3), f32(2, 8, 8, 3)],
         pool_grad_reference(F.max_pool2d, "NHWC", kernel_size=3, stride=2,
                             padding=1),
         attrs='pool_size = array<i64: 3, 3>, strides = array<i64: 2, 2>, '
               'padding = array<i64: 1>, layout = #relay.layout<NHWC>'),
    Case("max_pool2d_grad_f16", "nn.max_pool2d_grad",
         [f16(2, 3, 3, 3), f16(2, 3, 7, 7)],
         pool_grad_reference(F.max_pool2d, kernel_size=3, stride=2),
         attrs="pool_size = array<i64: 3, 3>, strides = array<i64: 2, 2>"),
    Case("avg_pool2d_grad", "nn.avg_pool2d_grad",
         [f32(2, 3, 4, 4), f32(2, 3, 8, 8)],
         pool_grad_reference(F.avg_pool2d, kernel_size=2, stride=2),
         attrs="pool_size = array<i64: 2, 2>, strides = array<i64: 2, 2>"),
    Case("avg_pool2d_grad_pad_exclude", "nn.avg_pool2d_grad",
         [f32(2, 3, 4, 4), f32(2, 3, 7, 7)],
         pool_grad_reference(F.avg_pool2d, kernel_size=3, stride=2,
                             padding=1, count_include_pad=False),
         attrs="pool_size = array<i64: 3, 3>, strides = array<i64: 2, 2>, "
               "padding = array<i64: 1>"),
    Case("avg_pool2d_grad_pad_include", "nn.avg_pool2d_grad",
         [f32(2, 3, 4, 4), f32(2, 3, 7, 7)],
         pool_grad_reference(F.avg_pool2d, kernel_size=3, stride=2,
                             padding=1, count_include_pad=True),
         attrs="pool_size = array<i64: 3, 3>, strides = array<i64: 2, 2>, "
               "padding = array<i64: 1>, count_include_pad = true"),
    Case("avg_pool2d_grad_overlap", "nn.avg_pool2d_grad",
         [f32(2, 3, 6, 6), f32(2, 3, 8, 8)],
         pool_grad_reference(F.avg_pool2d, kernel_size=3, stride=1),
         attrs="pool_size = array<i64: 3, 3>"),
    Case("avg_pool2d_grad_ceil_include", "nn.avg_pool2d_grad",
         [f32(2, 3, 5, 5), f32(2, 3, 8, 8)],
         pool_grad_reference(F.avg_pool2d, kernel_size=3, stride=2,
                             padding=1, ceil_mode=True,
                             count_include_pad=True),
         attrs="pool_size = array<i64: 3, 3>, strides = array<i64: 2, 2>, "
               "padding = array<i64: 1>, ceil_mode = true, "
               "count_include_pad = true"),
    Case("avg_pool2d_grad_ceil_exclude", "nn.avg_pool2d_grad",
         [f32(2, 3, 5, 5), f32(2, 3, 8, 8)],
         pool_grad_reference(F.avg_pool2d, kernel_size=3, stride=2,
                             padding=1, ceil_mode=True,
                             count_include_pad=False),
         attrs="pool_size = array<i64: 3, 3>, strides = array<i64: 2, 2>, "
               "padding = array<i64: 1>, ceil_mode = true"),
    Case("avg_pool2d_grad_ceil_drops_window", "nn.avg_pool2d_grad",
         [f32(1, 2, 3, 3), f32(1, 2, 5, 5)],
         pool_grad_reference(F.avg_pool2d, kernel_size=2, stride=2,
                             padding=1, ceil_mode=True,
                             count_include_pad=True),
         attrs="pool_size = array<i64: 2, 2>, strides = array<i64: 2, 2>, "
               "padding = array<i64: 1>, ceil_mode = true, "
               "count_include_pad = true"),
    Case("avg_pool2d_grad_nhwc", "nn.avg_pool2d_grad",
         [f32(2, 4, 4, 3), f32(2, 8, 8, 3)],
         pool_grad_reference(F.avg_pool2d, "NHWC", kernel_size=3, stride=2,
                             padding=1, count_include_pad=True),
         attrs='pool_size = array<i64: 3, 3>, strides = array<i64: 2, 2>, '
               'padding = array<i64: 1>, layout = #relay.layout<NHWC>, '
               'count_include_pad = true'),
    # PyTorch's avg_pool2d has no dilation; the oracle is a depthwise
    # convolution with ones divided by the tap counts, differentiated.
    Case("avg_pool2d_grad_dilation", "nn.avg_pool2d_grad",
         [f32(2, 3, 8, 8), f32(2, 3, 8, 8)],
         pool_grad_reference(dilated_avg_pool2d, kernel_size=2, stride=1,
                             padding=1, dilation=2),
         attrs="pool_size = array<i64: 2, 2>, padding = array<i64: 1>, "
               "dilation = array<i64: 2, 2>"),
    # Stride > pool size with padding and ceil_mode: windows do not
    # overlap and some inputs lie in none (their gradient is 0).
    Case("avg_pool2d_grad_stride_gt_pool_ceil", "nn.avg_pool2d_grad",
         [f32(1, 2, 3, 3), f32(1, 2, 8, 8)],
         pool_grad_reference(F.avg_pool2d, kernel_size=2, stride=3,
                             padding=1, ceil_mode=True,
                             count_include_pad=True),
         attrs="pool_size = array<i64: 2, 2>, strides = array<i64: 3, 3>, "
               "padding = array<i64: 1>, ceil_mode = true, "
               "count_include_pad = true"),
    Case("max_pool2d_grad_stride_gt_pool_ceil", "nn.max_pool2d_grad",
         [f32(1, 2, 3, 3), f32(1, 2, 8, 8)],
         pool_grad_reference(F.max_pool2d, kernel_size=2, stride=3,
                             padding=1, ceil_mode=True),
         attrs="pool_size = array<i64: 2, 2>, strides = array<i64: 3, 3>, "
               "padding = array<i64: 1>, ceil_mode = true"),
    # More than 16 window positions: the gradient is gathered, not
    # scattered per position (NNToLinalg.cpp, kMaxScatterWindowPositions).
    Case("avg_pool2d_grad_stride_gt_pool_ceil_large", "nn.avg_pool2d_grad",
         [f32(1, 2, 4, 4), f32(1, 2, 17, 17)],
         pool_grad_reference(F.avg_pool2d, kernel_size=5, stride=6,
                             padding=2, ceil_mode=True,
                             count_include_pad=False),
         attrs="pool_size = array<i64: 5, 5>, strides = array<i64: 6, 6>, "
               "padding = array<i64: 2>, ceil_mode = true"),
    Case("max_pool2d_grad_stride_gt_pool_ceil_large", "nn.max_pool2d_grad",
         [f32(1, 2, 4, 4), f32(1, 2, 17, 17)],
         pool_grad_reference(F.max_pool2d, kernel_size=5, stride=6,
                             padding=2, ceil_mode=True),
         attrs="pool_size = array<i64: 5, 5>, strides = array<i64: 6, 6>, "
               "padding = array<i64: 2>, ceil_mode = true"),
    # A global average pool's gradient as a 7x7 window (ResNet at 224x224).
    Case("avg_pool2d_grad_global_7x7", "nn.avg_pool2d_grad",
         [f32(2, 3, 1, 1), f32(2, 3, 7, 7)],
         pool_grad_reference(F.avg_pool2d, kernel_size=7),
         attrs="pool_size = array<i64: 7, 7>, strides = array<i64: 7, 7>"),
    Case("max_pool2d_grad_16x16_overlap", "nn.max_pool2d_grad",
         [f32(1, 2, 5, 5), f32(1, 2, 20, 20)],
         pool_grad_reference(F.max_pool2d, kernel_size=16, stride=1),
         attrs="pool_size = array<i64: 16, 16>"),
    Case("global_avg_pool2d", "nn.global_avg_pool2d", [f32(2, 3, 5, 6)],
         lambda x: F.adaptive_avg_pool2d(x, 1)),
    Case("global_avg_pool2d_nhwc", "nn.global_avg_pool2d", [f32(2, 5, 6, 3)],
         lambda x: x.mean(dim=(1, 2), keepdim=True), attrs='layout = #relay.layout<NHWC>'),
    # Reductions.
    Case("sum_all", "sum", [f32(*X)], torch.sum),
    Case("sum_axis1_keepdims", "sum", [f32(*X)],
         lambda x: x.sum(1, keepdim=True),
         attrs="axis = array<i64: 1>, keepdims = true"),
    Case("sum_axes_0_2", "sum", [f32(*X)], lambda x: x.sum((0, 2)),
         attrs="axis = array<i64: 0, -1>"),
    Case("sum_exclude", "sum", [f32(*X)], lambda x: x.sum((0, 2)),
         attrs="axis = array<i64: 1>, exclude = true"),
    Case("sum_i32", "sum", [ints(-100, 100, *X)],
         lambda x: x.sum(2, dtype=torch.int32), attrs="axis = array<i64: 2>"),
    Case("mean_last", "mean", [f32(*X)], lambda x: x.mean(-1),
         attrs="axis = array<i64: -1>"),
    Case("mean_all_keepdims", "mean", [f32(*X)],
         lambda x: x.mean().reshape(1, 1, 1), attrs="keepdims = true"),
    Case("max_axis1", "max", [f32(*X)], lambda x: x.amax(1),
         attrs="axis = array<i64: 1>"),
    Case("max_all", "max", [f32(*X)], torch.amax),
    Case("argmax_axis1", "argmax", [f32(*X)], lambda x: x.argmax(1),
         attrs="axis = array<i64: 1>", result_dtypes=[np.int32]),
    Case("argmax_all", "argmax", [f32(*X)], torch.argmax,
         result_dtypes=[np.int32]),
    Case("argmax_keepdims", "argmax", [f32(*X)],
         lambda x: x.argmax(-1, keepdim=True),
         attrs="axis = array<i64: -1>, keepdims = true",
         result_dtypes=[np.int32]),
    # Shape and data movement.
    Case("reshape", "reshape", [f32(*X)], lambda x: x.reshape(2, 12),
         attrs="newshape = array<i64: 0, -1>"),
    Case("reshape_infer_middle", "reshape", [f32(*X)],
         lambda x: x.reshape(4, 3, 2), attrs="newshape = array<i64: 4, -1, 2>"),
    Case("transpose_reverse", "transpose", [f32(*X)], lambda x: x.permute(2, 1, 0)),
    Case("transpose_axes", "transpose", [f32(*X)], lambda x: x.permute(1, 0, 2),
         attrs="axes = array<i64: 1, 0, 2>"),
    Case("transpose_negative_axes", "transpose", [f32(*X)],
         lambda x: x.permute(2, 0, 1), attrs="axes = array<i64: -1, 0, 1>"),
    # Only axes of size 1 move (lowered as a reshape, a view once
    # bufferized); and a size-1 axis moves while two longer ones swap (a
    # copy).
    Case("transpose_unit_axes", "transpose", [f32(1, 1, 3, 2, 5)],
         lambda x: x.permute(2, 1, 0, 3, 4), attrs="axes = array<i64: 2, 1, 0, 3, 4>"),
    Case("transpose_unit_axes_mixed", "transpose", [f32(1, 3, 1, 4)],
         lambda x: x.permute(3, 2, 1, 0), attrs="axes = array<i64: 3, 2, 1, 0>"),
    Case("expand_dims", "expand_dims", [f32(*X)],
         lambda x: x.reshape(2, 1, 1, 3, 4),
         attrs="axis = 1 : i64, num_newaxis = 2 : i64"),
    Case("expand_dims_last", "expand_dims", [f32(*X)],
         lambda x: x.unsqueeze(-1), attrs="axis = -1 : i64"),
    Case("squeeze_all", "squeeze", [f32(2, 1, 3, 1)], torch.squeeze),
    Case("squeeze_axis", "squeeze", [f32(2, 1, 3, 1)],
         lambda x: x.squeeze(1), attrs="axis = array<i64: 1>"),
    Case("concatenate", "concatenate", [f32(2, 1, 4), f32(2, 3, 4), f32(2, 2, 4)],
         lambda *xs: torch.cat(xs, 1), attrs="axis = 1 : i64"),
    Case("concatenate_last_i32", "concatenate",
         [ints(0, 9, 2, 3), ints(0, 9, 2, 2)],
         lambda *xs: torch.cat(xs, -1), attrs="axis = -1 : i64"),
    Case("split_sections", "split", [f32(*X)],
         lambda x: torch.split(x, 2, dim=2),
         attrs="sections = 2 : i64, axis = 2 : i64"),
    Case("split_indices", "split", [f32(2, 5, 4)],
         lambda x: torch.tensor_split(x, [1, 3], dim=1),
         attrs="indices = array<i64: 1, 3>, axis = 1 : i64"),
    Case("strided_slice", "strided_slice", [f32(4, 5, 6)],
         lambda x: x[0:3, :, 1:5:2],
         attrs="begin = array<i64: 0, 1>, end = array<i64: 3, 5>, "
               "strides = array<i64: 1, 2>, axes = array<i64: 0, 2>"),
    Case("strided_slice_leading_clamped", "strided_slice", [f32(4, 5, 6)],
         lambda x: x[1:100, -3:5],
         attrs="begin = array<i64: 1, -3>, end = array<i64: 100, 5>"),
    # PyTorch has no negative-step slicing; numpy is the oracle.
    Case("strided_slice_negative_stride", "strided_slice", [f32(4, 5, 6)],
         numpy_reference(lambda x: x[:, ::-2, 4:0:-3]),
         attrs="begin = array<i64: -1, 4>, end = array<i64: -100, 0>, "
               "strides = array<i64: -2, -3>, axes = array<i64: 1, 2>"),
    Case("take_axis_clip", "take", [f32(3, 4, 2), ints(-3, 7, 5)],
         take_reference(1, "clip"), attrs="axis = 1 : i64"),
    Case("take_axis_wrap", "take", [f32(3, 4, 2), ints(-9, 9, 2, 3)],
         take_reference(1, "wrap"), attrs='axis = 1 : i64, mode = #relay.take_mode<wrap>'),
    Case("take_flat_fast", "take", [f32(3, 4), ints(0, 12, 2, 2, dtype=np.int64)],
         take_reference(None, "fast"), attrs='mode = #relay.take_mode<fast>'),
    Case("take_axis0_i32_data", "take", [ints(0, 99, 5, 3), ints(0, 5, 4)],
         take_reference(0, "clip"), attrs="axis = 0 : i64"),
    Case("pad_constant", "nn.pad", [f32(2, 3, 4)],
         lambda x: F.pad(x, (2, 0, 1, 1, 0, 1), value=1.5),
         attrs="pad_width = array<i64: 0, 1, 1, 1, 2, 0>, "
               "pad_value = 1.500000e+00 : f64"),
    # F.pad's replicate/reflect only pad trailing spatial axes of batched
    # inputs; numpy pads any axis.
    Case("pad_edge", "nn.pad", [f32(2, 3, 4)],
         numpy_reference(lambda x: np.pad(x, ((1, 0), (2, 1), (0, 3)),
                                          mode="edge")),
         attrs='pad_width = array<i64: 1, 0, 2, 1, 0, 3>, pad_mode = #relay.pad_mode<edge>'),
    Case("pad_reflect", "nn.pad", [f32(2, 3, 4)],
         numpy_reference(lambda x: np.pad(x, ((1, 1), (2, 1), (0, 3)),
                                          mode="reflect")),
         attrs='pad_width = array<i64: 1, 1, 2, 1, 0, 3>, '
               'pad_mode = #relay.pad_mode<reflect>'),
    Case("broadcast_to", "broadcast_to", [f32(3, 1)],
         lambda x: torch.broadcast_to(x, (2, 3, 4)),
         attrs="shape = array<i64: 2, 3, 4>"),
    Case("zeros", "zeros", [], lambda: torch.zeros(2, 3, dtype=torch.float32),
         attrs="shape = array<i64: 2, 3>, dtype = f32",
         result_dtypes=[np.float32]),
    Case("ones_i64", "ones", [], lambda: torch.ones(4, dtype=torch.int64),
         attrs="shape = array<i64: 4>, dtype = i64"),
]


# --------------------------------------------------------------------------
# The test
# --------------------------------------------------------------------------


def run_raf(tmp_path, source, arrays, result_count, target):
    mlir_path = tmp_path / "case.mlir"
    mlir_path.write_text(source)
    command = [str(RAF_RUN), str(mlir_path), "--entry=main",
               f"--target={target}"]
    for i, array in enumerate(arrays):
        path = tmp_path / f"input{i}.npy"
        np.save(path, array)
        command.append(f"--input={path}")
    outputs = [tmp_path / f"result{i}.npy" for i in range(result_count)]
    command += [f"--output={path}" for path in outputs]
    process = subprocess.run(command, capture_output=True, text=True,
                             timeout=600)
    return process, outputs


@pytest.mark.parametrize("target", ["interp", "cpu"])
@pytest.mark.parametrize("case", CASES, ids=[c.id for c in CASES])
def test_operator_matches_torch(case, target, tmp_path):
    arrays = case.make_inputs()
    expected = case.expected(arrays)
    source = case.mlir(arrays, expected)
    process, outputs = run_raf(tmp_path, source, arrays, len(expected),
                               target)
    if process.returncode != 0:
        message = process.stderr.strip()
        if target == "cpu" and NOT_LOWERABLE.search(message):
            pytest.xfail(f"not lowerable yet: {message.splitlines()[0]}")
        pytest.fail(f"raf-run --target={target} failed "
                    f"(exit {process.returncode}):\n{message}\n\n{source}")
    for index, (path, want) in enumerate(zip(outputs, expected)):
        got = np.load(path)
        where = f"result #{index} of {case.id} on {target}"
        assert got.dtype == want.dtype, f"{where}: dtype {got.dtype}"
        assert got.shape == want.shape, f"{where}: shape {got.shape}"
        if np.issubdtype(want.dtype, np.floating):
            np.testing.assert_allclose(
                got.astype(np.float64), want.astype(np.float64),
                err_msg=where, **(case.tol or TOLERANCES[want.dtype.type]))
        else:
            np.testing.assert_array_equal(got, want, err_msg=where)


DIAGONAL_SUMS = {
    # A linalg.generic reading x[n, i, i] along its reduced loop i.
    "linalg": """
#in = affine_map<(d0, d1) -> (d0, d1, d1)>
#out = affine_map<(d0, d1) -> (d0)>
func.func @main(%x: tensor<2x{k}x{k}xf32>) -> tensor<2xf32> {{
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<2xf32>
  %f = linalg.fill ins(%z : f32) outs(%e : tensor<2xf32>) -> tensor<2xf32>
  %r = linalg.generic {{indexing_maps = [#in, #out],
                       iterator_types = ["parallel", "reduction"]}}
      ins(%x : tensor<2x{k}x{k}xf32>) outs(%f : tensor<2xf32>) {{
  ^bb0(%a: f32, %o: f32):
    %s = arith.addf %o, %a : f32
    linalg.yield %s : f32
  }} -> tensor<2xf32>
  return %r : tensor<2xf32>
}}
""",
    # The same sum written as a TCG kernel.
    "tcg": """
func.func @main(%x: tensor<2x{k}x{k}xf32>) -> tensor<2xf32> {{
  %r = tcg.kernel "trace" (%b = %x : tensor<2x{k}x{k}xf32>) -> tensor<2xf32>
      attributes {{arg_names = ["b"]}} {{
    %0 = tcg.tensor %n in [0, 2) name "n" -> tensor<2xf32> {{
      %1 = tcg.reduce add %i in [0, {k}) name "i" -> f32 {{
        %y = tcg.input %b[%n, %i, %i] : tensor<2x{k}x{k}xf32>
        tcg.yield %y : f32
      }}
      tcg.yield %1 : f32
    }}
    tcg.yield %0 : tensor<2xf32>
  }}
  return %r : tensor<2xf32>
}}
""",
}


@pytest.mark.parametrize("size", [16, 21])
@pytest.mark.parametrize("form", sorted(DIAGONAL_SUMS))
def test_diagonal_sum_matches_numpy(form, size, tmp_path):
    """A sum of x[n, i, i] over i (the trace of each matrix) on the
    compiled path: the reduced loop indexes two dimensions, so the sum must
    not be read as a vector along the last one."""
    x = np.random.default_rng(size).uniform(-1, 1, (2, size, size))
    x = x.astype(np.float32)
    source = DIAGONAL_SUMS[form].format(k=size)
    process, outputs = run_raf(tmp_path, source, [x], 1, "cpu")
    assert process.returncode == 0, process.stderr
    np.testing.assert_allclose(np.load(outputs[0]),
                               np.einsum("nii->n", x.astype(np.float64)),
                               rtol=1e-5, atol=1e-5)


def test_every_operator_has_a_case():
    """Each relay operator of RelayOperators.td appears in some case."""
    td = (REPO / "include/raf/Dialect/Relay/IR/RelayOperators.td").read_text()
    definitions = re.findall(r"^def Relay_\w+", td, re.M)
    mnemonics = set(re.findall(r'^def Relay_\w+\s*:\s*Relay_\w+<"([\w.]+)"',
                               td, re.M))
    assert len(mnemonics) == len(definitions), "an operator was not parsed"
    covered = {c.op for c in CASES}
    assert mnemonics, "no operator found in RelayOperators.td"
    assert sorted(mnemonics - covered) == []
