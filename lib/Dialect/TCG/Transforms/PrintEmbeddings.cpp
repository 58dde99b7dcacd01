//===- PrintEmbeddings.cpp - --tcg-print-embeddings -----------------------===//

#include "raf/Dialect/TCG/Transforms/Passes.h"

#include "raf/Dialect/TCG/IR/TCGDialect.h"
#include "raf/Dialect/TCG/IR/TCGOps.h"
#include "raf/Dialect/TCG/Intrinsics/IntrinsicLibrary.h"
#include "raf/Dialect/TCG/Intrinsics/UserIntrinsics.h"
#include "raf/Dialect/TCG/Transforms/EmbeddingAttr.h"
#include "raf/Dialect/TCG/TopDown/Matcher.h"
#include "raf/Dialect/TCG/Transforms/Strategy.h"
#include "raf/Dialect/TCG/Utils/TensorExpr.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"

#include "llvm/Support/Format.h"
#include "llvm/Support/raw_ostream.h"

namespace raf::tcg {
#define GEN_PASS_DEF_TCGPRINTEMBEDDINGS
#include "raf/Dialect/TCG/Transforms/Passes.h.inc"
} // namespace raf::tcg

using namespace mlir;
using namespace raf::tcg;

namespace {

using raf::embed::AxisMappings;
using raf::embed::Embedding;
using raf::embed::TensorExpression;

/// "kw 8, kh 2 (stride 2)"; "-" if the axis covers nothing.
void printAxis(raw_ostream &os, const AxisMappings &axis,
               llvm::function_ref<std::string(unsigned)> name) {
  if (axis.empty()) {
    os << "-";
    return;
  }
  llvm::interleaveComma(axis, os, [&](const raf::embed::AxisMapping &map) {
    os << name(map.Dim) << " " << map.Length;
    if (map.Stride != 1)
      os << " (stride " << map.Stride << ")";
  });
}

void printRatio(raw_ostream &os, uint64_t total, uint64_t min) {
  os << total << " / " << min;
  if (min > 0)
    os << llvm::format(" (x%.3f)", static_cast<double>(total) / min);
}

/// The mapping, cost and strategy of one embedding, named after the
/// kernel's and the intrinsic's iterators and operands.
void printFields(raw_ostream &os, const Embedding &emb, StringRef indent,
                 const TensorExpression &expr,
                 const TensorExpression &intrinsic) {
  auto iteratorName = [&](unsigned d) { return expr.Iterators[d].Name; };
  auto viewName = [](unsigned d) { return "d" + std::to_string(d); };
  for (auto [axis, mapping] : llvm::zip(intrinsic.Iterators, emb.Iterators)) {
    os << indent << axis.Name << ": ";
    printAxis(os, mapping, iteratorName);
    os << "\n";
  }
  for (const raf::embed::OperandEmbedding &operand : emb.Operands) {
    os << indent << operand.IntrinsicOperand << " -> "
       << operand.OperatorOperand << ":";
    for (const AxisMappings &dim : operand.Dims) {
      os << " [";
      printAxis(os, dim, viewName);
      os << "]";
    }
    os << "\n";
  }
  // Iterators the tiling pads (executed extent above the extent).
  os << indent << "padding:";
  bool any = false;
  for (auto [d, extent, executed] :
       llvm::enumerate(emb.Extents, emb.Executed)) {
    if (executed == extent)
      continue;
    os << (any ? ", " : " ") << iteratorName(d) << " " << extent << " -> "
       << executed;
    any = true;
  }
  os << (any ? "\n" : " none\n");
  os << indent << "cost " << emb.Cost << ": MAC ";
  printRatio(os, emb.MacTotal, emb.MacMin);
  os << ", data ";
  printRatio(os, emb.DataTotal, emb.DataMin);
  os << ", memory access " << (emb.MemoryAccess ? "kept" : "duplicated")
     << "\n";
  Strategy strategy;
  std::string error;
  if (!deriveStrategy(expr, intrinsic, emb, strategy, error)) {
    os << indent << "strategy: none (" << error << ")\n";
    return;
  }
  for (const OperandStrategy &operand : strategy.operands) {
    os << indent << "strategy: ";
    printOperandStrategy(operand, os);
    os << "\n";
  }
}

struct TCGPrintEmbeddingsPass
    : public raf::tcg::impl::TCGPrintEmbeddingsBase<TCGPrintEmbeddingsPass> {
  using Base::Base;

  /// Prints the report of `kernel`; fails (with an error at the kernel)
  /// when the attribute does not fit the kernel or names an unknown
  /// intrinsic.
  LogicalResult print(raw_ostream &os, KernelOp kernel, EmbeddingAttr attr);

  void runOnOperation() override {
    raw_ostream &os = llvm::outs();
    bool failedAny = false;
    getOperation().walk([&](KernelOp kernel) {
      if (auto attr = kernel->getAttrOfType<EmbeddingAttr>(
              TCGDialect::kEmbeddingAttrName))
        failedAny |= failed(print(os, kernel, attr));
    });
    if (failedAny)
      signalPassFailure();
  }
};

LogicalResult TCGPrintEmbeddingsPass::print(raw_ostream &os, KernelOp kernel,
                                            EmbeddingAttr attr) {
  StringRef intrinsicName = attr.getIntrinsic().getValue();
  FailureOr<TensorExpression> expr = extractTensorExpr(kernel);
  if (failed(expr))
    return failure();
  FailureOr<TensorExpression> intrinsic =
      lookupIntrinsic(kernel.getContext(), intrinsicsFile, intrinsicName,
                      kernel.getLoc());
  if (failed(intrinsic))
    return failure();
  ArrayRef<EmbeddingCandidateAttr> candidates = attr.getCandidates();
  SmallVector<Embedding, 0> decoded(candidates.size());
  // Per candidate, the intrinsic at the sizes it maps (a multi-interval or
  // variable-size intrinsic, Rieber 2022, §3.1.2).
  SmallVector<TensorExpression, 0> instances(candidates.size(), *intrinsic);
  OwningOpRef<ModuleOp> library;
  FailureOr<KernelOp> intrinsicKernel =
      lookupIntrinsicKernel(kernel.getContext(), intrinsicsFile, intrinsicName,
                            kernel.getLoc(), library);
  if (failed(intrinsicKernel))
    return failure();
  for (auto [index, candidate] : llvm::enumerate(candidates)) {
    std::string error;
    if (!decodeEmbedding(candidate, *expr, *intrinsic, decoded[index], error) ||
        !topdown::instantiateForEmbedding(*intrinsicKernel, decoded[index],
                                          instances[index], error))
      return kernel.emitError() << "--tcg-print-embeddings: candidate " << index
                                << " of the embedding of '" << intrinsicName
                                << "' does not fit the kernel: " << error;
  }
  os << "embedding of " << intrinsicName << " ("
     << stringifyEmbeddingMode(attr.getMode()) << ") into "
     << kernel.getKernelName().value_or("kernel") << " at " << kernel.getLoc()
     << "\n";
  printFields(os, decoded.front(), "  ", *expr, instances.front());
  os << "  search: " << (attr.getOptimal() ? "optimal" : "not proven optimal")
     << ", " << candidates.size() << " candidate(s), " << attr.getNodes()
     << " nodes, " << attr.getFails() << " fails, " << attr.getSolutions()
     << " solutions, " << attr.getAssets() << " assets";
  if (std::optional<uint64_t> distinct = attr.getDistinct())
    os << ", "
       << (attr.getDistinctComplete().value_or(false) ? "" : "at least ")
       << *distinct << " distinct embeddings";
  if (FloatAttr time = attr.getTimeMs())
    os << llvm::format(", %.1f ms", time.getValueAsDouble());
  os << "\n";
  for (unsigned i = 1, e = decoded.size(); i < e; ++i) {
    os << "  candidate " << i + 1 << ":\n";
    printFields(os, decoded[i], "    ", *expr, instances[i]);
  }
  return success();
}

} // namespace
