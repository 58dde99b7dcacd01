//===- Dispatch.cpp - choose a backend for every relay operator -----------===//
//
// RAF's DispatchDialect (RAF paper §3.2.1): every relay operator outside fused
// functions gets `relay.backend`, the top choice of its dispatch list.
//
//===----------------------------------------------------------------------===//

#include "raf/Dialect/Relay/Transforms/Passes.h"

#include "FusionGroup.h"
#include "raf/Dialect/Relay/IR/RelayOps.h"
#include "raf/Dialect/Relay/Transforms/BackendOptions.h"
#include "raf/Dialect/Relay/Transforms/BackendRegistry.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "llvm/ADT/StringExtras.h"

namespace raf::relay {
#define GEN_PASS_DEF_RAFDISPATCH
#include "raf/Dialect/Relay/Transforms/Passes.h.inc"
} // namespace raf::relay

using namespace mlir;
using namespace raf::relay;

namespace {
struct RafDispatch : public raf::relay::impl::RafDispatchBase<RafDispatch> {
  using Base::Base;

  LogicalResult initializeOptions(
      StringRef options,
      function_ref<LogicalResult(const Twine &)> errorHandler) override {
    if (failed(checkDeviceOption(getArgument(), options, errorHandler)))
      return failure();
    return Base::initializeOptions(options, errorHandler);
  }

  void runOnOperation() override {
    const BackendRegistry &registry = getBackendRegistry();
    FailureOr<BackendSelection> selection = resolveBackendSelection(
        getOperation(), registry, device, backendPreference, disableBackends);
    if (failed(selection))
      return signalPassFailure();

    bool failedAny = false;
    getOperation()->walk([&](FusionOpInterface op) {
      if (isInsideFusedFunction(op))
        return;
      std::optional<BackendOpEntry> entry = registry.dispatch(op, *selection);
      if (!entry) {
        reportNoBackend(registry, op, *selection);
        failedAny = true;
        return;
      }
      op->setAttr(kBackendAttr, StringAttr::get(&getContext(), entry->backend));
    });
    if (failedAny)
      signalPassFailure();
  }

  /// Says what was considered, so the user sees which option removed it.
  void reportNoBackend(const BackendRegistry &registry, Operation *op,
                       const BackendSelection &selection) {
    StringRef name = op->getName().getStringRef();
    InFlightDiagnostic diag =
        op->emitError() << "no usable backend for '" << name << "' on device '"
                        << stringifyDeviceKind(selection.device) << "'";
    SmallVector<std::string> candidates;
    for (const BackendOpEntry &entry :
         registry.dispatchList(name, selection.device, selection.preference))
      candidates.push_back(entry.backend + "@" +
                           std::to_string(entry.priority));
    diag.attachNote() << "dispatch list on this device"
                      << (selection.preference.empty() ? ""
                                                       : " after preference")
                      << ": [" << llvm::join(candidates, ", ")
                      << "], disabled: ["
                      << llvm::join(selection.disabled, ", ") << "]";
  }
};
} // namespace
