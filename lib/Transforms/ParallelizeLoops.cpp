//===- ParallelizeLoops.cpp - one parallel loop per loop nest -------------===//
//
// Prepares loops on buffers for --convert-scf-to-openmp, which turns every
// scf.parallel into a team of threads:
//
//   - an scf.for that --raf-tile-and-vectorize marked `raf.parallel` (a tile
//     loop over a parallel dimension: its iterations write disjoint tiles of
//     the output) becomes an scf.parallel, the outermost one of a nest with
//     enough iterations to share;
//   - an scf.parallel inside another becomes sequential loops, so a nest
//     forks its threads once (nested teams would oversubscribe the cores);
//   - an outermost scf.parallel with too little work to pay for waking the
//     threads (a few microseconds) becomes sequential loops too.
//
//===----------------------------------------------------------------------===//

#include "raf/Transforms/Passes.h"

#include "mlir/Dialect/SCF/Transforms/Transforms.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/IR/PatternMatch.h"

namespace raf {
#define GEN_PASS_DEF_RAFPARALLELIZELOOPS
#include "raf/Transforms/Passes.h.inc"
} // namespace raf

using namespace mlir;

namespace {

constexpr llvm::StringLiteral kParallelAttr = "raf.parallel";

std::optional<int64_t> tripCount(Value lower, Value upper, Value step) {
  std::optional<int64_t> lb = getConstantIntValue(lower);
  std::optional<int64_t> ub = getConstantIntValue(upper);
  std::optional<int64_t> st = getConstantIntValue(step);
  if (!lb || !ub || !st || *st <= 0)
    return std::nullopt;
  return *ub <= *lb ? 0 : llvm::divideCeil(*ub - *lb, *st);
}

/// Iterations of `op`'s own loops times those of the loops inside it: a
/// rough count of the scalar or vector steps the nest performs. Unknown trip
/// counts count as large.
int64_t estimateWork(Operation *op) {
  int64_t own = 1;
  // Saturates at 2^40: enough to tell large from small, never overflows.
  auto multiply = [](int64_t a, int64_t b) {
    constexpr int64_t cap = int64_t(1) << 40;
    if (a == 0 || b == 0)
      return int64_t(0);
    return a > cap / b ? cap : std::min(a * b, cap);
  };
  if (auto loop = dyn_cast<scf::ForOp>(op))
    own = tripCount(loop.getLowerBound(), loop.getUpperBound(), loop.getStep())
              .value_or(1 << 20);
  else if (auto loop = dyn_cast<scf::ParallelOp>(op))
    for (auto [lb, ub, st] : llvm::zip(loop.getLowerBound(),
                                       loop.getUpperBound(), loop.getStep()))
      own = multiply(own, tripCount(lb, ub, st).value_or(1 << 20));
  int64_t inner = 1;
  for (Region &region : op->getRegions())
    for (Operation &nested : region.getOps())
      if (isa<scf::ForOp, scf::ParallelOp>(nested))
        inner = std::max(inner, estimateWork(&nested));
  return multiply(own, inner);
}

/// Iterations of the parallel part that keep a few per thread.
constexpr int64_t kParallelIterations = 16;

/// Splits `loop` into a parallel loop over its shortest prefix of dimensions
/// with kParallelIterations iterations and sequential loops over the rest.
void keepLeadingDimensionsParallel(RewriterBase &rewriter,
                                   scf::ParallelOp loop) {
  unsigned numLoops = loop.getNumLoops();
  unsigned prefix = 0;
  int64_t iterations = 1;
  while (prefix < numLoops && iterations < kParallelIterations) {
    std::optional<int64_t> trips =
        tripCount(loop.getLowerBound()[prefix], loop.getUpperBound()[prefix],
                  loop.getStep()[prefix]);
    if (!trips)
      return; // unknown extents: leave the loop as it is
    iterations *= std::max<int64_t>(*trips, 1);
    ++prefix;
  }
  if (prefix == numLoops)
    return;
  Location loc = loop.getLoc();
  rewriter.setInsertionPoint(loop);
  auto outer = scf::ParallelOp::create(
      rewriter, loc, loop.getLowerBound().take_front(prefix),
      loop.getUpperBound().take_front(prefix),
      loop.getStep().take_front(prefix));
  rewriter.setInsertionPoint(outer.getBody()->getTerminator());
  SmallVector<Value> indices(outer.getInductionVars());
  Block *innermost = outer.getBody();
  for (unsigned dim = prefix; dim < numLoops; ++dim) {
    auto inner = scf::ForOp::create(rewriter, loc, loop.getLowerBound()[dim],
                                    loop.getUpperBound()[dim],
                                    loop.getStep()[dim]);
    indices.push_back(inner.getInductionVar());
    innermost = inner.getBody();
    rewriter.setInsertionPoint(innermost->getTerminator());
  }
  // The old body ends in scf.reduce (no values): its operations move in
  // front of the innermost loop's terminator.
  Block *body = loop.getBody();
  rewriter.eraseOp(body->getTerminator());
  rewriter.inlineBlockBefore(body, innermost->getTerminator(), indices);
  rewriter.eraseOp(loop);
}

struct ParallelizeLoops
    : public raf::impl::RAFParallelizeLoopsBase<ParallelizeLoops> {
  using Base::Base;

  void runOnOperation() override {
    IRRewriter rewriter(&getContext());

    // Marked tile loops, outermost first: the first one with iterations to
    // share becomes parallel; those inside it stay sequential.
    SmallVector<scf::ForOp> marked;
    getOperation().walk<WalkOrder::PreOrder>([&](scf::ForOp loop) {
      if (loop->hasAttr(kParallelAttr))
        marked.push_back(loop);
    });
    for (scf::ForOp loop : marked) {
      loop->removeAttr(kParallelAttr);
      if (loop->getParentOfType<scf::ParallelOp>() || loop.getNumResults() ||
          tripCount(loop.getLowerBound(), loop.getUpperBound(),
                    loop.getStep())
                  .value_or(0) < 2)
        continue;
      rewriter.setInsertionPoint(loop);
      auto parallel = scf::ParallelOp::create(
          rewriter, loop.getLoc(), ValueRange{loop.getLowerBound()},
          ValueRange{loop.getUpperBound()}, ValueRange{loop.getStep()});
      Block *body = parallel.getBody();
      rewriter.eraseOp(body->getTerminator());
      rewriter.mergeBlocks(loop.getBody(), body, parallel.getInductionVars());
      // scf.for's terminator yields nothing here; scf.parallel needs
      // scf.reduce.
      Operation *yield = body->getTerminator();
      rewriter.setInsertionPoint(yield);
      scf::ReduceOp::create(rewriter, yield->getLoc());
      rewriter.eraseOp(yield);
      rewriter.eraseOp(loop);
    }

    // A parallel loop over several dimensions keeps parallel only the
    // leading ones that give every thread a few iterations; the others
    // become sequential loops inside. OpenMP would collapse all of them into
    // one iteration space and recover each index by division in every
    // iteration, which also stops LLVM from vectorising the innermost loop.
    SmallVector<scf::ParallelOp> multiDimensional;
    getOperation().walk([&](scf::ParallelOp loop) {
      if (loop.getNumLoops() > 1 && loop.getInitVals().empty() &&
          !loop->getParentOfType<scf::ParallelOp>())
        multiDimensional.push_back(loop);
    });
    for (scf::ParallelOp loop : multiDimensional)
      keepLeadingDimensionsParallel(rewriter, loop);

    // Nested or small parallel loops become sequential.
    SmallVector<scf::ParallelOp> sequential;
    getOperation().walk<WalkOrder::PreOrder>([&](scf::ParallelOp loop) {
      if (loop->getParentOfType<scf::ParallelOp>() ||
          estimateWork(loop) < minWork)
        sequential.push_back(loop);
    });
    for (scf::ParallelOp loop : sequential) {
      if (!loop.getInitVals().empty())
        continue; // reductions stay with the OpenMP conversion
      rewriter.setInsertionPoint(loop);
      if (failed(scf::parallelForToNestedFors(rewriter, loop))) {
        loop.emitError("cannot turn this parallel loop into sequential loops");
        return signalPassFailure();
      }
    }
  }
};

} // namespace
