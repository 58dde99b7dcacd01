//===- UserIntrinsics.h - intrinsics from a user's .mlir file ---*- C++ -*-===//
//
// A user's intrinsic library: a .mlir file in the format of the built-in
// one (IntrinsicLibrary.mlir: functions, each holding one tcg.kernel named
// after the intrinsic), read by the passes' `intrinsics=path` option.
//
//===----------------------------------------------------------------------===//

#ifndef RAF_DIALECT_TCG_INTRINSICS_USERINTRINSICS_H
#define RAF_DIALECT_TCG_INTRINSICS_USERINTRINSICS_H

#include "raf/Embedding/TensorExpression.h"

#include "mlir/IR/Location.h"
#include "mlir/Support/LLVM.h"

namespace raf::tcg {

/// The tensor expression of intrinsic `name`: from the user's library at
/// `path` when that is not empty and defines `name`, else from the built-in
/// library. Errors: a file that cannot be read or parsed (the parse errors
/// are located in the file), an unnamed or twice-defined kernel (located at
/// the kernel in the file), a file without kernels, an unknown name (at
/// `loc`, listing the names of both libraries). The tcg and func dialects
/// must be loaded (a pass declares both as dependent dialects).
llvm::FailureOr<embed::TensorExpression>
lookupIntrinsic(mlir::MLIRContext *context, llvm::StringRef path,
                llvm::StringRef name, mlir::Location loc);

} // namespace raf::tcg

#endif // RAF_DIALECT_TCG_INTRINSICS_USERINTRINSICS_H
