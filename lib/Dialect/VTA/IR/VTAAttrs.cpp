//===- VTAAttrs.cpp - #vta.config, #vta.schedule, #vta.dram_layout --------===//

#include "raf/Dialect/VTA/IR/VTAAttrs.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/DialectImplementation.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/ADT/TypeSwitch.h"
#include "llvm/Support/CheckedArithmetic.h"

using namespace mlir;
using namespace raf::vta;

#define GET_ATTRDEF_CLASSES
#include "raf/Dialect/VTA/IR/VTAAttrs.cpp.inc"

void VTADialect::registerAttributes() {
  addAttributes<
#define GET_ATTRDEF_LIST
#include "raf/Dialect/VTA/IR/VTAAttrs.cpp.inc"
      >();
}

ConfigAttr ConfigAttr::get(MLIRContext *context, const Config &config) {
  return get(context, config.logInpWidth, config.logWgtWidth,
             config.logAccWidth, config.logBatch, config.logBlock,
             config.logUopBuffSize, config.logInpBuffSize,
             config.logWgtBuffSize, config.logAccBuffSize);
}

static Config makeConfig(unsigned logInpWidth, unsigned logWgtWidth,
                         unsigned logAccWidth, unsigned logBatch,
                         unsigned logBlock, unsigned logUopBuffSize,
                         unsigned logInpBuffSize, unsigned logWgtBuffSize,
                         unsigned logAccBuffSize) {
  Config config;
  config.logInpWidth = logInpWidth;
  config.logWgtWidth = logWgtWidth;
  config.logAccWidth = logAccWidth;
  config.logBatch = logBatch;
  config.logBlock = logBlock;
  config.logUopBuffSize = logUopBuffSize;
  config.logInpBuffSize = logInpBuffSize;
  config.logWgtBuffSize = logWgtBuffSize;
  config.logAccBuffSize = logAccBuffSize;
  return config;
}

Config ConfigAttr::getConfig() const {
  return makeConfig(getLogInpWidth(), getLogWgtWidth(), getLogAccWidth(),
                    getLogBatch(), getLogBlock(), getLogUopBuffSize(),
                    getLogInpBuffSize(), getLogWgtBuffSize(),
                    getLogAccBuffSize());
}

LogicalResult ConfigAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                                 unsigned logInpWidth, unsigned logWgtWidth,
                                 unsigned logAccWidth, unsigned logBatch,
                                 unsigned logBlock, unsigned logUopBuffSize,
                                 unsigned logInpBuffSize,
                                 unsigned logWgtBuffSize,
                                 unsigned logAccBuffSize) {
  Config config = makeConfig(logInpWidth, logWgtWidth, logAccWidth, logBatch,
                             logBlock, logUopBuffSize, logInpBuffSize,
                             logWgtBuffSize, logAccBuffSize);
  std::vector<std::string> errors = config.validate();
  if (errors.empty())
    return success();
  InFlightDiagnostic diag = emitError() << "invalid VTA configuration: ";
  llvm::interleave(
      errors, [&](const std::string &e) { diag << e; }, [&] { diag << "; "; });
  return diag;
}

// #vta.config<"preset"> | <"preset", key = value, ...> | <key = value, ...>
Attribute ConfigAttr::parse(AsmParser &parser, Type) {
  SMLoc loc = parser.getCurrentLocation();
  if (parser.parseLess())
    return {};
  Config config = Config::getDefault();
  bool needComma = false;
  std::string preset;
  if (succeeded(parser.parseOptionalString(&preset))) {
    std::optional<Config> found = Config::getPreset(preset);
    if (!found) {
      parser.emitError(loc) << "unknown VTA configuration preset \"" << preset
                            << "\"; expected one of: "
                            << llvm::join(Config::getPresetNames(), ", ");
      return {};
    }
    config = *found;
    needComma = true;
  }
  llvm::StringSet<> seen;
  while (true) {
    if (succeeded(parser.parseOptionalGreater()))
      break;
    if (needComma && parser.parseComma())
      return {};
    needComma = true;
    SMLoc keyLoc = parser.getCurrentLocation();
    std::string key;
    if (parser.parseKeywordOrString(&key))
      return {};
    const ConfigParameter *parameter =
        llvm::find_if(getConfigParameters(),
                      [&](const ConfigParameter &p) { return p.key == key; });
    if (parameter == getConfigParameters().end()) {
      SmallVector<StringRef> keys;
      for (const ConfigParameter &p : getConfigParameters())
        keys.push_back(p.key);
      parser.emitError(keyLoc)
          << "unknown VTA configuration parameter '" << key
          << "'; expected one of: " << llvm::join(keys, ", ");
      return {};
    }
    if (!seen.insert(key).second) {
      parser.emitError(keyLoc)
          << "VTA configuration parameter '" << key << "' given twice";
      return {};
    }
    unsigned value = 0;
    if (parser.parseEqual() || parser.parseInteger(value))
      return {};
    config.*parameter->member = value;
  }
  return parser.getChecked<ConfigAttr>(
      loc, parser.getContext(), config.logInpWidth, config.logWgtWidth,
      config.logAccWidth, config.logBatch, config.logBlock,
      config.logUopBuffSize, config.logInpBuffSize, config.logWgtBuffSize,
      config.logAccBuffSize);
}

void ConfigAttr::print(AsmPrinter &printer) const {
  Config config = getConfig();
  printer << "<";
  if (std::optional<StringRef> preset = config.getPresetName()) {
    printer << "\"" << *preset << "\">";
    return;
  }
  llvm::interleaveComma(getConfigParameters(), printer,
                        [&](const ConfigParameter &p) {
                          printer << p.key << " = " << config.*p.member;
                        });
  printer << ">";
}

//===----------------------------------------------------------------------===//
// ScheduleAttr
//===----------------------------------------------------------------------===//

ScheduleKnobs ScheduleAttr::getKnobs() const {
  ScheduleKnobs knobs;
  knobs.tileSizes.assign(getTiles().begin(), getTiles().end());
  knobs.virtualThreads = getVirtualThreads();
  knobs.loopOrder.assign(getLoopOrder().begin(), getLoopOrder().end());
  knobs.dma = getDma();
  return knobs;
}

LogicalResult
ScheduleAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                     ArrayRef<int64_t> tiles, int64_t virtualThreads,
                     ArrayRef<int64_t> loopOrder, DmaPlacement) {
  for (auto [index, size] : llvm::enumerate(tiles))
    if (size < 1)
      return emitError() << "tile size " << size << " of tile iterator "
                         << index << " is not positive";
  if (virtualThreads != 1 && virtualThreads != 2)
    return emitError() << "virtual_threads must be 1 or 2, got "
                       << virtualThreads;
  if (loopOrder.empty())
    return success();
  if (loopOrder.size() != tiles.size())
    return emitError() << "loop_order has " << loopOrder.size()
                       << " loops; tiles has " << tiles.size()
                       << " tile iterators";
  SmallVector<bool> seen(tiles.size(), false);
  for (int64_t index : loopOrder) {
    if (index < 0 || index >= int64_t(tiles.size()))
      return emitError() << "loop_order names tile iterator " << index
                         << ", not one of 0 to " << tiles.size() - 1;
    if (seen[index])
      return emitError() << "loop_order names tile iterator " << index
                         << " twice";
    seen[index] = true;
  }
  return success();
}

// #vta.schedule<tiles = [...], virtual_threads = N (, loop_order = [...])?
//               (, dma = step|hoist_weight)?>
Attribute ScheduleAttr::parse(AsmParser &parser, Type) {
  SMLoc loc = parser.getCurrentLocation();
  SmallVector<int64_t> tiles, loopOrder;
  int64_t virtualThreads = 1;
  DmaPlacement dma = DmaPlacement::Step;
  auto parseList = [&](SmallVector<int64_t> &list) {
    return parser.parseCommaSeparatedList(
        AsmParser::Delimiter::Square,
        [&] { return parser.parseInteger(list.emplace_back()); });
  };
  if (parser.parseLess() || parser.parseKeyword("tiles") ||
      parser.parseEqual() || parseList(tiles) || parser.parseComma() ||
      parser.parseKeyword("virtual_threads") || parser.parseEqual() ||
      parser.parseInteger(virtualThreads))
    return {};
  bool seenLoopOrder = false, seenDma = false;
  while (succeeded(parser.parseOptionalComma())) {
    SMLoc keyLoc = parser.getCurrentLocation();
    StringRef key;
    if (parser.parseKeyword(&key) || parser.parseEqual())
      return {};
    if (key == "loop_order" && !seenLoopOrder && !seenDma) {
      seenLoopOrder = true;
      if (parseList(loopOrder))
        return {};
    } else if (key == "dma" && !seenDma) {
      seenDma = true;
      SMLoc valueLoc = parser.getCurrentLocation();
      StringRef value;
      if (parser.parseKeyword(&value))
        return {};
      std::optional<DmaPlacement> placement = symbolizeDmaPlacement(value);
      if (!placement) {
        parser.emitError(valueLoc, "unknown DMA placement '")
            << value << "' (step or hoist_weight)";
        return {};
      }
      dma = *placement;
    } else {
      parser.emitError(keyLoc, "expected 'loop_order' or 'dma' (once each, "
                               "in that order) after virtual_threads, got '")
          << key << "'";
      return {};
    }
  }
  if (parser.parseGreater())
    return {};
  return getChecked([&] { return parser.emitError(loc); },
                    parser.getContext(), tiles, virtualThreads, loopOrder,
                    dma);
}

void ScheduleAttr::print(AsmPrinter &printer) const {
  printer << "<tiles = [";
  llvm::interleaveComma(getTiles(), printer);
  printer << "], virtual_threads = " << getVirtualThreads();
  if (!getLoopOrder().empty()) {
    printer << ", loop_order = [";
    llvm::interleaveComma(getLoopOrder(), printer);
    printer << ']';
  }
  if (getDma() != DmaPlacement::Step)
    printer << ", dma = " << stringifyDmaPlacement(getDma());
  printer << '>';
}

//===----------------------------------------------------------------------===//
// DramLayoutAttr
//===----------------------------------------------------------------------===//

LogicalResult DramLayoutAttr::verify(
    function_ref<InFlightDiagnostic()> emitError, int64_t inputOperand,
    int64_t inputOffset, int64_t weightOperand, int64_t weightOffset,
    int64_t resultOffset, int64_t resultRows, int64_t resultRowBytes,
    int64_t resultPlanes, int64_t size, std::optional<int64_t> biasOffset,
    std::optional<int64_t> biasRows) {
  if (!((inputOperand == 0 && weightOperand == 1) ||
        (inputOperand == 1 && weightOperand == 0)))
    return emitError() << "input_operand and weight_operand must be 0 and 1 "
                          "in some order, got "
                       << inputOperand << " and " << weightOperand;
  if (inputOffset < 0 || weightOffset < 0 || resultOffset < 0)
    return emitError() << "DRAM offsets must not be negative";
  if (resultRows < 1 || resultRowBytes < 1)
    return emitError() << "the result needs at least one row of one byte";
  if (resultPlanes != 1 && resultPlanes != 4)
    return emitError() << "result_planes must be 4 (exact int32) or 1 "
                          "(requantised int8), got "
                       << resultPlanes;
  // Checked arithmetic: the fields come from user IR.
  std::optional<int64_t> resultBytes = llvm::checkedMul(resultRows,
                                                        resultRowBytes);
  if (resultBytes)
    resultBytes = llvm::checkedMul(*resultBytes, resultPlanes);
  std::optional<int64_t> resultEnd =
      resultBytes ? llvm::checkedAdd(resultOffset, *resultBytes)
                  : std::nullopt;
  if (!resultEnd)
    return emitError() << "the result's extent overflows 64 bits";
  if (size < *resultEnd)
    return emitError() << "size " << size << " ends before the result ("
                       << *resultEnd << " bytes)";
  if (inputOffset >= size || weightOffset >= size)
    return emitError() << "an operand offset lies beyond the " << size
                       << "-byte image";
  if (biasOffset.has_value() != biasRows.has_value())
    return emitError() << "bias_offset and bias_rows must be given together";
  if (!biasOffset)
    return success();
  if (*biasOffset < 0 || *biasRows < 1)
    return emitError() << "the bias needs a non-negative offset and at least "
                          "one row, got bias_offset = "
                       << *biasOffset << " and bias_rows = " << *biasRows;
  // Accumulator rows: result_row_bytes int32 elements each.
  std::optional<int64_t> biasBytes =
      llvm::checkedMul(*biasRows, resultRowBytes);
  if (biasBytes)
    biasBytes = llvm::checkedMul(*biasBytes, int64_t(4));
  std::optional<int64_t> biasEnd =
      biasBytes ? llvm::checkedAdd(*biasOffset, *biasBytes) : std::nullopt;
  if (!biasEnd || *biasEnd > size)
    return emitError() << "the bias (" << *biasRows << " rows of "
                       << resultRowBytes << " int32 from byte " << *biasOffset
                       << ") does not fit the " << size << "-byte image";
  return success();
}

//===----------------------------------------------------------------------===//
// Discardable attributes
//===----------------------------------------------------------------------===//

LogicalResult VTADialect::verifyOperationAttribute(Operation *op,
                                                   NamedAttribute attribute) {
  // The schedule a kernel carries is read by the lowering; one of another
  // type must not be silently ignored.
  if (attribute.getName() == "vta.schedule" &&
      !isa<ScheduleAttr>(attribute.getValue()))
    return op->emitError("'vta.schedule' must be a #vta.schedule, got ")
           << attribute.getValue();
  return success();
}
