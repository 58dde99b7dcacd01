//===- CPUPipeline.h - relay to LLVM for the host CPU -----------*- C++ -*-===//
//
// `--raf-cpu-pipeline`: takes a module of relay functions (or functions
// already on linalg tensors) to the LLVM dialect, ready for MLIR's
// ExecutionEngine. Function results become out-parameters (the caller
// allocates them), so a runner can call every function through its C
// interface with one memref descriptor per argument and per result.
//
//===----------------------------------------------------------------------===//

#ifndef RAF_PIPELINES_CPUPIPELINE_H
#define RAF_PIPELINES_CPUPIPELINE_H

#include "mlir/IR/DialectRegistry.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassOptions.h"

namespace raf {

/// Where the CPU pipeline's large contractions run (`blas=`).
enum class CPUBLASMode { Auto, On, Off };

struct CPUPipelineOptions : public mlir::PassPipelineOptions<CPUPipelineOptions> {
  Option<bool> fuse{*this, "fuse",
                    llvm::cl::desc("Run --raf-fuse before the lowering so "
                                   "fused groups compile as one kernel"),
                    llvm::cl::init(true)};
  Option<bool> shareKernels{
      *this, "share-kernels",
      llvm::cl::desc("Outline heavy operators and merge identical primitive "
                     "functions, so each distinct kernel compiles once "
                     "(--raf-share-kernels)"),
      llvm::cl::init(true)};
  Option<bool> outlineEntryLoops{
      *this, "outline-entry-loops",
      llvm::cl::desc("Move the loops left in public functions (a training "
                     "step's updates) into private functions shared by "
                     "identical loops (--raf-outline-entry-loops)"),
      llvm::cl::init(true)};
  Option<bool> vectorize{
      *this, "vectorize",
      llvm::cl::desc("Tile and vectorise matrix products and convolutions "
                     "(off: plain loops, for debugging the lowering)"),
      llvm::cl::init(true)};
  Option<int64_t> tileM{
      *this, "tile-m",
      llvm::cl::desc("Rows of the register block of vectorised contractions "
                     "(--raf-tile-and-vectorize)"),
      llvm::cl::init(8)};
  Option<int64_t> tileN{
      *this, "tile-n",
      llvm::cl::desc("Columns of the register block of vectorised "
                     "contractions (--raf-tile-and-vectorize)"),
      llvm::cl::init(32)};
  Option<bool> approximateMath{
      *this, "approximate-math",
      llvm::cl::desc("f32 erf, exp and tanh as vectorisable polynomial "
                     "approximations instead of libm calls "
                     "(--raf-approximate-math; docs/lowering.md gives their "
                     "errors)"),
      llvm::cl::init(true)};
  Option<CPUBLASMode> blas{
      *this, "blas",
      llvm::cl::desc("Large matrix products and convolutions as OpenBLAS "
                     "GEMM calls (--raf-contractions-to-blas)"),
      llvm::cl::init(CPUBLASMode::Auto),
      llvm::cl::values(
          clEnumValN(CPUBLASMode::Auto, "auto",
                     "on when this build has the BLAS runtime (default)"),
          clEnumValN(CPUBLASMode::On, "on",
                     "always (an error in a build without OpenBLAS)"),
          clEnumValN(CPUBLASMode::Off, "off",
                     "never: the pipeline's own register-blocked code"))};
  Option<int64_t> blasMinMacs{
      *this, "blas-min-macs",
      llvm::cl::desc("Fewest multiply-accumulates of a contraction that "
                     "calls BLAS (--raf-contractions-to-blas min-macs)"),
      llvm::cl::init(65536)};
  Option<bool> emitCInterface{
      *this, "emit-c-interface",
      llvm::cl::desc("Give every public function a `_mlir_ciface_` wrapper "
                     "taking memref descriptors by pointer"),
      llvm::cl::init(true)};
  Option<std::string> entryPrefix{
      *this, "entry-prefix",
      llvm::cl::desc("Prepended to the name of every public function "
                     "(--raf-prefix-entry-points), e.g. raf_: @main is then "
                     "exported as raf_main and _mlir_ciface_raf_main and "
                     "does not clash with a C program's main"),
      llvm::cl::init("")};
  Option<unsigned> threads{
      *this, "threads",
      llvm::cl::desc("Threads of the compiled code: with more than 1, one "
                     "loop of each large loop nest runs on an OpenMP team of "
                     "this many threads (the code then needs libomp)"),
      llvm::cl::init(1)};
  Option<bool> checkedAllocations{
      *this, "checked-allocations",
      llvm::cl::desc("Allocate through _mlir_memref_to_llvm_alloc/free, which "
                     "the host provides (raf-run's check the allocation limit "
                     "and report a failed allocation instead of crashing)"),
      llvm::cl::init(false)};
};

/// Appends the passes of the CPU pipeline to `pm` (anchored on the module).
void buildCPUPipeline(mlir::OpPassManager &pm,
                      const CPUPipelineOptions &options);

/// Registers `--raf-cpu-pipeline` with the global pass registry.
void registerCPUPipeline();

/// Adds the dialects the pipeline creates and the external interface models
/// it needs (bufferization, tiling, translation to LLVM IR) to `registry`.
void registerCPUPipelineDialects(mlir::DialectRegistry &registry);

} // namespace raf

#endif // RAF_PIPELINES_CPUPIPELINE_H
