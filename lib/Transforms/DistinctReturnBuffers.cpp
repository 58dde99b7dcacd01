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
//===----------------------------------------------------------------------===//

#include "raf/Transforms/Passes.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "llvm/ADT/SmallPtrSet.h"

namespace raf {
#define GEN_PASS_DEF_RAFDISTINCTRETURNBUFFERS
#include "raf/Transforms/Passes.h.inc"
} // namespace raf

using namespace mlir;

namespace {

struct DistinctReturnBuffers
    : public raf::impl::RAFDistinctReturnBuffersBase<DistinctReturnBuffers> {
  void runOnOperation() override {
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
