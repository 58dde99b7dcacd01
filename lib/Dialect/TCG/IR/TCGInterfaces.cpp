//===- TCGInterfaces.cpp - tcg op interfaces ------------------------------===//

#include "raf/Dialect/TCG/IR/TCGInterfaces.h"

#include "raf/Dialect/TCG/IR/TCGInterfaces.cpp.inc"
