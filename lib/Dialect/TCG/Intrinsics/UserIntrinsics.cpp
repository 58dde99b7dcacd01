//===- UserIntrinsics.cpp - intrinsics from a user's .mlir file -----------===//

#include "raf/Dialect/TCG/Intrinsics/UserIntrinsics.h"

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

FailureOr<embed::TensorExpression>
raf::tcg::lookupIntrinsic(MLIRContext *context, StringRef path,
                          StringRef name, Location loc) {
  if (path.empty())
    return lookupIntrinsic(context, name, loc);
  std::string message;
  std::unique_ptr<llvm::MemoryBuffer> buffer =
      openInputFile(path, &message);
  if (!buffer)
    return emitError(loc, "cannot read the intrinsic file '")
           << path << "': " << message;
  llvm::SourceMgr sourceMgr;
  sourceMgr.AddNewSourceBuffer(std::move(buffer), llvm::SMLoc());
  // Parse errors reach the context's handler with their place in the file.
  OwningOpRef<ModuleOp> library =
      parseSourceFile<ModuleOp>(sourceMgr, ParserConfig(context));
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
    return extractTensorExpr(kernel);
  if (llvm::is_contained(getIntrinsicNames(), name))
    return lookupIntrinsic(context, name, loc);
  InFlightDiagnostic diag = emitError(loc, "unknown intrinsic '")
                            << name << "'; in '" << path << "': ";
  llvm::interleaveComma(names, diag);
  diag << "; built in: ";
  llvm::interleaveComma(getIntrinsicNames(), diag);
  return diag;
}

