//===- raf-run.cpp - run a function of a RAF-MLIR module ------------------===//
//
// raf-run parses an .mlir file, picks a function, feeds it tensors from .npy
// files (or seeded random data) and prints and/or saves its results.
//
//   --target=cpu     compile with --raf-cpu-pipeline and run the result in
//                    MLIR's ExecutionEngine (LLVM JIT, host CPU)
//   --target=interp  run the relay reference evaluator
//   --target=vta-sim compile packed kernels (#tcg.tensorize with target "vta")
//                    to VTA programs (--raf-vta-pipeline), the host code
//                    around their launches with --raf-cpu-pipeline, and run
//                    it, the launches calling the VTA runtime, which runs
//                    them on the VTA simulator; prints the simulated cycles
//                    (docs/vta.md, "Running on the simulator")
//
// With --target=interp --ranks=N, the function runs as N simulated ranks of
// an SPMD program whose relay.comm.* collectives combine the ranks' values
// (docs/data-parallel.md); `%r` in --input and --output paths stands for the
// rank.
//
// With --target=interp, --print-peak-memory and --print-memory-trace report
// the live tensor bytes the evaluator measured (docs/running.md gives the
// line formats, which tests and benchmarks parse).
//
// Every failure is a diagnostic (located when it concerns the IR) and a
// non-zero exit code. The input is scanned for IR the upstream parser does
// not survive before it is parsed (raf/Support/SourceGuard.h), and sizes
// derived from it are checked against the resource limits
// (--max-allocation-bytes, --max-dram-bytes, --max-nesting-depth;
// docs/resource-limits.md).
//
//===----------------------------------------------------------------------===//

#include "raf/Runtime/BLASRuntime.h"
#include "raf/Runtime/CPURunner.h"
#include "raf/Runtime/HostTensor.h"
#include "raf/Runtime/Interpreter.h"
#include "raf/Runtime/InterpreterCollectives.h"
#include "raf/Runtime/Npy.h"
#include "raf/Runtime/TensorPrinter.h"
#include "raf/Runtime/VTAKernelRunner.h"
#include "raf/Runtime/VTARuntime.h"
#include "raf/Conversion/Passes.h"
#include "raf/Pipelines/VTAPipeline.h"
#include "raf/Support/ResourceLimits.h"
#include "raf/Support/SourceGuard.h"

#include "raf/Dialect/Relay/IR/RelayDialect.h"
#include "raf/Dialect/TCG/IR/TCGDialect.h"
#include "raf/Dialect/VTA/IR/VTADialect.h"
#include "raf/Dialect/VTA/IR/VTAOps.h"
#include "raf/Dialect/VTAISA/IR/VTAISADialect.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/AsmState.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Support/Timing.h"
#include "mlir/Support/FileUtilities.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/DynamicLibrary.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/raw_ostream.h"

#if LLVM_ADDRESS_SANITIZER_BUILD
#include <sanitizer/lsan_interface.h>
#endif

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdlib>
#include <iterator>

using namespace mlir;
using namespace raf::runtime;
namespace cl = llvm::cl;

static cl::OptionCategory category("raf-run options");

static cl::opt<std::string> inputFilename(cl::Positional, cl::Required,
                                          cl::desc("<input .mlir file>"),
                                          cl::cat(category));
static cl::opt<std::string> entryName("entry", cl::init("main"),
                                      cl::desc("Function to run"),
                                      cl::value_desc("name"),
                                      cl::cat(category));
enum class Target { CPU, Interp, VTASim };
static cl::opt<Target> target(
    "target", cl::init(Target::CPU), cl::desc("How to run the function"),
    cl::values(clEnumValN(Target::CPU, "cpu",
                          "Compile for the host CPU and run with the LLVM JIT"),
               clEnumValN(Target::Interp, "interp",
                          "Run the relay reference evaluator"),
               clEnumValN(Target::VTASim, "vta-sim",
                          "Compile packed VTA kernels to VTA programs and "
                          "the host code around them for the host CPU; run "
                          "the programs on the VTA simulator")),
    cl::cat(category));
enum class VTAHost { Compiled, Evaluator };
static cl::opt<VTAHost> vtaHost(
    "vta-host", cl::init(VTAHost::Compiled),
    cl::desc("With --target=vta-sim: how the host code around the launches "
             "runs"),
    cl::values(clEnumValN(VTAHost::Compiled, "compiled",
                          "compiled with --raf-cpu-pipeline, the launches "
                          "calling the VTA runtime (default)"),
               clEnumValN(VTAHost::Evaluator, "evaluator",
                          "on the reference evaluator (for functions the CPU "
                          "pipeline does not compile, e.g. tuples or closures "
                          "held in references)")),
    cl::cat(category));
static cl::opt<int64_t> vtaRequantShift(
    "vta-requant-shift", cl::init(-1),
    cl::desc("With --target=vta-sim: requantise every packed kernel's result "
             "on VTA to clip(acc >> shift, -128, 127) (0-15), which changes "
             "what the function computes; -1 (default) keeps exact int32"),
    cl::value_desc("shift"), cl::cat(category));
static cl::list<std::string>
    inputFiles("input",
               cl::desc("An argument as a .npy file, in argument order "
                        "(without any, arguments are seeded random data)"),
               cl::value_desc("file.npy"), cl::cat(category));
static cl::list<std::string>
    outputFiles("output",
                cl::desc("Write a result to a .npy file, in result order "
                         "(tuple results are flattened depth first)"),
                cl::value_desc("file.npy"), cl::cat(category));
static cl::opt<bool> printResults(
    "print-results",
    cl::desc("Print the results (default when no --output is given)"),
    cl::cat(category));
static cl::opt<uint64_t> seed("seed", cl::init(0),
                              cl::desc("Seed of the random arguments"),
                              cl::cat(category));
static cl::list<double> randomRange(
    "random-range", cl::CommaSeparated,
    cl::desc("Range [low,high) of random float arguments (default -1,1); "
             "e.g. 0.1,1 keeps variances and square roots positive"),
    cl::value_desc("low,high"), cl::cat(category));
static cl::opt<unsigned>
    repeat("repeat", cl::init(0),
           cl::desc("Also time this many further runs and print the median, "
                    "minimum and maximum wall time"),
           cl::cat(category));
/// --threads is created in main: libLLVM registers a hidden global option of
/// that name (an int, unrelated to raf-run), which has to be removed first.
static cl::opt<unsigned> *threads = nullptr;
static cl::opt<std::string> compileCache(
    "compile-cache",
    cl::desc("Directory of compiled code reused by later runs of the same "
             "module, entry and options (cpu); default $RAF_COMPILE_CACHE, "
             "$XDG_CACHE_HOME/raf-mlir or ~/.cache/raf-mlir"),
    cl::value_desc("dir"), cl::cat(category));
static cl::opt<unsigned> compileThreads(
    "compile-threads", cl::init(0),
    cl::desc("Threads that optimise and compile the kernels with LLVM (cpu): "
             "0 (default) uses every core this process may run on; the code "
             "is the same for every count"),
    cl::value_desc("n"), cl::cat(category));
static cl::opt<bool> noCompileCache(
    "no-compile-cache",
    cl::desc("Compile without reading or writing the compile cache"),
    cl::cat(category));
static cl::opt<unsigned> optLevel("O", cl::init(3), cl::Prefix,
                                  cl::desc("LLVM optimisation level (cpu)"),
                                  cl::cat(category));
static cl::opt<std::string> pipelineOptions(
    "pipeline-options", cl::init(""),
    cl::desc("Options of --raf-cpu-pipeline, e.g. \"vectorize=0 fuse=0\""),
    cl::cat(category));
static cl::opt<bool> verifyEach(
    "verify-each",
    cl::desc("Verify the module after every pass of --raf-cpu-pipeline "
             "(default: once, after the last pass)"),
    cl::cat(category));
static cl::opt<bool> dumpLLVMDialect(
    "print-lowered", cl::desc("Print the module after --raf-cpu-pipeline"),
    cl::cat(category));
static cl::opt<bool> printPeakMemory(
    "print-peak-memory",
    cl::desc("Print the peak of live tensor buffer bytes the evaluator "
             "measured, and the op where it occurred (interp)"),
    cl::cat(category));
static cl::opt<unsigned> numRanks(
    "ranks", cl::init(1),
    cl::desc("With --target=interp: run the function as this many simulated "
             "ranks of a data-parallel program, one thread each; `%r` in "
             "--input/--output paths is replaced by the rank, and random "
             "arguments use seed + rank"),
    cl::value_desc("n"), cl::cat(category));
static cl::opt<bool> printMemoryTrace(
    "print-memory-trace",
    cl::desc("Print the live tensor buffer bytes after every op of the "
             "entry function (interp)"),
    cl::cat(category));

namespace {

/// Flattens tuple results depth first.
void flatten(const RuntimeValue &value, SmallVectorImpl<HostTensor> &out,
             bool &sawNonTensor) {
  if (const HostTensor *tensor = value.getTensor()) {
    out.push_back(*tensor);
    return;
  }
  if (const auto *elements = value.getTupleElements()) {
    for (const RuntimeValue &element : *elements)
      flatten(element, out, sawNonTensor);
    return;
  }
  sawNonTensor = true;
}

/// `file:line:col` of the first file location in `location` (through names,
/// call sites and fused locations), else MLIR's form of it (`loc(unknown)`).
std::string formatLocation(LocationAttr location) {
  if (!location)
    return "unknown";
  std::string text;
  llvm::raw_string_ostream os(text);
  location.walk([&](Location inner) {
    if (auto file = dyn_cast<FileLineColLoc>(inner)) {
      os << file.getFilename().getValue() << ":" << file.getLine() << ":"
         << file.getColumn();
      return WalkResult::interrupt();
    }
    return WalkResult::advance();
  });
  if (text.empty())
    os << location;
  return text;
}

/// The memory report of --print-memory-trace and --print-peak-memory. The
/// formats are parsed by tests and benchmarks: keep them stable.
void printMemoryReport(const MemoryStats &stats) {
  if (printMemoryTrace)
    for (auto [index, sample] : llvm::enumerate(stats.trace))
      llvm::outs() << "memory-trace: " << index << " " << sample.op->getName()
                   << " " << formatLocation(sample.op->getLoc()) << " "
                   << sample.liveBytes << "\n";
  if (printPeakMemory)
    llvm::outs() << "peak live buffer bytes: " << stats.peakBytes << " ("
                 << llvm::format("%.2f", stats.peakBytes / 1048576.0)
                 << " MiB) at " << formatLocation(stats.peakLocation) << "\n";
}

/// Collects the tensor types of the function's arguments, in order.
LogicalResult getArgumentTypes(func::FuncOp function,
                               SmallVectorImpl<RankedTensorType> &types) {
  for (auto [index, type] : llvm::enumerate(function.getArgumentTypes())) {
    auto tensorType = dyn_cast<RankedTensorType>(type);
    if (!tensorType || !tensorType.hasStaticShape() ||
        !dtypeFromMLIR(tensorType.getElementType()))
      return emitError(function.getLoc())
             << "argument #" << index << " has type " << type
             << "; raf-run passes only statically shaped tensors of bool, "
                "integer or float elements";
    types.push_back(tensorType);
  }
  return success();
}

/// `path` with every `%r` replaced by `rank`.
std::string pathForRank(StringRef path, unsigned rank) {
  std::string result;
  for (size_t i = 0; i < path.size(); ++i) {
    if (path[i] == '%' && i + 1 < path.size() && path[i + 1] == 'r') {
      result += std::to_string(rank);
      ++i;
      continue;
    }
    result += path[i];
  }
  return result;
}

FailureOr<SmallVector<HostTensor>>
prepareArguments(func::FuncOp function, ArrayRef<RankedTensorType> types,
                 unsigned rank = 0) {
  SmallVector<HostTensor> arguments;
  if (inputFiles.empty()) {
    double low = -1.0, high = 1.0;
    if (!randomRange.empty()) {
      if (randomRange.size() != 2 || !(randomRange[0] < randomRange[1]))
        return emitError(function.getLoc())
               << "--random-range takes two numbers low,high with low < high";
      low = randomRange[0];
      high = randomRange[1];
    }
    if (!std::isfinite(low) || !std::isfinite(high))
      return emitError(function.getLoc())
             << "--random-range bounds must be finite numbers";
    std::mt19937_64 generator(seed + rank);
    for (auto [index, type] : llvm::enumerate(types))
      if (std::optional<std::string> problem = HostTensor::checkAllocatable(
              *dtypeFromMLIR(type.getElementType()), type.getShape()))
        return emitError(function.getLoc())
               << "cannot create argument #" << index << ": " << *problem;
    for (RankedTensorType type : types)
      arguments.push_back(HostTensor::random(
          *dtypeFromMLIR(type.getElementType()), type.getShape(), generator,
          low, high));
    return arguments;
  }
  if (!randomRange.empty())
    return emitError(function.getLoc())
           << "--random-range applies to random arguments; it cannot be "
              "combined with --input";
  if (inputFiles.size() != types.size())
    return emitError(function.getLoc())
           << "@" << function.getSymName() << " takes " << types.size()
           << " argument(s) but " << inputFiles.size()
           << " --input file(s) were given";
  for (auto [index, pattern] : llvm::enumerate(inputFiles)) {
    std::string path = pathForRank(pattern, rank);
    llvm::Expected<HostTensor> tensor = readNpy(path);
    if (!tensor)
      return emitError(function.getLoc())
             << "cannot read argument #" << index << ": "
             << llvm::toString(tensor.takeError());
    if (tensor->getType(function.getContext()) != types[index])
      return emitError(function.getLoc())
             << "argument #" << index << " from '" << path << "' is "
             << tensor->getTypeString() << " but @" << function.getSymName()
             << " expects " << types[index];
    arguments.push_back(std::move(*tensor));
  }
  return arguments;
}

/// Runs `body` once, then `repeat` more times, and reports the times the
/// body measured itself (so that preparing arguments and results stays
/// outside the timing). When `cpuMilliseconds` is given, the body appends
/// its call's thread CPU time there on every run, and the line also gives
/// the timed runs' median and minimum of those.
template <typename Fn>
LogicalResult runTimed(Fn body,
                       const SmallVectorImpl<double> *cpuMilliseconds = nullptr) {
  if (failed(body()))
    return failure();
  if (repeat == 0)
    return success();
  SmallVector<double> milliseconds;
  for (unsigned i = 0; i < repeat; ++i) {
    FailureOr<double> elapsed = body();
    if (failed(elapsed))
      return failure();
    milliseconds.push_back(*elapsed);
  }
  llvm::sort(milliseconds);
  llvm::outs() << llvm::format(
      "timing: runs=%u median-ms=%.3f min-ms=%.3f max-ms=%.3f",
      (unsigned)repeat, milliseconds[milliseconds.size() / 2],
      milliseconds.front(), milliseconds.back());
  if (cpuMilliseconds && cpuMilliseconds->size() > repeat) {
    SmallVector<double> cpu(cpuMilliseconds->end() - repeat,
                            cpuMilliseconds->end());
    llvm::sort(cpu);
    llvm::outs() << llvm::format(" cpu-median-ms=%.3f cpu-min-ms=%.3f",
                                 cpu[cpu.size() / 2], cpu.front());
  }
  llvm::outs() << "\n";
  return success();
}

/// Time the compiled code spends inside the MPI library in one call of the
/// entry: every MPI function the collectives' lowering calls is resolved to
/// a wrapper that times the library's function around the call (no PMPI
/// interposition). *Blocked* is the time in the calls that wait for the
/// other processes (MPI_Wait and the blocking collectives); the rest is
/// spent starting non-blocking collectives.
struct MPICallStats {
  unsigned calls = 0;
  double milliseconds = 0;
  double blockedMilliseconds = 0;
};
static MPICallStats mpiCallStats;

/// The library's functions behind the wrappers, indexed as
/// `timedMPIFunctions`.
static void *mpiLibraryFunctions[8];

template <unsigned Index, bool Blocks, typename... Args>
static int callTimedMPIFunction(Args... args) {
  auto start = std::chrono::steady_clock::now();
  int status =
      reinterpret_cast<int (*)(Args...)>(mpiLibraryFunctions[Index])(args...);
  double milliseconds = std::chrono::duration<double, std::milli>(
                            std::chrono::steady_clock::now() - start)
                            .count();
  ++mpiCallStats.calls;
  mpiCallStats.milliseconds += milliseconds;
  if (Blocks)
    mpiCallStats.blockedMilliseconds += milliseconds;
  return status;
}

/// The MPI functions compiled collectives call (MPI 4.0 signatures with
/// OpenMPI's handles, all pointers), and their timing wrappers.
using Ptr = void *;
static const std::pair<const char *, void *> timedMPIFunctions[] = {
    {"MPI_Allreduce",
     reinterpret_cast<void *>(
         &callTimedMPIFunction<0, true, Ptr, Ptr, int, Ptr, Ptr, Ptr>)},
    {"MPI_Iallreduce",
     reinterpret_cast<void *>(
         &callTimedMPIFunction<1, false, Ptr, Ptr, int, Ptr, Ptr, Ptr, Ptr>)},
    {"MPI_Reduce_scatter_block",
     reinterpret_cast<void *>(
         &callTimedMPIFunction<2, true, Ptr, Ptr, int, Ptr, Ptr, Ptr>)},
    {"MPI_Ireduce_scatter_block",
     reinterpret_cast<void *>(
         &callTimedMPIFunction<3, false, Ptr, Ptr, int, Ptr, Ptr, Ptr, Ptr>)},
    {"MPI_Allgather",
     reinterpret_cast<void *>(
         &callTimedMPIFunction<4, true, Ptr, int, Ptr, Ptr, int, Ptr, Ptr>)},
    {"MPI_Iallgather",
     reinterpret_cast<void *>(&callTimedMPIFunction<5, false, Ptr, int, Ptr,
                                                    Ptr, int, Ptr, Ptr, Ptr>)},
    {"MPI_Bcast", reinterpret_cast<void *>(
                      &callTimedMPIFunction<6, true, Ptr, int, Ptr, int, Ptr>)},
    {"MPI_Wait",
     reinterpret_cast<void *>(&callTimedMPIFunction<7, true, Ptr, Ptr>)},
};
static_assert(std::size(timedMPIFunctions) ==
              std::size(mpiLibraryFunctions));

/// The MPI library of a run under mpirun (--target=cpu with collectives):
/// loaded at run time so that the compiled code's MPI calls resolve to it,
/// initialised before the run and finalised when raf-run exits. Handles are
/// OpenMPI's, the implementation --raf-lower-collectives-to-mpi selects.
struct MPIProcess {
  using InitFn = int (*)(int *, char ***);
  using CommQueryFn = int (*)(void *, int *);
  using FinalizeFn = int (*)();
  FinalizeFn finalize = nullptr;
  unsigned rank = 0;
  unsigned size = 1;

  LogicalResult init(ModuleOp module, func::FuncOp entry) {
    std::string error;
    if (llvm::sys::DynamicLibrary::LoadLibraryPermanently("libmpi.so.40",
                                                          &error) &&
        llvm::sys::DynamicLibrary::LoadLibraryPermanently("libmpi.so",
                                                          &error))
      return emitError(module.getLoc())
             << "collectives on --target=cpu need OpenMPI's libmpi "
                "(scripts/install-deps.sh): "
             << error;
    auto symbol = [](const char *name) {
      return llvm::sys::DynamicLibrary::SearchForAddressOfSymbol(name);
    };
    auto initFn = reinterpret_cast<InitFn>(symbol("MPI_Init"));
    auto rankFn = reinterpret_cast<CommQueryFn>(symbol("MPI_Comm_rank"));
    auto sizeFn = reinterpret_cast<CommQueryFn>(symbol("MPI_Comm_size"));
    void *world = symbol("ompi_mpi_comm_world");
    // Kept in a local until MPI_Init succeeded: the destructor finalizes
    // whenever `finalize` is set, and MPI_Finalize without MPI_Init is an
    // error that aborts OpenMPI.
    auto finalizeFn = reinterpret_cast<FinalizeFn>(symbol("MPI_Finalize"));
    if (!initFn || !rankFn || !sizeFn || !world || !finalizeFn)
      return emitError(module.getLoc())
             << "the loaded MPI library is not OpenMPI (no MPI_Init, "
                "MPI_Comm_rank, MPI_Comm_size, MPI_Finalize or "
                "ompi_mpi_comm_world)";
    for (auto [index, function] : llvm::enumerate(timedMPIFunctions))
      if (!(mpiLibraryFunctions[index] = symbol(function.first)))
        return emitError(module.getLoc())
               << "the loaded MPI library has no " << function.first;
    int value = 0;
    if (callUnchecked([&] { return initFn(nullptr, nullptr); }) != 0)
      return emitError(module.getLoc()) << "MPI_Init failed";
    finalize = finalizeFn;
    rankFn(world, &value);
    rank = value;
    sizeFn(world, &value);
    size = value;
    // Every collective the entry may run (in it or in a function it
    // references) must span exactly the processes mpirun started.
    SmallVector<func::FuncOp> worklist = {entry};
    llvm::SmallPtrSet<Operation *, 8> reached = {entry};
    WalkResult walk = WalkResult::advance();
    while (!worklist.empty() && !walk.wasInterrupted())
      walk = worklist.pop_back_val().walk([&](Operation *op) {
      for (NamedAttribute attribute : op->getAttrs())
        if (auto symbol = dyn_cast<FlatSymbolRefAttr>(attribute.getValue()))
          if (auto callee = module.lookupSymbol<func::FuncOp>(symbol))
            if (reached.insert(callee).second)
              worklist.push_back(callee);
      auto worldSize = op->getAttrOfType<IntegerAttr>("world_size");
      if (!op->getName().getStringRef().starts_with("relay.comm.") ||
          !worldSize || worldSize.getInt() == static_cast<int64_t>(size))
        return WalkResult::advance();
      op->emitError("'") << op->getName() << "' has world_size "
                         << worldSize.getInt() << " but mpirun started "
                         << size << (size == 1 ? " process" : " processes");
      return WalkResult::interrupt();
    });
    return failure(walk.wasInterrupted());
  }

  ~MPIProcess() {
    if (!finalize)
      return;
#if LLVM_ADDRESS_SANITIZER_BUILD
    // The sanitizer build (docs/fuzzing.md) checks for leaks here, while
    // OpenMPI's components are still loaded and its blocks can be suppressed
    // by module (__lsan_default_suppressions below); MPI_Finalize unloads
    // them, and the check at exit, which this one replaces, could then no
    // longer tell their leaks from ours.
    __lsan_do_leak_check();
#endif
    finalize();
  }

  /// Calls MPI_Init. On the sanitizer build LeakSanitizer ignores what it
  /// allocates on this thread: OpenMPI leaves such blocks behind in
  /// components that MPI_Init itself loads and unloads again, whose frames no
  /// report can name or suppress.
  template <typename Fn> static int callUnchecked(Fn fn) {
#if LLVM_ADDRESS_SANITIZER_BUILD
    __lsan_disable();
    int result = fn();
    __lsan_enable();
    return result;
#else
    return fn();
#endif
  }
};

#if LLVM_ADDRESS_SANITIZER_BUILD
/// LeakSanitizer's suppressions on the sanitizer build: blocks that OpenMPI
/// (its libraries and components, e.g. PMIx's progress thread) leaves
/// unreachable, matched by the module of any frame of their allocation.
extern "C" const char *__lsan_default_suppressions() {
  return "leak:libmpi.so\nleak:libopen-pal.so\nleak:libopen-rte.so\n"
         "leak:libpmix.so\nleak:/openmpi/\n";
}
#endif

/// --ranks=N with N > 1: every rank runs the function on its own arguments
/// on the reference evaluator, and its results are saved to the --output
/// paths with `%r` replaced by the rank and/or printed as `rank R result #i`.
LogicalResult runRanks(ModuleOp module, func::FuncOp function,
                       ArrayRef<RankedTensorType> argumentTypes) {
  if (printPeakMemory || printMemoryTrace || repeat > 0)
    return emitError(module.getLoc())
           << "--print-peak-memory, --print-memory-trace and --repeat are "
              "not supported with --ranks > 1";
  for (const std::string &path : outputFiles)
    if (!StringRef(path).contains("%r"))
      return emitError(module.getLoc())
             << "with --ranks > 1 every --output path must contain %r (the "
                "rank), got '"
             << path << "'";
  SmallVector<SmallVector<RuntimeValue>> perRank;
  for (unsigned rank = 0; rank < numRanks; ++rank) {
    FailureOr<SmallVector<HostTensor>> arguments =
        prepareArguments(function, argumentTypes, rank);
    if (failed(arguments))
      return failure();
    SmallVector<RuntimeValue> values;
    for (HostTensor &tensor : *arguments)
      values.push_back(RuntimeValue(std::move(tensor)));
    perRank.push_back(std::move(values));
  }
  FailureOr<SmallVector<SmallVector<RuntimeValue>>> out =
      runSimulatedRanks(module, entryName, perRank);
  if (failed(out))
    return failure();
  for (auto [rank, values] : llvm::enumerate(*out)) {
    SmallVector<HostTensor> results;
    bool sawNonTensor = false;
    for (const RuntimeValue &value : values)
      flatten(value, results, sawNonTensor);
    if (sawNonTensor)
      return emitError(function.getLoc())
             << "@" << entryName
             << " returned a closure or reference; raf-run can only print and "
                "save tensors and tuples of tensors";
    if (outputFiles.size() > results.size())
      return emitError(function.getLoc())
             << outputFiles.size() << " --output file(s) given but @"
             << entryName << " has " << results.size() << " result tensor(s)";
    for (auto [pattern, tensor] : llvm::zip(outputFiles, results))
      if (llvm::Error error = writeNpy(pathForRank(pattern, rank), tensor))
        return emitError(function.getLoc())
               << llvm::toString(std::move(error));
    for (auto [index, tensor] : llvm::enumerate(results))
      if (printResults || index >= outputFiles.size())
        printTensor(llvm::outs(),
                    "rank " + std::to_string(rank) + " result #" +
                        std::to_string(index),
                    tensor);
  }
  return success();
}

/// --target=vta-sim: compiles the module's packed VTA kernels into
/// launches of assembled programs (--raf-vta-pipeline from packed kernels: a
/// kernel's own #vta.schedule is kept), and, for compiled host code, the
/// launches into calls of the VTA runtime.
LogicalResult compileForVTA(ModuleOp module, bool compiledHost) {
  // A requantisation shift is compiled into the programs: launches compiled
  // before cannot take one.
  if (vtaRequantShift >= 0) {
    WalkResult walk = module.walk([](raf::vta::LaunchOp launch) {
      launch.emitError("this launch was compiled before; a requantisation "
                       "shift applies only to packed kernels compiled now "
                       "(give requant-shift to --convert-tcg-to-vta)");
      return WalkResult::interrupt();
    });
    if (walk.wasInterrupted())
      return failure();
  }
  PassManager pm(module.getContext());
  raf::VTAPipelineOptions options;
  options.embed = false;
  options.requantShift = vtaRequantShift;
  raf::buildVTAPipeline(pm, options);
  if (compiledHost)
    pm.addPass(raf::createConvertVTALaunchToRuntime());
  return pm.run(module);
}

LogicalResult run(ModuleOp module) {
  if (numRanks == 0)
    return emitError(module.getLoc()) << "--ranks must be at least 1";
  if (numRanks > 1 && target != Target::Interp)
    return emitError(module.getLoc())
           << "--ranks simulates ranks on the reference evaluator; use it "
              "with --target=interp (with --target=cpu, start the ranks "
              "with mpirun -np N; docs/data-parallel.md)";
  // Only the evaluator holds one buffer per value; the compiled code's
  // buffers are not observable this way.
  if (target != Target::Interp && (printPeakMemory || printMemoryTrace))
    return emitError(module.getLoc())
           << "--print-peak-memory and --print-memory-trace measure the "
              "reference evaluator's buffers; use them with --target=interp";
  auto function = module.lookupSymbol<func::FuncOp>(entryName);
  if (!function || function.isExternal()) {
    std::string available;
    for (auto candidate : module.getOps<func::FuncOp>())
      if (!candidate.isExternal())
        available += (available.empty() ? "@" : ", @") +
                     candidate.getSymName().str();
    return emitError(module.getLoc()) << "no function @" << entryName << " in '"
                              << inputFilename << "' (functions: "
                              << (available.empty() ? "none" : available)
                              << ")";
  }
  SmallVector<RankedTensorType> argumentTypes;
  if (failed(getArgumentTypes(function, argumentTypes)))
    return failure();
  if (numRanks > 1)
    return runRanks(module, function, argumentTypes);
  // Collectives run on the evaluator's simulated ranks, and on the CPU as
  // MPI processes (mpirun -np N raf-run --target=cpu).
  Operation *collective = nullptr;
  module.walk([&](Operation *op) {
    if (!op->getName().getStringRef().starts_with("relay.comm."))
      return WalkResult::advance();
    collective = op;
    return WalkResult::interrupt();
  });
  if (collective && target == Target::VTASim)
    return collective->emitError("'")
           << collective->getName()
           << "' does not run on --target=vta-sim; use --target=interp "
              "--ranks=N or --target=cpu under mpirun (docs/data-parallel.md)";
  std::optional<MPIProcess> mpi;
  if (collective && target == Target::CPU) {
    mpi.emplace();
    if (failed(mpi->init(module, function)))
      return failure();
  }
  unsigned rank = mpi ? mpi->rank : 0;
  std::string resultPrefix =
      mpi && mpi->size > 1 ? "rank " + std::to_string(rank) + " " : "";
  FailureOr<SmallVector<HostTensor>> arguments =
      prepareArguments(function, argumentTypes, rank);
  if (failed(arguments))
    return failure();

  SmallVector<HostTensor> results;
  MemoryStats memoryStats;
  VTAKernelRunner vtaRunner;
  VTARuntime &vtaRuntime = VTARuntime::getGlobal();
  // Wall time of each compiled run outside and inside the launches, and the
  // calling thread's CPU time outside them.
  SmallVector<double> hostMilliseconds, launchMilliseconds,
      hostCPUMilliseconds;
  // The thread CPU time of each call of the compiled code alone (`timing:`
  // prints its median).
  SmallVector<double> callCPUMilliseconds;
  // The MPI calls of each compiled run (under mpirun).
  SmallVector<MPICallStats> mpiRuns;
  bool compiledHost = target == Target::CPU ||
                      (target == Target::VTASim && vtaHost == VTAHost::Compiled);
  // The packed kernels and the host code are compiled once, here; the calls
  // below only run them.
  if (target == Target::VTASim && failed(compileForVTA(module, compiledHost)))
    return failure();
  if (compiledHost) {
    CPURunnerOptions options;
    options.optLevel = optLevel;
    options.pipelineOptions = pipelineOptions;
    options.printLowered = dumpLLVMDialect;
    options.verifyEach = verifyEach;
    options.compileThreads = compileThreads;
    // --print-lowered shows the pipeline's output, which a cache hit skips.
    if (!noCompileCache && !dumpLLVMDialect)
      options.cacheDirectory = compileCache.getNumOccurrences()
                                   ? std::string(compileCache)
                                   : getDefaultCompileCacheDirectory();
    // --threads wins; without it, a `threads=` in --pipeline-options is
    // kept, then OpenMP's OMP_NUM_THREADS, and otherwise every available
    // core is used.
    unsigned fromEnvironment = 0;
    if (const char *value = std::getenv("OMP_NUM_THREADS"))
      (void)StringRef(value).getAsInteger(10, fromEnvironment);
    if (threads->getNumOccurrences() && *threads > 0)
      options.threads = *threads;
    else if (StringRef(pipelineOptions).contains("threads="))
      options.threads = 0;
    else if (fromEnvironment > 0)
      options.threads = fromEnvironment;
    else
      options.threads = getAvailableCores();
    // Launches call the VTA runtime.
    if (target == Target::VTASim)
      options.runtimeSymbols = getVTARuntimeSymbols();
    // Large contractions call OpenBLAS (blas=auto|on); its thread count is
    // the compiled code's, passed with each call. OPENBLAS_CORETYPE and the
    // other OPENBLAS_* variables of the environment are left as they are.
    for (auto &symbol : getBLASRuntimeSymbols())
      options.runtimeSymbols.push_back(symbol);
    // Under mpirun the collectives' MPI calls go through the timing
    // wrappers.
    if (mpi)
      for (auto [name, wrapper] : timedMPIFunctions)
        options.runtimeSymbols.emplace_back(name, wrapper);
    FailureOr<std::unique_ptr<CPURunner>> runner =
        CPURunner::create(module, function, options);
    if (failed(runner))
      return failure();
    if (repeat > 0)
      llvm::outs() << llvm::format(
          "compile: pipeline-ms=%.1f llvm-ms=%.1f cache=%s\n",
          (*runner)->getPipelineMilliseconds(),
          (*runner)->getLLVMMilliseconds(),
          (*runner)->getCacheStatus().str().c_str());
    if (failed(runTimed([&]() -> FailureOr<double> {
          double milliseconds = 0;
          vtaRuntime.resetStats();
          mpiCallStats = MPICallStats();
          double cpuStart = getThreadCPUMilliseconds();
          double callCPU = 0;
          FailureOr<SmallVector<HostTensor>> out =
              (*runner)->run(*arguments, &milliseconds, &callCPU);
          double cpu = getThreadCPUMilliseconds() - cpuStart;
          if (failed(out))
            return failure();
          // A launch cannot return an error to the compiled code: the
          // runtime keeps the first one.
          if (std::optional<std::string> error = vtaRuntime.takeError())
            return emitError(function.getLoc()) << *error;
          results = std::move(*out);
          double launch = vtaRuntime.getStats().launchMilliseconds;
          hostMilliseconds.push_back(std::max(0.0, milliseconds - launch));
          launchMilliseconds.push_back(launch);
          hostCPUMilliseconds.push_back(std::max(
              0.0, cpu - vtaRuntime.getStats().launchCPUMilliseconds));
          mpiRuns.push_back(mpiCallStats);
          callCPUMilliseconds.push_back(callCPU);
          return milliseconds;
        }, &callCPUMilliseconds)))
      return failure();
    // The time in MPI calls of the timed runs (the first, untimed run is
    // left out): the median run's by total time, and the extremes.
    if (mpi && repeat > 0) {
      SmallVector<MPICallStats> timed(std::next(mpiRuns.begin()),
                                      mpiRuns.end());
      llvm::sort(timed, [](const MPICallStats &a, const MPICallStats &b) {
        return a.milliseconds < b.milliseconds;
      });
      const MPICallStats &median = timed[timed.size() / 2];
      llvm::outs() << llvm::format(
          "%smpi: calls=%u median-ms=%.3f blocked-ms=%.3f min-ms=%.3f "
          "max-ms=%.3f\n",
          resultPrefix.c_str(), median.calls, median.milliseconds,
          median.blockedMilliseconds, timed.front().milliseconds,
          timed.back().milliseconds);
    }
    // Which BLAS the timed runs used (bench/cpu records it).
    if (repeat > 0 && wasBLASRuntimeUsed())
      llvm::outs() << "blas: " << getBLASDescription() << "\n";
  } else {
    Interpreter interpreter(module);
    if (target == Target::VTASim)
      interpreter.setKernelOverride(
          VTAKernelRunner::handles,
          [&](Operation *op, KernelOperands operands,
              SmallVectorImpl<HostTensor> &results) {
            return vtaRunner.run(op, operands, results);
          });
    bool measureNextCall = printPeakMemory || printMemoryTrace;
    interpreter.setTrackMemory(measureNextCall, printMemoryTrace);
    SmallVector<RuntimeValue> values;
    for (HostTensor &tensor : *arguments)
      values.push_back(RuntimeValue(tensor));
    if (failed(runTimed([&]() -> FailureOr<double> {
          vtaRunner.resetStats();
          auto start = std::chrono::steady_clock::now();
          FailureOr<SmallVector<RuntimeValue>> out =
              interpreter.run(entryName, values);
          auto stop = std::chrono::steady_clock::now();
          if (failed(out))
            return failure();
          // Only the first call is measured, so --repeat times the evaluator
          // without the sampling.
          if (measureNextCall) {
            memoryStats = interpreter.getMemoryStats();
            interpreter.setTrackMemory(false);
            measureNextCall = false;
          }
          results.clear();
          bool sawNonTensor = false;
          for (const RuntimeValue &value : *out)
            flatten(value, results, sawNonTensor);
          if (sawNonTensor)
            return emitError(function.getLoc())
                   << "@" << entryName
                   << " returned a closure or reference; raf-run can only "
                      "print and save tensors and tuples of tensors";
          return std::chrono::duration<double, std::milli>(stop - start)
              .count();
        })))
      return failure();
  }

  if (outputFiles.size() > results.size())
    return emitError(function.getLoc())
           << outputFiles.size() << " --output file(s) given but @"
           << entryName << " has " << results.size() << " result tensor(s)";
  for (auto [pattern, tensor] : llvm::zip(outputFiles, results))
    if (llvm::Error error = writeNpy(pathForRank(pattern, rank), tensor))
      return emitError(function.getLoc()) << llvm::toString(std::move(error));
  // Results without an --output file are printed, as is everything with
  // --print-results.
  for (auto [index, tensor] : llvm::enumerate(results))
    if (printResults || index >= outputFiles.size())
      printTensor(llvm::outs(),
                  resultPrefix + "result #" + std::to_string(index), tensor);
  if (target == Target::Interp)
    printMemoryReport(memoryStats);
  if (target == Target::VTASim) {
    VTARunStats stats =
        compiledHost ? vtaRuntime.getStats() : vtaRunner.getStats();
    llvm::outs() << "vta-sim: kernels=" << stats.kernels
                 << " cycles=" << stats.cycles
                 << " instructions=" << stats.instructions
                 << " uops=" << stats.uops;
    // The compiled host code's own time: a run's wall time without the time
    // spent inside the runtime's launches; with --repeat, the medians of the
    // timed runs (the first, untimed run is left out).
    if (compiledHost && !hostMilliseconds.empty()) {
      auto median = [](SmallVector<double> values, size_t skip) {
        values.erase(values.begin(), values.begin() + skip);
        llvm::sort(values);
        return values[values.size() / 2];
      };
      size_t skip = hostMilliseconds.size() > 1 ? 1 : 0;
      // host-cpu-ms: the same on the thread's CPU clock (with --threads=1
      // the host code runs on this thread), which waiting for a core on a
      // loaded machine does not inflate; it also counts run()'s argument
      // copies and result allocation around the call.
      llvm::outs() << llvm::format(
          " host-ms=%.3f launch-ms=%.3f host-cpu-ms=%.3f",
          median(hostMilliseconds, skip), median(launchMilliseconds, skip),
          median(hostCPUMilliseconds, skip));
    }
    llvm::outs() << "\n";
  }
  return success();
}

} // namespace

static int runTool();

int main(int argc, char **argv) {
  llvm::InitLLVM initLLVM(argc, argv);
  registerAsmPrinterCLOptions();
  registerMLIRContextCLOptions();
  // --mlir-timing: the time of each pass of the CPU pipeline;
  // --mlir-print-ir-*: its IR between passes.
  registerPassManagerCLOptions();
  registerDefaultTimingManagerCLOptions();
  if (cl::Option *llvmThreads = cl::getRegisteredOptions().lookup("threads"))
    llvmThreads->removeArgument();
  static cl::opt<unsigned> threadsOption(
      "threads", cl::init(0),
      cl::desc("Threads of the compiled code (cpu): 0 (default) uses "
               "OMP_NUM_THREADS if set, else every core this process may run "
               "on; 1 runs single threaded"),
      cl::value_desc("n"), cl::cat(category));
  threads = &threadsOption;
  raf::registerResourceLimitOptions(
      {raf::ResourceLimit::AllocationBytes, raf::ResourceLimit::DRAMBytes,
       raf::ResourceLimit::NestingDepth},
      &category);
  cl::HideUnrelatedOptions(category);
  cl::ParseCommandLineOptions(
      argc, argv,
      "raf-run: run a function of a RAF-MLIR module on the host CPU (LLVM "
      "JIT) or on the relay reference evaluator\n\n"
      "  raf-run model.mlir --entry=main --input=x.npy --output=y.npy\n");
  return raf::runOnParserStack(runTool);
}

static int runTool() {
  DialectRegistry registry;
  // The vta dialects: kernels carry #vta.schedule, and a module lowered by
  // --convert-tcg-to-vta holds its programs beside the functions.
  registry.insert<raf::relay::RelayDialect, raf::tcg::TCGDialect,
                  raf::vta::VTADialect, raf::vta_isa::VTAISADialect,
                  arith::ArithDialect,
                  func::FuncDialect, linalg::LinalgDialect, math::MathDialect,
                  memref::MemRefDialect, scf::SCFDialect,
                  tensor::TensorDialect>();
  registerCPURunnerDialects(registry);
  MLIRContext context(registry);
  // Diagnostics carry locations; dumping whole lowered modules into them
  // buries the message.
  context.printOpOnDiagnostic(false);

  std::string errorMessage;
  std::unique_ptr<llvm::MemoryBuffer> file =
      openInputFile(inputFilename, &errorMessage);
  if (!file) {
    llvm::errs() << "raf-run: " << errorMessage << "\n";
    return 1;
  }
  llvm::SourceMgr sourceMgr;
  sourceMgr.AddNewSourceBuffer(std::move(file), llvm::SMLoc());
  if (!raf::checkMLIRSource(*sourceMgr.getMemoryBuffer(1)))
    return 1;
  SourceMgrDiagnosticHandler diagnostics(sourceMgr, &context);
  OwningOpRef<ModuleOp> module = parseSourceFile<ModuleOp>(sourceMgr, &context);
  if (!module)
    return 1;
  return failed(run(*module)) ? 1 : 0;
}
