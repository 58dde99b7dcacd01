//===- TCGOps.h - tcg dialect operations ------------------------*- C++ -*-===//

#ifndef RAF_DIALECT_TCG_IR_TCGOPS_H
#define RAF_DIALECT_TCG_IR_TCGOPS_H

#include "mlir/Bytecode/BytecodeOpInterface.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/OpDefinition.h"
#include "mlir/IR/OpImplementation.h"
#include "mlir/Interfaces/ControlFlowInterfaces.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

#include "raf/Dialect/TCG/IR/TCGAttrs.h"
#include "raf/Dialect/TCG/IR/TCGDialect.h"

#define GET_OP_CLASSES
#include "raf/Dialect/TCG/IR/TCGOps.h.inc"

#endif // RAF_DIALECT_TCG_IR_TCGOPS_H
