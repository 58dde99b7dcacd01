//===- DistinctReturnBuffers.cpp - one buffer per returned result ---------===//
//
// A function may return the same value as two results (a training graph's
// batch-norm statistics, `return %y, %y`). After bufferization both results
// are the same buffer, and moving results into caller-provided out-params
// (upstream's --buffer-results-to-out-params with hoist-static-allocs, MLIR
// 22) then replaces that allocation by the first out-param and erases it,
// and visits the erased allocation again for the second result. Giving
// every repeated result its own copy first keeps the calling convention
// simple: each out-param is written once, by the code that computes it.
//
// A result that is a reshaped view of a local allocation (a product computed
// as a matrix and returned as NCHW, `memref.expand_shape %alloc`) would be
// copied into its out-param, since only an allocation itself can become one.
// Such an allocation is made in the returned shape instead, and its other
// users see it through a view, so the result is written in place.
//
//===----------------------------------------------------------------------===//

#include "raf/Transforms/Passes.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/Utils/ReshapeOpsUtils.h"
#include "llvm/ADT/SmallPtrSet.h"

namespace raf {
#define GEN_PASS_DEF_RAFDISTINCTRETURNBUFFERS
#include "raf/Transforms/Passes.h.inc"
} // namespace raf

using namespace mlir;

namespace {

/// The static, identity-layout allocation that `value` is a chain of
/// collapse/expand views of (null when it is not one, or is the allocation
/// itself).
memref::AllocOp getReshapedAllocation(Value value) {
  if (!value.getDefiningOp<memref::CollapseShapeOp>() &&
      !value.getDefiningOp<memref::ExpandShapeOp>())
    return nullptr;
  while (isa_and_nonnull<memref::CollapseShapeOp, memref::ExpandShapeOp>(
      value.getDefiningOp()))
    value = value.getDefiningOp()->getOperand(0);
  auto alloc = value.getDefiningOp<memref::AllocOp>();
  if (!alloc || !alloc.getType().hasStaticShape() ||
      !alloc.getType().getLayout().isIdentity() ||
      alloc.getType().getRank() == 0)
    return nullptr;
  return alloc;
}

/// Views of identity-layout buffers keep row-major order, so a returned view
/// of an allocation may be replaced by an allocation of the returned type
/// that the old allocation's users see through a view (collapsed to one
/// dimension and expanded to the old shape).
void returnAllocationsInPlace(func::ReturnOp ret) {
  llvm::SmallPtrSet<Operation *, 8> returnedAllocs;
  for (Value value : ret.getOperands())
    if (auto alloc = value.getDefiningOp<memref::AllocOp>())
      returnedAllocs.insert(alloc);
  for (OpOperand &operand : ret->getOpOperands()) {
    auto type = dyn_cast<MemRefType>(operand.get().getType());
    if (!type || !type.hasStaticShape() || !type.getLayout().isIdentity() ||
        type.getRank() == 0)
      continue;
    memref::AllocOp alloc = getReshapedAllocation(operand.get());
    if (!alloc || returnedAllocs.contains(alloc))
      continue;
    OpBuilder builder(alloc);
    Location loc = alloc.getLoc();
    auto replacement = memref::AllocOp::create(builder, loc, type, ValueRange{},
                                               alloc.getAlignmentAttr());
    Value view = replacement;
    MemRefType oldType = alloc.getType();
    if (type.getRank() != 1) {
      ReassociationIndices all =
          llvm::to_vector(llvm::seq<int64_t>(0, type.getRank()));
      view = memref::CollapseShapeOp::create(
          builder, loc, view, SmallVector<ReassociationIndices>{all});
    }
    if (oldType.getRank() != 1) {
      ReassociationIndices all =
          llvm::to_vector(llvm::seq<int64_t>(0, oldType.getRank()));
      view = memref::ExpandShapeOp::create(
          builder, loc, oldType.getShape(), view,
          SmallVector<ReassociationIndices>{all});
    }
    alloc.replaceAllUsesWith(view);
    alloc.erase();
    operand.set(replacement);
    returnedAllocs.insert(replacement);
  }
}

struct DistinctReturnBuffers
    : public raf::impl::RAFDistinctReturnBuffersBase<DistinctReturnBuffers> {
  void runOnOperation() override {
    getOperation().walk(returnAllocationsInPlace);
    getOperation().walk([](func::ReturnOp ret) {
      OpBuilder builder(ret);
      llvm::SmallPtrSet<Value, 8> seen;
      for (OpOperand &operand : ret->getOpOperands()) {
        Value value = operand.get();
        auto type = dyn_cast<MemRefType>(value.getType());
        if (!type || seen.insert(value).second)
          continue;
        // A repeated buffer: the later result gets a copy of its own.
        SmallVector<Value> dynamicSizes;
        for (auto [dim, size] : llvm::enumerate(type.getShape()))
          if (ShapedType::isDynamic(size))
            dynamicSizes.push_back(
                memref::DimOp::create(builder, ret.getLoc(), value, dim));
        Value copy = memref::AllocOp::create(builder, ret.getLoc(), type,
                                             dynamicSizes);
        memref::CopyOp::create(builder, ret.getLoc(), value, copy);
        operand.set(copy);
      }
    });
  }
};

} // namespace
