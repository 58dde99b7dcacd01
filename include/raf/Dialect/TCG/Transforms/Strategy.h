//===- Strategy.h - Deployment strategies from embeddings -------*- C++ -*-===//
//
// The deployment strategy of an embedding (Rieber 2022, §4.1, §4.4.4,
// Tab. 4.1): the data-layout rewrites that bring every operand of an
// operator into a tiled layout whose innermost dimensions are the
// intrinsic's operand (a[tile..., x, z], b[tile..., y, z], c[tile..., x, y]
// for the VTA GEMM), and the packed operator that computes in that layout.
//
// Tiling. An operator iterator d that intrinsic axis q covers with Length L
// and Stride s (Fig. 4.10) is split into a tile t, a lane i and a residue r:
//
//   d = t * (L * s) + i * s + r,   t < T = ceil(E / (L * s)), i < L, r < s
//
// and padded to T * L * s. The lanes of the iterators of one axis fuse into
// the axis' index (innermost first: q = i_0 + L_0 * (i_1 + L_1 * ...)).
// Unmapped iterators stay. The packed operator's iterators are the parallel
// outer iterators (per parallel operator iterator in order: itself, or its
// tile and residue), the intrinsic's parallel iterators, the reduction outer
// iterators and the intrinsic's reduction iterators.
//
// Rewrites per operand, in Tab. 4.1's order (relay operation in brackets):
//  - view: materialise the operand's padded / dilated view [nn.pad, take];
//  - stencil unroll, dilate pack, image pack: a dimension whose index mixes
//    a mapped iterator with other iterators is gathered so that the mapped
//    iterator gets a dimension of its own [take with a constant index list];
//    a mapped iterator read at a scaled or offset index alone is sliced
//    [strided_slice];
//  - pad: dimensions of mapped iterators up to T * L * s [nn.pad];
//  - split: [T * L * s] -> [T, L, s] (s dropped when 1) [reshape];
//  - reorder: the outer dimensions in their order, then the lanes grouped
//    by the intrinsic operand's dimensions (VTA: z innermost) [transpose];
//  - fuse: the lanes of each intrinsic dimension into one [reshape].
// An operand whose access the rules cannot express (a quasi-affine index of
// a mapped iterator, a mapped iterator in two dimensions, an iterator of its
// own axes it does not read) is gathered from the flattened tensor with a
// constant index tensor computed here (the fallback, correct by
// construction). The result's rewrites are inverted after the packed
// operator.
//
//===----------------------------------------------------------------------===//

#ifndef RAF_DIALECT_TCG_TRANSFORMS_STRATEGY_H
#define RAF_DIALECT_TCG_TRANSFORMS_STRATEGY_H

#include "raf/Embedding/DataflowEmbedding.h"
#include "raf/Embedding/TensorExpression.h"

#include "llvm/ADT/SmallVector.h"
#include "llvm/Support/raw_ostream.h"

#include <optional>
#include <string>
#include <vector>

namespace raf::tcg {

/// The rewrites of Tab. 4.1 and the steps around them.
enum class StrategyRule {
  /// The operand's own padded / dilated view made explicit.
  View,
  StencilUnroll,
  DilatePack,
  ImagePack,
  /// A mapped iterator read at an offset or reversed: a slice.
  Slice,
  Pad,
  Split,
  Reorder,
  Fuse,
  /// The fallback: a gather from the flattened tensor.
  Gather,
};

llvm::StringRef stringifyStrategyRule(StrategyRule rule);

/// One relay operation of a layout rewrite, with static shapes.
struct LayoutOp {
  enum class Kind { Pad, Take, StridedSlice, Reshape, Transpose };
  Kind kind;
  llvm::SmallVector<int64_t> inputShape, resultShape;
  /// Pad: (before, after) per axis, filled with `padValue`.
  llvm::SmallVector<int64_t> padWidth;
  double padValue = 0.0;
  /// Transpose: the permutation (result axis i is input axis perm[i]).
  llvm::SmallVector<int64_t> permutation;
  /// StridedSlice: begin, end and stride per axis.
  llvm::SmallVector<int64_t> begin, end, strides;
  /// Take: the axis (none: from the flattened input) and the index tensor.
  std::optional<int64_t> axis;
  llvm::SmallVector<int64_t> indexShape;
  std::vector<int64_t> indices;
};

/// One rewrite of an operand and the relay operations that perform it.
struct LayoutRewrite {
  StrategyRule rule;
  /// Its parameters as printed, e.g. "kw 8, kh 2" for a stencil unroll.
  std::string detail;
  std::vector<LayoutOp> ops;
};

struct OperandStrategy {
  /// The operator's operand and the intrinsic's.
  std::string name, intrinsicOperand;
  /// The operator input it is (-1: the result).
  int input = -1;
  /// From the stored tensor to the packed one, in order. For the result:
  /// from the original result to the packed one (the pass applies
  /// `inverse`).
  std::vector<LayoutRewrite> rewrites;
  /// For the result: the packed result back to the original.
  std::vector<LayoutOp> inverse;

  bool usesFallback() const;
};

/// How one operator iterator is tiled (see the file comment).
struct IteratorTiling {
  /// The intrinsic iterator covering it, or -1.
  int axis = -1;
  /// Its place in that axis' mapping, innermost first.
  unsigned position = 0;
  int64_t length = 1, stride = 1, tiles = 1;
  /// Packed iterators: the tile (or the iterator itself when unmapped) and
  /// the residue (-1 when the stride is 1).
  int outer = -1, residue = -1;

  int64_t getPaddedExtent() const { return tiles * length * stride; }
};

struct Strategy {
  std::string intrinsic;
  /// Per operator iterator.
  llvm::SmallVector<IteratorTiling, 8> tiling;
  /// The packed operator; its inputs read the packed operands (no views)
  /// and its intrinsic iterators carry their names and GEMM axes.
  embed::TensorExpression packed;
  /// The operator's inputs in order, then its result.
  llvm::SmallVector<OperandStrategy, 3> operands;
};

/// Derives the strategy of embedding `emb` of `intrinsic` into `op`. Fails
/// with a reason in `error` when the embedding does not fit the operator
/// (an axis not covered exactly, a reduction on a parallel axis) or an
/// operand cannot be packed (it depends on another operand's axis).
bool deriveStrategy(const embed::TensorExpression &op,
                    const embed::TensorExpression &intrinsic,
                    const embed::Embedding &emb, Strategy &result,
                    std::string &error);

/// Replays `rewrites` on the positions of a tensor of shape `shape`: for
/// every element of the rewritten tensor (row-major), the flat index of the
/// element of the original it holds, or -1 where a pad inserts a zero.
/// Packs constant operands at compile time.
std::vector<int64_t> replayLayout(llvm::ArrayRef<LayoutRewrite> rewrites,
                                  llvm::ArrayRef<int64_t> shape);

/// "stencil unroll (kw 8, kh 2), pad kh 5->6 kw 20->24, ...": the rewrites
/// of one operand.
void printOperandStrategy(const OperandStrategy &operand,
                          llvm::raw_ostream &os);

} // namespace raf::tcg

#endif // RAF_DIALECT_TCG_TRANSFORMS_STRATEGY_H
