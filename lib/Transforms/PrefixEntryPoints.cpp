//===- PrefixEntryPoints.cpp - prefix the exported function names ---------===//
//
// A relay module's entry is usually `@main`; compiled as is, its symbol (and
// `_mlir_ciface_main`) clashes with the `main` of a C program the object is
// linked into. The public functions get a prefix instead.
//
//===----------------------------------------------------------------------===//

#include "raf/Transforms/Passes.h"

#include "mlir/IR/SymbolTable.h"

namespace raf {
#define GEN_PASS_DEF_RAFPREFIXENTRYPOINTS
#include "raf/Transforms/Passes.h.inc"
} // namespace raf

using namespace mlir;

namespace {
struct PrefixEntryPoints
    : public raf::impl::RAFPrefixEntryPointsBase<PrefixEntryPoints> {
  using Base::Base;

  void runOnOperation() override {
    if (prefix.empty())
      return;
    ModuleOp module = getOperation();
    SymbolTable symbols(module);
    SmallVector<func::FuncOp> entries;
    for (auto function : module.getOps<func::FuncOp>())
      if (function.isPublic() && !function.isExternal())
        entries.push_back(function);
    // Every new name is checked before any function is renamed.
    bool clash = false;
    for (func::FuncOp function : entries) {
      std::string name = prefix + function.getSymName().str();
      if (Operation *other = symbols.lookup(name)) {
        InFlightDiagnostic diagnostic = mlir::emitError(function.getLoc())
                                        << "cannot export @"
                                        << function.getSymName() << " as @"
                                        << name
                                        << ": the module has a symbol of "
                                           "that name";
        diagnostic.attachNote(other->getLoc()) << "@" << name << " is here";
        clash = true;
      }
    }
    if (clash)
      return signalPassFailure();
    for (func::FuncOp function : entries) {
      auto name = StringAttr::get(&getContext(),
                                  prefix + function.getSymName().str());
      if (failed(symbols.rename(function, name)))
        return signalPassFailure();
    }
  }
};
} // namespace
