//===- ScheduleGeometry.h - tile shapes of a VTA schedule -------*- C++ -*-===//
//
// Shared by the validity check (Schedule.cpp) and code generation
// (ScheduleCodegen.cpp): the tile boxes, SRAM layouts, DMA plans and GEMM
// loops of one tile shape, and the loop nest over the tiles. Not a public
// header.
//
//===----------------------------------------------------------------------===//

#ifndef RAF_LIB_TARGET_VTA_SCHEDULEGEOMETRY_H
#define RAF_LIB_TARGET_VTA_SCHEDULEGEOMETRY_H

#include "raf/Target/VTA/Layout.h"
#include "raf/Target/VTA/Schedule.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/STLExtras.h"

#include <map>
#include <memory>

namespace raf::vta::detail {

/// Rows a DMA field (y_size, x_size, x_stride) can hold.
constexpr int64_t kMemFieldLimit = int64_t(1) << widths::MemSize;
/// Iterations a GEMM or ALU loop can run.
constexpr int64_t kLoopLimit = int64_t(1) << widths::LoopIter;

/// The bounding box of an operand's rows over one tile: per dimension, the
/// lowest index and the number of indices.
struct Box {
  llvm::SmallVector<int64_t> lo, len;
  int64_t rows = 1;
};
Box getBox(llvm::ArrayRef<DimAccess> dims, llvm::ArrayRef<int64_t> origin,
           llvm::ArrayRef<int64_t> tile);

/// An operand's SRAM row within its dense tile box as an affine function of
/// the within-tile iterator offsets: offset + sum_i coefficients[i] * j_i.
struct TileAccess {
  llvm::SmallVector<int64_t> coefficients;
  int64_t offset = 0;
};

/// How a box moves between DRAM and its dense SRAM copy: 2-D transfers of
/// `ySize` runs of `xSize` consecutive rows, `xStride` rows apart in DRAM,
/// one per index of the `outer` dimensions (length, DRAM stride), outermost
/// first.
///
/// For an operand padded on the fly, x is the innermost dimension and y the
/// next one, never merged: each transfer clips the box to the stored rows
/// and pads the rest (`padded`).
struct DmaPlan {
  int64_t ySize = 1, xSize = 1, xStride = 1;
  llvm::SmallVector<std::pair<int64_t, int64_t>> outer;
  bool padded = false;
  int64_t count() const;
};

/// Whether any dimension of `dims` is padded on the fly.
bool isPadded(llvm::ArrayRef<DimAccess> dims);

/// Zero-filling loads write at most this many padding rows of y.
constexpr int64_t kPadLimit = (int64_t(1) << widths::Pad) - 1;

/// Calls `emit(sramOffset, dramRow)` for every transfer of a box whose
/// first row is `dramFirst` in DRAM.
void forEachTransfer(const DmaPlan &plan, int64_t dramFirst,
                     llvm::function_ref<void(int64_t, int64_t)> emit);

/// The DRAM row (within its region) of a box's first row.
int64_t dramFirstRow(llvm::ArrayRef<DimAccess> dims, const Box &box);

bool dependsOn(llvm::ArrayRef<DimAccess> dims, unsigned iterator);

/// Everything about one tile shape (the tile sizes a step actually runs:
/// the schedule's, or a remainder at the end of a loop) that does not
/// depend on the tile's position.
struct TileShape {
  const GemmKernelModel &kernel;
  llvm::SmallVector<int64_t> tiles;
  /// With DmaPlacement::HoistWeight the weight box, its SRAM access and DMA
  /// plan span the whole reduction range (the resident weight of the
  /// tile's parallel loops); a step at reduction origin r then reads the
  /// rows `wgt` gives shifted by sum over reductions of
  /// wgt.coefficients[i] * r_i.
  bool hoistWeight = false;
  Box inputBox, weightBox, outputBox;
  TileAccess src, wgt, dst;
  DmaPlan inputDma, weightDma, outputDma;
  int64_t accRows = 1;
  /// The fused bias (GemmKernelModel::bias): its box, its rows in the
  /// accumulator buffer after the accumulator tile, its DMA plan, and the
  /// ALU ADD's loops (up to two parallel iterators) and the iterators its
  /// micro-ops enumerate.
  Box biasBox;
  TileAccess biasAccess;
  DmaPlan biasDma;
  llvm::SmallVector<unsigned> biasLoops, biasEnumerated;
  /// Micro-ops of the bias ALU ADD.
  int64_t biasUops() const;
  /// The GEMM's loops (iter_out, iter_in) and the iterators its micro-ops
  /// enumerate, slowest first; set by chooseLoops.
  llvm::SmallVector<unsigned> loops, enumerated;

  TileShape(const GemmKernelModel &kernel, llvm::ArrayRef<int64_t> tiles,
            bool hoistWeight = false);

  /// The weight row offset of the step at `origin` (0 unless hoisted).
  int64_t weightOffset(llvm::ArrayRef<int64_t> origin) const;

  /// Micro-op steps of one GEMM over the tile.
  int64_t gemmSteps() const;
  /// Micro-ops of one GEMM body with `loops` as its loops.
  int64_t countUops(llvm::ArrayRef<unsigned> loops) const;
  /// Chooses the GEMM loops: the two longest iterators that can be loops,
  /// or, when `distance` > 1 and that writes an accumulator row again
  /// within `distance` micro-op steps, only reductions. False when neither
  /// keeps the distance.
  bool chooseLoops(unsigned distance);

private:
  bool canLoop(unsigned i) const;
  llvm::SmallVector<unsigned> pickLoops(bool reductionsOnly) const;
  llvm::SmallVector<unsigned> enumerate(llvm::ArrayRef<unsigned> loops) const;
  bool keepsDistance(llvm::ArrayRef<unsigned> loops, unsigned distance) const;
};

/// The loop nest over the tiles of a schedule whose tile sizes are
/// positive and as many as the iterators.
struct TileNest {
  const GemmKernelModel &kernel;
  const ScheduleKnobs &knobs;
  unsigned n;
  /// Tiles per iterator (the last one a remainder when the size does not
  /// divide) and the loop order, outermost first.
  llvm::SmallVector<int64_t> counts;
  llvm::SmallVector<unsigned> order;
  int64_t outputTiles = 1, reductionTiles = 1;
  unsigned planes, aluOps;

  TileNest(const GemmKernelModel &kernel, const ScheduleKnobs &knobs);

  int64_t steps() const { return outputTiles * reductionTiles; }
  /// Tile size of iterator `i` at tile index `digit`.
  int64_t tileAt(unsigned i, int64_t digit) const;
  /// The sizes iterator `i` takes (one, or the full and the remainder).
  llvm::SmallVector<int64_t, 2> sizesOf(unsigned i) const;
  /// Steps that load the operand with `dims`: the tile changes whenever a
  /// loop at or outside the innermost one it depends on (with more than
  /// one tile) moves.
  int64_t loads(llvm::ArrayRef<DimAccess> dims) const;
  /// Steps (or, hoisted, output tiles) that load the weight. Hoisted, the
  /// resident weight changes whenever a parallel loop at or outside the
  /// innermost one it depends on (with more than one tile) moves.
  int64_t weightLoads() const;
  bool hoistsWeight() const {
    return knobs.dma == DmaPlacement::HoistWeight;
  }
  /// Distinct (input half, accumulator half) pairs the GEMMs use, each
  /// with its own micro-ops (times the weight halves when hoisted).
  int64_t gemmUopLists() const;
  /// Distinct weight offsets (TileShape::weightOffset) the steps of tile
  /// shape `shape` use: 1 unless hoisted, else the reduction tiles of that
  /// shape's sizes.
  int64_t weightOffsets(const TileShape &shape) const;
  /// Every tile shape the nest runs, keyed by its tile sizes.
  std::map<llvm::SmallVector<int64_t>, std::unique_ptr<TileShape>>
  getShapes() const;
};

} // namespace raf::vta::detail

#endif // RAF_LIB_TARGET_VTA_SCHEDULEGEOMETRY_H
