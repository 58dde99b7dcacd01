//===- TCGOps.cpp - tcg operations: syntax and verifiers ------------------===//
//
// The verifiers check the construction rules of Fig. 3.2 (Rieber 2022, §3.1).
// MLIR verifies an op's own invariants (`verify`) before its regions' ops and
// the region invariants (`verifyRegions`) after them, so a kernel first
// rejects foreign ops anywhere inside it, each op then checks itself, and the
// structure of every body is checked once its ops are known to be valid.
//
//===----------------------------------------------------------------------===//

#include "raf/Dialect/TCG/IR/TCGOps.h"

#include "raf/Dialect/TCG/IR/IntervalAnalysis.h"

#include "mlir/IR/AffineMap.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/OpImplementation.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallBitVector.h"
#include "llvm/ADT/SmallString.h"

using namespace mlir;
using namespace raf::tcg;

#include "raf/Dialect/TCG/IR/TCGEnums.cpp.inc"

#define GET_OP_CLASSES
#include "raf/Dialect/TCG/IR/TCGOps.cpp.inc"

//===----------------------------------------------------------------------===//
// Shared by tcg.tensor and tcg.reduce
//===----------------------------------------------------------------------===//

namespace {

/// Parses `%iv in [lower, upper) (name "n")? (gemm_axis x|y|z)?` into `result`
/// and `iterator`.
ParseResult parseIterator(OpAsmParser &parser, OperationState &result,
                          OpAsmParser::Argument &iterator) {
  Builder &b = parser.getBuilder();
  int64_t lower, upper;
  if (parser.parseArgument(iterator) || parser.parseKeyword("in") ||
      parser.parseLSquare() || parser.parseInteger(lower) ||
      parser.parseComma() || parser.parseInteger(upper) || parser.parseRParen())
    return failure();
  iterator.type = b.getIndexType();
  result.addAttribute("lower", b.getI64IntegerAttr(lower));
  result.addAttribute("upper", b.getI64IntegerAttr(upper));
  std::string text;
  if (succeeded(parser.parseOptionalKeyword("name"))) {
    if (parser.parseString(&text))
      return failure();
    result.addAttribute("iter_name", b.getStringAttr(text));
  }
  if (succeeded(parser.parseOptionalKeyword("gemm_axis"))) {
    SMLoc axisLoc = parser.getCurrentLocation();
    if (parser.parseKeywordOrString(&text))
      return failure();
    std::optional<GemmAxis> axis = symbolizeGemmAxis(text);
    if (!axis)
      return parser.emitError(axisLoc, "gemm_axis must be x, y or z, got '")
             << text << "'";
    result.addAttribute("gemm_axis",
                        GemmAxisAttr::get(parser.getContext(), *axis));
  }
  return success();
}

template <typename OpT>
void printIterator(OpAsmPrinter &p, OpT op) {
  p << op.getIterator() << " in [" << op.getLowerBound() << ", "
    << op.getUpperBound() << ")";
  if (std::optional<StringRef> name = op.getIterName()) {
    p << " name ";
    p.printString(*name);
  }
  if (std::optional<GemmAxis> axis = op.getGemmAxis())
    p << " gemm_axis " << stringifyGemmAxis(*axis);
}

constexpr StringRef kIteratorAttrs[] = {"lower", "upper", "iter_name",
                                        "gemm_axis"};

/// Checks the interval and the body's iterator argument.
template <typename OpT>
LogicalResult verifyIterator(OpT op) {
  if (op.getLowerBound() != 0)
    return op.emitOpError("lower bound must be 0, got ") << op.getLowerBound();
  if (op.getUpperBound() <= op.getLowerBound())
    return op.emitOpError("interval [")
           << op.getLowerBound() << ", " << op.getUpperBound() << ") is empty";
  Block &body = op.getBody().front();
  if (body.getNumArguments() != 1 || !body.getArgument(0).getType().isIndex())
    return op.emitOpError("body must have exactly one argument, the `index` "
                          "iterator");
  return success();
}

template <typename OpT>
void nameIterator(OpT op, OpAsmSetValueNameFn setNameFn) {
  if (std::optional<StringRef> name = op.getIterName())
    setNameFn(op.getIterator(), *name);
}

} // namespace

//===----------------------------------------------------------------------===//
// KernelOp
//===----------------------------------------------------------------------===//

ParseResult KernelOp::parse(OpAsmParser &parser, OperationState &result) {
  Builder &b = parser.getBuilder();
  std::string name;
  if (succeeded(parser.parseOptionalString(&name)))
    result.addAttribute(getKernelNameAttrName(result.name),
                        b.getStringAttr(name));

  // `(%arg = %operand : type, ...)`: each operand and the block argument
  // that receives it inside the body.
  SmallVector<OpAsmParser::Argument> arguments;
  SmallVector<OpAsmParser::UnresolvedOperand> operands;
  SmallVector<Type> types;
  if (parser.parseCommaSeparatedList(
          OpAsmParser::Delimiter::Paren, [&]() -> ParseResult {
            OpAsmParser::Argument argument;
            OpAsmParser::UnresolvedOperand operand;
            Type type;
            if (parser.parseArgument(argument) || parser.parseEqual() ||
                parser.parseOperand(operand) || parser.parseColonType(type))
              return failure();
            argument.type = type;
            arguments.push_back(argument);
            operands.push_back(operand);
            types.push_back(type);
            return success();
          }))
    return failure();

  Type resultType;
  if (parser.parseArrow() || parser.parseType(resultType) ||
      parser.parseOptionalAttrDictWithKeyword(result.attributes))
    return failure();
  result.addTypes(resultType);
  if (parser.resolveOperands(operands, types, parser.getNameLoc(),
                             result.operands))
    return failure();
  Region *body = result.addRegion();
  return parser.parseRegion(*body, arguments);
}

void KernelOp::print(OpAsmPrinter &p) {
  p << ' ';
  if (std::optional<StringRef> name = getKernelName()) {
    p.printString(*name);
    p << ' ';
  }
  p << '(';
  llvm::interleaveComma(
      llvm::zip(getBodyBlock().getArguments(), getInputs()), p, [&](auto it) {
        auto [argument, operand] = it;
        p << argument << " = " << operand << " : " << operand.getType();
      });
  p << ") -> " << getType();
  p.printOptionalAttrDictWithKeyword((*this)->getAttrs(),
                                     {getKernelNameAttrName()});
  p << ' ';
  p.printRegion(getBody(), /*printEntryBlockArgs=*/false);
}

void KernelOp::getAsmBlockArgumentNames(Region &region,
                                        OpAsmSetValueNameFn setNameFn) {
  std::optional<ArrayAttr> names = getArgNames();
  if (!names || names->size() != region.getNumArguments())
    return;
  for (auto [argument, name] :
       llvm::zip(region.getArguments(), names->getAsValueRange<StringAttr>()))
    setNameFn(argument, name);
}

YieldOp KernelOp::getYield() {
  return cast<YieldOp>(getBodyBlock().getTerminator());
}

TensorOp KernelOp::getRootTensor() {
  return getYield().getValue().getDefiningOp<TensorOp>();
}

std::string KernelOp::getArgName(unsigned index) {
  if (std::optional<ArrayAttr> names = getArgNames())
    if (index < names->size())
      return cast<StringAttr>((*names)[index]).str();
  return "in" + std::to_string(index);
}

StringRef KernelOp::getResultNameOrDefault() {
  return getResultName().value_or("out");
}

LogicalResult KernelOp::verify() {
  Block &body = getBodyBlock();
  if (body.getArgumentTypes() != getInputs().getTypes())
    return emitOpError("body must have one argument per input, of the "
                       "input's type");
  if (std::optional<ArrayAttr> names = getArgNames())
    if (names->size() != getInputs().size())
      return emitOpError("has ") << names->size() << " arg_names for "
                                 << getInputs().size() << " inputs";
  // A TCG is a strict loop program: no branches, loops or computation that
  // the tensor expression does not describe (Fig. 3.2's restrictions).
  WalkResult walk = getBody().walk([&](Operation *op) {
    if (op->getDialect() == getOperation()->getDialect() && !isa<KernelOp>(op))
      return WalkResult::advance();
    InFlightDiagnostic diag =
        emitOpError("may only contain tcg operations other than tcg.kernel "
                    "(no branches, loops or other computation), found '")
        << op->getName() << "'";
    diag.attachNote(op->getLoc()) << "found here";
    return WalkResult::interrupt();
  });
  return failure(walk.wasInterrupted());
}

LogicalResult KernelOp::verifyRegions() {
  YieldOp yield = getYield();
  auto root = yield.getValue().getDefiningOp<TensorOp>();
  if (!root || root->getParentOp() != getOperation())
    return yield.emitOpError("of a kernel must yield the result of one of the "
                             "kernel's tcg.tensor computations");
  if (root.getType() != getType())
    return emitOpError("result type ")
           << getType() << " differs from the yielded " << root.getType();
  return success();
}

//===----------------------------------------------------------------------===//
// TensorOp
//===----------------------------------------------------------------------===//

ParseResult TensorOp::parse(OpAsmParser &parser, OperationState &result) {
  OpAsmParser::Argument iterator;
  Type resultType;
  if (parseIterator(parser, result, iterator) || parser.parseArrow() ||
      parser.parseType(resultType) ||
      parser.parseOptionalAttrDictWithKeyword(result.attributes))
    return failure();
  result.addTypes(resultType);
  return parser.parseRegion(*result.addRegion(), {iterator});
}

void TensorOp::print(OpAsmPrinter &p) {
  p << ' ';
  printIterator(p, *this);
  p << " -> " << getType();
  p.printOptionalAttrDictWithKeyword((*this)->getAttrs(), kIteratorAttrs);
  p << ' ';
  p.printRegion(getBody(), /*printEntryBlockArgs=*/false);
}

void TensorOp::getAsmBlockArgumentNames(Region &,
                                        OpAsmSetValueNameFn setNameFn) {
  nameIterator(*this, setNameFn);
}

YieldOp TensorOp::getYield() {
  return cast<YieldOp>(getBody().front().getTerminator());
}

LogicalResult TensorOp::verify() {
  if (failed(verifyIterator(*this)))
    return failure();
  if (getType().getDimSize(0) != getExtent())
    return emitOpError("result type ")
           << getType() << " must have the interval's size " << getExtent()
           << " as its first dimension";
  return success();
}

LogicalResult TensorOp::verifyRegions() {
  Block &body = getBody().front();
  YieldOp yield = getYield();
  Type yielded = yield.getValue().getType();
  RankedTensorType type = getType();

  // An inner dimension: the body is the nested tcg.tensor, or, after fusion
  // (Rieber 2022, Fig. 3.12), a sequence of nested computations whose last
  // one is the dimension and whose earlier ones are local rows it reads.
  if (auto inner = dyn_cast<RankedTensorType>(yielded)) {
    auto nested = yield.getValue().getDefiningOp<TensorOp>();
    bool onlyTensors =
        llvm::all_of(body.without_terminator(),
                     [](Operation &op) { return isa<TensorOp>(op); });
    if (!nested || nested->getBlock() != &body || !onlyTensors ||
        nested->getNextNode() != yield)
      return emitOpError("body yielding a tensor must consist of one nested "
                         "tcg.tensor and the yield of its result (or, fused, "
                         "of a sequence of tcg.tensor computations yielding "
                         "the last one)");
    if (type.getShape().drop_front() != inner.getShape() ||
        type.getElementType() != inner.getElementType())
      return emitOpError("result type ")
             << type << " must be the interval's size followed by the "
             << "nested dimensions " << inner;
    return success();
  }

  // The innermost dimension: a scalar computation.
  if (!isa<IntegerType, FloatType>(yielded))
    return yield.emitOpError("of a tcg.tensor must yield a tensor or a "
                             "scalar, got ")
           << yielded;
  for (Operation &op : body)
    if (isa<TensorOp>(op))
      return op.emitOpError("may only be nested in a tcg.tensor whose body "
                            "yields it (only tensors contain tensors)");
  if (type.getRank() != 1 || type.getElementType() != yielded)
    return emitOpError("yields scalars of type ")
           << yielded << ", so its result type must be "
           << RankedTensorType::get({getExtent()}, yielded) << ", got " << type;
  return success();
}

//===----------------------------------------------------------------------===//
// ReduceOp
//===----------------------------------------------------------------------===//

ParseResult ReduceOp::parse(OpAsmParser &parser, OperationState &result) {
  StringRef keyword;
  SMLoc loc = parser.getCurrentLocation();
  if (parser.parseKeyword(&keyword))
    return failure();
  std::optional<ScalarOp> kind = symbolizeScalarOp(keyword);
  if (!kind)
    return parser.emitError(loc, "unknown reduction '") << keyword << "'";
  result.addAttribute("kind", ScalarOpAttr::get(parser.getContext(), *kind));
  OpAsmParser::Argument iterator;
  Type resultType;
  if (parseIterator(parser, result, iterator) || parser.parseArrow() ||
      parser.parseType(resultType) ||
      parser.parseOptionalAttrDictWithKeyword(result.attributes))
    return failure();
  result.addTypes(resultType);
  return parser.parseRegion(*result.addRegion(), {iterator});
}

void ReduceOp::print(OpAsmPrinter &p) {
  p << ' ' << stringifyScalarOp(getKind()) << ' ';
  printIterator(p, *this);
  p << " -> " << getType();
  SmallVector<StringRef> elided(std::begin(kIteratorAttrs),
                                std::end(kIteratorAttrs));
  elided.push_back("kind");
  p.printOptionalAttrDictWithKeyword((*this)->getAttrs(), elided);
  p << ' ';
  p.printRegion(getBody(), /*printEntryBlockArgs=*/false);
}

void ReduceOp::getAsmBlockArgumentNames(Region &,
                                        OpAsmSetValueNameFn setNameFn) {
  nameIterator(*this, setNameFn);
}

YieldOp ReduceOp::getYield() {
  return cast<YieldOp>(getBody().front().getTerminator());
}

LogicalResult ReduceOp::verify() {
  switch (getKind()) {
  case ScalarOp::Sub:
  case ScalarOp::Div:
    return emitOpError("cannot reduce with '")
           << stringifyScalarOp(getKind())
           << "' (not associative); use add, mul, max or min";
  case ScalarOp::Exp:
    return emitOpError("cannot reduce with 'exp' (a unary operation); use "
                       "add, mul, max or min");
  default:
    break;
  }
  return verifyIterator(*this);
}

LogicalResult ReduceOp::verifyRegions() {
  // Scalars are only produced by tcg.input, tcg.compute and tcg.reduce, so
  // the type check also ensures the yielded value comes from one of them.
  Type yielded = getYield().getValue().getType();
  if (yielded != getType())
    return getYield().emitOpError("yields ")
           << yielded << " but the reduction produces " << getType();
  return success();
}

//===----------------------------------------------------------------------===//
// ComputeOp
//===----------------------------------------------------------------------===//

LogicalResult ComputeOp::verify() {
  Type result = getType();
  bool unary = isUnary(getKind());
  if (unary != !getRhs())
    return emitOpError("'") << stringifyScalarOp(getKind()) << "' takes "
                            << (unary ? "one operand" : "two operands");
  if (getKind() == ScalarOp::Exp && !isa<FloatType>(result))
    return emitOpError("'exp' needs a floating-point type, got ") << result;
  SmallVector<Type, 2> operands = {getLhs().getType()};
  if (getRhs())
    operands.push_back(getRhs().getType());
  for (Type operand : operands) {
    if (isa<IntegerType>(operand) != isa<IntegerType>(result))
      return emitOpError("operands and result must all be integers or all "
                         "floats, got ")
             << operand << " and " << result;
    if (operand.getIntOrFloatBitWidth() > result.getIntOrFloatBitWidth())
      return emitOpError("result type ")
             << result << " is narrower than the operand type " << operand;
    // Widening keeps the float format family: f16 -> f32 is exact, but
    // bf16 and f16 have the same width and different formats.
    if (operand.getIntOrFloatBitWidth() == result.getIntOrFloatBitWidth() &&
        operand != result)
      return emitOpError("operand type ")
             << operand << " and result type " << result
             << " have the same width but differ";
  }
  return success();
}

//===----------------------------------------------------------------------===//
// ConstantOp
//===----------------------------------------------------------------------===//

LogicalResult ConstantOp::verify() {
  if (!isa<IntegerAttr, FloatAttr>(getValue()))
    return emitOpError("value must be an integer or float attribute, got ")
           << getValue();
  return success();
}

OpFoldResult ConstantOp::fold(FoldAdaptor) { return getValue(); }

//===----------------------------------------------------------------------===//
// InputOp
//===----------------------------------------------------------------------===//

void InputOp::build(OpBuilder &builder, OperationState &result, Value source,
                    ValueRange iterators, AffineMap map,
                    ArrayRef<int64_t> padLow, ArrayRef<int64_t> padHigh,
                    ArrayRef<int64_t> dilation) {
  // Renumber the dimensions the map uses, in order, one per distinct
  // iterator.
  SmallVector<Value> operands;
  SmallVector<AffineExpr> replacements;
  for (unsigned dim = 0, e = map.getNumDims(); dim != e; ++dim) {
    if (!map.isFunctionOfDim(dim)) {
      replacements.push_back(builder.getAffineConstantExpr(0));
      continue;
    }
    auto *it = llvm::find(operands, iterators[dim]);
    unsigned position = it - operands.begin();
    if (it == operands.end())
      operands.push_back(iterators[dim]);
    replacements.push_back(builder.getAffineDimExpr(position));
  }
  AffineMap canonical = simplifyAffineMap(map.replaceDimsAndSymbols(
      replacements, {}, operands.size(), map.getNumSymbols()));
  Type element = cast<ShapedType>(source.getType()).getElementType();
  auto optionalArray = [&](ArrayRef<int64_t> values) {
    return values.empty() ? DenseI64ArrayAttr()
                          : builder.getDenseI64ArrayAttr(values);
  };
  build(builder, result, element, source, operands, canonical,
        optionalArray(padLow), optionalArray(padHigh), optionalArray(dilation));
}

namespace {
constexpr StringRef kViewAttrs[] = {"pad_low", "pad_high", "dilation"};

/// The view attributes in the order of kViewAttrs.
std::array<std::optional<ArrayRef<int64_t>>, 3> getViewAttrs(InputOp op) {
  return {op.getPadLow(), op.getPadHigh(), op.getDilation()};
}
} // namespace

ParseResult InputOp::parse(OpAsmParser &parser, OperationState &result) {
  OpAsmParser::UnresolvedOperand source;
  SmallVector<OpAsmParser::UnresolvedOperand> iterators;
  Attribute map;
  if (parser.parseOperand(source) ||
      parser.parseAffineMapOfSSAIds(iterators, map, "map", result.attributes))
    return failure();
  for (StringRef name : kViewAttrs) {
    if (failed(parser.parseOptionalKeyword(name)))
      continue;
    SmallVector<int64_t> values;
    if (parser.parseCommaSeparatedList(
            OpAsmParser::Delimiter::Square, [&]() -> ParseResult {
              return parser.parseInteger(values.emplace_back());
            }))
      return failure();
    result.addAttribute(name, parser.getBuilder().getDenseI64ArrayAttr(values));
  }
  Type sourceType;
  if (parser.parseOptionalAttrDict(result.attributes) ||
      parser.parseColonType(sourceType))
    return failure();
  auto shaped = dyn_cast<ShapedType>(sourceType);
  if (!shaped)
    return parser.emitError(parser.getNameLoc(),
                            "expected a tensor type for the source, got ")
           << sourceType;
  result.addTypes(shaped.getElementType());

  // The parser folds expressions such as `%l mod 1` and may leave an
  // iterator unused; drop it so that the op verifies.
  AffineMap accessMap = cast<AffineMapAttr>(map).getValue();
  llvm::SmallBitVector unused = getUnusedDimsBitVector({accessMap});
  if (unused.any()) {
    SmallVector<OpAsmParser::UnresolvedOperand> used;
    for (auto [dim, iterator] : llvm::enumerate(iterators))
      if (!unused.test(dim))
        used.push_back(iterator);
    iterators = std::move(used);
    result.attributes.set("map",
                          AffineMapAttr::get(compressDims(accessMap, unused)));
  }
  if (parser.resolveOperand(source, sourceType, result.operands) ||
      parser.resolveOperands(iterators, parser.getBuilder().getIndexType(),
                             result.operands))
    return failure();
  return success();
}

void InputOp::print(OpAsmPrinter &p) {
  p << ' ' << getSource() << '[';
  p.printAffineMapOfSSAIds(getMapAttr(), getIterators());
  p << ']';
  for (auto [name, values] : llvm::zip(kViewAttrs, getViewAttrs(*this))) {
    if (!values)
      continue;
    p << ' ' << name << " [";
    llvm::interleaveComma(*values, p);
    p << ']';
  }
  SmallVector<StringRef> elided(std::begin(kViewAttrs), std::end(kViewAttrs));
  elided.push_back("map");
  p.printOptionalAttrDict((*this)->getAttrs(), elided);
  p << " : " << getSource().getType();
}

int64_t InputOp::getViewExtent(unsigned dim) {
  int64_t size = getSource().getType().getDimSize(dim);
  int64_t low = getPadLow() ? (*getPadLow())[dim] : 0;
  int64_t high = getPadHigh() ? (*getPadHigh())[dim] : 0;
  int64_t dilation = getDilation() ? (*getDilation())[dim] : 1;
  return low + (size - 1) * dilation + 1 + high;
}

SmallVector<int64_t> InputOp::getViewShape() {
  SmallVector<int64_t> shape;
  for (unsigned dim = 0, e = getSource().getType().getRank(); dim != e; ++dim)
    shape.push_back(getViewExtent(dim));
  return shape;
}

bool InputOp::hasView() {
  return getViewShape() != getSource().getType().getShape();
}

LogicalResult InputOp::verify() {
  AffineMap map = getMap();
  RankedTensorType sourceType = getSource().getType();
  int64_t rank = sourceType.getRank();
  if (map.getNumSymbols() != 0)
    return emitOpError("access map must not have symbols");
  if (map.getNumDims() != getIterators().size())
    return emitOpError("access map has ")
           << map.getNumDims() << " dimensions but there are "
           << getIterators().size() << " iterator operands";
  if (map.getNumResults() != rank)
    return emitOpError("access map has ")
           << map.getNumResults() << " results for a source of rank " << rank;
  for (unsigned dim = 0, e = map.getNumDims(); dim != e; ++dim) {
    if (!map.isFunctionOfDim(dim))
      return emitOpError("iterator operand #")
             << dim << " is not used by the access map";
    for (unsigned other = 0; other != dim; ++other)
      if (getIterators()[other] == getIterators()[dim])
        return emitOpError("iterator operands #")
               << other << " and #" << dim << " are the same value";
  }
  for (AffineExpr expr : map.getResults())
    if (!isQuasiAffine(expr))
      return emitOpError("access '")
             << AffineMapAttr::get(AffineMap::get(map.getNumDims(), 0, expr))
             << "' is not quasi-affine (products and divisions need a "
                "constant, divisors must be positive)";

  // The view.
  constexpr std::array<int64_t, 3> minima = {0, 0, 1};
  for (auto [name, values, minimum] :
       llvm::zip(kViewAttrs, getViewAttrs(*this), minima)) {
    if (!values)
      continue;
    if (static_cast<int64_t>(values->size()) != rank)
      return emitOpError() << name << " has " << values->size()
                           << " values for a source of rank " << rank;
    if (llvm::any_of(*values, [&](int64_t v) { return v < minimum; }))
      return emitOpError() << name << " values must be >= " << minimum;
  }

  // Interval analysis: every index stays inside the view.
  SmallVector<Interval> ranges;
  for (Value iterator : getIterators()) {
    auto argument = dyn_cast<BlockArgument>(iterator);
    Operation *owner = argument ? argument.getOwner()->getParentOp() : nullptr;
    if (auto tensor = dyn_cast_or_null<TensorOp>(owner))
      ranges.push_back({tensor.getLowerBound(), tensor.getUpperBound() - 1});
    else if (auto reduce = dyn_cast_or_null<ReduceOp>(owner))
      ranges.push_back({reduce.getLowerBound(), reduce.getUpperBound() - 1});
    else // Unreachable from verified IR: inside a kernel (the only place a
         // tcg.input can be), the only `index` values are iterators.
      return emitOpError("iterator operands must be iterators of enclosing "
                         "tcg.tensor or tcg.reduce ops");
  }
  for (auto [dim, expr] : llvm::enumerate(map.getResults())) {
    std::optional<Interval> range = evaluateInterval(expr, ranges);
    int64_t extent = getViewExtent(dim);
    if (!range)
      return emitOpError("the range of index ") << dim << " overflows";
    if (range->lo < 0 || range->hi >= extent)
      return emitOpError("index ")
             << dim << " ranges over [" << range->lo << ", " << range->hi
             << "], outside the " << (hasView() ? "view" : "source")
             << " dimension [0, " << extent << ")";
  }
  return success();
}
