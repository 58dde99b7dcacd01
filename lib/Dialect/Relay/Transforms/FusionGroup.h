//===- FusionGroup.h - checking and outlining fused groups ------*- C++ -*-===//
//
// A fusion group is a set of relay operators of one block. It is replaced by
// a call of a new private function holding the operators, so it must be
// convex (no path leaves the group and comes back), and the operations
// between its first and last operator that depend on it must be movable
// behind the call (free of memory effects).
//
//===----------------------------------------------------------------------===//

#ifndef RAF_LIB_DIALECT_RELAY_TRANSFORMS_FUSIONGROUP_H
#define RAF_LIB_DIALECT_RELAY_TRANSFORMS_FUSIONGROUP_H

#include "raf/Dialect/Relay/Transforms/AttributeNames.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/SymbolTable.h"
#include "llvm/ADT/DenseMap.h"

namespace raf::relay {

/// Sorts operations of one block into block order.
void sortInBlockOrder(llvm::SmallVectorImpl<mlir::Operation *> &ops);

/// Whether the group (operations of one block, in block order) can be
/// replaced by a single call: convex, and every operation between its first
/// and last member that depends on it is free of memory effects (or calls a
/// fused function), so it can move behind the call.
bool canOutlineGroup(llvm::ArrayRef<mlir::Operation *> ops);

/// Creates the fused functions of one module: names `@<parent>_fused_<k>`,
/// placed after their parent function in creation order.
class FusedFunctionOutliner {
public:
  explicit FusedFunctionOutliner(mlir::ModuleOp module)
      : module(module), symbolTable(module) {}

  /// Outlines `ops` (one block, block order) into a
  /// private function marked `relay.primitive`, `relay.backend = backend`
  /// and, if `patternName` is not empty, `relay.fusion_pattern`, and
  /// replaces them by a call placed after the last of them. Returns null,
  /// changing nothing, if canOutlineGroup(ops) does not hold.
  mlir::func::CallOp outline(llvm::ArrayRef<mlir::Operation *> ops,
                             llvm::StringRef backend,
                             llvm::StringRef patternName);

private:
  mlir::ModuleOp module;
  mlir::SymbolTable symbolTable;
  /// Per parent function: next index k and the last fused function created.
  llvm::DenseMap<mlir::Operation *, std::pair<unsigned, mlir::Operation *>>
      perParent;
};

/// Whether `op` is inside a fused function (a `func.func` with
/// `relay.primitive`).
bool isInsideFusedFunction(mlir::Operation *op);

} // namespace raf::relay

#endif // RAF_LIB_DIALECT_RELAY_TRANSFORMS_FUSIONGROUP_H
