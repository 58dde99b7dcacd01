//===- Types.cpp - Relay text types and dtypes ----------------------------===//

#include "Types.h"

#include "mlir/IR/BuiltinTypes.h"
#include "llvm/ADT/StringSwitch.h"

#include <functional>

using namespace mlir;

Type raf::relaytext::parseDtype(StringRef name, MLIRContext *context) {
  return llvm::StringSwitch<std::function<Type()>>(name)
      .Case("float16", [&] { return Float16Type::get(context); })
      .Case("float32", [&] { return Float32Type::get(context); })
      .Case("float64", [&] { return Float64Type::get(context); })
      .Case("bfloat16", [&] { return BFloat16Type::get(context); })
      .Case("bool", [&] { return IntegerType::get(context, 1); })
      .Case("int8", [&] { return IntegerType::get(context, 8); })
      .Case("int16", [&] { return IntegerType::get(context, 16); })
      .Case("int32", [&] { return IntegerType::get(context, 32); })
      .Case("int64", [&] { return IntegerType::get(context, 64); })
      .Case("uint8",
            [&] { return IntegerType::get(context, 8, IntegerType::Unsigned); })
      .Case(
          "uint16",
          [&] { return IntegerType::get(context, 16, IntegerType::Unsigned); })
      .Case(
          "uint32",
          [&] { return IntegerType::get(context, 32, IntegerType::Unsigned); })
      .Case(
          "uint64",
          [&] { return IntegerType::get(context, 64, IntegerType::Unsigned); })
      .Default([] { return Type(); })();
}

std::string raf::relaytext::dtypeName(Type type) {
  if (type.isF16())
    return "float16";
  if (type.isF32())
    return "float32";
  if (type.isF64())
    return "float64";
  if (type.isBF16())
    return "bfloat16";
  if (auto intType = dyn_cast<IntegerType>(type)) {
    unsigned width = intType.getWidth();
    if (width == 1)
      return intType.isSignless() ? "bool" : "";
    if (width != 8 && width != 16 && width != 32 && width != 64)
      return "";
    if (intType.isSignless())
      return "int" + std::to_string(width);
    if (intType.isUnsigned())
      return "uint" + std::to_string(width);
  }
  return "";
}

LogicalResult raf::relaytext::printType(Type type, llvm::raw_ostream &os) {
  if (auto tensor = dyn_cast<RankedTensorType>(type)) {
    std::string dtype = dtypeName(tensor.getElementType());
    if (dtype.empty() || !tensor.hasStaticShape())
      return failure();
    if (tensor.getRank() == 0) {
      os << dtype;
      return success();
    }
    os << "Tensor[(";
    llvm::interleaveComma(tensor.getShape(), os);
    os << "), " << dtype << "]";
    return success();
  }
  if (auto tuple = dyn_cast<TupleType>(type)) {
    os << "(";
    for (auto [i, element] : llvm::enumerate(tuple.getTypes())) {
      if (i)
        os << ", ";
      if (failed(printType(element, os)))
        return failure();
    }
    // A one-element tuple type needs the trailing comma to differ from
    // parentheses.
    os << (tuple.size() == 1 ? ",)" : ")");
    return success();
  }
  if (auto function = dyn_cast<FunctionType>(type)) {
    if (function.getNumResults() != 1)
      return failure();
    os << "fn (";
    for (auto [i, input] : llvm::enumerate(function.getInputs())) {
      if (i)
        os << ", ";
      if (failed(printType(input, os)))
        return failure();
    }
    os << ") -> ";
    return printType(function.getResult(0), os);
  }
  return failure();
}

std::string raf::relaytext::typeToString(Type type) {
  std::string text;
  llvm::raw_string_ostream os(text);
  if (succeeded(printType(type, os)))
    return text;
  text.clear();
  os << type;
  return text;
}
