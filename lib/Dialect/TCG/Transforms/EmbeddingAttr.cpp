//===- EmbeddingAttr.cpp - #tcg.embedding <-> embed::Embedding ------------===//

#include "raf/Dialect/TCG/Transforms/EmbeddingAttr.h"

#include "mlir/IR/Builders.h"

using namespace mlir;
using namespace raf;
using namespace raf::tcg;

namespace {

AxisMapsAttr axisAttr(MLIRContext *context, const embed::AxisMappings &axis) {
  SmallVector<DimMap> maps;
  for (const embed::AxisMapping &m : axis)
    maps.push_back({m.Dim, m.Length, m.Stride});
  return AxisMapsAttr::get(context, maps);
}

} // namespace

EmbeddingCandidateAttr raf::tcg::buildCandidateAttr(MLIRContext *context,
                                                    const embed::Embedding &emb) {
  SmallVector<AxisMapsAttr> iterators;
  for (const embed::AxisMappings &axis : emb.Iterators)
    iterators.push_back(axisAttr(context, axis));
  SmallVector<ArrayAttr> operands;
  for (const embed::OperandEmbedding &operand : emb.Operands) {
    SmallVector<Attribute> dims;
    for (const embed::AxisMappings &axis : operand.Dims)
      dims.push_back(axisAttr(context, axis));
    operands.push_back(ArrayAttr::get(context, dims));
  }
  return EmbeddingCandidateAttr::get(
      context, iterators, operands, emb.Extents, emb.Executed, emb.Cost,
      emb.MacTotal, emb.MacMin, emb.DataTotal, emb.DataMin, emb.MemoryAccess);
}

namespace {

/// Decodes one axis; `numDims` bounds the dimension indices.
bool decodeAxis(AxisMapsAttr attr, unsigned numDims, embed::AxisMappings &axis,
                std::string &error) {
  for (const DimMap &map : attr.getMaps()) {
    if (map.dim >= numDims) {
      error = "dimension " + std::to_string(map.dim) + " does not exist (" +
              std::to_string(numDims) + " dimension(s))";
      return false;
    }
    axis.push_back({static_cast<unsigned>(map.dim), map.length, map.stride});
  }
  return true;
}

} // namespace

EmbeddingAttr raf::tcg::buildEmbeddingAttr(
    MLIRContext *context, const embed::DataflowGraph &intrinsic,
    EmbeddingMode mode, const embed::EmbeddingResult &result, bool withTime) {
  SmallVector<EmbeddingCandidateAttr> candidates;
  for (const embed::Embedding &candidate : result.Candidates)
    candidates.push_back(buildCandidateAttr(context, candidate));
  const embed::EmbeddingStats &stats = result.Stats;
  std::optional<uint64_t> distinct;
  std::optional<bool> complete;
  if (stats.Distinct) {
    distinct = stats.Distinct;
    complete = stats.DistinctComplete;
  }
  FloatAttr time;
  if (withTime)
    time = FloatAttr::get(Float64Type::get(context), stats.Milliseconds);
  return EmbeddingAttr::get(
      context, StringAttr::get(context, intrinsic.Expr.Name), mode,
      result.ProvedOptimal, candidates, stats.Nodes, stats.Fails,
      stats.Solutions, stats.Assets, distinct, complete, time);
}

bool raf::tcg::decodeEmbedding(EmbeddingCandidateAttr candidate,
                               const embed::TensorExpression &op,
                               const embed::TensorExpression &intrinsic,
                               embed::Embedding &emb, std::string &error) {
  emb = embed::Embedding();
  if (candidate.getIterators().size() != intrinsic.Iterators.size()) {
    error = "it maps " + std::to_string(candidate.getIterators().size()) +
            " intrinsic iterators, " + intrinsic.Name + " has " +
            std::to_string(intrinsic.Iterators.size());
    return false;
  }
  for (auto [axis, attr] :
       llvm::zip(intrinsic.Iterators, candidate.getIterators())) {
    embed::AxisMappings mapping;
    if (!decodeAxis(attr, op.Iterators.size(), mapping, error)) {
      error = "axis " + axis.Name + ": operator iterator " + error;
      return false;
    }
    emb.Iterators.push_back(std::move(mapping));
  }
  unsigned numOperands = intrinsic.Inputs.size() + 1;
  if (candidate.getOperands().size() != numOperands ||
      op.Inputs.size() != intrinsic.Inputs.size()) {
    error = "it maps " + std::to_string(candidate.getOperands().size()) +
            " operands; " + intrinsic.Name + " has " +
            std::to_string(numOperands) + " and the operator " +
            std::to_string(op.Inputs.size() + 1);
    return false;
  }
  for (unsigned i = 0; i != numOperands; ++i) {
    bool isOutput = i == intrinsic.Inputs.size();
    const embed::Operand &operand =
        isOutput ? intrinsic.Output : intrinsic.Inputs[i];
    const embed::Operand &target = isOutput ? op.Output : op.Inputs[i];
    SmallVector<AxisMapsAttr> dims = candidate.getOperandDims(i);
    if (dims.size() != operand.Shape.size()) {
      error = "operand " + operand.Name + " maps " +
              std::to_string(dims.size()) + " dimension(s), it has " +
              std::to_string(operand.Shape.size());
      return false;
    }
    embed::OperandEmbedding oe;
    oe.IntrinsicOperand = operand.Name;
    oe.OperatorOperand = target.Name;
    oe.OperatorInput = isOutput ? -1 : static_cast<int>(i);
    for (AxisMapsAttr dim : dims) {
      embed::AxisMappings mapping;
      if (!decodeAxis(dim, target.Shape.size(), mapping, error)) {
        error = "operand " + operand.Name + ": view " + error;
        return false;
      }
      oe.Dims.push_back(std::move(mapping));
    }
    emb.Operands.push_back(std::move(oe));
  }
  if (candidate.getExtents().size() != op.Iterators.size()) {
    error = "it lists " + std::to_string(candidate.getExtents().size()) +
            " iterator extents, the operator has " +
            std::to_string(op.Iterators.size()) + " iterators";
    return false;
  }
  emb.Extents.assign(candidate.getExtents().begin(),
                     candidate.getExtents().end());
  emb.Executed.assign(candidate.getExecuted().begin(),
                      candidate.getExecuted().end());
  emb.Cost = candidate.getCost();
  emb.MacTotal = candidate.getMacTotal();
  emb.MacMin = candidate.getMacMin();
  emb.DataTotal = candidate.getDataTotal();
  emb.DataMin = candidate.getDataMin();
  emb.MemoryAccess = candidate.getMemoryAccess();
  return true;
}
