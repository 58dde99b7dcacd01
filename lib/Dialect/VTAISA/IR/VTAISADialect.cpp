//===- VTAISADialect.cpp - vta_isa dialect registration -------------------===//

#include "raf/Dialect/VTAISA/IR/VTAISADialect.h"

#include "raf/Dialect/VTAISA/IR/VTAISAOps.h"

using namespace mlir;
using namespace raf::vta_isa;

#include "raf/Dialect/VTAISA/IR/VTAISADialect.cpp.inc"

void VTAISADialect::initialize() {
  addOperations<
#define GET_OP_LIST
#include "raf/Dialect/VTAISA/IR/VTAISAOps.cpp.inc"
      >();
}
