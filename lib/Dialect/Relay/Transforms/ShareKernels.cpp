//===- ShareKernels.cpp - compile each distinct kernel once ---------------===//
//
// A model repeats its layers: the same convolution (shape, strides,
// padding) appears in every block of a stage. Lowered in place, each copy is
// tiled, vectorised and compiled by LLVM again, which is most of a large
// model's compile time. Outlining each heavy operator into a primitive
// function and merging identical primitive functions leaves one function
// per distinct kernel, called from every place that needs it.
//
//===----------------------------------------------------------------------===//

#include "raf/Dialect/Relay/Transforms/Passes.h"

#include "FusionGroup.h"
#include "raf/Dialect/Relay/IR/RelayOps.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/AttrTypeSubElements.h"
#include "mlir/IR/SymbolTable.h"
#include "llvm/ADT/StringMap.h"

namespace raf::relay {
#define GEN_PASS_DEF_RAFSHAREKERNELS
#include "raf/Dialect/Relay/Transforms/Passes.h.inc"
} // namespace raf::relay

using namespace mlir;
using namespace raf::relay;

namespace {

/// Text of a function without its name: two functions with the same key
/// compute the same thing (types, attributes and operations, in the generic
/// form, without locations).
std::string structuralKey(func::FuncOp function) {
  OpBuilder builder(function.getContext());
  auto copy = cast<func::FuncOp>(builder.clone(*function));
  copy.setName("k");
  std::string key;
  llvm::raw_string_ostream os(key);
  copy->print(os, OpPrintingFlags().printGenericOpForm().useLocalScope());
  copy.erase();
  return key;
}

/// Whether `op` becomes a loop nest of its own worth a function: the heavy
/// operators (conv2d, dense, ...), and the reductions and opaque operators
/// (batch norm and its gradient, softmax, losses, pooling gradients) that
/// fusion leaves alone. A training step has hundreds of the latter; lowered
/// in place they make the entry one function of thousands of loops, on which
/// LLVM's loop passes (IndVarSimplify, LoopRotate) spend most of the compile
/// time. Views (reshape, ...), constants, collectives and operators with
/// regions or non-tensor values stay where they are.
bool isKernel(Operation *op) {
  auto fusion = dyn_cast<FusionOpInterface>(op);
  if (!fusion || op->getNumRegions() != 0 || isa<ConstantOp>(op) ||
      op->getName().getStringRef().starts_with("relay.comm."))
    return false;
  FusionKind kind = fusion.getFusionKind();
  if (kind != FusionKind::OutEWiseFusable && kind != FusionKind::CommReduce &&
      kind != FusionKind::Opaque)
    return false;
  auto isTensor = [](Type type) { return isa<RankedTensorType>(type); };
  return llvm::all_of(op->getOperandTypes(), isTensor) &&
         llvm::all_of(op->getResultTypes(), isTensor);
}

struct RafShareKernelsPass
    : public raf::relay::impl::RafShareKernelsBase<RafShareKernelsPass> {
  void runOnOperation() override {
    ModuleOp module = getOperation();

    SmallVector<Operation *> kernels;
    module.walk([&](Operation *op) {
      if (isKernel(op) && isa<func::FuncOp>(op->getParentOp()) &&
          !isInsideFusedFunction(op))
        kernels.push_back(op);
    });
    FusedFunctionOutliner outliner(module);
    for (Operation *op : kernels) {
      auto backend = op->getAttrOfType<StringAttr>("relay.backend");
      (void)outliner.outline({op}, backend ? backend.getValue() : "linalg",
                             /*patternName=*/"");
    }

    // Duplicates are redirected to the first function with their key. The
    // renaming is collected and applied in one walk of the module at the
    // end: SymbolTable::replaceAllSymbolUses walks the whole module for each
    // duplicate, which made this pass quadratic (6 s of a ResNet-50 training
    // step's 25 s pipeline, ~1,200 duplicates). A function's key is taken
    // after the renaming decided so far is applied to its body, as it was
    // when every duplicate was redirected at once.
    llvm::StringMap<func::FuncOp> canonical;
    DenseMap<StringAttr, StringAttr> renamed;
    // Renames the references in `root` and the ops it nests, but not in
    // nested symbol tables (e.g. a nested module), whose references resolve
    // to their own symbols, as SymbolTable::replaceAllSymbolUses leaves them.
    // A fresh replacer each time: AttrTypeReplacer caches its answers, and
    // `renamed` grows between functions.
    auto rename = [&](Operation *root) {
      AttrTypeReplacer replacer;
      replacer.addReplacement(
          [&](SymbolRefAttr ref) -> std::optional<Attribute> {
            StringAttr kept = renamed.lookup(ref.getRootReference());
            if (!kept)
              return std::nullopt;
            return SymbolRefAttr::get(kept, ref.getNestedReferences());
          });
      root->walk<WalkOrder::PreOrder>([&](Operation *op) {
        if (op != root && op->hasTrait<OpTrait::SymbolTable>())
          return WalkResult::skip();
        replacer.replaceElementsIn(op);
        return WalkResult::advance();
      });
    };
    for (auto function :
         llvm::make_early_inc_range(module.getOps<func::FuncOp>())) {
      if (!function.isPrivate() || function.isExternal() ||
          !function->hasAttr("relay.primitive"))
        continue;
      if (!renamed.empty())
        rename(function);
      auto [kept, inserted] =
          canonical.try_emplace(structuralKey(function), function);
      if (inserted)
        continue;
      renamed[function.getSymNameAttr()] = kept->second.getSymNameAttr();
      function.erase();
    }
    if (!renamed.empty())
      rename(module);
  }
};

} // namespace
