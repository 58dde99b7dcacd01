//===- TiledSchedule.h - tiling a packed GEMM kernel for VTA ----*- C++ -*-===//
//
// A packed GEMM kernel (the result of --tcg-apply-strategy) computes
// c[t..] = sum_{r..} a[..] * b[..] over tile iterators t (parallel) and r
// (reductions), where every operand is a row-major tensor of buffer rows
// (the GEMM axes x, y, z live inside a row) indexed by affine functions of
// the tile iterators. A schedule tiles every tile iterator (ScheduleKnobs:
// one tile size each, dividing its extent, and 1 or 2 virtual threads) and
// runs, for each output tile and, inside it, each reduction tile, one step:
// DMA the input and weight tiles (skipped when the same tile is already in
// the buffer half the step uses), and one GEMM over the tile. The
// accumulator tile is reset before the first reduction tile, and after the
// last one an ALU epilogue (exact int32 byte planes, or shift and clip)
// writes the output buffer, which 2-D strided stores copy out. So the DMA
// sits at the outermost reduction loop of the tile nest, as in the
// dissertation's schedules (Rieber 2022, §4.4.4.2).
//
// Each operand tile is the bounding box of its rows, stored densely in SRAM;
// a box is loaded with 2-D strided DMAs (y_size rows of x_size contiguous
// rows, x_stride apart), one per remaining outer index. Two virtual threads
// give each of the input, weight and accumulator buffers two halves used by
// alternate steps (output tiles for the accumulator); the dependence tokens
// that assemble() derives from the SRAM rows then let loads, compute and
// stores of neighbouring steps overlap.
//
// The schedule search (searchSchedule) enumerates every valid knob
// combination (capacities of the input, weight and accumulator buffers per
// thread, the micro-op buffer, DMA and loop field widths, the instruction
// limit), ranks them by an analytic estimate, and simulates the best ones
// (or all of them) on the cycle model; the fewest cycles win. Baseline and
// dataflow-embedding strategies are packed kernels alike, so both go
// through the same search.
//
//===----------------------------------------------------------------------===//

#ifndef RAF_CONVERSION_TCGTOVTA_TILEDSCHEDULE_H
#define RAF_CONVERSION_TCGTOVTA_TILEDSCHEDULE_H

#include "raf/Target/VTA/CycleModel.h"
#include "raf/Target/VTA/Simulator.h"
#include "raf/Target/VTA/TileProgram.h"

#include "llvm/ADT/SmallVector.h"
#include "llvm/Support/Error.h"

#include <optional>
#include <string>

namespace raf::vta {

/// One dimension of an operand's row space: index = base + sum_i
/// coefficients[i] * (tile iterator i), within [0, size).
struct DimAccess {
  int64_t base = 0;
  llvm::SmallVector<int64_t> coefficients;
  int64_t size = 1;
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
};

struct ScheduleLimits {
  /// When above 1, schedules whose GEMMs write an accumulator row again
  /// within this many micro-op steps are invalid (ACC_DEP_DISTANCE).
  unsigned accDependenceDistance = 0;
  /// Programs longer than this are invalid (keeps compile time and memory
  /// bounded; VTA itself streams instructions from DRAM).
  int64_t maxInstructions = int64_t(1) << 18;
};

/// Checks `knobs` against the kernel and the limits; the message of the
/// first violated rule, or an estimate of the cycles.
struct ScheduleCheck {
  std::string problem;
  uint64_t estimatedCycles = 0;
  int64_t instructions = 0;
  bool valid() const { return problem.empty(); }
};
ScheduleCheck checkSchedule(const GemmKernelModel &kernel,
                            const ScheduleKnobs &knobs,
                            const ScheduleLimits &limits);

/// The tile program of valid `knobs`; fails with a message when the
/// accumulator dependence distance cannot be kept.
llvm::Expected<TileProgram> buildSchedule(const GemmKernelModel &kernel,
                                          const ScheduleKnobs &knobs,
                                          const ScheduleLimits &limits);

enum class SearchMode {
  /// Simulate the `simulate` best configurations by the estimate.
  Pruned,
  /// Simulate every valid configuration.
  Exhaustive,
};

struct SearchOptions {
  SearchMode mode = SearchMode::Pruned;
  unsigned simulate = 8;
  CycleModel cycleModel;
  /// When set, only this configuration is considered.
  std::optional<ScheduleKnobs> given;
};

struct SearchResult {
  ScheduleKnobs knobs;
  /// The schedule's tile program and its assembled program.
  TileProgram tiles;
  Program program;
  SimulationResult timing;
  /// Valid configurations found, and how many were simulated.
  int64_t validConfigurations = 0;
  int64_t simulated = 0;
};

/// The fastest schedule by the cycle model; fails with the reason why no
/// configuration is valid (the smallest one's violated rule), or why the
/// given one is not.
llvm::Expected<SearchResult> searchSchedule(const GemmKernelModel &kernel,
                                            const ScheduleLimits &limits,
                                            const SearchOptions &options);

} // namespace raf::vta

#endif // RAF_CONVERSION_TCGTOVTA_TILEDSCHEDULE_H
