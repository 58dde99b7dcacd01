//===- FuzzerRegistry.cpp - the dialects of the MLIR fuzz targets ---------===//

#include "FuzzerSupport.h"

#include "raf/InitAll.h"

#include "mlir/IR/DialectRegistry.h"

const mlir::DialectRegistry &raf::fuzz::getRegistry() {
  static const mlir::DialectRegistry *registry = [] {
    auto *r = new mlir::DialectRegistry();
    raf::registerAllDialects(*r);
    return r;
  }();
  return *registry;
}
