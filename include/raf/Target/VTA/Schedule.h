//===- Schedule.h - the VTA schedule of a packed GEMM kernel ----*- C++ -*-===//
//
// The schedule model (Rieber 2022, §4.4.4.2) and its static validity check.
//
// A packed GEMM kernel (the result of --tcg-apply-strategy) computes
// c[t..] = sum_{r..} a[..] * b[..] over tile iterators t (parallel) and r
// (reductions), where every operand is a row-major tensor of buffer rows
// (the GEMM axes x, y, z live inside a row) indexed by affine functions of
// the tile iterators (GemmKernelModel). A schedule (ScheduleKnobs, the
// `#vta.schedule` attribute) tiles every tile iterator, orders the tile
// loops and chooses 1 or 2 virtual threads:
//
// * tile sizes: one per tile iterator. A size that does not divide the
//   extent leaves a smaller remainder tile at the end of that loop (its own
//   SRAM layout and micro-ops);
// * loop order: the tile loops, outermost first. Parallel iterators come
//   before reductions (the accumulator tile of one output tile is complete
//   before the next starts); within each group any permutation. The order
//   decides which operand tiles stay in SRAM between consecutive steps;
// * virtual threads: two halves of the input, weight and accumulator
//   buffers used by alternate steps (output tiles for the accumulator), so
//   that loads, compute and stores of neighbouring steps overlap.
//
// For each output tile and, inside it, each reduction tile, one step loads
// the input and weight tiles (skipped when the buffer half already holds the
// same tile), resets the accumulator tile before the first reduction tile,
// runs one GEMM over the tile, and after the last reduction tile an ALU
// epilogue writes the output buffer, which 2-D strided stores copy out. So
// the DMA sits at the outermost reduction loop of the tile nest, unless the
// DMA placement knob (`dma`) hoists the weight load out of the output-tile
// loops: the weight of every reduction tile is then loaded once per tile of
// the parallel loops it depends on.
//
// checkSchedule is the cheap query "is this schedule valid, and if not,
// why": buffer capacities (per virtual thread), micro-op buffer, loop and
// DMA field widths, the instruction limit and the accumulator dependence
// hazard (ACC_DEP_DISTANCE). A schedule it accepts always builds
// (ScheduleCodegen.h). forEachSchedule enumerates the schedule space.
//
//===----------------------------------------------------------------------===//

#ifndef RAF_TARGET_VTA_SCHEDULE_H
#define RAF_TARGET_VTA_SCHEDULE_H

#include "raf/Target/VTA/Config.h"
#include "raf/Target/VTA/CycleModel.h"
#include "raf/Target/VTA/TileProgram.h"

#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/SmallVector.h"

#include <optional>
#include <string>

namespace raf::vta {

/// One dimension of an operand's row space: index = base + sum_i
/// coefficients[i] * (tile iterator i), within [0, padLow + size +
/// padHigh). `size` indices are stored in DRAM (index - padLow); the
/// `padLow` before and `padHigh` after them read zero (a zero-padded view,
/// e.g. a convolution's padding) and are written by the loads' x/y pad
/// fields instead of being stored: padding on the fly. Only the two
/// innermost dimensions of an operand (the load's y and x) can be padded,
/// by at most 15 (VTA's 4-bit pad fields).
struct DimAccess {
  int64_t base = 0;
  llvm::SmallVector<int64_t> coefficients;
  int64_t size = 1;
  int64_t padLow = 0, padHigh = 0;
};

/// A packed GEMM kernel as the schedule sees it.
struct GemmKernelModel {
  Config config;
  /// The tile iterators (GEMM axes excluded) in kernel order: the parallel
  /// ones (the result's leading dimensions) first, then the reductions.
  llvm::SmallVector<std::string> names;
  llvm::SmallVector<int64_t> extents;
  unsigned numParallel = 0;
  /// Row spaces of the input (x, z rows), the weight (y, z rows) and the
  /// result (x, y rows; one dimension per parallel iterator).
  llvm::SmallVector<DimAccess> input, weight, output;
  /// DRAM addresses of the three regions, in rows of their buffer.
  int64_t inputBase = 0, weightBase = 0, resultBase = 0;
  /// Rows of one result plane (consecutive planes follow each other).
  int64_t resultRows = 0;
  /// Exact int32 results as four byte planes when unset; else clip(acc >>
  /// shift, -128, 127) as one plane.
  std::optional<int64_t> requantShift;
  /// A fused ALU epilogue (TVM-VTA's fused conv2d + relu / clip): the
  /// accumulators are clamped to [clampLow, clampHigh] (ALU MAX and MIN by
  /// an immediate, signed 16 bits) before the requantisation or the byte
  /// planes. Unset bounds emit no instruction.
  std::optional<int64_t> clampLow, clampHigh;
  /// A fused bias (TVM-VTA's fused conv2d + bias): int32 values added to
  /// the accumulators after the reductions, before the clamp and the
  /// requantisation. Its row space in accumulator rows (one dimension per
  /// result dimension, over the tile iterators; usually only the output
  /// channel tile has a coefficient), stored from `biasBase` (in
  /// accumulator rows). Each output tile loads its bias box into the
  /// accumulator buffer after its accumulators (LOAD acc) and adds it (ALU
  /// ADD). Empty: no bias.
  llvm::SmallVector<DimAccess> bias;
  int64_t biasBase = 0;

  bool hasBias() const { return !bias.empty(); }
  /// The ALU instructions of the fused epilogue per output tile.
  unsigned getNumClampOps() const {
    return unsigned(clampLow.has_value()) + unsigned(clampHigh.has_value()) +
           unsigned(hasBias());
  }
};

struct ScheduleLimits {
  /// When above 1, schedules whose GEMMs write an accumulator row again
  /// within this many micro-op steps are invalid (ACC_DEP_DISTANCE).
  unsigned accDependenceDistance = 0;
  /// Programs longer than this are invalid (keeps compile time and memory
  /// bounded; VTA itself streams instructions from DRAM).
  int64_t maxInstructions = int64_t(1) << 18;
};

/// What a valid schedule moves and computes, summed over the program (the
/// input of the analytic estimate, `estimateCycles`).
struct ScheduleCounts {
  int64_t steps = 0;
  int64_t outputTiles = 0;
  /// LOAD instructions and the DRAM bytes they move (input and weight).
  int64_t loadTransfers = 0;
  int64_t loadBytes = 0;
  /// STORE instructions and their bytes.
  int64_t storeTransfers = 0;
  int64_t storeBytes = 0;
  /// GEMM micro-op steps (resets included) and ALU micro-op steps.
  int64_t gemmSteps = 0;
  int64_t aluSteps = 0;
};

/// The result of checkSchedule: the message of the first violated rule, or
/// (valid) the instruction count, the counts and an estimate of the cycles
/// under the default cycle model.
struct ScheduleCheck {
  std::string problem;
  uint64_t estimatedCycles = 0;
  /// Instructions of the program (an upper bound with remainder tiles).
  int64_t instructions = 0;
  ScheduleCounts counts;
  bool valid() const { return problem.empty(); }
};

/// Whether `knobs` is a valid schedule of `kernel` within `limits`, and if
/// not, why (the first violated rule, as a sentence). Cheap: it derives the
/// tile shapes and counts, it does not build the program.
ScheduleCheck checkSchedule(const GemmKernelModel &kernel,
                            const ScheduleKnobs &knobs,
                            const ScheduleLimits &limits);

/// The analytic estimate of a valid schedule's cycles under `model`:
/// transfer (bandwidth and per-transfer latency), GEMM, ALU and store
/// cycles, serialised with one virtual thread and overlapped with two.
uint64_t estimateCycles(const ScheduleCounts &counts, int64_t virtualThreads,
                        const CycleModel &model);

/// The loop order `knobs` runs: its loopOrder, or the kernel order.
llvm::SmallVector<unsigned> getLoopOrder(const GemmKernelModel &kernel,
                                         const ScheduleKnobs &knobs);

/// Which schedules forEachSchedule enumerates.
struct ScheduleSpace {
  /// Tile sizes that do not divide the extent: for every tile count c, the
  /// most balanced size ceil(extent / c) (any larger size with the same
  /// count only grows the tiles). Off: the divisors of the extent.
  bool remainderTiles = true;
  /// Every order of the tile loops whose tile count is above 1 (parallel
  /// ones first). Off: the kernel order.
  bool loopOrders = true;
  /// Virtual thread counts to try.
  llvm::SmallVector<int64_t, 2> virtualThreads = {1, 2};
  /// Also every schedule with the weight load hoisted out of the
  /// output-tile loops (DmaPlacement::HoistWeight) where it fits. Off by
  /// default: the searches then pick the schedules they picked before the
  /// knob existed.
  bool hoistWeight = false;
};

/// The space restricted to the dimensions of the schedule before loop
/// orders and remainder tiles were modelled (divisors, kernel order).
inline ScheduleSpace getDivisorSpace() {
  ScheduleSpace space;
  space.remainderTiles = false;
  space.loopOrders = false;
  return space;
}

/// Calls `visit` on every valid schedule of the space (tilings that
/// overflow a buffer are pruned early: tiles only grow); returns how many
/// were visited. Loop orders that differ only in loops of one tile are
/// enumerated once.
int64_t forEachSchedule(
    const GemmKernelModel &kernel, const ScheduleLimits &limits,
    const ScheduleSpace &space,
    llvm::function_ref<void(const ScheduleKnobs &, const ScheduleCheck &)>
        visit);

} // namespace raf::vta

#endif // RAF_TARGET_VTA_SCHEDULE_H
