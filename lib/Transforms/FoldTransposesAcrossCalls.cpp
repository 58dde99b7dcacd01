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
// Results that are reshapes move to the callers the same way (see
// forwardReshapedResults): a reshape of a call result is a view, one
// returned from the callee an out-parameter filled by a copy.
//
//===----------------------------------------------------------------------===//

#include "raf/Transforms/Passes.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Utils/IndexingUtils.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/SymbolTable.h"
#include "llvm/ADT/BitVector.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/SetVector.h"

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

/// The func.call ops of each function of `module`, found in one walk (a
/// symbol-use walk per function made the pass quadratic in the number of
/// functions). A function whose symbol is used other than by a func.call
/// is in `otherUses`.
struct CallGraph {
  DenseMap<StringAttr, SmallVector<func::CallOp>> calls;
  DenseSet<StringAttr> otherUses;

  /// Fails when the module has operations that may hide symbol uses.
  LogicalResult build(ModuleOp module) {
    auto uses = SymbolTable::getSymbolUses(&module.getBodyRegion());
    if (!uses)
      return failure();
    for (const SymbolTable::SymbolUse &use : *uses) {
      SymbolRefAttr ref = use.getSymbolRef();
      auto call = dyn_cast<func::CallOp>(use.getUser());
      if (call && ref.getNestedReferences().empty())
        calls[ref.getRootReference()].push_back(call);
      else
        otherUses.insert(ref.getRootReference());
    }
    return success();
  }

  /// The calls of `callee`, when every use of its symbol is a func.call.
  std::optional<ArrayRef<func::CallOp>> getCalls(func::FuncOp callee) const {
    StringAttr name = callee.getSymNameAttr();
    if (otherUses.contains(name))
      return std::nullopt;
    auto it = calls.find(name);
    if (it == calls.end())
      return ArrayRef<func::CallOp>();
    return ArrayRef<func::CallOp>(it->second);
  }
};

/// `value` before the tensor.expand_shape and tensor.collapse_shape ops that
/// produced it.
Value stripReshapes(Value value) {
  while (Operation *def = value.getDefiningOp()) {
    if (auto expand = dyn_cast<tensor::ExpandShapeOp>(def))
      value = expand.getSrc();
    else if (auto collapse = dyn_cast<tensor::CollapseShapeOp>(def))
      value = collapse.getSrc();
    else
      break;
  }
  return value;
}

/// Erases `value`'s reshape ops that nothing uses any more.
void eraseDeadReshapes(Value value) {
  while (Operation *def = value.getDefiningOp()) {
    if (!isa<tensor::ExpandShapeOp, tensor::CollapseShapeOp>(def) ||
        !def->use_empty())
      return;
    value = def->getOperand(0);
    def->erase();
  }
}

/// A static tensor of rank 1 or more: any two such types with the same
/// element type and count reshape into each other through one dimension.
bool isReshapeable(Type type) {
  auto tensor = dyn_cast<RankedTensorType>(type);
  return tensor && tensor.hasStaticShape() && tensor.getRank() > 0;
}

/// `value` reshaped to `type` in row-major order, through one dimension.
Value createRowMajorReshape(OpBuilder &builder, Location loc, Value value,
                            RankedTensorType type) {
  auto source = cast<RankedTensorType>(value.getType());
  if (source == type)
    return value;
  auto flatType =
      RankedTensorType::get({source.getNumElements()}, source.getElementType());
  ReassociationIndices all =
      llvm::to_vector(llvm::seq<int64_t>(0, source.getRank()));
  if (source.getRank() > 1)
    value = tensor::CollapseShapeOp::create(builder, loc, flatType, value,
                                            ArrayRef<ReassociationIndices>{all});
  if (type.getRank() == 1)
    return value;
  all = llvm::to_vector(llvm::seq<int64_t>(0, type.getRank()));
  return tensor::ExpandShapeOp::create(builder, loc, type, value,
                                       ArrayRef<ReassociationIndices>{all});
}

/// Results of `callee` that are reshapes of a value it computes move to the
/// callers, where a reshape of a call result bufferizes to a view: returned
/// from the callee it is a second out-parameter, filled by a copy of the
/// whole tensor. A result that is (a reshape of) another result is dropped
/// and its callers reshape that result; one that reshapes a value not
/// returned otherwise returns the value. Relay's weight gradient of a
/// depthwise convolution moves the batch axis of a batch-1 tensor
/// (`[1, C, H, W]` -> `[C, 1, H, W]`, a reshape once lowered), and fusion
/// returns it from the kernel that computes the tensor, next to the tensor
/// itself.
void forwardReshapedResults(func::FuncOp callee, func::ReturnOp returnOp,
                            ArrayRef<func::CallOp> calls) {
  unsigned count = returnOp.getNumOperands();
  // Per result: the result it becomes a reshape of (dropped), or -1.
  SmallVector<int64_t> sourceResult(count, -1);
  bool changed = false;
  for (unsigned i = 0; i < count; ++i) {
    Value value = returnOp.getOperand(i);
    Value root = stripReshapes(value);
    if (!isReshapeable(value.getType()) || !isReshapeable(root.getType()))
      continue;
    for (unsigned j = 0; j < count; ++j) {
      // The first result returning the value itself stays.
      if (j != i && returnOp.getOperand(j) == root &&
          (root != value || j < i)) {
        sourceResult[i] = j;
        break;
      }
    }
    if (sourceResult[i] >= 0 || root == value)
      continue;
    // Only reshapes of a value not returned: return the value.
    returnOp.setOperand(i, root);
    eraseDeadReshapes(value);
    for (func::CallOp call : calls) {
      Value result = call.getResult(i);
      auto type = cast<RankedTensorType>(result.getType());
      SmallVector<OpOperand *> uses = llvm::map_to_vector(
          result.getUses(), [](OpOperand &use) { return &use; });
      result.setType(root.getType());
      OpBuilder builder(call);
      builder.setInsertionPointAfter(call);
      Value reshaped =
          createRowMajorReshape(builder, call.getLoc(), result, type);
      for (OpOperand *use : uses)
        use->set(reshaped);
    }
    changed = true;
  }
  llvm::BitVector dropped(count);
  for (unsigned i = 0; i < count; ++i)
    if (sourceResult[i] >= 0)
      dropped.set(i);
  if (dropped.none()) {
    if (changed)
      callee.setFunctionType(FunctionType::get(
          callee.getContext(), callee.getArgumentTypes(),
          returnOp.getOperandTypes()));
    return;
  }
  for (func::CallOp call : calls) {
    OpBuilder builder(call);
    SmallVector<Value> kept;
    SmallVector<Type> keptTypes;
    for (unsigned i = 0; i < count; ++i)
      if (!dropped.test(i)) {
        kept.push_back(call.getResult(i));
        keptTypes.push_back(call.getResult(i).getType());
      }
    auto replacement = func::CallOp::create(builder, call.getLoc(),
                                            call.getCallee(), keptTypes,
                                            call.getOperands());
    replacement->setDiscardableAttrs(call->getDiscardableAttrDictionary());
    for (auto [old, now] : llvm::zip(kept, replacement.getResults()))
      old.replaceAllUsesWith(now);
    builder.setInsertionPointAfter(replacement);
    for (unsigned i = 0; i < count; ++i) {
      if (!dropped.test(i))
        continue;
      unsigned source = sourceResult[i];
      // Its position among the results kept.
      unsigned position = source;
      for (unsigned k = 0; k < source; ++k)
        position -= dropped.test(k);
      Value reshaped = createRowMajorReshape(
          builder, call.getLoc(), replacement.getResult(position),
          cast<RankedTensorType>(call.getResult(i).getType()));
      call.getResult(i).replaceAllUsesWith(reshaped);
    }
    call.erase();
  }
  // A value returned more than once is dropped more than once; its reshapes
  // are erased once.
  SmallVector<Value> operands;
  llvm::SetVector<Value> gone;
  for (unsigned i = 0; i < count; ++i) {
    if (dropped.test(i))
      gone.insert(returnOp.getOperand(i));
    else
      operands.push_back(returnOp.getOperand(i));
  }
  returnOp->setOperands(operands);
  for (Value value : gone)
    eraseDeadReshapes(value);
  callee.setFunctionType(FunctionType::get(callee.getContext(),
                                           callee.getArgumentTypes(),
                                           returnOp.getOperandTypes()));
}

struct FoldTransposesAcrossCalls
    : public raf::impl::RAFFoldTransposesAcrossCallsBase<
          FoldTransposesAcrossCalls> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    // Calls are only retyped or replaced by calls of the same callee below,
    // so the graph stays valid for the functions not yet visited.
    CallGraph graph;
    if (failed(graph.build(module)))
      return;
    for (auto callee :
         llvm::make_early_inc_range(module.getOps<func::FuncOp>())) {
      if (callee.isExternal() || callee.isPublic() ||
          !callee.getBody().hasOneBlock())
        continue;
      auto returnOp =
          dyn_cast<func::ReturnOp>(callee.getBody().back().getTerminator());
      if (!returnOp)
        continue;
      std::optional<ArrayRef<func::CallOp>> calls;
      for (unsigned i = 0, e = returnOp.getNumOperands(); i < e; ++i) {
        auto transpose =
            returnOp.getOperand(i).getDefiningOp<linalg::TransposeOp>();
        if (!transpose || !transpose.hasPureTensorSemantics())
          continue;
        if (!calls)
          calls = graph.getCalls(callee);
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
      if (!calls)
        calls = graph.getCalls(callee);
      if (calls && !calls->empty() && !callee.getResAttrs())
        forwardReshapedResults(callee, returnOp, *calls);
    }
  }
};

} // namespace
