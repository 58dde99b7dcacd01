//===- IntrinsicLibrary.cpp - hardware intrinsics as tcg ------------------===//

#include "raf/Dialect/TCG/Intrinsics/IntrinsicLibrary.h"

#include "raf/Dialect/TCG/IR/TCGDialect.h"
#include "raf/Dialect/TCG/IR/TCGOps.h"
#include "raf/Dialect/TCG/Utils/TensorExpr.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"
#include "llvm/ADT/STLExtras.h"

using namespace mlir;
using namespace raf;
using namespace raf::tcg;

// `kIntrinsicLibrarySource`, generated from IntrinsicLibrary.mlir.
#include "IntrinsicLibrary.inc"

ArrayRef<StringRef> raf::tcg::getIntrinsicNames() {
  static const StringRef names[] = {"vta.gemm.1x16x16", "vta.gemm.8x8x8",
                                    "gemv.16x16", "dot.16"};
  return names;
}

StringRef raf::tcg::getIntrinsicLibrarySource() {
  return kIntrinsicLibrarySource;
}

OwningOpRef<ModuleOp> raf::tcg::parseIntrinsicLibrary(MLIRContext *context) {
  context->getOrLoadDialect<TCGDialect>();
  context->getOrLoadDialect<func::FuncDialect>();
  return parseSourceString<ModuleOp>(getIntrinsicLibrarySource(),
                                     ParserConfig(context),
                                     "IntrinsicLibrary.mlir");
}

/// The kernel of intrinsic `name` in `library`, which is parsed on demand;
/// errors at `loc`.
static FailureOr<KernelOp> lookupKernel(MLIRContext *context, StringRef name,
                                        std::optional<Location> loc,
                                        OwningOpRef<ModuleOp> &library) {
  Location where = loc.value_or(UnknownLoc::get(context));
  if (!llvm::is_contained(getIntrinsicNames(), name)) {
    InFlightDiagnostic diag = emitError(where, "unknown intrinsic '")
                              << name << "'; known intrinsics: ";
    llvm::interleaveComma(getIntrinsicNames(), diag);
    return diag;
  }
  library = parseIntrinsicLibrary(context);
  if (!library)
    return emitError(where, "the intrinsic library does not parse");
  KernelOp found;
  library->walk([&](KernelOp kernel) {
    if (kernel.getKernelName() == name)
      found = kernel;
  });
  if (!found)
    return emitError(where, "intrinsic '")
           << name << "' is missing from the intrinsic library";
  return found;
}

FailureOr<embed::TensorExpression>
raf::tcg::lookupIntrinsic(MLIRContext *context, StringRef name,
                          std::optional<Location> loc) {
  OwningOpRef<ModuleOp> library;
  FailureOr<KernelOp> kernel = lookupKernel(context, name, loc, library);
  if (failed(kernel))
    return failure();
  return extractTensorExpr(*kernel);
}

FailureOr<TensorizeAttr>
raf::tcg::lookupTensorize(MLIRContext *context, StringRef name,
                          std::optional<Location> loc) {
  OwningOpRef<ModuleOp> library;
  FailureOr<KernelOp> kernel = lookupKernel(context, name, loc, library);
  if (failed(kernel))
    return failure();
  if (auto attr = (*kernel)->getAttrOfType<TensorizeAttr>(
          TCGDialect::kTensorizeAttrName))
    return attr;
  return TensorizeAttr::get(context, StringAttr::get(context, name),
                            StringAttr(), {});
}
