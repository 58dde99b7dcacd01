//===- IntrinsicLibrary.h - hardware intrinsics as tcg ----------*- C++ -*-===//
//
// The intrinsics an operator can be embedded into (VTA's GEMM core in two
// configurations, a matrix-vector and a dot product), written as named
// tcg.kernels in lib/Dialect/TCG/Intrinsics/IntrinsicLibrary.mlir and
// compiled into the library as text.
//
//===----------------------------------------------------------------------===//

#ifndef RAF_DIALECT_TCG_INTRINSICS_INTRINSICLIBRARY_H
#define RAF_DIALECT_TCG_INTRINSICS_INTRINSICLIBRARY_H

#include "raf/Dialect/TCG/IR/TCGAttrs.h"
#include "raf/Embedding/TensorExpression.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Location.h"
#include "mlir/IR/OwningOpRef.h"

#include <optional>

namespace raf::tcg {

class KernelOp;

/// The names of the intrinsics, in library order: "vta.gemm.1x16x16",
/// "vta.gemm.8x8x8", "gemv.16x16", "dot.16".
llvm::ArrayRef<llvm::StringRef> getIntrinsicNames();

/// The library's .mlir text: one function per intrinsic, each holding the
/// tcg.kernel of that name.
llvm::StringRef getIntrinsicLibrarySource();

/// Parses the library into `context`, loading the tcg and func dialects
/// first (inside a pass, declare both as dependent dialects: dialects cannot
/// be loaded while passes run in parallel). Parse errors, which the
/// library's test rules out, are reported to the context's handler.
mlir::OwningOpRef<mlir::ModuleOp>
parseIntrinsicLibrary(mlir::MLIRContext *context);

/// The tcg.kernel of built-in intrinsic `name` in `library`, which is
/// parsed into it (and owns the kernel). Errors as lookupIntrinsic.
llvm::FailureOr<KernelOp>
lookupBuiltinIntrinsicKernel(mlir::MLIRContext *context, llvm::StringRef name,
                             std::optional<mlir::Location> loc,
                             mlir::OwningOpRef<mlir::ModuleOp> &library);

/// What a kernel packed for the intrinsic `kernel` (named `name`) is
/// tensorized with: its own `tcg.tensorize` (target and GEMM extents), or
/// just the name for an intrinsic no target implements.
TensorizeAttr getIntrinsicTensorize(KernelOp kernel, llvm::StringRef name);

/// The tensor expression of intrinsic `name` (see parseIntrinsicLibrary for
/// the dialects). An unknown name is an error, reported at `loc` (an unknown
/// location by default), that lists the known names.
llvm::FailureOr<embed::TensorExpression>
lookupIntrinsic(mlir::MLIRContext *context, llvm::StringRef name,
                std::optional<mlir::Location> loc = std::nullopt);

/// What a kernel packed for intrinsic `name` is tensorized with: the
/// library kernel's own `tcg.tensorize` (target and GEMM extents), or just
/// the name for an intrinsic no target implements. Errors as lookupIntrinsic.
llvm::FailureOr<TensorizeAttr>
lookupTensorize(mlir::MLIRContext *context, llvm::StringRef name,
                std::optional<mlir::Location> loc = std::nullopt);

} // namespace raf::tcg

#endif // RAF_DIALECT_TCG_INTRINSICS_INTRINSICLIBRARY_H
