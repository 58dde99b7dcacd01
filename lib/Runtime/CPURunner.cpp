//===- CPURunner.cpp - compile and run a function on the host CPU ---------===//

#include "raf/Runtime/CPURunner.h"

#include "raf/Dialect/Relay/Transforms/InplaceUpdate.h"
#include "raf/Pipelines/CPUPipeline.h"
#include "raf/Support/AllocationLimit.h"
#include "raf/Support/ThreadCPUTime.h"

#include "mlir/ExecutionEngine/ExecutionEngine.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/IR/Verifier.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Support/Timing.h"

#include "llvm/ADT/StringSet.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Config/llvm-config.h"
#include "llvm/ExecutionEngine/Orc/ExecutionUtils.h"
#include "llvm/ExecutionEngine/Orc/JITTargetMachineBuilder.h"
#include "llvm/ExecutionEngine/Orc/LLJIT.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/InstrTypes.h"
#include "llvm/Passes/PassBuilder.h"
#include "llvm/Passes/StandardInstrumentations.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/SHA256.h"
#include "llvm/Support/xxhash.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/TargetSelect.h"
#include "llvm/Target/TargetMachine.h"

#include <algorithm>
#include <chrono>
#include <mutex>
#include <unordered_map>
#include <thread>
#include <unistd.h>
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

CPURunner::~CPURunner() { releaseCachedBuffers(); }

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

namespace {
/// Large buffers compiled code frees, kept for its next allocation of the
/// same size: a model allocates the same intermediates on every call, so
/// from the second call on they come back without page faults. malloc alone
/// does not give that here: raf-run runs the compiled code on a thread with
/// its own (non-main) glibc arena, and glibc unmaps such an arena's 64 MiB
/// heaps as soon as they are empty, whatever M_TRIM_THRESHOLD says, so each
/// call faulted its intermediates in again (a sixth of a ResNet-18 training
/// step's CPU time). Like a framework's caching allocator, with a bound on
/// the memory it keeps.
class BufferCache {
public:
  /// Blocks below this size go to malloc directly.
  static constexpr uint64_t kMinBytes = 64 << 10;
  /// At most this much freed memory is kept.
  static constexpr uint64_t kMaxCachedBytes = uint64_t(2) << 30;

  void *take(uint64_t bytes) {
    std::lock_guard<std::mutex> lock(mutex);
    auto it = blocks.find(bytes);
    if (it == blocks.end() || it->second.empty())
      return nullptr;
    void *block = it->second.pop_back_val();
    cachedBytes -= bytes;
    return block;
  }

  /// Keeps `block` of `bytes` bytes; false when the cache is full.
  bool keep(void *block, uint64_t bytes) {
    std::lock_guard<std::mutex> lock(mutex);
    if (cachedBytes + bytes > kMaxCachedBytes)
      return false;
    blocks[bytes].push_back(block);
    cachedBytes += bytes;
    return true;
  }

  void release() {
    std::lock_guard<std::mutex> lock(mutex);
    for (auto &entry : blocks)
      for (void *block : entry.second)
        std::free(block);
    blocks.clear();
    cachedBytes = 0;
  }

private:
  std::mutex mutex;
  std::unordered_map<uint64_t, SmallVector<void *, 2>> blocks;
  uint64_t cachedBytes = 0;
};

BufferCache &getBufferCache() {
  static BufferCache *cache = new BufferCache(); // outlives static teardown
  return *cache;
}

/// Every block starts with a header holding its size, so that a free knows
/// whether the block is cached; 16 bytes keep malloc's alignment.
constexpr uint64_t kHeaderBytes = 16;
} // namespace

extern "C" void *rafCheckedAlloc(uint64_t bytes) {
  if (std::optional<std::string> problem = raf::checkAllocationSize(bytes))
    failAllocation(bytes, problem->c_str());
  if (bytes >= BufferCache::kMinBytes)
    if (void *block = getBufferCache().take(bytes))
      return static_cast<char *>(block) + kHeaderBytes;
  void *block = std::malloc(bytes + kHeaderBytes);
  if (!block)
    failAllocation(bytes, "out of memory");
  *static_cast<uint64_t *>(block) = bytes;
  return static_cast<char *>(block) + kHeaderBytes;
}

extern "C" void rafCheckedFree(void *pointer) {
  if (!pointer)
    return;
  void *block = static_cast<char *>(pointer) - kHeaderBytes;
  uint64_t bytes = *static_cast<uint64_t *>(block);
  if (bytes >= BufferCache::kMinBytes && getBufferCache().keep(block, bytes))
    return;
  std::free(block);
}

void raf::runtime::releaseCachedBuffers() { getBufferCache().release(); }

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

std::string raf::runtime::getDefaultCompileCacheDirectory() {
  if (const char *directory = std::getenv("RAF_COMPILE_CACHE"))
    return directory;
  SmallString<256> path;
  if (const char *xdg = std::getenv("XDG_CACHE_HOME"); xdg && *xdg)
    path = xdg;
  else if (const char *home = std::getenv("HOME"); home && *home)
    llvm::sys::path::append(path, home, ".cache");
  else
    return "";
  llvm::sys::path::append(path, "raf-mlir");
  return std::string(path);
}

/// The allocation functions compiled code calls (checked-allocations=1),
/// and the runtime functions the caller provides.
static llvm::orc::SymbolMap
allocationSymbols(llvm::orc::MangleAndInterner interner,
                  const CPURunnerOptions &options) {
  llvm::orc::SymbolMap symbols;
  for (const auto &[name, address] : options.runtimeSymbols)
    symbols[interner(name)] = {llvm::orc::ExecutorAddr::fromPtr(address),
                               llvm::JITSymbolFlags::Exported};
  symbols[interner("_mlir_memref_to_llvm_alloc")] = {
      llvm::orc::ExecutorAddr::fromPtr(&rafCheckedAlloc),
      llvm::JITSymbolFlags::Exported};
  symbols[interner("_mlir_memref_to_llvm_free")] = {
      llvm::orc::ExecutorAddr::fromPtr(&rafCheckedFree),
      llvm::JITSymbolFlags::Exported};
  return symbols;
}

/// A hash of the running executable: the compiler's passes are linked into
/// it, so a rebuilt compiler never reuses objects of an older one.
static std::string compilerFingerprint() {
  static const std::string fingerprint = [] {
    std::string path = llvm::sys::fs::getMainExecutable(
        nullptr, reinterpret_cast<void *>(&compilerFingerprint));
    auto contents = llvm::MemoryBuffer::getFile(path);
    if (!contents)
      return std::string("unknown-compiler");
    return llvm::utohexstr(llvm::xxh3_64bits((*contents)->getBuffer()));
  }();
  return fingerprint;
}

/// The cache key: everything the generated code depends on.
static std::string cacheKey(ModuleOp module, StringRef entry,
                            const raf::CPUPipelineOptions &pipelineOptions,
                            unsigned optLevel,
                            const llvm::orc::JITTargetMachineBuilder &host) {
  std::string text;
  llvm::raw_string_ostream os(text);
  module->print(os, OpPrintingFlags().printGenericOpForm());
  os << "\nentry=" << entry << "\noptions=";
  pipelineOptions.print(os);
  // The limit decides which static buffers compile at all
  // (--raf-check-allocations), so a hit must not skip that check.
  os << "\nO=" << optLevel << "\nlimit=" << raf::getAllocationLimit()
     << "\ncpu=" << host.getCPU()
     << "\nfeatures=" << host.getFeatures().getString()
     << "\nllvm=" << LLVM_VERSION_STRING
     << "\ncompiler=" << compilerFingerprint();
  std::array<uint8_t, 32> digest =
      llvm::SHA256::hash(llvm::arrayRefFromStringRef(text));
  return llvm::toHex(digest, /*LowerCase=*/true);
}

/// Loads a cached object into a fresh JIT with the same runtime libraries
/// and allocation functions the engine would have; fails on anything it
/// cannot resolve, so the caller compiles instead.
static llvm::Expected<std::unique_ptr<llvm::orc::LLJIT>>
loadCachedObject(StringRef path, ArrayRef<StringRef> runtimeLibraries,
                 const CPURunnerOptions &options) {
  auto object = llvm::MemoryBuffer::getFile(path);
  if (!object)
    return llvm::errorCodeToError(object.getError());
  auto jit = llvm::orc::LLJITBuilder().create();
  if (!jit)
    return jit.takeError();
  llvm::orc::JITDylib &main = (*jit)->getMainJITDylib();
  char prefix = (*jit)->getDataLayout().getGlobalPrefix();
  for (StringRef library : runtimeLibraries) {
    auto generator = llvm::orc::DynamicLibrarySearchGenerator::Load(
        library.str().c_str(), prefix);
    if (!generator)
      return generator.takeError();
    main.addGenerator(std::move(*generator));
  }
  auto process =
      llvm::orc::DynamicLibrarySearchGenerator::GetForCurrentProcess(prefix);
  if (!process)
    return process.takeError();
  main.addGenerator(std::move(*process));
  llvm::orc::MangleAndInterner interner((*jit)->getExecutionSession(),
                                        (*jit)->getDataLayout());
  if (llvm::Error error =
          main.define(
          llvm::orc::absoluteSymbols(allocationSymbols(interner, options))))
    return std::move(error);
  if (llvm::Error error = (*jit)->addObjectFile(std::move(*object)))
    return std::move(error);
  return std::move(*jit);
}

/// Decides LLVM's inlining around the entry, whose C wrapper
/// `wrapperName` (`_mlir_ciface_<entry>`) is the only function the runner
/// calls:
///
/// - The entry becomes internal and always inlined into the wrapper. The
///   wrapper unpacks one memref descriptor per argument into the entry's
///   scalar parameters (5 + 2 x rank each: 1,340 for ResNet-50's 268
///   arguments), and the ExecutionEngine adds a packed wrapper around every
///   non-internal function, the entry included; those two calls with 1,340
///   arguments took SelectionDAG instruction selection 19 of the 20 s
///   `llc -O3` spent on ResNet-50's forward (the call lowering's chain of
///   stack-argument stores). Inlined, the calls are gone and the internal
///   entry, which nothing else calls, is not compiled on its own.
/// - Every other function with a body (the fused groups and the kernels
///   `--raf-share-kernels` outlined, so that each distinct kernel compiles
///   once) is never inlined. LLVM's inliner otherwise copied the small ones
///   (ResNet-50's 53 batch-norm scale computations, poolings) into the
///   entry, which grew to 41,000 lines of vectorised and unrolled loops
///   (3.2 of the 3.8 s of `llc -O3`) while their own copies were compiled as
///   well. A call per kernel costs nothing next to the kernel.
static void setInlining(ModuleOp module, StringRef wrapperName) {
  StringRef entryName = wrapperName;
  if (!entryName.consume_front("_mlir_ciface_"))
    return;
  auto wrapper = module.lookupSymbol<LLVM::LLVMFuncOp>(wrapperName);
  auto entry = module.lookupSymbol<LLVM::LLVMFuncOp>(entryName);
  if (!wrapper || !entry || entry.isExternal() || wrapper.isExternal())
    return;
  entry.setLinkage(LLVM::Linkage::Internal);
  entry.setAlwaysInline(true);
  for (auto function : module.getOps<LLVM::LLVMFuncOp>())
    if (function != entry && function != wrapper && !function.isExternal() &&
        !function.isAlwaysInline())
      function.setNoInline(true);
}

/// MLIR's makeOptimizingTransformer (-O`optLevel`, the same tuning: loop
/// unrolling, interleaving, loop and SLP vectorisation), with LLVM's
/// standard instrumentations registered, so that the tool's
/// `--time-passes` reports the optimiser's passes too (upstream's
/// transformer builds its PassBuilder without them, and only code
/// generation, a legacy pass manager, was timed).
static std::function<llvm::Error(llvm::Module *)>
makeTimedOptimizingTransformer(unsigned optLevel,
                               llvm::TargetMachine *targetMachine) {
  return [optLevel, targetMachine](llvm::Module *module) -> llvm::Error {
    llvm::OptimizationLevel level;
    switch (optLevel) {
    case 0:
      level = llvm::OptimizationLevel::O0;
      break;
    case 1:
      level = llvm::OptimizationLevel::O1;
      break;
    case 2:
      level = llvm::OptimizationLevel::O2;
      break;
    default:
      level = llvm::OptimizationLevel::O3;
      break;
    }
    llvm::LoopAnalysisManager loopAnalyses;
    llvm::FunctionAnalysisManager functionAnalyses;
    llvm::CGSCCAnalysisManager cgsccAnalyses;
    llvm::ModuleAnalysisManager moduleAnalyses;
    llvm::PassInstrumentationCallbacks callbacks;
    llvm::StandardInstrumentations instrumentations(module->getContext(),
                                                    /*DebugLogging=*/false);
    instrumentations.registerCallbacks(callbacks, &moduleAnalyses);
    // CalledValuePropagationPass only attaches !callees metadata to indirect
    // calls (the possible callees its whole-module solver finds); -O3 runs
    // it once, and on a ResNet-50 training step it took 0.8 s of the 16.6 s
    // of CPU time all of LLVM's passes took. The CPU pipeline emits direct
    // calls only, so on a module without indirect calls it is skipped: the
    // code is unchanged.
    bool hasIndirectCall = llvm::any_of(*module, [](llvm::Function &function) {
      return llvm::any_of(llvm::instructions(function),
                          [](llvm::Instruction &instruction) {
                            auto *call = dyn_cast<llvm::CallBase>(&instruction);
                            return call && call->isIndirectCall();
                          });
    });
    if (!hasIndirectCall)
      callbacks.registerShouldRunOptionalPassCallback(
          [](llvm::StringRef pass, llvm::Any) {
            return pass != "CalledValuePropagationPass";
          });
    llvm::PipelineTuningOptions tuning;
    tuning.LoopUnrolling = true;
    tuning.LoopInterleaving = true;
    tuning.LoopVectorization = true;
    tuning.SLPVectorization = true;
    llvm::PassBuilder builder(targetMachine, tuning, std::nullopt, &callbacks);
    builder.registerModuleAnalyses(moduleAnalyses);
    builder.registerCGSCCAnalyses(cgsccAnalyses);
    builder.registerFunctionAnalyses(functionAnalyses);
    builder.registerLoopAnalyses(loopAnalyses);
    builder.crossRegisterProxies(loopAnalyses, functionAnalyses, cgsccAnalyses,
                                 moduleAnalyses);
    llvm::ModulePassManager passes =
        level == llvm::OptimizationLevel::O0
            ? builder.buildO0DefaultPipeline(level)
            : builder.buildPerModuleDefaultPipeline(level);
    passes.run(*module, moduleAnalyses);
    return llvm::Error::success();
  };
}

FailureOr<std::unique_ptr<CPURunner>>
CPURunner::create(ModuleOp module, func::FuncOp function,
                  const CPURunnerOptions &options) {
  std::unique_ptr<CPURunner> runner(new CPURunner());
  runner->location = function.getLoc();
  for (Type type : function.getArgumentTypes())
    runner->argumentTypes.push_back(cast<RankedTensorType>(type));
  // The pipeline (--raf-flatten-tuples) returns a tuple as its leaves,
  // depth first; `flatIndex` maps each declared result to its first leaf.
  SmallVector<Type> flatResultTypes;
  SmallVector<unsigned> flatIndex;
  for (Type type : function.getResultTypes()) {
    flatIndex.push_back(flatResultTypes.size());
    if (auto tuple = dyn_cast<TupleType>(type))
      tuple.getFlattenedTypes(flatResultTypes);
    else
      flatResultTypes.push_back(type);
  }
  for (auto [index, type] : llvm::enumerate(flatResultTypes)) {
    auto tensorType = dyn_cast<RankedTensorType>(type);
    if (!tensorType || !tensorType.hasStaticShape() ||
        !dtypeFromMLIR(tensorType.getElementType()))
      return emitError(function.getLoc())
             << "result #" << index << " has type " << type
             << "; --target=cpu returns only statically shaped tensors and "
                "tuples of them (closures and references run on "
                "--target=interp)";
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
  // Results the pipeline writes into their arguments' buffers
  // (--raf-inplace-update): not out-parameters; run() returns the argument.
  runner->inPlaceArgument.assign(runner->resultTypes.size(), -1);
  for (auto [result, argument] : relay::getInPlaceUpdates(
           lowered->lookupSymbol<func::FuncOp>(function.getSymName()),
           *lowered))
    runner->inPlaceArgument[flatIndex[result]] = argument;
  CPUPipelineOptions pipelineOptions;
  if (failed(pipelineOptions.parseFromString(options.pipelineOptions)))
    return emitError(function.getLoc())
           << "invalid --pipeline-options '" << options.pipelineOptions << "'";
  pipelineOptions.checkedAllocations = true;
  // The entry's C wrapper, under the name the pipeline exports it with.
  runner->symbol = ("_mlir_ciface_" + pipelineOptions.entryPrefix.getValue() +
                    function.getSymName())
                       .str();
  if (options.threads > 0)
    pipelineOptions.threads = options.threads;

  keepFreedBuffersForReuse();
  disableStoreMerging();
  llvm::InitializeNativeTarget();
  llvm::InitializeNativeTargetAsmPrinter();
  auto machineBuilder = llvm::orc::JITTargetMachineBuilder::detectHost();
  if (!machineBuilder)
    return emitError(function.getLoc()) << "cannot detect the host CPU: "
                              << llvm::toString(machineBuilder.takeError());
  // memref.copy of non-contiguous views lowers to a call of `memrefCopy`
  // from MLIR's C runner utilities.
  SmallVector<llvm::StringRef> runtimeLibraries = {RAF_MLIR_C_RUNNER_UTILS};
  // Parallel loops call the OpenMP runtime (__kmpc_fork_call, ...).
  if (pipelineOptions.threads > 1)
    runtimeLibraries.push_back(RAF_OPENMP_RUNTIME);
  std::string packedSymbol = "_mlir_" + runner->symbol;

  // The compile cache: an object compiled earlier from the same input.
  SmallString<256> cachePath;
  if (!options.cacheDirectory.empty()) {
    cachePath = options.cacheDirectory;
    llvm::sys::path::append(
        cachePath, cacheKey(*lowered, function.getSymName(), pipelineOptions,
                            options.optLevel, *machineBuilder) +
                       ".o");
    auto start = std::chrono::steady_clock::now();
    if (llvm::sys::fs::exists(cachePath)) {
      auto jit = loadCachedObject(cachePath, runtimeLibraries, options);
      if (jit) {
        auto address = (*jit)->lookup(packedSymbol);
        if (address) {
          runner->entry = address->toPtr<void (*)(void **)>();
          runner->cachedCode = std::move(*jit);
          runner->cacheStatus = "hit";
          runner->llvmMilliseconds =
              std::chrono::duration<double, std::milli>(
                  std::chrono::steady_clock::now() - start)
                  .count();
          return runner;
        }
        llvm::consumeError(address.takeError());
      } else {
        // Unreadable or stale: compiled again and replaced below.
        llvm::consumeError(jit.takeError());
      }
    }
  }

  PassManager pm(module.getContext());
  buildCPUPipeline(pm, pipelineOptions);
  // The module is verified when it is parsed and once more after the last
  // pass, before it is translated to LLVM IR. Verifying it after each of the
  // pipeline's passes as well, which MLIR's pass manager does by default,
  // only catches a pass that breaks the IR (a compiler bug) at that pass
  // instead of at the end, and on a ResNet-50 training step it was a quarter
  // of the pipeline's CPU time (bench/results/cpu.md). Clang likewise runs
  // LLVM's verifier on the optimiser's input, not between its passes.
  // --verify-each restores it.
  pm.enableVerifier(options.verifyEach);
  // The tool's --mlir-timing and the --mlir-print-ir-* options that name no
  // pass (e.g. --mlir-print-ir-after-all; raf-run registers no pass names,
  // so --mlir-print-ir-after=<pass> is not available), when it registered
  // them; the timing report is printed when `pm` is destroyed.
  if (failed(applyPassManagerCLOptions(pm)))
    return emitError(function.getLoc()) << "invalid pass manager options";
  auto timing = std::make_unique<DefaultTimingManager>();
  applyDefaultTimingManagerCLOptions(*timing);
  if (timing->isEnabled())
    pm.enableTiming(std::move(timing));
  auto pipelineStart = std::chrono::steady_clock::now();
  LogicalResult lowering = pm.run(*lowered);
  bool invalid =
      succeeded(lowering) && !options.verifyEach && failed(verify(*lowered));
  auto llvmStart = std::chrono::steady_clock::now();
  runner->pipelineMilliseconds =
      std::chrono::duration<double, std::milli>(llvmStart - pipelineStart)
          .count();
  if (failed(lowering))
    return emitError(function.getLoc())
           << "compiling for the CPU failed (see the errors above)";
  if (invalid)
    return emitError(function.getLoc())
           << "the CPU pipeline produced invalid IR (see the errors above; "
              "--verify-each names the pass)";
  setInlining(*lowered, runner->symbol);
  if (options.printLowered)
    lowered->print(llvm::errs());
  // One descriptor per argument and per result that is not in place.
  if (auto wrapper = lowered->lookupSymbol<LLVM::LLVMFuncOp>(runner->symbol)) {
    size_t expected = runner->argumentTypes.size() +
                      llvm::count(runner->inPlaceArgument, -1);
    if (wrapper.getNumArguments() != expected)
      return emitError(function.getLoc())
             << "the compiled @" << function.getSymName() << " takes "
             << wrapper.getNumArguments() << " buffers, expected " << expected
             << " (arguments and results not updated in place)";
  }

  auto machine = machineBuilder->createTargetMachine();
  if (!machine)
    return emitError(function.getLoc()) << "cannot create a target machine: "
                              << llvm::toString(machine.takeError());
  // The optimiser runs when the engine compiles, after this function's
  // locals are gone: the runner owns the machine it queries.
  runner->optimizationMachine = std::move(*machine);
  auto transformer =
      makeTimedOptimizingTransformer(options.optLevel,
                                     runner->optimizationMachine.get());
  ExecutionEngineOptions engineOptions;
  engineOptions.transformer = transformer;
  engineOptions.sharedLibPaths = runtimeLibraries;
  engineOptions.jitCodeGenOptLevel =
      static_cast<llvm::CodeGenOptLevel>(std::min(options.optLevel, 3u));
  engineOptions.enableObjectDump = !cachePath.empty();
  auto engine = ExecutionEngine::create(*lowered, engineOptions);
  if (!engine)
    return emitError(function.getLoc()) << "JIT compilation failed: "
                              << llvm::toString(engine.takeError());
  (*engine)->registerSymbols([&](llvm::orc::MangleAndInterner interner) {
    return allocationSymbols(interner, options);
  });
  runner->engine = std::move(*engine);
  // Optimise and generate code now, so that compile errors surface here and
  // the first call is timed like the others.
  auto packed = runner->engine->lookupPacked(runner->symbol);
  if (!packed)
    return emitError(function.getLoc()) << "JIT compilation failed: "
                              << llvm::toString(packed.takeError());
  runner->entry = *packed;
  runner->llvmMilliseconds = std::chrono::duration<double, std::milli>(
                                 std::chrono::steady_clock::now() - llvmStart)
                                 .count();
  if (!cachePath.empty()) {
    // Written under a temporary name and renamed, so that a concurrent run
    // never reads half an object. A cache that cannot be written only
    // costs the next run a compile.
    if (!llvm::sys::fs::create_directories(options.cacheDirectory)) {
      std::string temporary =
          (cachePath + "." + llvm::Twine(::getpid()) + ".tmp").str();
      runner->engine->dumpToObjectFile(temporary);
      if (llvm::sys::fs::rename(temporary, cachePath))
        (void)llvm::sys::fs::remove(temporary);
    }
    runner->cacheStatus = "miss";
  }
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
CPURunner::run(ArrayRef<HostTensor> arguments, double *callMilliseconds,
               double *callCPUMilliseconds) {
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
  for (auto [index, type] : llvm::enumerate(resultTypes)) {
    if (inPlaceArgument[index] >= 0)
      results.emplace_back();
    else
      results.emplace_back(*dtypeFromMLIR(type.getElementType()),
                           type.getShape());
  }

  SmallVector<Descriptor> descriptors;
  for (HostTensor &buffer : buffers)
    descriptors.emplace_back(buffer);
  for (auto [index, result] : llvm::enumerate(results))
    if (inPlaceArgument[index] < 0)
      descriptors.emplace_back(result);
  SmallVector<void *> pointers;
  for (Descriptor &descriptor : descriptors)
    pointers.push_back(descriptor.words.data());
  SmallVector<void *> packed;
  for (void *&pointer : pointers)
    packed.push_back(&pointer);
  double cpuStart = raf::getThreadCPUMilliseconds();
  auto start = std::chrono::steady_clock::now();
  entry(packed.data());
  auto stop = std::chrono::steady_clock::now();
  if (callCPUMilliseconds)
    *callCPUMilliseconds = raf::getThreadCPUMilliseconds() - cpuStart;
  if (callMilliseconds)
    *callMilliseconds =
        std::chrono::duration<double, std::milli>(stop - start).count();
  // Updated in place: the new value is in the argument's buffer (a copy of
  // the caller's argument, so the caller's tensor is unchanged).
  for (auto [index, argument] : llvm::enumerate(inPlaceArgument))
    if (argument >= 0)
      results[index] = std::move(buffers[argument]);
  return results;
}
