//===- VTADialect.cpp - vta dialect registration --------------------------===//

#include "raf/Dialect/VTA/IR/VTADialect.h"

#include "raf/Dialect/VTA/IR/VTAOps.h"

using namespace mlir;
using namespace raf::vta;

#include "raf/Dialect/VTA/IR/VTADialect.cpp.inc"

void VTADialect::initialize() {
  registerAttributes();
  addOperations<
#define GET_OP_LIST
#include "raf/Dialect/VTA/IR/VTAOps.cpp.inc"
      >();
}
