//===- RelayOps.h - relay dialect operations --------------------*- C++ -*-===//

#ifndef RAF_DIALECT_RELAY_IR_RELAYOPS_H
#define RAF_DIALECT_RELAY_IR_RELAYOPS_H

#include "mlir/Bytecode/BytecodeOpInterface.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/OpDefinition.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Interfaces/ControlFlowInterfaces.h"
#include "mlir/Interfaces/InferTypeOpInterface.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

#include "raf/Dialect/Relay/IR/RelayAttrs.h"
#include "raf/Dialect/Relay/IR/RelayDialect.h"
#include "raf/Dialect/Relay/IR/RelayInterfaces.h"
#include "raf/Dialect/Relay/IR/RelayOpAsm.h"
#include "raf/Dialect/Relay/IR/RelayTraits.h"
#include "raf/Dialect/Relay/IR/RelayTypes.h"
#include "raf/Dialect/Relay/IR/ShapeInference.h"

#define GET_OP_CLASSES
#include "raf/Dialect/Relay/IR/RelayOps.h.inc"

#endif // RAF_DIALECT_RELAY_IR_RELAYOPS_H
