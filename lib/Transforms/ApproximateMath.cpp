//===- ApproximateMath.cpp - vectorisable erf, exp and tanh ---------------===//
//
// `--convert-math-to-libm` turns `math.erf` and `math.tanh` into calls of
// libm's `erff`/`tanhf`, and LLVM lowers `llvm.exp` to `expf`: one scalar
// call per element, which neither MLIR's vector lowering nor LLVM's loop
// vectoriser can widen without a vector math library. In a BERT encoder
// layer the GELU's erf alone was 9 % of a forward's samples
// (bench/results/cpu.md). Here the f32 forms of the chosen functions are
// replaced by MLIR's polynomial and rational approximations (upstream
// `populateMathPolynomialApproximationPatterns`: exp after Cephes
// (Moshier 1989), tanh after Eigen's rational approximation, erf as a
// piecewise rational minimax fit), which are plain arithmetic and vectorise
// like any other elementwise code. f16 and bf16 operands are computed in f32
// and rounded back; f64 keeps libm.
//
//===----------------------------------------------------------------------===//

#include "raf/Transforms/Passes.h"

#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/Math/Transforms/Passes.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

#include "llvm/ADT/StringSet.h"

namespace raf {
#define GEN_PASS_DEF_RAFAPPROXIMATEMATH
#include "raf/Transforms/Passes.h.inc"
} // namespace raf

using namespace mlir;

namespace {

/// The functions `functions=` may name, and the default set.
constexpr llvm::StringLiteral kSupported[] = {"erf", "exp", "tanh"};

struct ApproximateMath
    : public raf::impl::RAFApproximateMathBase<ApproximateMath> {
  using Base::Base;

  void runOnOperation() override {
    llvm::StringSet<> chosen;
    for (const std::string &name : functions) {
      if (!llvm::is_contained(kSupported, name)) {
        getOperation()->emitError()
            << "--raf-approximate-math: unknown function '" << name
            << "' (supported: erf, exp, tanh)";
        return signalPassFailure();
      }
      chosen.insert("math." + name);
    }
    if (functions.empty())
      for (StringRef name : kSupported)
        chosen.insert(("math." + name).str());
    auto predicate = [&](StringRef operation) {
      return chosen.contains(operation);
    };
    RewritePatternSet patterns(&getContext());
    populateMathF32ExpansionPatterns(patterns, predicate);
    populateMathPolynomialApproximationPatterns(patterns, predicate);
    if (failed(applyPatternsGreedily(getOperation(), std::move(patterns))))
      return signalPassFailure();
  }
};

} // namespace
