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

mlir::ParseResult parseOperator(mlir::OpAsmParser &parser,
                                mlir::OperationState &result,
                                InferReturnTypesFn inferReturnTypes);
void printOperator(mlir::OpAsmPrinter &printer, mlir::Operation *op);

} // namespace raf::relay

#endif // RAF_DIALECT_RELAY_IR_RELAYOPASM_H
