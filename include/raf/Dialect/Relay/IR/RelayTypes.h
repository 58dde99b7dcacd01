//===- RelayTypes.h - relay dialect types -----------------------*- C++ -*-===//

#ifndef RAF_DIALECT_RELAY_IR_RELAYTYPES_H
#define RAF_DIALECT_RELAY_IR_RELAYTYPES_H

#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Types.h"

#define GET_TYPEDEF_CLASSES
#include "raf/Dialect/Relay/IR/RelayTypes.h.inc"

#endif // RAF_DIALECT_RELAY_IR_RELAYTYPES_H
