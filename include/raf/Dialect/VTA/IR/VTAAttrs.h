//===- VTAAttrs.h - vta dialect attributes ----------------------*- C++ -*-===//

#ifndef RAF_DIALECT_VTA_IR_VTAATTRS_H
#define RAF_DIALECT_VTA_IR_VTAATTRS_H

#include "mlir/IR/Attributes.h"
#include "mlir/IR/BuiltinAttributes.h"

#include "raf/Dialect/VTA/IR/VTADialect.h"
#include "raf/Target/VTA/Config.h"
#include "raf/Target/VTA/TileProgram.h"

#define GET_ATTRDEF_CLASSES
#include "raf/Dialect/VTA/IR/VTAAttrs.h.inc"

#endif // RAF_DIALECT_VTA_IR_VTAATTRS_H
