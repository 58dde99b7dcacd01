//===- OutlineEntryLoops.cpp - keep loop nests out of the entry -----------===//
//
// After bufferization, the public functions of a lowered model (the entry)
// hold calls of the kernels and whatever was never outlined: a training
// step's optimizer updates, which --raf-inplace-update inlines so that they
// write their parameters in place, and transposes. ResNet-50's step kept 161
// update loops in its entry; LLVM vectorised each of them with its own alias
// checks in one function of 41,000 lines after -O3, which took 8 of the 23 s
// of LLVM's compile time (opt -O3 3.9 s, llc 4.3 s of the entry alone).
//
// Each linalg op left there becomes a call of a private function holding
// it, and identical functions merge, as --raf-share-kernels does on
// tensors. Elementwise ops take their buffers with dynamic sizes, so that
// one function serves every parameter of the same rank.
//
//===----------------------------------------------------------------------===//

#include "raf/Transforms/Passes.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Transforms/RegionUtils.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/ADT/StringMap.h"

namespace raf {
#define GEN_PASS_DEF_RAFOUTLINEENTRYLOOPS
#include "raf/Transforms/Passes.h.inc"
} // namespace raf

using namespace mlir;

namespace {

/// Text of a function (generic form, no locations): two functions created
/// under the same placeholder name with the same text compute the same
/// thing.
std::string printedText(func::FuncOp function) {
  std::string text;
  llvm::raw_string_ostream os(text);
  function->print(os, OpPrintingFlags().printGenericOpForm().useLocalScope());
  return text;
}

/// Whether every loop of `op` is parallel and every operand is an
/// identity-layout buffer indexed by the identity map (or a scalar buffer
/// indexed by no dimension): the op then computes the same thing on buffers
/// of any size, and may be called with dynamically sized ones.
bool isShapeGenericElementwise(linalg::LinalgOp op) {
  if (op.getNumLoops() != op.getNumParallelLoops())
    return false;
  for (OpOperand &operand : op->getOpOperands()) {
    auto type = dyn_cast<MemRefType>(operand.get().getType());
    if (!type || !type.getLayout().isIdentity())
      return false;
    AffineMap map = op.getMatchingIndexingMap(&operand);
    if (type.getRank() == 0 ? map.getNumResults() != 0 : !map.isIdentity())
      return false;
  }
  return true;
}

/// `type` with every dimension dynamic.
MemRefType withDynamicSizes(MemRefType type) {
  SmallVector<int64_t> shape(type.getRank(), ShapedType::kDynamic);
  return MemRefType::get(shape, type.getElementType(), MemRefLayoutAttrInterface(),
                         type.getMemorySpace());
}

struct OutlineEntryLoops
    : public raf::impl::RAFOutlineEntryLoopsBase<OutlineEntryLoops> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    MLIRContext *context = &getContext();
    SymbolTable symbols(module);
    llvm::StringMap<func::FuncOp> byKey;

    SmallVector<func::FuncOp> entries;
    for (auto function : module.getOps<func::FuncOp>())
      if (function.isPublic() && !function.isExternal())
        entries.push_back(function);

    for (func::FuncOp entry : entries) {
      SmallVector<linalg::LinalgOp> ops;
      entry.walk([&](linalg::LinalgOp op) {
        if (op.hasPureBufferSemantics() && op->getNumResults() == 0)
          ops.push_back(op);
      });
      unsigned nextIndex = 0;
      Operation *insertAfter = entry;
      for (linalg::LinalgOp op : ops) {
        // Values the region uses from outside: constants are cloned into
        // the function, anything else keeps the op where it is.
        llvm::SetVector<Value> captured;
        getUsedValuesDefinedAbove(op->getRegions(), captured);
        if (llvm::any_of(captured, [](Value value) {
              return !matchPattern(value, m_Constant());
            }))
          continue;

        bool dynamic = isShapeGenericElementwise(op);
        llvm::SetVector<Value> inputs(op->operand_begin(), op->operand_end());
        SmallVector<Type> inputTypes;
        for (Value input : inputs) {
          auto type = dyn_cast<MemRefType>(input.getType());
          inputTypes.push_back(dynamic && type ? withDynamicSizes(type)
                                               : input.getType());
        }

        // Created detached under a placeholder name, named once it is known
        // to be new.
        OpBuilder detached(context);
        auto function = func::FuncOp::create(
            detached, op.getLoc(), "outlined",
            FunctionType::get(context, inputTypes, {}));
        function.setPrivate();
        Block *body = function.addEntryBlock();
        OpBuilder builder = OpBuilder::atBlockEnd(body);
        IRMapping mapping;
        for (Value value : captured)
          mapping.map(value, builder.clone(*value.getDefiningOp())->getResult(0));
        mapping.map(inputs.getArrayRef(), body->getArguments());
        builder.clone(*op, mapping);
        func::ReturnOp::create(builder, op.getLoc());

        auto [kept, inserted] =
            byKey.try_emplace(printedText(function), function);
        if (inserted) {
          std::string name;
          do {
            name = (entry.getSymName() + "_loops_" + Twine(nextIndex++)).str();
          } while (symbols.lookup(name));
          function.setName(name);
          symbols.insert(function, std::next(Block::iterator(insertAfter)));
          insertAfter = function;
        } else {
          function.erase();
          function = kept->second;
        }

        OpBuilder callBuilder(op);
        SmallVector<Value> arguments;
        for (auto [input, type] : llvm::zip(inputs, inputTypes))
          arguments.push_back(
              input.getType() == type
                  ? input
                  : memref::CastOp::create(callBuilder, op.getLoc(), type,
                                           input)
                        .getResult());
        func::CallOp::create(callBuilder, op.getLoc(), function, arguments);
        op->erase();
      }
    }
  }
};

} // namespace
