//===- GradientCheckTest.cpp - every gradient rule vs finite differences --===//
//
// For each case, the loss <r, f(args)> with a random weighting r (so the
// whole vector-Jacobian product is checked, not a sum) is differentiated by
// --raf-autodiff and run on the reference interpreter in f64; every element
// of every float argument's gradient is compared with the central
// difference (h = 1e-6) of the same loss, run on the interpreter too
// (pass: relative error <= 1e-5 or absolute error <= 1e-7). Inputs are
// seeded and, where an operator has a kink, kept away from it.
//
//===----------------------------------------------------------------------===//

#include "raf/Dialect/Relay/IR/RelayDialect.h"
#include "raf/Dialect/Relay/IR/RelayOps.h"
#include "raf/Dialect/Relay/Transforms/Passes.h"
#include "raf/Runtime/Interpreter.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassManager.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FormatVariadic.h"
#include "gtest/gtest.h"

#include <cmath>
#include <random>
#include <string>
#include <vector>

using namespace mlir;
using namespace raf::runtime;

namespace {

struct GradientCase {
  const char *name;
  /// Argument types; integer arguments are filled with values in
  /// [0, intHigh], float ones uniformly in [low, high].
  std::vector<const char *> args;
  /// Body over %a0, %a1, ... whose last operation's first result is f;
  /// `$0`, `$1`, ... stand for the argument types.
  const char *body;
  double low = -2.0, high = 2.0;
  /// Keeps float inputs at least this far from 0 (kinks of relu & co.).
  double awayFromZero = 0.0;
  int64_t intHigh = 3;
};

std::string substituteTypes(std::string text,
                            const std::vector<const char *> &types) {
  for (size_t i = types.size(); i-- > 0;) {
    std::string key = "$" + std::to_string(i);
    for (size_t pos; (pos = text.find(key)) != std::string::npos;)
      text.replace(pos, key.size(), types[i]);
  }
  return text;
}

class GradientCheck : public ::testing::TestWithParam<GradientCase> {
protected:
  GradientCheck() {
    DialectRegistry registry;
    registry.insert<raf::relay::RelayDialect, func::FuncDialect>();
    context.appendDialectRegistry(registry);
    context.loadAllAvailableDialects();
  }

  std::string signature(const GradientCase &c) {
    std::vector<std::string> params;
    for (size_t i = 0; i < c.args.size(); ++i)
      params.push_back(llvm::formatv("%a{0}: {1}", i, c.args[i]).str());
    return llvm::join(params, ", ");
  }

  MLIRContext context;
  std::string diagnostics;
};

TEST_P(GradientCheck, MatchesFiniteDifferences) {
  const GradientCase &c = GetParam();
  ScopedDiagnosticHandler handler(&context, [&](Diagnostic &d) {
    diagnostics += d.str() + "\n";
    return success();
  });
  std::string body = substituteTypes(c.body, c.args);

  // The type of f, from a probe function that only computes it.
  std::string probeText = llvm::formatv("func.func @probe({0}) {{\n{1}\n"
                                        "return\n}",
                                        signature(c), body)
                              .str();
  OwningOpRef<ModuleOp> probe =
      parseSourceString<ModuleOp>(probeText, &context);
  ASSERT_TRUE(probe) << probeText << "\n" << diagnostics;
  auto probeFn = cast<func::FuncOp>(probe->getBody()->front());
  Operation *last = probeFn.front().getTerminator()->getPrevNode();
  auto outTensor = cast<RankedTensorType>(last->getResult(0).getType());
  std::string outType, element;
  llvm::raw_string_ostream(outType) << outTensor;
  llvm::raw_string_ostream(element) << outTensor.getElementType();

  size_t weight = c.args.size();
  std::string lossText =
      llvm::formatv("func.func @loss({0}, %a{1}: {2}) -> tensor<{3}> {{\n{4}\n"
                    "%weighted = relay.multiply {5}, %a{1} : ({2}, {2})\n"
                    "%total = relay.sum %weighted : ({2})\n"
                    "return %total : tensor<{3}>\n}",
                    signature(c), weight, outType, element, body, "%y")
          .str();
  OwningOpRef<ModuleOp> forward =
      parseSourceString<ModuleOp>(lossText, &context);
  ASSERT_TRUE(forward) << lossText << "\n" << diagnostics;
  OwningOpRef<ModuleOp> gradient = forward->clone();

  std::vector<int64_t> differentiated;
  auto lossFn = cast<func::FuncOp>(forward->getBody()->front());
  for (size_t i = 0; i < c.args.size(); ++i)
    if (isa<FloatType>(cast<RankedTensorType>(lossFn.getArgumentTypes()[i])
                           .getElementType()))
      differentiated.push_back(i);
  raf::relay::RafAutodiffOptions options;
  options.entry = "loss";
  options.requiresGrad.assign(differentiated.begin(), differentiated.end());
  options.inlineBackward = true;
  PassManager pm(&context);
  pm.addPass(raf::relay::createRafAutodiff(options));
  ASSERT_TRUE(succeeded(pm.run(*gradient))) << diagnostics;

  // Seeded inputs; the case name seeds so adding a case changes no other.
  std::mt19937_64 generator(std::hash<std::string>{}(c.name));
  std::vector<RuntimeValue> inputs;
  for (Type type : lossFn.getArgumentTypes()) {
    auto tensorType = cast<RankedTensorType>(type);
    HostTensor tensor(*dtypeFromMLIR(tensorType.getElementType()),
                      tensorType.getShape());
    bool isFloat = isa<FloatType>(tensorType.getElementType());
    std::uniform_real_distribution<double> real(c.low, c.high);
    std::uniform_int_distribution<int64_t> integer(0, c.intHigh);
    for (int64_t i = 0, e = tensor.getNumElements(); i < e; ++i) {
      if (!isFloat) {
        tensor.setInt(i, integer(generator));
        continue;
      }
      double v = real(generator);
      if (std::abs(v) < c.awayFromZero)
        v = v < 0 ? v - c.awayFromZero : v + c.awayFromZero;
      tensor.setDouble(i, v);
    }
    inputs.push_back(RuntimeValue::tensor(std::move(tensor)));
  }

  Interpreter forwardRunner(*forward), gradientRunner(*gradient);
  std::vector<RuntimeValue> gradientInputs = inputs;
  HostTensor seed(DType::F64, {});
  seed.setDouble(0, 1.0);
  gradientInputs.push_back(RuntimeValue::tensor(seed));
  auto analytic = gradientRunner.run("loss", gradientInputs);
  ASSERT_TRUE(succeeded(analytic)) << diagnostics;
  ASSERT_EQ(analytic->size(), 1 + differentiated.size());

  auto evaluate = [&](const std::vector<RuntimeValue> &args) {
    auto result = forwardRunner.run("loss", args);
    EXPECT_TRUE(succeeded(result)) << diagnostics;
    return succeeded(result) ? (*result)[0].getTensor()->getDouble(0) : NAN;
  };
  const double h = 1e-6;
  for (auto [k, argIndex] : llvm::enumerate(differentiated)) {
    if (static_cast<size_t>(argIndex) == weight)
      continue;
    const HostTensor &grad = *(*analytic)[1 + k].getTensor();
    HostTensor point = *inputs[argIndex].getTensor();
    for (int64_t i = 0, e = point.getNumElements(); i < e; ++i) {
      double original = point.getDouble(i);
      std::vector<RuntimeValue> args = inputs;
      point.setDouble(i, original + h);
      args[argIndex] = RuntimeValue::tensor(point);
      double plus = evaluate(args);
      point.setDouble(i, original - h);
      args[argIndex] = RuntimeValue::tensor(point);
      double minus = evaluate(args);
      point.setDouble(i, original);
      double numeric = (plus - minus) / (2 * h);
      double got = grad.getDouble(i);
      double error = std::abs(got - numeric);
      EXPECT_TRUE(error <= 1e-7 || error <= 1e-5 * std::abs(numeric))
          << c.name << ": d loss / d arg" << argIndex << "[" << i
          << "] = " << got << ", finite difference " << numeric;
    }
  }
}

// f64 throughout. Broadcasting and reduction variants are separate cases.
const GradientCase kCases[] = {
    // Element-wise.
    {"relu", {"tensor<3x4xf64>"}, "%y = relay.nn.relu %a0 : ($0)", -2, 2, 0.1},
    {"leaky_relu",
     {"tensor<3x4xf64>"},
     "%y = relay.nn.leaky_relu %a0 {alpha = 0.2} : ($0)",
     -2,
     2,
     0.1},
    {"sigmoid", {"tensor<3x4xf64>"}, "%y = relay.sigmoid %a0 : ($0)"},
    {"tanh", {"tensor<3x4xf64>"}, "%y = relay.tanh %a0 : ($0)"},
    {"exp", {"tensor<3x4xf64>"}, "%y = relay.exp %a0 : ($0)"},
    {"log", {"tensor<3x4xf64>"}, "%y = relay.log %a0 : ($0)", 0.5, 3},
    {"sqrt", {"tensor<3x4xf64>"}, "%y = relay.sqrt %a0 : ($0)", 0.5, 3},
    {"rsqrt", {"tensor<3x4xf64>"}, "%y = relay.rsqrt %a0 : ($0)", 0.5, 3},
    {"erf", {"tensor<3x4xf64>"}, "%y = relay.erf %a0 : ($0)"},
    {"gelu", {"tensor<3x4xf64>"}, "%y = relay.nn.gelu %a0 : ($0)"},
    {"gelu_tanh",
     {"tensor<3x4xf64>"},
     "%y = relay.nn.gelu %a0 "
     "{approximate = #relay.gelu_approximation<tanh>} : ($0)"},
    {"negative", {"tensor<3x4xf64>"}, "%y = relay.negative %a0 : ($0)"},
    {"square", {"tensor<3x4xf64>"}, "%y = relay.square %a0 : ($0)"},
    {"dropout",
     {"tensor<4x5xf64>"},
     "%y = relay.nn.dropout %a0 {rate = 0.3, seed = 7} : ($0)"},
    {"zeros_like",
     {"tensor<3xf64>"},
     "%z = relay.zeros_like %a0 : ($0)\n"
     "%y = relay.add %z, %a0 : ($0, $0)"},
    {"ones_like",
     {"tensor<3xf64>"},
     "%o = relay.ones_like %a0 : ($0)\n"
     "%y = relay.multiply %o, %a0 : ($0, $0)"},
    {"fan_out",
     {"tensor<3xf64>"},
     "%s = relay.multiply %a0, %a0 : ($0, $0)\n"
     "%y = relay.add %s, %a0 : ($0, $0)"},
    // Broadcasting.
    {"add_broadcast",
     {"tensor<3x4xf64>", "tensor<4xf64>"},
     "%y = relay.add %a0, %a1 : ($0, $1)"},
    {"subtract_both_sides",
     {"tensor<3x1xf64>", "tensor<1x4xf64>"},
     "%y = relay.subtract %a0, %a1 : ($0, $1)"},
    {"multiply_rank",
     {"tensor<2x3x4xf64>", "tensor<3x1xf64>"},
     "%y = relay.multiply %a0, %a1 : ($0, $1)"},
    {"divide",
     {"tensor<3x4xf64>", "tensor<4xf64>"},
     "%y = relay.divide %a0, %a1 : ($0, $1)",
     0.5,
     2},
    {"power",
     {"tensor<3x4xf64>", "tensor<4xf64>"},
     "%y = relay.power %a0, %a1 : ($0, $1)",
     0.5,
     2},
    {"maximum",
     {"tensor<3x4xf64>", "tensor<4xf64>"},
     "%y = relay.maximum %a0, %a1 : ($0, $1)"},
    {"minimum",
     {"tensor<3x4xf64>", "tensor<3x4xf64>"},
     "%y = relay.minimum %a0, %a1 : ($0, $1)"},
    {"where",
     {"tensor<3x4xf64>", "tensor<3x4xf64>", "tensor<4xf64>"},
     "%zero = relay.constant dense<0.0> : tensor<f64>\n"
     "%c = relay.greater %a0, %zero : ($0, tensor<f64>)\n"
     "%y = relay.where %c, %a1, %a2 : (tensor<3x4xi1>, $1, $2)",
     -2,
     2,
     0.1},
    {"bias_add",
     {"tensor<2x3x4xf64>", "tensor<3xf64>"},
     "%y = relay.nn.bias_add %a0, %a1 {axis = 1} : ($0, $1)"},
    // Linear algebra.
    {"dense_3d",
     {"tensor<2x3x5xf64>", "tensor<4x5xf64>"},
     "%y = relay.nn.dense %a0, %a1 : ($0, $1)"},
    {"matmul",
     {"tensor<3x5xf64>", "tensor<5x4xf64>"},
     "%y = relay.nn.matmul %a0, %a1 : ($0, $1)"},
    {"matmul_nt",
     {"tensor<3x5xf64>", "tensor<4x5xf64>"},
     "%y = relay.nn.matmul %a0, %a1 {transpose_b = true} : ($0, $1)"},
    {"matmul_tn",
     {"tensor<5x3xf64>", "tensor<5x4xf64>"},
     "%y = relay.nn.matmul %a0, %a1 {transpose_a = true} : ($0, $1)"},
    {"matmul_tt",
     {"tensor<5x3xf64>", "tensor<4x5xf64>"},
     "%y = relay.nn.matmul %a0, %a1 {transpose_a = true, transpose_b = true} "
     ": ($0, $1)"},
    {"batch_matmul",
     {"tensor<2x3x5xf64>", "tensor<2x4x5xf64>"},
     "%y = relay.nn.batch_matmul %a0, %a1 : ($0, $1)"},
    {"batch_matmul_broadcast",
     {"tensor<1x5x3xf64>", "tensor<2x5x4xf64>"},
     "%y = relay.nn.batch_matmul %a0, %a1 {transpose_a = true, transpose_b = "
     "false} : ($0, $1)"},
    {"conv2d",
     {"tensor<2x3x5x5xf64>", "tensor<4x3x3x3xf64>"},
     "%y = relay.nn.conv2d %a0, %a1 {padding = array<i64: 1, 1, 1, 1>} : "
     "($0, $1)"},
    {"conv2d_strided_dilated",
     {"tensor<1x2x9x8xf64>", "tensor<3x2x2x3xf64>"},
     "%y = relay.nn.conv2d %a0, %a1 {strides = array<i64: 2, 3>, dilation = "
     "array<i64: 2, 1>, padding = array<i64: 1, 0, 2, 1>} : ($0, $1)"},
    {"conv2d_grouped",
     {"tensor<1x4x5x5xf64>", "tensor<6x2x3x3xf64>"},
     "%y = relay.nn.conv2d %a0, %a1 {groups = 2, strides = array<i64: 2, 2>} "
     ": ($0, $1)"},
    {"conv2d_depthwise",
     {"tensor<2x3x5x5xf64>", "tensor<3x1x3x3xf64>"},
     "%y = relay.nn.conv2d %a0, %a1 {groups = 3, padding = array<i64: 1, 1, "
     "1, 1>} : ($0, $1)"},
    {"conv2d_nhwc",
     {"tensor<1x5x5x2xf64>", "tensor<3x3x2x4xf64>"},
     "%y = relay.nn.conv2d %a0, %a1 {data_layout = #relay.layout<NHWC>, "
     "kernel_layout = #relay.layout<HWIO>} : ($0, $1)"},
    {"conv2d_transpose",
     {"tensor<1x4x3x3xf64>", "tensor<4x3x3x3xf64>"},
     "%y = relay.nn.conv2d_transpose %a0, %a1 {groups = 2, strides = "
     "array<i64: 2, 2>, padding = array<i64: 1, 1, 1, 1>, output_padding = "
     "array<i64: 1, 0>} : ($0, $1)"},
    // Normalisation and losses.
    {"softmax",
     {"tensor<3x4xf64>"},
     "%y = relay.nn.softmax %a0 {axis = 1} : ($0)"},
    {"log_softmax",
     {"tensor<3x4xf64>"},
     "%y = relay.nn.log_softmax %a0 {axis = 0} : ($0)"},
    {"layer_norm",
     {"tensor<2x3x4xf64>", "tensor<4xf64>", "tensor<4xf64>"},
     "%y = relay.nn.layer_norm %a0, %a1, %a2 : ($0, $1, $2)"},
    {"layer_norm_no_scale",
     {"tensor<3x4xf64>", "tensor<3xf64>", "tensor<3xf64>"},
     "%y = relay.nn.layer_norm %a0, %a1, %a2 {axis = 0, scale = false, "
     "epsilon = 0.01} : ($0, $1, $2)"},
    {"batch_norm_training",
     {"tensor<2x3x3x2xf64>", "tensor<3xf64>", "tensor<3xf64>", "tensor<3xf64>",
      "tensor<3xf64>"},
     "%y, %m, %v = relay.nn.batch_norm %a0, %a1, %a2, %a3, %a4 {training = "
     "true} : ($0, $1, $2, $3, $4)",
     0.2,
     2},
    {"batch_norm_inference",
     {"tensor<2x3x2xf64>", "tensor<3xf64>", "tensor<3xf64>", "tensor<3xf64>",
      "tensor<3xf64>"},
     "%y, %m, %v = relay.nn.batch_norm %a0, %a1, %a2, %a3, %a4 : ($0, $1, "
     "$2, $3, $4)",
     0.2,
     2},
    {"nll_loss_mean_ignore",
     {"tensor<5x4xf64>", "tensor<5xi64>"},
     "%y = relay.nn.nll_loss %a0, %a1 {ignore_index = 1} : ($0, $1)"},
    {"nll_loss_none_spatial",
     {"tensor<2x3x4xf64>", "tensor<2x4xi64>"},
     "%y = relay.nn.nll_loss %a0, %a1 "
     "{reduction = #relay.loss_reduction<none>} : ($0, $1)",
     -2,
     2,
     0,
     2},
    {"cross_entropy_indices",
     {"tensor<4x5xf64>", "tensor<4xi64>"},
     "%y = relay.nn.cross_entropy %a0, %a1 : ($0, $1)",
     -2,
     2,
     0,
     4},
    {"cross_entropy_probabilities",
     {"tensor<3x4xf64>", "tensor<3x4xf64>"},
     "%y = relay.nn.cross_entropy %a0, %a1 "
     "{reduction = #relay.loss_reduction<sum>} : ($0, $1)",
     0.1,
     1},
    // Reductions and pooling.
    {"sum_keepdims",
     {"tensor<2x3x4xf64>"},
     "%y = relay.sum %a0 {axis = array<i64: 1>, keepdims = true} : ($0)"},
    {"sum_all", {"tensor<2x3xf64>"}, "%y = relay.sum %a0 : ($0)"},
    {"sum_exclude",
     {"tensor<2x3x4xf64>"},
     "%y = relay.sum %a0 {axis = array<i64: -1>, exclude = true} : ($0)"},
    {"mean",
     {"tensor<2x3x4xf64>"},
     "%y = relay.mean %a0 {axis = array<i64: 0, 2>} : ($0)"},
    {"max",
     {"tensor<3x5xf64>"},
     "%y = relay.max %a0 {axis = array<i64: 1>} : ($0)"},
    {"max_pool2d_overlapping",
     {"tensor<1x2x5x5xf64>"},
     "%y = relay.nn.max_pool2d %a0 {pool_size = array<i64: 3, 3>, strides = "
     "array<i64: 2, 2>, padding = array<i64: 1, 1, 1, 1>} : ($0)"},
    {"max_pool2d_nhwc_ceil",
     {"tensor<1x5x4x2xf64>"},
     "%y = relay.nn.max_pool2d %a0 {pool_size = array<i64: 2, 2>, strides = "
     "array<i64: 2, 2>, layout = #relay.layout<NHWC>, ceil_mode = true} : "
     "($0)"},
    {"avg_pool2d",
     {"tensor<2x2x5x5xf64>"},
     "%y = relay.nn.avg_pool2d %a0 {pool_size = array<i64: 3, 3>, strides = "
     "array<i64: 2, 2>, padding = array<i64: 1, 1, 1, 1>} : ($0)"},
    {"avg_pool2d_count_pad_ceil",
     {"tensor<1x2x5x4xf64>"},
     "%y = relay.nn.avg_pool2d %a0 {pool_size = array<i64: 2, 3>, padding = "
     "array<i64: 1, 1, 1, 1>, count_include_pad = true, ceil_mode = true, "
     "strides = array<i64: 2, 2>} : ($0)"},
    {"global_avg_pool2d",
     {"tensor<2x3x4x5xf64>"},
     "%y = relay.nn.global_avg_pool2d %a0 : ($0)"},
    // Shapes.
    {"reshape",
     {"tensor<2x6xf64>"},
     "%y = relay.reshape %a0 {newshape = array<i64: 3, -1>} : ($0)"},
    {"transpose",
     {"tensor<2x3x4xf64>"},
     "%y = relay.transpose %a0 {axes = array<i64: 1, 2, 0>} : ($0)"},
    {"expand_dims",
     {"tensor<2x3xf64>"},
     "%y = relay.expand_dims %a0 {axis = 1, num_newaxis = 2} : ($0)"},
    {"squeeze", {"tensor<2x1x3xf64>"}, "%y = relay.squeeze %a0 : ($0)"},
    {"concatenate",
     {"tensor<2x1xf64>", "tensor<2x3xf64>", "tensor<2x2xf64>"},
     "%y = relay.concatenate %a0, %a1, %a2 {axis = 1} : ($0, $1, $2)"},
    {"split_unused_part",
     {"tensor<6x2xf64>"},
     "%p:3 = relay.split %a0 {sections = 3} : ($0)\n"
     "%y = relay.multiply %p#0, %p#2 : (tensor<2x2xf64>, tensor<2x2xf64>)"},
    {"strided_slice",
     {"tensor<7x6xf64>"},
     "%y = relay.strided_slice %a0 {begin = array<i64: 1, -1>, end = "
     "array<i64: 7, 0>, strides = array<i64: 2, -2>} : ($0)"},
    {"pad",
     {"tensor<2x3xf64>"},
     "%y = relay.nn.pad %a0 {pad_width = array<i64: 1, 0, 2, 1>, pad_value = "
     "3.0} : ($0)"},
    {"take_embedding",
     {"tensor<5x3xf64>", "tensor<2x4xi64>"},
     "%y = relay.take %a0, %a1 {axis = 0} : ($0, $1)",
     -2,
     2,
     0,
     4},
    {"take_flat_clip",
     {"tensor<2x3xf64>", "tensor<4xi64>"},
     "%y = relay.take %a0, %a1 : ($0, $1)",
     -2,
     2,
     0,
     8},
    {"take_middle_axis",
     {"tensor<2x4x3xf64>", "tensor<5xi64>"},
     "%y = relay.take %a0, %a1 {axis = 1, mode = #relay.take_mode<fast>} : "
     "($0, $1)",
     -2,
     2,
     0,
     3},
    {"broadcast_to",
     {"tensor<3x1xf64>"},
     "%y = relay.broadcast_to %a0 {shape = array<i64: 2, 3, 4>} : ($0)"},
};

INSTANTIATE_TEST_SUITE_P(Rules, GradientCheck, ::testing::ValuesIn(kCases),
                         [](const auto &info) {
                           return std::string(info.param.name);
                         });

} // namespace
