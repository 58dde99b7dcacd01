//===- Metadata.h - the `#[metadata]` section of Relay text -----*- C++ -*-===//
//
// TVM prints tensors that are not scalars as `meta[relay.Constant][i]` and
// appends the metadata section: the JSON node graph of `SaveJSON`, whose
// `relay.Constant` nodes name base64 `NDArray::Save` blobs in `b64ndarrays`.
//
//===----------------------------------------------------------------------===//

#ifndef RAF_LIB_TARGET_RELAYTEXT_METADATA_H
#define RAF_LIB_TARGET_RELAYTEXT_METADATA_H

#include "mlir/IR/BuiltinAttributes.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/Support/Error.h"

#include <string>

namespace raf::relaytext {

/// Decodes the constants of the metadata section, in `meta[relay.Constant]`
/// order. The message of the error says what is malformed.
llvm::Expected<llvm::SmallVector<mlir::DenseElementsAttr>>
parseMetadata(llvm::StringRef json, mlir::MLIRContext *context);

/// Encodes `constants` as a metadata section (without the `#[metadata]`
/// line). Fails for element types TVM has no dtype for.
llvm::Expected<std::string>
printMetadata(llvm::ArrayRef<mlir::DenseElementsAttr> constants);

} // namespace raf::relaytext

#endif // RAF_LIB_TARGET_RELAYTEXT_METADATA_H
