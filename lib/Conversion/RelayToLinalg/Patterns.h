//===- Patterns.h - relay to linalg patterns and shared builders -*- C++
//-*-===//
//
// Internal to the RelayToLinalg conversion: the populate functions of the
// per-concept pattern files and the IR-building helpers they share. Every
// helper works on statically shaped ranked tensors; the pass checks static
// shapes before any pattern runs.
//
//===----------------------------------------------------------------------===//

#ifndef RAF_LIB_CONVERSION_RELAYTOLINALG_PATTERNS_H
#define RAF_LIB_CONVERSION_RELAYTOLINALG_PATTERNS_H

#include "raf/Dialect/Relay/IR/RelayAttrs.h"
#include "raf/Dialect/Relay/IR/ShapeInference.h"

#include "mlir/IR/AffineMap.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/IR/Value.h"
#include "llvm/ADT/STLFunctionalExtras.h"

namespace raf::relay_to_linalg {

//===----------------------------------------------------------------------===//
// Pattern sets, one per concept file
//===----------------------------------------------------------------------===//

/// relay.constant and tensor-typed relay.zero (ConstantToArith.cpp).
void populateConstantPatterns(mlir::RewritePatternSet &patterns);
/// Unary, broadcasting binary, comparison, where, cast, bias_add, dropout
/// and fill operators (ElementwiseToLinalg.cpp).
void populateElementwisePatterns(mlir::RewritePatternSet &patterns);
/// sum, mean, max, argmax (ReductionToLinalg.cpp).
void populateReductionPatterns(mlir::RewritePatternSet &patterns);
/// Convolutions, matrix products and pooling (NNToLinalg.cpp).
void populateNNPatterns(mlir::RewritePatternSet &patterns);
/// softmax, log_softmax, layer_norm, batch_norm and the losses
/// (NormalizationToLinalg.cpp).
void populateNormalizationPatterns(mlir::RewritePatternSet &patterns);
/// Reshapes, transposes, slices, gathers, padding, broadcast_to
/// (ShapeToLinalg.cpp).
void populateShapePatterns(mlir::RewritePatternSet &patterns);
/// relay.if with tensor results to scf.if (ControlFlowToSCF.cpp).
void populateControlFlowPatterns(mlir::RewritePatternSet &patterns);

//===----------------------------------------------------------------------===//
// Shared builders (LoweringHelpers.cpp)
//===----------------------------------------------------------------------===//

/// Computes the scalar result of an element-wise body from the scalars of the
/// inputs (block arguments, output excluded).
using ScalarBodyFn = llvm::function_ref<mlir::Value(
    mlir::OpBuilder &, mlir::Location, mlir::ValueRange)>;
/// Combines an input scalar into an accumulator.
using CombinerFn = llvm::function_ref<mlir::Value(
    mlir::OpBuilder &, mlir::Location, mlir::Value input, mlir::Value acc)>;

mlir::RankedTensorType getTensorType(mlir::Value value);

using relay::normalizeAxis;

/// A scalar constant of `type` (integer or float) holding `value`.
mlir::Value createScalar(mlir::OpBuilder &b, mlir::Location loc,
                         mlir::Type type, double value);
/// The smallest value of `type`: -inf for floats, the signed minimum for
/// integers (false for i1). The identity of max.
mlir::Value createLowest(mlir::OpBuilder &b, mlir::Location loc,
                         mlir::Type type);

/// tensor.empty of `type`.
mlir::Value createEmpty(mlir::OpBuilder &b, mlir::Location loc,
                        mlir::RankedTensorType type);
/// linalg.fill of a fresh tensor of `type` with `scalar`.
mlir::Value createFilled(mlir::OpBuilder &b, mlir::Location loc,
                         mlir::RankedTensorType type, mlir::Value scalar);

/// The indexing map that reads an operand of `operandShape` inside the
/// iteration space of `resultShape` under NumPy broadcasting (trailing axes
/// aligned; a size-1 axis that is stretched reads index 0).
mlir::AffineMap getBroadcastMap(mlir::MLIRContext *context,
                                llvm::ArrayRef<int64_t> operandShape,
                                llvm::ArrayRef<int64_t> resultShape);
/// The map (d0, ..., d{rank-1}) -> (the dimensions not in `dropped`).
mlir::AffineMap getDropDimsMap(mlir::MLIRContext *context, int64_t rank,
                               llvm::ArrayRef<int64_t> dropped);

/// An all-parallel linalg.generic producing `resultType` from `inputs`, each
/// broadcast to the result shape with NumPy rules.
mlir::Value createElementwise(mlir::OpBuilder &b, mlir::Location loc,
                              mlir::RankedTensorType resultType,
                              mlir::ValueRange inputs, ScalarBodyFn body);

/// An all-parallel linalg.generic producing `resultType`, reading each input
/// through the given map.
mlir::Value createParallelGeneric(mlir::OpBuilder &b, mlir::Location loc,
                                  mlir::RankedTensorType resultType,
                                  mlir::ValueRange inputs,
                                  llvm::ArrayRef<mlir::AffineMap> inputMaps,
                                  ScalarBodyFn body);

/// linalg.reduce of `input` over `dims` starting from `init`; the result has
/// the remaining dimensions in order.
mlir::Value createReduction(mlir::OpBuilder &b, mlir::Location loc,
                            mlir::Value input, llvm::ArrayRef<int64_t> dims,
                            mlir::Value init, CombinerFn combine);

/// Row-major reshape to `type` (same element count) with a single
/// tensor.expand_shape or tensor.collapse_shape where the shapes allow it,
/// else a collapse to 1-D followed by an expand.
mlir::Value createReshape(mlir::OpBuilder &b, mlir::Location loc,
                          mlir::Value input, mlir::RankedTensorType type);
/// `input` with `low`/`high` elements per axis filled with `padValue`
/// around it (static shapes: the input inserted into an empty tensor and
/// the border slabs filled; otherwise tensor.pad); `input` itself when
/// nothing is padded.
mlir::Value createPad(mlir::OpBuilder &b, mlir::Location loc, mlir::Value input,
                      llvm::ArrayRef<int64_t> low, llvm::ArrayRef<int64_t> high,
                      mlir::Value padValue);
/// True when `perm` (result dimension i is dimension `perm[i]` of `shape`)
/// keeps the axes whose size is not 1 in their order.
bool movesOnlyUnitAxes(llvm::ArrayRef<int64_t> shape,
                       llvm::ArrayRef<int64_t> perm);
/// linalg.transpose: result dimension i is input dimension `perm[i]`; a
/// reshape when the permutation moves only axes of size 1.
mlir::Value createTranspose(mlir::OpBuilder &b, mlir::Location loc,
                            mlir::Value input, llvm::ArrayRef<int64_t> perm);

/// Inside a linalg body: the row-major linear index (of index type) of the
/// iteration dimensions `dims` with sizes from `shape`; 0 when `dims` is empty.
mlir::Value createLinearIndex(mlir::OpBuilder &b, mlir::Location loc,
                              llvm::ArrayRef<int64_t> shape,
                              llvm::ArrayRef<int64_t> dims);

/// Converts a scalar to `to` (float/int extension and truncation, signed
/// int <-> float, i1 as bool: casting to i1 tests != 0, i1 extends unsigned).
mlir::Value convertScalar(mlir::OpBuilder &b, mlir::Location loc,
                          mlir::Value value, mlir::Type to);

/// Applies `fn` to `x` computed in f32 when `x` is a narrower float (f16,
/// bf16), so transcendental functions have a library lowering.
mlir::Value
computeInF32(mlir::OpBuilder &b, mlir::Location loc, mlir::Value x,
             llvm::function_ref<mlir::Value(mlir::OpBuilder &, mlir::Location,
                                            mlir::Value)>
                 fn);

/// Positions of the letters of `canonical` (e.g. "NCHW") in `layout`, a
/// permutation of it: the transpose permutation from `layout` to canonical.
llvm::SmallVector<int64_t> getLayoutToCanonical(relay::LayoutAttr layout,
                                                llvm::StringRef canonical);
/// The inverse permutation: from canonical back to `layout`.
llvm::SmallVector<int64_t> getCanonicalToLayout(relay::LayoutAttr layout,
                                                llvm::StringRef canonical);

} // namespace raf::relay_to_linalg

#endif // RAF_LIB_CONVERSION_RELAYTOLINALG_PATTERNS_H
