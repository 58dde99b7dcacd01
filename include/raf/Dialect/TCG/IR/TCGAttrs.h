//===- TCGAttrs.h - tcg dialect attributes ----------------------*- C++ -*-===//

#ifndef RAF_DIALECT_TCG_IR_TCGATTRS_H
#define RAF_DIALECT_TCG_IR_TCGATTRS_H

#include "mlir/IR/Attributes.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/DialectImplementation.h"
#include "llvm/ADT/Hashing.h"

#include "raf/Dialect/TCG/IR/TCGEnums.h.inc"

#include <cstdint>
#include <optional>

namespace raf::tcg {

/// One operator dimension an intrinsic axis covers (Rieber 2022, Fig. 4.10):
/// `length` points of dimension `dim`, `stride` apart.
struct DimMap {
  int64_t dim = 0;
  int64_t length = 1;
  int64_t stride = 1;

  bool operator==(const DimMap &other) const {
    return dim == other.dim && length == other.length && stride == other.stride;
  }
};

inline llvm::hash_code hash_value(const DimMap &map) {
  return llvm::hash_combine(map.dim, map.length, map.stride);
}

} // namespace raf::tcg

#define GET_ATTRDEF_CLASSES
#include "raf/Dialect/TCG/IR/TCGAttrs.h.inc"

#endif // RAF_DIALECT_TCG_IR_TCGATTRS_H
