//===- EmbeddingAttr.cpp - The tcg.embedding attribute --------------------===//

#include "raf/Dialect/TCG/Transforms/EmbeddingAttr.h"

#include "mlir/IR/Builders.h"

using namespace mlir;
using namespace raf;

/// [[name, length, stride], ...] for one axis; Names gives dimension names.
static ArrayAttr axisAttr(Builder &b, const embed::AxisMappings &axis,
                          llvm::function_ref<std::string(unsigned)> name) {
  SmallVector<Attribute> entries;
  for (const embed::AxisMapping &m : axis)
    entries.push_back(b.getArrayAttr({b.getStringAttr(name(m.Dim)),
                                      b.getI64IntegerAttr(m.Length),
                                      b.getI64IntegerAttr(m.Stride)}));
  return b.getArrayAttr(entries);
}

static DictionaryAttr embeddingFields(Builder &b,
                                      const embed::DataflowGraph &graph,
                                      const embed::DataflowGraph *intrinsic,
                                      const embed::Embedding &emb) {
  const embed::TensorExpression &expr = graph.Expr;
  auto iterName = [&](unsigned d) { return expr.Iterators[d].Name; };
  SmallVector<NamedAttribute> iterators;
  for (unsigned q = 0, e = emb.Iterators.size(); q != e; ++q) {
    std::string axis = intrinsic ? intrinsic->Expr.Iterators[q].Name
                                 : "axis" + std::to_string(q);
    iterators.push_back(
        b.getNamedAttr(axis, axisAttr(b, emb.Iterators[q], iterName)));
  }
  SmallVector<NamedAttribute> operands;
  for (const embed::OperandEmbedding &op : emb.Operands) {
    SmallVector<Attribute> dims;
    for (const embed::AxisMappings &axis : op.Dims)
      dims.push_back(axisAttr(
          b, axis, [](unsigned d) { return "d" + std::to_string(d); }));
    operands.push_back(b.getNamedAttr(
        op.IntrinsicOperand,
        b.getDictionaryAttr(
            {b.getNamedAttr("tensor", b.getStringAttr(op.OperatorOperand)),
             b.getNamedAttr("dims", b.getArrayAttr(dims))})));
  }
  // [[name, extent, executed], ...] in iterator order.
  SmallVector<Attribute> executed;
  for (unsigned d = 0, e = emb.Executed.size(); d != e; ++d)
    executed.push_back(b.getArrayAttr({b.getStringAttr(expr.Iterators[d].Name),
                                       b.getI64IntegerAttr(emb.Extents[d]),
                                       b.getI64IntegerAttr(emb.Executed[d])}));
  auto u64 = [&](uint64_t v) {
    return b.getI64IntegerAttr(static_cast<int64_t>(v));
  };
  return b.getDictionaryAttr(
      {b.getNamedAttr("iterators", b.getDictionaryAttr(iterators)),
       b.getNamedAttr("operands", b.getDictionaryAttr(operands)),
       b.getNamedAttr("executed", b.getArrayAttr(executed)),
       b.getNamedAttr("cost", u64(emb.Cost)),
       b.getNamedAttr("mac_total", u64(emb.MacTotal)),
       b.getNamedAttr("mac_min", u64(emb.MacMin)),
       b.getNamedAttr("data_total", u64(emb.DataTotal)),
       b.getNamedAttr("data_min", u64(emb.DataMin)),
       b.getNamedAttr("memory_access", b.getBoolAttr(emb.MemoryAccess))});
}

DictionaryAttr raf::tcg::buildEmbeddingAttr(
    MLIRContext *context, const embed::DataflowGraph &graph,
    const embed::DataflowGraph &intrinsic, llvm::StringRef mode,
    const embed::EmbeddingResult &result, bool withTime) {
  Builder b(context);
  const embed::Embedding &best = result.Candidates.front();
  SmallVector<NamedAttribute> fields(
      embeddingFields(b, graph, &intrinsic, best).getValue());
  SmallVector<Attribute> candidates;
  for (const embed::Embedding &c : result.Candidates)
    candidates.push_back(embeddingFields(b, graph, &intrinsic, c));
  auto u64 = [&](uint64_t v) {
    return b.getI64IntegerAttr(static_cast<int64_t>(v));
  };
  fields.push_back(
      b.getNamedAttr("intrinsic", b.getStringAttr(intrinsic.Expr.Name)));
  fields.push_back(b.getNamedAttr("mode", b.getStringAttr(mode)));
  fields.push_back(
      b.getNamedAttr("optimal", b.getBoolAttr(result.ProvedOptimal)));
  fields.push_back(b.getNamedAttr("candidates", b.getArrayAttr(candidates)));
  fields.push_back(b.getNamedAttr("nodes", u64(result.Stats.Nodes)));
  fields.push_back(b.getNamedAttr("fails", u64(result.Stats.Fails)));
  fields.push_back(b.getNamedAttr("solutions", u64(result.Stats.Solutions)));
  fields.push_back(b.getNamedAttr("assets", u64(result.Stats.Assets)));
  if (result.Stats.Distinct) {
    fields.push_back(b.getNamedAttr("distinct", u64(result.Stats.Distinct)));
    fields.push_back(b.getNamedAttr(
        "distinct_complete", b.getBoolAttr(result.Stats.DistinctComplete)));
  }
  if (withTime)
    fields.push_back(b.getNamedAttr(
        "time_ms", b.getF64FloatAttr(result.Stats.Milliseconds)));
  return b.getDictionaryAttr(fields);
}

namespace {

/// Decodes [[name, length, stride], ...]; `lookup` maps a name to a
/// dimension index (or none).
bool decodeAxis(Attribute attr,
                llvm::function_ref<std::optional<unsigned>(StringRef)> lookup,
                embed::AxisMappings &axis, std::string &error) {
  auto entries = dyn_cast_or_null<ArrayAttr>(attr);
  if (!entries) {
    error = "an axis mapping is not a list";
    return false;
  }
  for (Attribute entry : entries) {
    auto triple = dyn_cast<ArrayAttr>(entry);
    if (!triple || triple.size() != 3 || !isa<StringAttr>(triple[0]) ||
        !isa<IntegerAttr>(triple[1]) || !isa<IntegerAttr>(triple[2])) {
      error = "an axis mapping entry is not [name, length, stride]";
      return false;
    }
    StringRef name = cast<StringAttr>(triple[0]).getValue();
    std::optional<unsigned> dim = lookup(name);
    if (!dim) {
      error = ("unknown dimension '" + name + "'").str();
      return false;
    }
    axis.push_back({*dim, cast<IntegerAttr>(triple[1]).getInt(),
                    cast<IntegerAttr>(triple[2]).getInt()});
  }
  return true;
}

} // namespace

bool raf::tcg::decodeEmbedding(DictionaryAttr fields,
                               const embed::TensorExpression &op,
                               const embed::TensorExpression &intrinsic,
                               embed::Embedding &emb, std::string &error) {
  emb = embed::Embedding();
  auto iterators = fields.getAs<DictionaryAttr>("iterators");
  auto operands = fields.getAs<DictionaryAttr>("operands");
  auto executed = fields.getAs<ArrayAttr>("executed");
  if (!iterators || !operands || !executed) {
    error = "the embedding lacks 'iterators', 'operands' or 'executed'";
    return false;
  }
  auto iteratorIndex = [&](StringRef name) -> std::optional<unsigned> {
    for (auto [index, it] : llvm::enumerate(op.Iterators))
      if (it.Name == name)
        return index;
    return std::nullopt;
  };
  for (const embed::Iterator &axis : intrinsic.Iterators) {
    embed::AxisMappings mapping;
    if (!decodeAxis(iterators.get(axis.Name), iteratorIndex, mapping, error)) {
      error = "axis " + axis.Name + ": " + error;
      return false;
    }
    emb.Iterators.push_back(std::move(mapping));
  }
  auto viewDim = [](StringRef name) -> std::optional<unsigned> {
    unsigned dim;
    if (!name.consume_front("d") || name.getAsInteger(10, dim))
      return std::nullopt;
    return dim;
  };
  for (unsigned i = 0, e = intrinsic.Inputs.size(); i <= e; ++i) {
    const embed::Operand &operand =
        i == e ? intrinsic.Output : intrinsic.Inputs[i];
    auto entry = operands.getAs<DictionaryAttr>(operand.Name);
    auto tensor = entry ? entry.getAs<StringAttr>("tensor") : StringAttr();
    auto dims = entry ? entry.getAs<ArrayAttr>("dims") : ArrayAttr();
    if (!tensor || !dims) {
      error = "operand " + operand.Name + " lacks 'tensor' or 'dims'";
      return false;
    }
    embed::OperandEmbedding oe;
    oe.IntrinsicOperand = operand.Name;
    oe.OperatorOperand = tensor.getValue().str();
    oe.OperatorInput = i == e ? -1 : static_cast<int>(i);
    for (Attribute dim : dims) {
      embed::AxisMappings mapping;
      if (!decodeAxis(dim, viewDim, mapping, error)) {
        error = "operand " + operand.Name + ": " + error;
        return false;
      }
      oe.Dims.push_back(std::move(mapping));
    }
    emb.Operands.push_back(std::move(oe));
  }
  for (Attribute entry : executed) {
    auto triple = dyn_cast<ArrayAttr>(entry);
    if (!triple || triple.size() != 3 || !isa<IntegerAttr>(triple[1]) ||
        !isa<IntegerAttr>(triple[2])) {
      error = "an 'executed' entry is not [name, extent, executed]";
      return false;
    }
    emb.Extents.push_back(cast<IntegerAttr>(triple[1]).getInt());
    emb.Executed.push_back(cast<IntegerAttr>(triple[2]).getInt());
  }
  if (emb.Extents.size() != op.Iterators.size()) {
    error = "'executed' lists " + std::to_string(emb.Extents.size()) +
            " iterators, the operator has " +
            std::to_string(op.Iterators.size());
    return false;
  }
  auto integer = [&](StringRef name) -> uint64_t {
    auto attr = fields.getAs<IntegerAttr>(name);
    return attr ? static_cast<uint64_t>(attr.getInt()) : 0;
  };
  emb.Cost = integer("cost");
  emb.MacTotal = integer("mac_total");
  emb.MacMin = integer("mac_min");
  emb.DataTotal = integer("data_total");
  emb.DataMin = integer("data_min");
  if (auto memory = fields.getAs<BoolAttr>("memory_access"))
    emb.MemoryAccess = memory.getValue();
  return true;
}
