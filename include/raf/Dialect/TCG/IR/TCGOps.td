//===- TCGOps.td - tcg dialect operations ------------------*- tablegen -*-===//
//
// The node kinds of a Tensor Compute Graph (Rieber 2022, §3.1, Fig. 3.2):
// kernel (the root and its sequence of computations), tensor, reduce,
// compute and input. An access is an affine map on tcg.input, and a node's
// right child is its region.
//
//===----------------------------------------------------------------------===//

#ifndef RAF_DIALECT_TCG_IR_TCGOPS_TD
#define RAF_DIALECT_TCG_IR_TCGOPS_TD

include "mlir/IR/OpAsmInterface.td"
include "mlir/IR/OpBase.td"
include "mlir/IR/BuiltinAttributeInterfaces.td"
include "mlir/IR/CommonAttrConstraints.td"
include "mlir/Interfaces/ControlFlowInterfaces.td"
include "mlir/Interfaces/SideEffectInterfaces.td"
include "raf/Dialect/TCG/IR/TCGDialect.td"
include "raf/Dialect/TCG/IR/TCGEnums.td"
include "raf/Dialect/TCG/IR/TCGAttrs.td"

class TCG_Op<string mnemonic, list<Trait> traits = []>
    : Op<TCG_Dialect, mnemonic, traits>;

// Scalars are what hardware datapaths compute on: signless integers (the
// arith dialect's integers) and floats.
def TCG_Scalar : AnyTypeOf<[AnySignlessInteger, AnyFloat],
                           "signless integer or floating-point scalar">;

// The iteration interval [lower, upper) and the optional iterator name and
// GEMM axis shared by tcg.tensor and tcg.reduce.
defvar TCG_IteratorArgs = (ins I64Attr:$lower, I64Attr:$upper,
                               OptionalAttr<StrAttr>:$iter_name,
                               OptionalAttr<TCG_GemmAxis>:$gemm_axis);

// C++ shared by the two iterator-defining ops.
defvar TCG_IteratorDecls = [{
  /// The iterator: the body block's only argument.
  ::mlir::BlockArgument getIterator() {
    return getBody().front().getArgument(0);
  }
  /// The interval's bounds as signed values (I64Attr's accessors are
  /// unsigned).
  int64_t getLowerBound() { return getLowerAttr().getInt(); }
  int64_t getUpperBound() { return getUpperAttr().getInt(); }
  /// Number of iterations, upper - lower.
  int64_t getExtent() { return getUpperBound() - getLowerBound(); }
  /// The body's terminator.
  YieldOp getYield();
}];

def TCG_KernelOp : TCG_Op<"kernel", [
    IsolatedFromAbove, Pure,
    DeclareOpInterfaceMethods<OpAsmOpInterface, ["getAsmBlockArgumentNames"]>]> {
  let summary = "an operator or intrinsic as a tensor compute graph";
  let description = [{
    The root of a TCG. Its operands are the input tensors, which its region
    receives as block arguments; its region is a sequence of computations
    (top-level `tcg.tensor` nodes) and a `tcg.yield` of the one the kernel
    returns. The kernel is an ordinary value-producing op, usable in any
    function body, so a relay function can mix relay operators and kernels.

    `kernel_name` names intrinsics (e.g. `vta.gemm.1x16x16`) and converted
    operators. `arg_names` (one per operand) and `result_name` name the
    operands of the tensor expression (`data`, `weight`, ...); the printer
    uses `arg_names` for the block arguments.

    ```mlir
    %r = tcg.kernel "dense" (%x = %0 : tensor<2x8xf32>, %w = %1 : tensor<4x8xf32>)
        -> tensor<2x4xf32> attributes {arg_names = ["x", "w"]} {
      ...
      tcg.yield %t : tensor<2x4xf32>
    }
    ```
  }];
  let arguments = (ins Variadic<AnyStaticShapeTensor>:$inputs,
                       OptionalAttr<StrAttr>:$kernel_name,
                       OptionalAttr<StrArrayAttr>:$arg_names,
                       OptionalAttr<StrAttr>:$result_name);
  let results = (outs AnyStaticShapeTensor:$result);
  let regions = (region SizedRegion<1>:$body);
  let hasCustomAssemblyFormat = 1;
  let hasVerifier = 1;
  let hasRegionVerifier = 1;
  let extraClassDeclaration = [{
    ::mlir::Block &getBodyBlock() { return getBody().front(); }
    /// The terminator of the body.
    YieldOp getYield();
    /// The top-level computation the kernel returns.
    TensorOp getRootTensor();
    /// Name of operand `index`: its `arg_names` entry, or "in<index>".
    std::string getArgName(unsigned index);
    /// `result_name`, or "out".
    ::llvm::StringRef getResultNameOrDefault();
  }];
}

def TCG_TensorOp : TCG_Op<"tensor", [
    ParentOneOf<["KernelOp", "TensorOp"]>, Pure,
    DeclareOpInterfaceMethods<OpAsmOpInterface, ["getAsmBlockArgumentNames"]>]> {
  let summary = "one output dimension (a parallel loop)";
  let description = [{
    Forms one dimension of an output tensor: the iterator (the body's
    `index` argument) ranges over `[lower, upper)`, and for each value the
    body computes one element of the dimension. The body is either a nested
    `tcg.tensor` (the next, inner dimension) yielding its tensor, or a
    scalar computation (`tcg.input`, `tcg.constant`, `tcg.compute`,
    `tcg.reduce`) yielding a scalar. The result type is the interval's size followed by the yielded
    shape: the nest depth is the rank and the intervals are the shape.

    `lower` must be 0 (the view attributes of `tcg.input` express offsets).
    `iter_name` names the iterator (`oc`, `oh`, ...); `gemm_axis` (`x`, `y`
    or `z`, a `GemmAxis`) is the axis of a GEMM core that TVM's hand-written
    VTA strategy maps the dimension to (batch -> x, output channel -> y;
    Rieber 2022, §4.5.1).

    ```mlir
    %t = tcg.tensor %oc in [0, 16) name "oc" gemm_axis y -> tensor<16x8xf32> {
      ...
    }
    ```
  }];
  let arguments = TCG_IteratorArgs;
  let results = (outs AnyStaticShapeTensor:$result);
  let regions = (region SizedRegion<1>:$body);
  let hasCustomAssemblyFormat = 1;
  let hasVerifier = 1;
  let hasRegionVerifier = 1;
  let extraClassDeclaration = TCG_IteratorDecls;
}

def TCG_ReduceOp : TCG_Op<"reduce", [
    ParentOneOf<["TensorOp", "ReduceOp"]>, Pure,
    DeclareOpInterfaceMethods<OpAsmOpInterface, ["getAsmBlockArgumentNames"]>]> {
  let summary = "a reduction over one iterator";
  let description = [{
    Combines the scalar its body yields for every value of its iterator in
    `[lower, upper)` with `kind` (`add`, `mul`, `max` or `min`), starting
    from the operation's neutral element. A reduction over several
    dimensions is one `tcg.reduce` per dimension, nested. The result type
    is the yielded type (the accumulator type).

    ```mlir
    %s = tcg.reduce add %k in [0, 64) name "k" gemm_axis z -> f32 {
      ...
      tcg.yield %p : f32
    }
    ```
  }];
  let arguments = !con((ins TCG_ScalarOp:$kind), TCG_IteratorArgs);
  let results = (outs TCG_Scalar:$result);
  let regions = (region SizedRegion<1>:$body);
  let hasCustomAssemblyFormat = 1;
  let hasVerifier = 1;
  let hasRegionVerifier = 1;
  let extraClassDeclaration = TCG_IteratorDecls;
}

def TCG_ComputeOp : TCG_Op<"compute", [
    ParentOneOf<["TensorOp", "ReduceOp"]>, Pure]> {
  let summary = "an element-wise operation on one or two scalars";
  let description = [{
    Applies `kind` to two scalars (`add`, `sub`, `mul`, `div`, `max`,
    `min`) or, for the unary `exp`, to one. The result type is explicit and
    may be wider than the operands, which is how an accumulation type is
    written (`i8 * i8 -> i32`): operands and result are all integers or all
    floats, and the result is at least as wide as either operand. Narrower
    operands are widened first (integers sign-extended, as for relay's
    `out_dtype`), then the operation runs in the result type. `exp` needs a
    float; integer `div` is signed and rounds towards zero.

    ```mlir
    %p = tcg.compute mul %a, %b : (i8, i8) -> i32
    %e = tcg.compute exp %x : (f32) -> f32
    ```
  }];
  let arguments = (ins TCG_ScalarOp:$kind, TCG_Scalar:$lhs,
                       Optional<TCG_Scalar>:$rhs);
  let results = (outs TCG_Scalar:$result);
  let assemblyFormat = [{
    $kind $lhs (`,` $rhs^)? attr-dict `:` functional-type(operands, results)
  }];
  let hasVerifier = 1;
  let extraClassDeclaration = [{
    /// Whether `kind` takes one operand (exp) rather than two.
    static bool isUnary(ScalarOp kind) { return kind == ScalarOp::Exp; }
    /// Whether the operands may be swapped (Rieber 2022, §3.3.1).
    static bool isCommutative(ScalarOp kind) {
      return kind == ScalarOp::Add || kind == ScalarOp::Mul ||
             kind == ScalarOp::Max || kind == ScalarOp::Min;
    }
  }];
}

def TCG_ConstantOp : TCG_Op<"constant", [
    ParentOneOf<["TensorOp", "ReduceOp"]>, Pure, ConstantLike,
    AllTypesMatch<["value", "result"]>]> {
  let summary = "a scalar constant";
  let description = [{
    A constant operand of a computation, e.g. the 1 of a sigmoid
    `1 / (1 + exp(0 - x))`; Rieber 2022, Tab. 3.2 puts constants on the
    right of commutative operations. The value is an integer or float
    attribute of the result type.

    ```mlir
    %one = tcg.constant 1.000000e+00 : f32
    ```
  }];
  let arguments = (ins TypedAttrInterface:$value);
  let results = (outs TCG_Scalar:$result);
  let assemblyFormat = "$value attr-dict";
  let hasVerifier = 1;
  let hasFolder = 1;
}

def TCG_InputOp : TCG_Op<"input", [
    ParentOneOf<["TensorOp", "ReduceOp"]>, Pure,
    TypesMatchWith<"result is the element type of the source", "source",
                   "result",
                   "::llvm::cast<::mlir::ShapedType>($_self).getElementType()">]> {
  let summary = "reads one element of an input tensor";
  let description = [{
    Reads the element of `source` (a kernel argument, or the result of an
    earlier computation of the kernel: a read-after-write dependency) at the
    indices `map` gives for the iterator operands. The map is quasi-affine:
    sums, products with constants, and `floordiv`, `ceildiv`, `mod` by
    positive constants; each of its dimensions is one iterator operand
    (used, and given once).

    The read goes through a view of the source when `pad_low`, `pad_high`
    or `dilation` (one value per dimension) are given: stored element `j`
    sits at `pad_low + j * dilation` of a view of extent `pad_low + (size -
    1) * dilation + 1 + pad_high`, and every other position of the view
    reads zero. Convolution padding is a padded view; a transposed
    convolution reads a dilated, padded view. The indices must stay inside
    the view for every iteration; the verifier checks this with interval
    arithmetic over the iterators' intervals.

    ```mlir
    %v = tcg.input %data[%n, %ic, %oh * 2 + %kh, %ow * 2 + %kw]
        pad_low [0, 0, 1, 1] pad_high [0, 0, 1, 1] : tensor<1x3x8x8xf32>
    ```
  }];
  let arguments = (ins AnyStaticShapeTensor:$source,
                       Variadic<Index>:$iterators,
                       AffineMapAttr:$map,
                       OptionalAttr<DenseI64ArrayAttr>:$pad_low,
                       OptionalAttr<DenseI64ArrayAttr>:$pad_high,
                       OptionalAttr<DenseI64ArrayAttr>:$dilation);
  let results = (outs TCG_Scalar:$result);
  let hasCustomAssemblyFormat = 1;
  let hasVerifier = 1;
  let builders = [
    // Reads `source` at `map` (over `iterators`), dropping iterators the map
    // does not use and merging repeated ones, so the op verifies and its
    // custom form round-trips.
    OpBuilder<(ins "::mlir::Value":$source, "::mlir::ValueRange":$iterators,
                   "::mlir::AffineMap":$map,
                   CArg<"::llvm::ArrayRef<int64_t>", "{}">:$padLow,
                   CArg<"::llvm::ArrayRef<int64_t>", "{}">:$padHigh,
                   CArg<"::llvm::ArrayRef<int64_t>", "{}">:$dilation)>
  ];
  let extraClassDeclaration = [{
    /// Extent of the view along dimension `dim` (the stored size when there
    /// is no view).
    int64_t getViewExtent(unsigned dim);
    ::llvm::SmallVector<int64_t> getViewShape();
    /// Whether any view attribute changes the source's shape.
    bool hasView();
  }];
}

def TCG_YieldOp : TCG_Op<"yield", [
    Pure, Terminator, ReturnLike,
    ParentOneOf<["KernelOp", "TensorOp", "ReduceOp"]>]> {
  let summary = "the value a kernel, tensor or reduce body produces";
  let description = [{
    Terminates a body. A kernel yields the result of a top-level
    `tcg.tensor`; a tensor yields its nested tensor or a scalar; a reduce
    yields the scalar it combines.

    ```mlir
    tcg.yield %s : f32
    ```
  }];
  let arguments = (ins AnyType:$value);
  let assemblyFormat = "$value attr-dict `:` type($value)";
}

#endif // RAF_DIALECT_TCG_IR_TCGOPS_TD
