//===- RelayStructuralOps.cpp - Relay language constructs -----------------===//
//
// Type rules of the Relay paper's Fig. 6 for constants, tuples, conditionals,
// closures, calls, references, zero and grad.
//
//===----------------------------------------------------------------------===//

#include "raf/Dialect/Relay/IR/RelayOps.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/OpImplementation.h"
#include "mlir/Interfaces/FunctionImplementation.h"

using namespace mlir;
using namespace raf::relay;

//===----------------------------------------------------------------------===//
// ConstantOp
//===----------------------------------------------------------------------===//

OpFoldResult ConstantOp::fold(FoldAdaptor) { return getValue(); }

//===----------------------------------------------------------------------===//
// TupleOp / TupleGetOp
//===----------------------------------------------------------------------===//

LogicalResult TupleOp::inferReturnTypes(MLIRContext *context,
                                        std::optional<Location>,
                                        Adaptor adaptor,
                                        SmallVectorImpl<Type> &inferred) {
  inferred.push_back(
      TupleType::get(context, TypeRange(adaptor.getFields().getTypes())));
  return success();
}

LogicalResult TupleGetOp::inferReturnTypes(MLIRContext *context,
                                           std::optional<Location> location,
                                           Adaptor adaptor,
                                           SmallVectorImpl<Type> &inferred) {
  auto tuple = dyn_cast<TupleType>(adaptor.getTuple().getType());
  auto index = dyn_cast_or_null<IntegerAttr>(
      adaptor.getAttributes().get("index"));
  if (!tuple || !index)
    return emitOptionalError(location, getOperationName(),
                             ": expects a tuple operand and an integer index");
  int64_t i = index.getInt();
  if (i < 0 || i >= static_cast<int64_t>(tuple.size()))
    return emitOptionalError(location, getOperationName(),
                             ": TYPE-PROJECTION: index ", i,
                             " is out of range for a tuple of ", tuple.size(),
                             " fields (expected 0 <= index < ", tuple.size(),
                             ")");
  inferred.push_back(tuple.getType(i));
  return success();
}

OpFoldResult TupleGetOp::fold(FoldAdaptor) {
  // tuple_get(tuple(a0, ..., an), i) -> ai
  if (auto tuple = getTuple().getDefiningOp<TupleOp>())
    return tuple.getFields()[getIndex()];
  return {};
}

//===----------------------------------------------------------------------===//
// IfOp
//===----------------------------------------------------------------------===//

LogicalResult IfOp::verify() {
  auto condType = cast<RankedTensorType>(getCondition().getType());
  if (condType.getRank() != 0 || !condType.getElementType().isInteger(1))
    return emitOpError("TYPE-IF: condition must be Tensor(BoolType, Shape()), "
                       "i.e. tensor<i1>, got ")
           << condType;
  for (Region *region : {&getThenRegion(), &getElseRegion()}) {
    StringRef which = region == &getThenRegion() ? "then" : "else";
    Block &block = region->front();
    auto yield = block.empty() ? YieldOp() : dyn_cast<YieldOp>(block.back());
    if (!yield)
      return emitOpError("TYPE-IF: the ")
             << which << " branch must end in relay.yield";
    if (yield.getValues().getTypes() != getResultTypes())
      return emitOpError("TYPE-IF: the ")
             << which << " branch yields (" << yield.getValues().getTypes()
             << ") but the if produces (" << getResultTypes() << ")";
  }
  return success();
}

void IfOp::getSuccessorRegions(RegionBranchPoint point,
                               SmallVectorImpl<RegionSuccessor> &regions) {
  // Both branches flow back to the parent.
  if (!point.isParent()) {
    regions.push_back(RegionSuccessor(getOperation(), getResults()));
    return;
  }
  regions.push_back(RegionSuccessor(&getThenRegion()));
  regions.push_back(RegionSuccessor(&getElseRegion()));
}

//===----------------------------------------------------------------------===//
// FnOp
//===----------------------------------------------------------------------===//

ParseResult FnOp::parse(OpAsmParser &parser, OperationState &result) {
  SmallVector<OpAsmParser::Argument> arguments;
  SmallVector<Type> resultTypes;
  if (parser.parseArgumentList(arguments, OpAsmParser::Delimiter::Paren,
                               /*allowType=*/true) ||
      parser.parseOptionalArrowTypeList(resultTypes) ||
      parser.parseOptionalAttrDictWithKeyword(result.attributes))
    return failure();
  SmallVector<Type> argTypes;
  for (OpAsmParser::Argument &argument : arguments)
    argTypes.push_back(argument.type);
  result.addTypes(FunctionType::get(parser.getContext(), argTypes, resultTypes));
  Region *body = result.addRegion();
  return parser.parseRegion(*body, arguments);
}

void FnOp::print(OpAsmPrinter &printer) {
  printer << '(';
  llvm::interleaveComma(getBody().getArguments(), printer,
                        [&](BlockArgument arg) {
                          printer.printRegionArgument(arg);
                        });
  printer << ')';
  ArrayRef<Type> results = getFunctionType().getResults();
  if (!results.empty()) {
    printer << " -> ";
    if (results.size() == 1 && !isa<FunctionType>(results.front()))
      printer << results.front();
    else
      printer << '(' << results << ')';
  }
  printer.printOptionalAttrDictWithKeyword((*this)->getAttrs());
  printer << ' ';
  printer.printRegion(getBody(), /*printEntryBlockArgs=*/false);
}

LogicalResult FnOp::verify() {
  FunctionType type = getFunctionType();
  Block &entry = getBody().front();
  if (entry.getArgumentTypes() != type.getInputs())
    return emitOpError("parameter types (")
           << entry.getArgumentTypes()
           << ") do not match the closure's function type " << type;
  // An empty body has no terminator to ask for.
  auto ret = entry.empty() ? ReturnOp() : dyn_cast<ReturnOp>(entry.back());
  if (!ret)
    return emitOpError("body must end in relay.return");
  if (ret.getValues().getTypes() != type.getResults())
    return ret.emitOpError("returns (")
           << ret.getValues().getTypes() << ") but the closure is declared to "
           << "return (" << type.getResults() << ")";
  return success();
}

//===----------------------------------------------------------------------===//
// CallOp
//===----------------------------------------------------------------------===//

ParseResult CallOp::parse(OpAsmParser &parser, OperationState &result) {
  OpAsmParser::UnresolvedOperand callee;
  SmallVector<OpAsmParser::UnresolvedOperand> args;
  FunctionType type;
  SMLoc argsLoc;
  if (parser.parseOperand(callee) ||
      (argsLoc = parser.getCurrentLocation(), false) ||
      parser.parseOperandList(args, OpAsmParser::Delimiter::Paren) ||
      parser.parseOptionalAttrDict(result.attributes) || parser.parseColon() ||
      parser.parseType(type) ||
      parser.resolveOperand(callee, type, result.operands) ||
      parser.resolveOperands(args, type.getInputs(), argsLoc, result.operands))
    return failure();
  result.addTypes(type.getResults());
  return success();
}

void CallOp::print(OpAsmPrinter &printer) {
  printer << ' ' << getCallee() << '(' << getArgs() << ')';
  printer.printOptionalAttrDict((*this)->getAttrs());
  printer << " : " << getCallee().getType();
}

LogicalResult CallOp::verify() {
  auto type = cast<FunctionType>(getCallee().getType());
  if (type.getNumInputs() != getArgs().size())
    return emitOpError("TYPE-CALL: the callee takes ")
           << type.getNumInputs() << " arguments but " << getArgs().size()
           << " are given";
  for (auto [index, pair] :
       llvm::enumerate(llvm::zip(type.getInputs(), getArgs().getTypes())))
    if (std::get<0>(pair) != std::get<1>(pair))
      return emitOpError("TYPE-CALL: argument #")
             << index << " has type " << std::get<1>(pair)
             << " but the callee expects " << std::get<0>(pair);
  if (TypeRange(type.getResults()) != TypeRange(getResultTypes()))
    return emitOpError("TYPE-CALL: the callee returns (")
           << type.getResults() << ") but the call produces ("
           << getResultTypes() << ")";
  return success();
}

//===----------------------------------------------------------------------===//
// GlobalRefOp
//===----------------------------------------------------------------------===//

LogicalResult
GlobalRefOp::verifySymbolUses(SymbolTableCollection &symbolTable) {
  auto fn =
      symbolTable.lookupNearestSymbolFrom<func::FuncOp>(*this, getCalleeAttr());
  if (!fn)
    return emitOpError("'") << getCallee()
                            << "' does not reference a func.func";
  if (fn.getFunctionType() != getResult().getType())
    return emitOpError("type ")
           << getResult().getType() << " does not match the type "
           << fn.getFunctionType() << " of @" << getCallee();
  return success();
}

//===----------------------------------------------------------------------===//
// References
//===----------------------------------------------------------------------===//

LogicalResult RefNewOp::inferReturnTypes(MLIRContext *context,
                                         std::optional<Location>,
                                         Adaptor adaptor,
                                         SmallVectorImpl<Type> &inferred) {
  inferred.push_back(RefType::get(context, adaptor.getValue().getType()));
  return success();
}

LogicalResult RefReadOp::inferReturnTypes(MLIRContext *context,
                                          std::optional<Location> location,
                                          Adaptor adaptor,
                                          SmallVectorImpl<Type> &inferred) {
  auto ref = dyn_cast<RefType>(adaptor.getRef().getType());
  if (!ref)
    return emitOptionalError(location, getOperationName(),
                             ": TYPE-VAL-REF: expects a !relay.ref operand, "
                             "got ",
                             adaptor.getRef().getType());
  inferred.push_back(ref.getValueType());
  return success();
}

//===----------------------------------------------------------------------===//
// ZeroOp
//===----------------------------------------------------------------------===//

/// Zero is defined for numeric tensors and (nested) tuples of them.
static bool hasZero(Type type) {
  if (auto tuple = dyn_cast<TupleType>(type))
    return llvm::all_of(tuple.getTypes(), hasZero);
  auto tensor = dyn_cast<RankedTensorType>(type);
  return tensor && tensor.getElementType().isIntOrFloat();
}

LogicalResult ZeroOp::verify() {
  if (!hasZero(getResult().getType()))
    return emitOpError("TYPE-ZERO: expects a tensor type or a tuple of tensor "
                       "types, got ")
           << getResult().getType();
  return success();
}

//===----------------------------------------------------------------------===//
// GradOp
//===----------------------------------------------------------------------===//

LogicalResult GradOp::inferReturnTypes(MLIRContext *context,
                                       std::optional<Location> location,
                                       Adaptor adaptor,
                                       SmallVectorImpl<Type> &inferred) {
  auto fn = dyn_cast<FunctionType>(adaptor.getFn().getType());
  if (!fn)
    return emitOptionalError(location, getOperationName(),
                             ": expects a function-typed operand");
  auto isFloatTensor = [](Type type) {
    auto tensor = dyn_cast<RankedTensorType>(type);
    return tensor && isa<FloatType>(tensor.getElementType());
  };
  for (auto [index, input] : llvm::enumerate(fn.getInputs()))
    if (!isFloatTensor(input))
      return emitOptionalError(location, getOperationName(),
                               ": TYPE-GRADIENT: parameter #", index,
                               " has type ", input,
                               "; gradients need floating-point tensors");
  if (fn.getNumResults() != 1 || !isFloatTensor(fn.getResult(0)))
    return emitOptionalError(location, getOperationName(),
                             ": TYPE-GRADIENT: the function must return one "
                             "floating-point tensor, got (",
                             fn.getResults(), ")");
  Type grads = TupleType::get(context, fn.getInputs());
  Type result = TupleType::get(context, {fn.getResult(0), grads});
  inferred.push_back(FunctionType::get(context, fn.getInputs(), result));
  return success();
}
