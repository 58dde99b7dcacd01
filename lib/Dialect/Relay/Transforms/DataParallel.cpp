//===- DataParallel.cpp - RAF's AutoDataParallel --------------------------===//
//
// RAF paper §3.1.3: passes scale a single-device training graph to many
// devices by inserting collective operators. RAF's AutoDataParallel adds an
// all-reduce after each operator that produces a local gradient and returns
// the aggregated gradient instead, averaged over the ranks (an "avg"
// all-reduce, or a sum divided by the world size; RAF source,
// src/pass/data_parallel.cc). Small all-reduces are fused into buckets
// (RAF's grouped collectives). --raf-zero-partition is RAF's
// PartitionGradient: ZeRO stages 1 and 2 (Rajbhandari et al. 2020, §5.1),
// optimizer state and gradients partitioned over the ranks.
//
//===----------------------------------------------------------------------===//

#include "raf/Dialect/Relay/Transforms/Passes.h"

#include "raf/Dialect/Relay/Transforms/AttributeNames.h"

#include "raf/Dialect/Relay/IR/RelayOps.h"

#include "mlir/Analysis/SliceAnalysis.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/SymbolTable.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/ADT/SmallVectorExtras.h"

#include <map>

namespace raf::relay {
#define GEN_PASS_DEF_RAFDATAPARALLEL
#define GEN_PASS_DEF_RAFZEROPARTITION
#include "raf/Dialect/Relay/Transforms/Passes.h.inc"
} // namespace raf::relay

using namespace mlir;
using namespace raf::relay;

namespace {

constexpr llvm::StringLiteral kWorldSizeAttr = "raf.world_size";
/// On the gradient function and on each gradient all-reduce: the ZeRO level
/// --raf-zero-partition applies.
constexpr llvm::StringLiteral kZeroAttr = "raf.zero";
/// On a gradient all-reduce under ZeRO: the bucket --raf-zero-partition
/// fuses its collective into.
constexpr llvm::StringLiteral kBucketAttr = "raf.bucket";

bool isCollective(Operation *op) {
  return isa<AllreduceOp, ReduceScatterOp, AllgatherOp, CommBroadcastOp,
             CommShardOp>(op);
}

int64_t getNumBytes(RankedTensorType type) {
  return type.getNumElements() *
         llvm::divideCeil(type.getElementTypeBitWidth(), 8);
}

/// `x` reshaped to `shape` (nothing if it has that shape).
Value reshape(OpBuilder &builder, Location loc, Value x,
              ArrayRef<int64_t> shape) {
  auto type = cast<RankedTensorType>(x.getType());
  if (type.getShape() == shape)
    return x;
  return ReshapeOp::create(builder, loc, type.clone(shape), x,
                           builder.getDenseI64ArrayAttr(shape));
}

/// The first op of `block` that uses one of `values` (directly or inside
/// its regions), else the terminator.
Operation *getFirstUser(Block *block, ArrayRef<Value> values) {
  Operation *first = nullptr;
  for (Value value : values)
    for (Operation *user : value.getUsers()) {
      Operation *ancestor = block->findAncestorOpInBlock(*user);
      if (ancestor && (!first || ancestor->isBeforeInBlock(first)))
        first = ancestor;
    }
  return first ? first : block->getTerminator();
}

/// Whether the collectives `group` (in block order) can be fused at the
/// last one: no result is used before it.
bool canFuseAtLast(ArrayRef<Operation *> group) {
  SmallVector<Value> results;
  for (Operation *op : group)
    results.push_back(op->getResult(0));
  Operation *first = getFirstUser(group.back()->getBlock(), results);
  return group.back()->isBeforeInBlock(first);
}

/// Replaces each of `results` by its part of `fused`, the one-dimensional
/// concatenation of their flattened values in order - or, with `rows` > 1,
/// the [rows, S] matrix whose columns are split into the results' [rows,
/// s_i] parts: a relay.split and reshapes right before the first op that
/// uses one of them, so that the collective computing `fused`
/// (non-blocking on --target=cpu) is waited on as late as possible, not
/// right after it starts.
void replaceByParts(Value fused, ArrayRef<Value> results, int64_t rows = 1) {
  Block *block = fused.getDefiningOp()->getBlock();
  OpBuilder builder(getFirstUser(block, results));
  Location loc = fused.getLoc();
  Type elementType = getElementTypeOrSelf(fused.getType());
  SmallVector<Type> partTypes;
  SmallVector<int64_t> splitPoints;
  int64_t total = 0;
  for (Value result : results) {
    int64_t size =
        cast<RankedTensorType>(result.getType()).getNumElements() / rows;
    if (total > 0)
      splitPoints.push_back(total);
    total += size;
    partTypes.push_back(
        rows > 1 ? RankedTensorType::get({rows, size}, elementType)
                 : RankedTensorType::get({size}, elementType));
  }
  Value whole = rows > 1 ? reshape(builder, loc, fused, {rows, total}) : fused;
  auto split = SplitOp::create(
      builder, loc, partTypes, ValueRange{whole},
      {builder.getNamedAttr("indices",
                            builder.getDenseI64ArrayAttr(splitPoints)),
       builder.getNamedAttr("axis", builder.getI64IntegerAttr(rows > 1))});
  for (auto [index, part] : llvm::enumerate(split.getResults())) {
    Value result = results[index];
    result.replaceAllUsesWith(reshape(
        builder, loc, part,
        cast<RankedTensorType>(result.getType()).getShape()));
  }
}

/// Fuses the all-reduces `group` (in block order, one element type) into one
/// all-reduce of their flattened concatenation, placed at the last one, and
/// splits its result back (RAF's grouped collectives).
void fuseBucket(ArrayRef<AllreduceOp> group) {
  AllreduceOp last = group.back();
  OpBuilder builder(last);
  Location loc = last.getLoc();
  SmallVector<Value> flat, results;
  int64_t total = 0;
  for (AllreduceOp op : group) {
    auto type = cast<RankedTensorType>(op.getX().getType());
    total += type.getNumElements();
    flat.push_back(reshape(builder, loc, op.getX(), {type.getNumElements()}));
    results.push_back(op.getResult());
  }
  Type elementType = getElementTypeOrSelf(last.getType());
  auto bucketType = RankedTensorType::get({total}, elementType);
  Value bucket = ConcatenateOp::create(
      builder, loc, TypeRange{bucketType}, flat,
      {builder.getNamedAttr("axis", builder.getI64IntegerAttr(0))});
  Value reduced = AllreduceOp::create(builder, loc, bucket,
                                      last.getReductionAttr(),
                                      last.getWorldSizeAttr());
  replaceByParts(reduced, results);
  for (AllreduceOp op : group)
    op.erase();
}

/// Fuses the reduce-scatters `group` of ZeRO-2 (in block order, one element
/// type, operands padded to a multiple of the world size N in dimension 0)
/// into one: operand i, [P_i, ...], is viewed as [N, b_i] (row r the block
/// rank r owns), the views are concatenated along dimension 1 and
/// reduce-scattered as one [N * sum b_i] vector, so that rank r receives
/// its blocks of all the gradients, which are split back. Each gradient
/// keeps its own padding and its block layout, so the update and the
/// optimizer states are those of the unfused partition.
void fuseReduceScatters(ArrayRef<ReduceScatterOp> group) {
  ReduceScatterOp last = group.back();
  int64_t worldSize = last.getWorldSize();
  OpBuilder builder(last);
  Location loc = last.getLoc();
  SmallVector<Value> rows, results;
  int64_t total = 0;
  for (ReduceScatterOp op : group) {
    int64_t size = cast<RankedTensorType>(op.getType()).getNumElements();
    total += size;
    rows.push_back(reshape(builder, loc, op.getX(), {worldSize, size}));
    results.push_back(op.getResult());
  }
  Type elementType = getElementTypeOrSelf(last.getType());
  Value bucket = ConcatenateOp::create(
      builder, loc,
      TypeRange{RankedTensorType::get({worldSize, total}, elementType)}, rows,
      {builder.getNamedAttr("axis", builder.getI64IntegerAttr(1))});
  bucket = reshape(builder, loc, bucket, {worldSize * total});
  Value reduced = ReduceScatterOp::create(builder, loc, bucket,
                                          last.getReductionAttr(),
                                          last.getWorldSizeAttr());
  replaceByParts(reduced, results);
  for (ReduceScatterOp op : group)
    op.erase();
}

/// Fuses the allgathers `group` of ZeRO's updated parameter blocks (in
/// block order, one element type) into one: block i, [b_i, ...] with s_i
/// elements, is flattened, the blocks are concatenated into one [S] vector
/// and allgathered into [N * S] (row r of its [N, S] view is rank r's
/// concatenation), which is split along dimension 1 into the [N, s_i]
/// parts, each the rows of one gathered parameter [N * b_i, ...]. The mirror
/// of fuseReduceScatters: one message per bucket instead of one per
/// parameter (RAF's grouped collectives).
void fuseAllgathers(ArrayRef<AllgatherOp> group) {
  AllgatherOp last = group.back();
  int64_t worldSize = last.getWorldSize();
  OpBuilder builder(last);
  Location loc = last.getLoc();
  SmallVector<Value> flat, results;
  int64_t total = 0;
  for (AllgatherOp op : group) {
    int64_t size = cast<RankedTensorType>(op.getX().getType()).getNumElements();
    total += size;
    flat.push_back(reshape(builder, loc, op.getX(), {size}));
    results.push_back(op.getResult());
  }
  Type elementType = getElementTypeOrSelf(last.getType());
  Value bucket = ConcatenateOp::create(
      builder, loc, TypeRange{RankedTensorType::get({total}, elementType)},
      flat, {builder.getNamedAttr("axis", builder.getI64IntegerAttr(0))});
  Value gathered = AllgatherOp::create(builder, loc, bucket,
                                       last.getWorldSizeAttr());
  replaceByParts(gathered, results, worldSize);
  for (AllgatherOp op : group)
    op.erase();
}

/// Groups the all-reduces in `ops` (block order) into buckets of at most
/// `bucketBytes` bytes and one element type (a larger one is a bucket of
/// its own).
SmallVector<SmallVector<AllreduceOp>>
formBuckets(ArrayRef<AllreduceOp> ops, int64_t bucketBytes) {
  SmallVector<SmallVector<AllreduceOp>> buckets;
  int64_t bytes = 0;
  for (AllreduceOp op : ops) {
    auto type = cast<RankedTensorType>(op.getType());
    int64_t size = getNumBytes(type);
    if (buckets.empty() || bytes + size > bucketBytes ||
        getElementTypeOrSelf(buckets.back().front().getType()) !=
            type.getElementType()) {
      buckets.emplace_back();
      bytes = 0;
    }
    buckets.back().push_back(op);
    bytes += size;
  }
  return buckets;
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

/// A rank-0 constant of `elementType`.
Value scalarConstant(OpBuilder &builder, Location loc, double value,
                     Type elementType) {
  auto type = RankedTensorType::get({}, elementType);
  return ConstantOp::create(
      builder, loc,
      DenseElementsAttr::get(type, FloatAttr::get(elementType, value)));
}

/// The mean of `local`, a per-rank mean over equally many elements on every
/// rank, over the ranks' global batch: the average of the ranks' means.
Value globalMean(OpBuilder &builder, Location loc, Value local,
                 int64_t worldSize) {
  return AllreduceOp::create(builder, loc, local, builder.getStringAttr("avg"),
                             builder.getI64IntegerAttr(worldSize));
}

/// SyncBatchNorm rewrites the step function's own batch norms only: one in a
/// function the step calls (e.g. an adjoint --raf-autodiff did not inline)
/// would silently keep per-rank statistics, so it is an error.
LogicalResult checkNoBatchStatisticsInCallees(func::FuncOp fn) {
  ModuleOp module = fn->getParentOfType<ModuleOp>();
  SmallVector<func::FuncOp> worklist{fn};
  llvm::SmallPtrSet<Operation *, 8> seen{fn};
  bool ok = true;
  while (!worklist.empty()) {
    func::FuncOp caller = worklist.pop_back_val();
    std::optional<SymbolTable::UseRange> uses =
        SymbolTable::getSymbolUses(caller);
    if (!uses)
      continue;
    for (const SymbolTable::SymbolUse &use : *uses) {
      auto callee = SymbolTable::lookupNearestSymbolFrom<func::FuncOp>(
          module, use.getSymbolRef());
      if (!callee || !seen.insert(callee).second)
        continue;
      worklist.push_back(callee);
      callee.walk([&](Operation *op) {
        auto norm = dyn_cast<BatchNormOp>(op);
        if ((norm && norm.getTraining()) ||
            (isa<MeanOp>(op) && op->hasAttr(kBatchStatAttr))) {
          op->emitError()
              << "--raf-data-parallel: a training-mode batch norm (or its "
                 "gradient) in @"
              << callee.getSymName() << ", called from @" << fn.getSymName()
              << ": sync-batch-norm=true synchronises only the step "
                 "function's own batch norms; inline the call first "
                 "(--inline) or set sync-batch-norm=false for per-rank "
                 "statistics";
          ok = false;
        }
      });
    }
  }
  return success(ok);
}

/// SyncBatchNorm (PyTorch's torch.nn.SyncBatchNorm; Ioffe and Szegedy
/// 2015, Alg. 1 over the global mini-batch): every training-mode batch norm
/// of `fn` normalises with the mean and variance of the global batch, and
/// the means over the batch in its gradient (`raf.batch_stat`, written by
/// --raf-autodiff) are global too. Every rank holds the same number of
/// elements per channel (one static per-rank shape), so a global mean is the
/// all-reduced average of the ranks' means; the variance is the global mean
/// of the squared deviations from the global mean (two passes, as a single
/// process computes it).
LogicalResult syncBatchNorms(func::FuncOp fn, int64_t worldSize) {
  SmallVector<MeanOp> stats;
  SmallVector<BatchNormOp> norms;
  fn.walk([&](Operation *op) {
    if (auto mean = dyn_cast<MeanOp>(op); mean && mean->hasAttr(kBatchStatAttr))
      stats.push_back(mean);
    if (auto norm = dyn_cast<BatchNormOp>(op); norm && norm.getTraining())
      norms.push_back(norm);
  });
  // The gradient: dx = rstd * (dxhat - mean(dxhat) - xhat * mean(dxhat *
  // xhat)) with global means and statistics, the sums PyTorch's
  // SyncBatchNorm all-reduces in its backward.
  for (MeanOp mean : stats) {
    OpBuilder builder(mean->getContext());
    builder.setInsertionPointAfter(mean);
    Value global =
        globalMean(builder, mean.getLoc(), mean.getResult(), worldSize);
    mean.getResult().replaceAllUsesExcept(global, global.getDefiningOp());
  }
  for (BatchNormOp norm : norms) {
    // The verifier guarantees a float x of rank >= 2 and a valid axis
    auto type = cast<RankedTensorType>(norm.getX().getType());
    int64_t rank = type.getRank();
    auto axis = static_cast<int64_t>(norm.getAxis());
    if (axis < 0)
      axis += rank;
    int64_t channels = type.getDimSize(axis);
    // (And gamma, beta and the moving statistics of type [C] x element.)
    if (!type.hasStaticShape())
      return norm.emitError("--raf-data-parallel: sync-batch-norm needs an "
                            "input of static shape, got ")
             << type;
    SmallVector<int64_t> others, statShape(rank, 1);
    for (int64_t d = 0; d < rank; ++d)
      if (d != axis)
        others.push_back(d);
    statShape[axis] = channels;
    int64_t count =
        worldSize * (type.getNumElements() / std::max<int64_t>(channels, 1));
    if (count < 2)
      return norm.emitError("--raf-data-parallel: training batch norm needs "
                            "more than one value per channel in the global "
                            "batch to estimate the unbiased variance, got ")
             << count;
    OpBuilder builder(norm);
    Location loc = norm.getLoc();
    Type elementType = type.getElementType();
    auto scalar = [&](double value) {
      return scalarConstant(builder, loc, value, elementType);
    };
    auto mean = [&](Value x) {
      return globalMean(builder, loc,
                        MeanOp::create(builder, loc, x,
                                       builder.getDenseI64ArrayAttr(others),
                                       /*keepdims=*/true, /*exclude=*/false),
                        worldSize);
    };
    auto alongAxis = [&](Value vector) {
      return reshape(builder, loc, vector, statShape);
    };
    Value batchMean = mean(norm.getX());
    Value centered = SubtractOp::create(builder, loc, norm.getX(), batchMean);
    Value variance =
        mean(MultiplyOp::create(builder, loc, centered, centered));
    Value rstd = RsqrtOp::create(
        builder, loc,
        AddOp::create(builder, loc, variance,
                      scalar(norm.getEpsilon().convertToDouble())));
    Value y = MultiplyOp::create(builder, loc, centered, rstd);
    if (norm.getScale())
      y = MultiplyOp::create(builder, loc, y, alongAxis(norm.getGamma()));
    if (norm.getCenter())
      y = AddOp::create(builder, loc, y, alongAxis(norm.getBeta()));
    // The moving statistics, with the unbiased global variance (PyTorch).
    double momentum = norm.getMomentum().convertToDouble();
    auto update = [&](Value moving, Value batch, double factor) {
      Value kept = MultiplyOp::create(builder, loc, moving,
                                      scalar(1.0 - momentum));
      Value added = MultiplyOp::create(
          builder, loc, reshape(builder, loc, batch, {channels}),
          scalar(momentum * factor));
      return AddOp::create(builder, loc, kept, added).getResult();
    };
    Value newMean = update(norm.getMovingMean(), batchMean, 1.0);
    Value newVar = update(norm.getMovingVar(), variance,
                          static_cast<double>(count) / (count - 1));
    norm.getResult().replaceAllUsesWith(y);
    norm.getNewMean().replaceAllUsesWith(newMean);
    norm.getNewVar().replaceAllUsesWith(newVar);
    norm.erase();
  }
  return success();
}

struct RafDataParallelPass
    : public raf::relay::impl::RafDataParallelBase<RafDataParallelPass> {
  using Base::Base;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    int64_t worldSize = this->worldSize;
    int64_t zero = this->zero;
    int64_t bucketBytes = this->bucketBytes;
    if (worldSize < 1) {
      emitError(module.getLoc())
          << "--raf-data-parallel: world-size must be >= 1, got " << worldSize;
      return signalPassFailure();
    }
    if (zero < 0 || zero > 2) {
      emitError(module.getLoc())
          << "--raf-data-parallel: zero must be 0, 1 or 2, got " << zero;
      return signalPassFailure();
    }
    if (bucketBytes < 0) {
      emitError(module.getLoc())
          << "--raf-data-parallel: bucket-bytes must be >= 0, got "
          << bucketBytes;
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
    SmallVector<AllreduceOp> allreduces;
    unsigned first = terminator->getNumOperands() - *numGradients;
    for (unsigned i = first; i < terminator->getNumOperands(); ++i) {
      Value gradient = terminator->getOperand(i);
      Value &sum = reduced[gradient];
      if (!sum) {
        if (Operation *producer = gradient.getDefiningOp())
          builder.setInsertionPointAfter(producer);
        else
          builder.setInsertionPointToStart(&body);
        auto allreduce = AllreduceOp::create(builder, gradient.getLoc(),
                                             gradient, avg, size);
        if (zero > 0)
          allreduce->setAttr(kZeroAttr, builder.getI64IntegerAttr(zero));
        allreduces.push_back(allreduce);
        sum = allreduce;
      }
      terminator->setOperand(i, sum);
    }
    if (bucketBytes > 0) {
      llvm::sort(allreduces, [](AllreduceOp a, AllreduceOp b) {
        return a->isBeforeInBlock(b);
      });
      // zero=0 fuses the buckets here; with ZeRO, --raf-zero-partition
      // fuses each bucket's reduce-scatters (zero=2) or all-reduces
      // (zero=1) once the updates are partitioned.
      int64_t index = 0;
      for (SmallVector<AllreduceOp> &bucket :
           formBuckets(allreduces, bucketBytes)) {
        SmallVector<Operation *> ops(bucket.begin(), bucket.end());
        if (bucket.size() < 2 || !canFuseAtLast(ops))
          continue;
        if (zero == 0) {
          fuseBucket(bucket);
          continue;
        }
        for (AllreduceOp op : bucket)
          op->setAttr(kBucketAttr, builder.getI64IntegerAttr(index));
        ++index;
      }
    }
    if (syncBatchNorm && worldSize > 1 &&
        (failed(syncBatchNorms(fn, worldSize)) ||
         failed(checkNoBatchStatisticsInCallees(fn))))
      return signalPassFailure();
    module.walk([](MeanOp mean) { mean->removeAttr(kBatchStatAttr); });
    fn->setAttr(kZeroAttr, builder.getI64IntegerAttr(zero));
    fn->setAttr(kWorldSizeAttr, size);
  }
};

} // namespace

//===----------------------------------------------------------------------===//
// --raf-zero-partition
//===----------------------------------------------------------------------===//

namespace {

/// Partitions the update of one gradient (ZeRO, Rajbhandari et al. 2020,
/// §5.1; RAF's PartitionGradient): the element-wise ops that use the
/// all-reduced gradient run on this rank's block of dimension 0, padded to
/// a multiple of the world size as RAF pads.
class UpdatePartitioner {
public:
  UpdatePartitioner(func::FuncOp step, AllreduceOp allreduce, int64_t level,
                    unsigned numParams, unsigned numStates,
                    SmallVectorImpl<Type> &argumentTypes,
                    SmallVectorImpl<Type> &resultTypes)
      : step(step), allreduce(allreduce), level(level), numParams(numParams),
        numStates(numStates), argumentTypes(argumentTypes),
        resultTypes(resultTypes),
        worldSize(allreduce.getWorldSize()),
        fullType(cast<RankedTensorType>(allreduce.getType())) {
    // A rank-0 gradient is partitioned as a one-element vector.
    ArrayRef<int64_t> shape = fullType.getShape();
    vectorShape.assign(shape.begin(), shape.end());
    if (vectorShape.empty())
      vectorShape.push_back(1);
    paddedRows = llvm::divideCeil(vectorShape[0], worldSize) * worldSize;
    blockShape = vectorShape;
    blockShape[0] = paddedRows / worldSize;
  }

  LogicalResult run();

  /// The collective that computes the gradient's block: the all-reduce
  /// (ZeRO-1) or the reduce-scatter (ZeRO-2); set by run().
  Operation *getGradientCollective() const { return gradientCollective; }
  /// The allgathers of the new parameters' blocks; set by run().
  ArrayRef<AllgatherOp> getGathers() const { return gathers; }

private:
  /// The block of dimension 0 of `x` (of the gradient's shape) this rank
  /// owns, padded: `comm.shard(pad(x))`, or a reduce-scatter of the padded
  /// `x` for the gradient under ZeRO-2.
  Value emitBlock(OpBuilder &builder, Location loc, Value x, bool reduce);
  /// The whole tensor from the blocks: `allgather` right after the block is
  /// computed, then, right before `terminator`, the padding and the added
  /// dimension removed.
  Value emitGather(Operation *terminator, Value block);
  LogicalResult partitionOperand(Operation *op, OpOperand &operand);

  func::FuncOp step;
  AllreduceOp allreduce;
  int64_t level;
  unsigned numParams, numStates;
  SmallVectorImpl<Type> &argumentTypes;
  SmallVectorImpl<Type> &resultTypes;
  int64_t worldSize;
  RankedTensorType fullType;
  SmallVector<int64_t> vectorShape, blockShape;
  int64_t paddedRows;
  llvm::SetVector<Operation *> update;
  llvm::DenseMap<Value, Value> blocks;
  Operation *gradientCollective = nullptr;
  SmallVector<AllgatherOp> gathers;
};

Value UpdatePartitioner::emitBlock(OpBuilder &builder, Location loc, Value x,
                                   bool reduce) {
  x = reshape(builder, loc, x, vectorShape);
  auto type = cast<RankedTensorType>(x.getType());
  if (paddedRows != vectorShape[0]) {
    SmallVector<int64_t> padWidth(2 * type.getRank(), 0);
    padWidth[1] = paddedRows - vectorShape[0];
    SmallVector<int64_t> paddedShape(vectorShape);
    paddedShape[0] = paddedRows;
    x = PadOp::create(builder, loc, TypeRange{type.clone(paddedShape)},
                      ValueRange{x},
                      {builder.getNamedAttr(
                          "pad_width", builder.getDenseI64ArrayAttr(padWidth))});
  }
  IntegerAttr size = builder.getI64IntegerAttr(worldSize);
  if (reduce)
    return ReduceScatterOp::create(builder, loc, x,
                                   allreduce.getReductionAttr(), size);
  return CommShardOp::create(builder, loc, x, size);
}

Value UpdatePartitioner::emitGather(Operation *terminator, Value block) {
  // Started as soon as the block exists, so that (non-blocking on
  // --target=cpu) it runs while the other parameters are updated, and
  // waited on where the whole parameter is first used, here the terminator.
  OpBuilder builder(terminator);
  Location loc = terminator->getLoc();
  builder.setInsertionPointAfterValue(block);
  auto gather = AllgatherOp::create(builder, loc, block,
                                    builder.getI64IntegerAttr(worldSize));
  gathers.push_back(gather);
  Value whole = gather;
  builder.setInsertionPoint(terminator);
  if (paddedRows != vectorShape[0]) {
    auto type = cast<RankedTensorType>(whole.getType());
    whole = StridedSliceOp::create(
        builder, loc, TypeRange{type.clone(vectorShape)}, ValueRange{whole},
        {builder.getNamedAttr("begin", builder.getDenseI64ArrayAttr({0})),
         builder.getNamedAttr("end",
                              builder.getDenseI64ArrayAttr({vectorShape[0]})),
         builder.getNamedAttr("axes", builder.getDenseI64ArrayAttr({0}))});
  }
  return reshape(builder, loc, whole, fullType.getShape());
}

/// Whether `op` computes each result element from the same element of its
/// operands (and rank-0 operands), so that it can run on blocks.
bool isElementwise(Operation *op) {
  auto fusion = dyn_cast<FusionOpInterface>(op);
  if (!fusion || isa<BiasAddOp>(op))
    return false;
  FusionKind kind = fusion.getFusionKind();
  return kind == FusionKind::ElemWise || kind == FusionKind::Broadcast;
}

LogicalResult UpdatePartitioner::partitionOperand(Operation *op,
                                                  OpOperand &operand) {
  Value value = operand.get();
  if (update.contains(value.getDefiningOp()) || value == allreduce)
    return success();
  auto type = cast<RankedTensorType>(value.getType());
  if (type.getRank() == 0)
    return success();
  if (type.getShape() != fullType.getShape())
    return op->emitError("--raf-zero-partition: cannot partition '")
           << op->getName() << "': operand #" << operand.getOperandNumber()
           << " of type " << type
           << " is neither rank 0 nor of the gradient's shape "
           << fullType;
  Value &block = blocks[value];
  if (!block) {
    auto argument = dyn_cast<BlockArgument>(value);
    bool isState = argument && argument.getOwner() == &step.getBody().front() &&
                   argument.getArgNumber() >= numParams &&
                   argument.getArgNumber() < numParams + numStates;
    if (isState) {
      // An optimizer state: each rank keeps only its block. Its every user
      // is in the update (run() adds the state's forward slice).
      Type blockType = type.clone(blockShape);
      argument.setType(blockType);
      argumentTypes[argument.getArgNumber()] = blockType;
      block = argument;
    } else {
      OpBuilder builder(op);
      block = emitBlock(builder, op->getLoc(), value, /*reduce=*/false);
    }
  }
  operand.set(block);
  return success();
}

LogicalResult UpdatePartitioner::run() {
  // The update: every op that (transitively) uses the all-reduced gradient.
  SetVector<Operation *> slice;
  getForwardSlice(allreduce.getOperation(), &slice);
  // And every op that uses a state of the gradient's shape this update
  // reads (`beta1 * m` does not depend on the gradient).
  Block &body = step.getBody().front();
  for (unsigned i = numParams; i < numParams + numStates; ++i) {
    BlockArgument state = body.getArgument(i);
    if (cast<RankedTensorType>(state.getType()).getShape() !=
        fullType.getShape())
      continue;
    SetVector<Operation *> stateSlice;
    getForwardSlice(state, &stateSlice);
    if (llvm::any_of(stateSlice, [&](Operation *op) {
          return op != body.getTerminator() && slice.contains(op);
        }))
      slice.insert_range(stateSlice);
  }
  Operation *terminator = body.getTerminator();
  for (Operation *op : slice) {
    if (op == terminator)
      continue;
    if (op->getBlock() != allreduce->getBlock())
      return op->emitError("--raf-zero-partition: the update of a gradient "
                           "must be in the step's body");
    if (!isElementwise(op))
      return op->emitError("--raf-zero-partition: cannot partition '")
             << op->getName()
             << "' in the optimizer update: it is not element-wise";
    update.insert(op);
  }
  // Block order, so that operands are partitioned before their users.
  SmallVector<Operation *> ordered(update.begin(), update.end());
  llvm::sort(ordered,
             [](Operation *a, Operation *b) { return a->isBeforeInBlock(b); });
  for (Operation *op : ordered) {
    for (Type type : op->getResultTypes())
      if (cast<RankedTensorType>(type).getShape() != fullType.getShape())
        return op->emitError("--raf-zero-partition: cannot partition '")
               << op->getName() << "': result type " << type
               << " is not of the gradient's shape " << fullType;
    for (OpOperand &operand : op->getOpOperands())
      if (failed(partitionOperand(op, operand)))
        return failure();
  }

  // The gradient's block: a reduce-scatter of the local gradient right
  // after it is computed (ZeRO-2), or the block of the all-reduce's result
  // taken where the update first uses it (ZeRO-1), so that the collective,
  // non-blocking on --target=cpu, is waited on as late as possible.
  OpBuilder builder(allreduce);
  Location loc = allreduce.getLoc();
  Value gradientBlock;
  if (level == 2) {
    builder.setInsertionPointAfter(allreduce);
    gradientBlock = emitBlock(builder, loc, allreduce.getX(), /*reduce=*/true);
    gradientCollective = gradientBlock.getDefiningOp();
  } else {
    builder.setInsertionPoint(
        getFirstUser(allreduce->getBlock(), {allreduce.getResult()}));
    gradientBlock = emitBlock(builder, loc, allreduce, /*reduce=*/false);
    gradientCollective = allreduce;
  }
  for (Operation *op : ordered)
    for (OpOperand &operand : op->getOpOperands())
      if (operand.get() == allreduce.getResult())
        operand.set(gradientBlock);
  for (Operation *op : ordered)
    for (OpResult result : op->getResults())
      result.setType(
          cast<RankedTensorType>(result.getType()).clone(blockShape));

  // Results: new parameters are gathered, new states stay blocks.
  for (OpOperand &operand : terminator->getOpOperands()) {
    if (!update.contains(operand.get().getDefiningOp()))
      continue;
    unsigned index = operand.getOperandNumber();
    auto updates = step.getResultAttrOfType<IntegerAttr>(index,
                                                         kUpdatesArgAttr);
    if (!updates || updates.getInt() < 0 ||
        updates.getInt() >= numParams + numStates)
      return terminator->emitError("--raf-zero-partition: result #")
             << index
             << " depends on a partitioned gradient but is neither a new "
                "parameter nor a new optimizer state (run the pass on the "
                "step of --raf-append-optimizer)";
    if (updates.getInt() >= numParams) {
      if (argumentTypes[updates.getInt()] != operand.get().getType())
        return terminator->emitError("--raf-zero-partition: result #")
               << index << " (the new optimizer state #" << updates.getInt()
               << ") is not computed from that state";
      resultTypes[index] = operand.get().getType();
      continue;
    }
    operand.set(emitGather(terminator, operand.get()));
  }
  if (level == 2)
    allreduce.erase();
  return success();
}

struct RafZeroPartitionPass
    : public raf::relay::impl::RafZeroPartitionBase<RafZeroPartitionPass> {
  using Base::Base;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    auto step = module.lookupSymbol<func::FuncOp>(entry);
    if (!step) {
      emitError(module.getLoc())
          << "--raf-zero-partition: no function '@" << entry << "'";
      return signalPassFailure();
    }
    auto numParams = step->getAttrOfType<IntegerAttr>(kNumParamsAttr);
    auto numStates = step->getAttrOfType<IntegerAttr>(kNumStatesAttr);
    if (!numParams || !numStates || !step.getBody().hasOneBlock()) {
      step.emitError("--raf-zero-partition: '@")
          << entry
          << "' is not a training step of --raf-append-optimizer (expected "
             "a single block and '"
          << kNumParamsAttr << "', '" << kNumStatesAttr << "')";
      return signalPassFailure();
    }
    SmallVector<AllreduceOp> tagged;
    step.walk([&](AllreduceOp op) {
      if (op->hasAttr(kZeroAttr))
        tagged.push_back(op);
    });
    if (tagged.empty()) {
      step.emitError("--raf-zero-partition: '@")
          << entry
          << "' has no gradient all-reduce to partition (run "
             "--raf-data-parallel with zero=1 or zero=2 before "
             "--raf-append-optimizer)";
      return signalPassFailure();
    }
    FunctionType type = step.getFunctionType();
    SmallVector<Type> argumentTypes(type.getInputs());
    SmallVector<Type> resultTypes(type.getResults());
    int64_t level = 0;
    int64_t worldSize = tagged.front().getWorldSize();
    // The gradients' collectives per bucket of --raf-data-parallel.
    std::map<int64_t, SmallVector<Operation *>> buckets;
    // The allgathers of the new parameters whose gradients are in a bucket.
    std::map<int64_t, SmallVector<AllgatherOp>> gatherBuckets;
    for (AllreduceOp op : tagged) {
      auto zero = op->getAttrOfType<IntegerAttr>(kZeroAttr);
      if (!zero || (zero.getInt() != 1 && zero.getInt() != 2) ||
          (level != 0 && zero.getInt() != level)) {
        op.emitError("--raf-zero-partition: '")
            << kZeroAttr << "' must be 1 or 2, the same on every all-reduce";
        return signalPassFailure();
      }
      level = zero.getInt();
      if (op.getReduction() != "avg" ||
          !isa<FloatType>(getElementTypeOrSelf(op.getType()))) {
        op.emitError("--raf-zero-partition: expected the float gradient "
                     "average of --raf-data-parallel");
        return signalPassFailure();
      }
      UpdatePartitioner partitioner(step, op, level, numParams.getInt(),
                                    numStates.getInt(), argumentTypes,
                                    resultTypes);
      auto bucket = op->getAttrOfType<IntegerAttr>(kBucketAttr);
      if (failed(partitioner.run()))
        return signalPassFailure();
      if (bucket) {
        buckets[bucket.getInt()].push_back(
            partitioner.getGradientCollective());
        llvm::append_range(gatherBuckets[bucket.getInt()],
                           partitioner.getGathers());
      }
      if (level == 1)
        op->removeAttr(kZeroAttr);
    }
    // Buckets (RAF's grouped collectives): one reduce-scatter (ZeRO-2) or
    // all-reduce (ZeRO-1) per bucket instead of one per gradient.
    for (auto &[index, group] : buckets) {
      llvm::sort(group, [](Operation *a, Operation *b) {
        return a->isBeforeInBlock(b);
      });
      for (Operation *op : group)
        op->removeAttr(kBucketAttr);
      if (group.size() < 2 || !canFuseAtLast(group))
        continue;
      if (level == 2)
        fuseReduceScatters(llvm::map_to_vector(
            group, [](Operation *op) { return cast<ReduceScatterOp>(op); }));
      else
        fuseBucket(llvm::map_to_vector(
            group, [](Operation *op) { return cast<AllreduceOp>(op); }));
    }
    // The same buckets for the parameters' allgathers: one allgather of
    // the concatenated updated blocks per bucket.
    for (auto &[index, group] : gatherBuckets) {
      llvm::sort(group, [](AllgatherOp a, AllgatherOp b) {
        return a->isBeforeInBlock(b);
      });
      SmallVector<Operation *> ops(group.begin(), group.end());
      Type elementType = getElementTypeOrSelf(group.front().getType());
      if (group.size() < 2 || !canFuseAtLast(ops) ||
          llvm::any_of(group, [&](AllgatherOp op) {
            return getElementTypeOrSelf(op.getType()) != elementType;
          }))
        continue;
      fuseAllgathers(group);
    }
    step.setFunctionType(
        FunctionType::get(&getContext(), argumentTypes, resultTypes));
    step->setAttr(kZeroAttr, IntegerAttr::get(IntegerType::get(
                                                  &getContext(), 64),
                                              level));
    step->setAttr(kWorldSizeAttr,
                  IntegerAttr::get(IntegerType::get(&getContext(), 64),
                                   worldSize));
  }
};

} // namespace
