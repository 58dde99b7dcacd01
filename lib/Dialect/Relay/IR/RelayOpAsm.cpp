//===- RelayOpAsm.cpp - textual form of relay operators -------------------===//

#include "raf/Dialect/Relay/IR/RelayOpAsm.h"

using namespace mlir;

namespace raf::relay {

ParseResult parseOperator(OpAsmParser &parser, OperationState &result,
                          InferReturnTypesFn inferReturnTypes,
                          unsigned numOperands, bool variadic) {
  SmallVector<OpAsmParser::UnresolvedOperand> operands;
  SMLoc operandsLoc = parser.getCurrentLocation();
  if (parser.parseOperandList(operands))
    return failure();
  if (variadic ? operands.size() < numOperands
               : operands.size() != numOperands)
    return parser.emitError(operandsLoc)
           << "expected " << (variadic ? "at least " : "") << numOperands
           << " operand" << (numOperands == 1 && !variadic ? "" : "s")
           << ", got " << operands.size();
  if (parser.parseOptionalAttrDict(result.attributes))
    return failure();

  SmallVector<Type> operandTypes, resultTypes;
  if (succeeded(parser.parseOptionalColon())) {
    if (parser.parseLParen())
      return failure();
    if (failed(parser.parseOptionalRParen()) &&
        (parser.parseTypeList(operandTypes) || parser.parseRParen()))
      return failure();
    if (parser.parseOptionalArrowTypeList(resultTypes))
      return failure();
  } else if (!operands.empty()) {
    // Point at the operands: the current token may already be on the next
    // line.
    return parser.emitError(operandsLoc,
                            "expected ':' followed by the operand types, e.g. "
                            "': (tensor<4xf32>, tensor<4xf32>)'");
  }
  if (parser.resolveOperands(operands, operandTypes, operandsLoc,
                             result.operands))
    return failure();

  // Without explicit result types, run the operator's shape function; its
  // diagnostics point at this operation.
  if (resultTypes.empty() &&
      failed(inferReturnTypes(
          parser.getContext(), result.location, result.operands,
          result.attributes.getDictionary(parser.getContext()),
          OpaqueProperties(nullptr), result.regions, resultTypes)))
    return failure();
  result.addTypes(resultTypes);
  return success();
}

void printOperator(OpAsmPrinter &printer, Operation *op) {
  if (op->getNumOperands() != 0) {
    printer << ' ';
    printer.printOperands(op->getOperands());
  }
  // Attributes equal to their default are implied; print the others.
  NamedAttrList defaults;
  op->getName().populateDefaultAttrs(defaults);
  SmallVector<StringRef> elided;
  for (NamedAttribute attr : op->getAttrs())
    if (defaults.get(attr.getName()) == attr.getValue())
      elided.push_back(attr.getName().getValue());
  printer.printOptionalAttrDict(op->getAttrs(), elided);
  printer << " : ";
  printer.printFunctionalType(op);
}

} // namespace raf::relay
