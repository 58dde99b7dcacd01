//===- BackendRegistryTest.cpp - the backend registry API -----------------===//

#include "raf/Dialect/Relay/Transforms/BackendRegistry.h"

#include "raf/Dialect/Relay/IR/RelayDialect.h"
#include "raf/Dialect/Relay/IR/RelayOps.h"
#include "raf/Dialect/Relay/Transforms/DefaultBackends.h"
#include "raf/Dialect/Relay/Transforms/Passes.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassManager.h"

#include "gtest/gtest.h"

using namespace mlir;
using namespace raf::relay;

namespace {

/// The message of an expected error (empty if there was none).
std::string errorMessage(llvm::Error err) {
  if (!err)
    return "";
  return llvm::toString(std::move(err));
}

BackendRegistry makeDefaultRegistry() {
  BackendRegistry registry;
  registerDefaultBackends(registry);
  return registry;
}

std::string backendOf(const std::optional<BackendOpEntry> &entry) {
  return entry ? entry->backend : "<none>";
}

constexpr llvm::StringLiteral kDense = "relay.nn.dense";
constexpr llvm::StringLiteral kConv = "relay.nn.conv2d";

TEST(BackendRegistryTest, DeviceNames) {
  EXPECT_EQ(parseDeviceKind("cpu"), DeviceKind::CPU);
  EXPECT_EQ(parseDeviceKind("cuda"), DeviceKind::CUDA);
  EXPECT_EQ(parseDeviceKind("gpu"), std::nullopt);
  EXPECT_EQ(stringifyDeviceKind(DeviceKind::CUDA), "cuda");
}

// The dispatch decisions of the default table (RAF paper §3.2.1).
TEST(BackendRegistryTest, DefaultDispatch) {
  BackendRegistry registry = makeDefaultRegistry();
  EXPECT_EQ(backendOf(registry.dispatch(kDense, DeviceKind::CUDA)), "cublas");
  EXPECT_EQ(backendOf(registry.dispatch(kDense, DeviceKind::CPU)), "linalg");
  EXPECT_EQ(backendOf(registry.dispatch(kDense, DeviceKind::CUDA, {},
                                        {"linalg", "cublas"})),
            "linalg");
  EXPECT_EQ(backendOf(registry.dispatch(kDense, DeviceKind::CUDA, {"cublas"})),
            "linalg");
  EXPECT_EQ(backendOf(registry.dispatch(kConv, DeviceKind::CUDA)), "cudnn");
  EXPECT_EQ(backendOf(registry.dispatch("relay.nn.softmax", DeviceKind::CUDA)),
            "cudnn");
  EXPECT_EQ(backendOf(registry.dispatch("relay.add", DeviceKind::CUDA)),
            "linalg");
  // Everything skipped: no choice.
  EXPECT_EQ(
      backendOf(registry.dispatch("relay.add", DeviceKind::CPU, {"linalg"})),
      "<none>");
}

TEST(BackendRegistryTest, DispatchListOrderAndPreference) {
  BackendRegistry registry = makeDefaultRegistry();
  SmallVector<BackendOpEntry> cuda =
      registry.dispatchList(kConv, DeviceKind::CUDA);
  ASSERT_EQ(cuda.size(), 2u);
  EXPECT_EQ(cuda[0].backend, "cudnn");
  EXPECT_EQ(cuda[0].priority, 12);
  EXPECT_EQ(cuda[1].backend, "linalg");
  EXPECT_EQ(cuda[1].priority, 10);

  // cudnn is enabled on cuda only.
  SmallVector<BackendOpEntry> cpu =
      registry.dispatchList(kConv, DeviceKind::CPU);
  ASSERT_EQ(cpu.size(), 1u);
  EXPECT_EQ(cpu[0].backend, "linalg");

  // The preference filters (cublas has no conv2d) and reorders.
  SmallVector<BackendOpEntry> preferred = registry.dispatchList(
      kConv, DeviceKind::CUDA, {"linalg", "cublas", "cudnn"});
  ASSERT_EQ(preferred.size(), 2u);
  EXPECT_EQ(preferred[0].backend, "linalg");
  EXPECT_EQ(preferred[1].backend, "cudnn");
}

TEST(BackendRegistryTest, LowerIgnoresPriorityAndDevice) {
  BackendRegistry registry = makeDefaultRegistry();
  std::optional<BackendOpEntry> cudnn = registry.lower(kConv, "cudnn");
  ASSERT_TRUE(cudnn);
  EXPECT_EQ(cudnn->priority, 12);
  std::optional<BackendOpEntry> linalg = registry.lower("relay.exp", "linalg");
  ASSERT_TRUE(linalg);
  EXPECT_EQ(linalg->priority, 10);
  EXPECT_FALSE(registry.lower(kConv, "cublas"));
}

TEST(BackendRegistryTest, PriorityZeroIsNeverDispatched) {
  BackendRegistry registry;
  ASSERT_EQ(errorMessage(registry.registerBackend("a", {DeviceKind::CPU})), "");
  ASSERT_EQ(errorMessage(registry.registerBackend("b", {DeviceKind::CPU})), "");
  ASSERT_EQ(errorMessage(registry.registerOp("relay.exp", "a", 0)), "");
  EXPECT_EQ(backendOf(registry.dispatch("relay.exp", DeviceKind::CPU)),
            "<none>");
  ASSERT_EQ(errorMessage(registry.registerOp("relay.exp", "b", 1)), "");
  EXPECT_EQ(backendOf(registry.dispatch("relay.exp", DeviceKind::CPU)), "b");
  EXPECT_TRUE(registry.lower("relay.exp", "a"));
}

// Table 1 plus matmul_fusion, by descending priority.
TEST(BackendRegistryTest, DefaultFusionList) {
  BackendRegistry registry = makeDefaultRegistry();
  ArrayRef<FusionEntry> entries = registry.getFusionEntries();
  std::vector<std::tuple<std::string, std::string, int, bool>> got;
  for (const FusionEntry &entry : entries)
    got.emplace_back(entry.name, entry.backend, entry.priority,
                     entry.isRuleBased());
  std::vector<std::tuple<std::string, std::string, int, bool>> expected = {
      {"conv2d_bias_relu_fp16", "cutlass", 15, false},
      {"conv2d_bias_relu", "cuda", 12, false},
      {"conv2d", "cuda", 10, false},
      {"matmul_fusion", "cutlass", 9, false},
      {"conv2d_bias_relu", "cutlass", 8, false},
      {"fusion_rules", "linalg", 5, true}};
  EXPECT_EQ(got, expected);

  // On cpu only the linalg rules remain; disabling or preferring filters.
  BackendSelection cpu;
  ASSERT_EQ(registry.getFusionEntries(cpu).size(), 1u);
  EXPECT_EQ(registry.getFusionEntries(cpu)[0]->backend, "linalg");
  BackendSelection noCutlass{DeviceKind::CUDA, {}, {"cutlass"}};
  EXPECT_EQ(registry.getFusionEntries(noCutlass).size(), 3u);
  BackendSelection onlyCuda{DeviceKind::CUDA, {"cuda"}, {}};
  EXPECT_EQ(registry.getFusionEntries(onlyCuda).size(), 2u);
}

// The registry's errors (those of RAF's src/impl/dialect.cc), returned to
// the caller.
TEST(BackendRegistryTest, Errors) {
  BackendRegistry registry = makeDefaultRegistry();
  EXPECT_EQ(errorMessage(registry.registerBackend("cudnn", {DeviceKind::CUDA})),
            "backend 'cudnn' is already registered");
  EXPECT_EQ(errorMessage(registry.registerBackend("", {DeviceKind::CPU})),
            "a backend needs a non-empty name");
  EXPECT_EQ(errorMessage(registry.registerOp(kDense, "cublas", 20)),
            "backend 'cublas' is already registered for 'relay.nn.dense'");
  EXPECT_EQ(errorMessage(registry.registerOp(kDense, "cudnn", 15)),
            "priority 15 of 'relay.nn.dense' is already taken by backend "
            "'cublas'");
  // linalg registered every operator at 10: that priority is taken for
  // all of them, and linalg is registered for all of them.
  EXPECT_EQ(errorMessage(registry.registerOp("relay.exp", "cudnn", 10)),
            "priority 10 of 'relay.exp' is already taken by backend 'linalg'");
  EXPECT_EQ(errorMessage(registry.registerOp("relay.exp", "linalg", 3)),
            "backend 'linalg' is already registered for 'relay.exp'");
  EXPECT_EQ(errorMessage(registry.registerOp("relay.exp", "tvm", 3)),
            "unknown backend 'tvm'");
  EXPECT_EQ(errorMessage(registry.registerAllOps("cudnn", 15)),
            "priority 15 of 'relay.nn.batch_matmul' is already taken by "
            "backend 'cublas'");
  EXPECT_EQ(errorMessage(registry.registerAllOps("linalg", 1)),
            "backend 'linalg' is already registered for 'every operator'");
  auto anything = [](Operation *, SmallVectorImpl<Operation *> &) {
    return false;
  };
  EXPECT_EQ(
      errorMessage(registry.registerFusionPattern("p", "cudnn", 9, anything)),
      "fusion priority 9 is already taken by 'matmul_fusion' of backend "
      "'cutlass'");
  EXPECT_EQ(
      errorMessage(registry.registerFusionPattern("p", "tvm", 99, anything)),
      "unknown backend 'tvm'");
  EXPECT_EQ(
      errorMessage(registry.registerFusionPattern("p", "cudnn", 99, nullptr)),
      "fusion pattern 'p' has no matcher");
  EXPECT_EQ(errorMessage(registry.registerRuleBasedFusion("r", "cuda", 5)),
            "fusion priority 5 is already taken by 'fusion_rules' of backend "
            "'linalg'");

  // Failed registrations change nothing.
  EXPECT_EQ(registry.getFusionEntries().size(), 6u);
  EXPECT_EQ(registry.dispatchList(kDense, DeviceKind::CUDA).size(), 2u);
  EXPECT_EQ(registry.getBackendNames().size(), 5u);
}

//===----------------------------------------------------------------------===//
// A backend registered from outside, with a predicate on the operation
//===----------------------------------------------------------------------===//

class RegistryWithModuleTest : public ::testing::Test {
protected:
  RegistryWithModuleTest() {
    context.loadDialect<RelayDialect, func::FuncDialect>();
    module = parseSourceString<ModuleOp>(R"mlir(
      func.func @f(%x: tensor<1x16x8x8xi8>, %w: tensor<16x16x3x3xi8>,
                   %y: tensor<1x16x8x8xf32>, %v: tensor<16x16x3x3xf32>)
          -> (tensor<1x16x6x6xi8>, tensor<1x16x6x6xf32>) {
        %0 = relay.nn.conv2d %x, %w : (tensor<1x16x8x8xi8>, tensor<16x16x3x3xi8>)
        %1 = relay.nn.relu %0 : (tensor<1x16x6x6xi8>)
        %2 = relay.nn.conv2d %y, %v : (tensor<1x16x8x8xf32>, tensor<16x16x3x3xf32>)
        return %1, %2 : tensor<1x16x6x6xi8>, tensor<1x16x6x6xf32>
      }
    )mlir",
                                         &context);
  }

  SmallVector<Operation *> convolutions() {
    SmallVector<Operation *> ops;
    module->walk([&](Conv2DOp op) { ops.push_back(op); });
    return ops;
  }

  MLIRContext context;
  OwningOpRef<ModuleOp> module;
};

/// An accelerator that takes only int8 convolutions.
bool isInt8Conv(Operation *op) {
  auto conv = dyn_cast<Conv2DOp>(op);
  return conv && cast<RankedTensorType>(conv.getData().getType())
                     .getElementType()
                     .isInteger(8);
}

TEST_F(RegistryWithModuleTest, PredicateDecidesPerOperation) {
  ASSERT_TRUE(module);
  BackendRegistry registry = makeDefaultRegistry();
  ASSERT_EQ(errorMessage(registry.registerBackend("vta", {DeviceKind::CPU})),
            "");
  ASSERT_EQ(errorMessage(registry.registerOp(kConv, "vta", 20, isInt8Conv)),
            "");
  SmallVector<Operation *> convs = convolutions();
  ASSERT_EQ(convs.size(), 2u);
  EXPECT_EQ(backendOf(registry.dispatch(convs[0], DeviceKind::CPU)), "vta");
  EXPECT_EQ(backendOf(registry.dispatch(convs[1], DeviceKind::CPU)), "linalg");
  // vta is not enabled on cuda.
  EXPECT_EQ(backendOf(registry.dispatch(convs[0], DeviceKind::CUDA)), "cudnn");
  // Without an operation the predicate cannot be evaluated.
  EXPECT_EQ(backendOf(registry.dispatch(kConv, DeviceKind::CPU)), "linalg");
  EXPECT_EQ(registry.dispatchList(kConv, DeviceKind::CPU).size(), 2u);
}

/// The passes read the global registry: a library registers its backend
/// there and both --raf-dispatch and --raf-fuse use it, unchanged. (This
/// test changes the global registry; it is the only one reading it.)
TEST_F(RegistryWithModuleTest, PassesUseBackendsRegisteredFromOutside) {
  ASSERT_TRUE(module);
  BackendRegistry &global = getBackendRegistry();
  ASSERT_EQ(errorMessage(global.registerBackend("vta", {DeviceKind::CPU})), "");
  ASSERT_EQ(errorMessage(global.registerOp(kConv, "vta", 20, isInt8Conv)), "");
  ASSERT_EQ(errorMessage(global.registerFusionPattern(
                "vta_conv2d_relu", "vta", 30,
                [](Operation *root, SmallVectorImpl<Operation *> &matched) {
                  auto relu = dyn_cast<ReluOp>(root);
                  Operation *conv =
                      relu ? relu.getX().getDefiningOp() : nullptr;
                  if (!conv || !isInt8Conv(conv))
                    return false;
                  matched.append({conv, root});
                  return true;
                })),
            "");

  PassManager pm(&context);
  pm.addPass(createRafFuse());
  pm.addPass(createRafDispatch());
  ASSERT_TRUE(succeeded(pm.run(*module)));

  auto fused = module->lookupSymbol<func::FuncOp>("f_fused_0");
  ASSERT_TRUE(fused);
  EXPECT_EQ(fused->getAttrOfType<StringAttr>("relay.backend").getValue(),
            "vta");
  EXPECT_EQ(fused->getAttrOfType<StringAttr>("relay.fusion_pattern").getValue(),
            "vta_conv2d_relu");
  // The f32 convolution is left to linalg by dispatch.
  auto f = module->lookupSymbol<func::FuncOp>("f");
  SmallVector<std::string> backends;
  f.walk([&](Conv2DOp op) {
    backends.push_back(
        op->getAttrOfType<StringAttr>("relay.backend").getValue().str());
  });
  EXPECT_EQ(backends, SmallVector<std::string>{"linalg"});
}

} // namespace
