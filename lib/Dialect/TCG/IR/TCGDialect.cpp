//===- TCGDialect.cpp - tcg dialect registration --------------------------===//

#include "raf/Dialect/TCG/IR/TCGDialect.h"

#include "raf/Dialect/TCG/IR/TCGOps.h"

using namespace mlir;
using namespace raf::tcg;

#include "raf/Dialect/TCG/IR/TCGDialect.cpp.inc"

void TCGDialect::initialize() {
  addOperations<
#define GET_OP_LIST
#include "raf/Dialect/TCG/IR/TCGOps.cpp.inc"
      >();
  registerAttributes();
}
