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

/// Whether `axis` is [[name, length, stride], ...].
bool isAxis(Attribute axis) {
  auto entries = dyn_cast_or_null<ArrayAttr>(axis);
  return entries && llvm::all_of(entries, [](Attribute entry) {
           auto triple = dyn_cast<ArrayAttr>(entry);
           return triple && triple.size() == 3 && isa<StringAttr>(triple[0]) &&
                  isa<IntegerAttr>(triple[1]) && isa<IntegerAttr>(triple[2]);
         });
}

/// The first field of one embedding (the attribute or a candidate) the
/// printer cannot read, or "" when it can read them all. Attributes written
/// by other tools may lack fields; they are reported instead of crashing.
std::string findMalformedField(DictionaryAttr emb) {
  auto iterators = emb.getAs<DictionaryAttr>("iterators");
  if (!iterators || !llvm::all_of(iterators, [](NamedAttribute axis) {
        return isAxis(axis.getValue());
      }))
    return "iterators";
  auto operands = emb.getAs<DictionaryAttr>("operands");
  if (!operands || !llvm::all_of(operands, [](NamedAttribute operand) {
        auto fields = dyn_cast<DictionaryAttr>(operand.getValue());
        auto dims = fields ? fields.getAs<ArrayAttr>("dims") : ArrayAttr();
        return fields && fields.getAs<StringAttr>("tensor") && dims &&
               llvm::all_of(dims, isAxis);
      }))
    return "operands";
  if (!isAxis(emb.get("executed")))
    return "executed";
  if (!emb.getAs<BoolAttr>("memory_access"))
    return "memory_access";
  return "";
}

std::string findMalformedAttr(DictionaryAttr emb) {
  for (StringRef name : {"intrinsic", "mode"})
    if (!emb.getAs<StringAttr>(name))
      return name.str();
  if (!emb.getAs<BoolAttr>("optimal"))
    return "optimal";
  auto candidates = emb.getAs<ArrayAttr>("candidates");
  if (!candidates)
    return "candidates";
  std::string field = findMalformedField(emb);
  if (!field.empty())
    return field;
  for (auto [index, candidate] : llvm::enumerate(candidates)) {
    auto fields = dyn_cast<DictionaryAttr>(candidate);
    std::string inner = fields ? findMalformedField(fields) : "";
    if (!fields || !inner.empty())
      return "candidates[" + std::to_string(index) + "]" +
             (inner.empty() ? "" : "." + inner);
  }
  return "";
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
    bool failedAny = false;
    getOperation().walk([&](KernelOp kernel) {
      auto emb = kernel->getAttrOfType<DictionaryAttr>(kEmbeddingAttrName);
      if (!emb)
        return;
      std::string malformed = findMalformedAttr(emb);
      if (!malformed.empty()) {
        kernel.emitError() << "--tcg-print-embeddings: the tcg.embedding "
                              "attribute lacks a readable '"
                           << malformed << "'";
        failedAny = true;
        return;
      }
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
            kernel.getContext(), emb.getAs<StringAttr>("intrinsic").getValue(),
            kernel.getLoc());
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
      if (auto distinct = emb.getAs<IntegerAttr>("distinct"))
        os << ", "
           << (emb.getAs<BoolAttr>("distinct_complete").getValue()
                   ? ""
                   : "at least ")
           << distinct.getInt() << " distinct embeddings";
      if (auto time = emb.getAs<FloatAttr>("time_ms"))
        os << llvm::format(", %.1f ms", time.getValueAsDouble());
      os << "\n";
      for (unsigned i = 1, e = candidates.size(); i < e; ++i) {
        os << "  candidate " << i + 1 << ":\n";
        printFields(os, cast<DictionaryAttr>(candidates[i]), "    ", exprPtr,
                    intrinsicPtr);
      }
    });
    if (failedAny)
      signalPassFailure();
  }
};

} // namespace
