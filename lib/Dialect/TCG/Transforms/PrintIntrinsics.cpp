//===- PrintIntrinsics.cpp - print the intrinsic library ------------------===//

#include "raf/Dialect/TCG/Transforms/Passes.h"

#include "raf/Dialect/TCG/IR/TCGDialect.h"
#include "raf/Dialect/TCG/IR/TCGOps.h"
#include "raf/Dialect/TCG/Intrinsics/IntrinsicLibrary.h"
#include "raf/Dialect/TCG/Utils/TensorExprPrinter.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/raw_ostream.h"

namespace raf::tcg {
#define GEN_PASS_DEF_TCGPRINTINTRINSICS
#include "raf/Dialect/TCG/Transforms/Passes.h.inc"
} // namespace raf::tcg

using namespace mlir;
using namespace raf::tcg;

namespace {

struct TCGPrintIntrinsicsPass
    : public raf::tcg::impl::TCGPrintIntrinsicsBase<TCGPrintIntrinsicsPass> {
  using Base::Base;

  void runOnOperation() override {
    MLIRContext *context = &getContext();
    Location loc = getOperation().getLoc();
    SmallVector<StringRef> selected;
    for (const std::string &name : names)
      selected.push_back(name);
    if (selected.empty())
      selected.assign(getIntrinsicNames().begin(), getIntrinsicNames().end());

    // Look every name up first, so that a misspelt one prints nothing.
    std::vector<raf::embed::TensorExpression> exprs;
    for (StringRef name : selected) {
      FailureOr<raf::embed::TensorExpression> expr =
          lookupIntrinsic(context, name, loc);
      if (failed(expr))
        return signalPassFailure();
      exprs.push_back(std::move(*expr));
    }

    OwningOpRef<ModuleOp> library = parseIntrinsicLibrary(context);
    if (!library)
      return signalPassFailure();
    llvm::raw_ostream &os = llvm::outs();
    os << "// The intrinsic library (raf::tcg::lookupIntrinsic).\n";
    for (auto [name, expr] : llvm::zip(selected, exprs)) {
      auto function = library->lookupSymbol<func::FuncOp>(name);
      // Every name of getIntrinsicNames() is a function (the library test
      // checks both lists).
      if (!function) {
        emitError(loc, "intrinsic '") << name << "' has no function";
        return signalPassFailure();
      }
      std::string text;
      llvm::raw_string_ostream exprText(text);
      printTensorExpression(expr, exprText);
      os << '\n';
      for (StringRef line : llvm::split(StringRef(text).rtrim('\n'), '\n'))
        os << "// " << line << '\n';
      function.print(os);
      os << '\n';
    }
    os.flush();
    markAllAnalysesPreserved();
  }
};

} // namespace
