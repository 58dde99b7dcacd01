//===- ContractionsToBLAS.cpp - large contractions as BLAS calls ----------===//
//
// Hands the large matrix products of a function to a tuned BLAS, as TVM's
// `-libs=cblas` does for dense and batch_matmul (Chen et al., OSDI 2018, §6)
// and as Caffe runs convolutions (im2col + GEMM, Jia et al. 2014):
//
//   1. static NCHW/FCHW and NHWC/HWCF convolutions whose product is large
//      enough become im2col + contraction (upstream rewriteInIm2Col); a 1x1,
//      stride-1 NCHW convolution needs no im2col copy: it is the product of
//      the [F, C] filter with each image's [C, H*W] plane;
//   2. each static f32/f64 contraction (linalg.matmul, batch_matmul, their
//      transpose forms, generic contractions such as the im2col products)
//      whose loops are one optional batch dimension plus row, column and
//      reduction groups becomes
//
//        %a = bufferization.to_buffer (collapsed/expanded to [b, rows, cols])
//        %c = memref.alloc ; (memref.copy of the initial value)
//        call @rafBlasGemmF32(%a, %b, %c, transA, transB, transC, acc, threads)
//        %result = bufferization.to_tensor %c restrict writable
//
//      Reshapes only merge adjacent dimensions or add a unit batch, so they
//      stay views after bufferization; the operands' strides reach BLAS as
//      leading dimensions and transpose flags (raf/Runtime/BLASRuntime.h).
//
//===----------------------------------------------------------------------===//

#include "raf/Transforms/ContractionsToBLAS.h"
#include "raf/Transforms/Passes.h"

#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/Linalg/IR/LinalgInterfaces.h"
#include "mlir/Dialect/Linalg/Transforms/Transforms.h"
#include "mlir/Dialect/Utils/ReshapeOpsUtils.h"
#include "mlir/IR/Matchers.h"

namespace raf {
#define GEN_PASS_DEF_RAFCONTRACTIONSTOBLAS
#include "raf/Transforms/Passes.h.inc"
} // namespace raf

using namespace mlir;

bool raf::isBLASRuntimeBuilt() {
#ifdef RAF_HAVE_OPENBLAS
  return true;
#else
  return false;
#endif
}

namespace {

/// The role of a loop of a contraction C[b, m, n] += A[b, m, k] * B[b, k, n].
enum class Role { Batch, Row, Col, Reduction };

/// How one operand of a contraction maps onto a [batch, rows, cols] view:
/// its dimensions grouped by role, and whether the two matrix roles are
/// stored in the opposite order ([k, m] for A, [n, k] for B, [n, m] for C).
struct OperandPlan {
  /// Groups of consecutive dimensions of the operand, one per role, in the
  /// operand's order (the batch group first when present).
  SmallVector<ReassociationIndices> groups;
  bool hasBatch = false;
  bool swapped = false;
};

/// A contraction the rewrite handles, with the plans of A, B and C.
struct GemmPlan {
  OpOperand *a = nullptr, *b = nullptr;
  OperandPlan planA, planB, planC;
  int64_t batch = 1;
};

/// Groups the dimensions of an operand by role. The dimensions of one role
/// must be adjacent (so they merge into one without a copy), in the order
/// `order` gives for that role (the same in every operand), with the batch
/// first; `first` and `second` are the two matrix roles in their standard
/// order.
std::optional<OperandPlan>
planOperand(AffineMap map, ArrayRef<Role> roles,
            const DenseMap<Role, SmallVector<unsigned>> &order, Role first,
            Role second) {
  if (!map.isProjectedPermutation(/*allowZeroInResults=*/false))
    return std::nullopt;
  OperandPlan plan;
  SmallVector<Role> groupRoles;
  SmallVector<SmallVector<unsigned>> groupDims;
  for (auto [position, expr] : llvm::enumerate(map.getResults())) {
    unsigned dim = cast<AffineDimExpr>(expr).getPosition();
    Role role = roles[dim];
    if (groupRoles.empty() || groupRoles.back() != role) {
      // A role may form only one group.
      if (llvm::is_contained(groupRoles, role))
        return std::nullopt;
      groupRoles.push_back(role);
      groupDims.emplace_back();
      plan.groups.emplace_back();
    }
    groupDims.back().push_back(dim);
    plan.groups.back().push_back(position);
  }
  for (auto [role, dims] : llvm::zip(groupRoles, groupDims))
    if (dims != order.lookup(role))
      return std::nullopt;
  SmallVector<Role> matrixRoles(groupRoles);
  if (!matrixRoles.empty() && matrixRoles.front() == Role::Batch) {
    plan.hasBatch = true;
    matrixRoles.erase(matrixRoles.begin());
  }
  if (llvm::is_contained(matrixRoles, Role::Batch))
    return std::nullopt;
  if (matrixRoles == SmallVector<Role>{first, second})
    plan.swapped = false;
  else if (matrixRoles == SmallVector<Role>{second, first})
    plan.swapped = true;
  else
    return std::nullopt;
  return plan;
}

/// Plans `op` with the given roles of its loops.
std::optional<GemmPlan> planWithRoles(linalg::LinalgOp op,
                                      ArrayRef<Role> roles) {
  DenseMap<Role, SmallVector<unsigned>> order;
  // Within a role, the dimensions keep the order in which the output (for
  // batch, rows and columns) or the first input (the reduction) lists them.
  AffineMap outputMap = op.getMatchingIndexingMap(op.getDpsInitOperand(0));
  for (AffineExpr expr : outputMap.getResults()) {
    unsigned dim = cast<AffineDimExpr>(expr).getPosition();
    order[roles[dim]].push_back(dim);
  }
  for (AffineExpr expr :
       op.getMatchingIndexingMap(op.getDpsInputOperand(0)).getResults()) {
    unsigned dim = cast<AffineDimExpr>(expr).getPosition();
    if (roles[dim] == Role::Reduction)
      order[Role::Reduction].push_back(dim);
  }
  if (order[Role::Batch].size() > 1 || order[Role::Row].empty() ||
      order[Role::Col].empty() || order[Role::Reduction].empty())
    return std::nullopt;

  GemmPlan plan;
  // A is the input with the row dimensions.
  plan.a = op.getDpsInputOperand(0);
  plan.b = op.getDpsInputOperand(1);
  if (!op.getMatchingIndexingMap(plan.a).isFunctionOfDim(
          order[Role::Row].front()))
    std::swap(plan.a, plan.b);
  std::optional<OperandPlan> a =
      planOperand(op.getMatchingIndexingMap(plan.a), roles, order, Role::Row,
                  Role::Reduction);
  std::optional<OperandPlan> b =
      planOperand(op.getMatchingIndexingMap(plan.b), roles, order,
                  Role::Reduction, Role::Col);
  std::optional<OperandPlan> c =
      planOperand(outputMap, roles, order, Role::Row, Role::Col);
  if (!a || !b || !c || (!order[Role::Batch].empty() && !c->hasBatch))
    return std::nullopt;
  plan.planA = *a;
  plan.planB = *b;
  plan.planC = *c;
  if (!order[Role::Batch].empty())
    plan.batch = op.getStaticLoopRanges()[order[Role::Batch].front()];
  return plan;
}

/// Whether every operand and result of `op` is f32, or every one is f64:
/// the types SGEMM and DGEMM take (integer products, e.g. int8 convolutions
/// accumulating in int32, and mixed types stay compiled code).
bool hasBLASElementType(linalg::LinalgOp op) {
  Type elementType = getElementTypeOrSelf(op->getResult(0).getType());
  if (!elementType.isF32() && !elementType.isF64())
    return false;
  return llvm::all_of(op->getOperands(), [&](Value operand) {
    return getElementTypeOrSelf(operand.getType()) == elementType;
  });
}

std::optional<GemmPlan> planGemm(linalg::LinalgOp op, int64_t minMacs) {
  if (!op.hasPureTensorSemantics() || op.hasDynamicShape() ||
      op.getNumDpsInputs() != 2 || op.getNumDpsInits() != 1 ||
      !linalg::isaContractionOpInterface(op) || !hasBLASElementType(op))
    return std::nullopt;
  Type elementType = getElementTypeOrSelf(op->getResult(0).getType());
  int64_t macs = 1;
  for (int64_t extent : op.getStaticLoopRanges()) {
    if (extent <= 0)
      return std::nullopt;
    macs *= extent;
  }
  if (macs < minMacs)
    return std::nullopt;
  FailureOr<linalg::ContractionDimensions> dims =
      linalg::inferContractionDims(op);
  if (failed(dims))
    return std::nullopt;
  SmallVector<Role> roles(op.getNumLoops(), Role::Batch);
  auto assign = [&](ArrayRef<unsigned> loops, Role role) {
    for (unsigned loop : loops)
      roles[loop] = role;
  };
  assign(dims->batch, Role::Batch);
  assign(dims->m, Role::Row);
  assign(dims->n, Role::Col);
  assign(dims->k, Role::Reduction);
  if (std::optional<GemmPlan> plan = planWithRoles(op, roles))
    return plan;
  // A batch dimension that only one input has (the images of an im2col
  // product, against one filter matrix) counts as a row or column
  // dimension above; as the output's outermost dimension it is a batch
  // whose other input is broadcast.
  if (!dims->batch.empty())
    return std::nullopt;
  AffineMap outputMap = op.getMatchingIndexingMap(op.getDpsInitOperand(0));
  roles[cast<AffineDimExpr>(outputMap.getResult(0)).getPosition()] =
      Role::Batch;
  return planWithRoles(op, roles);
}

/// `value` (a static tensor) as a [batch, rows, cols] tensor: merged role
/// groups, and a unit batch in front when it has none.
Value toMatrixTensor(OpBuilder &builder, Location loc, Value value,
                     const OperandPlan &plan) {
  auto type = cast<RankedTensorType>(value.getType());
  if (plan.groups.size() != static_cast<size_t>(type.getRank()))
    value = tensor::CollapseShapeOp::create(builder, loc, value, plan.groups);
  if (!plan.hasBatch) {
    auto collapsed = cast<RankedTensorType>(value.getType());
    SmallVector<int64_t> shape = {1};
    llvm::append_range(shape, collapsed.getShape());
    value = tensor::ExpandShapeOp::create(
        builder, loc, RankedTensorType::get(shape, type.getElementType()),
        value, SmallVector<ReassociationIndices>{{0, 1}, {2}});
  }
  return value;
}

/// The [batch, rows, cols] memref type every call takes.
MemRefType gemmOperandType(Type elementType) {
  int64_t dynamic = ShapedType::kDynamic;
  MLIRContext *context = elementType.getContext();
  return MemRefType::get(
      {dynamic, dynamic, dynamic}, elementType,
      StridedLayoutAttr::get(context, dynamic, {dynamic, dynamic, dynamic}));
}

/// A read-only view of the [batch, rows, cols] tensor `value` for the call.
Value toCallOperand(OpBuilder &builder, Location loc, Value value) {
  auto type = cast<RankedTensorType>(value.getType());
  int64_t dynamic = ShapedType::kDynamic;
  auto viewType = MemRefType::get(
      type.getShape(), type.getElementType(),
      StridedLayoutAttr::get(builder.getContext(), dynamic,
                             {dynamic, dynamic, dynamic}));
  Value buffer = bufferization::ToBufferOp::create(builder, loc, viewType,
                                                   value, /*readOnly=*/true);
  return memref::CastOp::create(
      builder, loc, gemmOperandType(type.getElementType()), buffer);
}

/// True when `value` is a fill of zero (the product overwrites it), also
/// seen through reshapes (a convolution's output, merged to a matrix).
bool isZeroFill(Value value) {
  while (Operation *reshape = value.getDefiningOp()) {
    if (!isa<tensor::CollapseShapeOp, tensor::ExpandShapeOp>(reshape))
      break;
    value = reshape->getOperand(0);
  }
  auto fill = value.getDefiningOp<linalg::FillOp>();
  return fill && matchPattern(fill.value(), m_AnyZeroFloat());
}

struct ContractionsToBLAS
    : public raf::impl::RAFContractionsToBLASBase<ContractionsToBLAS> {
  using Base::Base;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    if (requireRuntime && !raf::isBLASRuntimeBuilt()) {
      module.emitError()
          << "BLAS contractions need OpenBLAS, which this build did not find "
             "at configure time (install libopenblas-dev and reconfigure, or "
             "use blas=off / blas=auto)";
      return signalPassFailure();
    }
    if (minMacs < 1 || threads < 1) {
      module.emitError() << "--raf-contractions-to-blas: min-macs and threads "
                            "must be at least 1";
      return signalPassFailure();
    }
    IRRewriter rewriter(&getContext());
    for (auto function : module.getOps<func::FuncOp>()) {
      if (function.isExternal())
        continue;
      rewriteConvolutions(rewriter, function);
      SmallVector<std::pair<linalg::LinalgOp, GemmPlan>> contractions;
      function.walk([&](linalg::LinalgOp op) {
        if (std::optional<GemmPlan> plan = planGemm(op, minMacs))
          contractions.emplace_back(op, *plan);
      });
      for (auto &[op, plan] : contractions)
        if (failed(rewriteContraction(rewriter, op, plan)))
          return signalPassFailure();
    }
  }

  /// The multiply-accumulates of a static convolution (0 if dynamic).
  static int64_t convolutionMacs(linalg::LinalgOp op) {
    if (op.hasDynamicShape())
      return 0;
    int64_t macs = 1;
    for (int64_t extent : op.getStaticLoopRanges())
      macs *= extent;
    return macs;
  }

  void rewriteConvolutions(IRRewriter &rewriter, func::FuncOp function) {
    SmallVector<linalg::LinalgOp> convolutions;
    function.walk([&](linalg::LinalgOp op) {
      if (isa<linalg::Conv2DNchwFchwOp, linalg::Conv2DNhwcHwcfOp>(op) &&
          op.hasPureTensorSemantics() && hasBLASElementType(op) &&
          convolutionMacs(op) >= minMacs)
        convolutions.push_back(op);
    });
    for (linalg::LinalgOp op : convolutions) {
      rewriter.setInsertionPoint(op);
      if (auto conv = dyn_cast<linalg::Conv2DNchwFchwOp>(op.getOperation())) {
        if (failed(rewritePointwiseConvolution(rewriter, conv)))
          rewriteNchwInIm2Col(rewriter, conv);
      } else {
        // A convolution the rewrite does not handle stays a convolution.
        (void)linalg::rewriteInIm2Col(
            rewriter, cast<linalg::Conv2DNhwcHwcfOp>(op.getOperation()));
      }
    }
  }

  /// A 1x1, stride-1 NCHW convolution as out[n, f, p] = sum_c W[f, c] *
  /// X[n, c, p] over the image's H*W positions p: a contraction on merged
  /// dimensions (views of the operands), without an im2col copy.
  LogicalResult rewritePointwiseConvolution(IRRewriter &rewriter,
                                            linalg::Conv2DNchwFchwOp conv) {
    auto filterType = cast<RankedTensorType>(conv.getInputs()[1].getType());
    if (filterType.getDimSize(2) != 1 || filterType.getDimSize(3) != 1 ||
        !llvm::all_of(conv.getStrides().getValues<int64_t>(),
                      [](int64_t stride) { return stride == 1; }))
      return failure();
    Location loc = conv.getLoc();
    Value input = conv.getInputs()[0], filter = conv.getInputs()[1],
          init = conv.getOutputs()[0];
    Value images = tensor::CollapseShapeOp::create(
        rewriter, loc, input,
        SmallVector<ReassociationIndices>{{0}, {1}, {2, 3}});
    Value weights = tensor::CollapseShapeOp::create(
        rewriter, loc, filter,
        SmallVector<ReassociationIndices>{{0}, {1, 2, 3}});
    Value result = createImageProduct(rewriter, loc, weights, images, init);
    rewriter.replaceOp(conv, result);
    return success();
  }

  /// An NCHW convolution as out[n, f, p] = sum_k W[f, k] * im2col[n, k, p]
  /// with k = (c, kh, kw) and p = (oh, ow). The im2col copy is a 6-D tensor
  /// [n, c, kh, kw, oh, ow] read through one affine map (any strides and
  /// dilations, so also the weight gradients, whose dilation is the forward
  /// stride) and merged to [n, k, p] without a copy.
  ///
  /// With several images and few output positions each (the weight
  /// gradient of a convolution is one, computed as a convolution of the
  /// input's channels, as images, with the output gradient: Relay's
  /// conv2d weight gradient, Chen et al. OSDI 2018), the per-image products
  /// would have a handful of columns each. Those images become columns of
  /// one product instead: im2col [n, oh, ow, c, kh, kw] merged to
  /// [n * p, k], out'[f, n * p] = W[f, k] * im2col^T, transposed to
  /// [n, f, oh, ow].
  void rewriteNchwInIm2Col(IRRewriter &rewriter,
                           linalg::Conv2DNchwFchwOp conv) {
    Location loc = conv.getLoc();
    MLIRContext *context = rewriter.getContext();
    Value input = conv.getInputs()[0], filter = conv.getInputs()[1],
          init = conv.getOutputs()[0];
    auto inputType = cast<RankedTensorType>(input.getType());
    auto filterType = cast<RankedTensorType>(filter.getType());
    auto initType = cast<RankedTensorType>(init.getType());
    SmallVector<int64_t> strides(conv.getStrides().getValues<int64_t>());
    SmallVector<int64_t> dilations(conv.getDilations().getValues<int64_t>());
    int64_t batch = initType.getDimSize(0), height = initType.getDimSize(2),
            width = initType.getDimSize(3);
    bool imagesAsColumns =
        batch > 1 && height * width < kFewPositions && isZeroFill(init);
    AffineExpr n, c, kh, kw, oh, ow;
    SmallVector<int64_t> columnShape;
    if (imagesAsColumns) {
      // Stored transposed, [n, oh, ow, c, kh, kw]: in a weight gradient the
      // kernel dimensions (kh, kw) run over the output gradient's rows and
      // columns, so the innermost loop of the copy reads and writes a row
      // (contiguous at forward stride 1; a 1x1 convolution's copy is the
      // input in its own layout) instead of a 3-wide window. The product
      // reads it transposed (a CBLAS transpose flag, no copy).
      bindDims(context, n, oh, ow, c, kh, kw);
      columnShape = {batch,
                     height,
                     width,
                     inputType.getDimSize(1),
                     filterType.getDimSize(2),
                     filterType.getDimSize(3)};
    } else {
      bindDims(context, n, c, kh, kw, oh, ow);
      columnShape = {batch, inputType.getDimSize(1), filterType.getDimSize(2),
                     filterType.getDimSize(3), height, width};
    }
    AffineMap read = AffineMap::get(
        6, 0,
        {n, c, oh * strides[0] + kh * dilations[0],
         ow * strides[1] + kw * dilations[1]},
        context);
    Type elementType = initType.getElementType();
    Value empty =
        tensor::EmptyOp::create(rewriter, loc, columnShape, elementType);
    auto columns = linalg::GenericOp::create(
        rewriter, loc, empty.getType(), ValueRange{input}, ValueRange{empty},
        SmallVector<AffineMap>{read, rewriter.getMultiDimIdentityMap(6)},
        SmallVector<utils::IteratorType>(6, utils::IteratorType::parallel),
        [](OpBuilder &builder, Location loc, ValueRange args) {
          linalg::YieldOp::create(builder, loc, args[0]);
        });
    Value weights = tensor::CollapseShapeOp::create(
        rewriter, loc, filter,
        SmallVector<ReassociationIndices>{{0}, {1, 2, 3}});
    if (!imagesAsColumns) {
      Value matrix = tensor::CollapseShapeOp::create(
          rewriter, loc, columns.getResult(0),
          SmallVector<ReassociationIndices>{{0}, {1, 2, 3}, {4, 5}});
      rewriter.replaceOp(
          conv, createImageProduct(rewriter, loc, weights, matrix, init));
      return;
    }
    // [n * p, k]
    Value matrix = tensor::CollapseShapeOp::create(
        rewriter, loc, columns.getResult(0),
        SmallVector<ReassociationIndices>{{0, 1, 2}, {3, 4, 5}});
    int64_t filters = filterType.getDimSize(0);
    auto productType =
        RankedTensorType::get({filters, batch * height * width}, elementType);
    Value zero = arith::ConstantOp::create(rewriter, loc,
                                           rewriter.getZeroAttr(elementType));
    Value productInit = linalg::FillOp::create(
                            rewriter, loc, zero,
                            ValueRange{tensor::EmptyOp::create(
                                rewriter, loc, productType.getShape(),
                                elementType)})
                            .getResult(0);
    // out'[f, np] = sum_k W[f, k] * columns[np, k], loops (f, np, k).
    AffineExpr f, np, k;
    bindDims(context, f, np, k);
    Value product =
        linalg::GenericOp::create(
            rewriter, loc, productType, ValueRange{weights, matrix},
            productInit,
            SmallVector<AffineMap>{AffineMap::get(3, 0, {f, k}, context),
                                   AffineMap::get(3, 0, {np, k}, context),
                                   AffineMap::get(3, 0, {f, np}, context)},
            SmallVector<utils::IteratorType>{utils::IteratorType::parallel,
                                             utils::IteratorType::parallel,
                                             utils::IteratorType::reduction},
            [](OpBuilder &builder, Location loc, ValueRange args) {
              Value mul = arith::MulFOp::create(builder, loc, args[0], args[1]);
              Value add = arith::AddFOp::create(builder, loc, args[2], mul);
              linalg::YieldOp::create(builder, loc, add);
            })
            .getResult(0);
    Value planes = tensor::ExpandShapeOp::create(
        rewriter, loc,
        RankedTensorType::get({filters, batch, height, width}, elementType),
        product, SmallVector<ReassociationIndices>{{0}, {1, 2, 3}});
    Value result = linalg::TransposeOp::create(
                       rewriter, loc, planes,
                       tensor::EmptyOp::create(rewriter, loc,
                                               initType.getShape(),
                                               elementType),
                       ArrayRef<int64_t>{1, 0, 2, 3})
                       .getResult()[0];
    rewriter.replaceOp(conv, result);
  }

  /// Output positions per image below which several images' products are
  /// merged into one (rewriteNchwInIm2Col).
  static constexpr int64_t kFewPositions = 64;

  /// out[n, f, p] = sum_k weights[f, k] * images[n, k, p] on the NCHW
  /// `init`, whose spatial dimensions are merged for the product.
  Value createImageProduct(IRRewriter &rewriter, Location loc, Value weights,
                           Value images, Value init) {
    MLIRContext *context = rewriter.getContext();
    SmallVector<ReassociationIndices> spatial = {{0}, {1}, {2, 3}};
    Value output = tensor::CollapseShapeOp::create(rewriter, loc, init, spatial);
    // Loops (n, f, p, k).
    AffineExpr n, f, p, k;
    bindDims(context, n, f, p, k);
    SmallVector<AffineMap> maps = {AffineMap::get(4, 0, {f, k}, context),
                                   AffineMap::get(4, 0, {n, k, p}, context),
                                   AffineMap::get(4, 0, {n, f, p}, context)};
    SmallVector<utils::IteratorType> iterators(3,
                                               utils::IteratorType::parallel);
    iterators.push_back(utils::IteratorType::reduction);
    auto product = linalg::GenericOp::create(
        rewriter, loc, output.getType(), ValueRange{weights, images}, output,
        maps, iterators,
        [](OpBuilder &builder, Location loc, ValueRange args) {
          Value mul = arith::MulFOp::create(builder, loc, args[0], args[1]);
          Value add = arith::AddFOp::create(builder, loc, args[2], mul);
          linalg::YieldOp::create(builder, loc, add);
        });
    return tensor::ExpandShapeOp::create(rewriter, loc, init.getType(),
                                         product.getResult(0), spatial);
  }

  /// The declaration of the runtime entry for `elementType`.
  FailureOr<func::FuncOp> getRuntimeFunction(OpBuilder &builder,
                                             Location loc, Type elementType) {
    ModuleOp module = getOperation();
    std::string name =
        elementType.isF32() ? "rafBlasGemmF32" : "rafBlasGemmF64";
    MemRefType memref = gemmOperandType(elementType);
    Type i64 = builder.getI64Type();
    auto type = builder.getFunctionType(
        {memref, memref, memref, i64, i64, i64, i64, i64}, {});
    if (auto existing = module.lookupSymbol<func::FuncOp>(name)) {
      if (existing.getFunctionType() != type || !existing.isExternal())
        return existing.emitError()
               << "@" << name
               << " is the BLAS runtime's entry point; a module function of "
                  "that name must be its declaration "
               << type;
      return existing;
    }
    if (Operation *other = module.lookupSymbol(name))
      return other->emitError()
             << "@" << name << " is the BLAS runtime's entry point";
    OpBuilder::InsertionGuard guard(builder);
    builder.setInsertionPointToStart(module.getBody());
    auto function = func::FuncOp::create(builder, loc, name, type);
    function.setPrivate();
    function->setAttr("llvm.emit_c_interface", builder.getUnitAttr());
    return function;
  }

  LogicalResult rewriteContraction(IRRewriter &rewriter, linalg::LinalgOp op,
                                   const GemmPlan &plan) {
    Location loc = op.getLoc();
    rewriter.setInsertionPoint(op);
    Value init = op.getDpsInitOperand(0)->get();
    auto resultType = cast<RankedTensorType>(op->getResult(0).getType());
    Type elementType = resultType.getElementType();
    FailureOr<func::FuncOp> callee =
        getRuntimeFunction(rewriter, loc, elementType);
    if (failed(callee))
      return failure();

    Value a = toCallOperand(
        rewriter, loc, toMatrixTensor(rewriter, loc, plan.a->get(), plan.planA));
    Value b = toCallOperand(
        rewriter, loc, toMatrixTensor(rewriter, loc, plan.b->get(), plan.planB));
    // The output: a new buffer in C's [batch, rows, cols] order, holding the
    // initial value unless that is zero.
    Value initMatrix = toMatrixTensor(rewriter, loc, init, plan.planC);
    auto matrixType = cast<RankedTensorType>(initMatrix.getType());
    auto bufferType =
        MemRefType::get(matrixType.getShape(), matrixType.getElementType());
    Value buffer = memref::AllocOp::create(rewriter, loc, bufferType);
    bool accumulate = !isZeroFill(init);
    if (accumulate) {
      Value initial = bufferization::ToBufferOp::create(
          rewriter, loc, bufferType, initMatrix, /*readOnly=*/true);
      memref::CopyOp::create(rewriter, loc, initial, buffer);
    }
    Value c = memref::CastOp::create(rewriter, loc,
                                     gemmOperandType(elementType), buffer);
    auto flag = [&](int64_t value) -> Value {
      return arith::ConstantIntOp::create(rewriter, loc, value, 64);
    };
    func::CallOp::create(rewriter, loc, *callee,
                         ValueRange{a, b, c, flag(plan.planA.swapped),
                                    flag(plan.planB.swapped),
                                    flag(plan.planC.swapped), flag(accumulate),
                                    flag(threads)});
    Value result = bufferization::ToTensorOp::create(
        rewriter, loc, matrixType, buffer, /*restrict=*/true,
        /*writable=*/true);
    // Back to the contraction's result shape.
    if (!plan.planC.hasBatch) {
      SmallVector<int64_t> shape(matrixType.getShape().drop_front());
      result = tensor::CollapseShapeOp::create(
          rewriter, loc, RankedTensorType::get(shape, elementType), result,
          SmallVector<ReassociationIndices>{{0, 1}, {2}});
    }
    if (plan.planC.groups.size() != static_cast<size_t>(resultType.getRank()))
      result = tensor::ExpandShapeOp::create(rewriter, loc, resultType, result,
                                             plan.planC.groups);
    rewriter.replaceOp(op, result);
    return success();
  }
};

} // namespace
