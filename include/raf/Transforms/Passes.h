//===- Passes.h - RAF passes on upstream dialects ---------------*- C++ -*-===//

#ifndef RAF_TRANSFORMS_PASSES_H
#define RAF_TRANSFORMS_PASSES_H

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/Pass.h"

namespace raf {

#define GEN_PASS_DECL
#include "raf/Transforms/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "raf/Transforms/Passes.h.inc"

} // namespace raf

#endif // RAF_TRANSFORMS_PASSES_H
