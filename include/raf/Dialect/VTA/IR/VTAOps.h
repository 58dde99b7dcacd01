//===- VTAOps.h - vta tile-level operations ---------------------*- C++ -*-===//

#ifndef RAF_DIALECT_VTA_IR_VTAOPS_H
#define RAF_DIALECT_VTA_IR_VTAOPS_H

#include "mlir/Bytecode/BytecodeOpInterface.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/OpDefinition.h"
#include "mlir/IR/OpImplementation.h"
#include "mlir/IR/SymbolTable.h"

#include "raf/Dialect/VTA/IR/VTAAttrs.h"
#include "raf/Dialect/VTA/IR/VTADialect.h"
#include "raf/Dialect/VTA/IR/VTAInterfaces.h"
#include "raf/Target/VTA/TileProgram.h"

#include "raf/Dialect/VTA/IR/VTAEnums.h.inc"

#define GET_OP_CLASSES
#include "raf/Dialect/VTA/IR/VTAOps.h.inc"

#endif // RAF_DIALECT_VTA_IR_VTAOPS_H
