//===- DataflowEmbed.cpp - --tcg-dataflow-embed ---------------------------===//
//
// Runs the dataflow embedding (raf/Embedding/DataflowEmbedding.h) on every
// tcg.kernel and records the result as a `#tcg.embedding` attribute.
// Operations of other dialects with a tensor-expression form
// (tcg::TensorExprOpInterface) become kernels first; intrinsics come from a
// user's .mlir file or the built-in library.
//
//===----------------------------------------------------------------------===//

#include "raf/Dialect/TCG/Transforms/Passes.h"

#include "raf/Dialect/TCG/IR/TCGDialect.h"
#include "raf/Dialect/TCG/IR/TCGInterfaces.h"
#include "raf/Dialect/TCG/IR/TCGOps.h"
#include "raf/Dialect/TCG/Intrinsics/UserIntrinsics.h"
#include "raf/Dialect/TCG/TopDown/Matcher.h"
#include "raf/Dialect/TCG/Transforms/EmbeddingAttr.h"
#include "raf/Dialect/TCG/Utils/ConvertToKernel.h"
#include "raf/Dialect/TCG/Utils/TensorExpr.h"
#include "raf/Embedding/DataflowEmbedding.h"
#include "raf/Support/PassOptions.h"
#include "raf/Support/ResourceLimits.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/Builders.h"

#include "llvm/Support/CheckedArithmetic.h"

namespace raf::tcg {
#define GEN_PASS_DEF_TCGDATAFLOWEMBED
#include "raf/Dialect/TCG/Transforms/Passes.h.inc"
} // namespace raf::tcg

using namespace mlir;
using namespace raf;
using namespace raf::tcg;

namespace {

/// Refuses an operator whose iteration domain exceeds the resource limits
/// (docs/resource-limits.md) before its dataflow graph or constraint problem
/// is built: the model enumerates tile origins along every iterator, so its
/// time and memory grow with the extents.
std::optional<std::string>
checkDomainSize(const embed::TensorExpression &expr) {
  uint64_t points = 1;
  bool overflow = false;
  for (const embed::Iterator &iterator : expr.Iterators) {
    uint64_t extent =
        static_cast<uint64_t>(std::max<int64_t>(iterator.Extent, 0));
    if (std::optional<std::string> problem =
            checkResourceLimit(ResourceLimit::EmbeddingExtent, extent))
      return "iterator '" + iterator.Name + "': " + *problem;
    std::optional<uint64_t> product = llvm::checkedMulUnsigned(points, extent);
    overflow |= !product;
    points = product.value_or(UINT64_MAX);
  }
  if (overflow)
    return "the iteration domain: " +
           describeOverflow(ResourceLimit::EmbeddingPoints, "its points");
  if (std::optional<std::string> problem =
          checkResourceLimit(ResourceLimit::EmbeddingPoints, points))
    return "the iteration domain: " + *problem;
  return std::nullopt;
}

struct TCGDataflowEmbedPass
    : public raf::tcg::impl::TCGDataflowEmbedBase<TCGDataflowEmbedPass> {
  using Base::Base;

  LogicalResult initializeOptions(
      StringRef options,
      function_ref<LogicalResult(const Twine &)> errorHandler) override {
    if (failed(raf::checkEnumeratedOptions(getArgument(), options,
                                           {{"mode", {"strict", "relaxed"}}},
                                           errorHandler)))
      return failure();
    return Base::initializeOptions(options, errorHandler);
  }

  void getDependentDialects(DialectRegistry &registry) const override {
    Base::getDependentDialects(registry);
    registerLinalgTensorExprModels(registry);
  }

  void runOnOperation() override {
    ModuleOp module = getOperation();
    MLIRContext *context = &getContext();
    embed::EmbeddingOptions options;
    options.SearchMode = mode == EmbeddingMode::Strict
                             ? embed::EmbeddingOptions::Mode::Strict
                             : embed::EmbeddingOptions::Mode::Relaxed;
    options.MaxCandidates = maxCandidates;
    options.TimeoutMs = timeout;
    options.MaxStride = maxStride;
    options.MaxDimensions = maxDimensions;
    options.MaxAssets = maxAssets;
    options.DomainBound = domainBound;
    options.WeightMac = weightMac;
    options.WeightData = weightData;
    options.CountLimit = countLimit;
    options.VerifyWithIsl = verifyIsl;

    OwningOpRef<ModuleOp> library;
    FailureOr<KernelOp> intrinsicKernel = lookupIntrinsicKernel(
        context, intrinsicsFile, intrinsic, module.getLoc(), library);
    if (failed(intrinsicKernel))
      return signalPassFailure();
    // A reduction stride (topdown.stride, Rieber 2022, §3.1.1) is a
    // top-down intrinsic property the loop nest read here does not show.
    if (topdown::hasReductionStride(*intrinsicKernel)) {
      emitError(module.getLoc())
          << "intrinsic '" << intrinsic << "' has a reduction stride ('"
          << topdown::kStrideAttrName
          << "'), which only the top-down passes read";
      return signalPassFailure();
    }
    FailureOr<embed::TensorExpression> intrinsicExpr =
        extractTensorExpr(*intrinsicKernel);
    if (failed(intrinsicExpr))
      return signalPassFailure();
    auto intrinsicGraph = embed::buildDataflowGraph(*intrinsicExpr);
    if (!intrinsicGraph) {
      emitError(module.getLoc())
          << "intrinsic '" << intrinsic
          << "': " << llvm::toString(intrinsicGraph.takeError());
      return signalPassFailure();
    }

    // Operations of other dialects with a tensor-expression form become
    // kernels; one that cannot be expressed stays, with a remark.
    ConvertToKernelsResult converted;
    if (convert) {
      ConvertToKernelsOptions convertOptions;
      convertOptions.unsupportedIsError = false;
      converted = *convertToKernels(module, convertOptions);
    }

    unsigned numKernels = 0;
    module.walk([&](KernelOp) { ++numKernels; });
    if (numKernels == 0) {
      InFlightDiagnostic diag =
          requireKernels ? emitError(module.getLoc())
                         : emitRemark(module.getLoc());
      diag << "--tcg-dataflow-embed: nothing to embed: no tcg.kernel";
      if (!convert)
        diag << " (convert=false: operations with a tensor-expression form "
                "are not converted)";
      else if (converted.leftAlone)
        diag << "; " << converted.leftAlone
             << " operation(s) with a tensor-expression form could not be "
                "expressed (see their remarks)";
      else
        diag << " and no operation with a tensor-expression form (relay "
                "and linalg convolutions, matmuls, multiply-accumulate "
                "linalg.generics)";
      if (requireKernels)
        signalPassFailure();
      return;
    }

    bool failedAny = false;
    module.walk([&](KernelOp kernel) {
      FailureOr<embed::TensorExpression> expr = extractTensorExpr(kernel);
      if (failed(expr)) {
        failedAny = true;
        return;
      }
      if (std::optional<std::string> problem = checkDomainSize(*expr)) {
        kernel.emitError() << "cannot embed '" << intrinsic
                           << "': " << *problem;
        failedAny = true;
        return;
      }
      auto graph = embed::buildDataflowGraph(
          *expr,
          embed::choosePadding(*expr, *intrinsicExpr, options.SearchMode));
      if (!graph) {
        kernel.emitError() << "no dataflow graph: "
                           << llvm::toString(graph.takeError());
        failedAny = true;
        return;
      }
      embed::EmbeddingResult result =
          embed::embedIntrinsic(*graph, *intrinsicGraph, options);
      using Status = embed::EmbeddingResult::Status;
      if (result.S != Status::Found) {
        InFlightDiagnostic diag = kernel.emitError()
                                  << "cannot embed '" << intrinsic << "' ("
                                  << stringifyEmbeddingMode(mode)
                                  << "): " << result.Message;
        failedAny = true;
        return;
      }
      if (result.LimitReached)
        kernel.emitWarning()
            << "the time limit of " << embed::describeTimeLimit(timeout)
            << " stopped the search "
            << "for '" << intrinsic << "' after " << result.Candidates.size()
            << " embedding(s); the best is not proven optimal";
      kernel->setAttr(TCGDialect::kEmbeddingAttrName,
                      buildEmbeddingAttr(context, *intrinsicGraph, mode, result,
                                         reportTime));
    });
    if (failedAny)
      signalPassFailure();
  }
};

} // namespace
