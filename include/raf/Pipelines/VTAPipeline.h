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

/// `--tcg-lower-to-vta`, the inspection alias of --convert-tcg-to-vta: the
/// programs of every kernel beside the kept kernels, assembled.
struct TCGLowerToVTAOptions
    : public mlir::PassPipelineOptions<TCGLowerToVTAOptions> {
  Option<int64_t> requantShift{
      *this, "requant-shift",
      llvm::cl::desc("Requantise the result to int8 as clip(acc >> shift, "
                     "-128, 127) (0-15); -1 (default) stores the exact int32 "
                     "result as four byte planes"),
      llvm::cl::init(-1)};
  Option<unsigned> accDependenceDistance{
      *this, "acc-dep-distance",
      llvm::cl::desc("Reject programs whose GEMMs write an accumulator row "
                     "again within this many micro-op steps (0: unchecked)"),
      llvm::cl::init(0)};
  Option<bool> exhaustive{
      *this, "exhaustive",
      llvm::cl::desc("Simulate every valid schedule instead of the best by "
                     "the estimate"),
      llvm::cl::init(false)};
  Option<unsigned> simulate{
      *this, "simulate",
      llvm::cl::desc("Schedules simulated on the cycle model (the best by "
                     "the analytic estimate)"),
      llvm::cl::init(8)};
  ListOption<int64_t> tileSizes{
      *this, "tile-sizes",
      llvm::cl::desc("A given schedule for kernels without a vta.schedule: "
                     "one tile size per tile iterator, parallel ones first "
                     "in kernel order (the search when empty)")};
  Option<int64_t> virtualThreads{
      *this, "virtual-threads",
      llvm::cl::desc("Virtual threads of a given schedule (1 or 2)"),
      llvm::cl::init(1)};
  Option<int64_t> maxInstructions{
      *this, "max-instructions",
      llvm::cl::desc("Schedules with more instructions are invalid"),
      llvm::cl::init(262144)};
  Option<bool> tileLevel{
      *this, "tile-level",
      llvm::cl::desc("Leave the programs at the tile level (vta.program; no "
                     "--convert-vta-to-vta-isa)"),
      llvm::cl::init(false)};
  Option<bool> report{
      *this, "report",
      llvm::cl::desc("Emit a remark per kernel: the schedule, its cycles and "
                     "the search"),
      llvm::cl::init(false)};
};

/// Appends --convert-tcg-to-vta with keep-kernels (and the options) and,
/// unless tile-level, --convert-vta-to-vta-isa.
void buildTCGLowerToVTA(mlir::OpPassManager &pm,
                        const TCGLowerToVTAOptions &options);

/// Appends the passes of the VTA pipeline to `pm` (anchored on the module):
/// with `embed`, --convert-relay-to-tcg, --tcg-dataflow-embed,
/// --tcg-apply-strategy; then --vta-schedule, --convert-tcg-to-vta and
/// --convert-vta-to-vta-isa.
void buildVTAPipeline(mlir::OpPassManager &pm,
                      const VTAPipelineOptions &options);

/// Registers `--raf-vta-pipeline` and the `--tcg-lower-to-vta` alias with
/// the global pass registry.
void registerVTAPipeline();

} // namespace raf

#endif // RAF_PIPELINES_VTAPIPELINE_H
