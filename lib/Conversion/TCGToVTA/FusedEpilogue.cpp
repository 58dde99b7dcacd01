//===- FusedEpilogue.cpp - ReLU / clip fused into the VTA epilogue --------===//
//
// TVM-VTA fuses the element-wise operations after a convolution (bias,
// ReLU, clip, requantisation) into the ALU instructions before the store
// (vta/python/vta/top/vta_conv2d.py, the "fused conv2d + bias + relu"
// schedule of the VTA tutorials). Here they are recognised in the relay
// function: the result of a packed kernel, through the layout rewrites that
// unpack it (which commute with element-wise operations), read first by a
// per-channel relay.nn.bias_add / relay.add, then by relay.nn.relu or by
// relay.maximum / relay.minimum with an integer splat constant.
//
// The bias is moved to the packed side by following every element of the
// packed result through the unpacking rewrites to the channel it becomes:
// the bias rows the program loads hold, per packed result row the bias
// varies along, the bias of each element's channel (a relay.take on the
// host, as the packing of the operands is).
//
//===----------------------------------------------------------------------===//

#include "raf/Conversion/TCGToVTA/TCGToVTA.h"

#include "raf/Dialect/Relay/IR/RelayOps.h"

#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/Dominance.h"
#include "mlir/IR/Matchers.h"

#include <algorithm>

using namespace mlir;
using namespace raf;

/// The integer splat value of `value` (a constant), if it is one.
static std::optional<int64_t> getSplatInteger(Value value) {
  DenseIntElementsAttr constant;
  if (!matchPattern(value, m_Constant(&constant)) || !constant.isSplat())
    return std::nullopt;
  return constant.getSplatValue<APInt>().getSExtValue();
}

namespace {

/// Follows an element's index through one unpacking rewrite (from the
/// rewrite's operand to its result); false when the rewrite drops the
/// element (a strided slice that does not keep it).
class IndexMap {
public:
  /// Null when `op` is not a rewrite with static shapes this can follow.
  static std::optional<IndexMap> get(Operation *op);
  bool apply(SmallVectorImpl<int64_t> &index) const;

private:
  enum class Kind { Reshape, Transpose, Slice } kind;
  SmallVector<int64_t> from, to;
  /// Transpose: result axis i is operand axis perm[i]. Slice: operand index
  /// = begin[d] + stride[d] * result index.
  SmallVector<int64_t> perm, begin, stride;
};

std::optional<IndexMap> IndexMap::get(Operation *op) {
  auto source = dyn_cast<RankedTensorType>(op->getOperand(0).getType());
  auto result = dyn_cast<RankedTensorType>(op->getResult(0).getType());
  if (!source || !result || !source.hasStaticShape() ||
      !result.hasStaticShape())
    return std::nullopt;
  IndexMap map;
  map.from.assign(source.getShape().begin(), source.getShape().end());
  map.to.assign(result.getShape().begin(), result.getShape().end());
  int64_t rank = source.getRank();
  if (isa<relay::ReshapeOp>(op)) {
    map.kind = Kind::Reshape;
    return map;
  }
  if (auto transpose = dyn_cast<relay::TransposeOp>(op)) {
    map.kind = Kind::Transpose;
    if (std::optional<ArrayRef<int64_t>> axes = transpose.getAxes()) {
      for (int64_t axis : *axes)
        map.perm.push_back(axis < 0 ? axis + rank : axis);
    } else {
      for (int64_t axis = rank - 1; axis >= 0; --axis)
        map.perm.push_back(axis);
    }
    return map;
  }
  auto slice = dyn_cast<relay::StridedSliceOp>(op);
  if (!slice)
    return std::nullopt;
  // NumPy semantics, as StridedSliceOp::inferResultTypes: negative indices
  // wrap once, then clamp.
  map.kind = Kind::Slice;
  map.begin.assign(rank, 0);
  map.stride.assign(rank, 1);
  ArrayRef<int64_t> begin = slice.getBegin();
  for (size_t i = 0; i < begin.size(); ++i) {
    int64_t axis = i;
    if (std::optional<ArrayRef<int64_t>> axes = slice.getAxes())
      axis = (*axes)[i] < 0 ? (*axes)[i] + rank : (*axes)[i];
    int64_t stride = 1;
    if (std::optional<ArrayRef<int64_t>> strides = slice.getStrides())
      stride = (*strides)[i];
    int64_t dim = map.from[axis];
    int64_t b = begin[i] < 0 ? begin[i] + dim : begin[i];
    b = stride > 0 ? std::clamp<int64_t>(b, 0, dim)
                   : std::clamp<int64_t>(b, -1, dim - 1);
    map.begin[axis] = b;
    map.stride[axis] = stride;
  }
  return map;
}

bool IndexMap::apply(SmallVectorImpl<int64_t> &index) const {
  switch (kind) {
  case Kind::Reshape: {
    int64_t linear = 0;
    for (auto [i, size] : llvm::enumerate(from))
      linear = linear * size + index[i];
    index.assign(to.size(), 0);
    for (int64_t d = int64_t(to.size()) - 1; d >= 0; --d) {
      index[d] = linear % to[d];
      linear /= to[d];
    }
    return true;
  }
  case Kind::Transpose: {
    SmallVector<int64_t> permuted;
    for (int64_t axis : perm)
      permuted.push_back(index[axis]);
    index.assign(permuted.begin(), permuted.end());
    return true;
  }
  case Kind::Slice:
    for (auto [d, size] : llvm::enumerate(to)) {
      int64_t offset = index[d] - begin[d];
      if (offset % stride[d] != 0 || offset / stride[d] < 0 ||
          offset / stride[d] >= size)
        return false;
      index[d] = offset / stride[d];
    }
    return true;
  }
  llvm_unreachable("unknown index map");
}

/// Packed results larger than this are not searched for a bias (the match
/// visits every element once).
constexpr int64_t kMaxBiasElements = int64_t(1) << 26;

/// The bias `op` adds to `value` (the kernel's result after `rewrites`), if
/// the program can add it: see FusedBias.
std::optional<vta::FusedBias> matchBias(tcg::KernelOp kernel, Operation *op,
                                        Value value,
                                        ArrayRef<Operation *> rewrites) {
  auto type = cast<RankedTensorType>(value.getType());
  if (op->getResult(0).getType() != type || !type.hasStaticShape())
    return std::nullopt;
  int64_t rank = type.getRank();
  Value bias;
  // The unpacked axis the bias varies along (-1: none).
  int64_t axis = -1;
  if (auto biasAdd = dyn_cast<relay::BiasAddOp>(op)) {
    if (biasAdd.getX() != value || biasAdd.getBias() == value)
      return std::nullopt;
    bias = biasAdd.getBias();
    // The attribute is a signed 64-bit value (negative counts from the end).
    axis = static_cast<int64_t>(biasAdd.getAxis());
    if (axis < 0)
      axis += rank;
    auto biasType = dyn_cast<RankedTensorType>(bias.getType());
    if (axis < 0 || axis >= rank || !biasType || biasType.getRank() != 1 ||
        biasType.getDimSize(0) != type.getDimSize(axis))
      return std::nullopt;
  } else if (isa<relay::AddOp>(op)) {
    Value lhs = op->getOperand(0), rhs = op->getOperand(1);
    if (lhs == rhs || (lhs != value && rhs != value))
      return std::nullopt;
    bias = lhs == value ? rhs : lhs;
    // NumPy broadcasting into the result: at most one axis of extent > 1.
    auto biasType = dyn_cast<RankedTensorType>(bias.getType());
    if (!biasType || !biasType.hasStaticShape() || biasType.getRank() > rank)
      return std::nullopt;
    int64_t shift = rank - biasType.getRank();
    for (auto [d, size] : llvm::enumerate(biasType.getShape())) {
      if (size == 1)
        continue;
      if (size != type.getDimSize(shift + d) || axis >= 0)
        return std::nullopt;
      axis = shift + d;
    }
  } else {
    return std::nullopt;
  }
  auto biasType = cast<RankedTensorType>(bias.getType());
  if (!biasType.getElementType().isSignlessInteger(32))
    return std::nullopt;
  // The host computes the bias rows before the launch (a constant defined
  // later is copied there).
  if (!DominanceInfo(kernel->getParentOp()).properlyDominates(bias, kernel) &&
      !matchPattern(bias, m_Constant()))
    return std::nullopt;
  std::vector<IndexMap> maps;
  for (Operation *rewrite : rewrites) {
    std::optional<IndexMap> map = IndexMap::get(rewrite);
    if (!map)
      return std::nullopt;
    maps.push_back(std::move(*map));
  }

  // The channel of every packed element (-1: dropped by the unpacking).
  auto packedType = cast<RankedTensorType>(kernel.getType());
  ArrayRef<int64_t> packed = packedType.getShape();
  int64_t count = packedType.getNumElements();
  if (count > kMaxBiasElements || packed.size() < 3)
    return std::nullopt;
  // Channels fit in 32 bits (the bias is one int32 row per channel); half
  // the memory of 64-bit entries on the largest results.
  std::vector<int32_t> channel(count);
  SmallVector<int64_t> point(packed.size(), 0), index;
  for (int64_t e = 0; e < count; ++e) {
    index.assign(point.begin(), point.end());
    bool kept = true;
    for (const IndexMap &map : maps) {
      kept = map.apply(index);
      if (!kept)
        break;
    }
    channel[e] = !kept ? -1 : axis < 0 ? 0 : int32_t(index[axis]);
    for (int64_t d = int64_t(packed.size()) - 1; d >= 0; --d) {
      if (++point[d] < packed[d])
        break;
      point[d] = 0;
    }
  }

  // The parallel tile dimensions (all but the GEMM axes x, y) along which
  // a kept element's channel changes.
  unsigned numTiles = packed.size() - 2;
  SmallVector<int64_t> strides(packed.size(), 1);
  for (int64_t d = int64_t(packed.size()) - 2; d >= 0; --d)
    strides[d] = strides[d + 1] * packed[d + 1];
  vta::FusedBias fused;
  fused.op = op;
  fused.input = value;
  fused.bias = bias;
  for (unsigned d = 0; d < numTiles; ++d) {
    bool varies = false;
    for (int64_t e = 0; e < count && !varies; ++e) {
      if ((e / strides[d]) % packed[d] != 0)
        continue;
      int64_t first = -1;
      for (int64_t k = 0; k < packed[d] && !varies; ++k) {
        int64_t c = channel[e + k * strides[d]];
        if (c < 0)
          continue;
        varies = first >= 0 && c != first;
        if (first < 0)
          first = c;
      }
    }
    if (varies)
      fused.dims.push_back(d);
  }
  for (unsigned d : fused.dims)
    fused.rowShape.push_back(packed[d]);
  if (fused.dims.empty())
    fused.rowShape.push_back(1);
  fused.rowShape.push_back(packed.end()[-2]);
  fused.rowShape.push_back(packed.end()[-1]);
  // The rows: every kept element must agree with the row it lands in (the
  // dimensions left out must not change the channel together either).
  // Elements no kept one reaches read channel 0 (their results are
  // dropped).
  int64_t rowElements = 1;
  for (int64_t size : fused.rowShape)
    rowElements *= size;
  fused.indices.assign(rowElements, -1);
  for (int64_t e = 0; e < count; ++e) {
    if (channel[e] < 0)
      continue;
    int64_t at = 0;
    for (unsigned d : fused.dims)
      at = at * packed[d] + (e / strides[d]) % packed[d];
    at = at * packed.end()[-2] + (e / strides[numTiles]) % packed.end()[-2];
    at = at * packed.end()[-1] + e % packed.end()[-1];
    int32_t &slot = fused.indices[at];
    if (slot >= 0 && slot != channel[e])
      return std::nullopt;
    slot = int32_t(channel[e]);
  }
  for (int32_t &slot : fused.indices)
    slot = std::max(slot, 0);
  return fused;
}

} // namespace

vta::FusedEpilogue vta::matchFusedEpilogue(tcg::KernelOp kernel) {
  FusedEpilogue epilogue;
  auto resultType = dyn_cast<RankedTensorType>(kernel.getType());
  if (!resultType || !resultType.getElementType().isInteger(32))
    return epilogue;
  // The clamp so far, min(max(x, low), high), over int32.
  int64_t low = INT32_MIN, high = INT32_MAX;
  Value value = kernel.getResult();
  // The unpacking rewrites up to `value`.
  SmallVector<Operation *> rewrites;
  while (value.hasOneUse()) {
    Operation *user = *value.getUsers().begin();
    if (isa<relay::ReshapeOp, relay::TransposeOp, relay::StridedSliceOp>(
            user)) {
      rewrites.push_back(user);
      value = user->getResult(0);
      continue;
    }
    // The bias comes first: the ALU adds it before it clamps.
    if (isa<relay::BiasAddOp, relay::AddOp>(user)) {
      if (epilogue.bias || !epilogue.fused.empty())
        break;
      epilogue.bias = matchBias(kernel, user, value, rewrites);
      if (!epilogue.bias)
        break;
      value = user->getResult(0);
      continue;
    }
    // max(x, c), or min(x, c), as a clamp of the clamp so far.
    std::optional<int64_t> bound;
    bool isMax = false;
    if (isa<relay::ReluOp>(user)) {
      bound = 0;
      isMax = true;
    } else if (isa<relay::MaximumOp, relay::MinimumOp>(user)) {
      isMax = isa<relay::MaximumOp>(user);
      Value lhs = user->getOperand(0), rhs = user->getOperand(1);
      Value other = lhs == value ? rhs : lhs;
      if (lhs == rhs || user->getResult(0).getType() != value.getType())
        break;
      bound = getSplatInteger(other);
    }
    if (!bound || *bound < INT32_MIN || *bound > INT32_MAX)
      break;
    int64_t newLow = isMax ? std::max(low, *bound) : std::min(low, *bound);
    int64_t newHigh = isMax ? std::max(high, *bound) : std::min(high, *bound);
    // Each bound that is emitted is an ALU immediate (signed 16 bits).
    auto fits = [](int64_t v, int64_t none) {
      return v == none || (v >= -32768 && v <= 32767);
    };
    if (!fits(newLow, INT32_MIN) || !fits(newHigh, INT32_MAX))
      break;
    low = newLow;
    high = newHigh;
    epilogue.fused.push_back(user);
    value = user->getResult(0);
  }
  if (low != INT32_MIN)
    epilogue.clampLow = low;
  if (high != INT32_MAX)
    epilogue.clampHigh = high;
  return epilogue;
}

void vta::FusedEpilogue::apply(PackedGemmLoweringOptions &options) const {
  options.clampLow = clampLow;
  options.clampHigh = clampHigh;
  if (bias)
    options.biasDims = bias->dims;
}

Value vta::FusedEpilogue::buildBiasRows(OpBuilder &builder,
                                        Location loc) const {
  if (!bias)
    return nullptr;
  Value flat = bias->bias;
  Operation *definition = flat.getDefiningOp();
  if (definition && definition->getBlock() == builder.getInsertionBlock() &&
      builder.getInsertionPoint() != builder.getInsertionBlock()->end() &&
      builder.getInsertionPoint()->isBeforeInBlock(definition))
    flat = builder.clone(*definition)->getResult(0);
  auto type = cast<RankedTensorType>(flat.getType());
  if (type.getRank() != 1) {
    auto flatType =
        RankedTensorType::get({type.getNumElements()}, type.getElementType());
    flat = relay::ReshapeOp::create(
        builder, loc, flatType, flat,
        builder.getDenseI64ArrayAttr({type.getNumElements()}));
  }
  auto indexType =
      RankedTensorType::get(bias->rowShape, builder.getIntegerType(32));
  Value indices = relay::ConstantOp::create(
      builder, loc, indexType,
      DenseElementsAttr::get(indexType, ArrayRef<int32_t>(bias->indices)));
  auto rowsType = RankedTensorType::get(bias->rowShape, type.getElementType());
  return relay::TakeOp::create(builder, loc, rowsType, flat, indices,
                               builder.getI64IntegerAttr(0),
                               relay::TakeMode::Clip);
}

void vta::FusedEpilogue::eraseFusedOps() const {
  if (bias) {
    bias->op->getResult(0).replaceAllUsesWith(bias->input);
    bias->op->erase();
    // A constant bias copied before the launch may be dead now.
    Operation *definition = bias->bias.getDefiningOp();
    if (definition && definition->use_empty() &&
        matchPattern(bias->bias, m_Constant()))
      definition->erase();
  }
  // The kernel's launch computes them now: each fused operation forwards
  // the operand it reads from the kernel's side.
  for (Operation *op : fused) {
    Value input = op->getOperand(0);
    if (op->getNumOperands() == 2 && !getSplatInteger(op->getOperand(1)))
      input = op->getOperand(1);
    op->getResult(0).replaceAllUsesWith(input);
    op->erase();
  }
}
