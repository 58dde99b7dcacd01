//===- RelayOpAsm.h - textual form of relay operators -----------*- C++ -*-===//
//
//   %r = relay.<name> %a, %b {attrs} : (A, B) -> R
//
// The `-> R` part is optional when parsing: result types are then inferred.
// Operators without operands may omit the whole `: () -> R` part.
//
//===----------------------------------------------------------------------===//

#ifndef RAF_DIALECT_RELAY_IR_RELAYOPASM_H
#define RAF_DIALECT_RELAY_IR_RELAYOPASM_H

#include "mlir/IR/OpImplementation.h"
#include "mlir/IR/OperationSupport.h"

namespace raf::relay {

using InferReturnTypesFn = llvm::LogicalResult (*)(
    mlir::MLIRContext *, std::optional<mlir::Location>, mlir::ValueRange,
    mlir::DictionaryAttr, mlir::OpaqueProperties, mlir::RegionRange,
    llvm::SmallVectorImpl<mlir::Type> &);

/// Parses the textual form of an operator with `numOperands` operands (at
/// least that many when `variadic`): a different count is a parse error at
/// the operands, before the shape function, which reads them by position,
/// can run.
mlir::ParseResult parseOperator(mlir::OpAsmParser &parser,
                                mlir::OperationState &result,
                                InferReturnTypesFn inferReturnTypes,
                                unsigned numOperands, bool variadic);
void printOperator(mlir::OpAsmPrinter &printer, mlir::Operation *op);

} // namespace raf::relay

#endif // RAF_DIALECT_RELAY_IR_RELAYOPASM_H
