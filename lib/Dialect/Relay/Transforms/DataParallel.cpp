//===- DataParallel.cpp - RAF's AutoDataParallel --------------------------===//
//
// RAF paper §3.1.3: passes scale a single-device training graph to many
// devices by inserting collective operators. RAF's AutoDataParallel adds an
// all-reduce after each operator that produces a local gradient and returns
// the aggregated gradient instead, averaged over the ranks (an "avg"
// all-reduce, or a sum divided by the world size; RAF source,
// src/pass/data_parallel.cc). ZeRO partitioning (RAF's
// PartitionGradient, levels 1 and 2) is not implemented yet.
//
//===----------------------------------------------------------------------===//

#include "raf/Dialect/Relay/Transforms/Passes.h"

#include "raf/Dialect/Relay/Transforms/AttributeNames.h"

#include "raf/Dialect/Relay/IR/RelayOps.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "llvm/ADT/DenseMap.h"

namespace raf::relay {
#define GEN_PASS_DEF_RAFDATAPARALLEL
#include "raf/Dialect/Relay/Transforms/Passes.h.inc"
} // namespace raf::relay

using namespace mlir;
using namespace raf::relay;

namespace {

constexpr llvm::StringLiteral kWorldSizeAttr = "raf.world_size";

bool isCollective(Operation *op) {
  return isa<AllreduceOp, ReduceScatterOp, AllgatherOp, CommBroadcastOp>(op);
}

/// The number of gradient results of `fn` (the last results), once `fn` is
/// checked against the gradient-function contract of --raf-append-optimizer.
FailureOr<unsigned> checkGradientFunction(func::FuncOp fn) {
  auto fail = [&]() {
    return fn.emitError() << "--raf-data-parallel: gradient function '@"
                          << fn.getSymName() << "': ";
  };
  if (fn.isExternal() || !fn.getBody().hasOneBlock()) {
    fail() << "expected a single-block body";
    return failure();
  }
  auto params = dyn_cast_or_null<DenseI64ArrayAttr>(fn->getAttr(kGradParamsAttr));
  if (!params || params.empty()) {
    fail() << "expected a non-empty '" << kGradParamsAttr
           << "' (array<i64>), as --raf-autodiff=\"inline-backward=true\" "
              "records it";
    return failure();
  }
  unsigned k = params.size();
  FunctionType type = fn.getFunctionType();
  if (type.getNumResults() < 1 + k) {
    fail() << "expected at least " << 1 + k << " results (the loss, "
           << "auxiliary results, then " << k << " gradients), got "
           << type.getNumResults();
    return failure();
  }
  for (unsigned j = 0; j < k; ++j) {
    unsigned result = type.getNumResults() - k + j;
    auto tensor = dyn_cast<RankedTensorType>(type.getResult(result));
    if (!tensor || !isa<FloatType>(tensor.getElementType())) {
      fail() << "gradient result #" << result
             << " must be a float tensor, got " << type.getResult(result);
      return failure();
    }
  }
  WalkResult walk = fn.walk([&](Operation *op) {
    if (!isCollective(op))
      return WalkResult::advance();
    op->emitError("--raf-data-parallel: '@")
        << fn.getSymName()
        << "' already holds collectives; the pass scales a single-device "
           "program";
    return WalkResult::interrupt();
  });
  if (walk.wasInterrupted())
    return failure();
  return k;
}

struct RafDataParallelPass
    : public raf::relay::impl::RafDataParallelBase<RafDataParallelPass> {
  using Base::Base;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    int64_t worldSize = this->worldSize;
    int64_t zero = this->zero;
    if (worldSize < 1) {
      emitError(module.getLoc())
          << "--raf-data-parallel: world-size must be >= 1, got " << worldSize;
      return signalPassFailure();
    }
    if (zero == 1 || zero == 2) {
      emitError(module.getLoc())
          << "--raf-data-parallel: zero=" << zero
          << " (ZeRO partitioning of optimizer state and gradients) is not "
             "implemented yet; only zero=0 is (docs/data-parallel.md)";
      return signalPassFailure();
    }
    if (zero != 0) {
      emitError(module.getLoc())
          << "--raf-data-parallel: zero must be 0, 1 or 2, got " << zero;
      return signalPassFailure();
    }
    auto fn = module.lookupSymbol<func::FuncOp>(entry);
    if (!fn) {
      emitError(module.getLoc())
          << "--raf-data-parallel: no function '@" << entry << "'";
      return signalPassFailure();
    }
    FailureOr<unsigned> numGradients = checkGradientFunction(fn);
    if (failed(numGradients))
      return signalPassFailure();

    Block &body = fn.getBody().front();
    Operation *terminator = body.getTerminator();
    OpBuilder builder(fn.getContext());
    StringAttr avg = builder.getStringAttr("avg");
    IntegerAttr size = builder.getI64IntegerAttr(worldSize);
    // One all-reduce per distinct gradient value, right after its producer.
    llvm::DenseMap<Value, Value> reduced;
    unsigned first = terminator->getNumOperands() - *numGradients;
    for (unsigned i = first; i < terminator->getNumOperands(); ++i) {
      Value gradient = terminator->getOperand(i);
      Value &sum = reduced[gradient];
      if (!sum) {
        if (Operation *producer = gradient.getDefiningOp())
          builder.setInsertionPointAfter(producer);
        else
          builder.setInsertionPointToStart(&body);
        sum = AllreduceOp::create(builder, gradient.getLoc(), gradient, avg,
                                  size);
      }
      terminator->setOperand(i, sum);
    }
    fn->setAttr(kWorldSizeAttr, size);
  }
};

} // namespace
