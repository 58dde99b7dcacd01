//===- Types.h - Relay text types and dtypes ---------------------*- C++
//-*-===//
//
// The spelling of types in TVM's text format: `Tensor[(1, 3), float32]`,
// bare dtypes for scalars (`float32`), tuples `(T1, T2)` and function types
// `fn (T1) -> T2`, mapped onto builtin tensor, tuple and function types.
//
//===----------------------------------------------------------------------===//

#ifndef RAF_LIB_TARGET_RELAYTEXT_TYPES_H
#define RAF_LIB_TARGET_RELAYTEXT_TYPES_H

#include "mlir/IR/Types.h"
#include "llvm/Support/raw_ostream.h"

#include <string>

namespace raf::relaytext {

/// The element type of a TVM dtype name (`float32`, `int64`, `bool`), or a
/// null type when the name is not a supported dtype.
mlir::Type parseDtype(llvm::StringRef name, mlir::MLIRContext *context);

/// The TVM dtype name of an element type, or "" when TVM has none.
std::string dtypeName(mlir::Type elementType);

/// Prints `type` in TVM's spelling; fails (printing nothing useful) when a
/// part of it has no Relay text form.
mlir::LogicalResult printType(mlir::Type type, llvm::raw_ostream &os);

/// `printType` into a string, for diagnostics (falls back to MLIR syntax).
std::string typeToString(mlir::Type type);

} // namespace raf::relaytext

#endif // RAF_LIB_TARGET_RELAYTEXT_TYPES_H
