//===- PackedGemmLowering.cpp - a packed GEMM kernel as a VTA program -----===//
//
// Reads a packed GEMM kernel (the result of --tcg-apply-strategy) into the
// model the schedule works on (raf/Target/VTA/Schedule.h): the tile iterators, and
// every operand dimension as an affine function of them. The two innermost
// dimensions of each operand are exactly one row of the VTA buffer it is
// loaded into, so with the packed tensors stored row-major in DRAM, the
// rows an operand reaches are an affine function of the tile iterators.
// Then the schedule search (raf/Tuning/ScheduleSearch.h) picks the
// schedule, code generation (raf/Target/VTA/ScheduleCodegen.h) builds its
// tile program, and assemble() derives the tokens.
//
//===----------------------------------------------------------------------===//

#include "raf/Conversion/TCGToVTA/TCGToVTA.h"
#include "raf/Conversion/TCGToVTA/TiledSchedule.h"
#include "raf/Dialect/TCG/Utils/Computation.h"
#include "raf/Dialect/VTA/IR/VTAAttrs.h"

#include "raf/Target/VTA/Checks.h"
#include "raf/Target/VTA/Config.h"
#include "raf/Target/VTA/Layout.h"

#include "mlir/IR/AffineExpr.h"
#include "mlir/IR/AffineMap.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/MathExtras.h"

#include <numeric>

using namespace mlir;
using namespace raf;
using namespace raf::vta;

namespace {

struct Iterator {
  Value value;
  int64_t extent;
  bool isReduction;
  std::optional<tcg::GemmAxis> axis;
  std::string name;
};

/// Evaluates `expr` with the dimensions bound to `values`; null when the
/// expression does not fold to a constant.
std::optional<int64_t> evaluate(AffineExpr expr, ArrayRef<int64_t> values) {
  SmallVector<AffineExpr> dims;
  for (int64_t value : values)
    dims.push_back(getAffineConstantExpr(value, expr.getContext()));
  auto constant = dyn_cast<AffineConstantExpr>(
      simplifyAffineExpr(expr.replaceDimsAndSymbols(dims, {}), dims.size(), 0));
  if (!constant)
    return std::nullopt;
  return constant.getValue();
}

std::string toString(AffineExpr expr) {
  std::string text;
  llvm::raw_string_ostream os(text);
  expr.print(os);
  return text;
}

class Lowering {
public:
  Lowering(tcg::KernelOp kernel, const PackedGemmLoweringOptions &options)
      : kernel(kernel), options(options) {}

  FailureOr<PackedGemmLowering> run();

private:
  InFlightDiagnostic error() {
    return kernel.emitError("cannot lower this kernel to VTA: ");
  }
  LogicalResult collectIterators();
  /// Row space of `input`, whose two innermost indices must be the
  /// iterators with GEMM axes `rowAxis` and `columnAxis`: one DimAccess per
  /// other dimension, over the tile iterators (`tileIndex`).
  FailureOr<SmallVector<DimAccess>> analyseInput(tcg::InputOp input,
                                                 tcg::GemmAxis rowAxis,
                                                 tcg::GemmAxis columnAxis);
  int64_t axisExtent(tcg::GemmAxis axis) {
    for (const Iterator &it : iterators)
      if (it.axis == axis)
        return it.extent;
    return -1;
  }

  tcg::KernelOp kernel;
  const PackedGemmLoweringOptions &options;
  Config config;
  SmallVector<Iterator> iterators;
  /// Position of each kernel iterator among the tile iterators (-1 for the
  /// GEMM axes).
  SmallVector<int> tileIndex;
  unsigned numTileIterators = 0;
  tcg::InputOp inputRead, weightRead;
};

LogicalResult Lowering::collectIterators() {
  tcg::TensorOp tensor = kernel.getRootTensor();
  if (!tensor)
    return error() << "it has no root tcg.tensor";
  if (!llvm::hasSingleElement(kernel.getBodyBlock().without_terminator()))
    return error() << "a packed GEMM kernel has exactly one computation";
  // The loop-nest form every tcg consumer reads (tcg::analyzeComputation):
  // the tensor nest, then the chain of reductions.
  FailureOr<tcg::Computation> form = tcg::analyzeComputation(tensor);
  if (failed(form))
    return failure();
  auto name = [&](auto op, StringRef prefix) {
    return op.getIterName()
        .value_or(prefix.str() + std::to_string(iterators.size()))
        .str();
  };
  for (tcg::TensorOp dim : form->dims)
    iterators.push_back({dim.getIterator(), dim.getExtent(), false,
                         dim.getGemmAxis(), name(dim, "i")});
  for (tcg::ReduceOp reduce : form->reductions)
    iterators.push_back({reduce.getIterator(), reduce.getExtent(), true,
                         reduce.getGemmAxis(), name(reduce, "r")});
  if (form->reduction && *form->reduction != tcg::ScalarOp::Add)
    return error() << "its reductions must add";
  Value scalar = form->getBodyValue();
  auto product = scalar.getDefiningOp<tcg::ComputeOp>();
  if (!product || product.getKind() != tcg::ScalarOp::Mul)
    return error() << "its reduction body must be the product of two reads";
  auto lhs = product.getLhs().getDefiningOp<tcg::InputOp>();
  auto rhs = product.getRhs().getDefiningOp<tcg::InputOp>();
  if (!lhs || !rhs)
    return error() << "its reduction body must be the product of two reads";
  // The input is the read indexed by x, the weight the one indexed by y.
  auto readsAxis = [&](tcg::InputOp read, tcg::GemmAxis axis) {
    for (Value operand : read.getIterators())
      for (const Iterator &it : iterators)
        if (it.value == operand && it.axis == axis)
          return true;
    return false;
  };
  inputRead = readsAxis(lhs, tcg::GemmAxis::X) ? lhs : rhs;
  weightRead = inputRead == lhs ? rhs : lhs;
  for (tcg::InputOp read : {inputRead, weightRead})
    if (!isa<BlockArgument>(read.getSource()) ||
        cast<BlockArgument>(read.getSource()).getOwner() !=
            &kernel.getBodyBlock())
      return error() << "its reads must read kernel operands";
  return success();
}

FailureOr<SmallVector<DimAccess>>
Lowering::analyseInput(tcg::InputOp read, tcg::GemmAxis rowAxis,
                       tcg::GemmAxis columnAxis) {
  unsigned operand = cast<BlockArgument>(read.getSource()).getArgNumber();
  std::string name = kernel.getArgName(operand);
  auto type = cast<RankedTensorType>(read.getSource().getType());
  ArrayRef<int64_t> shape = type.getShape();
  // A padded view is padded on the fly by the loads (the schedule's check
  // says where that is possible); a dilated one is not a packed layout.
  std::optional<ArrayRef<int64_t>> dilation = read.getDilation();
  if (dilation && llvm::any_of(*dilation, [](int64_t d) { return d != 1; }))
    return error() << "operand '" << name
                   << "' is read through a dilated view; pack it with relay "
                      "layout rewrites first";
  SmallVector<int64_t> padLow(shape.size(), 0), padHigh(shape.size(), 0);
  if (std::optional<ArrayRef<int64_t>> low = read.getPadLow())
    padLow.assign(low->begin(), low->end());
  if (std::optional<ArrayRef<int64_t>> high = read.getPadHigh())
    padHigh.assign(high->begin(), high->end());
  for (unsigned d = shape.size() >= 2 ? shape.size() - 2 : 0; d < shape.size();
       ++d)
    if (padLow[d] != 0 || padHigh[d] != 0)
      return error() << "operand '" << name
                     << "' is padded along a GEMM axis; pad it with relay "
                        "layout rewrites first";
  AffineMap map = read.getMap();
  unsigned rank = shape.size();
  // Which kernel iterator each map dimension is.
  SmallVector<unsigned> dimIterator;
  for (Value operand : read.getIterators())
    for (auto [index, it] : llvm::enumerate(iterators))
      if (it.value == operand)
        dimIterator.push_back(index);
  if (rank < 3 || dimIterator.size() != map.getNumDims())
    return error() << "operand '" << name << "' is not in a packed layout";
  auto isAxis = [&](AffineExpr expr, tcg::GemmAxis axis) {
    auto dim = dyn_cast<AffineDimExpr>(expr);
    return dim && iterators[dimIterator[dim.getPosition()]].axis == axis;
  };
  if (!isAxis(map.getResult(rank - 2), rowAxis) ||
      !isAxis(map.getResult(rank - 1), columnAxis))
    return error() << "operand '" << name << "' must be indexed by ["
                   << "..., " << tcg::stringifyGemmAxis(rowAxis) << ", "
                   << tcg::stringifyGemmAxis(columnAxis)
                   << "] (a packed layout)";

  SmallVector<DimAccess> dims;
  for (unsigned d = 0; d + 2 < rank; ++d) {
    AffineExpr expr = map.getResult(d);
    if (!expr.isPureAffine())
      return error() << "operand '" << name << "' has the non-affine index "
                     << toString(expr);
    SmallVector<int64_t> point(map.getNumDims(), 0);
    std::optional<int64_t> base = evaluate(expr, point);
    if (!base)
      return error() << "cannot evaluate the index " << toString(expr);
    DimAccess dim;
    dim.base = *base;
    dim.size = shape[d];
    dim.padLow = padLow[d];
    dim.padHigh = padHigh[d];
    dim.coefficients.assign(numTileIterators, 0);
    for (unsigned m = 0; m < map.getNumDims(); ++m) {
      point.assign(map.getNumDims(), 0);
      point[m] = 1;
      std::optional<int64_t> value = evaluate(expr, point);
      if (!value)
        return error() << "cannot evaluate the index " << toString(expr);
      int64_t coefficient = *value - *base;
      const Iterator &it = iterators[dimIterator[m]];
      if (coefficient != 0 && it.axis)
        return error() << "operand '" << name << "' uses the GEMM axis "
                       << tcg::stringifyGemmAxis(*it.axis)
                       << " outside its two innermost dimensions";
      if (coefficient != 0)
        dim.coefficients[tileIndex[dimIterator[m]]] += coefficient;
    }
    dims.push_back(std::move(dim));
  }
  return dims;
}

FailureOr<PackedGemmLowering> Lowering::run() {
  auto tensorize = kernel->getAttrOfType<tcg::TensorizeAttr>(
      tcg::TCGDialect::kTensorizeAttrName);
  if (!tensorize)
    return error() << "it has no '" << tcg::TCGDialect::kTensorizeAttrName
                   << "' attribute (only packed kernels, the result of "
                      "--tcg-apply-strategy, run on VTA)";
  StringRef intrinsic = tensorize.getIntrinsic().getValue();
  if (!isVTAKernel(kernel))
    return error() << "it is tensorized with '" << intrinsic
                   << "', which is not an instruction of VTA";
  // The configuration follows from the GEMM core's extents (BATCH = x,
  // BLOCK_OUT = y, BLOCK_IN = z); VTA's buffers keep their default sizes.
  ArrayRef<int64_t> gemm = tensorize.getGemm();
  if (gemm.size() != 3 || gemm[1] != gemm[2] || !llvm::isPowerOf2_64(gemm[0]) ||
      !llvm::isPowerOf2_64(gemm[1]))
    return error() << "'" << intrinsic
                   << "' is not a VTA GEMM core (x, y, z extents must be "
                      "powers of two with y = z)";
  config = Config::getDefault();
  config.logBatch = llvm::Log2_64(gemm[0]);
  config.logBlock = llvm::Log2_64(gemm[1]);
  std::vector<std::string> configProblems = config.validate();
  if (!configProblems.empty())
    return error() << "'" << intrinsic << "' (GEMM " << gemm[0] << "x"
                   << gemm[1] << "x" << gemm[2]
                   << ") gives an invalid VTA configuration: "
                   << configProblems.front();

  auto resultType = cast<RankedTensorType>(kernel.getResult().getType());
  for (auto [index, operand] : llvm::enumerate(kernel.getInputs())) {
    Type element = cast<RankedTensorType>(operand.getType()).getElementType();
    if (!element.isSignlessInteger(8))
      return error() << "operand '" << kernel.getArgName(index) << "' has "
                     << "element type " << element
                     << "; the VTA GEMM reads int8";
  }
  if (!resultType.getElementType().isSignlessInteger(32))
    return error() << "its result has element type "
                   << resultType.getElementType()
                   << "; the VTA GEMM accumulates in int32";
  if (kernel.getNumOperands() != 2)
    return error() << "a packed GEMM has two operands";

  if (failed(collectIterators()))
    return failure();
  int64_t batch = int64_t(1) << config.logBatch;
  int64_t block = int64_t(1) << config.logBlock;
  if (axisExtent(tcg::GemmAxis::X) != batch ||
      axisExtent(tcg::GemmAxis::Y) != block ||
      axisExtent(tcg::GemmAxis::Z) != block)
    return error() << "its GEMM axes x, y, z have extents "
                   << axisExtent(tcg::GemmAxis::X) << ", "
                   << axisExtent(tcg::GemmAxis::Y) << ", "
                   << axisExtent(tcg::GemmAxis::Z) << "; " << intrinsic
                   << " needs " << batch << ", " << block << ", " << block;
  // The result's dimensions are the tensor nest: tiles, then x, y.
  unsigned numTensors = llvm::count_if(
      iterators, [](const Iterator &it) { return !it.isReduction; });
  if (numTensors < 2 || iterators[numTensors - 2].axis != tcg::GemmAxis::X ||
      iterators[numTensors - 1].axis != tcg::GemmAxis::Y)
    return error() << "its result must be indexed by [..., x, y]";

  // The tile iterators: the parallel ones (before x, y), then the
  // reductions.
  GemmKernelModel model;
  model.config = config;
  for (const Iterator &it : iterators) {
    tileIndex.push_back(!it.axis ? int(numTileIterators++) : -1);
    if (!it.axis) {
      model.names.push_back(it.name);
      model.extents.push_back(it.extent);
      model.numParallel += !it.isReduction;
    }
  }
  FailureOr<SmallVector<DimAccess>> src =
      analyseInput(inputRead, tcg::GemmAxis::X, tcg::GemmAxis::Z);
  if (failed(src))
    return failure();
  FailureOr<SmallVector<DimAccess>> wgt =
      analyseInput(weightRead, tcg::GemmAxis::Y, tcg::GemmAxis::Z);
  if (failed(wgt))
    return failure();
  model.input = std::move(*src);
  model.weight = std::move(*wgt);
  // The result's rows: row-major over the parallel tile iterators.
  int64_t resultRows = 1;
  for (unsigned i = 0; i < model.numParallel; ++i) {
    DimAccess dim;
    dim.size = model.extents[i];
    dim.coefficients.assign(numTileIterators, 0);
    dim.coefficients[i] = 1;
    model.output.push_back(std::move(dim));
    resultRows *= model.extents[i];
  }

  PackedGemmLowering lowering;
  lowering.inputOperand =
      cast<BlockArgument>(inputRead.getSource()).getArgNumber();
  lowering.weightOperand =
      cast<BlockArgument>(weightRead.getSource()).getArgNumber();
  auto rowsOf = [&](unsigned operand) {
    auto type = cast<RankedTensorType>(kernel.getInputs()[operand].getType());
    return type.getNumElements() /
           (type.getShape().end()[-1] * type.getShape().end()[-2]);
  };
  int64_t inputRows = rowsOf(lowering.inputOperand);
  int64_t weightRows = rowsOf(lowering.weightOperand);

  // DRAM layout: each region aligned to the row size it is moved in.
  int64_t inpRow = config.elemBytes(Buffer::Inp);
  int64_t wgtRow = config.elemBytes(Buffer::Wgt);
  int64_t outRow = config.elemBytes(Buffer::Out);
  lowering.inputOffset = 0;
  lowering.weightOffset = llvm::alignTo(inputRows * inpRow, wgtRow);
  int64_t dataEnd = lowering.weightOffset + weightRows * wgtRow;
  // A fused bias: accumulator rows of int32 after the weight, one per index
  // of the parallel tile iterators it varies along (TVM-VTA's fused conv2d
  // + bias loads such rows into the accumulator buffer and adds them).
  if (options.biasDims) {
    int64_t accRow = config.elemBytes(Buffer::Acc);
    lowering.biasRows = 1;
    for (unsigned d : *options.biasDims) {
      if (d >= model.numParallel)
        return error() << "the bias varies along tile iterator " << d
                       << ", which is not a parallel one";
      DimAccess dim;
      dim.size = model.extents[d];
      dim.coefficients.assign(numTileIterators, 0);
      dim.coefficients[d] = 1;
      model.bias.push_back(std::move(dim));
      lowering.biasRows *= model.extents[d];
    }
    // One row for every output tile: a dimension no iterator moves.
    if (model.bias.empty()) {
      DimAccess dim;
      dim.coefficients.assign(numTileIterators, 0);
      model.bias.push_back(std::move(dim));
    }
    lowering.biasOffset = llvm::alignTo(dataEnd, accRow);
    dataEnd = *lowering.biasOffset + lowering.biasRows * accRow;
    model.biasBase = *lowering.biasOffset / accRow;
  }
  lowering.resultOffset = llvm::alignTo(dataEnd, outRow);
  lowering.resultRows = resultRows;
  lowering.resultRowBytes = outRow;
  lowering.numPlanes = options.requantShift ? 1 : 4;
  lowering.dramBytes =
      lowering.resultOffset + lowering.numPlanes * resultRows * outRow;
  if (options.requantShift &&
      (*options.requantShift < 0 || *options.requantShift > 15))
    return error() << "the requantisation shift " << *options.requantShift
                   << " is outside [0, 15]";
  model.inputBase = lowering.inputOffset / inpRow;
  model.weightBase = lowering.weightOffset / wgtRow;
  model.resultBase = lowering.resultOffset / outRow;
  model.resultRows = resultRows;
  model.requantShift = options.requantShift;
  model.clampLow = options.clampLow;
  model.clampHigh = options.clampHigh;

  ScheduleLimits limits;
  limits.accDependenceDistance = options.accDependenceDistance;
  limits.maxInstructions = options.maxInstructions;
  SearchOptions search;
  search.mode =
      options.exhaustiveSearch ? SearchMode::Exhaustive : SearchMode::Pruned;
  search.simulate = options.simulateCandidates;
  search.cycleModel = options.cycleModel;
  // The schedule the kernel carries (--vta-schedule) is the one that is
  // compiled and run; the tile-sizes option of the lowering only applies
  // to kernels without one.
  search.space.hoistWeight = options.hoistWeight;
  if (auto schedule = kernel->getAttrOfType<ScheduleAttr>(kScheduleAttrName)) {
    search.given = schedule.getKnobs();
  } else if (!options.tileSizes.empty()) {
    ScheduleKnobs given;
    given.tileSizes.assign(options.tileSizes.begin(), options.tileSizes.end());
    given.virtualThreads = options.virtualThreads;
    search.given = given;
  } else if (options.chooseSchedule) {
    llvm::Expected<ScheduleKnobs> chosen =
        options.chooseSchedule(model, limits);
    if (!chosen)
      return error() << llvm::toString(chosen.takeError());
    search.given = std::move(*chosen);
  }
  llvm::Expected<SearchResult> result = searchSchedule(model, limits, search);
  if (!result) {
    InFlightDiagnostic diag = error() << llvm::toString(result.takeError());
    std::string names;
    for (auto [i, name] : llvm::enumerate(model.names))
      names +=
          (i ? ", " : "") + name + " = " + std::to_string(model.extents[i]);
    diag.attachNote() << "tile iterators (parallel first): " << names;
    return failure();
  }
  lowering.tiles = std::move(result->tiles);
  lowering.program = std::move(result->program);
  lowering.knobs = result->knobs;
  lowering.timing = result->timing;
  lowering.validConfigurations = result->validConfigurations;
  lowering.simulatedConfigurations = result->simulated;
  lowering.iteratorNames.assign(model.names.begin(), model.names.end());

  std::vector<std::string> problems = checkProgram(lowering.program);
  if (!problems.empty()) {
    InFlightDiagnostic diag = error() << "the lowered program is invalid";
    for (const std::string &problem : problems)
      diag.attachNote() << problem;
    return failure();
  }
  if (options.accDependenceDistance > 1)
    if (std::optional<AccDependenceHazard> hazard = findAccDependenceHazard(
            lowering.program, options.accDependenceDistance))
      return error() << "instruction " << hazard->insnIndex
                     << " (gemm) writes accumulator row " << hazard->row
                     << " again " << hazard->gap << " step(s) after the "
                     << "previous write (step " << hazard->step
                     << "); the GEMM pipeline needs "
                     << options.accDependenceDistance;
  return lowering;
}

} // namespace

FailureOr<PackedGemmLowering>
raf::vta::lowerPackedGemm(tcg::KernelOp kernel,
                          const PackedGemmLoweringOptions &options) {
  return Lowering(kernel, options).run();
}

bool raf::vta::isVTAKernel(tcg::KernelOp kernel) {
  auto tensorize = kernel->getAttrOfType<tcg::TensorizeAttr>(
      tcg::TCGDialect::kTensorizeAttrName);
  return tensorize && tensorize.getTarget() &&
         tensorize.getTarget().getValue() == kVTATarget;
}
