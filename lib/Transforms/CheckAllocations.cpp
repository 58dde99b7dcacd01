//===- CheckAllocations.cpp - static buffers within the allocation limit --===//
//
// A program whose intermediate does not fit in memory must be rejected when
// it is compiled, at the operation that needs the buffer: once compiled, the
// failed allocation would surface as a write through a null pointer.
//
//===----------------------------------------------------------------------===//

#include "raf/Transforms/Passes.h"

#include "raf/Support/AllocationLimit.h"

#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "llvm/Support/CheckedArithmetic.h"

namespace raf {
#define GEN_PASS_DEF_RAFCHECKALLOCATIONS
#include "raf/Transforms/Passes.h.inc"
} // namespace raf

using namespace mlir;

namespace {

struct CheckAllocations
    : public raf::impl::RAFCheckAllocationsBase<CheckAllocations> {
  using Base::Base;

  void runOnOperation() override {
    bool ok = true;
    getOperation().walk([&](Operation *op) {
      if (!isa<memref::AllocOp, memref::AllocaOp>(op))
        return;
      auto type = cast<MemRefType>(op->getResult(0).getType());
      if (!type.hasStaticShape() || !type.getElementType().isIntOrIndexOrFloat())
        return; // dynamic sizes are checked when the code runs
      uint64_t count = static_cast<uint64_t>(type.getNumElements());
      // index buffers (the deallocation pipeline's pointer lists) hold
      // 64-bit values on the hosts the CPU pipeline targets.
      uint64_t elementBits =
          type.getElementType().isIndex() ? 64 : type.getElementTypeBitWidth();
      uint64_t elementBytes = llvm::divideCeil(elementBits, 8);
      std::optional<std::string> problem;
      if (maxBytes != 0) {
        std::optional<uint64_t> bytes =
            llvm::checkedMulUnsigned(count, elementBytes);
        if (!bytes || *bytes > maxBytes)
          problem = "it exceeds max-bytes=" + std::to_string(maxBytes);
      } else {
        problem = raf::checkAllocationSize(count, elementBytes);
      }
      if (problem) {
        op->emitError() << "cannot allocate a buffer of type " << type << ": "
                        << *problem;
        ok = false;
      }
    });
    if (!ok)
      signalPassFailure();
  }
};

} // namespace
