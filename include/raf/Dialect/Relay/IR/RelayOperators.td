//===- RelayOperators.td - TVM Relay operator library ------*- tablegen -*-===//
//
// Operators named as in TVM Relay. Non-tensor arguments are attributes; every
// operator infers its result types (NumPy broadcasting, convolution and
// pooling output-size formulas, reduction axes, reshape with -1, ...).
//
//===----------------------------------------------------------------------===//

#ifndef RAF_DIALECT_RELAY_IR_RELAYOPERATORS_TD
#define RAF_DIALECT_RELAY_IR_RELAYOPERATORS_TD

include "raf/Dialect/Relay/IR/RelayAttrs.td"
include "raf/Dialect/Relay/IR/RelayOpBase.td"

// Cost-fact overrides are appended to an operator's class declaration:
// `int64_t getFlops();` (defined in C++) or an inline `return 0` for ops that
// only move data.

//===----------------------------------------------------------------------===//
// Element-wise operators
//===----------------------------------------------------------------------===//

// `elementKind` is an ElementKind case: Float, Numeric (int or float) or Any.
class Relay_UnaryOp<string mnemonic, string cast, string elementKind,
                    string fusion = "ElemWise", list<Trait> traits = []>
    : Relay_Operator<mnemonic, fusion, cast, 1, traits> {
  let description = [{
    Applies the function of the summary to every element of `x`; the result
    has the type of `x` (shape and element type). }] #
    !cond(!eq(elementKind, "Float") :
            "`x` must have a floating-point element type.",
          !eq(elementKind, "Numeric") :
            "`x` must have an integer or floating-point element type.",
          true : "`x` may have any element type.");
  let arguments = (ins AnyRankedTensor:$x);
  let results = (outs AnyRankedTensor:$result);
  let inferBody = [{
    return ::raf::relay::inferElementwise(location, getOperationName(),
        adaptor.getX(), ::raf::relay::ElementKind::}] # elementKind # [{,
        inferredReturnTypes);
  }];
}

def Relay_ReluOp : Relay_UnaryOp<"nn.relu", "Infer", "Numeric"> {
  let summary = "rectified linear unit: max(x, 0)";
}
def Relay_LeakyReluOp : Relay_UnaryOp<"nn.leaky_relu", "Infer", "Float"> {
  let summary = "leaky ReLU: x if x > 0 else alpha * x";
  let description = [{
    Element-wise `x > 0 ? x : alpha * x` with the slope `alpha` (default
    0.01) for negative inputs. `x` must have a floating-point element type;
    the result has its type.
  }];
  let arguments = (ins AnyRankedTensor:$x,
                       DefaultValuedAttr<F64Attr, "0.01">:$alpha);
}
def Relay_SigmoidOp : Relay_UnaryOp<"sigmoid", "Infer", "Float"> {
  let summary = "logistic sigmoid 1 / (1 + exp(-x))";
}
def Relay_TanhOp : Relay_UnaryOp<"tanh", "Never", "Float"> {
  let summary = "hyperbolic tangent";
}
def Relay_ExpOp : Relay_UnaryOp<"exp", "Never", "Float"> {
  let summary = "natural exponential";
}
def Relay_LogOp : Relay_UnaryOp<"log", "Infer", "Float"> {
  let summary = "natural logarithm";
}
def Relay_SqrtOp : Relay_UnaryOp<"sqrt", "Infer", "Float"> {
  let summary = "square root";
}
def Relay_RsqrtOp : Relay_UnaryOp<"rsqrt", "Never", "Float"> {
  let summary = "reciprocal square root 1 / sqrt(x)";
}
def Relay_ErfOp : Relay_UnaryOp<"erf", "Never", "Float"> {
  let summary = "Gauss error function";
}
def Relay_GeluOp : Relay_UnaryOp<"nn.gelu", "Never", "Float"> {
  let summary = "Gaussian error linear unit";
  let description = [{
    `approximate = #relay.gelu_approximation<none>` (the default) computes
    `x * 0.5 * (1 + erf(x / sqrt(2)))`; `<tanh>` the tanh approximation (as
    PyTorch's `approximate` argument).
  }];
  let arguments = (ins AnyRankedTensor:$x,
      DefaultValuedAttr<Relay_GeluApproximationAttr,
                        "::raf::relay::GeluApproximation::None">:$approximate);
}
def Relay_NegativeOp : Relay_UnaryOp<"negative", "Infer", "Numeric"> {
  let summary = "element-wise negation";
}
def Relay_SquareOp : Relay_UnaryOp<"square", "Infer", "Numeric"> {
  let summary = "element-wise square (the Relay paper's `sq`)";
}
def Relay_DropoutOp : Relay_UnaryOp<"nn.dropout", "Infer", "Float", "Opaque"> {
  let summary = "dropout with an explicit seed";
  let description = [{
    Zeroes each element with probability `rate` and scales the survivors by
    `1 / (1 - rate)`. The mask is a deterministic function of `seed` and the
    element index, so the op can be recomputed and its gradient is the same
    dropout applied to the output gradient. Unlike TVM, which returns
    `(output, mask)`, the result is the output only.

    The mask, for the row-major flat element index `i` and the seed, in
    wrapping 32-bit unsigned arithmetic:

    ```
    x = uint32(i) + uint32(seed) * 0x9E3779B9
    x ^= x >> 16;  x *= 0x85EBCA6B
    x ^= x >> 13;  x *= 0xC2B2AE35
    x ^= x >> 16
    u = float(x >> 8) * 2^-24          // exact, in [0, 1)
    ```

    The element is kept iff `u >= rate` (compared exactly, in double
    precision) and then multiplied by `1 / (1 - rate)` (computed in double,
    rounded to the element type); dropped elements are 0. A rate of 1 would
    drop every element.
  }];
  let arguments = (ins AnyRankedTensor:$x,
                       DefaultValuedAttr<F64Attr, "0.5">:$rate,
                       DefaultValuedAttr<I64Attr, "0">:$seed);
  let inferBody = [{
    double rate = adaptor.getRate().convertToDouble();
    if (!(rate >= 0.0 && rate < 1.0))
      return ::mlir::emitOptionalError(location, getOperationName(),
          ": rate must be in [0, 1), got ", rate);
    return ::raf::relay::inferElementwise(location, getOperationName(),
        adaptor.getX(), ::raf::relay::ElementKind::Float, inferredReturnTypes);
  }];
}
def Relay_ZerosLikeOp : Relay_UnaryOp<"zeros_like", "Infer", "Any",
                                      "Injective"> {
  let summary = "zeros of the operand's type";
  let description = [{
    A tensor of the type of `x` (any element type) filled with zeros; the
    values of `x` are not read.
  }];
  let extraClassDeclaration = operatorDecls # [{ int64_t getFlops() { return 0; } }];
}
def Relay_OnesLikeOp : Relay_UnaryOp<"ones_like", "Infer", "Any",
                                     "Injective"> {
  let summary = "ones of the operand's type";
  let description = [{
    A tensor of the type of `x` (any element type) filled with ones; the
    values of `x` are not read.
  }];
  let extraClassDeclaration = operatorDecls # [{ int64_t getFlops() { return 0; } }];
}

def Relay_CastOp : Relay_Operator<"cast", "ElemWise", "Special", 1> {
  let summary = "element type conversion";
  let description = [{
    Converts every element to `dtype` (`f16`, `bf16`, `f32`, `i8`, ...).
    Casting to the operand's own type folds away.
  }];
  let arguments = (ins AnyRankedTensor:$x, TypeAttr:$dtype);
  let results = (outs AnyRankedTensor:$result);
  let hasFolder = 1;
}

//===----------------------------------------------------------------------===//
// Broadcasting binary operators
//===----------------------------------------------------------------------===//

class Relay_BroadcastOp<string mnemonic, string cast, int castArgs,
                        string elementKind, bit isComparison = 0>
    : Relay_Operator<mnemonic, "Broadcast", cast, castArgs> {
  let description = [{
    `lhs` and `rhs` have the same element type and shapes that broadcast as
    in NumPy: dimensions are aligned from the right, each pair must be equal
    or contain a 1, which is stretched, and the missing leading dimensions of
    the shorter shape count as 1. The result has the broadcast shape and }] #
    !if(isComparison,
        "element type `i1` (true where the relation holds).",
        "the operands' element type.") # " " #
    !cond(!eq(elementKind, "Float") :
            "The operands must have a floating-point element type.",
          !eq(elementKind, "Numeric") :
            "The operands must have an integer or floating-point element type.",
          true : "The operands may have any element type.");
  let arguments = (ins AnyRankedTensor:$lhs, AnyRankedTensor:$rhs);
  let results = (outs AnyRankedTensor:$result);
  let inferBody = [{
    return ::raf::relay::inferBroadcast(location, getOperationName(),
        adaptor.getLhs(), adaptor.getRhs(),
        ::raf::relay::ElementKind::}] # elementKind # [{,
        /*isComparison=*/}] # !if(isComparison, "true", "false") # [{,
        inferredReturnTypes);
  }];
}

def Relay_AddOp : Relay_BroadcastOp<"add", "Special", 2, "Numeric"> {
  let summary = "element-wise addition with NumPy broadcasting";
  let hasFolder = 1;
}
def Relay_SubtractOp : Relay_BroadcastOp<"subtract", "Special", 2, "Numeric"> {
  let summary = "element-wise subtraction with NumPy broadcasting";
  let hasFolder = 1;
}
def Relay_MultiplyOp : Relay_BroadcastOp<"multiply", "Never", 2, "Numeric"> {
  let summary = "element-wise multiplication with NumPy broadcasting";
}
def Relay_DivideOp : Relay_BroadcastOp<"divide", "Infer", 2, "Numeric"> {
  let summary = "element-wise division with NumPy broadcasting";
}
def Relay_PowerOp : Relay_BroadcastOp<"power", "Never", 1, "Float"> {
  let summary = "element-wise power lhs ** rhs with NumPy broadcasting";
}
def Relay_MaximumOp : Relay_BroadcastOp<"maximum", "Infer", 2, "Numeric"> {
  let summary = "element-wise maximum with NumPy broadcasting";
}
def Relay_MinimumOp : Relay_BroadcastOp<"minimum", "Infer", 2, "Numeric"> {
  let summary = "element-wise minimum with NumPy broadcasting";
}
def Relay_EqualOp : Relay_BroadcastOp<"equal", "Infer", 2, "Any", 1> {
  let summary = "element-wise ==, result i1";
}
def Relay_NotEqualOp : Relay_BroadcastOp<"not_equal", "Infer", 2, "Any", 1> {
  let summary = "element-wise !=, result i1";
}
def Relay_LessOp : Relay_BroadcastOp<"less", "Infer", 2, "Numeric", 1> {
  let summary = "element-wise <, result i1";
}
def Relay_LessEqualOp : Relay_BroadcastOp<"less_equal", "Infer", 2,
                                          "Numeric", 1> {
  let summary = "element-wise <=, result i1";
}
def Relay_GreaterOp : Relay_BroadcastOp<"greater", "Infer", 2, "Numeric", 1> {
  let summary = "element-wise >, result i1";
}
def Relay_GreaterEqualOp : Relay_BroadcastOp<"greater_equal", "Infer", 2,
                                             "Numeric", 1> {
  let summary = "element-wise >=, result i1";
}

def Relay_WhereOp : Relay_Operator<"where", "Broadcast", "Infer", 3> {
  let summary = "element-wise selection cond ? x : y with broadcasting";
  let description = [{
    Picks `x` where `condition` (an `i1` tensor) is true and `y` elsewhere.
    The three shapes broadcast as in NumPy; `x` and `y` have the same element
    type, which the result has.
  }];
  let arguments = (ins AnyRankedTensor:$condition, AnyRankedTensor:$x,
                       AnyRankedTensor:$y);
  let results = (outs AnyRankedTensor:$result);
}

def Relay_BiasAddOp : Relay_Operator<"nn.bias_add", "Broadcast", "Infer", 2> {
  let summary = "adds a 1-D bias along `axis`";
  let description = [{
    `x + bias`, with the 1-D `bias` broadcast along `axis` of `x` (default
    1, the channels of NCHW; negative counts from the end). `bias` must have
    as many elements as that axis and the element type of `x`.
  }];
  let arguments = (ins AnyRankedTensor:$x, AnyRankedTensor:$bias,
                       DefaultValuedAttr<I64Attr, "1">:$axis);
  let results = (outs AnyRankedTensor:$result);
}

//===----------------------------------------------------------------------===//
// Convolution and linear algebra
//===----------------------------------------------------------------------===//

def Relay_Conv2DOp : Relay_Operator<"nn.conv2d", "OutEWiseFusable", "Always",
                                    2> {
  let summary = "2-D convolution (grouped and depthwise included)";
  let description = [{
    `data_layout` is any permutation of `NCHW` (`#relay.layout<NCHW>`, the
    default, or e.g. `#relay.layout<NHWC>`), `kernel_layout` any permutation
    of `OIHW` (default `OIHW`, e.g. `HWIO`); the output has the data layout. `padding` holds 1 (all sides), 2 (top/bottom,
    left/right) or 4 (top, left, bottom, right) values, as in TVM. The input
    channels must equal `groups` times the kernel's I dimension and the
    output channels must be divisible by `groups` (depthwise: `groups = C`).
    Output size: `(H + pad_top + pad_bottom - dilation * (KH - 1) - 1) /
    stride + 1`. `out_dtype` sets the result element type (e.g. `i32` for
    `i8` inputs).
  }];
  let arguments = (ins AnyRankedTensor:$data, AnyRankedTensor:$weight,
      DefaultValuedAttr<DenseI64ArrayAttr, "{1, 1}">:$strides,
      DefaultValuedAttr<DenseI64ArrayAttr, "{0, 0, 0, 0}">:$padding,
      DefaultValuedAttr<DenseI64ArrayAttr, "{1, 1}">:$dilation,
      DefaultValuedAttr<I64Attr, "1">:$groups,
      Relay_DefaultLayout<"NCHW">:$data_layout,
      Relay_DefaultLayout<"OIHW">:$kernel_layout,
      OptionalAttr<TypeAttr>:$out_dtype);
  let results = (outs AnyRankedTensor:$result);
  let extraClassDeclaration = operatorDecls # [{ int64_t getFlops(); }];
}

def Relay_Conv2DTransposeOp : Relay_Operator<"nn.conv2d_transpose",
                                             "OutEWiseFusable", "Always", 2> {
  let summary = "2-D transposed convolution (NCHW data, IOHW kernel)";
  let description = [{
    The gradient of `nn.conv2d` with respect to its input, as a forward op.
    The kernel is `[C_in, C_out / groups, KH, KW]` (PyTorch's
    `ConvTranspose2d` weight). Output size: `(H - 1) * stride - pad_top -
    pad_bottom + dilation * (KH - 1) + output_padding + 1`.
  }];
  let arguments = (ins AnyRankedTensor:$data, AnyRankedTensor:$weight,
      DefaultValuedAttr<DenseI64ArrayAttr, "{1, 1}">:$strides,
      DefaultValuedAttr<DenseI64ArrayAttr, "{0, 0, 0, 0}">:$padding,
      DefaultValuedAttr<DenseI64ArrayAttr, "{0, 0}">:$output_padding,
      DefaultValuedAttr<DenseI64ArrayAttr, "{1, 1}">:$dilation,
      DefaultValuedAttr<I64Attr, "1">:$groups,
      Relay_DefaultLayout<"NCHW">:$data_layout,
      Relay_DefaultLayout<"IOHW">:$kernel_layout,
      OptionalAttr<TypeAttr>:$out_dtype);
  let results = (outs AnyRankedTensor:$result);
  let extraClassDeclaration = operatorDecls # [{ int64_t getFlops(); }];
}

def Relay_DenseOp : Relay_Operator<"nn.dense", "OutEWiseFusable", "Always",
                                   2> {
  let summary = "fully connected layer: x[..., K] * w[N, K]^T -> [..., N]";
  let description = [{
    Multiplies `x` of shape `[..., K]` (rank >= 1) by the transpose of the
    2-D `weight` `[N, K]`, giving `[..., N]`, as TVM's `nn.dense`. The
    operands have the same element type; the result has it, or `out_dtype`
    (an integer or float type) when given, e.g. `i32` accumulation of `i8`
    operands.
  }];
  let arguments = (ins AnyRankedTensor:$x, AnyRankedTensor:$weight,
                       OptionalAttr<TypeAttr>:$out_dtype);
  let results = (outs AnyRankedTensor:$result);
  let extraClassDeclaration = operatorDecls # [{ int64_t getFlops(); }];
}

def Relay_MatmulOp : Relay_Operator<"nn.matmul", "OutEWiseFusable", "Always",
                                    2> {
  let summary = "2-D matrix product with optional transposes";
  let description = [{
    `op(a)[M, K] * op(b)[K, N]`, where `op` transposes its argument when
    `transpose_a` / `transpose_b` is set.
  }];
  let arguments = (ins AnyRankedTensor:$a, AnyRankedTensor:$b,
                       DefaultValuedAttr<BoolAttr, "false">:$transpose_a,
                       DefaultValuedAttr<BoolAttr, "false">:$transpose_b,
                       OptionalAttr<TypeAttr>:$out_dtype);
  let results = (outs AnyRankedTensor:$result);
  let extraClassDeclaration = operatorDecls # [{ int64_t getFlops(); }];
}

def Relay_BatchMatmulOp : Relay_Operator<"nn.batch_matmul", "OutEWiseFusable",
                                         "Always", 2> {
  let summary = "batched 3-D matrix product";
  let description = [{
    `op(a)[B, M, K] * op(b)[B, K, N]`. As in TVM the default is
    `transpose_b = true` (b given as `[B, N, K]`). A batch of 1 broadcasts.
  }];
  let arguments = (ins AnyRankedTensor:$a, AnyRankedTensor:$b,
                       DefaultValuedAttr<BoolAttr, "false">:$transpose_a,
                       DefaultValuedAttr<BoolAttr, "true">:$transpose_b,
                       OptionalAttr<TypeAttr>:$out_dtype);
  let results = (outs AnyRankedTensor:$result);
  let extraClassDeclaration = operatorDecls # [{ int64_t getFlops(); }];
}

//===----------------------------------------------------------------------===//
// Normalisation, activation over an axis, and losses
//===----------------------------------------------------------------------===//

class Relay_AxisNormOp<string mnemonic, string cast>
    : Relay_Operator<mnemonic, "Opaque", cast, 1> {
  let arguments = (ins AnyRankedTensor:$x,
                       DefaultValuedAttr<I64Attr, "-1">:$axis);
  let results = (outs AnyRankedTensor:$result);
  let inferBody = [{
    return ::raf::relay::inferAxisPreserving(location, getOperationName(),
        adaptor.getX(), adaptor.getAxis(), inferredReturnTypes);
  }];
  let extraClassDeclaration = operatorDecls # [{ int64_t getFlops(); }];
}
def Relay_SoftmaxOp : Relay_AxisNormOp<"nn.softmax", "Never"> {
  let summary = "softmax along `axis`";
  let description = [{
    `exp(x - m) / sum(exp(x - m))` along `axis` (default -1, the last axis;
    negative axes count from the end), with `m` the maximum along the axis.
    `x` must be a floating-point tensor of rank >= 1; the result has its
    type.
  }];
}
def Relay_LogSoftmaxOp : Relay_AxisNormOp<"nn.log_softmax", "Never"> {
  let summary = "log of softmax along `axis`";
  let description = [{
    `(x - m) - log(sum(exp(x - m)))` along `axis` (default -1, the last
    axis; negative axes count from the end), with `m` the maximum along the
    axis. `x` must be a floating-point tensor of rank >= 1; the result has
    its type.
  }];
}

// AutoCast: RAF infers from `x` alone and keeps gamma and beta in f32; this
// operator needs one element type for all three, so the majority of the
// three decides (f32 parameters keep a low-precision `x` in f32).
def Relay_LayerNormOp : Relay_Operator<"nn.layer_norm", "Opaque", "Infer", 3> {
  let summary = "layer normalisation over `axis`";
  let description = [{
    `(x - mean) / sqrt(var + epsilon) * gamma + beta` with mean and biased
    variance over `axis`; `gamma` and `beta` have shape `[x.shape[axis]]`.
    `center = false` drops beta, `scale = false` drops gamma (the operands
    are still passed).
  }];
  let arguments = (ins AnyRankedTensor:$x, AnyRankedTensor:$gamma,
                       AnyRankedTensor:$beta,
                       DefaultValuedAttr<I64Attr, "-1">:$axis,
                       DefaultValuedAttr<F64Attr, "1e-5">:$epsilon,
                       DefaultValuedAttr<BoolAttr, "true">:$center,
                       DefaultValuedAttr<BoolAttr, "true">:$scale);
  let results = (outs AnyRankedTensor:$result);
  let extraClassDeclaration = operatorDecls # [{ int64_t getFlops(); }];
}

def Relay_BatchNormOp : Relay_Operator<"nn.batch_norm", "Opaque", "Special",
                                       1> {
  let summary = "batch normalisation along the channel `axis`";
  let description = [{
    Results: the normalised tensor, and the updated moving mean and moving
    variance (`[C]` each). With `training = false` the moving statistics
    normalise and are returned unchanged; with `training = true` the batch
    statistics normalise and the moving ones are updated with `momentum`
    (`new = (1 - momentum) * moving + momentum * batch`, unbiased batch
    variance, as PyTorch).
  }];
  let arguments = (ins AnyRankedTensor:$x, AnyRankedTensor:$gamma,
                       AnyRankedTensor:$beta, AnyRankedTensor:$moving_mean,
                       AnyRankedTensor:$moving_var,
                       DefaultValuedAttr<I64Attr, "1">:$axis,
                       DefaultValuedAttr<F64Attr, "1e-5">:$epsilon,
                       DefaultValuedAttr<F64Attr, "0.1">:$momentum,
                       DefaultValuedAttr<BoolAttr, "true">:$center,
                       DefaultValuedAttr<BoolAttr, "true">:$scale,
                       DefaultValuedAttr<BoolAttr, "false">:$training);
  let results = (outs AnyRankedTensor:$result, AnyRankedTensor:$new_mean,
                      AnyRankedTensor:$new_var);
  let extraClassDeclaration = operatorDecls # [{ int64_t getFlops(); }];
}

def Relay_CrossEntropyOp : Relay_Operator<"nn.cross_entropy", "Opaque",
                                          "Never", 2> {
  let summary = "softmax cross-entropy of logits against targets";
  let description = [{
    `logits` is `[N, C]`; `target` is either `[N]` integer class indices or
    `[N, C]` class probabilities. Computes `-sum(target * log_softmax(logits))`
    per sample, reduced by `reduction` (`#relay.loss_reduction<mean>`, the
    default, `<sum>` or `<none>`), with the
    semantics of PyTorch's `cross_entropy` (TVM's `nn.cross_entropy` takes
    probabilities; an importer composes it from `log` and `sum` instead).
  }];
  let arguments = (ins AnyRankedTensor:$logits, AnyRankedTensor:$target,
                       DefaultValuedAttr<Relay_LossReductionAttr,
                           "::raf::relay::LossReduction::Mean">:$reduction);
  let results = (outs AnyRankedTensor:$result);
  let extraClassDeclaration = operatorDecls # [{ int64_t getFlops(); }];
}

def Relay_NLLLossOp : Relay_Operator<"nn.nll_loss", "Opaque", "Never", 2> {
  let summary = "negative log-likelihood loss";
  let description = [{
    `predictions` are log-probabilities `[N, C, d...]`, `targets` class
    indices `[N, d...]`. Samples whose target equals `ignore_index` do not
    count. `reduction` (`#relay.loss_reduction<...>`) is `mean` (over counted
    samples, the default), `sum` or `none`.
  }];
  let arguments = (ins AnyRankedTensor:$predictions, AnyRankedTensor:$targets,
                       DefaultValuedAttr<Relay_LossReductionAttr,
                           "::raf::relay::LossReduction::Mean">:$reduction,
                       DefaultValuedAttr<I64Attr, "-100">:$ignore_index);
  let results = (outs AnyRankedTensor:$result);
}

//===----------------------------------------------------------------------===//
// Pooling
//===----------------------------------------------------------------------===//

class Relay_Pool2DOp<string mnemonic>
    : Relay_Operator<mnemonic, "OutEWiseFusable", "Infer", 1> {
  let description = [{
    `layout` is any permutation of `NCHW` (`#relay.layout<NHWC>`; default
    `NCHW`). `padding` has 1, 2 or 4 values as
    for `nn.conv2d`. With `ceil_mode` the output size rounds up, and a window
    that would start in the bottom/right padding is dropped (as PyTorch).
  }];
  let results = (outs AnyRankedTensor:$result);
  let extraClassDeclaration = operatorDecls # [{ int64_t getFlops(); }];
}

def Relay_MaxPool2DOp : Relay_Pool2DOp<"nn.max_pool2d"> {
  let summary = "2-D max pooling";
  let arguments = (ins AnyRankedTensor:$x,
      DenseI64ArrayAttr:$pool_size,
      DefaultValuedAttr<DenseI64ArrayAttr, "{1, 1}">:$strides,
      DefaultValuedAttr<DenseI64ArrayAttr, "{1, 1}">:$dilation,
      DefaultValuedAttr<DenseI64ArrayAttr, "{0, 0, 0, 0}">:$padding,
      Relay_DefaultLayout<"NCHW">:$layout,
      DefaultValuedAttr<BoolAttr, "false">:$ceil_mode);
}

def Relay_AvgPool2DOp : Relay_Pool2DOp<"nn.avg_pool2d"> {
  let summary = "2-D average pooling";
  let arguments = (ins AnyRankedTensor:$x,
      DenseI64ArrayAttr:$pool_size,
      DefaultValuedAttr<DenseI64ArrayAttr, "{1, 1}">:$strides,
      DefaultValuedAttr<DenseI64ArrayAttr, "{1, 1}">:$dilation,
      DefaultValuedAttr<DenseI64ArrayAttr, "{0, 0, 0, 0}">:$padding,
      Relay_DefaultLayout<"NCHW">:$layout,
      DefaultValuedAttr<BoolAttr, "false">:$ceil_mode,
      DefaultValuedAttr<BoolAttr, "false">:$count_include_pad);
}

// The gradients of the pooling operators with respect to their input, as TVM
// Relay's `nn.max_pool2d_grad` / `nn.avg_pool2d_grad`: `out_grad` is the
// gradient of the forward result, `data` the forward input, and the
// attributes are the forward operator's. They exist so that the gradient
// rules of the pooling operators have one operator to emit. Floats only.
// AutoCast: inferred from both operands, as RAF's max_pool2d_dx and
// avg_pool2d_dx.
class Relay_Pool2DGradOp<string mnemonic>
    : Relay_Operator<mnemonic, "Opaque", "Infer", 2> {
  let results = (outs AnyRankedTensor:$result);
  let extraClassDeclaration = operatorDecls # [{ int64_t getFlops(); }];
}

def Relay_MaxPool2DGradOp : Relay_Pool2DGradOp<"nn.max_pool2d_grad"> {
  let summary = "gradient of 2-D max pooling with respect to its input";
  let description = [{
    `out_grad` must have the shape `nn.max_pool2d` gives for `data` with the
    same attributes; the result has `data`'s type. As PyTorch's max_pool2d
    backward, each element of `out_grad` goes to the position of its window's
    maximum in `data`, and the contributions of overlapping windows add up.
    The maximum is the first one in row-major window order on ties; window
    positions in the padding never count (a window whose every input element
    is `-inf` gives its gradient to the first of them); a NaN is taken as a
    new maximum wherever it appears, so the last NaN of a window wins (as
    PyTorch's kernels).
  }];
  let arguments = (ins AnyRankedTensor:$out_grad, AnyRankedTensor:$data,
      DenseI64ArrayAttr:$pool_size,
      DefaultValuedAttr<DenseI64ArrayAttr, "{1, 1}">:$strides,
      DefaultValuedAttr<DenseI64ArrayAttr, "{1, 1}">:$dilation,
      DefaultValuedAttr<DenseI64ArrayAttr, "{0, 0, 0, 0}">:$padding,
      Relay_DefaultLayout<"NCHW">:$layout,
      DefaultValuedAttr<BoolAttr, "false">:$ceil_mode);
}

def Relay_AvgPool2DGradOp : Relay_Pool2DGradOp<"nn.avg_pool2d_grad"> {
  let summary = "gradient of 2-D average pooling with respect to its input";
  let description = [{
    `out_grad` must have the shape `nn.avg_pool2d` gives for `data` with the
    same attributes; the result has `data`'s type (`data`'s values are not
    read). As PyTorch's avg_pool2d backward, each element of `out_grad` is
    divided by its window's divisor (the forward operator's: window positions
    inside the input, plus those in the explicit padding with
    `count_include_pad`, never those of a `ceil_mode` window beyond the
    padding) and added to every input element of its window.
  }];
  let arguments = (ins AnyRankedTensor:$out_grad, AnyRankedTensor:$data,
      DenseI64ArrayAttr:$pool_size,
      DefaultValuedAttr<DenseI64ArrayAttr, "{1, 1}">:$strides,
      DefaultValuedAttr<DenseI64ArrayAttr, "{1, 1}">:$dilation,
      DefaultValuedAttr<DenseI64ArrayAttr, "{0, 0, 0, 0}">:$padding,
      Relay_DefaultLayout<"NCHW">:$layout,
      DefaultValuedAttr<BoolAttr, "false">:$ceil_mode,
      DefaultValuedAttr<BoolAttr, "false">:$count_include_pad);
}

def Relay_GlobalAvgPool2DOp : Relay_Operator<"nn.global_avg_pool2d",
                                             "OutEWiseFusable", "Infer", 1> {
  let summary = "average over the whole spatial extent (H = W = 1 after)";
  let description = [{
    Averages each channel of the 4-D `x` over its height and width; the
    result has the shape of `x` with H = W = 1. `layout` (default `NCHW`)
    names where N, C, H and W are.
  }];
  let arguments = (ins AnyRankedTensor:$x,
                       Relay_DefaultLayout<"NCHW">:$layout);
  let results = (outs AnyRankedTensor:$result);
}

//===----------------------------------------------------------------------===//
// Reductions
//===----------------------------------------------------------------------===//

// `axis` absent reduces every axis; negative axes count from the end;
// `exclude` reduces every axis *not* listed.
class Relay_ReduceOp<string mnemonic, string cast, string resultElement = "">
    : Relay_Operator<mnemonic, "CommReduce", cast, 1> {
  let description = [{
    Reduces `x` over the axes listed in `axis` (every axis when `axis` is
    absent; negative axes count from the end; an axis listed twice is an
    error). With `exclude = true` the axes not listed are reduced instead.
    Reduced axes are removed from the result's shape, or kept with extent 1
    when `keepdims = true`. }] #
    !if(!empty(resultElement),
        "The result has the element type of `x`.",
        "The result holds, as `i32` (as TVM), the row-major index of the " #
        "maximum within the reduced axes (the first one on ties; NaN counts " #
        "as the maximum).");
  let arguments = (ins AnyRankedTensor:$x,
                       OptionalAttr<DenseI64ArrayAttr>:$axis,
                       DefaultValuedAttr<BoolAttr, "false">:$keepdims,
                       DefaultValuedAttr<BoolAttr, "false">:$exclude);
  let results = (outs AnyRankedTensor:$result);
  let inferBody = [{
    return ::raf::relay::inferReduction(location, getOperationName(),
        adaptor.getX(), adaptor.getAxis(), adaptor.getKeepdims(),
        adaptor.getExclude(), }] #
        !if(!empty(resultElement), "::mlir::Type()", resultElement) # [{,
        inferredReturnTypes);
  }];
  // One operation per input element.
  let extraClassDeclaration = operatorDecls # [{
    int64_t getFlops() {
      return ::raf::relay::detail::countElements(getX().getType());
    }
  }];
}

def Relay_SumOp : Relay_ReduceOp<"sum", "Never"> {
  let summary = "sum over axes";
}
def Relay_MeanOp : Relay_ReduceOp<"mean", "Infer"> {
  let summary = "arithmetic mean over axes";
}
def Relay_MaxOp : Relay_ReduceOp<"max", "Infer"> {
  let summary = "maximum over axes";
}
def Relay_ArgmaxOp : Relay_ReduceOp<"argmax", "Infer",
    "::mlir::IntegerType::get(context, 32)"> {
  let summary = "index of the maximum over axes (i32 result, as TVM)";
}

//===----------------------------------------------------------------------===//
// Shape and layout operators
//===----------------------------------------------------------------------===//

class Relay_ShapeOp<string mnemonic, string cast, int castArgs = 1,
                    string fusion = "Injective">
    : Relay_Operator<mnemonic, fusion, cast, castArgs> {
  let extraClassDeclaration = operatorDecls # [{ int64_t getFlops() { return 0; } }];
}

def Relay_ReshapeOp : Relay_ShapeOp<"reshape", "Infer"> {
  let summary = "reshape to `newshape`";
  let description = [{
    `newshape` may contain one `-1` (inferred from the element count) and `0`
    (copy the input dimension at the same position), as in TVM.
  }];
  let arguments = (ins AnyRankedTensor:$x, DenseI64ArrayAttr:$newshape);
  let results = (outs AnyRankedTensor:$result);
  let hasFolder = 1;
}

def Relay_TransposeOp : Relay_ShapeOp<"transpose", "Infer"> {
  let summary = "permute axes (reverses them when `axes` is absent)";
  let description = [{
    Result axis `i` is axis `axes[i]` of `x`; `axes` is a permutation of
    the axes of `x` (negative entries count from the end) and reverses them
    when absent. The identity permutation folds away, and a transpose of a
    transpose folds into one.
  }];
  let arguments = (ins AnyRankedTensor:$x,
                       OptionalAttr<DenseI64ArrayAttr>:$axes);
  let results = (outs AnyRankedTensor:$result);
  let hasFolder = 1;
}

def Relay_ExpandDimsOp : Relay_ShapeOp<"expand_dims", "Infer"> {
  let summary = "insert `num_newaxis` unit axes at `axis`";
  let description = [{
    Inserts `num_newaxis` (default 1, at most 64) axes of extent 1 before
    position `axis` of the result, which lies in [-(rank + 1), rank] (rank of
    `x`; negative counts from the end). The data is unchanged.
  }];
  let arguments = (ins AnyRankedTensor:$x, I64Attr:$axis,
                       DefaultValuedAttr<I64Attr, "1">:$num_newaxis);
  let results = (outs AnyRankedTensor:$result);
}

def Relay_SqueezeOp : Relay_ShapeOp<"squeeze", "Infer"> {
  let summary = "remove unit axes (all of them when `axis` is absent)";
  let description = [{
    Removes the axes listed in `axis` (negative counts from the end), each
    of which must have extent 1, or every axis of extent 1 when `axis` is
    absent. The data is unchanged.
  }];
  let arguments = (ins AnyRankedTensor:$x,
                       OptionalAttr<DenseI64ArrayAttr>:$axis);
  let results = (outs AnyRankedTensor:$result);
}

def Relay_ConcatenateOp : Relay_ShapeOp<"concatenate", "Special"> {
  let summary = "join tensors along `axis`";
  let description = [{
    Joins one or more `inputs` along `axis` (default 0; negative counts from
    the end). The inputs must have the same rank and element type and equal
    extents outside the axis; the result's extent on the axis is the sum of
    theirs.
  }];
  let arguments = (ins Variadic<AnyRankedTensor>:$inputs,
                       DefaultValuedAttr<I64Attr, "0">:$axis);
  let results = (outs AnyRankedTensor:$result);
}

def Relay_SplitOp : Relay_ShapeOp<"split", "Follow"> {
  let summary = "split along `axis` into sections or at indices";
  let description = [{
    Exactly one of `sections` (that many equal parts; the axis must divide
    evenly) and `indices` (split points, strictly increasing) is given. Each
    part is a separate result.
  }];
  let arguments = (ins AnyRankedTensor:$x,
                       OptionalAttr<I64Attr>:$sections,
                       OptionalAttr<DenseI64ArrayAttr>:$indices,
                       DefaultValuedAttr<I64Attr, "0">:$axis);
  let results = (outs Variadic<AnyRankedTensor>:$results);
}

def Relay_StridedSliceOp : Relay_ShapeOp<"strided_slice", "Infer"> {
  let summary = "slice with begin, end and strides per axis";
  let description = [{
    `begin`, `end` and `strides` (default 1) apply to `axes` (default: the
    leading axes). Negative indices count from the end and are clamped into
    range, as in NumPy; negative strides walk backwards.
  }];
  let arguments = (ins AnyRankedTensor:$x, DenseI64ArrayAttr:$begin,
                       DenseI64ArrayAttr:$end,
                       OptionalAttr<DenseI64ArrayAttr>:$strides,
                       OptionalAttr<DenseI64ArrayAttr>:$axes);
  let results = (outs AnyRankedTensor:$result);
}

def Relay_TakeOp : Relay_ShapeOp<"take", "Infer", 2> {
  let summary = "gather elements along `axis` by integer indices";
  let description = [{
    The result shape is `data.shape[:axis] + indices.shape +
    data.shape[axis+1:]`; without `axis` the data is flattened first.
    `mode` (`#relay.take_mode<...>`) is `clip` (the default), `wrap` or
    `fast` (out-of-range is undefined).
  }];
  let arguments = (ins AnyRankedTensor:$data, AnyRankedTensor:$indices,
                       OptionalAttr<I64Attr>:$axis,
                       DefaultValuedAttr<Relay_TakeModeAttr,
                                         "::raf::relay::TakeMode::Clip">:$mode);
  let results = (outs AnyRankedTensor:$result);
}

def Relay_PadOp : Relay_ShapeOp<"nn.pad", "Infer"> {
  let summary = "pad every axis";
  let description = [{
    `pad_width` lists `before, after` for every axis (2 * rank values, each
    >= 0). `pad_mode` (`#relay.pad_mode<...>`) is `constant` (the default,
    with `pad_value`), `edge` or `reflect` (padding must be smaller than the
    dimension).
  }];
  let arguments = (ins AnyRankedTensor:$x, DenseI64ArrayAttr:$pad_width,
                       DefaultValuedAttr<F64Attr, "0.0">:$pad_value,
                       DefaultValuedAttr<Relay_PadModeAttr,
                           "::raf::relay::PadMode::Constant">:$pad_mode);
  let results = (outs AnyRankedTensor:$result);
}

def Relay_BroadcastToOp : Relay_ShapeOp<"broadcast_to", "Infer"> {
  let summary = "broadcast to `shape` with NumPy rules";
  let description = [{
    Stretches `x` to `shape`: dimensions are aligned from the right, each
    dimension of `x` must be 1 (stretched) or equal to the target's, and
    `shape` may add leading dimensions. The result has `x`'s element type.
  }];
  let arguments = (ins AnyRankedTensor:$x, DenseI64ArrayAttr:$shape);
  let results = (outs AnyRankedTensor:$result);
  let hasFolder = 1;
}

class Relay_FillOp<string mnemonic> : Relay_ShapeOp<mnemonic, "Infer", 0> {
  let description = [{
    A constant tensor of shape `shape` (non-negative extents) and element
    type `dtype`, every element equal to the value the summary names.
  }];
  let arguments = (ins DenseI64ArrayAttr:$shape, TypeAttr:$dtype);
  let results = (outs AnyRankedTensor:$result);
}
def Relay_ZerosOp : Relay_FillOp<"zeros"> {
  let summary = "tensor of zeros of `shape` and `dtype`";
}
def Relay_OnesOp : Relay_FillOp<"ones"> {
  let summary = "tensor of ones of `shape` and `dtype`";
}

#endif // RAF_DIALECT_RELAY_IR_RELAYOPERATORS_TD
