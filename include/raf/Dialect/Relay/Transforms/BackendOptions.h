//===- BackendOptions.h - backend choice of the passes ----------*- C++ -*-===//
//
// The tool-wide options `--raf-backend-preference=a,b` (RAF's
// DialectPreference, src/impl/dialect.cc) and `--raf-disable-backends=a,b`
// (disabled dialects, RAF paper §3.2.1), and the validation that turns a
// pass's device / preference / disabled options into a BackendSelection.
//
//===----------------------------------------------------------------------===//

#ifndef RAF_DIALECT_RELAY_TRANSFORMS_BACKENDOPTIONS_H
#define RAF_DIALECT_RELAY_TRANSFORMS_BACKENDOPTIONS_H

#include "raf/Dialect/Relay/Transforms/BackendRegistry.h"

#include "mlir/Support/LLVM.h"

namespace raf::relay {

/// Registers `--raf-backend-preference` and `--raf-disable-backends` with
/// the LLVM command line. Call before parsing it (raf-opt does). They give
/// the defaults `--raf-dispatch` and `--raf-fuse` use when their own
/// `backend-preference` / `disable-backends` options are empty.
void registerBackendOptions();

/// The values given on the command line; empty if not registered or not
/// given.
llvm::SmallVector<std::string> getCommandLineBackendPreference();
llvm::SmallVector<std::string> getCommandLineDisabledBackends();

/// Checks the `device` option of a pass created from text (`cpu` or
/// `cuda`; raf::checkEnumeratedOptions), for Pass::initializeOptions of
/// --raf-fuse and --raf-dispatch.
mlir::LogicalResult checkDeviceOption(
    llvm::StringRef pass, llvm::StringRef options,
    llvm::function_ref<mlir::LogicalResult(const llvm::Twine &)> errorHandler);

/// Validates a pass's options against `registry`: the device must be `cpu`
/// or `cuda` and every backend name must be registered. Empty lists fall
/// back to the command-line defaults. Errors are emitted at `anchor`.
mlir::FailureOr<BackendSelection>
resolveBackendSelection(mlir::Operation *anchor,
                        const BackendRegistry &registry, llvm::StringRef device,
                        llvm::ArrayRef<std::string> preference,
                        llvm::ArrayRef<std::string> disabled);

} // namespace raf::relay

#endif // RAF_DIALECT_RELAY_TRANSFORMS_BACKENDOPTIONS_H
