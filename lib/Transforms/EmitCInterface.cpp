//===- EmitCInterface.cpp - request C wrappers for public functions -------===//

#include "raf/Transforms/Passes.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"

namespace raf {
#define GEN_PASS_DEF_RAFEMITCINTERFACE
#include "raf/Transforms/Passes.h.inc"
} // namespace raf

using namespace mlir;

namespace {
struct EmitCInterface
    : public raf::impl::RAFEmitCInterfaceBase<EmitCInterface> {
  void runOnOperation() override {
    for (auto function : getOperation().getOps<func::FuncOp>())
      if (function.isPublic() && !function.isExternal())
        function->setAttr(LLVM::LLVMDialect::getEmitCWrapperAttrName(),
                          UnitAttr::get(&getContext()));
  }
};
} // namespace
