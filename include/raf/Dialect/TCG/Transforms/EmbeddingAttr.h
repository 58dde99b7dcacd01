//===- EmbeddingAttr.h - The tcg.embedding attribute ------------*- C++ -*-===//
//
// The dictionary --tcg-dataflow-embed attaches to a kernel (its schema is in
// the pass description) and the accessors --tcg-print-embeddings and the
// strategy derivation read it with.
//
//===----------------------------------------------------------------------===//

#ifndef RAF_DIALECT_TCG_TRANSFORMS_EMBEDDINGATTR_H
#define RAF_DIALECT_TCG_TRANSFORMS_EMBEDDINGATTR_H

#include "raf/Embedding/DataflowEmbedding.h"

#include "mlir/IR/BuiltinAttributes.h"

namespace raf::tcg {

inline constexpr llvm::StringLiteral kEmbeddingAttrName = "tcg.embedding";

/// Encodes the result of an embedding search on Graph.
mlir::DictionaryAttr buildEmbeddingAttr(mlir::MLIRContext *context,
                                        const embed::DataflowGraph &graph,
                                        const embed::DataflowGraph &intrinsic,
                                        llvm::StringRef mode,
                                        const embed::EmbeddingResult &result,
                                        bool withTime);

/// Decodes one embedding of the attribute (its top level, or an entry of
/// its `candidates`) against the operator and intrinsic it was found for.
/// Fails with a reason in `error` when a field is missing or malformed or a
/// name does not match an iterator, axis or view dimension.
bool decodeEmbedding(mlir::DictionaryAttr fields,
                     const embed::TensorExpression &op,
                     const embed::TensorExpression &intrinsic,
                     embed::Embedding &emb, std::string &error);

} // namespace raf::tcg

#endif // RAF_DIALECT_TCG_TRANSFORMS_EMBEDDINGATTR_H
