//===- KernelSupport.h - helpers shared by the operator kernels -*- C++ -*-===//
//
// Index arithmetic (row-major strides, NumPy broadcasting, layouts) and
// result-type helpers. The IR verifier has already checked every attribute,
// so these helpers trust attribute values; what can only be known at run
// time (sizes of dynamic dimensions, index values) is checked by the
// kernels and reported at the operation.
//
//===----------------------------------------------------------------------===//

#ifndef RAF_LIB_RUNTIME_KERNELS_KERNELSUPPORT_H
#define RAF_LIB_RUNTIME_KERNELS_KERNELSUPPORT_H

#include "raf/Dialect/Relay/IR/RelayAttrs.h"
#include "raf/Dialect/Relay/IR/ShapeInference.h"
#include "raf/Runtime/OperatorKernels.h"

#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Diagnostics.h"
#include "llvm/ADT/STLFunctionalExtras.h"

#include <array>

namespace raf::runtime::kernels {

using llvm::ArrayRef;
using llvm::SmallVector;
using llvm::SmallVectorImpl;
using mlir::failure;
using mlir::FailureOr;
using mlir::LogicalResult;
using mlir::Operation;
using mlir::success;

/// The element type of result `index` of `op`, as a DType.
FailureOr<DType> resultDType(Operation *op, unsigned index = 0);

/// Calls `body` with every multi-index of `shape`, in row-major order.
void forEachIndex(ArrayRef<int64_t> shape,
                  llvm::function_ref<void(ArrayRef<int64_t>)> body);

/// Flat row-major offset of `coords` under `strides`.
int64_t offsetOf(ArrayRef<int64_t> coords, ArrayRef<int64_t> strides);

/// Strides that read a tensor of `shape` broadcast (NumPy rules, aligned to
/// the right) to a tensor of rank `outRank`: size-1 and missing axes get
/// stride 0.
SmallVector<int64_t> broadcastStrides(ArrayRef<int64_t> shape, int64_t outRank);

/// NumPy broadcast of the run-time shapes of `operands`; a located error
/// when they are incompatible (possible with dynamic dimensions).
FailureOr<SmallVector<int64_t>>
broadcastOperands(Operation *op, ArrayRef<const HostTensor *> operands);

using relay::normalizeAxis;

/// Positions of the letters of `canonical` ("NCHW", "OIHW", "IOHW") in
/// `layout`, a permutation of it (the op verifier has checked that).
std::array<int64_t, 4> layoutPositions(relay::LayoutAttr layout,
                                       llvm::StringRef canonical);

/// TVM 1-, 2- or 4-value padding as (top, left, bottom, right).
std::array<int64_t, 4> expandPadding(ArrayRef<int64_t> padding);

/// int64 arithmetic that wraps instead of overflowing (undefined behaviour
/// in C++): integer kernels compute in int64 and wrap again when storing.
inline int64_t wrapAdd(int64_t a, int64_t b) {
  return static_cast<int64_t>(static_cast<uint64_t>(a) +
                              static_cast<uint64_t>(b));
}
inline int64_t wrapSub(int64_t a, int64_t b) {
  return static_cast<int64_t>(static_cast<uint64_t>(a) -
                              static_cast<uint64_t>(b));
}
inline int64_t wrapMul(int64_t a, int64_t b) {
  return static_cast<int64_t>(static_cast<uint64_t>(a) *
                              static_cast<uint64_t>(b));
}

/// Copies element `index` of `tensor` into element `outIndex` of `out`,
/// converting to `out`'s element type: through double when the source is a
/// float, through int64 when it is an integer (so int64 values keep every
/// bit).
void copyElement(const HostTensor &tensor, int64_t index, HostTensor &out,
                 int64_t outIndex);

} // namespace raf::runtime::kernels

#endif // RAF_LIB_RUNTIME_KERNELS_KERNELSUPPORT_H
