//===- VTAScheduleSpace.h - VTA schedules as a tuning space -----*- C++ -*-===//
//
// The adapter from the VTA schedule model (raf/Target/VTA/Schedule.h) to
// the TuningSpace of the tuners. The knobs follow TVM's VTA conv2d
// template (vta/python/vta/top/vta_conv2d.py) as Rieber 2022 (§5.1, Tab.
// 5.1) used it, with the loop-permutation knob the dissertation added:
//
// * tile_b, tile_h, tile_w, tile_ci, tile_co: a tile size dividing the
//   extent of the packed batch, output row, output column, input-channel
//   block and output-channel block iterators (TVM's define_split with its
//   default factor policy); the kernel window (kh, kw) is not split, as in
//   TVM's template. Other tile iterators (of kernels that are not
//   convolutions) get a knob `tile_<name>` of the same kind;
// * oc_nthread, h_nthread in {1, 2}: the schedule runs oc_nthread *
//   h_nthread virtual threads. Our schedule alternates one pair of buffer
//   halves between consecutive steps whichever loop they split, so
//   (2, 1) and (1, 2) give the same schedule, and (2, 2), four threads,
//   is refused by the schedule's check;
// * permutation in {0, 1, 2, 3}: the order of the output-tile loops, b
//   outermost: (co, h, w), (co, w, h), (h, w, co), (w, h, co); the
//   reduction loops keep the kernel order (ci, kh, kw). The dissertation
//   does not list its four permutations; these are ours;
// * dma in {step, hoist_weight} (only with `dmaKnob`, off by default, so
//   that the spaces keep the sizes of Tab. 5.1): the DMA placement of
//   #vta.schedule, the weight loads at every step or hoisted out of the
//   output-tile loops. TVM's template has no such knob; it is the last
//   knob, so configuration 2i + d of the larger space is configuration i
//   of the template space with `dma = step` (d = 0) or `hoist_weight`
//   (d = 1). Whether a
//   hoisted weight fits is the schedule's check; the TVM-pipeline rules
//   judge the tiles as without it.
//
// The validity query is checkSchedule; the cost is the schedule's cycles
// on the cycle model (simulateSchedule), memoised per distinct schedule.
//
// With ValidityRules::TVMPipeline, a configuration must in addition pass
// the rules TVM's VTA pipeline imposes on the template's copies (the
// dissertation's validity: what TVM compiles, §5.1): every tile load and
// store is one 2D DMA after TVM folds contiguous dimensions, and a load
// that pads on the fly copies exactly the (y, x) rows of one channel block
// (vta/python/vta/transform.py, InjectDMAIntrin: _fold_buffer_dim,
// _get_2d_pattern, _inject_copy), and the thread counts divide the tile
// loops they split. The hardware executes such tiles as several loads, and
// our code generation emits them, so these rules are TVM's software
// limits, not the accelerator's.
//
//===----------------------------------------------------------------------===//

#ifndef RAF_TUNING_VTASCHEDULESPACE_H
#define RAF_TUNING_VTASCHEDULESPACE_H

#include "raf/Target/VTA/CycleModel.h"
#include "raf/Target/VTA/Schedule.h"
#include "raf/Tuning/Tuner.h"
#include "raf/Tuning/TuningSpace.h"

#include <map>

namespace raf {
namespace tuning {

/// A convolution in NCHW / OIHW (DeepBench's fields).
struct ConvLayer {
  int64_t n = 1, c = 1, h = 1, w = 1, oc = 1, kh = 1, kw = 1;
  int64_t padH = 0, padW = 0, strideH = 1, strideW = 1;
  int64_t outH() const { return (h + 2 * padH - kh) / strideH + 1; }
  int64_t outW() const { return (w + 2 * padW - kw) / strideW + 1; }
};

/// The packed kernel TVM's VTA strategy runs for `layer` on a GEMM core of
/// `batch` x `block` x `block` (NCHW{batch}n{block}c input, OIHW{block}o
/// {block}i weights, channels rounded up to the block), as
/// --tcg-dataflow-embed=mode=strict and --tcg-apply-strategy produce it and
/// --raf-vta-pipeline compiles it: with `padOnTheFly`, a padding of at most
/// 15 (VTA's 4-bit load pad fields) stays out of DRAM and the loads write
/// it, as --tcg-apply-strategy arranges (a larger one, or every padding
/// without `padOnTheFly`, is stored in DRAM); with `requantShift`, one int8
/// result plane; `clampLow` / `clampHigh`, the fused ALU epilogue of a ReLU
/// or clip after the convolution (--convert-tcg-to-vta fuse-epilogue).
vta::GemmKernelModel
makeConvKernelModel(const ConvLayer &layer, int64_t batch = 1,
                    int64_t block = 16, std::optional<int64_t> requantShift = 8,
                    bool padOnTheFly = true,
                    std::optional<int64_t> clampLow = std::nullopt,
                    std::optional<int64_t> clampHigh = std::nullopt);

/// Which configurations count as valid.
enum class ValidityRules {
  /// checkSchedule: what our code generation builds and the hardware runs.
  Schedule,
  /// checkSchedule and TVM's single-2D-DMA copies (the dissertation's
  /// compile-based validity).
  TVMPipeline,
};

class VTAScheduleSpace : public TuningSpace {
public:
  /// With `dmaKnob`, the space has the DMA placement knob `dma` (twice the
  /// configurations).
  VTAScheduleSpace(vta::GemmKernelModel kernel, vta::ScheduleLimits limits,
                   vta::CycleModel cycleModel = vta::CycleModel(),
                   bool dmaKnob = false);

  /// Selects the validity rules; `paddedInput` says that TVM pads the input
  /// on the fly (the layer has padding).
  void setValidityRules(ValidityRules rules, bool paddedInput = false) {
    this->rules = rules;
    this->paddedInput = paddedInput;
  }
  ValidityRules getValidityRules() const { return rules; }
  /// The TVM-pipeline rules alone: empty if TVM's VTA pipeline can copy
  /// every tile of the configuration with one 2D DMA and split its loops
  /// among its virtual threads, else the problem.
  std::string checkTVMPipeline(const Point &point) const;

  llvm::ArrayRef<Knob> getKnobs() const override { return knobs; }
  Validity checkValidity(const Point &point) override;
  std::optional<double> measure(const Point &point) override;

  /// Features of a configuration that mean the same in every layer's space
  /// (for transfer learning; the knob features do not, their values
  /// depend on the layer): the tile's rows in each buffer and the share of
  /// the buffer they fill, virtual threads, loop permutation, tile counts,
  /// rows loaded, micro-ops and arithmetic intensity per tile, the DMA
  /// dimensions of the copies and the share of each extent a tile covers,
  /// in the spirit of AutoTVM's relation features (memory accesses and
  /// arithmetic aggregated over the loops). Every configuration has them.
  void appendRelationFeatures(uint64_t index,
                              std::vector<float> &features) const;
  static constexpr unsigned kNumRelationFeatures = 27;
  /// Multiply-accumulates of the kernel (for throughputs comparable across
  /// layers).
  double getWork() const;

  /// The schedule a configuration stands for.
  vta::ScheduleKnobs getSchedule(const Point &point) const;
  /// A description of the kernel, the knobs and the cycle model, for the
  /// ground-truth cache.
  std::string getKey() const;
  const vta::GemmKernelModel &getKernel() const { return kernel; }

private:
  vta::GemmKernelModel kernel;
  vta::ScheduleLimits limits;
  vta::CycleModel cycleModel;
  std::vector<Knob> knobs;
  /// For each tile iterator, its knob, or -1 when it is not split.
  std::vector<int> tileKnob;
  int ocThreadKnob = -1, hThreadKnob = -1, permutationKnob = -1;
  int dmaKnob = -1;
  ValidityRules rules = ValidityRules::Schedule;
  bool paddedInput = false;
  /// Tile iterators by role (-1 when absent).
  int iterB = -1, iterCo = -1, iterH = -1, iterW = -1;
  std::map<std::vector<int64_t>, std::optional<double>> measured;
};

/// Tunes the schedule of `kernel` with `options` on the cycle model (every
/// trial is a simulation) and returns the fastest schedule measured; fails
/// if no trial was valid. --vta-schedule=method=tune runs it. `dmaKnob`
/// adds the DMA placement knob to the space.
llvm::Expected<vta::ScheduleKnobs>
tuneSchedule(const vta::GemmKernelModel &kernel,
             const vta::ScheduleLimits &limits, const TunerOptions &options,
             const vta::CycleModel &cycleModel = vta::CycleModel(),
             bool dmaKnob = false);

} // namespace tuning
} // namespace raf

#endif // RAF_TUNING_VTASCHEDULESPACE_H
