//===- VTAISADialect.h - vta_isa dialect ------------------------*- C++ -*-===//

#ifndef RAF_DIALECT_VTAISA_IR_VTAISADIALECT_H
#define RAF_DIALECT_VTAISA_IR_VTAISADIALECT_H

#include "mlir/IR/Dialect.h"

#include "raf/Dialect/VTA/IR/VTADialect.h"

#include "raf/Dialect/VTAISA/IR/VTAISADialect.h.inc"

#endif // RAF_DIALECT_VTAISA_IR_VTAISADIALECT_H
