//===- VTAISAOps.h - vta_isa operations -------------------------*- C++ -*-===//

#ifndef RAF_DIALECT_VTAISA_IR_VTAISAOPS_H
#define RAF_DIALECT_VTAISA_IR_VTAISAOPS_H

#include "mlir/Bytecode/BytecodeOpInterface.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/OpDefinition.h"
#include "mlir/IR/OpImplementation.h"
#include "mlir/IR/SymbolTable.h"

#include "raf/Dialect/VTA/IR/VTAAttrs.h"
#include "raf/Dialect/VTA/IR/VTAInterfaces.h"
#include "raf/Dialect/VTAISA/IR/VTAISADialect.h"
#include "raf/Target/VTA/ISA.h"

#include "raf/Dialect/VTAISA/IR/VTAISAEnums.h.inc"

#include "raf/Dialect/VTAISA/IR/VTAISAInterfaces.h.inc"

#define GET_OP_CLASSES
#include "raf/Dialect/VTAISA/IR/VTAISAOps.h.inc"

#endif // RAF_DIALECT_VTAISA_IR_VTAISAOPS_H
