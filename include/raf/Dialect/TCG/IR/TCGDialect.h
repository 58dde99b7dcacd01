//===- TCGDialect.h - tcg dialect -------------------------------*- C++ -*-===//

#ifndef RAF_DIALECT_TCG_IR_TCGDIALECT_H
#define RAF_DIALECT_TCG_IR_TCGDIALECT_H

#include "mlir/IR/Dialect.h"

#include "raf/Dialect/TCG/IR/TCGDialect.h.inc"

#endif // RAF_DIALECT_TCG_IR_TCGDIALECT_H
