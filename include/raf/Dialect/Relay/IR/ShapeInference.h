//===- ShapeInference.h - shape functions of relay operators ----*- C++ -*-===//
//
// Shared type-inference helpers. Each returns failure after emitting a
// diagnostic at `loc` (when present) that says what is wrong and what was
// expected, prefixed by the operator name.
//
//===----------------------------------------------------------------------===//

#ifndef RAF_DIALECT_RELAY_IR_SHAPEINFERENCE_H
#define RAF_DIALECT_RELAY_IR_SHAPEINFERENCE_H

#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/Location.h"
#include "mlir/IR/TypeRange.h"
#include "mlir/IR/Value.h"
#include "mlir/IR/ValueRange.h"

#include <optional>

namespace raf::relay {

/// Which element types an operator accepts.
enum class ElementKind {
  Float,   // floating point only
  Numeric, // integer or floating point (not i1)
  Any      // any element type
};

/// Checks that every operand is a ranked tensor.
llvm::LogicalResult
verifyRankedTensorOperands(std::optional<mlir::Location> loc,
                           llvm::StringRef opName, mlir::ValueRange operands);

/// Checks that every inferred tensor type has sizes >= 0 (or dynamic) and a
/// valid element type. Runs after every shape function as a safety net: a
/// shape function must never hand out an invalid type, whatever attribute
/// values (overflowing arithmetic, odd dtypes) it is given.
llvm::LogicalResult verifyInferredTypes(std::optional<mlir::Location> loc,
                                        llvm::StringRef opName,
                                        mlir::TypeRange types);

/// Checks the element type of `type` against `kind`.
llvm::LogicalResult verifyElementKind(std::optional<mlir::Location> loc,
                                      llvm::StringRef opName,
                                      llvm::StringRef operandName,
                                      mlir::RankedTensorType type,
                                      ElementKind kind);

/// NumPy broadcasting of two shapes; returns std::nullopt when incompatible.
std::optional<llvm::SmallVector<int64_t>>
broadcastShapes(llvm::ArrayRef<int64_t> lhs, llvm::ArrayRef<int64_t> rhs);

/// Output extent of a sliding window (convolution, pooling) over `in`
/// elements, 0 when no window fits; dynamic in, dynamic out. With `ceilMode`
/// the last partial window counts, unless it starts inside the trailing
/// padding (PyTorch). Expects kernel >= 0, paddings >= 0, stride >= 1 and
/// dilation >= 1; std::nullopt when the arithmetic overflows int64_t (huge
/// sizes, paddings or dilations). Shared by the shape functions and the
/// reference evaluator.
std::optional<int64_t> windowOutputSize(int64_t in, int64_t kernel,
                                        int64_t padBefore, int64_t padAfter,
                                        int64_t stride, int64_t dilation,
                                        bool ceilMode = false);

/// Maps an axis the verifier has accepted, in [-rank, rank), to [0, rank).
/// Takes the I64Attr getters' uint64_t as well, which wraps negative axes.
/// Used by lowerings and the evaluator, after verification.
inline int64_t normalizeAxis(int64_t axis, int64_t rank) {
  return axis < 0 ? axis + rank : axis;
}

/// Maps `axis` in [-rank, rank) to [0, rank), or reports why it is not.
llvm::FailureOr<int64_t> normalizeAxis(std::optional<mlir::Location> loc,
                                       llvm::StringRef opName,
                                       llvm::StringRef what, int64_t axis,
                                       int64_t rank);

/// Expands a 1-, 2- or 4-value TVM padding to (top, left, bottom, right).
llvm::FailureOr<std::array<int64_t, 4>>
expandPadding2D(std::optional<mlir::Location> loc, llvm::StringRef opName,
                llvm::ArrayRef<int64_t> padding);

/// Result has the operand's type.
llvm::LogicalResult
inferElementwise(std::optional<mlir::Location> loc, llvm::StringRef opName,
                 mlir::Value x, ElementKind kind,
                 llvm::SmallVectorImpl<mlir::Type> &inferred);

/// Broadcasting binary operator; comparisons produce i1.
llvm::LogicalResult
inferBroadcast(std::optional<mlir::Location> loc, llvm::StringRef opName,
               mlir::Value lhs, mlir::Value rhs, ElementKind kind,
               bool isComparison, llvm::SmallVectorImpl<mlir::Type> &inferred);

/// Same type as the input after checking that `axis` is valid (softmax).
llvm::LogicalResult
inferAxisPreserving(std::optional<mlir::Location> loc, llvm::StringRef opName,
                    mlir::Value x, int64_t axis,
                    llvm::SmallVectorImpl<mlir::Type> &inferred);

/// Reduction over `axes` (all when absent) with keepdims/exclude; the result
/// element type is `resultElement` when given, else the input's.
llvm::LogicalResult
inferReduction(std::optional<mlir::Location> loc, llvm::StringRef opName,
               mlir::Value x, std::optional<llvm::ArrayRef<int64_t>> axes,
               bool keepdims, bool exclude, mlir::Type resultElement,
               llvm::SmallVectorImpl<mlir::Type> &inferred);

} // namespace raf::relay

#endif // RAF_DIALECT_RELAY_IR_SHAPEINFERENCE_H
