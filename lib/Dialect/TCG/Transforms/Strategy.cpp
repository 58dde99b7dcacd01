//===- Strategy.cpp - Deployment strategies from embeddings ---------------===//
//
// The rules of Strategy.h. Every rewrite is planned on static shapes: each
// LayoutOp records the shape it reads and the shape it produces, so the
// pass only replays them as relay operations.
//
//===----------------------------------------------------------------------===//

#include "raf/Dialect/TCG/Transforms/Strategy.h"

#include "raf/Dialect/TCG/Utils/TensorExprPrinter.h"

#include "mlir/IR/AffineExpr.h"
#include "mlir/IR/AffineMap.h"
#include "mlir/IR/BuiltinTypes.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/Sequence.h"
#include "llvm/ADT/StringExtras.h"

#include <cmath>
#include <functional>
#include <limits>
#include <set>

using namespace mlir;
using namespace raf;
using namespace raf::tcg;

llvm::StringRef raf::tcg::stringifyStrategyRule(StrategyRule rule) {
  switch (rule) {
  case StrategyRule::View:
    return "view";
  case StrategyRule::StencilUnroll:
    return "stencil unroll";
  case StrategyRule::DilatePack:
    return "dilate pack";
  case StrategyRule::ImagePack:
    return "image pack";
  case StrategyRule::Slice:
    return "slice";
  case StrategyRule::Pad:
    return "pad";
  case StrategyRule::Split:
    return "split";
  case StrategyRule::Reorder:
    return "reorder";
  case StrategyRule::Fuse:
    return "fuse";
  case StrategyRule::Gather:
    return "gather";
  }
  return "";
}

bool OperandStrategy::usesFallback() const {
  return llvm::any_of(rewrites, [](const LayoutRewrite &r) {
    return r.rule == StrategyRule::Gather;
  });
}

namespace {

/// Upper bound on the index tensors of gathers: beyond it the strategy is
/// refused rather than building a constant of that size.
constexpr uint64_t kMaxGatherIndices = uint64_t(1) << 24;

int64_t product(ArrayRef<int64_t> values) {
  int64_t p = 1;
  for (int64_t v : values)
    p *= v;
  return p;
}

int64_t ceilDiv(int64_t a, int64_t b) { return (a + b - 1) / b; }

/// "[0, 0, 1, 1]".
std::string listText(ArrayRef<int64_t> values) {
  std::string text;
  llvm::raw_string_ostream os(text);
  os << '[';
  llvm::interleaveComma(values, os);
  os << ']';
  return text;
}

int64_t floorDiv(int64_t a, int64_t b) {
  int64_t q = a / b;
  return (a % b != 0 && (a < 0) != (b < 0)) ? q - 1 : q;
}

/// `constant + sum coeffs[d] * d`: the form of an affine index.
struct Linear {
  SmallVector<int64_t, 8> coeffs;
  int64_t constant = 0;

  SmallVector<unsigned, 4> getIterators() const {
    SmallVector<unsigned, 4> its;
    for (auto [d, c] : llvm::enumerate(coeffs))
      if (c != 0)
        its.push_back(d);
    return its;
  }
};

/// The linear form of `expr`, or none for quasi-affine expressions.
std::optional<Linear> linearize(AffineExpr expr, unsigned numDims) {
  Linear lin;
  lin.coeffs.assign(numDims, 0);
  std::function<bool(AffineExpr, int64_t)> walk = [&](AffineExpr e,
                                                      int64_t factor) {
    if (auto dim = dyn_cast<AffineDimExpr>(e)) {
      lin.coeffs[dim.getPosition()] += factor;
      return true;
    }
    if (auto constant = dyn_cast<AffineConstantExpr>(e)) {
      lin.constant += factor * constant.getValue();
      return true;
    }
    auto binary = dyn_cast<AffineBinaryOpExpr>(e);
    if (!binary)
      return false;
    if (e.getKind() == AffineExprKind::Add)
      return walk(binary.getLHS(), factor) && walk(binary.getRHS(), factor);
    if (e.getKind() != AffineExprKind::Mul)
      return false;
    if (auto c = dyn_cast<AffineConstantExpr>(binary.getRHS()))
      return walk(binary.getLHS(), factor * c.getValue());
    if (auto c = dyn_cast<AffineConstantExpr>(binary.getLHS()))
      return walk(binary.getRHS(), factor * c.getValue());
    return false;
  };
  if (!walk(expr, 1))
    return std::nullopt;
  return lin;
}

/// Evaluates a quasi-affine expression (floor semantics, non-negative
/// remainders).
int64_t evaluate(AffineExpr expr, ArrayRef<int64_t> dims) {
  if (auto dim = dyn_cast<AffineDimExpr>(expr))
    return dims[dim.getPosition()];
  if (auto constant = dyn_cast<AffineConstantExpr>(expr))
    return constant.getValue();
  auto binary = cast<AffineBinaryOpExpr>(expr);
  int64_t lhs = evaluate(binary.getLHS(), dims);
  int64_t rhs = evaluate(binary.getRHS(), dims);
  switch (expr.getKind()) {
  case AffineExprKind::Add:
    return lhs + rhs;
  case AffineExprKind::Mul:
    return lhs * rhs;
  case AffineExprKind::FloorDiv:
    return floorDiv(lhs, rhs);
  case AffineExprKind::CeilDiv:
    return -floorDiv(-lhs, rhs);
  case AffineExprKind::Mod:
    return lhs - floorDiv(lhs, rhs) * rhs;
  default:
    return 0;
  }
}

/// One dimension of an operand while it is being packed.
struct PackDim {
  int64_t size;
  /// Outer dimensions: the index in terms of the packed iterators.
  AffineExpr expr;
  /// A dimension indexed by exactly one mapped operator iterator, before
  /// the split.
  int bare = -1;
  /// A lane: the intrinsic part of a mapped operator iterator.
  int lane = -1;
};

/// Plans the rewrites of one operand.
class OperandPacker {
public:
  OperandPacker(const embed::TensorExpression &op,
                const embed::TensorExpression &intrinsic, Strategy &strategy,
                ArrayRef<int> axisIterator, double laneFill)
      : op(op), intrinsic(intrinsic), strategy(strategy),
        axisIterator(axisIterator), laneFill(laneFill),
        context(op.Output.Access.getContext()) {}

  /// Packs `operand`, whose intrinsic counterpart `intrinsicOperand` reads
  /// the intrinsic iterators `ownAxes` (one per dimension not read at a
  /// constant). Sets the packed operand's shape and access in
  /// `packedOperand`.
  bool pack(const embed::Operand &operand,
            const embed::Operand &intrinsicOperand, ArrayRef<unsigned> ownAxes,
            OperandStrategy &result, embed::Operand &packedOperand,
            std::string &error);

private:
  const embed::TensorExpression &op, &intrinsic;
  Strategy &strategy;
  ArrayRef<int> axisIterator;
  /// The value of the lanes padding adds beyond an iterator's extent (see
  /// getLaneFill); the operand's own view pads with zeros.
  double laneFill;
  MLIRContext *context;

  // The rewrite being planned.
  OperandStrategy *out = nullptr;
  SmallVector<int64_t> shape;

  const IteratorTiling &tiling(unsigned d) const { return strategy.tiling[d]; }
  /// One dimension of an intrinsic operand: read at a constant (a broadcast
  /// scalar, the s[0] of Rieber 2022, Tab. 3.1's vector-scalar
  /// instructions) or by an intrinsic axis.
  struct IntrinsicDim {
    std::optional<int64_t> constant;
    unsigned axis = 0;
    /// The stored extent (a constant) or the axis' extent.
    int64_t extent = 1;
    /// Its index in the packed operand: the constant or the packed axis.
    AffineExpr access;
  };
  /// The dimensions of `intrinsicOperand` in its order; `ownAxes` lists the
  /// axes of those not read at a constant.
  SmallVector<IntrinsicDim>
  getIntrinsicDims(const embed::Operand &intrinsicOperand,
                   ArrayRef<unsigned> ownAxes) const {
    SmallVector<IntrinsicDim> dims;
    const unsigned *nextAxis = ownAxes.begin();
    for (auto [k, expr] :
         llvm::enumerate(intrinsicOperand.Access.getResults())) {
      IntrinsicDim dim;
      if (auto constant = dyn_cast<AffineConstantExpr>(expr)) {
        dim.constant = constant.getValue();
        dim.extent = intrinsicOperand.Shape[k];
        dim.access = constant;
      } else {
        dim.axis = *nextAxis++;
        dim.extent = intrinsic.Iterators[dim.axis].Extent;
        dim.access = packedDim(axisIterator[dim.axis]);
      }
      dims.push_back(dim);
    }
    return dims;
  }
  bool isMapped(unsigned d) const { return tiling(d).axis >= 0; }
  AffineExpr packedDim(int index) const {
    return getAffineDimExpr(index, context);
  }
  /// `expr` over operator iterators, with unmapped iterators renamed to
  /// their packed iterator (mapped ones must not occur).
  AffineExpr toPacked(AffineExpr expr) const {
    SmallVector<AffineExpr> dims;
    for (unsigned d = 0, e = op.Iterators.size(); d != e; ++d)
      dims.push_back(packedDim(tiling(d).outer));
    return expr.replaceDims(dims);
  }
  std::string printPacked(AffineExpr expr) const {
    std::string text;
    llvm::raw_string_ostream os(text);
    printAccessExpr(expr, strategy.packed.Iterators, os);
    return text;
  }
  /// "kw 8" or "ow 4 (stride 2)": a mapped iterator.
  std::string describeMapped(unsigned d) const {
    std::string text =
        op.Iterators[d].Name + " " + std::to_string(tiling(d).length);
    if (tiling(d).stride != 1)
      text += " (stride " + std::to_string(tiling(d).stride) + ")";
    return text;
  }

  LayoutRewrite &rewrite(StrategyRule rule) {
    if (out->rewrites.empty() || out->rewrites.back().rule != rule)
      out->rewrites.push_back({rule, "", {}});
    return out->rewrites.back();
  }
  void addDetail(StrategyRule rule, const std::string &detail) {
    LayoutRewrite &r = rewrite(rule);
    if (!r.detail.empty())
      r.detail += ", ";
    r.detail += detail;
  }
  LayoutOp &addOp(StrategyRule rule, LayoutOp::Kind kind) {
    LayoutRewrite &r = rewrite(rule);
    r.ops.push_back({});
    LayoutOp &layoutOp = r.ops.back();
    layoutOp.kind = kind;
    layoutOp.inputShape = shape;
    return layoutOp;
  }
  void padOp(StrategyRule rule, ArrayRef<int64_t> width, double value = 0.0) {
    LayoutOp &p = addOp(rule, LayoutOp::Kind::Pad);
    p.padWidth.assign(width.begin(), width.end());
    p.padValue = value;
    for (unsigned k = 0, e = shape.size(); k != e; ++k)
      shape[k] += width[2 * k] + width[2 * k + 1];
    p.resultShape = shape;
  }
  void takeOp(StrategyRule rule, std::optional<int64_t> axis,
              ArrayRef<int64_t> indexShape, std::vector<int64_t> indices) {
    LayoutOp &t = addOp(rule, LayoutOp::Kind::Take);
    t.axis = axis;
    t.indexShape.assign(indexShape.begin(), indexShape.end());
    t.indices = std::move(indices);
    SmallVector<int64_t> result;
    if (axis) {
      llvm::append_range(result, ArrayRef(shape).take_front(*axis));
      llvm::append_range(result, indexShape);
      llvm::append_range(result, ArrayRef(shape).drop_front(*axis + 1));
    } else {
      llvm::append_range(result, indexShape);
    }
    shape = result;
    t.resultShape = shape;
  }
  void sliceOp(StrategyRule rule, unsigned axis, int64_t begin, int64_t size,
               int64_t stride) {
    LayoutOp &s = addOp(rule, LayoutOp::Kind::StridedSlice);
    for (unsigned k = 0, e = shape.size(); k != e; ++k) {
      bool sliced = k == axis;
      s.begin.push_back(sliced ? begin : 0);
      s.end.push_back(sliced ? begin + (size - 1) * stride + 1 : shape[k]);
      s.strides.push_back(sliced ? stride : 1);
    }
    shape[axis] = size;
    s.resultShape = shape;
  }
  void reshapeOp(StrategyRule rule, ArrayRef<int64_t> newShape) {
    LayoutOp &r = addOp(rule, LayoutOp::Kind::Reshape);
    shape.assign(newShape.begin(), newShape.end());
    r.resultShape = shape;
  }
  void transposeOp(StrategyRule rule, ArrayRef<int64_t> perm) {
    LayoutOp &t = addOp(rule, LayoutOp::Kind::Transpose);
    t.permutation.assign(perm.begin(), perm.end());
    SmallVector<int64_t> result;
    for (int64_t p : perm)
      result.push_back(shape[p]);
    shape = result;
    t.resultShape = shape;
  }

  /// The Tab. 4.1 order-1 rule for mapped iterator `m` in an index `lin`
  /// that also reads other iterators.
  StrategyRule classify(const Linear &lin, unsigned m) const;
  /// Why the structured rules cannot pack the operand (empty if they can).
  std::string needsFallback(const embed::Operand &operand,
                            ArrayRef<unsigned> ownAxes) const;
  bool gather(const embed::Operand &operand,
              const embed::Operand &intrinsicOperand,
              ArrayRef<unsigned> ownAxes, const std::string &reason,
              embed::Operand &packedOperand, std::string &error);
};

StrategyRule OperandPacker::classify(const Linear &lin, unsigned m) const {
  int64_t coeff = lin.coeffs[m];
  int64_t step = std::abs(coeff);
  // A reduction's lanes read neighbouring elements `step` apart: an im2col
  // with unit steps, the dilation otherwise.
  if (op.Iterators[m].IsReduction)
    return step == 1 ? StrategyRule::StencilUnroll : StrategyRule::DilatePack;
  // A parallel iterator's lanes are outputs `stride` apart; their data
  // (over the reductions of this index) overlaps iff the step between them
  // is a difference of two reduction sums.
  step *= tiling(m).stride;
  // Kernel windows are small; for large reductions the span decides (it
  // only matters for the rule's name, not for the rewrite's correctness).
  int64_t combinations = 1, span = 0;
  for (auto [d, c] : llvm::enumerate(lin.coeffs))
    if (c != 0 && d != m && op.Iterators[d].IsReduction) {
      combinations *= op.Iterators[d].Extent;
      span += std::abs(c) * (op.Iterators[d].Extent - 1);
    }
  bool overlap = step <= span;
  if (combinations <= (1 << 16)) {
    std::set<int64_t> sums = {0};
    for (auto [d, c] : llvm::enumerate(lin.coeffs)) {
      if (c == 0 || d == m || !op.Iterators[d].IsReduction)
        continue;
      std::set<int64_t> next;
      for (int64_t s : sums)
        for (int64_t v = 0; v < op.Iterators[d].Extent; ++v)
          next.insert(s + c * v);
      sums = std::move(next);
    }
    overlap = llvm::any_of(
        sums, [&](int64_t s) { return sums.count(s + step) != 0; });
  }
  if (!overlap)
    return StrategyRule::ImagePack;
  return step == 1 ? StrategyRule::StencilUnroll : StrategyRule::DilatePack;
}

std::string OperandPacker::needsFallback(const embed::Operand &operand,
                                         ArrayRef<unsigned> ownAxes) const {
  ArrayRef<AffineExpr> exprs = operand.Access.getResults();
  for (unsigned d = 0, e = op.Iterators.size(); d != e; ++d) {
    if (!isMapped(d))
      continue;
    unsigned uses = llvm::count_if(
        exprs, [&](AffineExpr expr) { return expr.isFunctionOfDim(d); });
    bool own = llvm::is_contained(ownAxes, unsigned(tiling(d).axis));
    const std::string &name = op.Iterators[d].Name;
    const std::string &axis = intrinsic.Iterators[tiling(d).axis].Name;
    if (own && uses == 0)
      return "it does not read " + name + ", which axis " + axis +
             " covers (a broadcast)";
    if (own && uses > 1)
      return "it reads " + name + " in " + std::to_string(uses) + " dimensions";
    if (!own && uses > 0)
      return "it reads " + name + ", which axis " + axis + " covers";
  }
  for (AffineExpr expr : exprs) {
    bool mapped = false;
    for (unsigned d = 0, e = op.Iterators.size(); d != e; ++d)
      mapped |= isMapped(d) && expr.isFunctionOfDim(d);
    if (mapped && !linearize(expr, op.Iterators.size())) {
      std::string text;
      llvm::raw_string_ostream os(text);
      printAccessExpr(expr, op.Iterators, os);
      return "its index " + text + " is not affine";
    }
  }
  return "";
}

bool OperandPacker::pack(const embed::Operand &operand,
                         const embed::Operand &intrinsicOperand,
                         ArrayRef<unsigned> ownAxes, OperandStrategy &result,
                         embed::Operand &packedOperand, std::string &error) {
  out = &result;
  unsigned numIters = op.Iterators.size();
  packedOperand.Name = operand.Name;
  packedOperand.ElementType = operand.ElementType;
  std::string reason = needsFallback(operand, ownAxes);
  if (!reason.empty())
    return gather(operand, intrinsicOperand, ownAxes, reason, packedOperand,
                  error);

  // The operand's own view (the convolution's padding and a transposed
  // convolution's dilation) becomes explicit: a zero pad, and a gather that
  // spreads the elements with holes reading an appended zero.
  shape.assign(operand.Shape.begin(), operand.Shape.end());
  if (operand.hasView()) {
    SmallVector<int64_t> width(2 * shape.size(), 0);
    bool dilated = false;
    for (unsigned k = 0, e = shape.size(); k != e; ++k) {
      width[2 * k] = operand.PadLow[k];
      width[2 * k + 1] = operand.PadHigh[k];
      dilated |= operand.Dilation[k] != 1;
    }
    std::string detail = "pad_low " + listText(operand.PadLow) + " pad_high " +
                         listText(operand.PadHigh);
    if (dilated) {
      SmallVector<int64_t> one(2 * shape.size(), 0);
      for (unsigned k = 0, e = shape.size(); k != e; ++k)
        if (operand.Dilation[k] != 1)
          one[2 * k + 1] = 1;
      padOp(StrategyRule::View, one);
      for (unsigned k = 0, e = shape.size(); k != e; ++k) {
        int64_t dil = operand.Dilation[k];
        if (dil == 1)
          continue;
        int64_t stored = operand.Shape[k];
        int64_t extent = (stored - 1) * dil + 1;
        std::vector<int64_t> indices;
        for (int64_t v = 0; v < extent; ++v)
          indices.push_back(v % dil == 0 ? v / dil : stored);
        takeOp(StrategyRule::View, k, {extent}, std::move(indices));
      }
      detail += " dilation " + listText(operand.Dilation);
    }
    if (llvm::any_of(width, [](int64_t w) { return w != 0; }))
      padOp(StrategyRule::View, width);
    addDetail(StrategyRule::View, detail);
  }

  // Order 1 (stencil unroll, dilate pack, image pack): every dimension that
  // reads a mapped iterator gets that iterator alone.
  SmallVector<PackDim> dims;
  for (auto [k, expr] : llvm::enumerate(operand.Access.getResults())) {
    unsigned axis = dims.size();
    int64_t size = shape[axis];
    std::optional<Linear> lin = linearize(expr, numIters);
    SmallVector<unsigned, 4> mapped;
    for (unsigned d = 0; d != numIters; ++d)
      if (isMapped(d) && expr.isFunctionOfDim(d))
        mapped.push_back(d);
    if (mapped.empty()) {
      dims.push_back({size, toPacked(expr)});
      continue;
    }
    // needsFallback guarantees an affine index.
    SmallVector<unsigned, 4> its = lin->getIterators();
    if (its.size() == 1) {
      unsigned d = its.front();
      int64_t c = lin->coeffs[d], c0 = lin->constant;
      int64_t extent = op.Iterators[d].Extent;
      if (c == 1 && c0 == 0) {
        dims.push_back({size, AffineExpr(), static_cast<int>(d)});
        continue;
      }
      // A scaled index without a stencil: an image pack without halo.
      StrategyRule rule = c > 1 ? StrategyRule::ImagePack : StrategyRule::Slice;
      if (c > 0) {
        sliceOp(rule, axis, c0, extent, c);
      } else {
        std::vector<int64_t> indices;
        for (int64_t v = 0; v < extent; ++v)
          indices.push_back(c * v + c0);
        takeOp(rule, axis, {extent}, std::move(indices));
      }
      addDetail(rule, rule == StrategyRule::ImagePack
                          ? describeMapped(d)
                          : op.Iterators[d].Name + " [" + std::to_string(c0) +
                                " + " + std::to_string(c) + " * " +
                                op.Iterators[d].Name + "]");
      dims.push_back({extent, AffineExpr(), static_cast<int>(d)});
      continue;
    }

    SmallVector<StrategyRule> rules;
    for (unsigned m : mapped)
      rules.push_back(classify(*lin, m));
    // An image pack of one parallel iterator: tile, lane and the residue
    // plus halo as three dimensions, each lane reading its own window.
    if (mapped.size() == 1 && rules.front() == StrategyRule::ImagePack &&
        lin->coeffs[mapped.front()] > 0) {
      unsigned m = mapped.front();
      const IteratorTiling &t = tiling(m);
      int64_t c = lin->coeffs[m];
      int64_t umin = lin->constant, umax = lin->constant + c * (t.stride - 1);
      AffineExpr u = getAffineConstantExpr(lin->constant, context);
      if (t.residue >= 0)
        u = u + packedDim(t.residue) * c;
      for (unsigned j : its) {
        if (j == m)
          continue;
        int64_t span = lin->coeffs[j] * (op.Iterators[j].Extent - 1);
        umin += std::min<int64_t>(0, span);
        umax += std::max<int64_t>(0, span);
        u = u + packedDim(tiling(j).outer) * lin->coeffs[j];
      }
      if (umin >= 0) {
        int64_t windows = umax - umin + 1;
        int64_t last = c * t.length * t.stride * (t.tiles - 1) +
                       c * t.stride * (t.length - 1) + umax;
        if (last >= size) {
          SmallVector<int64_t> width(2 * shape.size(), 0);
          width[2 * axis + 1] = last + 1 - size;
          padOp(StrategyRule::ImagePack, width, laneFill);
        }
        std::vector<int64_t> indices;
        for (int64_t ti = 0; ti < t.tiles; ++ti)
          for (int64_t li = 0; li < t.length; ++li)
            for (int64_t ui = 0; ui < windows; ++ui)
              indices.push_back(c * t.length * t.stride * ti +
                                c * t.stride * li + umin + ui);
        takeOp(StrategyRule::ImagePack, axis, {t.tiles, t.length, windows},
               std::move(indices));
        addDetail(StrategyRule::ImagePack, describeMapped(m));
        dims.push_back({t.tiles, packedDim(t.outer)});
        dims.push_back({t.length, AffineExpr(), -1, static_cast<int>(m)});
        dims.push_back({windows, u - umin});
        continue;
      }
    }
    // Otherwise one dimension per iterator of the index (im2col): mapped
    // iterators become bare dimensions, the others outer ones.
    SmallVector<int64_t> extents;
    for (unsigned j : its)
      extents.push_back(op.Iterators[j].Extent);
    if (static_cast<uint64_t>(product(extents)) > kMaxGatherIndices) {
      std::string text;
      llvm::raw_string_ostream os(text);
      printAccessExpr(expr, op.Iterators, os);
      error = "operand '" + operand.Name + "' needs a gather of " +
              std::to_string(product(extents)) + " indices for its index " +
              text + ", more than the limit of " +
              std::to_string(kMaxGatherIndices);
      return false;
    }
    std::vector<int64_t> indices;
    SmallVector<int64_t> point(its.size(), 0);
    for (int64_t n = 0, e = product(extents); n != e; ++n) {
      int64_t index = lin->constant;
      for (auto [j, v] : llvm::zip(its, point))
        index += lin->coeffs[j] * v;
      indices.push_back(index);
      for (int p = its.size() - 1; p >= 0 && ++point[p] == extents[p]; --p)
        point[p] = 0;
    }
    // The rule of the first mapped iterator names the gather; the others
    // are listed with theirs.
    StrategyRule rule = rules.front();
    takeOp(rule, axis, extents, std::move(indices));
    for (auto [m, r] : llvm::zip(mapped, rules))
      addDetail(r, describeMapped(m));
    for (unsigned j : its) {
      if (isMapped(j))
        dims.push_back(
            {op.Iterators[j].Extent, AffineExpr(), static_cast<int>(j)});
      else
        dims.push_back({op.Iterators[j].Extent, packedDim(tiling(j).outer)});
    }
  }

  // Pad (or crop) the bare dimensions to T * L * s.
  {
    SmallVector<int64_t> width(2 * dims.size(), 0);
    std::string detail;
    bool any = false;
    for (auto [k, dim] : llvm::enumerate(dims)) {
      if (dim.bare < 0)
        continue;
      int64_t padded = tiling(dim.bare).getPaddedExtent();
      if (padded == dim.size)
        continue;
      if (dim.size > padded) {
        sliceOp(StrategyRule::Pad, k, 0, padded, 1);
      } else {
        width[2 * k + 1] = padded - dim.size;
        any = true;
      }
      detail += (detail.empty() ? "" : " ") + op.Iterators[dim.bare].Name +
                " " + std::to_string(dim.size) + "->" + std::to_string(padded);
      dim.size = padded;
    }
    if (any)
      padOp(StrategyRule::Pad, width, laneFill);
    if (!detail.empty())
      addDetail(StrategyRule::Pad, detail);
  }

  // Split: [T * L * s] -> [T, L, s].
  {
    SmallVector<PackDim> split;
    SmallVector<int64_t> newShape;
    std::string detail;
    for (const PackDim &dim : dims) {
      if (dim.bare < 0) {
        split.push_back(dim);
        newShape.push_back(dim.size);
        continue;
      }
      const IteratorTiling &t = tiling(dim.bare);
      split.push_back({t.tiles, packedDim(t.outer)});
      split.push_back({t.length, AffineExpr(), -1, dim.bare});
      newShape.push_back(t.tiles);
      newShape.push_back(t.length);
      std::string parts =
          std::to_string(t.tiles) + ", " + std::to_string(t.length);
      if (t.residue >= 0) {
        split.push_back({t.stride, packedDim(t.residue)});
        newShape.push_back(t.stride);
        parts += ", " + std::to_string(t.stride);
      }
      detail += (detail.empty() ? "" : ", ") + op.Iterators[dim.bare].Name +
                " -> [" + parts + "]";
    }
    if (!detail.empty()) {
      reshapeOp(StrategyRule::Split, newShape);
      addDetail(StrategyRule::Split, detail);
    }
    dims = std::move(split);
  }

  // Reorder: outer dimensions first, then the lanes of each intrinsic
  // dimension in the operand's order, outermost lane first (the VTA rule:
  // z innermost for the inputs, x and y in the mapping's order).
  SmallVector<int64_t> perm;
  SmallVector<std::string> names;
  for (auto [k, dim] : llvm::enumerate(dims))
    if (dim.lane < 0) {
      perm.push_back(k);
      names.push_back(printPacked(dim.expr));
    }
  unsigned numOuter = perm.size();
  for (unsigned q : ownAxes) {
    SmallVector<std::pair<unsigned, unsigned>> lanes; // (position, dim)
    for (auto [k, dim] : llvm::enumerate(dims))
      if (dim.lane >= 0 && tiling(dim.lane).axis == static_cast<int>(q))
        lanes.push_back({tiling(dim.lane).position, k});
    llvm::sort(lanes, [](auto a, auto b) { return a.first > b.first; });
    for (auto [position, k] : lanes) {
      perm.push_back(k);
      names.push_back(op.Iterators[dims[k].lane].Name + ".i");
    }
  }
  // needsFallback admitted only lanes of the operand's own axes.
  assert(perm.size() == dims.size() && "a lane of a foreign axis");
  if (!llvm::equal(perm, llvm::seq<int64_t>(0, perm.size()))) {
    transposeOp(StrategyRule::Reorder, perm);
    addDetail(StrategyRule::Reorder, "(" + llvm::join(names, ", ") + ")");
  }

  // Fuse the lanes of each intrinsic dimension.
  SmallVector<int64_t> finalShape;
  SmallVector<AffineExpr> access;
  for (unsigned k = 0; k != numOuter; ++k) {
    finalShape.push_back(dims[perm[k]].size);
    access.push_back(dims[perm[k]].expr);
  }
  std::string fuseDetail;
  // The intrinsic operand's dimensions in its order. One read at a constant
  // c (the broadcast scalar s[0] of the vector-scalar instructions, Rieber
  // 2022, Tab. 3.1) holds the element the operator reads, which the outer
  // dimensions index: a unit dimension read at c, padded to the
  // intrinsic's extent if that is larger.
  SmallVector<int64_t> scalarWidth;
  for (const IntrinsicDim &dim : getIntrinsicDims(intrinsicOperand, ownAxes)) {
    access.push_back(dim.access);
    if (dim.constant) {
      int64_t c = *dim.constant;
      scalarWidth.resize(2 * finalShape.size(), 0);
      scalarWidth.push_back(c);
      scalarWidth.push_back(dim.extent - 1 - c);
      finalShape.push_back(1);
      fuseDetail += (fuseDetail.empty() ? "" : ", ") + intrinsicOperand.Name +
                    "[" + std::to_string(c) + "] broadcast";
      continue;
    }
    unsigned q = dim.axis;
    finalShape.push_back(dim.extent);
    // The iterators of axis q, innermost first as the embedding lists them.
    SmallVector<std::pair<unsigned, std::string>> members;
    for (unsigned d = 0; d != numIters; ++d)
      if (tiling(d).axis == static_cast<int>(q))
        members.push_back({tiling(d).position, op.Iterators[d].Name});
    llvm::sort(members);
    if (members.size() == 1)
      continue;
    fuseDetail +=
        (fuseDetail.empty() ? "" : ", ") + intrinsic.Iterators[q].Name + " = " +
        (members.empty()
             ? std::string("1")
             : "(" + llvm::join(llvm::make_second_range(members), ", ") + ")");
  }
  if (ArrayRef<int64_t>(finalShape) != ArrayRef<int64_t>(shape)) {
    reshapeOp(StrategyRule::Fuse, finalShape);
    addDetail(StrategyRule::Fuse, fuseDetail);
  }
  if (llvm::any_of(scalarWidth, [](int64_t w) { return w != 0; })) {
    scalarWidth.resize(2 * finalShape.size(), 0);
    padOp(StrategyRule::Fuse, scalarWidth);
    finalShape.assign(shape.begin(), shape.end());
  }
  packedOperand.Shape = finalShape;
  packedOperand.Access =
      AffineMap::get(strategy.packed.Iterators.size(), 0, access, context);
  return true;
}

bool OperandPacker::gather(const embed::Operand &operand,
                           const embed::Operand &intrinsicOperand,
                           ArrayRef<unsigned> ownAxes,
                           const std::string &reason,
                           embed::Operand &packedOperand, std::string &error) {
  unsigned numIters = op.Iterators.size();
  ArrayRef<AffineExpr> exprs = operand.Access.getResults();
  auto reads = [&](unsigned d) {
    return llvm::any_of(exprs,
                        [&](AffineExpr e) { return e.isFunctionOfDim(d); });
  };
  // The packed operand: one dimension per outer packed iterator of an
  // iterator it reads, in packed order, then its intrinsic dimensions.
  SmallVector<int> outer;
  for (unsigned d = 0; d != numIters; ++d) {
    if (!reads(d))
      continue;
    outer.push_back(tiling(d).outer);
    if (tiling(d).residue >= 0)
      outer.push_back(tiling(d).residue);
  }
  llvm::sort(outer);
  SmallVector<int64_t> packedShape;
  SmallVector<AffineExpr> access;
  for (int p : outer) {
    packedShape.push_back(strategy.packed.Iterators[p].Extent);
    access.push_back(packedDim(p));
  }
  // The intrinsic operand's dimensions in its order: an axis it reads, or a
  // constant c (a broadcast scalar, as in the structured rules: the element
  // at c, zeros elsewhere; e.g. a strided reduction's [points, stride]
  // dimension read at [z, 0]).
  SmallVector<unsigned> axisSlot;
  SmallVector<std::pair<unsigned, int64_t>> constants;
  for (const IntrinsicDim &dim : getIntrinsicDims(intrinsicOperand, ownAxes)) {
    if (dim.constant)
      constants.push_back({packedShape.size(), *dim.constant});
    else
      axisSlot.push_back(packedShape.size());
    packedShape.push_back(dim.extent);
    access.push_back(dim.access);
  }
  // Lanes of foreign axes must not change the element read.
  SmallVector<unsigned> foreign;
  for (unsigned d = 0; d != numIters; ++d)
    if (isMapped(d) && reads(d) &&
        !llvm::is_contained(ownAxes, unsigned(tiling(d).axis)))
      foreign.push_back(d);
  int64_t foreignLanes = 1;
  for (unsigned d : foreign)
    foreignLanes *= tiling(d).length;
  int64_t count = product(packedShape);
  if (static_cast<uint64_t>(count) * foreignLanes > kMaxGatherIndices) {
    error = "operand '" + operand.Name + "' needs the fallback gather (" +
            reason + ") with " + std::to_string(count) +
            " indices, more than the limit of " +
            std::to_string(kMaxGatherIndices);
    return false;
  }

  int64_t stored = product(operand.Shape);
  // The element a point of the packed operand reads: its flat index in the
  // stored tensor, `stored` (an appended zero) for the operand's own
  // padding and the elements a broadcast scalar does not read, or `fill`
  // (the lane fill, appended after the zero unless it is zero) for a lane
  // beyond an iterator's extent.
  int64_t fill = laneFill == 0.0 ? stored : stored + 1;
  SmallVector<int64_t> packedValues(strategy.packed.Iterators.size(), 0);
  SmallVector<int64_t> values(numIters, 0), view(exprs.size());
  auto elementAt = [&](ArrayRef<int64_t> lanes) -> std::optional<int64_t> {
    // lanes[d]: the lane of mapped iterator d.
    for (unsigned d = 0; d != numIters; ++d) {
      const IteratorTiling &t = tiling(d);
      int64_t v = packedValues[t.outer];
      if (t.axis >= 0) {
        v = v * t.length * t.stride + lanes[d] * t.stride;
        if (t.residue >= 0)
          v += packedValues[t.residue];
      }
      if (v >= op.Iterators[d].Extent)
        return std::nullopt;
      values[d] = v;
    }
    int64_t flat = 0;
    for (auto [k, expr] : llvm::enumerate(exprs)) {
      int64_t p = evaluate(expr, values) -
                  (operand.PadLow.empty() ? 0 : operand.PadLow[k]);
      int64_t dil = operand.Dilation.empty() ? 1 : operand.Dilation[k];
      if (p < 0 || p % dil != 0 || p / dil >= operand.Shape[k])
        return stored;
      flat = flat * operand.Shape[k] + p / dil;
    }
    return flat;
  };

  std::vector<int64_t> indices;
  indices.reserve(count);
  SmallVector<int64_t> point(packedShape.size(), 0);
  SmallVector<int64_t> lanes(numIters, 0);
  auto advance = [&] {
    for (int p = point.size() - 1; p >= 0 && ++point[p] == packedShape[p]; --p)
      point[p] = 0;
  };
  for (int64_t n = 0; n != count; ++n) {
    if (llvm::any_of(constants, [&](auto slot) {
          return point[slot.first] != slot.second;
        })) {
      indices.push_back(stored);
      advance();
      continue;
    }
    for (auto [k, p] : llvm::enumerate(outer))
      packedValues[p] = point[k];
    // The lanes of this operand's axes from its intrinsic indices.
    for (auto [j, q] : llvm::enumerate(ownAxes)) {
      int64_t index = point[axisSlot[j]];
      for (unsigned d = 0; d != numIters; ++d)
        if (tiling(d).axis == static_cast<int>(q)) {
          int64_t inner = 1;
          for (unsigned e = 0; e != numIters; ++e)
            if (tiling(e).axis == static_cast<int>(q) &&
                tiling(e).position < tiling(d).position)
              inner *= tiling(e).length;
          lanes[d] = (index / inner) % tiling(d).length;
        }
    }
    // Every combination of foreign lanes must read the same element;
    // foreign lanes in padding compute results that are cut away.
    std::optional<int64_t> element;
    bool padded = true;
    for (int64_t f = 0; f != foreignLanes; ++f) {
      int64_t rest = f;
      for (unsigned d : foreign) {
        lanes[d] = rest % tiling(d).length;
        rest /= tiling(d).length;
      }
      std::optional<int64_t> e = elementAt(lanes);
      bool inPadding = !e && llvm::any_of(foreign, [&](unsigned d) {
        const IteratorTiling &t = tiling(d);
        int64_t v = packedValues[t.outer] * t.length * t.stride +
                    lanes[d] * t.stride +
                    (t.residue >= 0 ? packedValues[t.residue] : 0);
        return v >= op.Iterators[d].Extent;
      });
      if (inPadding)
        continue;
      int64_t value = e.value_or(fill);
      if (padded) {
        element = value;
        padded = false;
      } else if (*element != value) {
        unsigned d = foreign.front();
        error = "operand '" + operand.Name + "' reads " + op.Iterators[d].Name +
                ", which intrinsic axis " +
                intrinsic.Iterators[tiling(d).axis].Name +
                " covers, but the intrinsic's operand has no such axis";
        return false;
      }
    }
    indices.push_back(element.value_or(fill));
    advance();
  }

  shape.assign(operand.Shape.begin(), operand.Shape.end());
  if (shape.size() != 1)
    reshapeOp(StrategyRule::Gather, {stored});
  padOp(StrategyRule::Gather, {0, 1});
  if (fill != stored)
    padOp(StrategyRule::Gather, {0, 1}, laneFill);
  takeOp(StrategyRule::Gather, std::nullopt, packedShape, std::move(indices));
  addDetail(StrategyRule::Gather, "fallback: " + reason);
  packedOperand.Shape = packedShape;
  packedOperand.Access =
      AffineMap::get(strategy.packed.Iterators.size(), 0, access, context);
  return true;
}

/// The value the lanes hold that padding adds beyond an iterator's extent
/// (Rieber 2022, §3.3.2: operators are padded to a multiple of the
/// intrinsic's size). A parallel lane beyond its extent computes a result
/// that is cut away, so any value does. A reduction lane is combined into a
/// result, so there the body must yield the reduction's neutral element n
/// (0 for add, 1 for mul, the lowest value for max, the highest for min):
/// the inputs that read the padded iterator hold n, and the body must map
/// that to n whatever finite values the other inputs hold. Fails, saying
/// why, when it does not.
std::optional<double> getLaneFill(const embed::TensorExpression &op,
                                  ArrayRef<IteratorTiling> tiling,
                                  std::string &error) {
  if (!op.Reduction)
    return 0.0;
  embed::ScalarOp r = *op.Reduction;
  Type element = op.Output.ElementType;
  bool isFloat = !element || isa<FloatType>(element);
  double fill = 0.0;
  switch (r) {
  case embed::ScalarOp::Add:
    fill = 0.0;
    break;
  case embed::ScalarOp::Mul:
    fill = 1.0;
    break;
  case embed::ScalarOp::Max:
  case embed::ScalarOp::Min: {
    bool max = r == embed::ScalarOp::Max;
    if (isFloat) {
      fill = max ? -std::numeric_limits<double>::infinity()
                 : std::numeric_limits<double>::infinity();
      break;
    }
    unsigned width = element.getIntOrFloatBitWidth();
    if (width > 32) {
      error = "padding lanes of a " + stringifyScalarOp(r).str() +
              " reduction over " + std::to_string(width) +
              "-bit integers are not supported";
      return std::nullopt;
    }
    fill = max ? -std::ldexp(1.0, width - 1) : std::ldexp(1.0, width - 1) - 1;
    break;
  }
  default:
    error =
        "reduction " + stringifyScalarOp(r).str() + " has no neutral element";
    return std::nullopt;
  }

  for (unsigned d = 0, e = op.Iterators.size(); d != e; ++d) {
    const embed::Iterator &it = op.Iterators[d];
    if (!it.IsReduction || tiling[d].axis < 0 ||
        tiling[d].getPaddedExtent() == it.Extent)
      continue;
    // Which body values are n on a padding lane of d.
    SmallVector<bool> neutral;
    for (const embed::ScalarNode &node : op.Body) {
      if (node.IsInput) {
        neutral.push_back(llvm::any_of(
            op.Inputs[node.Input].Access.getResults(),
            [&](AffineExpr expr) { return expr.isFunctionOfDim(d); }));
        continue;
      }
      bool a = neutral[node.Lhs],
           b = !embed::isUnaryScalarOp(node.Op) && neutral[node.Rhs];
      bool both = a && b, either = a || b, value = false;
      switch (node.Op) {
      case embed::ScalarOp::Add:
        // -inf + x = -inf for a finite x; integers would wrap.
        value = r == embed::ScalarOp::Add               ? both
                : r == embed::ScalarOp::Mul || !isFloat ? false
                                                        : either;
        break;
      case embed::ScalarOp::Sub:
        value = r == embed::ScalarOp::Add               ? both
                : r == embed::ScalarOp::Mul || !isFloat ? false
                                                        : a && !b;
        break;
      case embed::ScalarOp::Mul:
        value = r == embed::ScalarOp::Add   ? either
                : r == embed::ScalarOp::Mul ? both
                                            : false;
        break;
      case embed::ScalarOp::Max:
        value = r == embed::ScalarOp::Min ? either : both;
        break;
      case embed::ScalarOp::Min:
        value = r == embed::ScalarOp::Max ? either : both;
        break;
      case embed::ScalarOp::Div:
        value = r == embed::ScalarOp::Mul && both;
        break;
      default:
        value = false;
        break;
      }
      neutral.push_back(value);
    }
    if (neutral.empty() || !neutral.back()) {
      error = "reduction iterator " + it.Name + " is padded from " +
              std::to_string(it.Extent) + " to " +
              std::to_string(tiling[d].getPaddedExtent()) +
              " points, but the body does not yield the neutral element of " +
              stringifyScalarOp(r).str() + " on the padding";
      return std::nullopt;
    }
  }
  return fill;
}

/// The intrinsic iterator of every dimension of an intrinsic operand that
/// is not read at a constant (a broadcast scalar).
bool operandAxes(const embed::Operand &operand,
                 SmallVectorImpl<unsigned> &axes) {
  for (AffineExpr expr : operand.Access.getResults()) {
    if (isa<AffineConstantExpr>(expr))
      continue;
    auto dim = dyn_cast<AffineDimExpr>(expr);
    if (!dim)
      return false;
    axes.push_back(dim.getPosition());
  }
  return true;
}

/// The inverse of a rewrite of the result: shape changes undone in reverse
/// order. Gathers and slices never apply to results (their dimensions are
/// bare iterators).
bool invert(ArrayRef<LayoutRewrite> rewrites, std::vector<LayoutOp> &ops) {
  SmallVector<const LayoutOp *> forward;
  for (const LayoutRewrite &r : rewrites)
    for (const LayoutOp &o : r.ops)
      forward.push_back(&o);
  for (const LayoutOp *o : llvm::reverse(forward)) {
    LayoutOp inv;
    inv.inputShape = o->resultShape;
    inv.resultShape = o->inputShape;
    switch (o->kind) {
    case LayoutOp::Kind::Reshape:
      inv.kind = LayoutOp::Kind::Reshape;
      break;
    case LayoutOp::Kind::Transpose:
      inv.kind = LayoutOp::Kind::Transpose;
      inv.permutation.assign(o->permutation.size(), 0);
      for (auto [i, p] : llvm::enumerate(o->permutation))
        inv.permutation[p] = i;
      break;
    case LayoutOp::Kind::Pad:
      inv.kind = LayoutOp::Kind::StridedSlice;
      for (unsigned k = 0, e = o->inputShape.size(); k != e; ++k) {
        inv.begin.push_back(o->padWidth[2 * k]);
        inv.end.push_back(o->padWidth[2 * k] + o->inputShape[k]);
        inv.strides.push_back(1);
      }
      break;
    default:
      return false;
    }
    ops.push_back(std::move(inv));
  }
  return true;
}

} // namespace

bool raf::tcg::deriveStrategy(const embed::TensorExpression &op,
                              const embed::TensorExpression &intrinsic,
                              const embed::Embedding &emb, Strategy &result,
                              std::string &error) {
  result = Strategy();
  result.intrinsic = intrinsic.Name;
  unsigned numIters = op.Iterators.size();
  unsigned numAxes = intrinsic.Iterators.size();
  if (emb.Iterators.size() != numAxes) {
    error = "the embedding maps " + std::to_string(emb.Iterators.size()) +
            " axes but '" + intrinsic.Name + "' has " + std::to_string(numAxes);
    return false;
  }
  if (op.Inputs.size() != intrinsic.Inputs.size()) {
    error = "the operator has " + std::to_string(op.Inputs.size()) +
            " inputs but '" + intrinsic.Name + "' has " +
            std::to_string(intrinsic.Inputs.size());
    return false;
  }

  // Tiling of every operator iterator.
  result.tiling.assign(numIters, IteratorTiling());
  for (unsigned q = 0; q != numAxes; ++q) {
    const embed::Iterator &axis = intrinsic.Iterators[q];
    int64_t covered = 1;
    for (auto [position, m] : llvm::enumerate(emb.Iterators[q])) {
      if (m.Dim >= numIters || m.Length < 1 || m.Stride < 1) {
        error = "axis " + axis.Name + " maps an invalid iterator";
        return false;
      }
      IteratorTiling &t = result.tiling[m.Dim];
      const embed::Iterator &it = op.Iterators[m.Dim];
      if (t.axis >= 0) {
        error = "iterator " + it.Name + " is covered by two axes";
        return false;
      }
      if (it.IsReduction != axis.IsReduction) {
        error = std::string(it.IsReduction ? "reduction" : "parallel") +
                " iterator " + it.Name + " is covered by " +
                (axis.IsReduction ? "reduction" : "parallel") + " axis " +
                axis.Name;
        return false;
      }
      t.axis = q;
      t.position = position;
      t.length = m.Length;
      t.stride = m.Stride;
      t.tiles = ceilDiv(it.Extent, m.Length * m.Stride);
      covered *= m.Length;
    }
    if (covered != axis.Extent) {
      error = "axis " + axis.Name + " covers " + std::to_string(covered) +
              " of its " + std::to_string(axis.Extent) + " points";
      return false;
    }
  }

  // The packed operator's iterators.
  embed::TensorExpression &packed = result.packed;
  packed.Name = op.Name;
  packed.Body = op.Body;
  packed.Reduction = op.Reduction;
  SmallVector<int> axisIterator(numAxes, -1);
  auto addOuter = [&](unsigned d) {
    const embed::Iterator &it = op.Iterators[d];
    IteratorTiling &t = result.tiling[d];
    t.outer = packed.Iterators.size();
    if (t.axis < 0) {
      packed.Iterators.push_back({it.Name, it.Extent, it.IsReduction, ""});
      return;
    }
    packed.Iterators.push_back({it.Name + ".o", t.tiles, it.IsReduction, ""});
    if (t.stride > 1) {
      t.residue = packed.Iterators.size();
      packed.Iterators.push_back(
          {it.Name + ".r", t.stride, it.IsReduction, ""});
    }
  };
  auto addAxes = [&](bool reduction) {
    for (unsigned q = 0; q != numAxes; ++q) {
      const embed::Iterator &axis = intrinsic.Iterators[q];
      if (axis.IsReduction != reduction)
        continue;
      axisIterator[q] = packed.Iterators.size();
      packed.Iterators.push_back(
          {axis.Name, axis.Extent, reduction,
           axis.StrictAxis.empty() ? axis.Name : axis.StrictAxis});
    }
  };
  for (unsigned d = 0; d != numIters; ++d)
    if (!op.Iterators[d].IsReduction)
      addOuter(d);
  addAxes(/*reduction=*/false);
  for (unsigned d = 0; d != numIters; ++d)
    if (op.Iterators[d].IsReduction)
      addOuter(d);
  addAxes(/*reduction=*/true);

  std::optional<double> laneFill = getLaneFill(op, result.tiling, error);
  if (!laneFill)
    return false;
  OperandPacker packer(op, intrinsic, result, axisIterator, *laneFill);
  for (unsigned i = 0, e = op.Inputs.size(); i <= e; ++i) {
    bool isOutput = i == e;
    const embed::Operand &operand = isOutput ? op.Output : op.Inputs[i];
    const embed::Operand &intrinsicOperand =
        isOutput ? intrinsic.Output : intrinsic.Inputs[i];
    SmallVector<unsigned> axes;
    if (!operandAxes(intrinsicOperand, axes)) {
      error = "operand '" + intrinsicOperand.Name + "' of '" + intrinsic.Name +
              "' is not indexed by bare iterators or constants";
      return false;
    }
    if (isOutput && axes.size() != intrinsicOperand.Shape.size()) {
      error = "the result of '" + intrinsic.Name + "' is read at a constant";
      return false;
    }
    OperandStrategy s;
    s.name = operand.Name;
    s.intrinsicOperand = intrinsicOperand.Name;
    s.input = isOutput ? -1 : static_cast<int>(i);
    embed::Operand packedOperand;
    if (!packer.pack(operand, intrinsicOperand, axes, s, packedOperand,
                     error))
      return false;
    if (isOutput) {
      // The result reads every parallel iterator once in a bare dimension,
      // so it never needs a gather or a slice.
      [[maybe_unused]] bool invertible = invert(s.rewrites, s.inverse);
      assert(!s.usesFallback() && invertible && "a result without inverse");
      packed.Output = std::move(packedOperand);
    } else {
      packed.Inputs.push_back(std::move(packedOperand));
    }
    result.operands.push_back(std::move(s));
  }

#ifndef NDEBUG
  // The packed result is indexed by the parallel iterators in order (the
  // result's dimensions are bare iterators, so packing keeps that form),
  // which makes the packed operator a valid expression.
  SmallVector<AffineExpr> leading;
  for (unsigned p = 0, e = packed.getNumParallel(); p != e; ++p)
    leading.push_back(getAffineDimExpr(p, op.Output.Access.getContext()));
  assert(packed.Output.Access ==
             AffineMap::get(packed.Iterators.size(), 0, leading,
                            op.Output.Access.getContext()) &&
         "the packed result is not indexed by the parallel iterators");
  std::string invalid;
  assert(packed.verify(invalid) && "the packed operator is invalid");
#endif
  return true;
}

std::vector<int64_t> raf::tcg::replayLayout(ArrayRef<LayoutRewrite> rewrites,
                                            ArrayRef<int64_t> shape) {
  std::vector<int64_t> positions(product(shape));
  for (int64_t i = 0, e = positions.size(); i != e; ++i)
    positions[i] = i;
  // Row-major strides of a shape.
  auto stridesOf = [](ArrayRef<int64_t> dims) {
    SmallVector<int64_t> strides(dims.size(), 1);
    for (int k = static_cast<int>(dims.size()) - 2; k >= 0; --k)
      strides[k] = strides[k + 1] * dims[k + 1];
    return strides;
  };
  for (const LayoutRewrite &rewrite : rewrites) {
    for (const LayoutOp &op : rewrite.ops) {
      if (op.kind == LayoutOp::Kind::Reshape)
        continue;
      ArrayRef<int64_t> in = op.inputShape, out = op.resultShape;
      SmallVector<int64_t> inStrides = stridesOf(in);
      std::vector<int64_t> next(product(out));
      SmallVector<int64_t> index(out.size(), 0);
      for (int64_t n = 0, e = next.size(); n != e; ++n) {
        // The input element (flat) that output element `index` holds.
        int64_t source = 0;
        bool zero = false;
        switch (op.kind) {
        case LayoutOp::Kind::Pad:
          for (unsigned k = 0, r = in.size(); k != r; ++k) {
            int64_t i = index[k] - op.padWidth[2 * k];
            zero |= i < 0 || i >= in[k];
            source += i * inStrides[k];
          }
          break;
        case LayoutOp::Kind::StridedSlice:
          for (unsigned k = 0, r = in.size(); k != r; ++k)
            source += (op.begin[k] + index[k] * op.strides[k]) * inStrides[k];
          break;
        case LayoutOp::Kind::Transpose:
          for (unsigned k = 0, r = out.size(); k != r; ++k)
            source += index[k] * inStrides[op.permutation[k]];
          break;
        case LayoutOp::Kind::Take: {
          int64_t axis = op.axis.value_or(0);
          unsigned idxRank = op.indexShape.size();
          int64_t flat = 0;
          for (unsigned j = 0; j != idxRank; ++j)
            flat = flat * op.indexShape[j] + index[axis + j];
          int64_t picked = op.indices[flat];
          if (!op.axis) {
            source = picked;
            break;
          }
          for (int64_t k = 0; k != axis; ++k)
            source += index[k] * inStrides[k];
          source += picked * inStrides[axis];
          for (unsigned k = axis + 1, r = in.size(); k != r; ++k)
            source += index[k - 1 + idxRank] * inStrides[k];
          break;
        }
        case LayoutOp::Kind::Reshape:
          break;
        }
        next[n] = zero ? -1 : positions[source];
        for (int k = static_cast<int>(out.size()) - 1;
             k >= 0 && ++index[k] == out[k]; --k)
          index[k] = 0;
      }
      positions = std::move(next);
    }
  }
  return positions;
}

void raf::tcg::printOperandStrategy(const OperandStrategy &operand,
                                    llvm::raw_ostream &os) {
  os << operand.name << ": ";
  if (operand.rewrites.empty()) {
    os << "as stored";
    return;
  }
  llvm::interleave(
      operand.rewrites, os,
      [&](const LayoutRewrite &r) {
        os << stringifyStrategyRule(r.rule);
        if (r.detail.empty())
          return;
        bool listed = r.rule == StrategyRule::StencilUnroll ||
                      r.rule == StrategyRule::DilatePack ||
                      r.rule == StrategyRule::ImagePack ||
                      r.rule == StrategyRule::Gather ||
                      r.rule == StrategyRule::View;
        if (listed)
          os << " (" << r.detail << ")";
        else
          os << " " << r.detail;
      },
      ", ");
}
