//===- InitAll.h - Register every RAF-MLIR dialect and pass -----*- C++ -*-===//
//
// The counterparts of mlir/InitAllDialects.h and mlir/InitAllPasses.h for
// RAF-MLIR, for tools, plugins and the C API (docs/ecosystem.md):
//
//   mlir::DialectRegistry registry;
//   mlir::registerAllDialects(registry);  // upstream, if wanted
//   raf::registerAllDialects(registry);
//   raf::registerAllPasses();
//
//===----------------------------------------------------------------------===//

#ifndef RAF_INITALL_H
#define RAF_INITALL_H

namespace mlir {
class DialectRegistry;
} // namespace mlir

namespace raf {

/// Adds RAF-MLIR's dialects (relay, tcg, vta, vta_isa) to `registry`, with
/// the upstream dialects our passes read and create and the external models
/// and extensions our pipelines need (bufferization and tiling models, the
/// func inliner interface, translations to LLVM IR). It does not add every
/// upstream dialect: tools that want those call mlir::registerAllDialects
/// too.
void registerAllDialects(mlir::DialectRegistry &registry);

/// Registers every RAF-MLIR pass and pass pipeline (--raf-cpu-pipeline,
/// --relay-grad-pipeline, --raf-training-pipeline) with the global pass
/// registry. Calling it again does nothing.
void registerAllPasses();

} // namespace raf

#endif // RAF_INITALL_H
