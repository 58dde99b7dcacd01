//===- VTAInterfaces.h - vta interfaces -------------------------*- C++ -*-===//

#ifndef RAF_DIALECT_VTA_IR_VTAINTERFACES_H
#define RAF_DIALECT_VTA_IR_VTAINTERFACES_H

#include "mlir/IR/OpDefinition.h"

#include "raf/Dialect/VTA/IR/VTAAttrs.h"

#include "raf/Dialect/VTA/IR/VTAInterfaces.h.inc"

#endif // RAF_DIALECT_VTA_IR_VTAINTERFACES_H
