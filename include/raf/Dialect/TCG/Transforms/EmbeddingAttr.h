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

} // namespace raf::tcg

#endif // RAF_DIALECT_TCG_TRANSFORMS_EMBEDDINGATTR_H
