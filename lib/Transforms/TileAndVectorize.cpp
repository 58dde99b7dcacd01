//===- TileAndVectorize.cpp - register-blocked contractions ---------------===//
//
// Turns the compute-heavy linalg ops into register-blocked vector code:
//
//   1. convolutions -> im2col copy + contraction (upstream rewriteInIm2Col);
//   2. every static contraction is tiled so that one tile is a
//      tile-m x tile-n block of the output and one step of the reduction,
//      with the reduction loop innermost;
//   3. each tile is vectorised (linalg::vectorize) and the accumulator's
//      read/write is hoisted out of the reduction loop, so the loop body is
//      one broadcast + FMA per row of the block while the block stays in
//      registers;
//   4. the vector ops are lowered to outer products and plain loads/stores.
//
// Outputs the block does not divide are split first (the remainder gets a
// smaller block), so every tile has a static shape. Dynamic shapes are left
// alone and lowered to scalar loops later.
//
//===----------------------------------------------------------------------===//

#include "raf/Transforms/Passes.h"

#include "mlir/Dialect/Linalg/IR/LinalgInterfaces.h"
#include "mlir/Dialect/Linalg/Transforms/Transforms.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/SCF/Transforms/TileUsingInterface.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/Dialect/Vector/Transforms/LoweringPatterns.h"
#include "mlir/Dialect/Vector/Transforms/VectorRewritePatterns.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "mlir/Interfaces/TilingInterface.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"
#include "mlir/Transforms/LoopInvariantCodeMotionUtils.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/bit.h"
#include "llvm/TargetParser/Host.h"

namespace raf {
#define GEN_PASS_DEF_RAFTILEANDVECTORIZE
#include "raf/Transforms/Passes.h.inc"
} // namespace raf

using namespace mlir;
using scf::ValueVector;

namespace {

/// A contraction we know how to block: static shapes, exactly one reduction
/// loop, and an output whose two innermost dimensions are parallel loops.
struct BlockPlan {
  SmallVector<int64_t> tileSizes;
  SmallVector<int64_t> interchange;
  unsigned row = 0, col = 0;
  bool divisible = true;
};

std::optional<BlockPlan> planBlock(linalg::LinalgOp op, int64_t tileM,
                                   int64_t tileN) {
  if (!linalg::isaContractionOpInterface(op) || op.hasDynamicShape() ||
      op.getNumDpsInits() != 1 || op.getNumReductionLoops() != 1)
    return std::nullopt;
  SmallVector<int64_t> ranges = op.getStaticLoopRanges();
  // Empty iteration spaces have nothing to block (and no block size).
  if (llvm::any_of(ranges, [](int64_t extent) { return extent <= 0; }))
    return std::nullopt;
  AffineMap outputMap = op.getIndexingMapMatchingResult(op->getResult(0));
  if (outputMap.getNumResults() < 2)
    return std::nullopt;
  auto rowDim = dyn_cast<AffineDimExpr>(
      outputMap.getResult(outputMap.getNumResults() - 2));
  auto colDim = dyn_cast<AffineDimExpr>(
      outputMap.getResult(outputMap.getNumResults() - 1));
  if (!rowDim || !colDim)
    return std::nullopt;
  unsigned row = rowDim.getPosition(), col = colDim.getPosition();
  // The block's columns are loaded as vectors from the operand that has the
  // column dimension: it must be that operand's contiguous dimension. A
  // right-hand side with the reduction innermost (A * B^T) is left to
  // --raf-dot-product-contraction, which puts the lanes on the reduction.
  for (OpOperand *input : op.getDpsInputOperands()) {
    AffineMap map = op.getMatchingIndexingMap(input);
    if (!map.isFunctionOfDim(col))
      continue;
    auto innermost = dyn_cast<AffineDimExpr>(map.getResults().back());
    if (!innermost || innermost.getPosition() != col)
      return std::nullopt;
  }
  BlockPlan plan;
  plan.row = row;
  plan.col = col;
  // The block, shrunk to a power of two for dimensions smaller than it (odd
  // vector widths such as 17 lower element by element). The extent must be
  // a multiple of it: splitToBlocks peels remainders off first, so 49
  // columns become 32 + 16 + 1.
  auto blockFor = [](int64_t block, int64_t extent) {
    return std::min(block, int64_t(llvm::bit_floor(uint64_t(extent))));
  };
  plan.tileSizes.assign(ranges.size(), 1);
  plan.tileSizes[row] = blockFor(tileM, ranges[row]);
  plan.tileSizes[col] = blockFor(tileN, ranges[col]);
  if (ranges[row] % plan.tileSizes[row] != 0 ||
      ranges[col] % plan.tileSizes[col] != 0)
    plan.divisible = false;
  // Loop order: the other parallel loops (batch dimensions), then the
  // column blocks, then the row blocks, then the reduction innermost. The
  // accumulator block is invariant in the innermost loop, and one column
  // panel of the right-hand side (reduction x tile-n, typically the im2col
  // matrix) is reused by every row block while it is still in cache.
  SmallVector<utils::IteratorType> iterators = op.getIteratorTypesArray();
  for (unsigned i = 0; i < iterators.size(); ++i)
    if (iterators[i] == utils::IteratorType::parallel && i != row && i != col)
      plan.interchange.push_back(i);
  plan.interchange.push_back(col);
  plan.interchange.push_back(row);
  for (unsigned i = 0; i < iterators.size(); ++i)
    if (iterators[i] == utils::IteratorType::reduction)
      plan.interchange.push_back(i);
  return plan;
}

/// The default vector width of the depthwise and sum loops, in bits: the
/// host CPU's widest register (the code is compiled for the host, by
/// raf-run's JIT); a wider vector is split by LLVM into several registers.
/// With one register per block, more rows of a depthwise convolution end
/// on a whole block (rows of 56, 28 and 14 with 8 f32 lanes) and need no
/// masked tail. On an AVX2 machine (Zen 3) MobileNetV2's training step took
/// a median 248 ms of CPU time with 8 lanes against 260 ms with 16
/// (bench/results/cpu.md, MobileNetV2 training step, 2026-11-27).
int64_t getHostVectorBits() {
  llvm::StringMap<bool> features = llvm::sys::getHostCPUFeatures();
  auto has = [&](StringRef name) { return features.lookup(name); };
  if (has("avx512f"))
    return 512;
  if (has("avx"))
    return 256;
  return 128;
}

struct TileAndVectorize
    : public raf::impl::RAFTileAndVectorizeBase<TileAndVectorize> {
  using Base::Base;

  /// vector-bits, or the host's default when 0.
  int64_t vectorWidth = 512;

  void runOnOperation() override {
    func::FuncOp function = getOperation();
    if (tileM < 1 || tileN < 1) {
      function.emitError() << "--raf-tile-and-vectorize: tile-m and tile-n "
                              "must be at least 1 (got "
                           << static_cast<int64_t>(tileM) << " and "
                           << static_cast<int64_t>(tileN) << ")";
      return signalPassFailure();
    }
    if (vectorBits < 0) {
      function.emitError() << "--raf-tile-and-vectorize: vector-bits must "
                              "not be negative (got "
                           << static_cast<int64_t>(vectorBits) << ")";
      return signalPassFailure();
    }
    vectorWidth = vectorBits > 0 ? vectorBits : getHostVectorBits();
    IRRewriter rewriter(&getContext());

    if (im2col)
      rewriteConvolutions(rewriter, function);
    reorderDepthwiseConvolutions(rewriter, function);
    vectorizeInnerReductions(rewriter, function);
    collapseElementwiseLoops(rewriter, function);

    SmallVector<linalg::LinalgOp> contractions;
    function.walk([&](linalg::LinalgOp op) {
      if (op.hasPureTensorSemantics() && planBlock(op, tileM, tileN))
        contractions.push_back(op);
    });
    for (linalg::LinalgOp op : contractions) {
      SmallVector<linalg::LinalgOp> pieces;
      splitToBlocks(rewriter, op, pieces);
      for (linalg::LinalgOp piece : pieces)
        if (failed(blockContraction(rewriter, piece)))
          return signalPassFailure();
    }

    lowerVectorOps(function);
  }

  void rewriteConvolutions(IRRewriter &rewriter, func::FuncOp function) {
    SmallVector<Operation *> convolutions;
    function.walk([&](Operation *op) {
      if (isa<linalg::Conv2DNchwFchwOp, linalg::Conv2DNhwcHwcfOp>(op) &&
          !cast<linalg::LinalgOp>(op).hasDynamicShape())
        convolutions.push_back(op);
    });
    for (Operation *op : convolutions) {
      rewriter.setInsertionPoint(op);
      // A convolution the rewrite does not handle stays a convolution.
      if (auto conv = dyn_cast<linalg::Conv2DNchwFchwOp>(op))
        (void)linalg::rewriteInIm2Col(rewriter, conv);
      else
        (void)linalg::rewriteInIm2Col(rewriter,
                                      cast<linalg::Conv2DNhwcHwcfOp>(op));
    }
  }

  /// A depthwise convolution is no product to block (one channel's window
  /// meets one filter). Static float convolutions become vector loops
  /// (vectorizeDepthwise); any other keeps the loop order
  /// (n, c, kh, kw, oh, ow) as a generic, so that each filter tap is one pass
  /// of `out[oh, :] += w * in[oh * s + kh * d, :]` along the output row,
  /// which LLVM vectorises (upstream's order puts the 3-step window
  /// innermost).
  void reorderDepthwiseConvolutions(IRRewriter &rewriter,
                                    func::FuncOp function) {
    SmallVector<linalg::DepthwiseConv2DNchwChwOp> convolutions;
    function.walk([&](linalg::DepthwiseConv2DNchwChwOp op) {
      if (op.hasPureTensorSemantics() && !op.hasDynamicShape())
        convolutions.push_back(op);
    });
    MLIRContext *context = &getContext();
    for (linalg::DepthwiseConv2DNchwChwOp op : convolutions) {
      SmallVector<int64_t> strides(op.getStrides().getValues<int64_t>());
      SmallVector<int64_t> dilations(op.getDilations().getValues<int64_t>());
      Type elementType = getElementTypeOrSelf(op->getResult(0).getType());
      if (!isa<FloatType>(elementType) ||
          llvm::any_of(op->getOperandTypes(), [&](Type type) {
            return getElementTypeOrSelf(type) != elementType;
          }))
        continue;
      if (succeeded(vectorizeDepthwise(rewriter, op)))
        continue;
      AffineExpr n, c, kh, kw, oh, ow;
      bindDims(context, n, c, kh, kw, oh, ow);
      SmallVector<AffineMap> maps = {
          AffineMap::get(6, 0,
                         {n, c, oh * strides[0] + kh * dilations[0],
                          ow * strides[1] + kw * dilations[1]},
                         context),
          AffineMap::get(6, 0, {c, kh, kw}, context),
          AffineMap::get(6, 0, {n, c, oh, ow}, context)};
      using utils::IteratorType;
      SmallVector<IteratorType> iterators = {
          IteratorType::parallel,  IteratorType::parallel,
          IteratorType::reduction, IteratorType::reduction,
          IteratorType::parallel,  IteratorType::parallel};
      rewriter.setInsertionPoint(op);
      auto generic = linalg::GenericOp::create(
          rewriter, op.getLoc(), op->getResultTypes(), op.getInputs(),
          op.getOutputs(), maps, iterators,
          [](OpBuilder &builder, Location loc, ValueRange args) {
            Value product =
                arith::MulFOp::create(builder, loc, args[0], args[1]);
            linalg::YieldOp::create(
                builder, loc,
                arith::AddFOp::create(builder, loc, args[2], product)
                    .getResult());
          });
      rewriter.replaceOp(op, generic->getResults());
    }
  }

  /// `lanes` elements of the innermost dimension of `source` from `indices`
  /// on, `stride` elements apart; lanes past the end of the row read 0
  /// unless the caller knows the read `inBounds`. A
  /// strided row is one contiguous read of lanes * stride elements and a
  /// shuffle that keeps every stride-th (a deinterleave, not a gather).
  static Value readRow(OpBuilder &builder, Location loc, Value source,
                       ValueRange indices, int64_t lanes, int64_t stride,
                       bool knownInBounds = false) {
    Type elementType = getElementTypeOrSelf(source.getType());
    Value zero = arith::ConstantOp::create(builder, loc,
                                           builder.getZeroAttr(elementType));
    SmallVector<bool> inBounds = {knownInBounds};
    Value row = vector::TransferReadOp::create(
        builder, loc, VectorType::get({lanes * stride}, elementType), source,
        indices, zero, ArrayRef<bool>(inBounds));
    if (stride == 1)
      return row;
    SmallVector<int64_t> every;
    for (int64_t lane = 0; lane < lanes; ++lane)
      every.push_back(lane * stride);
    return vector::ShuffleOp::create(builder, loc, row, row, every);
  }

  /// `sum` in the lanes of a block at `iv` of a loop of `extent` steps
  /// that lie before its end, `acc` past it (those lanes add nothing); `sum`
  /// itself when every block is full.
  static Value maskTail(OpBuilder &b, Location loc, Value sum, Value acc,
                        int64_t extent, Value iv) {
    auto type = cast<VectorType>(sum.getType());
    if (extent % type.getNumElements() == 0)
      return sum;
    Value end = arith::ConstantIndexOp::create(b, loc, extent);
    Value remaining = arith::SubIOp::create(b, loc, end, iv);
    Value mask = vector::CreateMaskOp::create(
        b, loc, VectorType::get(type.getShape(), b.getI1Type()),
        ValueRange{remaining});
    return arith::SelectOp::create(b, loc, mask, sum, acc);
  }

  /// `out` with the lanes of `sum` added onto its element at `at` (onto
  /// `start` instead when given: the value of a fill not read back).
  static Value reduceOnto(OpBuilder &b, Location loc, Value sum, Value start,
                          Value out, ValueRange at) {
    if (!start)
      start = tensor::ExtractOp::create(b, loc, out, at);
    Value total = vector::ReductionOp::create(
        b, loc, vector::CombiningKind::ADD, sum, start);
    return tensor::InsertOp::create(b, loc, total, out, at);
  }

  /// A direct, vectorised depthwise convolution on NCHW (the direct kernel
  /// of Zhang et al., "High Performance Depthwise and Pointwise Convolutions
  /// on Mobile Devices", AAAI 2020), in one of two forms:
  ///
  ///  - output rows as vectors (the output has at least as many positions as
  ///    the filter: forward and data-gradient convolutions): for each
  ///    channel the filter taps are broadcast once; for each block of
  ///    `lanes` output columns the accumulator stays in a register while
  ///    every tap adds `w[kh, kw] * in[oh*s + kh*d, ow*s + kw*d : stride s]`;
  ///  - filter rows as vectors (a filter larger than the output: Relay's
  ///    weight gradient, a convolution of the input with the output
  ///    gradient as filter, 3x3 outputs from 112x112 filters): each output
  ///    element is a vector dot product along the filter rows, reduced once;
  ///    a block of up to 8 elements shares each filter row read and keeps
  ///    its sums in separate registers.
  ///
  /// The input is the padded one (its padding is explicit in the IR);
  /// row ends are masked reads and writes. An output initialised by a fill
  /// is not read: the accumulators start from the fill value.
  LogicalResult vectorizeDepthwise(IRRewriter &rewriter,
                                   linalg::DepthwiseConv2DNchwChwOp op) {
    Value input = op.getInputs()[0], filter = op.getInputs()[1];
    Value init = op.getOutputs()[0];
    auto outputType = cast<RankedTensorType>(init.getType());
    ArrayRef<int64_t> filterShape =
        cast<RankedTensorType>(filter.getType()).getShape();
    ArrayRef<int64_t> outShape = outputType.getShape();
    Type elementType = outputType.getElementType();
    unsigned bits = elementType.getIntOrFloatBitWidth();
    SmallVector<int64_t> strides(op.getStrides().getValues<int64_t>());
    SmallVector<int64_t> dilations(op.getDilations().getValues<int64_t>());
    auto positive = [](ArrayRef<int64_t> values) {
      return llvm::all_of(values, [](int64_t v) { return v >= 1; });
    };
    if (bits == 0 || bits > 64 || !positive(strides) || !positive(dilations) ||
        !positive(outShape) || !positive(filterShape))
      return failure();
    int64_t batch = outShape[0], channels = outShape[1];
    int64_t outH = outShape[2], outW = outShape[3];
    int64_t kernelH = filterShape[1], kernelW = filterShape[2];
    bool outputRows = outH * outW >= kernelH * kernelW;
    // One vector of lanes at most, fewer for short rows.
    int64_t maxLanes = std::max<int64_t>(1, vectorWidth / bits);
    int64_t lanes = std::min<int64_t>(
        maxLanes, llvm::bit_ceil(uint64_t(outputRows ? outW : kernelW)));
    auto vectorType = VectorType::get({lanes}, elementType);

    Location loc = op.getLoc();
    rewriter.setInsertionPoint(op);
    // The accumulators' initial value: the fill's, or read from `init`.
    Value destination = init;
    Value fillValue;
    if (auto fill = init.getDefiningOp<linalg::FillOp>()) {
      fillValue = fill.getInputs()[0];
      destination = fill.getOutputs()[0];
    }
    auto index = [&](OpBuilder &b, int64_t value) -> Value {
      return arith::ConstantIndexOp::create(b, loc, value);
    };
    // base * scale + offset * step.
    auto affine = [&](OpBuilder &b, Value base, int64_t scale, Value offset,
                      int64_t step) -> Value {
      Value scaled = scale == 1
                         ? base
                         : arith::MulIOp::create(b, loc, base, index(b, scale))
                               .getResult();
      Value shifted =
          step == 1 ? offset
                    : arith::MulIOp::create(b, loc, offset, index(b, step))
                          .getResult();
      return arith::AddIOp::create(b, loc, scaled, shifted);
    };
    using Body = function_ref<ValueVector(OpBuilder &, Value, ValueRange)>;
    auto forLoop = [&](OpBuilder &b, int64_t upper, int64_t step,
                       ValueRange iterArgs, Body body,
                       int64_t lower = 0) -> scf::ForOp {
      return scf::ForOp::create(
          b, loc, index(b, lower), index(b, upper), index(b, step), iterArgs,
          [&](OpBuilder &nested, Location, Value iv, ValueRange args) {
            scf::YieldOp::create(nested, loc, body(nested, iv, args));
          });
    };
    // Loops of `uppers` by `steps`, outermost first, carrying one value:
    // `body` maps the counters and the value to the next value.
    using NestBody = function_ref<Value(OpBuilder &, ValueRange, Value)>;
    auto loopNest = [&](OpBuilder &b, ArrayRef<int64_t> uppers,
                        ArrayRef<int64_t> steps, Value init,
                        NestBody body) -> Value {
      SmallVector<Value> ivs;
      std::function<Value(OpBuilder &, size_t, Value)> build =
          [&](OpBuilder &b, size_t depth, Value value) -> Value {
        if (depth == uppers.size())
          return body(b, ivs, value);
        auto step = [&](OpBuilder &b, Value iv,
                        ValueRange args) -> ValueVector {
          ivs.push_back(iv);
          Value next = build(b, depth + 1, args[0]);
          ivs.pop_back();
          return {next};
        };
        return forLoop(b, uppers[depth], steps[depth], value, step)
            .getResult(0);
      };
      return build(b, 0, init);
    };
    // Taps of one channel broadcast once, before the rows, when few.
    constexpr int64_t kHoistedTaps = 25;

    // Output rows as vectors: acc[ow..] += w[kh, kw] * in[row, col..].
    auto outputRowsOf = [&](OpBuilder &b, Value n, Value c,
                            Value out) -> Value {
      auto tap = [&](OpBuilder &b, Value kh, Value kw) -> Value {
        Value w =
            tensor::ExtractOp::create(b, loc, filter, ValueRange{c, kh, kw});
        return vector::BroadcastOp::create(b, loc, vectorType, w);
      };
      SmallVector<Value> taps;
      bool hoisted = kernelH * kernelW <= kHoistedTaps;
      if (hoisted)
        for (int64_t kh = 0; kh < kernelH; ++kh)
          for (int64_t kw = 0; kw < kernelW; ++kw)
            taps.push_back(tap(b, index(b, kh), index(b, kw)));
      // One block of output columns at ivs = (oh, ow), accumulated over all
      // taps in a register; `inside`: every read and the write stay inside
      // their rows (no masks).
      auto block = [&](OpBuilder &b, ValueRange ivs, Value out,
                       bool inside) -> Value {
        Value oh = ivs[0], ow = ivs[1];
        SmallVector<Value> at = {n, c, oh, ow};
        Value acc = fillValue ? vector::BroadcastOp::create(b, loc, vectorType,
                                                            fillValue)
                                    .getResult()
                              : readRow(b, loc, out, at, lanes, 1, inside);
        auto accumulate = [&](OpBuilder &b, Value kh, Value kw, Value w,
                              Value acc) -> Value {
          Value row = affine(b, oh, strides[0], kh, dilations[0]);
          Value col = affine(b, ow, strides[1], kw, dilations[1]);
          Value x = readRow(b, loc, input, ValueRange{n, c, row, col}, lanes,
                            strides[1], inside);
          return vector::FMAOp::create(b, loc, x, w, acc);
        };
        if (hoisted) {
          for (int64_t kh = 0; kh < kernelH; ++kh)
            for (int64_t kw = 0; kw < kernelW; ++kw)
              acc = accumulate(b, index(b, kh), index(b, kw),
                               taps[kh * kernelW + kw], acc);
        } else {
          auto tapStep = [&](OpBuilder &b, ValueRange k, Value acc) -> Value {
            return accumulate(b, k[0], k[1], tap(b, k[0], k[1]), acc);
          };
          acc = loopNest(b, {kernelH, kernelW}, {1, 1}, acc, tapStep);
        }
        SmallVector<bool> writeInBounds = {inside};
        return vector::TransferWriteOp::create(b, loc, acc, out, at,
                                               ArrayRef<bool>(writeInBounds))
            .getResult();
      };
      // The blocks before `inside` read and write whole vectors within
      // their rows: plain loads and stores. Masked ones (vmaskmov with a
      // mask computed per read on AVX2) only in the blocks after, where a
      // read runs past the row (the padded input's width is not a multiple
      // of the lanes).
      int64_t inputW = cast<ShapedType>(input.getType()).getDimSize(3);
      int64_t inside = 0;
      while (inside + lanes <= outW &&
             inside * strides[1] + (kernelW - 1) * dilations[1] +
                     lanes * strides[1] <=
                 inputW)
        inside += lanes;
      auto row = [&](OpBuilder &b, Value oh, ValueRange args) -> ValueVector {
        Value value = args[0];
        auto columns = [&](bool within) {
          return [&, within](OpBuilder &b, Value ow,
                             ValueRange args) -> ValueVector {
            return {block(b, ValueRange{oh, ow}, args[0], within)};
          };
        };
        if (inside > 0)
          value = forLoop(b, inside, lanes, value, columns(true)).getResult(0);
        if (inside < outW)
          value = forLoop(b, outW, lanes, value, columns(false), inside)
                      .getResult(0);
        return {value};
      };
      return forLoop(b, outH, 1, out, row).getResult(0);
    };

    // Filter rows as vectors: out[oh, ow] += sum(w[kh, kw..] * in[.., ..]).
    // The output is small here (3x3 or 4x4 for a weight gradient), each of
    // its elements a long dot product. A block of up to
    // kFilterRowAccumulators elements (whole output rows where they fit) is
    // summed at once: each filter row read serves the whole block, and the
    // block's sums are independent FMA chains. One chain per element is
    // bound by the FMA's latency (4 cycles on Zen 3, which issues 2 FMAs a
    // cycle: 8 chains keep both units busy; AMD, Software Optimization
    // Guide for AMD Family 19h Processors, 2.11).
    constexpr int64_t kFilterRowAccumulators = 8;
    auto filterRowsOf = [&](OpBuilder &b, Value n, Value c,
                            Value out) -> Value {
      int64_t blockW = std::min(outW, kFilterRowAccumulators);
      int64_t blockH = std::max<int64_t>(
          1, std::min(outH, kFilterRowAccumulators / blockW));
      int64_t inputW = cast<ShapedType>(input.getType()).getDimSize(3);
      // Filter rows that are whole blocks are read without masks; so is an
      // input row from which every block of the dot product stays inside
      // the row (the last block's read ends at ow * s + kernelW * d).
      bool wholeFilterBlocks = kernelW % lanes == 0;
      auto plus = [&](OpBuilder &b, Value base, int64_t offset) -> Value {
        if (offset == 0)
          return base;
        return arith::AddIOp::create(b, loc, base, index(b, offset));
      };
      // `rows` x `cols` elements from (oh0, ow0); `lastOw0` is the largest
      // ow0 this block is used at.
      auto block = [&](OpBuilder &b, Value oh0, Value ow0, int64_t rows,
                       int64_t cols, int64_t lastOw0, Value out) -> Value {
        Value zero =
            arith::ConstantOp::create(b, loc, b.getZeroAttr(vectorType));
        SmallVector<Value> sums(rows * cols, zero);
        SmallVector<bool> inside;
        for (int64_t j = 0; j < cols; ++j)
          inside.push_back(wholeFilterBlocks &&
                           (lastOw0 + j) * strides[1] +
                                   kernelW * dilations[1] <=
                               inputW);
        auto filterRow = [&](OpBuilder &b, Value kh,
                             ValueRange rowSums) -> ValueVector {
          auto filterBlock = [&](OpBuilder &b, Value kw,
                                 ValueRange blockSums) -> ValueVector {
            Value w = readRow(b, loc, filter, ValueRange{c, kh, kw}, lanes, 1,
                              wholeFilterBlocks);
            ValueVector next;
            for (int64_t r = 0; r < rows; ++r) {
              Value row =
                  affine(b, plus(b, oh0, r), strides[0], kh, dilations[0]);
              for (int64_t j = 0; j < cols; ++j) {
                Value col =
                    affine(b, plus(b, ow0, j), strides[1], kw, dilations[1]);
                Value x = readRow(b, loc, input, ValueRange{n, c, row, col},
                                  lanes, dilations[1], inside[j]);
                Value acc = blockSums[r * cols + j];
                Value fma = vector::FMAOp::create(b, loc, x, w, acc);
                // Lanes past the filter row: not added (an input beyond
                // the window may be infinite, and 0 * inf is NaN).
                next.push_back(maskTail(b, loc, fma, acc, kernelW, kw));
              }
            }
            return next;
          };
          scf::ForOp blocks = forLoop(b, kernelW, lanes, rowSums, filterBlock);
          return ValueVector(blocks.getResults().begin(),
                             blocks.getResults().end());
        };
        scf::ForOp filterRows = forLoop(b, kernelH, 1, sums, filterRow);
        for (int64_t r = 0; r < rows; ++r)
          for (int64_t j = 0; j < cols; ++j)
            out = reduceOnto(b, loc, filterRows.getResult(r * cols + j),
                             fillValue, out,
                             {n, c, plus(b, oh0, r), plus(b, ow0, j)});
        return out;
      };
      // Whole blocks in a loop, the partial one after it.
      int64_t fullW = outW / blockW * blockW;
      auto columns = [&](OpBuilder &b, Value oh0, int64_t rows,
                         Value out) -> Value {
        out = forLoop(b, fullW, blockW, out,
                      [&](OpBuilder &b, Value ow0,
                          ValueRange args) -> ValueVector {
                        return {block(b, oh0, ow0, rows, blockW,
                                      fullW - blockW, args[0])};
                      })
                  .getResult(0);
        if (fullW < outW)
          out = block(b, oh0, index(b, fullW), rows, outW - fullW, fullW, out);
        return out;
      };
      int64_t fullH = outH / blockH * blockH;
      out = forLoop(b, fullH, blockH, out,
                    [&](OpBuilder &b, Value oh0,
                        ValueRange args) -> ValueVector {
                      return {columns(b, oh0, blockH, args[0])};
                    })
                .getResult(0);
      if (fullH < outH)
        out = columns(b, index(b, fullH), outH - fullH, out);
      return out;
    };
    scf::ForOp channelLoop;
    auto batchLoop = forLoop(
        rewriter, batch, 1, destination,
        [&](OpBuilder &b, Value n, ValueRange batchArgs) -> ValueVector {
          channelLoop = forLoop(
              b, channels, 1, batchArgs,
              [&](OpBuilder &b, Value c, ValueRange args) -> ValueVector {
                return {outputRows ? outputRowsOf(b, n, c, args[0])
                                   : filterRowsOf(b, n, c, args[0])};
              });
          return {channelLoop.getResult(0)};
        });
    // Channels write disjoint planes: --raf-parallelize-loops may share
    // them among threads.
    channelLoop->setAttr("raf.parallel", rewriter.getUnitAttr());
    rewriter.replaceOp(op, batchLoop.getResults());
    return success();
  }

  /// An elementwise generic (every loop parallel) over a small trailing
  /// extent, e.g. the 14x14 or 7x7 planes of a network's last layers, is
  /// too short a loop for LLVM's vectoriser, which unrolls it into scalar
  /// code. Its trailing loops are merged into one wherever every operand is
  /// contiguous across them (upstream's collapseOpIterationDims): a
  /// batch-norm epilogue over [1, C, 14, 14] becomes a loop of 196 per
  /// channel, or one of C * 196 when no operand is per-channel. Operands
  /// broadcast through unit dimensions (indexing `(d1, 0, 0)` of a
  /// [C, 1, 1] tensor) are reshaped to drop them first.
  void collapseElementwiseLoops(IRRewriter &rewriter, func::FuncOp function) {
    SmallVector<linalg::GenericOp> generics;
    function.walk([&](linalg::GenericOp op) {
      if (op.getNumLoops() == op.getNumParallelLoops())
        generics.push_back(op);
    });
    for (linalg::GenericOp op : generics)
      (void)collapseTrailingLoops(rewriter, op);
  }

  /// Merges the longest run of trailing loops of one iterator type that
  /// every operand of `op` indexes contiguously into one loop; returns the
  /// op that replaces `op` (itself when nothing changes), null when `op` was
  /// not a candidate (dynamic shapes, index semantics).
  linalg::GenericOp collapseTrailingLoops(IRRewriter &rewriter,
                                          linalg::GenericOp op) {
    if (!op.hasPureTensorSemantics() || op.hasDynamicShape() ||
        op.getNumLoops() < 2 || op.hasIndexSemantics())
      return nullptr;
    linalg::GenericOp normal = dropBroadcastUnitDims(rewriter, op);
    if (!normal)
      return nullptr;
    SmallVector<AffineMap> maps = normal.getIndexingMapsArray();
    if (!llvm::all_of(maps, [](AffineMap map) {
          return map.isProjectedPermutation(/*allowZeroInResults=*/false);
        }))
      return normal;
    int64_t loops = normal.getNumLoops();
    SmallVector<utils::IteratorType> iterators = normal.getIteratorTypesArray();
    ReassociationIndices trailing;
    for (int64_t first = 0; first + 1 < loops; ++first) {
      if (llvm::any_of(llvm::seq<int64_t>(first, loops), [&](int64_t dim) {
            return iterators[dim] != iterators.back();
          }))
        continue;
      ReassociationIndices candidate =
          llvm::to_vector(llvm::seq<int64_t>(first, loops));
      if (linalg::areDimSequencesPreserved(maps, {candidate}) &&
          llvm::all_of(normal->getOpOperands(), [&](OpOperand &operand) {
            return isContiguousAcross(operand.get(),
                                      normal.getMatchingIndexingMap(&operand),
                                      candidate);
          })) {
        trailing = candidate;
        break;
      }
    }
    if (trailing.empty())
      return normal;
    SmallVector<ReassociationIndices> folded = {trailing};
    rewriter.setInsertionPoint(normal);
    FailureOr<linalg::CollapseResult> collapsed =
        linalg::collapseOpIterationDims(
            cast<linalg::LinalgOp>(normal.getOperation()), folded, rewriter);
    if (failed(collapsed))
      return normal;
    rewriter.replaceOp(normal, collapsed->results);
    return cast<linalg::GenericOp>(collapsed->collapsedOp.getOperation());
  }

  /// Whether the dimensions of `value` that `map` gives loops `loops` (a
  /// run of consecutive dimensions, as areDimSequencesPreserved ensures)
  /// are contiguous in its buffer, so that merging them needs no copy:
  /// through tensor.extract_slice, every one has unit stride and all but
  /// the outermost are full-size.
  static bool isContiguousAcross(Value value, AffineMap map,
                                 ArrayRef<int64_t> loops) {
    SmallVector<int64_t> dims;
    for (auto [position, expr] : llvm::enumerate(map.getResults()))
      if (auto dim = dyn_cast<AffineDimExpr>(expr);
          dim && llvm::is_contained(loops, dim.getPosition()))
        dims.push_back(position);
    return isContiguousAcross(value, dims);
  }

  static bool isContiguousAcross(Value value, ArrayRef<int64_t> dims) {
    if (dims.size() < 2)
      return true;
    if (auto slice = value.getDefiningOp<tensor::ExtractSliceOp>()) {
      if (slice.getSourceType().getRank() != slice.getResultType().getRank())
        return false;
      ArrayRef<int64_t> sizes = slice.getStaticSizes();
      ArrayRef<int64_t> strides = slice.getStaticStrides();
      for (int64_t dim : dims) {
        if (strides[dim] != 1)
          return false;
        if (dim != dims.front() &&
            (ShapedType::isDynamic(sizes[dim]) ||
             sizes[dim] != slice.getSourceType().getDimSize(dim)))
          return false;
      }
      return isContiguousAcross(slice.getSource(), dims);
    }
    if (auto reshape = value.getDefiningOp<tensor::CollapseShapeOp>()) {
      SmallVector<int64_t> sourceDims;
      for (int64_t dim : dims)
        llvm::append_range(sourceDims, reshape.getReassociationIndices()[dim]);
      return isContiguousAcross(reshape.getSrc(), sourceDims);
    }
    return true;
  }

  /// Sums along the innermost loop (batch-norm statistics and their
  /// gradients: a reduction over the H*W positions of each channel, the
  /// loops merged first) are a chain of dependent scalar additions that LLVM
  /// does not reorder. A reduction whose body is `out + f(inputs)`, with f
  /// elementwise arithmetic, becomes a vector loop instead: f on blocks of
  /// up to one vector (vector-bits) of positions, summed into a vector accumulator
  /// (the last block masked), reduced once and added to the output element. The
  /// order of the additions changes, as in any vectorised or blocked sum.
  void vectorizeInnerReductions(IRRewriter &rewriter, func::FuncOp function) {
    SmallVector<linalg::LinalgOp> candidates;
    function.walk([&](linalg::LinalgOp op) {
      if (isa<linalg::GenericOp, linalg::ReduceOp>(op.getOperation()) &&
          op.hasPureTensorSemantics() && !op.hasDynamicShape() &&
          op.getNumDpsInits() == 1 && op.getNumReductionLoops() >= 1 &&
          op.getNumLoops() >= 2)
        candidates.push_back(op);
    });
    for (linalg::LinalgOp op : candidates) {
      // The extent is checked after merging: a 7x7 plane is a loop of 49.
      if (!isVectorizableSum(op, /*minExtent=*/1))
        continue;
      auto generic = dyn_cast<linalg::GenericOp>(op.getOperation());
      if (!generic) {
        rewriter.setInsertionPoint(op);
        FailureOr<linalg::GenericOp> generalized =
            linalg::generalizeNamedOp(rewriter, op);
        if (failed(generalized))
          continue;
        generic = *generalized;
      }
      linalg::GenericOp collapsed = collapseTrailingLoops(rewriter, generic);
      if (collapsed && isVectorizableSum(collapsed, /*minExtent=*/8))
        (void)vectorizeInnerSum(rewriter, collapsed);
    }
  }

  /// The value `f` of a body `yield out + f(...)`, null when the body is not
  /// of that form (out used elsewhere, non-elementwise ops, integer sums).
  static Value summand(linalg::LinalgOp op) {
    Block *body = op.getBlock();
    BlockArgument out = body->getArguments().back();
    auto yield = cast<linalg::YieldOp>(body->getTerminator());
    auto add = yield.getOperand(0).getDefiningOp<arith::AddFOp>();
    if (!add || add->getBlock() != body || !out.hasOneUse())
      return nullptr;
    Value other = add.getLhs() == out ? add.getRhs() : add.getLhs();
    if (other == out || (add.getLhs() != out && add.getRhs() != out))
      return nullptr;
    for (Operation &nested : body->without_terminator()) {
      if (&nested == add.getOperation())
        continue;
      // Padded lanes evaluate the body on zeros: an op that may trap or be
      // undefined there (an integer division) is not taken.
      if (nested.getNumRegions() != 0 || nested.getNumResults() != 1 ||
          !isPure(&nested) ||
          !(OpTrait::hasElementwiseMappableTraits(&nested) ||
            nested.hasTrait<OpTrait::ConstantLike>()))
        return nullptr;
    }
    return other;
  }

  /// A static single-output sum over a contiguous innermost reduction loop
  /// of at least `minExtent` steps whose inputs vary along it only as their
  /// innermost dimension (read as vectors; the loop indexes no other
  /// dimension, so a diagonal `x[n, i, i]` is not taken) and are bytes or
  /// wider.
  static bool isVectorizableSum(linalg::LinalgOp op, int64_t minExtent) {
    // Matrix products (inputs indexed differently) are blocked, or BLAS
    // calls, elsewhere; a sum of elementwise products is taken.
    SmallVector<AffineMap> maps = op.getIndexingMapsArray();
    bool product = linalg::isaContractionOpInterface(op) &&
                   llvm::any_of(ArrayRef(maps).drop_back(),
                                [&](AffineMap map) { return map != maps[0]; });
    if (op.hasIndexSemantics() || product ||
        linalg::isaConvolutionOpInterface(op) || !summand(op))
      return false;
    unsigned innermost = op.getNumLoops() - 1;
    if (op.getIteratorTypesArray()[innermost] !=
            utils::IteratorType::reduction ||
        op.getStaticLoopRanges()[innermost] < minExtent)
      return false;
    AffineExpr inner = getAffineDimExpr(innermost, op.getContext());
    for (OpOperand &operand : op->getOpOperands()) {
      if (!isa<RankedTensorType>(operand.get().getType()))
        return false;
      AffineMap map = op.getMatchingIndexingMap(&operand);
      if (!llvm::all_of(map.getResults(), [](AffineExpr e) {
            return isa<AffineDimExpr, AffineConstantExpr>(e);
          }))
        return false;
      if (!map.isFunctionOfDim(innermost))
        continue;
      if (op.isDpsInit(&operand) || map.getResults().back() != inner ||
          llvm::count(map.getResults(), inner) != 1)
        return false;
      Type type = getElementTypeOrSelf(operand.get().getType());
      if (!type.isIntOrFloat() || type.getIntOrFloatBitWidth() < 8)
        return false;
    }
    return true;
  }

  LogicalResult vectorizeInnerSum(IRRewriter &rewriter, linalg::GenericOp op) {
    Location loc = op.getLoc();
    unsigned innermost = op.getNumLoops() - 1;
    SmallVector<int64_t> ranges = op.getStaticLoopRanges();
    Value init = op.getDpsInits()[0];
    Type elementType = getElementTypeOrSelf(init.getType());
    if (!isa<FloatType>(elementType))
      return failure();
    int64_t extent = ranges[innermost];
    int64_t maxLanes = std::max<int64_t>(
        1, vectorWidth / elementType.getIntOrFloatBitWidth());
    int64_t lanes =
        std::min<int64_t>(maxLanes, llvm::bit_floor(uint64_t(extent)));
    auto vectorOf = [&](Type type) { return VectorType::get({lanes}, type); };
    Value result = summand(op);
    Block *body = op.getBlock();

    rewriter.setInsertionPoint(op);
    auto index = [&](OpBuilder &b, int64_t value) -> Value {
      return arith::ConstantIndexOp::create(b, loc, value);
    };
    // Indices of `map` at loop counters `ivs` (the innermost at `inner`).
    auto indicesOf = [&](OpBuilder &b, AffineMap map, ValueRange ivs,
                         Value inner) {
      SmallVector<Value> indices;
      for (AffineExpr e : map.getResults()) {
        if (auto dim = dyn_cast<AffineDimExpr>(e))
          indices.push_back(
              dim.getPosition() == innermost ? inner : ivs[dim.getPosition()]);
        else
          indices.push_back(index(b, cast<AffineConstantExpr>(e).getValue()));
      }
      return indices;
    };
    SmallVector<bool> notInBounds = {false};

    // The sum of one output element: the vector loop along the innermost
    // dimension, then one horizontal reduction onto the output's value.
    auto sumAt = [&](OpBuilder &b, ValueRange ivs, Value out) -> Value {
      Value zero = arith::ConstantOp::create(
          b, loc, b.getZeroAttr(vectorOf(elementType)));
      auto loop = scf::ForOp::create(
          b, loc, index(b, 0), index(b, extent), index(b, lanes),
          ValueRange{zero},
          [&](OpBuilder &b, Location, Value k, ValueRange args) {
            IRMapping mapping;
            for (auto [operand, argument] :
                 llvm::zip(op.getDpsInputOperands(), body->getArguments())) {
              AffineMap map = op.getMatchingIndexingMap(operand);
              SmallVector<Value> at = indicesOf(b, map, ivs, k);
              Type type = getElementTypeOrSelf(operand->get().getType());
              Value value;
              if (map.isFunctionOfDim(innermost)) {
                Value pad =
                    arith::ConstantOp::create(b, loc, b.getZeroAttr(type));
                value = vector::TransferReadOp::create(
                    b, loc, vectorOf(type), operand->get(), at, pad,
                    ArrayRef<bool>(notInBounds));
              } else {
                Value scalar =
                    tensor::ExtractOp::create(b, loc, operand->get(), at);
                value =
                    vector::BroadcastOp::create(b, loc, vectorOf(type), scalar);
              }
              mapping.map(argument, value);
            }
            // The body's arithmetic on vectors; values from outside the
            // body (and constants) are broadcast.
            auto vectorValue = [&](Value scalar) -> Value {
              if (Value mapped = mapping.lookupOrNull(scalar))
                return mapped;
              Value broadcast = vector::BroadcastOp::create(
                  b, loc, vectorOf(scalar.getType()), scalar);
              mapping.map(scalar, broadcast);
              return broadcast;
            };
            for (Operation &nested : body->without_terminator()) {
              if (nested.hasTrait<OpTrait::ConstantLike>()) {
                Operation *constant = b.clone(nested);
                mapping.map(nested.getResult(0),
                            vector::BroadcastOp::create(
                                b, loc, vectorOf(nested.getResult(0).getType()),
                                constant->getResult(0))
                                .getResult());
                continue;
              }
              if (llvm::is_contained(nested.getOperands(),
                                     body->getArguments().back()))
                continue; // the accumulation onto `out`
              OperationState state(loc, nested.getName());
              for (Value operand : nested.getOperands())
                state.addOperands(vectorValue(operand));
              state.addTypes(vectorOf(nested.getResult(0).getType()));
              state.addAttributes(nested.getAttrs());
              mapping.map(nested.getResult(0), b.create(state)->getResult(0));
            }
            Value term = vectorValue(result);
            Value sum = arith::AddFOp::create(b, loc, args[0], term);
            scf::YieldOp::create(b, loc,
                                 maskTail(b, loc, sum, args[0], extent, k));
          });
      AffineMap outMap = op.getMatchingIndexingMap(op.getDpsInitOperand(0));
      SmallVector<Value> at = indicesOf(b, outMap, ivs, Value());
      return reduceOnto(b, loc, loop.getResult(0), Value(), out, at);
    };

    // The other loops, outermost first, carry the output.
    SmallVector<Value> ivs(innermost);
    std::function<Value(OpBuilder &, unsigned, Value)> nest =
        [&](OpBuilder &b, unsigned dim, Value out) -> Value {
      if (dim == innermost)
        return sumAt(b, ivs, out);
      auto loop = scf::ForOp::create(
          b, loc, index(b, 0), index(b, ranges[dim]), index(b, 1),
          ValueRange{out},
          [&](OpBuilder &b, Location, Value iv, ValueRange args) {
            ivs[dim] = iv;
            scf::YieldOp::create(b, loc, nest(b, dim + 1, args[0]));
          });
      return loop.getResult(0);
    };
    Value sum = nest(rewriter, 0, init);
    rewriter.replaceOp(op, sum);
    return success();
  }

  /// `op` with each input indexed by constant zeros on unit dimensions
  /// (a [C, 1, 1] operand indexed `(d1, 0, 0)`) reshaped to drop them, so
  /// that every indexing map is a projected permutation; `op` itself when
  /// there are none, null when such an operand cannot be reshaped.
  linalg::GenericOp dropBroadcastUnitDims(IRRewriter &rewriter,
                                          linalg::GenericOp op) {
    SmallVector<AffineMap> maps = op.getIndexingMapsArray();
    SmallVector<Value> inputs = op.getInputs();
    bool changed = false;
    for (auto [position, input] : llvm::enumerate(inputs)) {
      AffineMap map = maps[position];
      auto type = dyn_cast<RankedTensorType>(input.getType());
      if (!type || llvm::all_of(map.getResults(), [](AffineExpr e) {
            return isa<AffineDimExpr>(e);
          }))
        continue;
      SmallVector<AffineExpr> kept;
      SmallVector<int64_t> keptShape;
      SmallVector<ReassociationIndices> groups;
      ReassociationIndices pending;
      for (auto [dim, expr] : llvm::enumerate(map.getResults())) {
        if (isa<AffineDimExpr>(expr)) {
          pending.push_back(dim);
          groups.push_back(pending);
          pending.clear();
          kept.push_back(expr);
          keptShape.push_back(type.getDimSize(dim));
          continue;
        }
        auto constant = dyn_cast<AffineConstantExpr>(expr);
        if (!constant || constant.getValue() != 0 || type.getDimSize(dim) != 1)
          return nullptr;
        // A unit dimension joins the group before it (or the next one).
        if (groups.empty())
          pending.push_back(dim);
        else
          groups.back().push_back(dim);
      }
      if (!groups.empty() && !pending.empty())
        llvm::append_range(groups.back(), pending);
      rewriter.setInsertionPoint(op);
      inputs[position] = tensor::CollapseShapeOp::create(
          rewriter, op.getLoc(),
          RankedTensorType::get(keptShape, type.getElementType()), input,
          groups);
      maps[position] =
          AffineMap::get(map.getNumDims(), 0, kept, op.getContext());
      changed = true;
    }
    if (!changed)
      return op;
    rewriter.setInsertionPoint(op);
    auto generic = linalg::GenericOp::create(
        rewriter, op.getLoc(), op->getResultTypes(), inputs, op.getOutputs(),
        maps, op.getIteratorTypesArray());
    rewriter.inlineRegionBefore(op.getRegion(), generic.getRegion(),
                                generic.getRegion().begin());
    rewriter.replaceOp(op, generic->getResults());
    return generic;
  }

  /// Splits `op` along the row and column dimensions until every piece's
  /// extent there is a multiple of its (power-of-two) block: a 196-wide
  /// output becomes 192 (six blocks of 32) + 4 (one block of 4). All pieces
  /// keep static shapes, so each vectorises without masks.
  void splitToBlocks(IRRewriter &rewriter, linalg::LinalgOp op,
                     SmallVectorImpl<linalg::LinalgOp> &pieces) {
    std::optional<BlockPlan> plan = planBlock(op, tileM, tileN);
    if (!plan)
      return;
    if (plan->divisible) {
      pieces.push_back(op);
      return;
    }
    SmallVector<int64_t> ranges = op.getStaticLoopRanges();
    for (unsigned dim : {plan->col, plan->row}) {
      int64_t block = plan->tileSizes[dim];
      if (ranges[dim] % block == 0)
        continue;
      rewriter.setInsertionPoint(op);
      auto [head, tail] = linalg::splitOp(
          rewriter, cast<TilingInterface>(op.getOperation()), dim,
          rewriter.getIndexAttr(ranges[dim] / block * block));
      if (!head || !tail) {
        pieces.push_back(op); // stays as it is: scalar loops
        return;
      }
      splitToBlocks(rewriter, cast<linalg::LinalgOp>(head.getOperation()),
                    pieces);
      splitToBlocks(rewriter, cast<linalg::LinalgOp>(tail.getOperation()),
                    pieces);
      return;
    }
  }

  LogicalResult blockContraction(IRRewriter &rewriter, linalg::LinalgOp op) {
    std::optional<BlockPlan> plan = planBlock(op, tileM, tileN);
    if (!plan || !plan->divisible)
      return success(); // left for scalar loops
    scf::SCFTilingOptions options;
    options.setTileSizes(getAsIndexOpFoldResult(
        &getContext(), ArrayRef<int64_t>(plan->tileSizes)));
    options.setInterchange(plan->interchange);
    rewriter.setInsertionPoint(op);
    FailureOr<scf::SCFTilingResult> tiled = scf::tileUsingSCF(
        rewriter, cast<TilingInterface>(op.getOperation()), options);
    if (failed(tiled))
      return op->emitError("tiling the contraction failed");
    // Tile loops over parallel dimensions write disjoint output tiles:
    // --raf-parallelize-loops may share one of them among threads.
    SmallVector<utils::IteratorType> iterators = op.getIteratorTypesArray();
    if (tiled->loops.size() == plan->interchange.size())
      for (auto [loop, dim] : llvm::zip(tiled->loops, plan->interchange))
        if (iterators[dim] == utils::IteratorType::parallel)
          loop->setAttr("raf.parallel", rewriter.getUnitAttr());
    rewriter.replaceOp(op, tiled->replacements);

    for (Operation *tile : tiled->tiledOps) {
      rewriter.setInsertionPoint(tile);
      // Straight to vector.contract, which lowers to outer products (one
      // broadcast + FMA per row) rather than generic broadcasts/reductions.
      FailureOr<linalg::VectorizationResult> vectorized = linalg::vectorize(
          rewriter, tile, /*inputVectorSizes=*/{}, /*inputScalableVecDims=*/{},
          /*vectorizeNDExtract=*/false, /*flatten1DDepthwiseConv=*/false,
          /*assumeDynamicDimsMatchVecSizes=*/false,
          /*createNamedContraction=*/true);
      if (failed(vectorized))
        continue; // stays a scalar loop nest: slower, still correct
      if (tile->getNumResults() > 0)
        rewriter.replaceOp(tile, vectorized->replacements);
      else
        rewriter.eraseOp(tile);
    }
    // Innermost first: hoist the accumulator block out of the reduction
    // loop, then out of any enclosing loop where it is invariant.
    // Each call hoists one level of subsets (first the tensor slice, then the
    // vector transfer on the new iteration argument), so repeat it.
    if (!tiled->loops.empty()) {
      LoopLikeOpInterface reduction = tiled->loops.back();
      for (int round = 0; round < 3; ++round)
        reduction = hoistLoopInvariantSubsets(rewriter, reduction);
    }
    return success();
  }

  void lowerVectorOps(func::FuncOp function) {
    RewritePatternSet patterns(&getContext());
    vector::populateVectorReductionToContractPatterns(patterns);
    vector::populateCastAwayVectorLeadingOneDimPatterns(patterns);
    vector::populateVectorTransferDropUnitDimsPatterns(patterns);
    vector::populateVectorContractLoweringPatterns(
        patterns, vector::VectorContractLowering::OuterProduct);
    vector::populateVectorTransferPermutationMapLoweringPatterns(patterns);
    vector::populateVectorMultiReductionLoweringPatterns(
        patterns, vector::VectorMultiReductionLowering::InnerParallel);
    vector::populateVectorBroadcastLoweringPatterns(patterns);
    vector::populateVectorTransposeLoweringPatterns(
        patterns, vector::VectorTransposeLowering::EltWise);
    vector::populateVectorShapeCastLoweringPatterns(patterns);
    vector::populateVectorOuterProductLoweringPatterns(patterns);
    vector::TransferReadOp::getCanonicalizationPatterns(patterns,
                                                        &getContext());
    vector::TransferWriteOp::getCanonicalizationPatterns(patterns,
                                                         &getContext());
    (void)applyPatternsGreedily(function, std::move(patterns));
  }
};

} // namespace
