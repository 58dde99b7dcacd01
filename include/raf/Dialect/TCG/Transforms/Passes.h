//===- Passes.h - tcg passes ------------------------------------*- C++ -*-===//

#ifndef RAF_DIALECT_TCG_TRANSFORMS_PASSES_H
#define RAF_DIALECT_TCG_TRANSFORMS_PASSES_H

#include "raf/Dialect/TCG/IR/TCGAttrs.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/Pass.h"

namespace raf::tcg {

#define GEN_PASS_DECL
#include "raf/Dialect/TCG/Transforms/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "raf/Dialect/TCG/Transforms/Passes.h.inc"

} // namespace raf::tcg

#endif // RAF_DIALECT_TCG_TRANSFORMS_PASSES_H
