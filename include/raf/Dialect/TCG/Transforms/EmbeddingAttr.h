//===- EmbeddingAttr.h - #tcg.embedding <-> embed::Embedding -----*- C++
//-*-===//
//
// Converts between the embedding library's result and the typed
// #tcg.embedding attribute that --tcg-dataflow-embed attaches to a kernel
// and --tcg-print-embeddings and --tcg-apply-strategy read.
//
//===----------------------------------------------------------------------===//

#ifndef RAF_DIALECT_TCG_TRANSFORMS_EMBEDDINGATTR_H
#define RAF_DIALECT_TCG_TRANSFORMS_EMBEDDINGATTR_H

#include "raf/Dialect/TCG/IR/TCGAttrs.h"
#include "raf/Embedding/DataflowEmbedding.h"

namespace raf::tcg {

/// Encodes one embedding (of either embedding method) as a candidate.
EmbeddingCandidateAttr buildCandidateAttr(mlir::MLIRContext *context,
                                          const embed::Embedding &emb);

/// Encodes the result of an embedding search on `graph`.
EmbeddingAttr buildEmbeddingAttr(mlir::MLIRContext *context,
                                 const embed::DataflowGraph &intrinsic,
                                 EmbeddingMode mode,
                                 const embed::EmbeddingResult &result,
                                 bool withTime);

/// Decodes one candidate of the attribute against the operator and
/// intrinsic it was found for. Fails with a reason in `error` when the
/// candidate does not fit them: another number of intrinsic iterators,
/// operands or operand dimensions, an operator iterator or view dimension
/// that does not exist, or another number of operator iterators.
bool decodeEmbedding(EmbeddingCandidateAttr candidate,
                     const embed::TensorExpression &op,
                     const embed::TensorExpression &intrinsic,
                     embed::Embedding &emb, std::string &error);

} // namespace raf::tcg

#endif // RAF_DIALECT_TCG_TRANSFORMS_EMBEDDINGATTR_H
