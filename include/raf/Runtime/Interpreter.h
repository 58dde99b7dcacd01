//===- Interpreter.h - the reference evaluator of relay programs -*- C++
//-*-===//
//
// A plain interpreter of relay programs: the semantics oracle the compiled
// paths are tested against. It executes func.func / func.call /
// func.return, arith.constant of tensors, every relay structural op
// (constants, tuples, if, closures with free variables, calls, global_ref,
// references, zero) and every relay operator through the kernels of
// OperatorKernels.h. It is meant to be small and obviously right, not fast.
//
// Every failure (bad arguments, an op it cannot evaluate, a run-time error
// such as an index out of range) is a diagnostic located at the offending
// function or operation, reported through the module's MLIRContext, and
// run() returns failure.
//
//===----------------------------------------------------------------------===//

#ifndef RAF_RUNTIME_INTERPRETER_H
#define RAF_RUNTIME_INTERPRETER_H

#include "raf/Runtime/RuntimeValue.h"

#include "mlir/IR/BuiltinOps.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringRef.h"

namespace raf::runtime {

class Interpreter {
public:
  /// `module` must be verified and must outlive the interpreter and every
  /// closure or function value it returns.
  explicit Interpreter(mlir::ModuleOp module);

  /// Runs the func.func named `functionName` on `arguments` (in signature
  /// order) and returns its results. Checks the argument count and that
  /// every argument conforms to its parameter type (element type and every
  /// static dimension).
  mlir::FailureOr<llvm::SmallVector<RuntimeValue>>
  run(llvm::StringRef functionName, llvm::ArrayRef<RuntimeValue> arguments);

  /// Calls nested deeper than this (recursion through relay.global_ref, for
  /// instance) stop with an error instead of exhausting the native stack.
  void setMaxCallDepth(unsigned depth) { maxCallDepth = depth; }
  static constexpr unsigned kDefaultMaxCallDepth = 1000;

private:
  mlir::ModuleOp module;
  unsigned maxCallDepth = kDefaultMaxCallDepth;
};

} // namespace raf::runtime

#endif // RAF_RUNTIME_INTERPRETER_H
