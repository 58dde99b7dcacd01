//===- DefaultBackends.cpp - the backends RAF-MLIR ships ------------------===//
//
// Priorities and patterns follow RAF's Table 1 and its source (RAF paper
// §3.2.1-3.2.2; src/impl/dialect.cc). Two departures, both documented in
// docs/fusion-and-dispatch.md: bias is optional in the convolution patterns
// (RAF's Fig. 6 fuses a conv2d + relu with no bias), and a bias may be written
// `relay.nn.bias_add` as well as `relay.add`.
//
//===----------------------------------------------------------------------===//

#include "raf/Dialect/Relay/Transforms/DefaultBackends.h"

#include "raf/Dialect/Relay/IR/RelayOps.h"
#include "raf/Dialect/Relay/Transforms/BackendRegistry.h"

using namespace mlir;
using namespace raf::relay;

namespace {

template <typename... OpTys>
Operation *definingOpOfType(Value value) {
  Operation *def = value.getDefiningOp();
  return def && isa<OpTys...>(def) ? def : nullptr;
}

bool hasElementType(Value value, Type elementType) {
  auto tensor = dyn_cast<RankedTensorType>(value.getType());
  return tensor && tensor.getElementType() == elementType;
}

/// A bias addition `add(x, b)` or `nn.bias_add(x, b)`: returns x.
std::optional<Value> biasedValue(Operation *op) {
  if (auto add = dyn_cast<AddOp>(op))
    return add.getLhs();
  if (auto biasAdd = dyn_cast<BiasAddOp>(op))
    return biasAdd.getX();
  return std::nullopt;
}

/// conv2d + [bias] + relu, rooted at the relu (Table 1; bias optional per RAF
/// paper Fig. 6, which fuses a conv2d + relu with no bias). With `onlyF16`,
/// data and weight must be f16.
bool matchConvBiasRelu(Operation *root, SmallVectorImpl<Operation *> &matched,
                       bool onlyF16) {
  auto relu = dyn_cast<ReluOp>(root);
  if (!relu)
    return false;
  Operation *input = relu.getX().getDefiningOp();
  if (!input)
    return false;
  Operation *bias = nullptr;
  if (std::optional<Value> biased = biasedValue(input)) {
    bias = input;
    input = biased->getDefiningOp();
  }
  auto conv = dyn_cast_or_null<Conv2DOp>(input);
  if (!conv)
    return false;
  if (onlyF16) {
    Type f16 = Float16Type::get(root->getContext());
    if (!hasElementType(conv.getData(), f16) ||
        !hasElementType(conv.getWeight(), f16))
      return false;
  }
  matched.push_back(conv);
  if (bias)
    matched.push_back(bias);
  matched.push_back(relu);
  return true;
}

bool matchSingleConv(Operation *root, SmallVectorImpl<Operation *> &matched) {
  if (!isa<Conv2DOp>(root))
    return false;
  matched.push_back(root);
  return true;
}

bool isMatmul(Operation *op) {
  return op && isa<DenseOp, MatmulOp, BatchMatmulOp>(op);
}

/// A scalar scale of a bias: shape () or (1,).
bool isBiasScale(Value value) {
  auto tensor = dyn_cast<RankedTensorType>(value.getType());
  return tensor && tensor.hasStaticShape() && tensor.getNumElements() == 1 &&
         tensor.getRank() <= 1;
}

/// matmul + (scaled) bias, rooted at the bias addition.
bool matchMatmulBias(Operation *root, SmallVectorImpl<Operation *> &matched) {
  std::optional<Value> biased = biasedValue(root);
  if (!biased || !isMatmul(biased->getDefiningOp()))
    return false;
  matched.push_back(biased->getDefiningOp());
  // `add(matmul, multiply(beta, bias))` with a scalar beta scales the bias;
  // any other bias operand is a plain input.
  if (auto add = dyn_cast<AddOp>(root))
    if (auto scale = dyn_cast_or_null<MultiplyOp>(add.getRhs().getDefiningOp()))
      if (isBiasScale(scale.getLhs()))
        matched.push_back(scale);
  matched.push_back(root);
  return true;
}

/// RAF's `_cutlass_matmul_fusion`: (matmul + (scaled) bias) or matmul,
/// followed by relu or gelu; or matmul + (scaled) bias. A single matmul is
/// excluded (cuBLAS is faster for it).
bool matchMatmulFusion(Operation *root, SmallVectorImpl<Operation *> &matched) {
  if (isa<ReluOp, GeluOp>(root)) {
    Operation *input = root->getOperand(0).getDefiningOp();
    if (!input)
      return false;
    if (isMatmul(input)) {
      matched.append({input, root});
      return true;
    }
    if (matchMatmulBias(input, matched)) {
      matched.push_back(root);
      return true;
    }
    return false;
  }
  return matchMatmulBias(root, matched);
}

} // namespace

void raf::relay::registerDefaultBackends(BackendRegistry &registry) {
  using llvm::cantFail;
  cantFail(registry.registerBackend(backend::kLinalg,
                                    {DeviceKind::CPU, DeviceKind::CUDA}));
  for (StringRef name :
       {backend::kCutlass, backend::kCudnn, backend::kCublas, backend::kCuda})
    cantFail(registry.registerBackend(name, {DeviceKind::CUDA}));

  // Dispatch priorities (cf. RAF paper §3.2.1, Fig. 4).
  cantFail(registry.registerAllOps(backend::kLinalg, /*priority=*/10));
  for (StringRef op :
       {DenseOp::getOperationName(), MatmulOp::getOperationName(),
        BatchMatmulOp::getOperationName()})
    cantFail(registry.registerOp(op, backend::kCublas, /*priority=*/15));
  cantFail(registry.registerOp(Conv2DOp::getOperationName(), backend::kCudnn,
                               /*priority=*/12));
  for (StringRef op :
       {SoftmaxOp::getOperationName(), DropoutOp::getOperationName()})
    cantFail(registry.registerOp(op, backend::kCudnn, /*priority=*/11));

  // The fusion list (Table 1, plus RAF's CUTLASS matmul pattern).
  cantFail(registry.registerFusionPattern(
      "conv2d_bias_relu_fp16", backend::kCutlass, 15,
      [](Operation *root, SmallVectorImpl<Operation *> &matched) {
        return matchConvBiasRelu(root, matched, /*onlyF16=*/true);
      }));
  cantFail(registry.registerFusionPattern(
      "conv2d_bias_relu", backend::kCuda, 12,
      [](Operation *root, SmallVectorImpl<Operation *> &matched) {
        return matchConvBiasRelu(root, matched, /*onlyF16=*/false);
      }));
  cantFail(registry.registerFusionPattern("conv2d", backend::kCuda, 10,
                                          matchSingleConv));
  cantFail(registry.registerFusionPattern("matmul_fusion", backend::kCutlass, 9,
                                          matchMatmulFusion));
  cantFail(registry.registerFusionPattern(
      "conv2d_bias_relu", backend::kCutlass, 8,
      [](Operation *root, SmallVectorImpl<Operation *> &matched) {
        return matchConvBiasRelu(root, matched, /*onlyF16=*/false);
      }));
  cantFail(
      registry.registerRuleBasedFusion("fusion_rules", backend::kLinalg, 5));
}
