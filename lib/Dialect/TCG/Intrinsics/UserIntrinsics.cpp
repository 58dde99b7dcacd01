//===- UserIntrinsics.cpp - intrinsics from a user's .mlir file -----------===//

#include "raf/Dialect/TCG/Intrinsics/UserIntrinsics.h"

#include "raf/Dialect/TCG/IR/TCGDialect.h"
#include "raf/Dialect/TCG/IR/TCGOps.h"
#include "raf/Dialect/TCG/Intrinsics/IntrinsicLibrary.h"
#include "raf/Dialect/TCG/Utils/TensorExpr.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Support/FileUtilities.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/SourceMgr.h"

using namespace mlir;
using namespace raf;
using namespace raf::tcg;

/// Intrinsic `name` in the user's library at `path` (not empty), parsed into
/// `library`: its kernel, or a null kernel when the file does not define
/// `name` but the built-in library does. Errors as lookupIntrinsic.
static FailureOr<KernelOp> lookupUserKernel(MLIRContext *context,
                                            StringRef path, StringRef name,
                                            Location loc,
                                            OwningOpRef<ModuleOp> &library) {
  std::string message;
  std::unique_ptr<llvm::MemoryBuffer> buffer =
      openInputFile(path, &message);
  if (!buffer)
    return emitError(loc, "cannot read the intrinsic file '")
           << path << "': " << message;
  llvm::SourceMgr sourceMgr;
  sourceMgr.AddNewSourceBuffer(std::move(buffer), llvm::SMLoc());
  // Parse errors reach the context's handler with their place in the file.
  library = parseSourceFile<ModuleOp>(sourceMgr, ParserConfig(context));
  if (!library)
    return emitError(loc, "the intrinsic file '")
           << path << "' does not parse";
  llvm::StringMap<KernelOp> kernels;
  SmallVector<StringRef> names;
  WalkResult walk = library->walk([&](KernelOp kernel) -> WalkResult {
    std::optional<StringRef> kernelName = kernel.getKernelName();
    if (!kernelName || kernelName->empty()) {
      kernel.emitError() << "an intrinsic of '" << path
                         << "' needs a name (tcg.kernel \"name\" (...))";
      return WalkResult::interrupt();
    }
    auto [it, inserted] = kernels.try_emplace(*kernelName, kernel);
    if (!inserted) {
      InFlightDiagnostic diag = kernel.emitError()
                                << "intrinsic '" << *kernelName
                                << "' is defined twice in '" << path << "'";
      diag.attachNote(it->second.getLoc()) << "first defined here";
      return WalkResult::interrupt();
    }
    names.push_back(it->first());
    return WalkResult::advance();
  });
  if (walk.wasInterrupted())
    return failure();
  if (kernels.empty())
    return emitError(loc, "the intrinsic file '")
           << path << "' holds no tcg.kernel";
  if (KernelOp kernel = kernels.lookup(name))
    return kernel;
  if (llvm::is_contained(getIntrinsicNames(), name))
    return KernelOp();
  InFlightDiagnostic diag = emitError(loc, "unknown intrinsic '")
                            << name << "'; in '" << path << "': ";
  llvm::interleaveComma(names, diag);
  diag << "; built in: ";
  llvm::interleaveComma(getIntrinsicNames(), diag);
  return diag;
}

FailureOr<KernelOp>
raf::tcg::lookupIntrinsicKernel(MLIRContext *context, StringRef path,
                                StringRef name, Location loc,
                                OwningOpRef<ModuleOp> &library) {
  if (!path.empty()) {
    FailureOr<KernelOp> kernel =
        lookupUserKernel(context, path, name, loc, library);
    if (failed(kernel) || *kernel)
      return kernel;
  }
  return lookupBuiltinIntrinsicKernel(context, name, loc, library);
}

FailureOr<embed::TensorExpression>
raf::tcg::lookupIntrinsic(MLIRContext *context, StringRef path, StringRef name,
                          Location loc) {
  OwningOpRef<ModuleOp> library;
  FailureOr<KernelOp> kernel =
      lookupIntrinsicKernel(context, path, name, loc, library);
  if (failed(kernel))
    return failure();
  return extractTensorExpr(*kernel);
}

FailureOr<TensorizeAttr> raf::tcg::lookupTensorize(MLIRContext *context,
                                                   StringRef path,
                                                   StringRef name,
                                                   Location loc) {
  OwningOpRef<ModuleOp> library;
  FailureOr<KernelOp> kernel =
      lookupIntrinsicKernel(context, path, name, loc, library);
  if (failed(kernel))
    return failure();
  return getIntrinsicTensorize(*kernel, name);
}

FailureOr<SmallVector<std::string>>
raf::tcg::getIntrinsicNames(MLIRContext *context, StringRef path,
                            Location loc) {
  SmallVector<std::string> names;
  if (!path.empty()) {
    // Any name makes the file parse and be checked; its kernels follow.
    OwningOpRef<ModuleOp> library;
    FailureOr<KernelOp> kernel = lookupUserKernel(
        context, path, getIntrinsicNames().front(), loc, library);
    if (failed(kernel))
      return failure();
    library->walk(
        [&](KernelOp k) { names.push_back(k.getKernelName()->str()); });
  }
  for (StringRef name : getIntrinsicNames())
    if (!llvm::is_contained(names, name))
      names.push_back(name.str());
  return names;
}
