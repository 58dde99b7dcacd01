//===- Passes.h - conversions between RAF and upstream dialects -*- C++ -*-===//

#ifndef RAF_CONVERSION_PASSES_H
#define RAF_CONVERSION_PASSES_H

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/Pass.h"
#include "raf/Conversion/TCGToVTA/ScheduleMethod.h"
#include "raf/Dialect/Relay/IR/RelayDialect.h"

namespace raf {

#define GEN_PASS_DECL
#include "raf/Conversion/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "raf/Conversion/Passes.h.inc"

} // namespace raf

#endif // RAF_CONVERSION_PASSES_H
