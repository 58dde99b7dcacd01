//===- VTADialect.h - vta dialect -------------------------------*- C++ -*-===//

#ifndef RAF_DIALECT_VTA_IR_VTADIALECT_H
#define RAF_DIALECT_VTA_IR_VTADIALECT_H

#include "mlir/IR/Dialect.h"

#include "raf/Dialect/VTA/IR/VTADialect.h.inc"

#endif // RAF_DIALECT_VTA_IR_VTADIALECT_H
