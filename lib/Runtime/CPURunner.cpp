//===- CPURunner.cpp - compile and run a function on the host CPU ---------===//

#include "raf/Runtime/CPURunner.h"

#include "raf/Dialect/Relay/Transforms/InplaceUpdate.h"
#include "raf/Pipelines/CPUPipeline.h"
#include "raf/Support/AllocationLimit.h"
#include "raf/Support/ThreadCPUTime.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/IR/Verifier.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Support/Timing.h"
#include "mlir/Target/LLVMIR/Export.h"

#include "llvm/ADT/SetVector.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Config/llvm-config.h"
#include "llvm/Bitcode/BitcodeReader.h"
#include "llvm/Bitcode/BitcodeWriter.h"
#include "llvm/ExecutionEngine/Orc/CompileUtils.h"
#include "llvm/ExecutionEngine/Orc/ExecutionUtils.h"
#include "llvm/ExecutionEngine/Orc/JITTargetMachineBuilder.h"
#include "llvm/ExecutionEngine/Orc/LLJIT.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/InstrTypes.h"
#include "llvm/IR/PassTimingInfo.h"
#include "llvm/Object/Archive.h"
#include "llvm/Object/ArchiveWriter.h"
#include "llvm/Passes/PassBuilder.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/SHA256.h"
#include "llvm/Support/xxhash.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/TargetSelect.h"
#include "llvm/Support/ThreadPool.h"
#include "llvm/Support/Threading.h"
#include "llvm/Target/TargetMachine.h"
#include "llvm/Transforms/Utils/Cloning.h"

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

/// Loads `objects` into a fresh JIT with the runtime libraries and the
/// allocation functions; fails on anything it cannot resolve (a cached
/// archive that fails is compiled again).
static llvm::Expected<std::unique_ptr<llvm::orc::LLJIT>>
loadObjects(SmallVector<std::unique_ptr<llvm::MemoryBuffer>> objects,
            ArrayRef<StringRef> runtimeLibraries,
            const CPURunnerOptions &options) {
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
  if (llvm::Error error = main.define(
          llvm::orc::absoluteSymbols(allocationSymbols(interner, options))))
    return std::move(error);
  for (std::unique_ptr<llvm::MemoryBuffer> &object : objects)
    if (llvm::Error error = (*jit)->addObjectFile(std::move(object)))
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
///   arguments), and MLIR's ExecutionEngine, which the runner used before,
///   added a packed wrapper around every non-internal function, the entry
///   included; those two calls with 1,340 arguments took SelectionDAG
///   instruction selection 19 of the 20 s `llc -O3` spent on ResNet-50's
///   forward (the call lowering's chain of stack-argument stores). Inlined,
///   the calls are gone and the internal entry, which nothing else calls, is
///   not compiled on its own.
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

/// Runs LLVM's -O`optLevel` pipeline on `module` as MLIR's
/// makeOptimizingTransformer does (the same tuning: loop unrolling,
/// interleaving, loop and SLP vectorisation). With `timePasses`, its timers
/// take the passes, so that the tool's `--time-passes` reports the
/// optimiser's passes next to code generation's (upstream's transformer
/// runs them untimed).
static void optimizeModule(llvm::Module &module, unsigned optLevel,
                           llvm::TargetMachine *targetMachine,
                           llvm::TimePassesHandler *timePasses) {
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
  if (timePasses)
    timePasses->registerCallbacks(callbacks);
  // CalledValuePropagationPass only attaches !callees metadata to indirect
  // calls (the possible callees its whole-module solver finds); -O3 runs
  // it once, and on a ResNet-50 training step it took 0.8 s of the 16.6 s
  // of CPU time all of LLVM's passes took. The CPU pipeline emits direct
  // calls only, so on a module without indirect calls it is skipped: the
  // code is unchanged.
  bool hasIndirectCall = llvm::any_of(module, [](llvm::Function &function) {
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
  passes.run(module, moduleAnalyses);
}

/// Defines `_mlir_<name>(void **)`, which loads each argument of `name`
/// through the pointer at its position and calls it: the packed interface
/// MLIR's ExecutionEngine adds (its packFunctionArguments), for the one
/// function the runner calls. `name` returns nothing (a C wrapper).
static LogicalResult addPackedWrapper(llvm::Module &module, StringRef name) {
  llvm::Function *function = module.getFunction(name);
  if (!function || function->isDeclaration() ||
      !function->getReturnType()->isVoidTy())
    return failure();
  llvm::LLVMContext &context = module.getContext();
  llvm::IRBuilder<> builder(context);
  auto *type = llvm::FunctionType::get(builder.getVoidTy(), builder.getPtrTy(),
                                       /*isVarArg=*/false);
  auto *packed = llvm::Function::Create(type, llvm::GlobalValue::ExternalLinkage,
                                        "_mlir_" + name, module);
  builder.SetInsertPoint(llvm::BasicBlock::Create(context, "", packed));
  SmallVector<llvm::Value *> arguments;
  for (auto [index, argument] : llvm::enumerate(function->args())) {
    llvm::Value *slot = builder.CreateGEP(builder.getPtrTy(), packed->getArg(0),
                                          builder.getInt64(index));
    llvm::Value *pointer = builder.CreateLoad(builder.getPtrTy(), slot);
    arguments.push_back(builder.CreateLoad(argument.getType(), pointer));
  }
  builder.CreateCall(function, arguments);
  builder.CreateRetVoid();
  return success();
}

/// Every global value `user` refers to, through constant expressions and
/// aggregates too.
static void collectReferences(llvm::User *user,
                              llvm::SetVector<llvm::GlobalValue *> &found,
                              llvm::SmallPtrSetImpl<llvm::Constant *> &seen) {
  for (llvm::Value *operand : user->operands()) {
    if (auto *global = dyn_cast<llvm::GlobalValue>(operand)) {
      found.insert(global);
    } else if (auto *constant = dyn_cast<llvm::Constant>(operand)) {
      if (seen.insert(constant).second)
        collectReferences(constant, found, seen);
    }
  }
}

/// Splits `module` into parts LLVM can optimise and compile independently,
/// one per function that is compiled on its own anyway: every function not
/// inlined into another (setInlining marks the kernels `noinline`) and every
/// function other modules could call. A part defines its function, the
/// local functions it may inline (the entry, in its C wrapper's part) and
/// the local constants it reads (copied into each part that reads them);
/// everything else is a declaration there. The parts' functions become
/// external so that the JIT links the parts' calls; mutable and non-local
/// variables are defined in the first part only. A module with aliases or
/// ifuncs stays one part. Parts are returned as bitcode: each is parsed into
/// a context of its own, as LLVMContext is not thread-safe (LLVM's
/// splitCodeGen, used by LTO, hands its parts to threads the same way).
static SmallVector<SmallVector<char, 0>> splitIntoParts(llvm::Module &module) {
  auto writeBitcode = [](const llvm::Module &part) {
    SmallVector<char, 0> bitcode;
    llvm::raw_svector_ostream os(bitcode);
    llvm::WriteBitcodeToFile(part, os);
    return bitcode;
  };
  auto isPartRoot = [](const llvm::Function &function) {
    return !function.isDeclaration() &&
           (!function.hasLocalLinkage() ||
            function.hasFnAttribute(llvm::Attribute::NoInline));
  };
  SmallVector<llvm::Function *> roots;
  for (llvm::Function &function : module)
    if (isPartRoot(function))
      roots.push_back(&function);
  if (roots.size() < 2 || !module.alias_empty() || !module.ifunc_empty())
    return {writeBitcode(module)};

  // What each part defines: its root, and the local non-root functions and
  // local constants reachable from it.
  SmallVector<llvm::SetVector<llvm::GlobalValue *>> definitions;
  for (llvm::Function *root : roots) {
    llvm::SetVector<llvm::GlobalValue *> defined;
    defined.insert(root);
    SmallPtrSet<llvm::Constant *, 16> seen;
    for (size_t next = 0; next < defined.size(); ++next) {
      llvm::GlobalValue *value = defined[next];
      llvm::SetVector<llvm::GlobalValue *> references;
      if (auto *function = dyn_cast<llvm::Function>(value)) {
        for (llvm::Instruction &instruction : llvm::instructions(*function))
          collectReferences(&instruction, references, seen);
      } else if (auto *variable = dyn_cast<llvm::GlobalVariable>(value)) {
        if (variable->hasInitializer())
          collectReferences(variable, references, seen);
      }
      for (llvm::GlobalValue *reference : references) {
        if (!reference->hasLocalLinkage() || reference->isDeclaration())
          continue;
        if (auto *function = dyn_cast<llvm::Function>(reference)) {
          if (!isPartRoot(*function))
            defined.insert(function);
        } else if (auto *variable =
                       dyn_cast<llvm::GlobalVariable>(reference)) {
          if (variable->isConstant())
            defined.insert(variable);
        }
      }
    }
    definitions.push_back(std::move(defined));
  }
  // Shared definitions: in the first part.
  for (llvm::GlobalVariable &variable : module.globals())
    if (!variable.isDeclaration() &&
        (!variable.hasLocalLinkage() || !variable.isConstant()))
      definitions.front().insert(&variable);
  // Referenced across parts: external (names are unique in the module).
  for (llvm::Function *root : roots)
    if (root->hasLocalLinkage())
      root->setLinkage(llvm::GlobalValue::ExternalLinkage);
  for (llvm::GlobalVariable &variable : module.globals())
    if (variable.hasLocalLinkage() && !variable.isConstant())
      variable.setLinkage(llvm::GlobalValue::ExternalLinkage);

  SmallVector<SmallVector<char, 0>> parts;
  for (llvm::SetVector<llvm::GlobalValue *> &defined : definitions) {
    llvm::ValueToValueMapTy mapping;
    std::unique_ptr<llvm::Module> part =
        llvm::CloneModule(module, mapping, [&](const llvm::GlobalValue *value) {
          return defined.contains(const_cast<llvm::GlobalValue *>(value));
        });
    // The declarations of everything the part does not use.
    for (llvm::Function &function :
         llvm::make_early_inc_range(part->functions()))
      if (function.isDeclaration() && function.use_empty())
        function.eraseFromParent();
    for (llvm::GlobalVariable &variable :
         llvm::make_early_inc_range(part->globals()))
      if (variable.isDeclaration() && variable.use_empty())
        variable.eraseFromParent();
    parts.push_back(writeBitcode(*part));
  }
  return parts;
}

/// Optimises and compiles one part (bitcode) to an object in a context of
/// its own, with a target machine of its own (neither is thread-safe).
static llvm::Expected<std::unique_ptr<llvm::MemoryBuffer>>
compilePart(ArrayRef<char> bitcode, llvm::orc::JITTargetMachineBuilder host,
            unsigned optLevel, llvm::TimePassesHandler *timePasses) {
  llvm::LLVMContext context;
  auto module = llvm::parseBitcodeFile(
      llvm::MemoryBufferRef(StringRef(bitcode.data(), bitcode.size()), "part"),
      context);
  if (!module)
    return module.takeError();
  auto machine = host.createTargetMachine();
  if (!machine)
    return machine.takeError();
  optimizeModule(**module, optLevel, machine->get(), timePasses);
  llvm::orc::SimpleCompiler compiler(**machine);
  return compiler(**module);
}

/// Compiles the LLVM dialect module `module` to objects: translated to LLVM
/// IR, split into parts (splitIntoParts) that are optimised and compiled on
/// `threads` threads. The parts do not depend on `threads`, so neither do
/// the objects. LLVM's `--time-passes` timers are not thread-safe: with
/// them, parts compile one at a time into one report.
static llvm::Expected<SmallVector<std::unique_ptr<llvm::MemoryBuffer>>>
compileToObjects(ModuleOp module, StringRef wrapperName,
                 llvm::orc::JITTargetMachineBuilder host,
                 unsigned optLevel, unsigned threads) {
  SmallVector<SmallVector<char, 0>> parts;
  {
    llvm::LLVMContext context;
    std::unique_ptr<llvm::Module> llvmModule =
        translateModuleToLLVMIR(module, context);
    if (!llvmModule)
      return llvm::createStringError("cannot translate the module to LLVM IR");
    auto machine = host.createTargetMachine();
    if (!machine)
      return machine.takeError();
    llvmModule->setDataLayout((*machine)->createDataLayout());
    llvmModule->setTargetTriple((*machine)->getTargetTriple());
    if (failed(addPackedWrapper(*llvmModule, wrapperName)))
      return llvm::createStringError("no function '" + wrapperName.str() +
                                     "' to call in the compiled module");
    parts = splitIntoParts(*llvmModule);
  }
  std::unique_ptr<llvm::TimePassesHandler> timePasses;
  if (llvm::TimePassesIsEnabled) {
    timePasses = std::make_unique<llvm::TimePassesHandler>(/*Enabled=*/true);
    threads = 1;
  }
  SmallVector<std::unique_ptr<llvm::MemoryBuffer>> objects(parts.size());
  SmallVector<std::string> errors(parts.size());
  // Largest parts first, so that the last ones to finish are small.
  auto order = llvm::to_vector(llvm::seq<size_t>(0, parts.size()));
  llvm::stable_sort(order, [&](size_t a, size_t b) {
    return parts[a].size() > parts[b].size();
  });
  auto compile = [&](size_t index) {
    auto object = compilePart(parts[index], host, optLevel, timePasses.get());
    if (object)
      objects[index] = std::move(*object);
    else
      errors[index] = llvm::toString(object.takeError());
  };
  threads = std::min<unsigned>(std::max(threads, 1u), parts.size());
  if (threads == 1) {
    for (size_t index : order)
      compile(index);
  } else {
    llvm::DefaultThreadPool pool(llvm::hardware_concurrency(threads));
    for (size_t index : order)
      pool.async(compile, index);
    pool.wait();
  }
  for (const std::string &error : errors)
    if (!error.empty())
      return llvm::createStringError(error);
  return std::move(objects);
}

/// The compile cache holds a module's objects as one archive (`ar t` lists
/// them), written and read whole.
static llvm::Expected<std::unique_ptr<llvm::MemoryBuffer>>
writeObjectArchive(ArrayRef<std::unique_ptr<llvm::MemoryBuffer>> objects) {
  std::vector<llvm::NewArchiveMember> members;
  SmallVector<std::string> names;
  for (size_t index = 0; index < objects.size(); ++index)
    names.push_back("part" + std::to_string(index) + ".o");
  for (auto [object, name] : llvm::zip(objects, names)) {
    llvm::NewArchiveMember member(object->getMemBufferRef());
    member.MemberName = name;
    members.push_back(std::move(member));
  }
  return llvm::writeArchiveToBuffer(members, llvm::SymtabWritingMode::NoSymtab,
                                    llvm::object::Archive::K_GNU,
                                    /*Deterministic=*/true, /*Thin=*/false);
}

static llvm::Expected<SmallVector<std::unique_ptr<llvm::MemoryBuffer>>>
readObjectArchive(StringRef path) {
  auto file = llvm::MemoryBuffer::getFile(path);
  if (!file)
    return llvm::errorCodeToError(file.getError());
  auto archive = llvm::object::Archive::create((*file)->getMemBufferRef());
  if (!archive)
    return archive.takeError();
  SmallVector<std::unique_ptr<llvm::MemoryBuffer>> objects;
  llvm::Error error = llvm::Error::success();
  for (const llvm::object::Archive::Child &child : (*archive)->children(error)) {
    auto contents = child.getMemoryBufferRef();
    if (!contents)
      return llvm::joinErrors(contents.takeError(), std::move(error));
    objects.push_back(llvm::MemoryBuffer::getMemBufferCopy(
        contents->getBuffer(), contents->getBufferIdentifier()));
  }
  if (error)
    return std::move(error);
  if (objects.empty())
    return llvm::createStringError("no objects in " + path.str());
  return std::move(objects);
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

  // The compile cache: objects compiled earlier from the same input.
  SmallString<256> cachePath;
  if (!options.cacheDirectory.empty()) {
    cachePath = options.cacheDirectory;
    llvm::sys::path::append(
        cachePath, cacheKey(*lowered, function.getSymName(), pipelineOptions,
                            options.optLevel, *machineBuilder) +
                       ".a");
    auto start = std::chrono::steady_clock::now();
    if (llvm::sys::fs::exists(cachePath)) {
      auto objects = readObjectArchive(cachePath);
      auto jit = objects ? loadObjects(std::move(*objects), runtimeLibraries,
                                       options)
                         : objects.takeError();
      if (jit) {
        auto address = (*jit)->lookup(packedSymbol);
        if (address) {
          runner->entry = address->toPtr<void (*)(void **)>();
          runner->code = std::move(*jit);
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

  // Optimised and compiled now, so that compile errors surface here and
  // the first call is timed like the others. Code generation runs at LLVM's
  // default level whatever -O says, as it did under MLIR's ExecutionEngine
  // (whose jitCodeGenOptLevel set a target machine builder it then did not
  // use): the code, and its results, are the same as before.
  unsigned compileThreads =
      options.compileThreads ? options.compileThreads : getAvailableCores();
  auto objects = compileToObjects(*lowered, runner->symbol, *machineBuilder,
                                  options.optLevel, compileThreads);
  if (!objects)
    return emitError(function.getLoc()) << "JIT compilation failed: "
                              << llvm::toString(objects.takeError());
  std::unique_ptr<llvm::MemoryBuffer> archive;
  if (!cachePath.empty()) {
    auto written = writeObjectArchive(*objects);
    if (written)
      archive = std::move(*written);
    else
      llvm::consumeError(written.takeError()); // only costs a later compile
  }
  auto jit = loadObjects(std::move(*objects), runtimeLibraries, options);
  if (!jit)
    return emitError(function.getLoc()) << "JIT linking failed: "
                              << llvm::toString(jit.takeError());
  auto address = (*jit)->lookup(packedSymbol);
  if (!address)
    return emitError(function.getLoc()) << "JIT linking failed: "
                              << llvm::toString(address.takeError());
  runner->entry = address->toPtr<void (*)(void **)>();
  runner->code = std::move(*jit);
  runner->llvmMilliseconds = std::chrono::duration<double, std::milli>(
                                 std::chrono::steady_clock::now() - llvmStart)
                                 .count();
  if (!cachePath.empty()) {
    // Written under a temporary name and renamed, so that a concurrent run
    // never reads half an archive. A cache that cannot be written only
    // costs the next run a compile.
    if (archive && !llvm::sys::fs::create_directories(options.cacheDirectory)) {
      std::string temporary =
          (cachePath + "." + llvm::Twine(::getpid()) + ".tmp").str();
      std::error_code error;
      {
        llvm::raw_fd_ostream os(temporary, error);
        if (!error)
          os << archive->getBuffer();
      }
      if (error || llvm::sys::fs::rename(temporary, cachePath))
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
