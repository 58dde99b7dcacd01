//===- BinaryTranslation.h - vta_isa <-> VTA binary -------------*- C++ -*-===//
//
// The raf-translate entries between a vta_isa.program and the container of
// BinaryFormat.h: --vta-isa-to-bin and --bin-to-vta-isa.
//
//===----------------------------------------------------------------------===//

#ifndef RAF_TARGET_VTA_BINARYTRANSLATION_H
#define RAF_TARGET_VTA_BINARYTRANSLATION_H

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/OwningOpRef.h"

namespace llvm {
class SourceMgr;
class raw_ostream;
} // namespace llvm

namespace raf::vta {

/// Writes a vta_isa.program of `module` as a VTA binary: the one whose
/// symbol name is `kernel` (--convert-tcg-to-vta names programs
/// `<function>_kernel<n>`), or, with an empty `kernel`, the module's only
/// program. A module without that program is diagnosed and fails.
mlir::LogicalResult exportVTABinary(mlir::ModuleOp module,
                                    llvm::raw_ostream &os,
                                    llvm::StringRef kernel = {});

/// Reads the main buffer of `sourceMgr` as a VTA binary into a module
/// holding one vta_isa.program. Corrupt input is diagnosed (one error per
/// problem, located at the buffer's name) and yields a null module.
mlir::OwningOpRef<mlir::ModuleOp> importVTABinary(llvm::SourceMgr &sourceMgr,
                                                  mlir::MLIRContext *context);

/// Registers --vta-isa-to-bin and --bin-to-vta-isa with mlir-translate.
void registerVTABinaryTranslations();

} // namespace raf::vta

#endif // RAF_TARGET_VTA_BINARYTRANSLATION_H
