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
// transposes go: two passes over the weight gradient per step fewer. A
// slice between the two (a stride-2 convolution's gradient, computed on a
// larger window and cut to the kernel) becomes a slice of the value before
// the transpose, with its offsets, sizes and strides permuted.
//
//===----------------------------------------------------------------------===//

#include "raf/Transforms/Passes.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Utils/IndexingUtils.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/SymbolTable.h"

namespace raf {
#define GEN_PASS_DEF_RAFFOLDTRANSPOSESACROSSCALLS
#include "raf/Transforms/Passes.h.inc"
} // namespace raf

using namespace mlir;

namespace {

/// True when `user` transposes `value` back by the inverse of `first`,
/// reading it only as its input (a transpose into `value` itself, as its
/// init, is not one the callee's result can replace).
bool isInverseTranspose(Operation *user, Value value, ArrayRef<int64_t> first) {
  auto back = dyn_cast<linalg::TransposeOp>(user);
  return back && back.hasPureTensorSemantics() && back.getInput() == value &&
         back.getInit() != value && isPermutationVector(first) &&
         llvm::equal(back.getPermutation(), invertPermutationVector(first));
}

/// True when every use of `value` transposes it back by the inverse of
/// `first`, directly or after a slice that keeps the rank.
bool isTransposedBack(Value value, ArrayRef<int64_t> first) {
  for (Operation *user : value.getUsers()) {
    if (isInverseTranspose(user, value, first))
      continue;
    auto slice = dyn_cast<tensor::ExtractSliceOp>(user);
    if (!slice || slice.getSource() != value ||
        slice.getType().getRank() != slice.getSourceType().getRank() ||
        !llvm::all_of(slice->getUsers(), [&](Operation *sliceUser) {
          return isInverseTranspose(sliceUser, slice.getResult(), first);
        }))
      return false;
  }
  return true;
}

/// Replaces the inverse transposes of `result` (now the value before the
/// callee's transpose) by `result` itself, and a slice followed by them by
/// the permuted slice of `result`.
void replaceTransposesBack(Value result) {
  for (Operation *user : llvm::make_early_inc_range(result.getUsers())) {
    if (auto back = dyn_cast<linalg::TransposeOp>(user)) {
      back.getResult()[0].replaceAllUsesWith(result);
      back.erase();
      continue;
    }
    auto slice = cast<tensor::ExtractSliceOp>(user);
    for (Operation *sliceUser : llvm::make_early_inc_range(slice->getUsers())) {
      auto back = cast<linalg::TransposeOp>(sliceUser);
      // Entry j of the new slice is entry second[j] of the old one.
      ArrayRef<int64_t> second = back.getPermutation();
      OpBuilder builder(back);
      Value cut = tensor::ExtractSliceOp::create(
          builder, back.getLoc(),
          cast<RankedTensorType>(back.getResult()[0].getType()), result,
          applyPermutation(slice.getMixedOffsets(), second),
          applyPermutation(slice.getMixedSizes(), second),
          applyPermutation(slice.getMixedStrides(), second));
      back.getResult()[0].replaceAllUsesWith(cut);
      back.erase();
    }
    slice.erase();
  }
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
    for (auto callee :
         llvm::make_early_inc_range(module.getOps<func::FuncOp>())) {
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
        if (!llvm::all_of(*calls, [&](func::CallOp call) {
              return isTransposedBack(call.getResult(i),
                                      transpose.getPermutation());
            }))
          continue;
        Value before = transpose.getInput();
        returnOp.setOperand(i, before);
        SmallVector<Type> results(callee.getResultTypes());
        results[i] = before.getType();
        callee.setFunctionType(FunctionType::get(
            &getContext(), callee.getArgumentTypes(), results));
        for (func::CallOp call : *calls) {
          call.getResult(i).setType(before.getType());
          replaceTransposesBack(call.getResult(i));
        }
        if (transpose->use_empty())
          transpose.erase();
      }
    }
  }
};

} // namespace
