//===- CPURunner.h - compile and run a function on the host CPU -*- C++ -*-===//
//
// Compiles a module with --raf-cpu-pipeline, then with LLVM to objects (one
// part per kernel, on several threads), links them in an ORC LLJIT and calls
// one function through its C interface: every
// argument and every result is a memref descriptor passed by pointer, the
// results being buffers the runner allocates (the pipeline turns results
// into out-parameters), except the new parameters and optimizer states of a
// training step, which the compiled code writes into their arguments'
// buffers (--raf-inplace-update).
//
//===----------------------------------------------------------------------===//

#ifndef RAF_RUNTIME_CPURUNNER_H
#define RAF_RUNTIME_CPURUNNER_H

#include "raf/Runtime/HostTensor.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/DialectRegistry.h"

#include <memory>
#include <string>
#include <utility>
#include <vector>

namespace llvm {
namespace orc {
class LLJIT;
} // namespace orc
} // namespace llvm

namespace raf::runtime {

struct CPURunnerOptions {
  /// LLVM optimisation level of the JIT-compiled code.
  unsigned optLevel = 3;
  /// Options of --raf-cpu-pipeline in its textual form ("vectorize=0").
  std::string pipelineOptions;
  /// Print the module after the pipeline to stderr.
  bool printLowered = false;
  /// Verify the module after every pass of the pipeline, not only once after
  /// the last one (MLIR's default; a quarter of the pipeline's CPU time on a
  /// ResNet-50 training step).
  bool verifyEach = false;
  /// Threads of the compiled code (the pipeline's `threads`); 0 keeps the
  /// value in `pipelineOptions` (default 1).
  unsigned threads = 0;
  /// Threads that optimise and compile the module's parts (one per kernel;
  /// see CPURunner.cpp, splitIntoParts); 0: every core the process may run
  /// on. The objects are the same whatever the count.
  unsigned compileThreads = 0;
  /// Directory of compiled objects keyed by a hash of everything that
  /// determines the code (the module, the entry, the options, the host CPU,
  /// the compiler itself); empty: compile every time.
  std::string cacheDirectory;
  /// Functions the compiled code calls besides the allocation functions
  /// (a device runtime, such as the VTA runtime's launch entry point),
  /// registered with the JIT's symbol map under these unmangled names.
  std::vector<std::pair<std::string, void *>> runtimeSymbols;
};

/// The default compile cache: $RAF_COMPILE_CACHE, else
/// $XDG_CACHE_HOME/raf-mlir, else ~/.cache/raf-mlir; empty if none is set.
std::string getDefaultCompileCacheDirectory();

/// The cores this process may run on (its CPU affinity), at least 1.
unsigned getAvailableCores();

/// Frees the buffers compiled code released and the runtime keeps for reuse
/// (the allocator of compiled code caches large freed buffers by size).
void releaseCachedBuffers();

/// Adds what a CPURunner needs to `registry` (call before creating the
/// context that parses the module).
void registerCPURunnerDialects(mlir::DialectRegistry &registry);

class CPURunner {
public:
  /// Compiles `module` (which is not modified) for a call of `function`.
  /// Errors are emitted as diagnostics on the module's context.
  static mlir::FailureOr<std::unique_ptr<CPURunner>>
  create(mlir::ModuleOp module, mlir::func::FuncOp function,
         const CPURunnerOptions &options);
  ~CPURunner();

  /// Wall time of compiling: the CPU pipeline, and LLVM (translation,
  /// optimisation, code generation).
  double getPipelineMilliseconds() const { return pipelineMilliseconds; }
  double getLLVMMilliseconds() const { return llvmMilliseconds; }
  /// "hit" (loaded from the compile cache), "miss" (compiled and stored) or
  /// "off".
  llvm::StringRef getCacheStatus() const { return cacheStatus; }

  /// Calls the function. Arguments must have the function's argument types.
  /// If `callMilliseconds` is given, it receives the wall time of the call
  /// of the compiled code alone (not the copies of arguments and results);
  /// `callCPUMilliseconds`, the calling thread's CPU time over the same
  /// call: all of the call's work when it runs on one thread (with one
  /// thread OpenBLAS computes on the caller's thread too), and, unlike the
  /// wall time, not inflated by waiting for a core on a loaded machine.
  mlir::FailureOr<llvm::SmallVector<HostTensor>>
  run(llvm::ArrayRef<HostTensor> arguments,
      double *callMilliseconds = nullptr,
      double *callCPUMilliseconds = nullptr);

private:
  CPURunner() = default;

  /// The JIT holding the code `entry` points into (compiled now, or loaded
  /// from the compile cache).
  std::unique_ptr<llvm::orc::LLJIT> code;
  /// The packed wrapper `_mlir__mlir_ciface_<name>`: one void* per argument.
  void (*entry)(void **) = nullptr;
  double pipelineMilliseconds = 0, llvmMilliseconds = 0;
  llvm::StringRef cacheStatus = "off";
  std::string symbol;
  mlir::Location location = mlir::UnknownLoc();
  llvm::SmallVector<mlir::RankedTensorType> argumentTypes;
  llvm::SmallVector<mlir::RankedTensorType> resultTypes;
  /// Per result: the argument whose buffer the compiled code writes it into
  /// (RAF's InplaceUpdate, relay::getInPlaceUpdates), or -1 for an
  /// out-parameter.
  llvm::SmallVector<int> inPlaceArgument;
};

} // namespace raf::runtime

#endif // RAF_RUNTIME_CPURUNNER_H
