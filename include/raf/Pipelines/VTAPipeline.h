//===- VTAPipeline.h - relay to VTA programs and host code ------*- C++ -*-===//
//
// `--raf-vta-pipeline`: takes relay convolutions and dense layers to VTA.
// Each operator becomes a tensor compute graph, is embedded into the VTA
// GEMM intrinsic and rewritten around a packed kernel (relay layout rewrites
// before and after it), gets a schedule, and is replaced by a `vta.launch`
// of a module-level `vta_isa.program` with its `#vta.dram_layout`. What
// remains in the functions is host code for the CPU pipeline:
// `--convert-vta-launch-to-runtime` then `--raf-cpu-pipeline` compile it,
// with the launches calling the VTA runtime (raf/Runtime/VTARuntime.h).
//
//===----------------------------------------------------------------------===//

#ifndef RAF_PIPELINES_VTAPIPELINE_H
#define RAF_PIPELINES_VTAPIPELINE_H

#include "raf/Conversion/TCGToVTA/ScheduleMethod.h"
#include "raf/Dialect/TCG/IR/TCGAttrs.h"

#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassOptions.h"

namespace raf {

struct VTAPipelineOptions
    : public mlir::PassPipelineOptions<VTAPipelineOptions> {
  Option<bool> embed{
      *this, "embed",
      llvm::cl::desc("Start from relay: convert the operators to tcg, embed "
                     "the intrinsic and pack the kernels (off: start from "
                     "packed kernels, as raf-run --target=vta-sim does)"),
      llvm::cl::init(true)};
  ListOption<std::string> ops{
      *this, "ops",
      llvm::cl::desc("Relay operators to run on VTA (--convert-relay-to-tcg's "
                     "ops)"),
      llvm::cl::list_init<std::string>(
          {"nn.conv2d", "nn.conv2d_transpose", "nn.dense"})};
  Option<std::string> intrinsic{
      *this, "intrinsic",
      llvm::cl::desc("VTA GEMM intrinsic to embed (vta.gemm.1x16x16 or "
                     "vta.gemm.8x8x8; the program's configuration)"),
      llvm::cl::init("vta.gemm.1x16x16")};
  Option<tcg::EmbeddingMode> mode{
      *this, "mode", llvm::cl::desc("Embedding search mode"),
      llvm::cl::init(tcg::EmbeddingMode::Relaxed),
      llvm::cl::values(
          clEnumValN(tcg::EmbeddingMode::Strict, "strict",
                     "TVM's mapping: n -> x, oc -> y, ic -> z"),
          clEnumValN(tcg::EmbeddingMode::Relaxed, "relaxed",
                     "the solver chooses strides and dimensions"))};
  Option<unsigned> embedTimeout{
      *this, "embed-timeout",
      llvm::cl::desc("Embedding time limit per kernel in milliseconds "
                     "(0: none)"),
      llvm::cl::init(10000)};
  Option<vta::ScheduleMethod> schedule{
      *this, "schedule", llvm::cl::desc("How --vta-schedule chooses"),
      llvm::cl::init(vta::ScheduleMethod::Heuristic),
      llvm::cl::values(
          clEnumValN(vta::ScheduleMethod::Heuristic, "heuristic",
                     "simulate the best schedules by the estimate"),
          clEnumValN(vta::ScheduleMethod::Exhaustive, "exhaustive",
                     "simulate every valid schedule"))};
  Option<unsigned> simulate{
      *this, "simulate",
      llvm::cl::desc("With schedule=heuristic: schedules simulated on the "
                     "cycle model"),
      llvm::cl::init(8)};
  Option<int64_t> requantShift{
      *this, "requant-shift",
      llvm::cl::desc("Requantise every result on VTA to clip(acc >> shift, "
                     "-128, 127) (0-15); -1 (default) keeps exact int32"),
      llvm::cl::init(-1)};
  Option<unsigned> accDependenceDistance{
      *this, "acc-dep-distance",
      llvm::cl::desc("Reject schedules whose GEMMs write an accumulator row "
                     "again within this many micro-op steps (0: unchecked)"),
      llvm::cl::init(0)};
  Option<int64_t> maxInstructions{
      *this, "max-instructions",
      llvm::cl::desc("Schedules with more instructions are invalid"),
      llvm::cl::init(262144)};
};

/// Appends the passes of the VTA pipeline to `pm` (anchored on the module):
/// with `embed`, --convert-relay-to-tcg, --tcg-dataflow-embed,
/// --tcg-apply-strategy; then --vta-schedule, --convert-tcg-to-vta and
/// --convert-vta-to-vta-isa.
void buildVTAPipeline(mlir::OpPassManager &pm,
                      const VTAPipelineOptions &options);

/// Registers `--raf-vta-pipeline` with the global pass registry.
void registerVTAPipeline();

} // namespace raf

#endif // RAF_PIPELINES_VTAPIPELINE_H
