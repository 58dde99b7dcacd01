//===- RelayToTCG.cpp - the --convert-relay-to-tcg pass -------------------===//

#include "raf/Conversion/Passes.h"

#include "raf/Conversion/RelayToTCG/TensorExprModels.h"
#include "raf/Dialect/Relay/IR/RelayDialect.h"
#include "raf/Dialect/TCG/IR/TCGDialect.h"
#include "raf/Dialect/TCG/IR/TCGInterfaces.h"
#include "raf/Dialect/TCG/Utils/ConvertToKernel.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinOps.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringSet.h"

namespace raf {
#define GEN_PASS_DEF_CONVERTRELAYTOTCG
#include "raf/Conversion/Passes.h.inc"
} // namespace raf

using namespace mlir;
using namespace raf;

namespace {

struct ConvertRelayToTCGPass
    : public raf::impl::ConvertRelayToTCGBase<ConvertRelayToTCGPass> {
  using Base::Base;

  void getDependentDialects(DialectRegistry &registry) const override {
    Base::getDependentDialects(registry);
    relay::registerTensorExprModels(registry);
  }

  /// The full names (relay.nn.conv2d) of the operators in `ops`; fails with
  /// an error when one is unknown or has no tensor-expression form.
  FailureOr<llvm::StringSet<>> getSelectedOps() {
    MLIRContext *context = &getContext();
    Location loc = getOperation().getLoc();
    llvm::StringSet<> selected;
    for (StringRef name : ops) {
      std::string full =
          name.starts_with("relay.") ? name.str() : "relay." + name.str();
      std::optional<RegisteredOperationName> info =
          RegisteredOperationName::lookup(full, context);
      if (!info)
        return emitError(loc, "--convert-relay-to-tcg: unknown operator '")
               << name << "'";
      if (!info->hasInterface<tcg::TensorExprOpInterface>()) {
        InFlightDiagnostic diag =
            emitError(loc, "--convert-relay-to-tcg: '")
            << full
            << "' has no tensor-expression form (TensorExprOpInterface); "
               "operators with one: ";
        SmallVector<StringRef> known;
        for (RegisteredOperationName op : context->getRegisteredOperations())
          if (op.getDialectNamespace() == "relay" &&
              op.hasInterface<tcg::TensorExprOpInterface>())
            known.push_back(op.getStringRef());
        llvm::sort(known);
        llvm::interleaveComma(known, diag);
        return diag;
      }
      selected.insert(full);
    }
    return selected;
  }

  void runOnOperation() override {
    FailureOr<llvm::StringSet<>> selected = getSelectedOps();
    if (failed(selected))
      return signalPassFailure();

    // Convert every candidate, so that all unsupported ones are reported.
    tcg::ConvertToKernelsOptions options;
    auto filter = [&](Operation *op) {
      return isa<relay::RelayDialect>(op->getDialect()) &&
             (selected->empty() ||
              selected->contains(op->getName().getStringRef()));
    };
    options.filter = filter;
    options.unsupportedIsError = true;
    if (failed(tcg::convertToKernels(getOperation(), options)))
      signalPassFailure();
  }
};

} // namespace
