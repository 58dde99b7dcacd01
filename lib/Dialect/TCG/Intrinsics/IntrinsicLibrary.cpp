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
  static const StringRef names[] = {
      "vta.gemm.1x16x16", "vta.gemm.8x8x8", "gemv.16x16", "dot.16",
      // Rieber 2022, Tab. 3.1.
      "vs.add.16", "vs.mul.16", "vs.sub.16", "vs.div.16", "vs.max.16",
      "vv.add.16", "vv.mul.16", "vv.sub.16", "vv.div.16", "vv.max.16",
      "vv.exp.16", "red.add.16", "red.mul.16", "red.max.16", "dot.add.add.16",
      "dot.add.mul.16", "dot.add.max.16", "dot.mul.add.16", "dot.mul.mul.16",
      "dot.mul.max.16", "dot.sub.add.16", "dot.sub.mul.16", "dot.sub.max.16",
      "dot.div.add.16", "dot.div.mul.16", "dot.div.max.16", "dot.max.add.16",
      "dot.max.mul.16", "dot.max.max.16", "dot.exp.add.16", "dot.exp.mul.16",
      "dot.exp.max.16", "mv.add.add.16x16", "mv.add.mul.16x16",
      "mv.add.max.16x16", "mv.mul.add.16x16", "mv.mul.mul.16x16",
      "mv.mul.max.16x16", "mv.sub.add.16x16", "mv.sub.mul.16x16",
      "mv.sub.max.16x16", "mv.div.add.16x16", "mv.div.mul.16x16",
      "mv.div.max.16x16", "mv.max.add.16x16", "mv.max.mul.16x16",
      "mv.max.max.16x16", "mv.exp.add.16x16", "mv.exp.mul.16x16",
      "mv.exp.max.16x16"};
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

FailureOr<KernelOp>
raf::tcg::lookupBuiltinIntrinsicKernel(MLIRContext *context, StringRef name,
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
  FailureOr<KernelOp> kernel =
      lookupBuiltinIntrinsicKernel(context, name, loc, library);
  if (failed(kernel))
    return failure();
  return extractTensorExpr(*kernel);
}

FailureOr<TensorizeAttr>
raf::tcg::lookupTensorize(MLIRContext *context, StringRef name,
                          std::optional<Location> loc) {
  OwningOpRef<ModuleOp> library;
  FailureOr<KernelOp> kernel =
      lookupBuiltinIntrinsicKernel(context, name, loc, library);
  if (failed(kernel))
    return failure();
  return getIntrinsicTensorize(*kernel, name);
}

TensorizeAttr raf::tcg::getIntrinsicTensorize(KernelOp kernel,
                                              StringRef name) {
  if (auto attr =
          kernel->getAttrOfType<TensorizeAttr>(TCGDialect::kTensorizeAttrName))
    return attr;
  MLIRContext *context = kernel.getContext();
  return TensorizeAttr::get(context, StringAttr::get(context, name),
                            StringAttr(), {});
}
