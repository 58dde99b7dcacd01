//===- TCGToVTA.h - packed GEMM kernels to VTA programs ---------*- C++ -*-===//
//
// Lowers a packed tcg.kernel (the result of --tcg-apply-strategy, marked
// `tcg.tensorize = "vta.gemm.<B>x<I>x<O>"`) to a VTA program and the DRAM
// image layout its operands and result live in. See docs/vta.md, "Lowering
// packed kernels".
//
//===----------------------------------------------------------------------===//

#ifndef RAF_CONVERSION_TCGTOVTA_TCGTOVTA_H
#define RAF_CONVERSION_TCGTOVTA_TCGTOVTA_H

#include "raf/Dialect/TCG/IR/TCGOps.h"
#include "raf/Target/VTA/CycleModel.h"
#include "raf/Target/VTA/ISA.h"
#include "raf/Target/VTA/Schedule.h"
#include "raf/Target/VTA/Simulator.h"
#include "raf/Target/VTA/TileProgram.h"

#include "mlir/IR/Builders.h"
#include "mlir/Support/LLVM.h"

#include <functional>
#include <optional>

namespace raf::vta {

struct PackedGemmLoweringOptions {
  /// Without a shift, the program returns the exact int32 accumulators as
  /// four int8 byte planes (see PackedGemmLowering::numPlanes). With one,
  /// it requantises: the result is clip(acc >> shift, -128, 127) as int8,
  /// one plane. The shift must lie in [0, 15] (an ALU SHR immediate).
  std::optional<int64_t> requantShift;
  /// A fused epilogue (FusedEpilogue): the accumulators are clamped to
  /// [clampLow, clampHigh] before the requantisation or the byte planes.
  std::optional<int64_t> clampLow, clampHigh;
  /// A fused bias (FusedBias): when set, the program adds int32 bias rows,
  /// read from a third operand laid out [dims..., BATCH, BLOCK_OUT], to the
  /// accumulators before the clamp. The rows vary along these parallel tile
  /// iterators (dimensions of the packed result); none: one row for all.
  std::optional<llvm::SmallVector<unsigned>> biasDims;
  /// When above 1, fail if a GEMM writes an accumulator row again fewer
  /// than this many micro-op steps after writing it (ACC_DEP_DISTANCE, 3 on
  /// TVM-VTA; see findAccDependenceHazard). The schedule avoids such steps
  /// where it can either way; the simulator computes the same result.
  unsigned accDependenceDistance = 0;
  /// The schedule search (TiledSchedule.h): simulate every valid
  /// configuration, or only the `simulateCandidates` best by the estimate.
  bool exhaustiveSearch = false;
  unsigned simulateCandidates = 8;
  /// The search also tries the weight load hoisted out of the output-tile
  /// loops (ScheduleSpace::hoistWeight).
  bool hoistWeight = false;
  /// A given schedule instead of the search: one tile size per tile
  /// iterator (parallel ones first, in kernel order), and 1 or 2 virtual
  /// threads. An invalid one is an error naming the violated limit.
  std::vector<int64_t> tileSizes;
  int64_t virtualThreads = 1;
  /// Programs with more instructions are invalid schedules.
  int64_t maxInstructions = int64_t(1) << 18;
  /// The cost of a schedule.
  CycleModel cycleModel;
  /// When set, chooses the schedule of a kernel that carries none instead
  /// of the search (--vta-schedule=method=tune: an auto-tuner); the choice
  /// is then checked and compiled like a given schedule.
  std::function<llvm::Expected<ScheduleKnobs>(const GemmKernelModel &,
                                              const ScheduleLimits &)>
      chooseSchedule;
};

/// A lowered kernel: the program and where it expects its operands and
/// leaves its result in the DRAM image (byte offsets, each aligned to the
/// row size of the buffer it is transferred to or from). The operands are
/// stored exactly as the packed tensors are laid out row-major, since their
/// two innermost dimensions are one buffer row.
struct PackedGemmLowering {
  /// The tile-level program (the `vta` dialect's level) and the assembled
  /// instruction-level program.
  TileProgram tiles;
  Program program;
  /// Kernel operand numbers of the GEMM's input (x, z) and weight (y, z).
  unsigned inputOperand = 0;
  unsigned weightOperand = 1;
  int64_t inputOffset = 0;
  int64_t weightOffset = 0;
  /// The fused bias (PackedGemmLoweringOptions::biasDims): `biasRows`
  /// accumulator rows of int32 from `biasOffset`, the launch's third operand.
  std::optional<int64_t> biasOffset;
  int64_t biasRows = 0;
  /// The result: `numPlanes` consecutive planes of `resultRows` output rows
  /// each (the packed result's elements in row-major order, one byte each).
  /// With 4 planes, plane k holds bits [8k, 8k + 8) of every int32 element.
  int64_t resultOffset = 0;
  int64_t resultRows = 0;
  int64_t resultRowBytes = 0;
  unsigned numPlanes = 4;
  /// Bytes of the whole DRAM image.
  int64_t dramBytes = 0;
  /// The chosen schedule, its cycles on the cycle model, and the search
  /// that found it.
  ScheduleKnobs knobs;
  std::vector<std::string> iteratorNames;
  SimulationResult timing;
  int64_t validConfigurations = 0;
  int64_t simulatedConfigurations = 0;
};

/// Lowers `kernel`. Errors (not a packed VTA GEMM, element types other than
/// int8 x int8 -> int32, an operand that does not fit its on-chip buffer
/// even when one parallel tile iterator is split into chunks, a schedule
/// whose micro-ops or loop factors do not fit) are emitted as diagnostics
/// located at the kernel.
mlir::FailureOr<PackedGemmLowering>
lowerPackedGemm(tcg::KernelOp kernel,
                const PackedGemmLoweringOptions &options = {});

/// A per-channel bias added to a packed kernel's result, fused into its
/// program as TVM-VTA's fused conv2d + bias (an ACC load of the bias rows
/// and an ALU ADD): `relay.nn.bias_add(%r, %b)` or `relay.add` of `%r` and
/// a tensor that broadcasts into it along at most one axis, where `%r` is
/// the kernel's result after the reshapes, transposes and strided slices
/// that unpack it, and `%b` is defined before the kernel. The host builds
/// the bias rows in the packed result's layout with one relay.take of the
/// flattened `%b` (`indices`, a constant), the launch's third operand.
struct FusedBias {
  /// The relay.nn.bias_add or relay.add the program computes.
  mlir::Operation *op = nullptr;
  /// Its operand on the kernel's side, and the bias.
  mlir::Value input, bias;
  /// The packed result dimensions (parallel tile iterators) the bias rows
  /// vary along, and the index into the flattened bias of every element of
  /// the rows, shaped [dims..., BATCH, BLOCK_OUT] (one row when `dims` is
  /// empty).
  llvm::SmallVector<unsigned> dims;
  llvm::SmallVector<int64_t> rowShape;
  std::vector<int32_t> indices;
};

/// Element-wise operations after a packed kernel that its program computes
/// in the ALU epilogue, as TVM-VTA's fused conv2d + bias + relu / clip: an
/// optional bias (FusedBias) first, then a chain of single-use
/// relay.nn.relu, relay.maximum and relay.minimum with an integer splat
/// constant, reached from the kernel's result through the reshapes,
/// transposes and strided slices that unpack it (element-wise operations
/// commute with them). The chain is one clamp min(max(acc + bias, clampLow),
/// clampHigh); it stops before an operation whose bound would not fit an
/// ALU immediate (signed 16 bits).
struct FusedEpilogue {
  std::optional<FusedBias> bias;
  std::optional<int64_t> clampLow, clampHigh;
  /// The relay operations the clamp replaces, in order.
  llvm::SmallVector<mlir::Operation *> fused;

  bool empty() const { return fused.empty() && !bias; }
  /// Sets the bias and the clamp in `options`.
  void apply(PackedGemmLoweringOptions &options) const;
  /// Builds the bias rows for the launch (a relay.reshape to one dimension
  /// when the bias has another rank, and a relay.take) at the builder's
  /// insertion point; null without a bias.
  mlir::Value buildBiasRows(mlir::OpBuilder &builder,
                            mlir::Location loc) const;
  /// Removes the fused operations (each forwards its tensor operand); call
  /// once the kernel is replaced by the launch of its program.
  void eraseFusedOps() const;
};

/// The fused epilogue of `kernel` (empty when nothing follows it that the
/// ALU can compute).
FusedEpilogue matchFusedEpilogue(tcg::KernelOp kernel);

/// The attribute holding a kernel's `#vta.schedule`.
constexpr llvm::StringLiteral kScheduleAttrName = "vta.schedule";

/// The attribute by which a kernel kept by --convert-tcg-to-vta's
/// keep-kernels (--tcg-lower-to-vta) refers to its program's symbol.
constexpr llvm::StringLiteral kProgramAttrName = "vta.program";

/// The target name a `#tcg.tensorize` of a VTA instruction carries.
constexpr llvm::StringLiteral kVTATarget = "vta";

/// Whether `kernel` is tensorized with a VTA instruction (its
/// `#tcg.tensorize` names the target "vta").
bool isVTAKernel(tcg::KernelOp kernel);

} // namespace raf::vta

#endif // RAF_CONVERSION_TCGTOVTA_TCGTOVTA_H
