//===- TCGAttrs.cpp - tcg dialect attributes ------------------------------===//
//
// Syntax and verification of #tcg.axis_maps, #tcg.candidate,
// #tcg.embedding and #tcg.tensorize, and the dialect's check that its
// discardable attributes carry them.
//
//===----------------------------------------------------------------------===//

#include "raf/Dialect/TCG/IR/TCGAttrs.h"

#include "raf/Dialect/TCG/IR/TCGDialect.h"
#include "raf/Dialect/TCG/IR/TCGOps.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/DialectImplementation.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace raf::tcg;

#define GET_ATTRDEF_CLASSES
#include "raf/Dialect/TCG/IR/TCGAttrs.cpp.inc"

void TCGDialect::registerAttributes() {
  addAttributes<
#define GET_ATTRDEF_LIST
#include "raf/Dialect/TCG/IR/TCGAttrs.cpp.inc"
      >();
}

//===----------------------------------------------------------------------===//
// Shared syntax: [(dim, length, stride), ...] and [int, ...]
//===----------------------------------------------------------------------===//

namespace {

ParseResult parseMapList(AsmParser &parser, SmallVectorImpl<DimMap> &maps) {
  return parser.parseCommaSeparatedList(
      AsmParser::Delimiter::Square, [&]() -> ParseResult {
        DimMap map;
        if (parser.parseLParen() || parser.parseInteger(map.dim) ||
            parser.parseComma() || parser.parseInteger(map.length) ||
            parser.parseComma() || parser.parseInteger(map.stride) ||
            parser.parseRParen())
          return failure();
        maps.push_back(map);
        return success();
      });
}

void printMapList(AsmPrinter &printer, ArrayRef<DimMap> maps) {
  printer << '[';
  llvm::interleaveComma(maps, printer, [&](const DimMap &map) {
    printer << '(' << map.dim << ", " << map.length << ", " << map.stride
            << ')';
  });
  printer << ']';
}

/// Parses `[maps, ...]` into AxisMapsAttrs, verified at the list's location.
ParseResult parseAxisList(AsmParser &parser,
                          SmallVectorImpl<AxisMapsAttr> &axes) {
  return parser.parseCommaSeparatedList(
      AsmParser::Delimiter::Square, [&]() -> ParseResult {
        SMLoc loc = parser.getCurrentLocation();
        SmallVector<DimMap> maps;
        if (parseMapList(parser, maps))
          return failure();
        auto attr = AxisMapsAttr::getChecked(
            [&] { return parser.emitError(loc); }, parser.getContext(), maps);
        if (!attr)
          return failure();
        axes.push_back(attr);
        return success();
      });
}

void printAxisList(AsmPrinter &printer, ArrayRef<AxisMapsAttr> axes) {
  printer << '[';
  llvm::interleaveComma(axes, printer, [&](AxisMapsAttr axis) {
    printMapList(printer, axis.getMaps());
  });
  printer << ']';
}

ParseResult parseIntList(AsmParser &parser, SmallVectorImpl<int64_t> &values) {
  return parser.parseCommaSeparatedList(AsmParser::Delimiter::Square, [&]() {
    return parser.parseInteger(values.emplace_back());
  });
}

void printIntList(AsmPrinter &printer, ArrayRef<int64_t> values) {
  printer << '[';
  llvm::interleaveComma(values, printer);
  printer << ']';
}

/// Parses `name = `.
ParseResult parseKey(AsmParser &parser, StringRef name) {
  return failure(parser.parseKeyword(name) || parser.parseEqual());
}

/// Parses `[total, minimum]`.
ParseResult parseCountPair(AsmParser &parser, uint64_t &total,
                           uint64_t &minimum) {
  return failure(parser.parseLSquare() || parser.parseInteger(total) ||
                 parser.parseComma() || parser.parseInteger(minimum) ||
                 parser.parseRSquare());
}

ParseResult parseBool(AsmParser &parser, bool &value) {
  if (succeeded(parser.parseOptionalKeyword("true"))) {
    value = true;
    return success();
  }
  if (succeeded(parser.parseOptionalKeyword("false"))) {
    value = false;
    return success();
  }
  return parser.emitError(parser.getCurrentLocation(),
                          "expected 'true' or 'false'");
}

} // namespace

//===----------------------------------------------------------------------===//
// AxisMapsAttr
//===----------------------------------------------------------------------===//

Attribute AxisMapsAttr::parse(AsmParser &parser, Type) {
  SMLoc loc = parser.getCurrentLocation();
  SmallVector<DimMap> maps;
  if (parser.parseLess() || parseMapList(parser, maps) || parser.parseGreater())
    return {};
  return getChecked([&] { return parser.emitError(loc); }, parser.getContext(),
                    maps);
}

void AxisMapsAttr::print(AsmPrinter &printer) const {
  printer << '<';
  printMapList(printer, getMaps());
  printer << '>';
}

LogicalResult AxisMapsAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                                   ArrayRef<DimMap> maps) {
  for (const DimMap &map : maps) {
    if (map.dim < 0)
      return emitError() << "axis mapping dimension " << map.dim
                         << " is negative";
    // A negative stride walks the dimension backwards (a flipped kernel
    // axis, as in a transposed convolution).
    if (map.length < 1 || map.stride == 0)
      return emitError() << "axis mapping (" << map.dim << ", " << map.length
                         << ", " << map.stride
                         << ") needs a positive length and a nonzero stride";
  }
  return success();
}

//===----------------------------------------------------------------------===//
// EmbeddingCandidateAttr
//===----------------------------------------------------------------------===//

SmallVector<AxisMapsAttr>
EmbeddingCandidateAttr::getOperandDims(unsigned operand) const {
  SmallVector<AxisMapsAttr> dims;
  for (Attribute dim : getOperands()[operand])
    dims.push_back(cast<AxisMapsAttr>(dim));
  return dims;
}

Attribute EmbeddingCandidateAttr::parse(AsmParser &parser, Type) {
  SMLoc loc = parser.getCurrentLocation();
  MLIRContext *context = parser.getContext();
  SmallVector<AxisMapsAttr> iterators;
  SmallVector<Attribute> operands;
  SmallVector<int64_t> extents, executed;
  uint64_t cost = 0, macTotal = 0, macMin = 0, dataTotal = 0, dataMin = 0;
  bool memoryAccess = true;
  auto parseOperand = [&]() -> ParseResult {
    SmallVector<AxisMapsAttr> dims;
    if (parseAxisList(parser, dims))
      return failure();
    operands.push_back(ArrayAttr::get(
        context, SmallVector<Attribute>(dims.begin(), dims.end())));
    return success();
  };
  if (parser.parseLess() || parseKey(parser, "iterators") ||
      parseAxisList(parser, iterators) || parser.parseComma() ||
      parseKey(parser, "operands") ||
      parser.parseCommaSeparatedList(AsmParser::Delimiter::Square,
                                     parseOperand) ||
      parser.parseComma() || parseKey(parser, "extents") ||
      parseIntList(parser, extents) || parser.parseComma() ||
      parseKey(parser, "executed") || parseIntList(parser, executed) ||
      parser.parseComma() || parseKey(parser, "cost") ||
      parser.parseInteger(cost) || parser.parseComma() ||
      parseKey(parser, "mac") || parseCountPair(parser, macTotal, macMin) ||
      parser.parseComma() || parseKey(parser, "data") ||
      parseCountPair(parser, dataTotal, dataMin) || parser.parseComma() ||
      parseKey(parser, "memory_access") || parseBool(parser, memoryAccess) ||
      parser.parseGreater())
    return {};
  SmallVector<ArrayAttr> operandLists;
  for (Attribute operand : operands)
    operandLists.push_back(cast<ArrayAttr>(operand));
  return getChecked([&] { return parser.emitError(loc); }, context, iterators,
                    operandLists, extents, executed, cost, macTotal, macMin,
                    dataTotal, dataMin, memoryAccess);
}

void EmbeddingCandidateAttr::print(AsmPrinter &printer) const {
  printer << "<iterators = ";
  printAxisList(printer, getIterators());
  printer << ", operands = [";
  llvm::interleaveComma(getOperands(), printer, [&](ArrayAttr dims) {
    SmallVector<AxisMapsAttr> axes;
    for (Attribute dim : dims)
      axes.push_back(cast<AxisMapsAttr>(dim));
    printAxisList(printer, axes);
  });
  printer << "], extents = ";
  printIntList(printer, getExtents());
  printer << ", executed = ";
  printIntList(printer, getExecuted());
  printer << ", cost = " << getCost() << ", mac = [" << getMacTotal() << ", "
          << getMacMin() << "], data = [" << getDataTotal() << ", "
          << getDataMin()
          << "], memory_access = " << (getMemoryAccess() ? "true" : "false")
          << '>';
}

LogicalResult EmbeddingCandidateAttr::verify(
    function_ref<InFlightDiagnostic()> emitError,
    ArrayRef<AxisMapsAttr> iterators, ArrayRef<ArrayAttr> operands,
    ArrayRef<int64_t> extents, ArrayRef<int64_t> executed, uint64_t cost,
    uint64_t macTotal, uint64_t macMin, uint64_t dataTotal, uint64_t dataMin,
    bool memoryAccess) {
  if (extents.size() != executed.size())
    return emitError() << "the candidate lists " << extents.size()
                       << " extents but " << executed.size()
                       << " executed extents";
  for (auto [index, extent, done] : llvm::enumerate(extents, executed))
    if (extent < 1 || done < extent)
      return emitError() << "iterator " << index << ": executed extent " << done
                         << " does not cover extent " << extent;
  // Only the MACs are bounded: the data minimum counts the stored operands,
  // of which a strided access may leave elements unread (a 5x10 kernel at
  // stride 2 over 341 columns never reads the last one), so the data an
  // embedding moves may be below it (the embedding's cost term clamps the
  // difference at 0).
  if (macMin > macTotal)
    return emitError() << "a minimal count exceeds the executed one (mac ["
                       << macTotal << ", " << macMin << "], data [" << dataTotal
                       << ", " << dataMin << "])";
  return success();
}

//===----------------------------------------------------------------------===//
// EmbeddingAttr
//===----------------------------------------------------------------------===//

Attribute EmbeddingAttr::parse(AsmParser &parser, Type) {
  SMLoc loc = parser.getCurrentLocation();
  MLIRContext *context = parser.getContext();
  std::string intrinsic, modeName;
  bool optimal = false;
  SmallVector<EmbeddingCandidateAttr> candidates;
  uint64_t nodes = 0, fails = 0, solutions = 0, assets = 0;
  std::optional<uint64_t> distinct;
  std::optional<bool> distinctComplete;
  FloatAttr timeMs;
  if (parser.parseLess() || parser.parseString(&intrinsic) ||
      parser.parseComma())
    return {};
  SMLoc modeLoc = parser.getCurrentLocation();
  if (parser.parseKeywordOrString(&modeName))
    return {};
  std::optional<EmbeddingMode> mode = symbolizeEmbeddingMode(modeName);
  if (!mode) {
    InFlightDiagnostic diag = parser.emitError(modeLoc,
                                               "unknown embedding mode '")
                              << modeName << "' (expected one of";
    for (unsigned value = 0; value <= getMaxEnumValForEmbeddingMode(); ++value)
      diag << (value ? ", " : " ")
           << stringifyEmbeddingMode(static_cast<EmbeddingMode>(value));
    diag << ")";
    return {};
  }
  auto parseCandidate = [&]() -> ParseResult {
    SMLoc candidateLoc = parser.getCurrentLocation();
    Attribute attr;
    if (parser.parseAttribute(attr))
      return failure();
    auto candidate = dyn_cast<EmbeddingCandidateAttr>(attr);
    if (!candidate)
      return parser.emitError(candidateLoc, "expected a #tcg.candidate");
    candidates.push_back(candidate);
    return success();
  };
  auto parseStat = [&]() -> ParseResult {
    SMLoc keyLoc = parser.getCurrentLocation();
    StringRef key;
    if (parser.parseKeyword(&key) || parser.parseEqual())
      return failure();
    if (key == "nodes")
      return parser.parseInteger(nodes);
    if (key == "fails")
      return parser.parseInteger(fails);
    if (key == "solutions")
      return parser.parseInteger(solutions);
    if (key == "assets")
      return parser.parseInteger(assets);
    if (key == "distinct")
      return parser.parseInteger(distinct.emplace());
    if (key == "complete")
      return parseBool(parser, distinctComplete.emplace());
    if (key == "time_ms") {
      double value;
      if (parser.parseFloat(value))
        return failure();
      timeMs = FloatAttr::get(Float64Type::get(context), value);
      return success();
    }
    return parser.emitError(keyLoc, "unknown search statistic '")
           << key
           << "' (expected nodes, fails, solutions, assets, distinct, "
              "complete or time_ms)";
  };
  if (parser.parseComma() || parseKey(parser, "optimal") ||
      parseBool(parser, optimal) || parser.parseComma() ||
      parseKey(parser, "candidates") ||
      parser.parseCommaSeparatedList(AsmParser::Delimiter::Square,
                                     parseCandidate) ||
      parser.parseComma() || parseKey(parser, "search") ||
      parser.parseCommaSeparatedList(AsmParser::Delimiter::Braces, parseStat) ||
      parser.parseGreater())
    return {};
  return getChecked([&] { return parser.emitError(loc); }, context,
                    StringAttr::get(context, intrinsic), *mode, optimal,
                    candidates, nodes, fails, solutions, assets, distinct,
                    distinctComplete, timeMs);
}

void EmbeddingAttr::print(AsmPrinter &printer) const {
  printer << '<';
  printer.printString(getIntrinsic().getValue());
  printer << ", " << stringifyEmbeddingMode(getMode())
          << ", optimal = " << (getOptimal() ? "true" : "false")
          << ", candidates = [";
  llvm::interleaveComma(getCandidates(), printer,
                        [&](EmbeddingCandidateAttr candidate) {
                          printer.printAttribute(candidate);
                        });
  printer << "], search = {nodes = " << getNodes() << ", fails = " << getFails()
          << ", solutions = " << getSolutions() << ", assets = " << getAssets();
  if (std::optional<uint64_t> distinct = getDistinct())
    printer << ", distinct = " << *distinct;
  if (std::optional<bool> complete = getDistinctComplete())
    printer << ", complete = " << (*complete ? "true" : "false");
  if (FloatAttr time = getTimeMs()) {
    // The shortest decimal form that reads back to the same double.
    SmallString<16> text;
    time.getValue().toString(text, /*FormatPrecision=*/0,
                             /*FormatMaxPadding=*/6);
    printer << ", time_ms = " << text;
  }
  printer << "}>";
}

LogicalResult
EmbeddingAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                      StringAttr intrinsic, EmbeddingMode, bool,
                      ArrayRef<EmbeddingCandidateAttr> candidates, uint64_t,
                      uint64_t, uint64_t, uint64_t, std::optional<uint64_t>,
                      std::optional<bool>, FloatAttr) {
  if (!intrinsic || intrinsic.getValue().empty())
    return emitError() << "the embedding names no intrinsic";
  if (candidates.empty())
    return emitError() << "the embedding of '" << intrinsic.getValue()
                       << "' has no candidate";
  for (auto [index, candidate] : llvm::enumerate(candidates.drop_front()))
    if (candidate.getIterators().size() !=
            candidates.front().getIterators().size() ||
        candidate.getOperands().size() !=
            candidates.front().getOperands().size() ||
        candidate.getExtents().size() != candidates.front().getExtents().size())
      return emitError() << "candidate " << index + 1
                         << " has another shape than candidate 0 (iterators, "
                            "operands or extents)";
  return success();
}

//===----------------------------------------------------------------------===//
// TensorizeAttr
//===----------------------------------------------------------------------===//

Attribute TensorizeAttr::parse(AsmParser &parser, Type) {
  SMLoc loc = parser.getCurrentLocation();
  MLIRContext *context = parser.getContext();
  std::string intrinsic;
  StringAttr target;
  SmallVector<int64_t> gemm;
  if (parser.parseLess() || parser.parseString(&intrinsic))
    return {};
  while (succeeded(parser.parseOptionalComma())) {
    SMLoc keyLoc = parser.getCurrentLocation();
    StringRef key;
    if (parser.parseKeyword(&key) || parser.parseEqual())
      return {};
    if (key == "target" && !target) {
      std::string name;
      if (parser.parseString(&name))
        return {};
      target = StringAttr::get(context, name);
    } else if (key == "gemm" && gemm.empty()) {
      if (parseIntList(parser, gemm))
        return {};
    } else {
      parser.emitError(keyLoc, "unexpected '")
          << key << "' (expected target or gemm, each at most once)";
      return {};
    }
  }
  if (parser.parseGreater())
    return {};
  return getChecked([&] { return parser.emitError(loc); }, context,
                    StringAttr::get(context, intrinsic), target, gemm);
}

void TensorizeAttr::print(AsmPrinter &printer) const {
  printer << '<';
  printer.printString(getIntrinsic().getValue());
  if (StringAttr target = getTarget()) {
    printer << ", target = ";
    printer.printString(target.getValue());
  }
  if (!getGemm().empty()) {
    printer << ", gemm = ";
    printIntList(printer, getGemm());
  }
  printer << '>';
}

LogicalResult
TensorizeAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                      StringAttr intrinsic, StringAttr target,
                      ArrayRef<int64_t> gemm) {
  if (!intrinsic || intrinsic.getValue().empty())
    return emitError() << "the tensorize attribute names no intrinsic";
  if (target && target.getValue().empty())
    return emitError() << "the tensorize target is empty";
  if (!gemm.empty() && gemm.size() != 3)
    return emitError() << "gemm lists " << gemm.size()
                       << " extents; a GEMM core has three (x, y, z)";
  for (int64_t extent : gemm)
    if (extent < 1)
      return emitError() << "GEMM extent " << extent << " is not positive";
  return success();
}

//===----------------------------------------------------------------------===//
// Discardable attributes
//===----------------------------------------------------------------------===//

LogicalResult TCGDialect::verifyOperationAttribute(Operation *op,
                                                   NamedAttribute attribute) {
  StringRef name = attribute.getName().getValue();
  if (name == kEmbeddingAttrName || name == kTensorizeAttrName) {
    if (!isa<KernelOp>(op))
      return op->emitError()
             << "'" << name << "' is only meaningful on a tcg.kernel";
    if (name == kEmbeddingAttrName && !isa<EmbeddingAttr>(attribute.getValue()))
      return op->emitError() << "'" << name << "' must be a #tcg.embedding";
    if (name == kEmbeddingAttrName)
      return success();
    auto tensorize = dyn_cast<TensorizeAttr>(attribute.getValue());
    if (!tensorize)
      return op->emitError() << "'" << name << "' must be a #tcg.tensorize";
    // The iterators that carry a GEMM axis are the intrinsic's: they have
    // its extents.
    ArrayRef<int64_t> gemm = tensorize.getGemm();
    if (gemm.empty())
      return success();
    WalkResult walk = op->walk<WalkOrder::PreOrder>([&](Operation *nested) {
      std::optional<GemmAxis> axis;
      int64_t extent = 0;
      if (auto tensor = dyn_cast<TensorOp>(nested)) {
        axis = tensor.getGemmAxis();
        extent = tensor.getExtent();
      } else if (auto reduce = dyn_cast<ReduceOp>(nested)) {
        axis = reduce.getGemmAxis();
        extent = reduce.getExtent();
      }
      if (!axis || extent == gemm[static_cast<unsigned>(*axis)])
        return WalkResult::advance();
      nested->emitError() << "GEMM axis " << stringifyGemmAxis(*axis)
                          << " has extent " << extent << ", but the kernel is "
                          << "tensorized with '"
                          << tensorize.getIntrinsic().getValue()
                          << "' whose axis has extent "
                          << gemm[static_cast<unsigned>(*axis)];
      return WalkResult::interrupt();
    });
    return failure(walk.wasInterrupted());
  }
  return op->emitError() << "unknown tcg attribute '" << name << "'";
}
