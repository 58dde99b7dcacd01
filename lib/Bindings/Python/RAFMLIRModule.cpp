//===- RAFMLIRModule.cpp - Python binding of RAF-MLIR ---------------------===//
//
// The Python module `raf_mlir_ir` (docs/ecosystem.md, "Python"): parse a
// module, run passes and pipelines given as text (as raf-opt's
// --pass-pipeline), verify and print, in the Python process, without a
// subprocess. It is a small C++ facade over MLIRContext, the parser and the
// PassManager, with every upstream dialect, extension and pass and ours
// registered as raf-opt registers them (raf/InitAll.h). Diagnostics become
// the text of a raf_mlir_ir.MLIRError.
//
// The module links libMLIR.so, like the tools and the mlir-opt plugin, so a
// process has one copy of MLIR's registries.
//
//===----------------------------------------------------------------------===//

#include "mlir/IR/AsmState.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/Verifier.h"
#include "mlir/InitAllDialects.h"
#include "mlir/InitAllExtensions.h"
#include "mlir/InitAllPasses.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"

#include "raf/InitAll.h"
#include "raf/Support/SourceGuard.h"

#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/raw_ostream.h"

#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <memory>
#include <mutex>
#include <string>

namespace py = pybind11;

namespace {

/// The registrations raf-opt makes, once per process (the pass registry
/// rejects a name registered twice).
void registerPassesOnce() {
  static std::once_flag once;
  std::call_once(once, [] {
    mlir::registerAllPasses();
    raf::registerAllPasses();
  });
}

/// Raised for a module that does not parse or verify and for a pipeline that
/// does not parse or fails; its text is the diagnostics, located as raf-opt
/// prints them.
struct MLIRError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

/// Collects the diagnostics emitted while it lives, in raf-opt's format
/// (`file:line:col: error: ...`, with the source line).
class DiagnosticCapture {
public:
  DiagnosticCapture(mlir::MLIRContext &ctx, llvm::SourceMgr &sourceMgr)
      : os(text), handler(sourceMgr, &ctx, os) {}
  std::string take() {
    os.flush();
    return std::move(text);
  }

private:
  std::string text;
  llvm::raw_string_ostream os;
  mlir::SourceMgrDiagnosticHandler handler;
};

class PythonContext;

/// A parsed module and the context it lives in (kept alive by it).
class PythonModule {
public:
  PythonModule(std::shared_ptr<PythonContext> ctx,
           mlir::OwningOpRef<mlir::ModuleOp> module,
           std::shared_ptr<llvm::SourceMgr> sourceMgr)
      : ctx(std::move(ctx)), module(std::move(module)),
        sourceMgr(std::move(sourceMgr)) {}

  void run(const std::string &pipeline, bool verifyEach);
  void verify();
  std::string str(bool generic, bool debugInfo) const;

private:
  std::shared_ptr<PythonContext> ctx;
  mlir::OwningOpRef<mlir::ModuleOp> module;
  // The parsed text: diagnostics of later passes quote it.
  std::shared_ptr<llvm::SourceMgr> sourceMgr;
};

class PythonContext : public std::enable_shared_from_this<PythonContext> {
public:
  PythonContext() {
    mlir::DialectRegistry registry;
    mlir::registerAllDialects(registry);
    mlir::registerAllExtensions(registry);
    raf::registerAllDialects(registry);
    context.appendDialectRegistry(registry);
    // Multithreaded pass execution would need the GIL released and buys a
    // Python user little on modules of this size; pipelines run on the
    // calling thread.
    context.disableMultithreading();
    // Errors name the operation without printing it (and with it the module
    // it is in) as a note.
    context.printOpOnDiagnostic(false);
    registerPassesOnce();
  }

  PythonModule parse(const std::string &text, const std::string &name) {
    auto sourceMgr = std::make_shared<llvm::SourceMgr>();
    sourceMgr->AddNewSourceBuffer(
        llvm::MemoryBuffer::getMemBufferCopy(text, name), llvm::SMLoc());
    std::string guardErrors;
    llvm::raw_string_ostream guardOs(guardErrors);
    if (!raf::checkMLIRSource(
            sourceMgr->getMemoryBuffer(sourceMgr->getMainFileID())
                ->getMemBufferRef(),
            guardOs)) {
      guardOs.flush();
      throw MLIRError(guardErrors);
    }
    DiagnosticCapture diagnostics(context, *sourceMgr);
    mlir::OwningOpRef<mlir::ModuleOp> module =
        mlir::parseSourceFile<mlir::ModuleOp>(*sourceMgr,
                                              mlir::ParserConfig(&context));
    if (!module)
      throw MLIRError(diagnostics.take());
    return PythonModule(shared_from_this(), std::move(module), sourceMgr);
  }

  std::vector<std::string> dialects() {
    std::vector<std::string> names;
    for (llvm::StringRef name : context.getDialectRegistry().getDialectNames())
      names.push_back(name.str());
    return names;
  }

  mlir::MLIRContext context;
};

void PythonModule::run(const std::string &pipeline, bool verifyEach) {
  mlir::MLIRContext &context = ctx->context;
  DiagnosticCapture diagnostics(context, *sourceMgr);
  std::string pipelineErrors;
  llvm::raw_string_ostream pipelineOs(pipelineErrors);
  // The whole pipeline, anchor included ("builtin.module(...)"), as
  // raf-opt's --pass-pipeline takes it.
  mlir::FailureOr<mlir::OpPassManager> parsed =
      mlir::parsePassPipeline(pipeline, pipelineOs);
  if (mlir::failed(parsed)) {
    pipelineOs.flush();
    throw MLIRError(diagnostics.take() + pipelineErrors);
  }
  mlir::PassManager pm(&context, parsed->getOpAnchorName());
  static_cast<mlir::OpPassManager &>(pm) = std::move(*parsed);
  pm.enableVerifier(verifyEach);
  if (mlir::failed(pm.run(*module)))
    throw MLIRError(diagnostics.take());
}

void PythonModule::verify() {
  DiagnosticCapture diagnostics(ctx->context, *sourceMgr);
  if (mlir::failed(mlir::verify(*module)))
    throw MLIRError(diagnostics.take());
}

std::string PythonModule::str(bool generic, bool debugInfo) const {
  std::string text;
  llvm::raw_string_ostream os(text);
  mlir::OpPrintingFlags flags;
  if (generic)
    flags.printGenericOpForm();
  if (debugInfo)
    flags.enableDebugInfo();
  mlir::ModuleOp op = module.get();
  op.print(os, flags);
  os.flush();
  return text;
}

} // namespace

PYBIND11_MODULE(raf_mlir_ir, m) {
  m.doc() = "RAF-MLIR in Python: parse, run passes and pipelines, print "
            "(docs/ecosystem.md)";
  py::register_exception<MLIRError>(m, "MLIRError", PyExc_ValueError);

  py::class_<PythonContext, std::shared_ptr<PythonContext>>(
      m, "Context",
      "An MLIR context with every upstream dialect and RAF-MLIR's "
      "(relay, tcg, vta, vta_isa) registered, as in raf-opt")
      .def(py::init([] { return std::make_shared<PythonContext>(); }))
      .def("parse", &PythonContext::parse, py::arg("text"),
           py::arg("name") = "<string>",
           "Parses MLIR assembly into a module; raises MLIRError with the "
           "located diagnostics")
      .def(
          "parse_file",
          [](PythonContext &self, const std::string &path) {
            auto buffer = llvm::MemoryBuffer::getFile(path);
            if (!buffer)
              throw MLIRError("cannot open '" + path +
                              "': " + buffer.getError().message());
            return self.parse((*buffer)->getBuffer().str(), path);
          },
          py::arg("path"), "Parses an .mlir file into a module")
      .def_property_readonly("dialects", &PythonContext::dialects,
                             "Names of the registered dialects");

  py::class_<PythonModule>(m, "Module", "A builtin.module and its context")
      .def("run", &PythonModule::run, py::arg("pipeline"),
           py::arg("verify_each") = true,
           "Runs a textual pass pipeline, e.g. "
           "'builtin.module(convert-relay-to-linalg)' or "
           "'builtin.module(raf-cpu-pipeline{threads=1})', in place; raises "
           "MLIRError on a pipeline that does not parse or a pass that fails")
      .def("verify", &PythonModule::verify,
           "Verifies the module; raises MLIRError")
      .def("to_string", &PythonModule::str, py::arg("generic") = false,
           py::arg("debug_info") = false,
           "The module's assembly (generic form, locations on request)")
      .def("__str__",
           [](const PythonModule &self) { return self.str(false, false); });
}
