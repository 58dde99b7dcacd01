//===- RuntimeValue.cpp - values of the reference evaluator ---------------===//

#include "raf/Runtime/RuntimeValue.h"

#include "raf/Dialect/Relay/IR/RelayOps.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinTypes.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/raw_ostream.h"

#include <cassert>

using namespace raf::runtime;

struct RuntimeValue::Closure {
  mlir::Operation *fn;
  std::vector<std::pair<mlir::Value, RuntimeValue>> captured;
};

struct RuntimeValue::Cell {
  RuntimeValue contents;
};

RuntimeValue::RuntimeValue()
    : tuplePayload(std::make_shared<std::vector<RuntimeValue>>()) {}

RuntimeValue::RuntimeValue(HostTensor tensor)
    : kind(Kind::Tensor),
      tensorPayload(std::make_shared<const HostTensor>(std::move(tensor))) {}

RuntimeValue RuntimeValue::tuple(llvm::ArrayRef<RuntimeValue> elements) {
  RuntimeValue value;
  value.tuplePayload = std::make_shared<std::vector<RuntimeValue>>(
      elements.begin(), elements.end());
  return value;
}

RuntimeValue RuntimeValue::closure(
    mlir::Operation *fn,
    llvm::ArrayRef<std::pair<mlir::Value, RuntimeValue>> captured) {
  RuntimeValue value;
  value.kind = Kind::Closure;
  value.tuplePayload.reset();
  value.closurePayload = std::make_shared<const Closure>(
      Closure{fn, {captured.begin(), captured.end()}});
  return value;
}

RuntimeValue RuntimeValue::reference(RuntimeValue initial) {
  RuntimeValue value;
  value.kind = Kind::Reference;
  value.tuplePayload.reset();
  value.cellPayload = std::make_shared<Cell>(Cell{std::move(initial)});
  return value;
}

RuntimeValue RuntimeValue::function(mlir::Operation *function) {
  RuntimeValue value;
  value.kind = Kind::Function;
  value.tuplePayload.reset();
  value.functionOp = function;
  return value;
}

mlir::Operation *RuntimeValue::getClosureFn() const {
  assert(isClosure() && "not a closure");
  return closurePayload->fn;
}

llvm::ArrayRef<std::pair<mlir::Value, RuntimeValue>>
RuntimeValue::getClosureCaptures() const {
  assert(isClosure() && "not a closure");
  return closurePayload->captured;
}

RuntimeValue RuntimeValue::readReference() const {
  assert(isReference() && "not a reference");
  return cellPayload->contents;
}

void RuntimeValue::writeReference(RuntimeValue value) const {
  assert(isReference() && "not a reference");
  cellPayload->contents = std::move(value);
}

mlir::Operation *RuntimeValue::getFunction() const {
  assert(isFunction() && "not a function");
  return functionOp;
}

bool RuntimeValue::isSameReference(const RuntimeValue &other) const {
  return isReference() && other.isReference() &&
         cellPayload == other.cellPayload;
}

RuntimeValue RuntimeValue::WeakReference::lock() const {
  RuntimeValue value;
  if (std::shared_ptr<Cell> alive = cell.lock()) {
    value.kind = Kind::Reference;
    value.tuplePayload.reset();
    value.cellPayload = std::move(alive);
  }
  return value;
}

RuntimeValue::WeakReference RuntimeValue::getWeakReference() const {
  assert(isReference() && "not a reference");
  WeakReference weak;
  weak.cell = cellPayload;
  return weak;
}

const void *RuntimeValue::getIdentity() const {
  switch (kind) {
  case Kind::Tuple:
    return tuplePayload.get();
  case Kind::Closure:
    return closurePayload.get();
  case Kind::Reference:
    return cellPayload.get();
  case Kind::Tensor:
  case Kind::Function:
    return nullptr;
  }
  return nullptr;
}

void RuntimeValue::releaseUnreachable(llvm::ArrayRef<WeakReference> cells,
                                      llvm::ArrayRef<RuntimeValue> roots) {
  // Mark what the roots reach, without recursion (values nest deeply).
  llvm::DenseSet<const void *> reached;
  std::vector<RuntimeValue> work(roots.begin(), roots.end());
  while (!work.empty()) {
    RuntimeValue value = std::move(work.back());
    work.pop_back();
    const void *identity = value.getIdentity();
    if (!identity || !reached.insert(identity).second)
      continue;
    if (value.isTuple())
      llvm::append_range(work, *value.getTupleElements());
    else if (value.isClosure())
      for (const auto &capture : value.getClosureCaptures())
        work.push_back(capture.second);
    else if (value.isReference())
      work.push_back(value.readReference());
  }
  // Empty the others: no one can read them any more.
  for (const WeakReference &weak : cells) {
    RuntimeValue cell = weak.lock();
    if (cell.isReference() && !reached.contains(cell.getIdentity()))
      cell.writeReference(RuntimeValue());
  }
}

std::string RuntimeValue::describe() const {
  switch (kind) {
  case Kind::Tensor:
    return tensorPayload->getTypeString();
  case Kind::Tuple: {
    std::string text = "tuple<";
    llvm::raw_string_ostream os(text);
    llvm::interleaveComma(*tuplePayload, os,
                          [&](const RuntimeValue &v) { os << v.describe(); });
    os << ">";
    return text;
  }
  case Kind::Closure:
    return "closure";
  case Kind::Reference:
    return "reference";
  case Kind::Function:
    return "function @" +
           mlir::cast<mlir::func::FuncOp>(functionOp).getSymName().str();
  }
  llvm_unreachable("unknown value kind");
}

bool RuntimeValue::flattenTensors(
    llvm::SmallVectorImpl<HostTensor> &tensors) const {
  if (isTensor()) {
    tensors.push_back(*tensorPayload);
    return true;
  }
  if (!isTuple())
    return false;
  for (const RuntimeValue &element : *tuplePayload)
    if (!element.flattenTensors(tensors))
      return false;
  return true;
}

bool raf::runtime::conformsTo(const RuntimeValue &value, mlir::Type type,
                              std::string &reason) {
  llvm::raw_string_ostream os(reason);
  if (auto tensorType = llvm::dyn_cast<mlir::RankedTensorType>(type)) {
    if (!value.isTensor()) {
      os << "expected " << tensorType << ", got " << value.describe();
      return false;
    }
    const HostTensor &tensor = *value.getTensor();
    std::optional<DType> dtype = dtypeFromMLIR(tensorType.getElementType());
    bool matches = dtype && *dtype == tensor.getDType() &&
                   tensorType.getRank() == tensor.getRank();
    for (int64_t d = 0; matches && d < tensor.getRank(); ++d)
      matches = tensorType.isDynamicDim(d) ||
                tensorType.getDimSize(d) == tensor.getShape()[d];
    if (!matches)
      os << "expected " << tensorType << ", got " << tensor.getTypeString();
    return matches;
  }
  if (auto tupleType = llvm::dyn_cast<mlir::TupleType>(type)) {
    if (!value.isTuple() ||
        value.getTupleElements()->size() != tupleType.size()) {
      os << "expected " << tupleType << ", got " << value.describe();
      return false;
    }
    for (auto [index, element] : llvm::enumerate(*value.getTupleElements())) {
      std::string inner;
      if (!conformsTo(element, tupleType.getType(index), inner)) {
        os << "tuple field " << index << ": " << inner;
        return false;
      }
    }
    return true;
  }
  if (auto functionType = llvm::dyn_cast<mlir::FunctionType>(type)) {
    mlir::FunctionType actual;
    if (value.isClosure())
      actual =
          mlir::cast<raf::relay::FnOp>(value.getClosureFn()).getFunctionType();
    else if (value.isFunction())
      actual =
          mlir::cast<mlir::func::FuncOp>(value.getFunction()).getFunctionType();
    if (!actual || actual != functionType) {
      os << "expected a function of type " << functionType << ", got "
         << value.describe();
      if (actual)
        os << " of type " << actual;
      return false;
    }
    return true;
  }
  if (llvm::isa<raf::relay::RefType>(type)) {
    if (!value.isReference()) {
      os << "expected " << type << ", got " << value.describe();
      return false;
    }
    return true;
  }
  os << "values of type " << type << " are not supported";
  return false;
}
