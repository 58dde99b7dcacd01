//===- FusedEpilogue.cpp - ReLU / clip fused into the VTA epilogue --------===//
//
// TVM-VTA fuses the element-wise operations after a convolution (bias,
// ReLU, clip, requantisation) into the ALU instructions before the store
// (vta/python/vta/top/vta_conv2d.py, the "fused conv2d + bias + relu"
// schedule of the VTA tutorials). Here the clamps are recognised in the
// relay function: the result of a packed kernel, through the layout
// rewrites that unpack it (which commute with element-wise operations), read
// by relay.nn.relu or by relay.maximum / relay.minimum with an integer splat
// constant.
//
//===----------------------------------------------------------------------===//

#include "raf/Conversion/TCGToVTA/TCGToVTA.h"

#include "raf/Dialect/Relay/IR/RelayOps.h"

#include "mlir/IR/BuiltinAttributes.h"
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

vta::FusedEpilogue vta::matchFusedEpilogue(tcg::KernelOp kernel) {
  FusedEpilogue epilogue;
  auto resultType = dyn_cast<RankedTensorType>(kernel.getType());
  if (!resultType || !resultType.getElementType().isInteger(32))
    return epilogue;
  // The clamp so far, min(max(x, low), high), over int32.
  int64_t low = INT32_MIN, high = INT32_MAX;
  Value value = kernel.getResult();
  while (value.hasOneUse()) {
    Operation *user = *value.getUsers().begin();
    if (isa<relay::ReshapeOp, relay::TransposeOp, relay::StridedSliceOp>(
            user)) {
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
}

void vta::FusedEpilogue::eraseFusedOps() const {
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
