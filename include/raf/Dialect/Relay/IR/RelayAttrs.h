//===- RelayAttrs.h - relay dialect attributes ------------------*- C++ -*-===//

#ifndef RAF_DIALECT_RELAY_IR_RELAYATTRS_H
#define RAF_DIALECT_RELAY_IR_RELAYATTRS_H

#include "mlir/IR/Attributes.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "raf/Dialect/Relay/IR/RelayInterfaces.h"

#include <array>
#include <optional>

#define GET_ATTRDEF_CLASSES
#include "raf/Dialect/Relay/IR/RelayAttrs.h.inc"

#endif // RAF_DIALECT_RELAY_IR_RELAYATTRS_H
