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
    executed.push_back(b.getArrayAttr(
        {b.getStringAttr(expr.Iterators[d].Name),
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
