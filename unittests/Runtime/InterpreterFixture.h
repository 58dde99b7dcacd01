//===- InterpreterFixture.h - Reference-evaluator test fixture --*- C++ -*-===//
//
// The shared setup of the interpreter unit tests: a context with the relay,
// func and arith dialects, a module parsed from text, and a run that collects
// the interpreter's diagnostics.
//
//===----------------------------------------------------------------------===//

#ifndef RAF_UNITTESTS_RUNTIME_INTERPRETERFIXTURE_H
#define RAF_UNITTESTS_RUNTIME_INTERPRETERFIXTURE_H

#include "raf/Runtime/Interpreter.h"

#include "raf/Dialect/Relay/IR/RelayDialect.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include "gtest/gtest.h"

#include <string>

namespace raf::runtime {

class InterpreterFixture : public ::testing::Test {
protected:
  InterpreterFixture() {
    mlir::DialectRegistry registry;
    registry.insert<raf::relay::RelayDialect, mlir::func::FuncDialect,
                    mlir::arith::ArithDialect>();
    context.appendDialectRegistry(registry);
    context.loadAllAvailableDialects();
  }

  /// Parses `source`; the test fails if it does not parse and verify.
  mlir::ModuleOp parse(llvm::StringRef source) {
    module = mlir::parseSourceString<mlir::ModuleOp>(source, &context);
    EXPECT_TRUE(module) << "the test module does not parse";
    return module.get();
  }

  /// Runs `function` on an interpreter that `configure` sets up and `inspect`
  /// reads afterwards, collecting diagnostics in `diagnostics`.
  mlir::FailureOr<llvm::SmallVector<RuntimeValue>>
  runWith(llvm::StringRef function, llvm::ArrayRef<RuntimeValue> arguments,
          llvm::function_ref<void(Interpreter &)> configure,
          llvm::function_ref<void(Interpreter &)> inspect = {}) {
    diagnostics.clear();
    mlir::ScopedDiagnosticHandler handler(
        &context, [&](mlir::Diagnostic &diagnostic) {
          diagnostics += diagnostic.str() + "\n";
          return mlir::success();
        });
    Interpreter interpreter(module.get());
    configure(interpreter);
    auto results = interpreter.run(function, arguments);
    if (inspect)
      inspect(interpreter);
    return results;
  }

  mlir::MLIRContext context;
  mlir::OwningOpRef<mlir::ModuleOp> module;
  std::string diagnostics;
};

} // namespace raf::runtime

#endif // RAF_UNITTESTS_RUNTIME_INTERPRETERFIXTURE_H
