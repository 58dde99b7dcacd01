//===- InplaceUpdate.h - results written into their arguments ---*- C++ -*-===//
//
// RAF's InplaceUpdate (RAF source src/pass/inplace_update.cc): the new
// parameters and optimizer states a training step returns (results carrying
// `raf.updates_arg`, from --raf-append-optimizer) are written into the
// buffers of the arguments they replace. --raf-inplace-update and
// --raf-drop-inplace-results do it on --target=cpu, where such a result is
// no longer an out-parameter: the caller finds it in the argument's buffer
// after the call (docs/training.md).
//
//===----------------------------------------------------------------------===//

#ifndef RAF_DIALECT_RELAY_TRANSFORMS_INPLACEUPDATE_H
#define RAF_DIALECT_RELAY_TRANSFORMS_INPLACEUPDATE_H

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "llvm/ADT/SmallVector.h"

#include <utility>

namespace raf::relay {

/// The (result, argument) pairs of `function` that are updated in place: a
/// public function with a body, not referenced from `module`, whose result
/// i carries `raf.updates_arg = j` with argument j of the same statically
/// shaped tensor type; each argument at most once (the first such result).
/// Computed from the signature alone, so that the runtime that calls the
/// compiled function and the passes agree.
llvm::SmallVector<std::pair<unsigned, unsigned>>
getInPlaceUpdates(mlir::func::FuncOp function, mlir::ModuleOp module);

} // namespace raf::relay

#endif // RAF_DIALECT_RELAY_TRANSFORMS_INPLACEUPDATE_H
