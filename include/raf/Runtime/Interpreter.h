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
// With memory tracking on, the evaluator also measures the peak of live
// tensor buffers, as an independent check of the static memory analysis:
// every SSA value is dropped after its last use and the bytes of the
// distinct buffers still held are sampled after every op.
//
//===----------------------------------------------------------------------===//

#ifndef RAF_RUNTIME_INTERPRETER_H
#define RAF_RUNTIME_INTERPRETER_H

#include "raf/Runtime/OperatorKernels.h"
#include "raf/Runtime/RuntimeValue.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Location.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringRef.h"

namespace raf::runtime {

/// The live bytes sampled right after one op of the top-level function.
struct MemorySample {
  mlir::Operation *op;
  int64_t liveBytes;
};

/// What memory tracking measured during the last run().
///
/// A sample is the total size (HostTensor::getNumBytes) of the distinct
/// tensor buffers reachable from the environments of all active function
/// and closure activations, through tuples, closures' captured values and
/// reference cells; a buffer shared by several values counts once. One
/// sample is taken at entry (the arguments alone) and one after every op
/// executed at any depth (inside relay.if branches and callees too), before
/// the values whose last use was that op are dropped.
struct MemoryStats {
  /// The largest sample.
  int64_t peakBytes = 0;
  /// The op after which the peak was first reached, or null when the peak
  /// is the arguments alone at entry.
  mlir::Operation *peakOp = nullptr;
  /// The location of `peakOp`, or of the function when `peakOp` is null.
  mlir::LocationAttr peakLocation;
  /// The bytes of the arguments at entry (the first sample).
  int64_t argumentBytes = 0;
  /// How many samples were taken (the entry sample included).
  uint64_t numSamples = 0;
  /// One sample per op of the top-level function's body, in execution
  /// order (the terminator excluded); filled only when requested.
  llvm::SmallVector<MemorySample> trace;
};

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

  /// Turns memory tracking on or off (off by default). While it is on, each
  /// value defined by an op leaves its environment after the last op of its
  /// block that uses it (a use inside a nested region counts as a use by
  /// the op holding the region) and the live bytes are sampled after every
  /// op; block arguments (function and closure parameters) stay. With
  /// `recordTrace`, the samples of the top-level function's ops are kept as
  /// well. Results are the same either way.
  void setTrackMemory(bool track, bool recordTrace = false) {
    trackMemory = track;
    recordMemoryTrace = recordTrace;
  }
  /// Operations `overrides` accepts run with `kernel` instead of the
  /// registry's kernel (tcg.kernels on a simulated accelerator, for
  /// instance); the registry has no kernel for tcg.kernel at all.
  void setKernelOverride(std::function<bool(mlir::Operation *)> overrides,
                         Kernel kernel) {
    overrideMatches = std::move(overrides);
    overrideKernel = std::move(kernel);
  }

  /// What the last run() measured (all zero when tracking was off; partial
  /// when the run failed).
  const MemoryStats &getMemoryStats() const { return memoryStats; }

private:
  mlir::ModuleOp module;
  unsigned maxCallDepth = kDefaultMaxCallDepth;
  bool trackMemory = false;
  bool recordMemoryTrace = false;
  MemoryStats memoryStats;
  std::function<bool(mlir::Operation *)> overrideMatches;
  Kernel overrideKernel;
};

} // namespace raf::runtime

#endif // RAF_RUNTIME_INTERPRETER_H
