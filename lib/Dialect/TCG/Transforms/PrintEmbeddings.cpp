//===- PrintEmbeddings.cpp - --tcg-print-embeddings -----------------------===//

#include "raf/Dialect/TCG/Transforms/Passes.h"

#include "raf/Dialect/TCG/IR/TCGDialect.h"
#include "raf/Dialect/TCG/IR/TCGOps.h"
#include "raf/Dialect/TCG/Intrinsics/IntrinsicLibrary.h"
#include "raf/Dialect/TCG/Transforms/EmbeddingAttr.h"
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

int64_t getInt(DictionaryAttr dict, StringRef name) {
  auto attr = dict.getAs<IntegerAttr>(name);
  return attr ? attr.getInt() : 0;
}

/// "kw 8, kh 2 (stride 2)" for [[name, length, stride], ...]; "-" if empty.
void printAxis(raw_ostream &os, ArrayAttr axis) {
  if (!axis || axis.empty()) {
    os << "-";
    return;
  }
  llvm::interleaveComma(axis, os, [&](Attribute entry) {
    auto triple = cast<ArrayAttr>(entry);
    os << cast<StringAttr>(triple[0]).getValue() << " "
       << cast<IntegerAttr>(triple[1]).getInt();
    int64_t stride = cast<IntegerAttr>(triple[2]).getInt();
    if (stride != 1)
      os << " (stride " << stride << ")";
  });
}

void printRatio(raw_ostream &os, int64_t total, int64_t min) {
  os << total << " / " << min;
  if (min > 0)
    os << llvm::format(" (x%.3f)", static_cast<double>(total) / min);
}

/// The strategy of one embedding, one line per operand; a reason instead
/// when the kernel or the embedding does not allow one.
void printStrategy(raw_ostream &os, DictionaryAttr emb, StringRef indent,
                   const raf::embed::TensorExpression *expr,
                   const raf::embed::TensorExpression *intrinsic) {
  if (!expr || !intrinsic) {
    os << indent << "strategy: none (no tensor expression)\n";
    return;
  }
  raf::embed::Embedding decoded;
  Strategy strategy;
  std::string error;
  if (!decodeEmbedding(emb, *expr, *intrinsic, decoded, error) ||
      !deriveStrategy(*expr, *intrinsic, decoded, strategy, error)) {
    os << indent << "strategy: none (" << error << ")\n";
    return;
  }
  for (const OperandStrategy &operand : strategy.operands) {
    os << indent << "strategy: ";
    printOperandStrategy(operand, os);
    os << "\n";
  }
}

/// The mapping and cost of one embedding.
void printFields(raw_ostream &os, DictionaryAttr emb, StringRef indent,
                 const raf::embed::TensorExpression *expr,
                 const raf::embed::TensorExpression *intrinsic) {
  for (NamedAttribute axis : emb.getAs<DictionaryAttr>("iterators")) {
    os << indent << axis.getName().getValue() << ": ";
    printAxis(os, cast<ArrayAttr>(axis.getValue()));
    os << "\n";
  }
  for (NamedAttribute operand : emb.getAs<DictionaryAttr>("operands")) {
    auto fields = cast<DictionaryAttr>(operand.getValue());
    os << indent << operand.getName().getValue() << " -> "
       << fields.getAs<StringAttr>("tensor").getValue() << ":";
    for (Attribute dim : fields.getAs<ArrayAttr>("dims")) {
      os << " [";
      printAxis(os, cast<ArrayAttr>(dim));
      os << "]";
    }
    os << "\n";
  }
  // Iterators the tiling pads (executed extent above the extent).
  os << indent << "padding:";
  bool any = false;
  for (Attribute entry : emb.getAs<ArrayAttr>("executed")) {
    auto triple = cast<ArrayAttr>(entry);
    int64_t extent = cast<IntegerAttr>(triple[1]).getInt();
    int64_t executed = cast<IntegerAttr>(triple[2]).getInt();
    if (executed == extent)
      continue;
    os << (any ? ", " : " ") << cast<StringAttr>(triple[0]).getValue() << " "
       << extent << " -> " << executed;
    any = true;
  }
  os << (any ? "\n" : " none\n");
  os << indent << "cost " << getInt(emb, "cost") << ": MAC ";
  printRatio(os, getInt(emb, "mac_total"), getInt(emb, "mac_min"));
  os << ", data ";
  printRatio(os, getInt(emb, "data_total"), getInt(emb, "data_min"));
  os << ", memory access "
     << (emb.getAs<BoolAttr>("memory_access").getValue() ? "kept"
                                                         : "duplicated")
     << "\n";
  printStrategy(os, emb, indent, expr, intrinsic);
}

struct TCGPrintEmbeddingsPass
    : public raf::tcg::impl::TCGPrintEmbeddingsBase<TCGPrintEmbeddingsPass> {
  using Base::Base;

  void runOnOperation() override {
    raw_ostream &os = llvm::outs();
    getOperation().walk([&](KernelOp kernel) {
      auto emb = kernel->getAttrOfType<DictionaryAttr>(kEmbeddingAttrName);
      if (!emb)
        return;
      os << "embedding of " << emb.getAs<StringAttr>("intrinsic").getValue()
         << " (" << emb.getAs<StringAttr>("mode").getValue() << ") into "
         << kernel.getKernelName().value_or("kernel") << " at "
         << kernel.getLoc() << "\n";
      // The strategy needs the kernel's and the intrinsic's expressions;
      // without them the mapping is still printed.
      std::optional<raf::embed::TensorExpression> expr, intrinsic;
      {
        ScopedDiagnosticHandler quiet(kernel.getContext(),
                                      [](Diagnostic &) { return success(); });
        FailureOr<raf::embed::TensorExpression> e = extractTensorExpr(kernel);
        if (succeeded(e))
          expr = std::move(*e);
        FailureOr<raf::embed::TensorExpression> i = lookupIntrinsic(
            kernel.getContext(),
            emb.getAs<StringAttr>("intrinsic").getValue(), kernel.getLoc());
        if (succeeded(i))
          intrinsic = std::move(*i);
      }
      const raf::embed::TensorExpression *exprPtr = expr ? &*expr : nullptr;
      const raf::embed::TensorExpression *intrinsicPtr =
          intrinsic ? &*intrinsic : nullptr;
      printFields(os, emb, "  ", exprPtr, intrinsicPtr);
      auto candidates = emb.getAs<ArrayAttr>("candidates");
      os << "  search: "
         << (emb.getAs<BoolAttr>("optimal").getValue() ? "optimal"
                                                       : "not proven optimal")
         << ", " << candidates.size() << " candidate(s), "
         << getInt(emb, "nodes") << " nodes, " << getInt(emb, "fails")
         << " fails, " << getInt(emb, "solutions") << " solutions, "
         << getInt(emb, "assets") << " assets";
      if (auto time = emb.getAs<FloatAttr>("time_ms"))
        os << llvm::format(", %.1f ms", time.getValueAsDouble());
      os << "\n";
      for (unsigned i = 1, e = candidates.size(); i < e; ++i) {
        os << "  candidate " << i + 1 << ":\n";
        printFields(os, cast<DictionaryAttr>(candidates[i]), "    ", exprPtr,
                    intrinsicPtr);
      }
    });
  }
};

} // namespace
