//===- Export.cpp - the relay dialect to TVM Relay text -------------------===//
//
// Prints every op as a graph binding `%N = expr;` (fresh names per
// function) so that importing the text again rebuilds the ops in the same
// order. Scalars print inline (`1f`, `2i64`, `True`); other constants go to
// the metadata section as `meta[relay.Constant][i]`.
//
//===----------------------------------------------------------------------===//

#include "raf/Target/RelayText/RelayText.h"

#include "Metadata.h"
#include "Types.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Diagnostics.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/raw_ostream.h"

#include "raf/Dialect/Relay/IR/RelayOps.h"

#include <cmath>

using namespace mlir;
using namespace raf::relaytext;
namespace relay = raf::relay;

namespace {

class Exporter {
public:
  explicit Exporter(llvm::raw_ostream &os) : os(os) {}

  LogicalResult printModule(ModuleOp module);

private:
  LogicalResult printFunc(func::FuncOp func);
  /// Prints the ops of `block` as bindings, then the value its terminator
  /// returns as the body's final expression.
  LogicalResult printBlock(Block &block, unsigned depth);
  LogicalResult printOp(Operation *op, unsigned depth);
  LogicalResult printOperator(Operation *op, StringRef binding);
  LogicalResult printAttribute(Operation *op, StringRef name, Attribute attr);
  LogicalResult printTypeOf(Operation *op, Type type);
  std::optional<std::string> scalarLiteral(DenseElementsAttr value);

  std::string fresh() { return "%" + std::to_string(nextId++); }
  std::string paramName() { return "%p" + std::to_string(nextParam++); }
  void indent(unsigned depth) { os.indent(2 * depth); }
  std::string operandList(ValueRange values) {
    std::string text;
    for (auto [i, v] : llvm::enumerate(values))
      text += (i ? ", " : "") + names.lookup(v);
    return text;
  }

  llvm::raw_ostream &os;
  DenseMap<Value, std::string> names;
  SmallVector<DenseElementsAttr> constants;
  unsigned nextId = 0;
  unsigned nextParam = 0;
};

} // namespace

static bool isIdentifier(StringRef name) {
  if (name.empty() || !(llvm::isAlpha(name[0]) || name[0] == '_'))
    return false;
  return llvm::all_of(name,
                      [](char c) { return llvm::isAlnum(c) || c == '_'; });
}

LogicalResult Exporter::printTypeOf(Operation *op, Type type) {
  if (succeeded(printType(type, os)))
    return success();
  op->emitError() << "type " << type << " has no Relay text form";
  return failure();
}

LogicalResult Exporter::printModule(ModuleOp module) {
  os << "#[version = \"0.0.5\"]\n";
  for (Operation &op : module.getBody()->getOperations()) {
    auto func = dyn_cast<func::FuncOp>(op);
    if (!func) {
      op.emitError() << "'" << op.getName()
                     << "' has no Relay text form (only func.func may appear "
                        "at the top level)";
      return failure();
    }
    if (failed(printFunc(func)))
      return failure();
  }
  if (!constants.empty()) {
    llvm::Expected<std::string> metadata = printMetadata(constants);
    if (!metadata) {
      emitError(module.getLoc()) << llvm::toString(metadata.takeError());
      return failure();
    }
    os << "#[metadata]\n" << *metadata << "\n";
  }
  return success();
}

LogicalResult Exporter::printFunc(func::FuncOp func) {
  if (func.isExternal()) {
    func.emitError() << "function declarations have no Relay text form";
    return failure();
  }
  if (!isIdentifier(func.getSymName())) {
    func.emitError() << "'" << func.getSymName()
                     << "' is not a valid Relay global name";
    return failure();
  }
  nextId = 0;
  nextParam = 0;
  names.clear();
  os << "def @" << func.getSymName() << "(";
  Block &entry = func.getBody().front();
  for (auto [i, arg] : llvm::enumerate(entry.getArguments())) {
    std::string name = paramName();
    names[arg] = name;
    os << (i ? ", " : "") << name << ": ";
    if (failed(printTypeOf(func, arg.getType())))
      return failure();
  }
  os << ") -> ";
  // Relay functions have one result: several become a tuple.
  TypeRange results = func.getFunctionType().getResults();
  Type result = results.size() == 1
                    ? results.front()
                    : Type(TupleType::get(func.getContext(), results));
  if (failed(printTypeOf(func, result)))
    return failure();
  os << " {\n";
  if (failed(printBlock(entry, 1)))
    return failure();
  os << "}\n\n";
  return success();
}

LogicalResult Exporter::printBlock(Block &block, unsigned depth) {
  for (Operation &op : block.without_terminator())
    if (failed(printOp(&op, depth)))
      return failure();
  Operation *terminator = block.getTerminator();
  indent(depth);
  ValueRange values = terminator->getOperands();
  if (values.size() == 1) {
    os << names.lookup(values.front()) << "\n";
  } else {
    if (!isa<func::ReturnOp>(terminator)) {
      terminator->emitError()
          << "'" << terminator->getName() << "' with " << values.size()
          << " values has no Relay text form";
      return failure();
    }
    os << "(" << operandList(values) << (values.size() == 1 ? ",)" : ")")
       << "\n";
  }
  return success();
}

std::optional<std::string> Exporter::scalarLiteral(DenseElementsAttr value) {
  if (value.getType().getRank() != 0)
    return std::nullopt;
  Type element = value.getElementType();
  if (element.isInteger(1))
    return std::string(value.getSplatValue<bool>() ? "True" : "False");
  if (auto intType = dyn_cast<IntegerType>(element)) {
    if (!intType.isSignless())
      return std::nullopt;
    int64_t v = value.getSplatValue<APInt>().getSExtValue();
    unsigned width = intType.getWidth();
    if (width == 32)
      return std::to_string(v);
    if (width == 8 || width == 16 || width == 64)
      return std::to_string(v) + "i" + std::to_string(width);
    return std::nullopt;
  }
  if (element.isF16() || element.isF32() || element.isF64()) {
    double v = value.getSplatValue<APFloat>().convertToDouble();
    if (!std::isfinite(v))
      return std::nullopt;
    // Enough digits to read back the same value of the element type.
    std::string text;
    llvm::raw_string_ostream stream(text);
    stream << llvm::format(element.isF64() ? "%.17g" : "%.9g", v);
    text += element.isF32() ? "f" : element.isF16() ? "f16" : "f64";
    return text;
  }
  return std::nullopt;
}

LogicalResult Exporter::printOp(Operation *op, unsigned depth) {
  if (auto ref = dyn_cast<relay::GlobalRefOp>(op)) {
    names[ref.getResult()] = ("@" + ref.getCallee()).str();
    return success();
  }
  std::string name = fresh();
  indent(depth);
  os << name << " = ";
  if (auto constant = dyn_cast<relay::ConstantOp>(op)) {
    auto value = dyn_cast<DenseElementsAttr>(constant.getValue());
    if (!value) {
      op->emitError() << "only dense constants have a Relay text form";
      return failure();
    }
    if (std::optional<std::string> literal = scalarLiteral(value)) {
      os << *literal;
    } else {
      os << "meta[relay.Constant][" << constants.size() << "]";
      constants.push_back(value);
    }
    os << ";\n";
    names[constant.getResult()] = name;
    return success();
  }
  if (auto tuple = dyn_cast<relay::TupleOp>(op)) {
    os << "(" << operandList(tuple.getFields())
       << (tuple.getFields().size() == 1 ? ",)" : ")") << ";\n";
    names[tuple.getResult()] = name;
    return success();
  }
  if (auto get = dyn_cast<relay::TupleGetOp>(op)) {
    os << names.lookup(get.getTuple()) << "." << get.getIndex() << ";\n";
    names[get.getResult()] = name;
    return success();
  }
  if (auto ifOp = dyn_cast<relay::IfOp>(op)) {
    if (ifOp.getNumResults() != 1) {
      op->emitError() << "relay.if with " << ifOp.getNumResults()
                      << " results has no Relay text form";
      return failure();
    }
    os << "if (" << names.lookup(ifOp.getCondition()) << ") {\n";
    if (failed(printBlock(ifOp.getThenRegion().front(), depth + 1)))
      return failure();
    indent(depth);
    os << "} else {\n";
    if (failed(printBlock(ifOp.getElseRegion().front(), depth + 1)))
      return failure();
    indent(depth);
    os << "};\n";
    names[ifOp.getResult(0)] = name;
    return success();
  }
  if (auto fn = dyn_cast<relay::FnOp>(op)) {
    FunctionType type = fn.getFunctionType();
    if (type.getNumResults() != 1) {
      op->emitError() << "relay.fn with " << type.getNumResults()
                      << " results has no Relay text form";
      return failure();
    }
    os << "fn (";
    Block &body = fn.getBody().front();
    for (auto [i, arg] : llvm::enumerate(body.getArguments())) {
      std::string param = paramName();
      names[arg] = param;
      os << (i ? ", " : "") << param << ": ";
      if (failed(printTypeOf(op, arg.getType())))
        return failure();
    }
    if (fn.getPrimitive())
      os << (body.getNumArguments() ? ", " : "") << "Primitive=1";
    os << ") -> ";
    if (failed(printTypeOf(op, type.getResult(0))))
      return failure();
    os << " {\n";
    if (failed(printBlock(body, depth + 1)))
      return failure();
    indent(depth);
    os << "};\n";
    names[fn.getResult()] = name;
    return success();
  }
  if (auto call = dyn_cast<relay::CallOp>(op)) {
    if (call.getNumResults() != 1) {
      op->emitError() << "relay.call with " << call.getNumResults()
                      << " results has no Relay text form";
      return failure();
    }
    os << names.lookup(call.getCallee()) << "(" << operandList(call.getArgs())
       << ");\n";
    names[call.getResult(0)] = name;
    return success();
  }
  if (auto call = dyn_cast<func::CallOp>(op)) {
    if (call.getNumResults() != 1) {
      op->emitError() << "func.call with " << call.getNumResults()
                      << " results has no Relay text form";
      return failure();
    }
    os << "@" << call.getCallee() << "(" << operandList(call.getOperands())
       << ");\n";
    names[call.getResult(0)] = name;
    return success();
  }
  if (isa<relay::FusionOpInterface>(op))
    return printOperator(op, name);
  op->emitError() << "'" << op->getName()
                  << "' has no Relay text form in this exporter";
  return failure();
}

/// The TVM string of a typed relay attribute (`#relay.layout<NHWC>` is
/// "NHWC", `#relay.pad_mode<reflect>` is "reflect").
static std::optional<StringRef> typedAttrString(Attribute attr) {
  if (auto layout = dyn_cast<relay::LayoutAttr>(attr))
    return layout.getName();
  if (auto mode = dyn_cast<relay::PadModeAttr>(attr))
    return relay::stringifyPadMode(mode.getValue());
  if (auto reduction = dyn_cast<relay::LossReductionAttr>(attr))
    return relay::stringifyLossReduction(reduction.getValue());
  if (auto mode = dyn_cast<relay::TakeModeAttr>(attr))
    return relay::stringifyTakeMode(mode.getValue());
  if (auto approximation = dyn_cast<relay::GeluApproximationAttr>(attr))
    return relay::stringifyGeluApproximation(approximation.getValue());
  return std::nullopt;
}

static void printFloat(llvm::raw_ostream &os, double value) {
  os << llvm::format("%.17g", value) << "f";
}

LogicalResult Exporter::printAttribute(Operation *op, StringRef name,
                                       Attribute attr) {
  os << name << "=";
  if (auto b = dyn_cast<BoolAttr>(attr)) {
    os << (b.getValue() ? "True" : "False");
  } else if (auto i = dyn_cast<IntegerAttr>(attr)) {
    os << i.getInt();
  } else if (auto f = dyn_cast<FloatAttr>(attr)) {
    if (!std::isfinite(f.getValueAsDouble())) {
      op->emitError() << "attribute '" << name
                      << "' is not finite and has no Relay text form";
      return failure();
    }
    printFloat(os, f.getValueAsDouble());
  } else if (auto s = dyn_cast<StringAttr>(attr)) {
    os << '"';
    os.write_escaped(s.getValue());
    os << '"';
  } else if (std::optional<StringRef> text = typedAttrString(attr)) {
    // TVM keeps layouts and modes as strings (data_layout="NHWC").
    os << '"' << *text << '"';
  } else if (auto array = dyn_cast<DenseI64ArrayAttr>(attr)) {
    os << "[";
    llvm::interleaveComma(array.asArrayRef(), os);
    os << "]";
  } else if (auto type = dyn_cast<TypeAttr>(attr)) {
    std::string dtype = dtypeName(type.getValue());
    if (dtype.empty()) {
      op->emitError() << "attribute '" << name << "' names type "
                      << type.getValue() << ", which has no TVM dtype";
      return failure();
    }
    os << '"' << dtype << '"';
  } else {
    op->emitError() << "attribute '" << name << "' (" << attr
                    << ") has no Relay text form";
    return failure();
  }
  return success();
}

LogicalResult Exporter::printOperator(Operation *op, StringRef binding) {
  StringRef opName = op->getName().getStringRef();
  opName.consume_front("relay.");
  NamedAttrList defaults;
  op->getName().populateDefaultAttrs(defaults);

  // Attributes TVM has no counterpart for must stay at their defaults.
  for (StringRef name : {"momentum", "training", "seed"}) {
    Attribute attr = op->getAttr(name);
    if (attr && attr != defaults.get(name)) {
      op->emitError() << opName << " with a non-default '" << name
                      << "' has no Relay text form (TVM's " << opName
                      << " has no such attribute)";
      return failure();
    }
  }

  os << opName << "(";
  if (isa<relay::ConcatenateOp>(op)) {
    os << "(" << operandList(op->getOperands())
       << (op->getNumOperands() == 1 ? ",)" : ")");
  } else {
    os << operandList(op->getOperands());
  }
  if (auto pad = dyn_cast<relay::PadOp>(op)) {
    // TVM passes the pad value as an operand and pad_width as pairs.
    os << ", ";
    double padValue = pad.getPadValue().convertToDouble();
    if (std::isfinite(padValue)) {
      printFloat(os, padValue);
    } else {
      // Relay text has no literal for infinity or NaN, but the pad value is
      // an expression: a scalar constant in the metadata section carries it
      // exactly, in the element type of the padded tensor.
      auto inputType = cast<RankedTensorType>(pad.getX().getType());
      auto floatType = dyn_cast<FloatType>(inputType.getElementType());
      if (!floatType) {
        op->emitError() << "nn.pad with the non-finite pad value " << padValue
                        << " on a tensor of " << inputType.getElementType()
                        << " has no Relay text form";
        return failure();
      }
      APFloat value(padValue);
      bool lost;
      value.convert(floatType.getFloatSemantics(), APFloat::rmNearestTiesToEven,
                    &lost);
      auto scalarType = RankedTensorType::get({}, floatType);
      os << "meta[relay.Constant][" << constants.size() << "]";
      constants.push_back(DenseElementsAttr::get(scalarType, value));
    }
    os << ", pad_width=[";
    ArrayRef<int64_t> widths = pad.getPadWidth();
    for (size_t i = 0; i + 1 < widths.size(); i += 2)
      os << (i ? ", " : "") << "[" << widths[i] << ", " << widths[i + 1] << "]";
    os << "]";
  }
  bool firstAttr = true;
  for (NamedAttribute attr : op->getAttrs()) {
    StringRef name = attr.getName().getValue();
    // Dialect-prefixed annotations (relay.backend) are not part of Relay.
    if (name.contains('.') || attr.getValue() == defaults.get(name))
      continue;
    if (isa<relay::PadOp>(op) && (name == "pad_width" || name == "pad_value"))
      continue;
    if (isa<relay::SplitOp>(op) && (name == "sections" || name == "indices"))
      name = "indices_or_sections";
    if (op->getNumOperands() != 0 || isa<relay::PadOp>(op) || !firstAttr)
      os << ", ";
    firstAttr = false;
    if (failed(printAttribute(op, name, attr.getValue())))
      return failure();
  }
  os << ");\n";

  // Operators TVM types as tuples: the results are its fields.
  if (isa<relay::BatchNormOp, relay::SplitOp, relay::DropoutOp>(op)) {
    for (auto [i, result] : llvm::enumerate(op->getResults()))
      names[result] = (binding + "." + llvm::Twine(i)).str();
    return success();
  }
  names[op->getResult(0)] = binding.str();
  return success();
}

LogicalResult raf::exportRelayText(ModuleOp module, llvm::raw_ostream &os) {
  // Print into a buffer: a failure must not leave half a module behind.
  std::string text;
  llvm::raw_string_ostream stream(text);
  if (failed(Exporter(stream).printModule(module)))
    return failure();
  os << text;
  return success();
}
