//===- FoldTransposesAcrossCalls.cpp - inverse transposes across calls ----===//
//
// After fusion, a primitive function may return a transposed value whose
// every caller transposes it straight back. Relay's weight gradient of
// conv2d is such a case: the gradient is computed as a convolution of the
// transposed input with the transposed output gradient, whose result is
// laid out [I, O, KH, KW], then transposed to [O, I, KH, KW] (the Relay
// gradient rule of nn.conv2d); on the BLAS path that convolution is one
// product whose result already is [O, I*KH*KW], transposed to the
// convolution's [I, O, KH, KW] inside the primitive function. The callee
// then returns the value before its transpose and the callers' inverse
// transposes go: two passes over the weight gradient per step fewer.
//
//===----------------------------------------------------------------------===//

#include "raf/Transforms/Passes.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/SymbolTable.h"

namespace raf {
#define GEN_PASS_DEF_RAFFOLDTRANSPOSESACROSSCALLS
#include "raf/Transforms/Passes.h.inc"
} // namespace raf

using namespace mlir;

namespace {

/// True when transposing by `first` and then by `second` is the identity:
/// result dimension j of the second reads dimension first[second[j]] of the
/// original value.
bool composeToIdentity(ArrayRef<int64_t> first, ArrayRef<int64_t> second) {
  if (first.size() != second.size())
    return false;
  for (auto [j, p] : llvm::enumerate(second))
    if (p < 0 || p >= static_cast<int64_t>(first.size()) ||
        first[p] != static_cast<int64_t>(j))
      return false;
  return true;
}

/// The calls of `callee`, when every use of its symbol is a func.call.
std::optional<SmallVector<func::CallOp>> getCalls(func::FuncOp callee,
                                                   ModuleOp module) {
  SmallVector<func::CallOp> calls;
  auto uses = SymbolTable::getSymbolUses(callee, module);
  if (!uses)
    return std::nullopt;
  for (const SymbolTable::SymbolUse &use : *uses) {
    auto call = dyn_cast<func::CallOp>(use.getUser());
    if (!call)
      return std::nullopt;
    calls.push_back(call);
  }
  return calls;
}

struct FoldTransposesAcrossCalls
    : public raf::impl::RAFFoldTransposesAcrossCallsBase<
          FoldTransposesAcrossCalls> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    for (auto callee : llvm::make_early_inc_range(
             module.getOps<func::FuncOp>())) {
      if (callee.isExternal() || callee.isPublic() ||
          !callee.getBody().hasOneBlock())
        continue;
      auto returnOp =
          dyn_cast<func::ReturnOp>(callee.getBody().back().getTerminator());
      if (!returnOp)
        continue;
      std::optional<SmallVector<func::CallOp>> calls;
      for (unsigned i = 0, e = returnOp.getNumOperands(); i < e; ++i) {
        auto transpose =
            returnOp.getOperand(i).getDefiningOp<linalg::TransposeOp>();
        if (!transpose || !transpose.hasPureTensorSemantics())
          continue;
        if (!calls)
          calls = getCalls(callee, module);
        if (!calls || calls->empty())
          break;
        // Every caller may only transpose the result back.
        bool foldable = true;
        for (func::CallOp call : *calls)
          for (Operation *user : call.getResult(i).getUsers()) {
            auto back = dyn_cast<linalg::TransposeOp>(user);
            foldable &= back && back.hasPureTensorSemantics() &&
                        back.getInput() == call.getResult(i) &&
                        composeToIdentity(transpose.getPermutation(),
                                          back.getPermutation());
          }
        if (!foldable)
          continue;
        Value before = transpose.getInput();
        returnOp.setOperand(i, before);
        SmallVector<Type> results(callee.getResultTypes());
        results[i] = before.getType();
        callee.setFunctionType(FunctionType::get(
            &getContext(), callee.getArgumentTypes(), results));
        for (func::CallOp call : *calls) {
          Value result = call.getResult(i);
          result.setType(before.getType());
          for (Operation *user : llvm::make_early_inc_range(result.getUsers())) {
            auto back = cast<linalg::TransposeOp>(user);
            back.getResult()[0].replaceAllUsesWith(result);
            back.erase();
          }
        }
        if (transpose->use_empty())
          transpose.erase();
      }
    }
  }
};

} // namespace
