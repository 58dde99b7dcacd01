//===- VTADialect.cpp - vta dialect registration --------------------------===//

#include "raf/Dialect/VTA/IR/VTADialect.h"

using namespace mlir;
using namespace raf::vta;

#include "raf/Dialect/VTA/IR/VTADialect.cpp.inc"

void VTADialect::initialize() { registerAttributes(); }
