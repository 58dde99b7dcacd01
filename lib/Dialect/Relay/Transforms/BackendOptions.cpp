//===- BackendOptions.cpp - backend choice of the passes ------------------===//

#include "raf/Dialect/Relay/Transforms/BackendOptions.h"

#include "raf/Support/PassOptions.h"

#include "mlir/IR/Diagnostics.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/ManagedStatic.h"

using namespace mlir;
using namespace raf::relay;

namespace {
struct BackendCommandLineOptions {
  llvm::cl::list<std::string> preference{
      "raf-backend-preference",
      llvm::cl::desc("Backends --raf-dispatch and --raf-fuse may use, in "
                     "order of preference (default of their "
                     "backend-preference option)"),
      llvm::cl::CommaSeparated};
  llvm::cl::list<std::string> disabled{
      "raf-disable-backends",
      llvm::cl::desc("Backends --raf-dispatch and --raf-fuse must not use "
                     "(default of their disable-backends option)"),
      llvm::cl::CommaSeparated};
};
} // namespace

static llvm::ManagedStatic<BackendCommandLineOptions> commandLineOptions;

void raf::relay::registerBackendOptions() { *commandLineOptions; }

llvm::SmallVector<std::string> raf::relay::getCommandLineBackendPreference() {
  if (!commandLineOptions.isConstructed())
    return {};
  return llvm::SmallVector<std::string>(commandLineOptions->preference.begin(),
                                        commandLineOptions->preference.end());
}

llvm::SmallVector<std::string> raf::relay::getCommandLineDisabledBackends() {
  if (!commandLineOptions.isConstructed())
    return {};
  return llvm::SmallVector<std::string>(commandLineOptions->disabled.begin(),
                                        commandLineOptions->disabled.end());
}

/// Checks that every name is a registered backend.
static LogicalResult checkBackendNames(Operation *anchor,
                                       const BackendRegistry &registry,
                                       StringRef what,
                                       ArrayRef<std::string> names) {
  for (const std::string &name : names) {
    if (registry.hasBackend(name))
      continue;
    return emitError(anchor->getLoc())
           << "unknown backend '" << name << "' in " << what
           << " (registered: " << llvm::join(registry.getBackendNames(), ", ")
           << ")";
  }
  return success();
}

FailureOr<BackendSelection> raf::relay::resolveBackendSelection(
    Operation *anchor, const BackendRegistry &registry, StringRef device,
    ArrayRef<std::string> preference, ArrayRef<std::string> disabled) {
  BackendSelection selection;
  std::optional<DeviceKind> deviceKind = parseDeviceKind(device);
  if (!deviceKind)
    return emitError(anchor->getLoc())
           << "unknown device '" << device << "' (expected 'cpu' or 'cuda')";
  selection.device = *deviceKind;

  selection.preference = preference.empty()
                             ? getCommandLineBackendPreference()
                             : llvm::SmallVector<std::string>(preference);
  selection.disabled = disabled.empty()
                           ? getCommandLineDisabledBackends()
                           : llvm::SmallVector<std::string>(disabled);
  if (failed(checkBackendNames(anchor, registry, "the backend preference",
                               selection.preference)) ||
      failed(checkBackendNames(anchor, registry, "the disabled backends",
                               selection.disabled)))
    return failure();
  return selection;
}

LogicalResult raf::relay::checkDeviceOption(
    StringRef pass, StringRef options,
    function_ref<LogicalResult(const Twine &)> errorHandler) {
  return raf::checkEnumeratedOptions(
      pass, options,
      {{"device",
        {stringifyDeviceKind(DeviceKind::CPU),
         stringifyDeviceKind(DeviceKind::CUDA)}}},
      errorHandler);
}
