//===- UserIntrinsics.h - intrinsics from a user's .mlir file ---*- C++ -*-===//
//
// A user's intrinsic library: a .mlir file in the format of the built-in
// one (IntrinsicLibrary.mlir: functions, each holding one tcg.kernel named
// after the intrinsic), read by the passes' `intrinsics=path` option.
//
//===----------------------------------------------------------------------===//

#ifndef RAF_DIALECT_TCG_INTRINSICS_USERINTRINSICS_H
#define RAF_DIALECT_TCG_INTRINSICS_USERINTRINSICS_H

#include "raf/Dialect/TCG/IR/TCGAttrs.h"
#include "raf/Dialect/TCG/IR/TCGOps.h"
#include "raf/Embedding/TensorExpression.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Location.h"
#include "mlir/IR/OwningOpRef.h"
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

/// What a kernel packed for intrinsic `name` is tensorized with, the user's
/// library at `path` searched first (when not empty): its kernel's
/// `tcg.tensorize`, or just the name; else the built-in library's
/// (lookupTensorize). Errors as lookupIntrinsic above.
llvm::FailureOr<TensorizeAttr>
lookupTensorize(mlir::MLIRContext *context, llvm::StringRef path,
                llvm::StringRef name, mlir::Location loc);

/// The library kernel of intrinsic `name`, as lookupIntrinsic finds it (the
/// user's library at `path` first); the module it lives in is kept in
/// `library`, which must outlive the kernel. Errors as lookupIntrinsic.
llvm::FailureOr<KernelOp>
lookupIntrinsicKernel(mlir::MLIRContext *context, llvm::StringRef path,
                      llvm::StringRef name, mlir::Location loc,
                      mlir::OwningOpRef<mlir::ModuleOp> &library);

/// The intrinsics lookupIntrinsic can find: those of the user's library at
/// `path` (in file order), then the built-in ones it does not redefine; the
/// built-in names when `path` is empty. Errors of the file as
/// lookupIntrinsic's.
llvm::FailureOr<llvm::SmallVector<std::string>>
getIntrinsicNames(mlir::MLIRContext *context, llvm::StringRef path,
                  mlir::Location loc);

} // namespace raf::tcg

#endif // RAF_DIALECT_TCG_INTRINSICS_USERINTRINSICS_H
