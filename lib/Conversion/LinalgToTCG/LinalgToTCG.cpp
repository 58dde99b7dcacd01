//===- LinalgToTCG.cpp - the --convert-linalg-to-tcg pass -----------------===//
//
// linalg convolutions, matrix products and multiply-accumulate generics
// (tcg::TensorExprOpInterface, lib/Dialect/TCG/IR/LinalgTensorExprModels.cpp)
// become tcg.kernels.
//
//===----------------------------------------------------------------------===//

#include "raf/Conversion/Passes.h"

#include "raf/Dialect/TCG/IR/TCGDialect.h"
#include "raf/Dialect/TCG/IR/TCGInterfaces.h"
#include "raf/Dialect/TCG/Utils/ConvertToKernel.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/BuiltinOps.h"

namespace raf {
#define GEN_PASS_DEF_CONVERTLINALGTOTCG
#include "raf/Conversion/Passes.h.inc"
} // namespace raf

using namespace mlir;
using namespace raf;

namespace {

struct ConvertLinalgToTCGPass
    : public raf::impl::ConvertLinalgToTCGBase<ConvertLinalgToTCGPass> {
  using Base::Base;

  void getDependentDialects(DialectRegistry &registry) const override {
    Base::getDependentDialects(registry);
    tcg::registerLinalgTensorExprModels(registry);
  }

  void runOnOperation() override {
    tcg::ConvertToKernelsOptions options;
    auto isLinalg = [](Operation *op) {
      return isa<linalg::LinalgDialect>(op->getDialect());
    };
    options.filter = isLinalg;
    options.unsupportedIsError = false;
    FailureOr<tcg::ConvertToKernelsResult> result =
        tcg::convertToKernels(getOperation(), options);
    if (failed(result))
      return signalPassFailure();
    if (result->converted == 0)
      emitRemark(getOperation().getLoc())
          << "--convert-linalg-to-tcg: no linalg operation was converted ("
          << result->leftAlone
          << " with a tensor-expression form could not be expressed); the "
             "pass converts convolutions, matmuls and multiply-accumulate "
             "linalg.generics on static tensors";
  }
};

} // namespace
