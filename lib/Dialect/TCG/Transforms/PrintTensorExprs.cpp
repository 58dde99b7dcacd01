//===- PrintTensorExprs.cpp - print the tensor expressions of kernels -----===//

#include "raf/Dialect/TCG/Transforms/Passes.h"

#include "raf/Dialect/TCG/IR/TCGOps.h"
#include "raf/Dialect/TCG/Utils/TensorExpr.h"
#include "raf/Dialect/TCG/Utils/TensorExprPrinter.h"

#include "llvm/Support/raw_ostream.h"

namespace raf::tcg {
#define GEN_PASS_DEF_TCGPRINTTENSOREXPRS
#include "raf/Dialect/TCG/Transforms/Passes.h.inc"
} // namespace raf::tcg

using namespace mlir;
using namespace raf::tcg;

namespace {

struct TCGPrintTensorExprsPass
    : public raf::tcg::impl::TCGPrintTensorExprsBase<TCGPrintTensorExprsPass> {
  void runOnOperation() override {
    bool failedAny = false;
    getOperation()->walk([&](KernelOp kernel) {
      FailureOr<raf::embed::TensorExpression> expr = extractTensorExpr(kernel);
      if (failed(expr)) {
        failedAny = true;
        return;
      }
      printTensorExpression(*expr, llvm::outs());
    });
    llvm::outs().flush();
    if (failedAny)
      signalPassFailure();
    markAllAnalysesPreserved();
  }
};

} // namespace
