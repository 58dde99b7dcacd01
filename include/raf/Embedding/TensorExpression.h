//===- TensorExpression.h - Operators as tensor expressions -----*- C++ -*-===//
//
// The plain description of an operator (or a hardware intrinsic) that the
// dataflow embedding reads: an iteration domain, one access function per
// operand, and a scalar body with an optional reduction (Rieber
// 2022, Ch. 2, Eq. 2.6, and the TCG of §3.1).
//
//   out[p] = reduce_{r} body(in_0[f_0(p, r)], ..., in_k[f_k(p, r)])
//
// The tcg dialect builds this from a `tcg.kernel` (tcg::extractTensorExpr)
// and the intrinsic library provides its intrinsics in the same form, so the
// polyhedral dataflow graph and the constraint problem never walk IR.
//
// Operand views. An input may be read through a zero-padded and dilated view
// of the stored tensor: along dimension i, stored element j sits at position
// PadLow[i] + j * Dilation[i] of a view of extent
// PadLow[i] + (Shape[i] - 1) * Dilation[i] + 1 + PadHigh[i], and every other
// view position reads zero. Access maps index the view. Convolution padding
// is a padded view; a transposed convolution reads a dilated and padded view
// of its data.
//
//===----------------------------------------------------------------------===//

#ifndef RAF_EMBEDDING_TENSOREXPRESSION_H
#define RAF_EMBEDDING_TENSOREXPRESSION_H

#include "mlir/IR/AffineMap.h"
#include "mlir/IR/Types.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringRef.h"

#include <cstdint>
#include <optional>
#include <string>

namespace raf {
namespace embed {

/// One loop of the iteration domain, ranging over [0, Extent).
struct Iterator {
  std::string Name;
  int64_t Extent = 1;
  /// Reduction iterators are summed (or otherwise reduced) over; parallel
  /// iterators index the output.
  bool IsReduction = false;
  /// The GEMM axis ("x", "y" or "z") TVM's hand-written VTA strategy maps
  /// this iterator to (batch -> x, output channel -> y, input channel -> z;
  /// Rieber 2022, §4.4.2), or empty. Read by `mode=strict`.
  std::string StrictAxis;
};

/// An operand and the affine function from iterators to its view's indices.
struct Operand {
  std::string Name;
  /// Shape of the stored tensor.
  llvm::SmallVector<int64_t> Shape;
  mlir::Type ElementType;
  /// Iterators -> view indices; getNumDims() equals the number of iterators,
  /// getNumResults() the rank. Quasi-affine (floordiv/mod by constants)
  /// expressions are allowed.
  mlir::AffineMap Access;
  /// View parameters per dimension (see the file comment). Empty means no
  /// padding and dilation 1.
  llvm::SmallVector<int64_t> PadLow, PadHigh, Dilation;

  /// Extent of the view along dimension I.
  int64_t getViewExtent(unsigned I) const;
  /// The extents of the view.
  llvm::SmallVector<int64_t> getViewShape() const;
  /// Whether the view differs from the stored tensor.
  bool hasView() const;
};

/// Scalar operations of bodies and reductions. Div and Exp (Rieber 2022,
/// Tab. 3.1) are body operations only; Exp is unary.
enum class ScalarOp { Add, Sub, Mul, Max, Min, Div, Exp };

llvm::StringRef stringifyScalarOp(ScalarOp Op);
std::optional<ScalarOp> symbolizeScalarOp(llvm::StringRef Name);
/// Whether Op takes one operand (Exp).
bool isUnaryScalarOp(ScalarOp Op);
/// Whether Op may combine values over reduction iterators (add, mul, max,
/// min).
bool isReductionScalarOp(ScalarOp Op);

/// A node of the scalar body: an operand read or an operation on one (a
/// unary operation reads Lhs; Rhs equals Lhs) or two earlier nodes.
struct ScalarNode {
  bool IsInput = true;
  /// For inputs: the index into TensorExpression::Inputs.
  unsigned Input = 0;
  /// For operations.
  ScalarOp Op = ScalarOp::Mul;
  unsigned Lhs = 0, Rhs = 0;
};

struct TensorExpression {
  std::string Name;
  /// Parallel iterators first, one per output dimension in order, then the
  /// reduction iterators.
  llvm::SmallVector<Iterator, 8> Iterators;
  llvm::SmallVector<Operand, 2> Inputs;
  /// Its access map is the projection onto the parallel iterators.
  Operand Output;
  /// The body in topological order; the last node is the value produced per
  /// iteration point.
  llvm::SmallVector<ScalarNode> Body;
  /// How the body values are combined over the reduction iterators (starting
  /// from the operation's neutral element). Required iff there are
  /// reduction iterators.
  std::optional<ScalarOp> Reduction;

  unsigned getNumParallel() const;
  unsigned getNumReduction() const {
    return Iterators.size() - getNumParallel();
  }
  /// Number of points of the iteration domain (multiply-accumulates of a
  /// convolution).
  uint64_t getNumInstances() const;

  /// Checks the invariants documented above; on failure returns false and
  /// describes the first violation in Error.
  bool verify(std::string &Error) const;

  /// Makes the body the product of inputs 0 and 1 and, when there are
  /// reduction iterators, the reduction a sum: out = sum (in0 * in1), the
  /// form of convolutions and matrix products.
  void setMultiplyAccumulateBody();
};

} // namespace embed
} // namespace raf

#endif // RAF_EMBEDDING_TENSOREXPRESSION_H
