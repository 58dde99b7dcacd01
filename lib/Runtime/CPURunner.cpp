//===- CPURunner.cpp - compile and run a function on the host CPU ---------===//

#include "raf/Runtime/CPURunner.h"

#include "raf/Pipelines/CPUPipeline.h"
#include "raf/Support/AllocationLimit.h"

#include "mlir/ExecutionEngine/ExecutionEngine.h"
#include "mlir/ExecutionEngine/OptUtils.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Pass/PassManager.h"

#include "llvm/ADT/StringSet.h"
#include "llvm/ExecutionEngine/Orc/JITTargetMachineBuilder.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/TargetSelect.h"
#include "llvm/Target/TargetMachine.h"

#include <algorithm>
#include <chrono>
#include <thread>
#include <cstdlib>

#if defined(__GLIBC__)
#include <malloc.h>
#endif
#if defined(__linux__)
#include <sched.h>
#endif

using namespace mlir;
using namespace raf::runtime;

void raf::runtime::registerCPURunnerDialects(DialectRegistry &registry) {
  raf::registerCPUPipelineDialects(registry);
}

CPURunner::~CPURunner() = default;

unsigned raf::runtime::getAvailableCores() {
#if defined(__linux__)
  cpu_set_t set;
  if (sched_getaffinity(0, sizeof(set), &set) == 0)
    return std::max(1, CPU_COUNT(&set));
#endif
  return std::max(1u, std::thread::hardware_concurrency());
}

/// LLVM's DAG combiner merges adjacent stores by comparing every pair of
/// stores to a base in a block: quadratic in the stores of the large entry
/// blocks a model's entry function has after inlining (a memref descriptor
/// per weight). On ResNet-50 that took 18 of 20 s of code generation; the
/// kernels' own stores are vector stores with nothing to merge.
static void disableStoreMerging() {
  if (llvm::cl::Option *option =
          llvm::cl::getRegisteredOptions().lookup("combiner-store-merging"))
    if (option->getNumOccurrences() == 0)
      (void)option->addOccurrence(0, option->ArgStr, "false");
}

/// Compiled code allocates its intermediate buffers with malloc on every
/// call. glibc serves large blocks with mmap and returns them with munmap, so
/// each call would page-fault and zero every intermediate again (a third of
/// a ResNet-18 forward pass). Keeping freed memory in the heap lets the next
/// call reuse it, like a framework's caching allocator.
static void keepFreedBuffersForReuse() {
#if defined(__GLIBC__)
  mallopt(M_MMAP_THRESHOLD, 32 << 20); // glibc's maximum on 64-bit
  mallopt(M_TRIM_THRESHOLD, 1 << 30);
#endif
}

/// Compiled code allocates through these (checked-allocations=1): a size
/// beyond the allocation limit, or memory the system refuses, ends the
/// process with a message and exit code 1 rather than a write through a
/// null pointer. Compile time already rejected static sizes beyond the limit
/// at their operation; what is left here are dynamic sizes and a machine
/// whose free memory is smaller than its physical memory.
[[noreturn]] static void failAllocation(uint64_t bytes, const char *reason) {
  llvm::errs() << "error: compiled code cannot allocate " << bytes
               << " bytes: " << reason << "\n";
  llvm::errs().flush();
  std::_Exit(1);
}

extern "C" void *rafCheckedAlloc(uint64_t bytes) {
  if (std::optional<std::string> problem = raf::checkAllocationSize(bytes))
    failAllocation(bytes, problem->c_str());
  void *pointer = std::malloc(bytes);
  if (!pointer && bytes != 0)
    failAllocation(bytes, "out of memory");
  return pointer;
}

extern "C" void rafCheckedFree(void *pointer) { std::free(pointer); }

/// Erases every function the entry cannot reach through symbol uses, so a
/// module may hold functions only the reference evaluator runs (closures,
/// tuples) next to the ones compiled for the CPU.
static void keepOnlyReachableFunctions(ModuleOp module, StringRef entry) {
  llvm::StringSet<> reachable;
  SmallVector<func::FuncOp> worklist;
  if (auto root = module.lookupSymbol<func::FuncOp>(entry)) {
    reachable.insert(entry);
    worklist.push_back(root);
  }
  while (!worklist.empty()) {
    func::FuncOp current = worklist.pop_back_val();
    std::optional<SymbolTable::UseRange> uses =
        SymbolTable::getSymbolUses(current.getOperation());
    if (!uses)
      continue;
    for (const SymbolTable::SymbolUse &use : *uses) {
      StringRef name = use.getSymbolRef().getRootReference().getValue();
      if (!reachable.insert(name).second)
        continue;
      if (auto callee = module.lookupSymbol<func::FuncOp>(name))
        worklist.push_back(callee);
    }
  }
  for (auto candidate :
       llvm::make_early_inc_range(module.getOps<func::FuncOp>()))
    if (!reachable.contains(candidate.getSymName()))
      candidate.erase();
}

FailureOr<std::unique_ptr<CPURunner>>
CPURunner::create(ModuleOp module, func::FuncOp function,
                  const CPURunnerOptions &options) {
  std::unique_ptr<CPURunner> runner(new CPURunner());
  runner->location = function.getLoc();
  runner->symbol = ("_mlir_ciface_" + function.getSymName()).str();
  for (Type type : function.getArgumentTypes())
    runner->argumentTypes.push_back(cast<RankedTensorType>(type));
  for (auto [index, type] : llvm::enumerate(function.getResultTypes())) {
    auto tensorType = dyn_cast<RankedTensorType>(type);
    if (!tensorType || !tensorType.hasStaticShape() ||
        !dtypeFromMLIR(tensorType.getElementType()))
      return emitError(function.getLoc())
             << "result #" << index << " has type " << type
             << "; --target=cpu returns only statically shaped tensors "
                "(tuples, closures and references run on --target=interp)";
    if (std::optional<std::string> problem = HostTensor::checkAllocatable(
            *dtypeFromMLIR(tensorType.getElementType()),
            tensorType.getShape()))
      return emitError(function.getLoc())
             << "cannot allocate result #" << index << ": " << *problem;
    runner->resultTypes.push_back(tensorType);
  }
  if (function.isPrivate())
    return emitError(function.getLoc())
           << "@" << function.getSymName()
           << " is private; only public functions can be called";

  OwningOpRef<ModuleOp> lowered = module.clone();
  keepOnlyReachableFunctions(*lowered, function.getSymName());
  PassManager pm(module.getContext());
  CPUPipelineOptions pipelineOptions;
  if (failed(pipelineOptions.parseFromString(options.pipelineOptions)))
    return emitError(function.getLoc())
           << "invalid --pipeline-options '" << options.pipelineOptions << "'";
  pipelineOptions.checkedAllocations = true;
  if (options.threads > 0)
    pipelineOptions.threads = options.threads;
  buildCPUPipeline(pm, pipelineOptions);
  auto pipelineStart = std::chrono::steady_clock::now();
  LogicalResult lowering = pm.run(*lowered);
  auto llvmStart = std::chrono::steady_clock::now();
  runner->pipelineMilliseconds =
      std::chrono::duration<double, std::milli>(llvmStart - pipelineStart)
          .count();
  if (failed(lowering))
    return emitError(function.getLoc())
           << "compiling for the CPU failed (see the errors above)";
  if (options.printLowered)
    lowered->print(llvm::errs());

  keepFreedBuffersForReuse();
  disableStoreMerging();
  llvm::InitializeNativeTarget();
  llvm::InitializeNativeTargetAsmPrinter();
  auto machineBuilder = llvm::orc::JITTargetMachineBuilder::detectHost();
  if (!machineBuilder)
    return emitError(function.getLoc()) << "cannot detect the host CPU: "
                              << llvm::toString(machineBuilder.takeError());
  auto machine = machineBuilder->createTargetMachine();
  if (!machine)
    return emitError(function.getLoc()) << "cannot create a target machine: "
                              << llvm::toString(machine.takeError());
  // The optimiser runs when the engine compiles, after this function's
  // locals are gone: the runner owns the machine it queries.
  runner->optimizationMachine = std::move(*machine);
  auto transformer = makeOptimizingTransformer(
      options.optLevel, 0, runner->optimizationMachine.get());
  ExecutionEngineOptions engineOptions;
  engineOptions.transformer = transformer;
  // memref.copy of non-contiguous views lowers to a call of `memrefCopy`
  // from MLIR's C runner utilities.
  SmallVector<llvm::StringRef> runtimeLibraries = {RAF_MLIR_C_RUNNER_UTILS};
  // Parallel loops call the OpenMP runtime (__kmpc_fork_call, ...).
  if (pipelineOptions.threads > 1)
    runtimeLibraries.push_back(RAF_OPENMP_RUNTIME);
  engineOptions.sharedLibPaths = runtimeLibraries;
  engineOptions.jitCodeGenOptLevel =
      static_cast<llvm::CodeGenOptLevel>(std::min(options.optLevel, 3u));
  auto engine = ExecutionEngine::create(*lowered, engineOptions);
  if (!engine)
    return emitError(function.getLoc()) << "JIT compilation failed: "
                              << llvm::toString(engine.takeError());
  (*engine)->registerSymbols([](llvm::orc::MangleAndInterner interner) {
    llvm::orc::SymbolMap symbols;
    symbols[interner("_mlir_memref_to_llvm_alloc")] = {
        llvm::orc::ExecutorAddr::fromPtr(&rafCheckedAlloc),
        llvm::JITSymbolFlags::Exported};
    symbols[interner("_mlir_memref_to_llvm_free")] = {
        llvm::orc::ExecutorAddr::fromPtr(&rafCheckedFree),
        llvm::JITSymbolFlags::Exported};
    return symbols;
  });
  runner->engine = std::move(*engine);
  // Optimise and generate code now, so that compile errors surface here and
  // the first call is timed like the others.
  if (auto entry = runner->engine->lookupPacked(runner->symbol); !entry)
    return emitError(function.getLoc()) << "JIT compilation failed: "
                              << llvm::toString(entry.takeError());
  runner->llvmMilliseconds = std::chrono::duration<double, std::milli>(
                                 std::chrono::steady_clock::now() - llvmStart)
                                 .count();
  return runner;
}

namespace {
/// A memref descriptor of any rank, laid out as MLIR's C interface expects:
/// {allocated, aligned, offset, sizes[rank], strides[rank]}.
struct Descriptor {
  SmallVector<int64_t> words;

  explicit Descriptor(HostTensor &tensor) {
    auto pointer = reinterpret_cast<int64_t>(tensor.data());
    words = {pointer, pointer, 0};
    llvm::append_range(words, tensor.getShape());
    llvm::append_range(words, tensor.getStrides());
  }
};
} // namespace

FailureOr<SmallVector<HostTensor>>
CPURunner::run(ArrayRef<HostTensor> arguments, double *callMilliseconds) {
  if (arguments.size() != argumentTypes.size())
    return emitError(location) << "expected " << argumentTypes.size()
                               << " arguments, got " << arguments.size();
  MLIRContext *context = location.getContext();
  // Copies: compiled code may use an argument buffer as scratch space.
  SmallVector<HostTensor> buffers(arguments.begin(), arguments.end());
  for (auto [index, buffer] : llvm::enumerate(buffers))
    if (buffer.getType(context) != argumentTypes[index])
      return emitError(location)
             << "argument #" << index << " is " << buffer.getTypeString()
             << " but the function expects " << argumentTypes[index];
  SmallVector<HostTensor> results;
  for (RankedTensorType type : resultTypes)
    results.emplace_back(*dtypeFromMLIR(type.getElementType()),
                         type.getShape());

  SmallVector<Descriptor> descriptors;
  for (HostTensor &buffer : buffers)
    descriptors.emplace_back(buffer);
  for (HostTensor &result : results)
    descriptors.emplace_back(result);
  SmallVector<void *> pointers;
  for (Descriptor &descriptor : descriptors)
    pointers.push_back(descriptor.words.data());
  SmallVector<void *> packed;
  for (void *&pointer : pointers)
    packed.push_back(&pointer);
  auto start = std::chrono::steady_clock::now();
  llvm::Error error = engine->invokePacked(symbol, packed);
  auto stop = std::chrono::steady_clock::now();
  if (callMilliseconds)
    *callMilliseconds =
        std::chrono::duration<double, std::milli>(stop - start).count();
  if (error)
    return emitError(location)
           << "calling the compiled function failed: "
           << llvm::toString(std::move(error));
  return results;
}
