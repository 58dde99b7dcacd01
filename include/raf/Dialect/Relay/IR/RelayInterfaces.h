//===- RelayInterfaces.h - operator property interfaces ---------*- C++ -*-===//
//
// Fusion kind, AutoCast category, cost facts, gradient rule and
// tensor-expression form of relay operators (cf. the operator attribute
// table of RAF paper §3.2.1, Fig. 5).
//
//===----------------------------------------------------------------------===//

#ifndef RAF_DIALECT_RELAY_IR_RELAYINTERFACES_H
#define RAF_DIALECT_RELAY_IR_RELAYINTERFACES_H

#include "mlir/IR/Builders.h"
#include "mlir/IR/OpDefinition.h"

#include "raf/Dialect/Relay/IR/RelayEnums.h.inc"

namespace raf::relay::detail {
/// Number of elements of a ranked tensor type with static shape; 0 for any
/// other type (dynamic sizes have no element count to charge).
int64_t countElements(mlir::Type type);
/// Bytes of a statically shaped tensor (sub-byte elements round up per
/// element); tuples add up their fields; other types count 0.
int64_t typeBytes(mlir::Type type);
int64_t sumTypeBytes(mlir::TypeRange types);
/// Elements of every result of `op`.
int64_t countResultElements(mlir::Operation *op);
} // namespace raf::relay::detail

#include "raf/Dialect/Relay/IR/RelayInterfaces.h.inc"

#endif // RAF_DIALECT_RELAY_IR_RELAYINTERFACES_H
