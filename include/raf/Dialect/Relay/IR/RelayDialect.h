//===- RelayDialect.h - relay dialect ---------------------------*- C++ -*-===//

#ifndef RAF_DIALECT_RELAY_IR_RELAYDIALECT_H
#define RAF_DIALECT_RELAY_IR_RELAYDIALECT_H

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Dialect.h"

#include "raf/Dialect/Relay/IR/RelayDialect.h.inc"

#endif // RAF_DIALECT_RELAY_IR_RELAYDIALECT_H
