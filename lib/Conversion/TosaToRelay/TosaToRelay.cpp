//===- TosaToRelay.cpp - the --convert-tosa-to-relay pass -----------------===//
//
// Checks the whole module first (a TOSA op without a pattern, or with types
// or attribute values the patterns cannot express, gets a located error and
// nothing is rewritten), then converts every TOSA op in one partial
// conversion.
//
// Operands TOSA passes as tensors but relay takes as attributes (zero
// points, shifts, pad values, `!tosa.shape` values) are read by the patterns
// of their users. Their producers (`tosa.const`, `tosa.const_shape`) stay
// legal during the conversion and are erased once nothing uses them, so no
// dead relay constants are left behind.
//
//===----------------------------------------------------------------------===//

#include "Patterns.h"

#include "raf/Conversion/Passes.h"
#include "raf/Dialect/Relay/IR/RelayDialect.h"

#include "mlir/Dialect/Tosa/IR/TosaOps.h"
#include "mlir/Transforms/DialectConversion.h"
#include "llvm/ADT/DenseSet.h"

namespace raf {
#define GEN_PASS_DEF_CONVERTTOSATORELAY
#include "raf/Conversion/Passes.h.inc"
} // namespace raf

using namespace mlir;
using namespace raf::tosa_to_relay;

namespace {

/// A constant whose only users take it as an attribute disappears with them.
bool isAttributeOnlyConstant(Operation *op) {
  if (!isa<tosa::ConstOp, tosa::ConstShapeOp>(op))
    return false;
  if (isa<tosa::ConstShapeOp>(op))
    return true;
  return !op->use_empty() &&
         llvm::all_of(op->getUses(),
                      [](OpOperand &use) { return isAttributeOperand(use); });
}

struct ConvertTosaToRelayPass
    : raf::impl::ConvertTosaToRelayBase<ConvertTosaToRelayPass> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    MLIRContext *context = &getContext();
    RewritePatternSet patterns(context);
    populateElementwisePatterns(patterns);
    populateNNPatterns(patterns);
    populateReductionPatterns(patterns);
    populateShapePatterns(patterns);

    llvm::DenseSet<OperationName> converted;
    for (const std::unique_ptr<RewritePattern> &pattern :
         patterns.getNativePatterns())
      if (std::optional<OperationName> root = pattern->getRootKind())
        converted.insert(*root);
    if (failed(checkModule(module, converted)))
      return signalPassFailure();

    ConversionTarget target(*context);
    target.addIllegalDialect<tosa::TosaDialect>();
    target.addLegalOp<tosa::ConstShapeOp>();
    target.addDynamicallyLegalOp<tosa::ConstOp>(
        [](Operation *op) { return isAttributeOnlyConstant(op); });
    target.markUnknownOpDynamicallyLegal([](Operation *) { return true; });
    if (failed(applyPartialConversion(module, target, std::move(patterns))))
      return signalPassFailure();

    module.walk([](Operation *op) {
      if (isa<tosa::ConstOp, tosa::ConstShapeOp>(op) && op->use_empty())
        op->erase();
    });
  }

  LogicalResult checkModule(ModuleOp module,
                            const llvm::DenseSet<OperationName> &converted) {
    bool ok = true;
    module.walk([&](Operation *op) {
      if (!isa_and_nonnull<tosa::TosaDialect>(op->getDialect()) ||
          isa<tosa::ConstShapeOp>(op))
        return;
      if (!converted.contains(op->getName())) {
        op->emitOpError() << "has no conversion to relay";
        ok = false;
        return;
      }
      ok &= succeeded(checkOperation(op));
    });
    return success(ok);
  }
};

} // namespace
