//===- DotProductContraction.cpp - A * B^T with the reduction in lanes ----===//
//
// A contraction whose two operands both keep the reduction dimension
// innermost - nn.dense's x W^T, matmul and batch_matmul with transpose_b,
// attention's Q K^T - has no contiguous output dimension in its right-hand
// side, so the outer-product blocking of --raf-tile-and-vectorize would load
// it element by element (and transposing the weight on every call costs more
// than the product: 0.8 of 1.1 s for a 9216 -> 4096 dense layer). Here the
// vector lanes run along the reduction instead:
//
//   for each block of block-n columns:       (parallel with threads > 1)
//     for each K block of k-block elements:  (B rows: reused across M)
//       for each block of block-m rows:
//         acc[i][j] = 0                       (block-m x block-n vectors)
//         for k in the block, step lanes:     (contiguous loads of A and B)
//           acc[i][j] = fma(A[i, k:k+lanes], B[j, k:k+lanes], acc[i][j])
//         C[i, j] += reduce_add(acc[i][j])
//
// A block of B (block-n rows x k-block) stays in cache while every row block
// of A streams past it, and at M = 1 B is read exactly once at full
// bandwidth. The reduction's remainder (K not a multiple of the lanes) is one
// masked step. Runs on buffers, after bufferization, and replaces the linalg
// op with scf loops and vector operations.
//
//===----------------------------------------------------------------------===//

#include "raf/Transforms/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/LinalgInterfaces.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/IRMapping.h"

namespace raf {
#define GEN_PASS_DEF_RAFDOTPRODUCTCONTRACTION
#include "raf/Transforms/Passes.h.inc"
} // namespace raf

using namespace mlir;

namespace {

/// A contraction C[batch.., m, n] += A[batch.., m, k] * B[batch.., n, k] on
/// buffers, in any order of the batch/m/n results, with one k loop innermost
/// in both A and B (unit stride there). `dims` has exactly one m and one n
/// loop, the blocked ones; other row or column loops are listed as batch.
struct DotProductForm {
  linalg::ContractionDimensions dims;
  SmallVector<int64_t> ranges;
  Type elementType;
};

bool isInnermostUnitStride(Value buffer) {
  auto type = dyn_cast<MemRefType>(buffer.getType());
  return type && type.getRank() > 0 && type.isLastDimUnitStride();
}

std::optional<DotProductForm> matchDotProduct(linalg::LinalgOp op) {
  if (!op.hasPureBufferSemantics() || op.hasDynamicShape() ||
      op.getNumDpsInputs() != 2 || op.getNumDpsInits() != 1 ||
      !linalg::isaContractionOpInterface(op))
    return std::nullopt;
  FailureOr<linalg::ContractionDimensions> dims =
      linalg::inferContractionDims(op);
  if (failed(dims) || dims->m.empty() || dims->n.empty() ||
      dims->k.size() != 1)
    return std::nullopt;
  // Several row (or column) dimensions, as after a dense of a 3-D input
  // whose reshapes folded into the product (batch 1 x 128 rows): the
  // largest is blocked, the others are looped over like batch dimensions.
  SmallVector<int64_t> ranges = op.getStaticLoopRanges();
  for (SmallVector<unsigned, 2> *group : {&dims->m, &dims->n}) {
    auto largest = llvm::max_element(
        *group, [&](unsigned a, unsigned b) { return ranges[a] < ranges[b]; });
    unsigned keep = *largest;
    for (unsigned dim : *group)
      if (dim != keep)
        dims->batch.push_back(dim);
    *group = {keep};
  }
  Value a = op.getDpsInputOperand(0)->get();
  Value b = op.getDpsInputOperand(1)->get();
  Value c = op.getDpsInitOperand(0)->get();
  Type elementType = cast<MemRefType>(c.getType()).getElementType();
  if (!isa<FloatType>(elementType) ||
      cast<MemRefType>(a.getType()).getElementType() != elementType ||
      cast<MemRefType>(b.getType()).getElementType() != elementType)
    return std::nullopt;
  if (!isInnermostUnitStride(a) || !isInnermostUnitStride(b))
    return std::nullopt;
  SmallVector<AffineMap> maps = op.getIndexingMapsArray();
  unsigned k = dims->k.front();
  for (AffineMap map : maps)
    if (!map.isProjectedPermutation(/*allowZeroInResults=*/false))
      return std::nullopt;
  auto innermost = [](AffineMap map) {
    return cast<AffineDimExpr>(map.getResults().back()).getPosition();
  };
  if (maps[0].getNumResults() == 0 || maps[1].getNumResults() == 0 ||
      innermost(maps[0]) != k || innermost(maps[1]) != k)
    return std::nullopt;
  DotProductForm form{*dims, op.getStaticLoopRanges(), elementType};
  if (llvm::any_of(form.ranges, [](int64_t extent) { return extent <= 0; }))
    return std::nullopt;
  return form;
}

class DotProductEmitter {
public:
  DotProductEmitter(linalg::LinalgOp op, const DotProductForm &form,
                    int64_t lanes, int64_t blockM, int64_t blockN,
                    int64_t kBlock, bool parallel)
      : op(op), form(form), lanes(lanes), blockM(blockM), blockN(blockN),
        kBlock(kBlock), parallel(parallel), builder(op), loc(op.getLoc()) {
    maps = op.getIndexingMapsArray();
    a = op.getDpsInputOperand(0)->get();
    b = op.getDpsInputOperand(1)->get();
    c = op.getDpsInitOperand(0)->get();
    vectorType = VectorType::get({lanes}, form.elementType);
    loopValues.assign(form.ranges.size(), Value());
  }

  void emit() {
    emitBatchLoops(0, [&] {
      int64_t n = form.ranges[nDim()];
      int64_t nMain = n / blockN * blockN;
      emitColumns(0, nMain, blockN);
      emitColumns(nMain, n, 1);
    });
  }

private:
  unsigned kDim() const { return form.dims.k.front(); }
  unsigned mDim() const { return form.dims.m.front(); }
  unsigned nDim() const { return form.dims.n.front(); }

  Value constant(int64_t value) {
    return arith::ConstantIndexOp::create(builder, loc, value);
  }

  /// An scf.for from `lower` to `upper` by `step` whose body `body` builds at
  /// the insertion point, given the induction variable.
  void buildLoop(int64_t lower, int64_t upper, int64_t step,
                 llvm::function_ref<void(Value)> body) {
    if (lower >= upper)
      return;
    auto loop = scf::ForOp::create(builder, loc, constant(lower),
                                   constant(upper), constant(step));
    OpBuilder::InsertionGuard guard(builder);
    builder.setInsertionPoint(loop.getBody()->getTerminator());
    body(loop.getInductionVar());
  }

  void emitBatchLoops(unsigned position, llvm::function_ref<void()> body) {
    if (position == form.dims.batch.size())
      return body();
    unsigned dim = form.dims.batch[position];
    buildLoop(0, form.ranges[dim], 1, [&](Value index) {
      loopValues[dim] = index;
      emitBatchLoops(position + 1, body);
    });
  }

  /// Column blocks of `columnsInBlock` output columns in [lower, upper):
  /// the loop over them is the parallel one (each writes its own columns of
  /// C); inside, the K blocks, then every row block.
  void emitColumns(int64_t lower, int64_t upper, int64_t columnsInBlock) {
    if (lower >= upper)
      return;
    auto body = [&](Value n0) {
      int64_t kExtent = form.ranges[kDim()];
      int64_t kVector = kExtent / lanes * lanes;
      if (kVector > 0) {
        int64_t step = std::min(kBlock, kVector);
        buildLoop(0, kVector, step, [&](Value kStart) {
          Value kEnd = arith::MinSIOp::create(
              builder, loc,
              arith::AddIOp::create(builder, loc, kStart, constant(step)),
              constant(kVector));
          emitRows(n0, columnsInBlock, kStart, kEnd, /*masked=*/false);
        });
      }
      if (kVector < kExtent)
        emitRows(n0, columnsInBlock, constant(kVector), constant(kExtent),
                 /*masked=*/true);
    };
    if (!parallel)
      return buildLoop(lower, upper, columnsInBlock, body);
    auto loop = scf::ParallelOp::create(
        builder, loc, ValueRange{constant(lower)}, ValueRange{constant(upper)},
        ValueRange{constant(columnsInBlock)});
    OpBuilder::InsertionGuard guard(builder);
    builder.setInsertionPoint(loop.getBody()->getTerminator());
    body(loop.getInductionVars().front());
  }

  /// Every row block of columns [n0, n0 + columnsInBlock) for the reduction
  /// range [kStart, kEnd): full blocks, then the remaining rows one at a
  /// time.
  void emitRows(Value n0, int64_t columnsInBlock, Value kStart, Value kEnd,
                bool masked) {
    int64_t m = form.ranges[mDim()];
    int64_t mMain = m / blockM * blockM;
    buildLoop(0, mMain, blockM, [&](Value m0) {
      emitBlock(m0, n0, blockM, columnsInBlock, kStart, kEnd, masked);
    });
    buildLoop(mMain, m, 1, [&](Value m0) {
      emitBlock(m0, n0, 1, columnsInBlock, kStart, kEnd, masked);
    });
  }

  SmallVector<Value> indices(AffineMap map, Value m0, int64_t i, Value n0,
                             int64_t j, Value k) {
    SmallVector<Value> result;
    for (AffineExpr expr : map.getResults()) {
      unsigned dim = cast<AffineDimExpr>(expr).getPosition();
      if (dim == kDim())
        result.push_back(k);
      else if (dim == mDim())
        result.push_back(offset(m0, i));
      else if (dim == nDim())
        result.push_back(offset(n0, j));
      else
        result.push_back(loopValues[dim]);
    }
    return result;
  }

  Value offset(Value base, int64_t delta) {
    if (delta == 0)
      return base;
    return arith::AddIOp::create(builder, loc, base, constant(delta));
  }

  Value load(Value buffer, ValueRange at, bool masked) {
    if (!masked)
      return vector::LoadOp::create(builder, loc, vectorType, buffer, at);
    // The reduction's remainder: lanes past the end read zero.
    Value zero = arith::ConstantOp::create(
        builder, loc, builder.getFloatAttr(form.elementType, 0.0));
    return vector::TransferReadOp::create(builder, loc, vectorType, buffer,
                                          at, zero,
                                          ArrayRef<bool>{false});
  }

  void emitBlock(Value m0, Value n0, int64_t rowsInBlock,
                 int64_t columnsInBlock, Value kStart, Value kEnd,
                 bool masked) {
    Value zeroVector = arith::ConstantOp::create(
        builder, loc, vectorType,
        DenseElementsAttr::get(vectorType,
                               builder.getFloatAttr(form.elementType, 0.0)));
    SmallVector<Value> initial(rowsInBlock * columnsInBlock, zeroVector);
    auto loop = scf::ForOp::create(
        builder, loc, kStart, kEnd, constant(lanes), initial,
        [&](OpBuilder &nested, Location, Value k, ValueRange accumulators) {
          OpBuilder::InsertionGuard guard(builder);
          builder.setInsertionPoint(nested.getInsertionBlock(),
                                    nested.getInsertionPoint());
          SmallVector<Value> rowsA, rowsB;
          for (int64_t i = 0; i < rowsInBlock; ++i)
            rowsA.push_back(
                load(a, indices(maps[0], m0, i, n0, 0, k), masked));
          for (int64_t j = 0; j < columnsInBlock; ++j)
            rowsB.push_back(
                load(b, indices(maps[1], m0, 0, n0, j, k), masked));
          SmallVector<Value> updated;
          for (int64_t i = 0; i < rowsInBlock; ++i)
            for (int64_t j = 0; j < columnsInBlock; ++j)
              updated.push_back(vector::FMAOp::create(
                  builder, loc, rowsA[i], rowsB[j],
                  accumulators[i * columnsInBlock + j]));
          scf::YieldOp::create(builder, loc, updated);
        });
    // Lanes are partial sums of one output: any order of adding them is a
    // valid order of the reduction.
    for (int64_t i = 0; i < rowsInBlock; ++i)
      for (int64_t j = 0; j < columnsInBlock; ++j) {
        Value sum = vector::ReductionOp::create(
            builder, loc, vector::CombiningKind::ADD,
            loop.getResult(i * columnsInBlock + j),
            arith::FastMathFlags::reassoc);
        SmallVector<Value> at = indices(maps[2], m0, i, n0, j, Value());
        Value previous = memref::LoadOp::create(builder, loc, c, at);
        Value total = arith::AddFOp::create(builder, loc, previous, sum);
        memref::StoreOp::create(builder, loc, total, c, at);
      }
  }

  linalg::LinalgOp op;
  const DotProductForm &form;
  int64_t lanes, blockM, blockN, kBlock;
  bool parallel;
  OpBuilder builder;
  Location loc;
  SmallVector<AffineMap> maps;
  Value a, b, c;
  VectorType vectorType;
  SmallVector<Value> loopValues;
};

struct DotProductContraction
    : public raf::impl::RAFDotProductContractionBase<DotProductContraction> {
  using Base::Base;

  void runOnOperation() override {
    if (vectorBits < 64 || blockM < 1 || blockN < 1 || kBlock < 1) {
      getOperation().emitError()
          << "--raf-dot-product-contraction: vector-bits must be at least 64 "
             "and block-m, block-n, k-block at least 1";
      return signalPassFailure();
    }
    SmallVector<std::pair<linalg::LinalgOp, DotProductForm>> matches;
    getOperation().walk([&](linalg::LinalgOp op) {
      if (std::optional<DotProductForm> form = matchDotProduct(op))
        matches.emplace_back(op, *form);
    });
    for (auto &[op, form] : matches) {
      unsigned bits = form.elementType.getIntOrFloatBitWidth();
      int64_t lanes = std::max<int64_t>(1, vectorBits / bits);
      // The K block is a whole number of vector steps.
      int64_t block = std::max<int64_t>(lanes, kBlock / lanes * lanes);
      DotProductEmitter(op, form, lanes, blockM, blockN, block, parallel)
          .emit();
      op->erase();
    }
  }
};

} // namespace
