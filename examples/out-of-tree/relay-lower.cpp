//===- relay-lower.cpp - an out-of-tree user of RAF-MLIR ------------------===//
//
// Reads a relay module, runs a textual pass pipeline of RAF-MLIR passes
// (default: the CPU pipeline) and prints the result. Built against an
// installed RAF-MLIR with find_package(RAFMLIR).
//
//   relay-lower model.mlir ['builtin.module(convert-relay-to-linalg)']
//
//===----------------------------------------------------------------------===//

#include "raf/InitAll.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"

#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/raw_ostream.h"

int main(int argc, char **argv) {
  if (argc < 2 || argc > 3) {
    llvm::errs() << "usage: relay-lower FILE [PIPELINE]\n";
    return 2;
  }
  mlir::DialectRegistry registry;
  raf::registerAllDialects(registry);
  raf::registerAllPasses();
  mlir::MLIRContext context(registry);

  llvm::SourceMgr sourceMgr;
  mlir::SourceMgrDiagnosticHandler handler(sourceMgr, &context);
  mlir::OwningOpRef<mlir::ModuleOp> module =
      mlir::parseSourceFile<mlir::ModuleOp>(argv[1], sourceMgr, &context);
  if (!module)
    return 1;

  // A whole pipeline, anchored on builtin.module, replaces the pass
  // manager's (empty) one.
  const char *pipeline =
      argc == 3 ? argv[2] : "builtin.module(raf-cpu-pipeline)";
  mlir::FailureOr<mlir::OpPassManager> parsed =
      mlir::parsePassPipeline(pipeline, llvm::errs());
  if (mlir::failed(parsed))
    return 1;
  mlir::PassManager pm(&context);
  static_cast<mlir::OpPassManager &>(pm) = std::move(*parsed);
  if (mlir::failed(pm.run(*module)))
    return 1;
  module->print(llvm::outs());
  llvm::outs() << "\n";
  return 0;
}
