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
#include "mlir/Dialect/SCF/Transforms/TileUsingInterface.h"
#include "mlir/Dialect/Vector/Transforms/LoweringPatterns.h"
#include "mlir/Dialect/Vector/Transforms/VectorRewritePatterns.h"
#include "mlir/Interfaces/TilingInterface.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"
#include "mlir/Transforms/LoopInvariantCodeMotionUtils.h"
#include "llvm/ADT/bit.h"

namespace raf {
#define GEN_PASS_DEF_RAFTILEANDVECTORIZE
#include "raf/Transforms/Passes.h.inc"
} // namespace raf

using namespace mlir;

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

struct TileAndVectorize
    : public raf::impl::RAFTileAndVectorizeBase<TileAndVectorize> {
  using Base::Base;

  void runOnOperation() override {
    func::FuncOp function = getOperation();
    if (tileM < 1 || tileN < 1) {
      function.emitError() << "--raf-tile-and-vectorize: tile-m and tile-n "
                              "must be at least 1 (got "
                           << static_cast<int64_t>(tileM) << " and "
                           << static_cast<int64_t>(tileN) << ")";
      return signalPassFailure();
    }
    IRRewriter rewriter(&getContext());

    if (im2col)
      rewriteConvolutions(rewriter, function);
    reorderDepthwiseConvolutions(rewriter, function);

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
  /// meets one filter), and upstream's loop order (n, c, oh, ow, kh, kw)
  /// puts a 3-step reduction innermost, which LLVM does not vectorise. As a
  /// generic over (n, c, kh, kw, oh, ow) each filter tap is one pass of
  /// `out[oh, :] += w * in[oh * s + kh * d, :]` over the output row: the
  /// innermost loop runs along W, unit-stride in the output, and LLVM
  /// vectorises it (the direct depthwise kernel of e.g. Zhang et al.,
  /// "High Performance Depthwise and Pointwise Convolutions on Mobile
  /// Devices", AAAI 2020).
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
