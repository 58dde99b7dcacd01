//===- PackedGemmLowering.cpp - a packed GEMM kernel as a VTA program -----===//
//
// A packed kernel computes c[t.., x, y] = sum_{r.., z} a[.., x, z] * b[.., y,
// z], where every leading index of a, b and c is an affine function of the
// tile iterators t.. (parallel) and r.. (reductions). The two innermost
// dimensions of each operand are exactly one row of the VTA buffer it is
// loaded into, so with the packed tensors stored row-major in DRAM, the row
// each operand reaches is an affine function of the tile iterators. A GEMM
// instruction is such a function (a micro-op's base row plus two loop
// factors), so the whole kernel is one GEMM whose two loops are two tile
// iterators and whose micro-ops enumerate the others.
//
// The schedule keeps every operand resident when it fits: one load each of
// the input and the weight (at the outermost reduction loop), an
// accumulator reset, the GEMM, an ALU epilogue and stores. Otherwise it
// splits one parallel tile iterator into chunks and runs that sequence per
// chunk, the reductions staying whole, so the loads stay at the outermost
// reduction loop of each chunk.
//
//===----------------------------------------------------------------------===//

#include "raf/Conversion/TCGToVTA/TCGToVTA.h"

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
  StringRef axis;
};

/// Row address of an operand as a function of the iterators: `base +
/// sum(coefficients[i] * iterator i)`.
struct RowAccess {
  int64_t base = 0;
  SmallVector<int64_t> coefficients;
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
  /// Row access of `input`, whose two innermost indices must be the
  /// iterators with GEMM axes `rowAxis` and `columnAxis`.
  FailureOr<RowAccess> analyseInput(tcg::InputOp input, StringRef rowAxis,
                                    StringRef columnAxis);
  int64_t axisExtent(StringRef axis) {
    for (const Iterator &it : iterators)
      if (it.axis == axis)
        return it.extent;
    return -1;
  }

  tcg::KernelOp kernel;
  const PackedGemmLoweringOptions &options;
  Config config;
  SmallVector<Iterator> iterators;
  tcg::InputOp inputRead, weightRead;
};

LogicalResult Lowering::collectIterators() {
  tcg::TensorOp tensor = kernel.getRootTensor();
  if (!tensor)
    return error() << "it has no root tcg.tensor";
  if (!llvm::hasSingleElement(kernel.getBodyBlock().without_terminator()))
    return error() << "a packed GEMM kernel has exactly one computation";
  Value scalar;
  while (true) {
    iterators.push_back({tensor.getIterator(), tensor.getExtent(), false,
                         tensor.getGemmAxis().value_or("")});
    Value yielded = tensor.getYield().getValue();
    if (auto inner = yielded.getDefiningOp<tcg::TensorOp>()) {
      tensor = inner;
      continue;
    }
    scalar = yielded;
    break;
  }
  while (auto reduce = scalar.getDefiningOp<tcg::ReduceOp>()) {
    if (reduce.getKind() != tcg::ScalarOp::Add)
      return error() << "its reductions must add";
    iterators.push_back({reduce.getIterator(), reduce.getExtent(), true,
                         reduce.getGemmAxis().value_or("")});
    scalar = reduce.getYield().getValue();
  }
  auto product = scalar.getDefiningOp<tcg::ComputeOp>();
  if (!product || product.getKind() != tcg::ScalarOp::Mul)
    return error() << "its reduction body must be the product of two reads";
  auto lhs = product.getLhs().getDefiningOp<tcg::InputOp>();
  auto rhs = product.getRhs().getDefiningOp<tcg::InputOp>();
  if (!lhs || !rhs)
    return error() << "its reduction body must be the product of two reads";
  // The input is the read indexed by x, the weight the one indexed by y.
  auto readsAxis = [&](tcg::InputOp read, StringRef axis) {
    for (Value operand : read.getIterators())
      for (const Iterator &it : iterators)
        if (it.value == operand && it.axis == axis)
          return true;
    return false;
  };
  inputRead = readsAxis(lhs, "x") ? lhs : rhs;
  weightRead = inputRead == lhs ? rhs : lhs;
  for (tcg::InputOp read : {inputRead, weightRead})
    if (!isa<BlockArgument>(read.getSource()) ||
        cast<BlockArgument>(read.getSource()).getOwner() !=
            &kernel.getBodyBlock())
      return error() << "its reads must read kernel operands";
  return success();
}

FailureOr<RowAccess> Lowering::analyseInput(tcg::InputOp read,
                                            StringRef rowAxis,
                                            StringRef columnAxis) {
  unsigned operand = cast<BlockArgument>(read.getSource()).getArgNumber();
  std::string name = kernel.getArgName(operand);
  if (read.hasView())
    return error() << "operand '" << name
                   << "' is read through a padded or dilated view; pack it "
                      "with relay layout rewrites first";
  auto type = cast<RankedTensorType>(read.getSource().getType());
  ArrayRef<int64_t> shape = type.getShape();
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
  auto isAxis = [&](AffineExpr expr, StringRef axis) {
    auto dim = dyn_cast<AffineDimExpr>(expr);
    return dim && iterators[dimIterator[dim.getPosition()]].axis == axis;
  };
  if (!isAxis(map.getResult(rank - 2), rowAxis) ||
      !isAxis(map.getResult(rank - 1), columnAxis))
    return error() << "operand '" << name << "' must be indexed by ["
                   << "..., " << rowAxis << ", " << columnAxis
                   << "] (a packed layout)";

  RowAccess access;
  access.coefficients.assign(iterators.size(), 0);
  int64_t stride = 1;
  for (int d = rank - 3; d >= 0; --d) {
    AffineExpr expr = map.getResult(d);
    if (!expr.isPureAffine())
      return error() << "operand '" << name << "' has the non-affine index "
                     << toString(expr);
    SmallVector<int64_t> point(map.getNumDims(), 0);
    std::optional<int64_t> base = evaluate(expr, point);
    if (!base)
      return error() << "cannot evaluate the index " << toString(expr);
    access.base += stride * *base;
    for (unsigned dim = 0; dim < map.getNumDims(); ++dim) {
      point.assign(map.getNumDims(), 0);
      point[dim] = 1;
      std::optional<int64_t> value = evaluate(expr, point);
      if (!value)
        return error() << "cannot evaluate the index " << toString(expr);
      int64_t coefficient = *value - *base;
      const Iterator &it = iterators[dimIterator[dim]];
      if (coefficient != 0 && !it.axis.empty())
        return error() << "operand '" << name << "' uses the GEMM axis "
                       << it.axis << " outside its two innermost dimensions";
      access.coefficients[dimIterator[dim]] += stride * coefficient;
    }
    stride *= shape[d];
  }
  return access;
}

FailureOr<PackedGemmLowering> Lowering::run() {
  auto tensorize = kernel->getAttrOfType<StringAttr>(kTensorizeAttrName);
  if (!tensorize)
    return error() << "it has no '" << kTensorizeAttrName
                   << "' attribute (only packed kernels, the result of "
                      "--tcg-apply-strategy, run on VTA)";
  StringRef intrinsic = tensorize.getValue();
  StringRef preset = intrinsic;
  if (!preset.consume_front(kVTAGemmPrefix))
    return error() << "it is tensorized with '" << intrinsic
                   << "', not a VTA GEMM intrinsic";
  std::optional<Config> presetConfig = Config::getPreset(preset);
  if (!presetConfig)
    return error() << "'" << intrinsic << "' names no VTA configuration preset";
  config = *presetConfig;

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
  if (axisExtent("x") != batch || axisExtent("y") != block ||
      axisExtent("z") != block)
    return error() << "its GEMM axes x, y, z have extents " << axisExtent("x")
                   << ", " << axisExtent("y") << ", " << axisExtent("z") << "; "
                   << intrinsic << " needs " << batch << ", " << block << ", "
                   << block;
  // The result's dimensions are the tensor nest: tiles, then x, y.
  unsigned numTensors = llvm::count_if(
      iterators, [](const Iterator &it) { return !it.isReduction; });
  if (numTensors < 2 || iterators[numTensors - 2].axis != "x" ||
      iterators[numTensors - 1].axis != "y")
    return error() << "its result must be indexed by [..., x, y]";

  FailureOr<RowAccess> src = analyseInput(inputRead, "x", "z");
  if (failed(src))
    return failure();
  FailureOr<RowAccess> wgt = analyseInput(weightRead, "y", "z");
  if (failed(wgt))
    return failure();
  // The result's rows: row-major over the parallel tile iterators, which
  // are the first numTensors - 2 iterators.
  unsigned numTiles = numTensors - 2;
  int64_t resultRows = 1;
  for (unsigned i = 0; i < numTiles; ++i)
    resultRows *= iterators[i].extent;

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

  // A chunk: parallel tile iterator `split` restricted to `chunk`
  // consecutive values (the whole kernel when chunk equals its extent).
  // Every other iterator keeps its range, and the rows an operand reaches in
  // one chunk lie in one contiguous span, which one 1-D DMA loads.
  auto extentIn = [&](unsigned i, unsigned split, int64_t chunk) {
    return i == split ? chunk : iterators[i].extent;
  };
  // An operand read backwards (a transposed convolution's flipped kernel)
  // has negative coefficients: its lowest row in a chunk is below the
  // chunk's origin by `lowest`.
  auto lowest = [&](const RowAccess &access, unsigned split, int64_t chunk) {
    int64_t offset = 0;
    for (auto [i, coefficient] : llvm::enumerate(access.coefficients))
      offset +=
          std::min<int64_t>(0, coefficient * (extentIn(i, split, chunk) - 1));
    return offset;
  };
  auto span = [&](const RowAccess &access, unsigned split, int64_t chunk) {
    int64_t rows = 1;
    for (auto [i, coefficient] : llvm::enumerate(access.coefficients))
      rows += std::abs(coefficient) * (extentIn(i, split, chunk) - 1);
    return rows;
  };
  auto chunkRows = [&](unsigned split, int64_t chunk) {
    int64_t rows = 1;
    for (unsigned i = 0; i < numTiles; ++i)
      rows *= extentIn(i, split, chunk);
    return rows;
  };
  int64_t inpDepth = config.buffDepth(Buffer::Inp);
  int64_t wgtDepth = config.buffDepth(Buffer::Wgt);
  int64_t accDepth = config.buffDepth(Buffer::Acc);
  auto chunkFits = [&](unsigned split, int64_t chunk) {
    return span(*src, split, chunk) <= inpDepth &&
           span(*wgt, split, chunk) <= wgtDepth &&
           chunkRows(split, chunk) <= accDepth;
  };
  // Resident operands when they fit (split = 0 with its whole extent);
  // otherwise the outermost parallel tile iterator, and the largest divisor
  // of its extent, whose chunks fit. Reductions are never split, so each
  // chunk accumulates completely before its epilogue.
  // (Without parallel tile iterators, `split` names no iterator.)
  unsigned split = numTiles > 0 ? 0 : iterators.size();
  int64_t chunk = numTiles > 0 ? iterators[0].extent : 1;
  if (!chunkFits(split, chunk)) {
    bool found = false;
    for (unsigned i = 0; i < numTiles && !found; ++i)
      for (int64_t c = iterators[i].extent - 1; c >= 1 && !found; --c)
        if (iterators[i].extent % c == 0 && chunkFits(i, c)) {
          split = i;
          chunk = c;
          found = true;
        }
    if (!found) {
      // Report the smallest chunk's needs: no split helps beyond it.
      struct Need {
        StringRef what;
        int64_t whole, least;
        Buffer buffer;
      };
      int64_t leastInp = inputRows, leastWgt = weightRows,
              leastAcc = resultRows;
      for (unsigned i = 0; i < numTiles; ++i) {
        leastInp = std::min(leastInp, span(*src, i, 1));
        leastWgt = std::min(leastWgt, span(*wgt, i, 1));
        leastAcc = std::min(leastAcc, chunkRows(i, 1));
      }
      for (Need need :
           {Need{"the input operand", inputRows, leastInp, Buffer::Inp},
            Need{"the weight operand", weightRows, leastWgt, Buffer::Wgt},
            Need{"the result", resultRows, leastAcc, Buffer::Acc}})
        if (need.least > int64_t(config.buffDepth(need.buffer)))
          return error() << need.what << " needs " << need.whole
                         << " rows of the " << getBufferName(need.buffer)
                         << " buffer, which has "
                         << config.buffDepth(need.buffer) << ", and still "
                         << need.least
                         << " when split along a parallel tile iterator";
      return error() << "no split along one parallel tile iterator fits "
                        "the input, weight and accumulator buffers together";
    }
  }
  int64_t numChunks = numTiles > 0 ? iterators[split].extent / chunk : 1;
  int64_t rowsPerChunk = chunkRows(split, chunk);

  // Accumulator rows of one chunk: row-major over the chunk's extents.
  RowAccess dst;
  dst.coefficients.assign(iterators.size(), 0);
  for (int64_t i = int64_t(numTiles) - 1, stride = 1; i >= 0; --i) {
    dst.coefficients[i] = stride;
    stride *= extentIn(i, split, chunk);
  }

  // The GEMM's loops and micro-ops. Steps run loops outside, micro-ops
  // inside, and the pipeline must not write an accumulator row again within
  // ACC_DEP_DISTANCE steps, so the micro-ops vary the parallel iterators
  // fastest and the reductions slowest. Two choices of loops are tried: the
  // two longest iterators (fewest micro-ops), then only reductions (the
  // micro-ops then cover every output row of the chunk); the first that
  // fits the micro-op buffer and avoids the hazard wins, else the first
  // that fits.
  SmallVector<unsigned> tiles;
  for (auto [index, it] : llvm::enumerate(iterators))
    if (it.axis.empty())
      tiles.push_back(index);
  // Loop factors are unsigned; iterators read backwards stay in the
  // micro-ops.
  auto fits = [&](unsigned i) {
    return extentIn(i, split, chunk) < (int64_t(1) << widths::LoopIter) &&
           src->coefficients[i] >= 0 && wgt->coefficients[i] >= 0 &&
           dst.coefficients[i] < accDepth && src->coefficients[i] < inpDepth &&
           wgt->coefficients[i] < wgtDepth;
  };
  SmallVector<unsigned> byExtent(tiles);
  llvm::stable_sort(byExtent, [&](unsigned a, unsigned b) {
    return extentIn(a, split, chunk) > extentIn(b, split, chunk);
  });
  auto chooseLoops = [&](bool reductionsOnly) {
    SmallVector<unsigned> chosen;
    for (unsigned i : byExtent)
      if (chosen.size() < 2 && extentIn(i, split, chunk) > 1 && fits(i) &&
          (!reductionsOnly || iterators[i].isReduction))
        chosen.push_back(i);
    return chosen;
  };
  auto enumeratedOf = [&](ArrayRef<unsigned> chosen) {
    SmallVector<unsigned> rest;
    for (bool reductions : {true, false})
      for (unsigned i : tiles)
        if (!llvm::is_contained(chosen, i) &&
            iterators[i].isReduction == reductions)
          rest.push_back(i);
    return rest;
  };
  auto countUops = [&](ArrayRef<unsigned> chosen) {
    int64_t count = 1;
    for (unsigned i : enumeratedOf(chosen))
      count *= extentIn(i, split, chunk);
    return count;
  };
  // Whether one chunk's GEMM steps write every row at least
  // kAccDependenceDistance steps apart (findAccDependenceHazard on the
  // program, before the program exists).
  constexpr uint64_t kAccDependenceDistance = 3;
  auto avoidsHazard = [&](ArrayRef<unsigned> chosen) {
    SmallVector<unsigned> rest = enumeratedOf(chosen);
    SmallVector<int64_t> rows;
    SmallVector<int64_t> at(rest.size(), 0);
    for (int64_t n = 0, e = countUops(chosen); n < e; ++n) {
      int64_t row = 0;
      for (auto [k, i] : llvm::enumerate(rest))
        row += dst.coefficients[i] * at[k];
      rows.push_back(row);
      for (int k = int(rest.size()) - 1; k >= 0; --k) {
        if (++at[k] < extentIn(rest[k], split, chunk))
          break;
        at[k] = 0;
      }
    }
    auto loop = [&](unsigned k, int64_t &extent, int64_t &factor) {
      extent = k < chosen.size() ? extentIn(chosen[k], split, chunk) : 1;
      factor = k < chosen.size() ? dst.coefficients[chosen[k]] : 0;
    };
    int64_t outer, outerFactor, inner, innerFactor;
    loop(0, outer, outerFactor);
    loop(1, inner, innerFactor);
    std::vector<uint64_t> last(rowsPerChunk, 0);
    uint64_t step = 1;
    for (int64_t o = 0; o < outer; ++o)
      for (int64_t i = 0; i < inner; ++i)
        for (int64_t base : rows) {
          uint64_t &previous = last[base + o * outerFactor + i * innerFactor];
          if (previous != 0 && step - previous < kAccDependenceDistance)
            return false;
          previous = step++;
        }
    return true;
  };
  int64_t uopBudget = int64_t(config.buffDepth(Buffer::Uop)) - 1;
  SmallVector<SmallVector<unsigned>> candidates;
  for (bool reductionsOnly : {false, true})
    if (countUops(chooseLoops(reductionsOnly)) <= uopBudget)
      candidates.push_back(chooseLoops(reductionsOnly));
  SmallVector<unsigned> loops = chooseLoops(/*reductionsOnly=*/false);
  if (!candidates.empty()) {
    loops = candidates.front();
    for (ArrayRef<unsigned> candidate : candidates)
      if (avoidsHazard(candidate)) {
        loops.assign(candidate.begin(), candidate.end());
        break;
      }
  }
  SmallVector<unsigned> enumerated = enumeratedOf(loops);
  int64_t numGemmUops = countUops(loops);
  // Entry 0 is the single micro-op of the reset and the epilogue.
  if (numGemmUops + 1 > int64_t(config.buffDepth(Buffer::Uop)))
    return error() << "the GEMM needs " << numGemmUops + 1
                   << " micro-ops, the micro-op buffer holds "
                   << config.buffDepth(Buffer::Uop);

  // Micro-ops index rows relative to the chunk's first row of each operand
  // (the DMA puts that row at SRAM row 0), so every chunk uses the same
  // ones.
  Program &program = lowering.program;
  program.config = config;
  program.uops.push_back(Uop{0, 0, 0});
  int64_t srcLowest = lowest(*src, split, chunk);
  int64_t wgtLowest = lowest(*wgt, split, chunk);
  SmallVector<int64_t> point(enumerated.size(), 0);
  for (int64_t n = 0; n < numGemmUops; ++n) {
    Uop uop{0, -srcLowest, -wgtLowest};
    for (auto [k, i] : llvm::enumerate(enumerated)) {
      uop.dstIdx += dst.coefficients[i] * point[k];
      uop.srcIdx += src->coefficients[i] * point[k];
      uop.wgtIdx += wgt->coefficients[i] * point[k];
    }
    program.uops.push_back(uop);
    // Odometer over the enumerated iterators, innermost last.
    for (int k = int(enumerated.size()) - 1; k >= 0; --k) {
      if (++point[k] < extentIn(enumerated[k], split, chunk))
        break;
      point[k] = 0;
    }
  }

  // DRAM layout: each region aligned to the row size it is moved in.
  int64_t inpRow = config.elemBytes(Buffer::Inp);
  int64_t wgtRow = config.elemBytes(Buffer::Wgt);
  int64_t outRow = config.elemBytes(Buffer::Out);
  lowering.inputOffset = 0;
  lowering.weightOffset = llvm::alignTo(inputRows * inpRow, wgtRow);
  lowering.resultOffset =
      llvm::alignTo(lowering.weightOffset + weightRows * wgtRow, outRow);
  lowering.resultRows = resultRows;
  lowering.resultRowBytes = outRow;
  lowering.numPlanes = options.requantShift ? 1 : 4;
  lowering.dramBytes =
      lowering.resultOffset + lowering.numPlanes * resultRows * outRow;
  if (options.requantShift &&
      (*options.requantShift < 0 || *options.requantShift > 15))
    return error() << "the requantisation shift " << *options.requantShift
                   << " is outside [0, 15]";

  // A chunk's result rows in DRAM: `outer` runs (the iterators outside the
  // split one) of `inner` consecutive rows, `stride` rows apart.
  int64_t outer = 1, after = 1;
  for (unsigned i = 0; i < split && i < numTiles; ++i)
    outer *= iterators[i].extent;
  for (unsigned i = split + 1; i < numTiles; ++i)
    after *= iterators[i].extent;
  int64_t inner = chunk * after;
  int64_t stride = numTiles > 0 ? iterators[split].extent * after : 1;

  auto &code = program.instructions;
  // The micro-ops are loaded once; the compute module runs in order, so
  // later chunks find them in place.
  code.push_back(Instruction::load(MemoryType::Uop, 0, 0, 1,
                                   program.uops.size(), program.uops.size()));
  auto aluAll = [&](AluOpcode op, int64_t imm) {
    Instruction alu = Instruction::aluImm(op, imm, 0, 1, rowsPerChunk, 1);
    alu.dstFactorOut = 1;
    alu.srcFactorOut = 1;
    return alu;
  };
  for (int64_t k = 0; k < numChunks; ++k) {
    bool first = k == 0, last = k == numChunks - 1;
    int64_t splitStart = numTiles > 0 ? k * chunk : 0;
    int64_t inputFirst =
        src->base + (numTiles > 0 ? src->coefficients[split] : 0) * splitStart +
        srcLowest;
    int64_t weightFirst =
        wgt->base + (numTiles > 0 ? wgt->coefficients[split] : 0) * splitStart +
        wgtLowest;
    // Load module: the chunk's input and weight spans, or only the one the
    // split iterator moves (the other is still in its buffer). After the
    // first chunk, the first load waits (g2l) until the previous GEMM has
    // read the buffers; the last one signals compute (l2g).
    int64_t inputSpan = span(*src, split, chunk);
    int64_t weightSpan = span(*wgt, split, chunk);
    bool loadInput = first || src->coefficients[split] != 0;
    bool loadWeight = first || wgt->coefficients[split] != 0 || !loadInput;
    if (loadInput)
      code.push_back(
          Instruction::load(MemoryType::Inp, 0,
                            lowering.inputOffset / inpRow + inputFirst, 1,
                            inputSpan, inputSpan)
              .deps(false, !first, false, !loadWeight));
    if (loadWeight)
      code.push_back(
          Instruction::load(MemoryType::Wgt, 0,
                            lowering.weightOffset / wgtRow + weightFirst, 1,
                            weightSpan, weightSpan)
              .deps(false, !first && !loadInput, false, true));
    // Compute: the reset needs no data, so it overlaps the loads; it does
    // write the output buffer (zeros), so after the first chunk it waits
    // (s2g) until the previous chunk's last store has read it.
    Instruction reset = Instruction::gemm(0, 1, rowsPerChunk, 1, true);
    reset.dstFactorOut = 1;
    code.push_back(reset.deps(false, !first, false, false));
    Instruction gemm = Instruction::gemm(1, 1 + numGemmUops);
    if (loops.size() > 0) {
      gemm.iterOut = extentIn(loops[0], split, chunk);
      gemm.dstFactorOut = dst.coefficients[loops[0]];
      gemm.srcFactorOut = src->coefficients[loops[0]];
      gemm.wgtFactorOut = wgt->coefficients[loops[0]];
    }
    if (loops.size() > 1) {
      gemm.iterIn = extentIn(loops[1], split, chunk);
      gemm.dstFactorIn = dst.coefficients[loops[1]];
      gemm.srcFactorIn = src->coefficients[loops[1]];
      gemm.wgtFactorIn = wgt->coefficients[loops[1]];
    }
    // The GEMM frees the input and weight buffers for the next chunk's
    // loads (g2l).
    code.push_back(gemm.deps(true, false, !last, false));

    // Epilogue over the chunk's accumulator rows with micro-op 0. Each ALU
    // writes the low byte of its results to the output buffer, which a
    // STORE copies out; the store hands the output buffer back (s2g)
    // before the next ALU overwrites it.
    int64_t resultFirst = splitStart * after;
    auto storePlane = [&](unsigned plane) {
      return Instruction::store(0,
                                lowering.resultOffset / outRow +
                                    plane * resultRows + resultFirst,
                                outer, inner, stride)
          .deps(true, false, true, false);
    };
    if (options.requantShift) {
      code.push_back(aluAll(AluOpcode::Shr, *options.requantShift));
      code.push_back(aluAll(AluOpcode::Min, 127));
      code.push_back(
          aluAll(AluOpcode::Max, -128).deps(false, false, false, true));
      code.push_back(storePlane(0));
    } else {
      // Exact int32 results: plane p holds bits [8p, 8p + 8).
      for (unsigned plane = 0; plane < 4; ++plane) {
        Instruction alu =
            plane == 0 ? aluAll(AluOpcode::Add, 0) : aluAll(AluOpcode::Shr, 8);
        code.push_back(alu.deps(false, plane != 0, false, true));
        code.push_back(storePlane(plane));
      }
    }
  }
  code.push_back(Instruction::finish().deps(false, true, false, false));

  std::vector<std::string> problems = checkProgram(program);
  if (!problems.empty()) {
    InFlightDiagnostic diag = error() << "the lowered program is invalid";
    for (const std::string &problem : problems)
      diag.attachNote() << problem;
    return failure();
  }
  if (options.accDependenceDistance > 1)
    if (std::optional<AccDependenceHazard> hazard =
            findAccDependenceHazard(program, options.accDependenceDistance))
      return error() << "instruction " << hazard->insnIndex
                     << " (gemm) writes accumulator row " << hazard->row
                     << " again " << hazard->gap << " step(s) after the "
                     << "previous write (step " << hazard->step
                     << "); the GEMM pipeline needs "
                     << options.accDependenceDistance
                     << " (too few independent output rows per chunk)";
  return lowering;
}

} // namespace

FailureOr<PackedGemmLowering>
raf::vta::lowerPackedGemm(tcg::KernelOp kernel,
                          const PackedGemmLoweringOptions &options) {
  return Lowering(kernel, options).run();
}
