//===- TileProgram.h - VTA programs before tokens and micro-op tables -*- C++ -*-===//
//
// A VTA program at tile level (cf. Rieber 2022, §4.4.4.2): the loads,
// stores, GEMMs and ALU operations in program order, each GEMM or ALU with
// the micro-ops of its loop body inline. What a schedule decides is here
// (which tile goes where in SRAM, which loops run where); what follows from
// it is not: the dependence tokens between the three modules, the micro-op
// table, the micro-op loads and FINISH. assemble() derives those, so a
// schedule never writes a token by hand, and double buffering is nothing
// but using other SRAM rows: the tokens then let the modules overlap.
//
// The `vta` dialect's tile operations are one-to-one with TileInstruction
// (`--convert-vta-to-vta-isa` calls assemble()).
//
//===----------------------------------------------------------------------===//

#ifndef RAF_TARGET_VTA_TILEPROGRAM_H
#define RAF_TARGET_VTA_TILEPROGRAM_H

#include "raf/Target/VTA/ISA.h"

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <optional>
#include <string>
#include <vector>

namespace raf::vta {

/// One instruction of a tile program. `insn` is a LOAD (not of micro-ops),
/// STORE, GEMM or ALU with its dependence flags clear; for GEMM and ALU its
/// uopBgn/uopEnd are ignored and `uops` is the loop body instead.
struct TileInstruction {
  Instruction insn;
  std::vector<Uop> uops;
};

/// Where a schedule's weight loads sit in the tile loop nest.
enum class DmaPlacement {
  /// At every step (the outermost reduction loop): a weight tile is loaded
  /// unless the buffer half the step uses already holds it.
  Step,
  /// Hoisted out of the output-tile loops: when the tile of a parallel loop
  /// the weight depends on changes, the weight rows of that tile over the
  /// whole reduction range are loaded once and stay while the output tiles
  /// inside it move (TVM's weight reuse: the weight load placed at an
  /// outer loop of the VTA conv2d schedule, Rieber 2022, §4.4.4.2).
  HoistWeight,
};

/// "step" or "hoist_weight".
inline llvm::StringRef stringifyDmaPlacement(DmaPlacement placement) {
  return placement == DmaPlacement::HoistWeight ? "hoist_weight" : "step";
}
inline std::optional<DmaPlacement> symbolizeDmaPlacement(llvm::StringRef name) {
  if (name == "step")
    return DmaPlacement::Step;
  if (name == "hoist_weight")
    return DmaPlacement::HoistWeight;
  return std::nullopt;
}

/// The knobs a schedule chose, kept with the program for reports and for
/// the `vta` dialect's attributes.
struct ScheduleKnobs {
  /// Tile size of every tile iterator of the kernel, outermost first.
  std::vector<int64_t> tileSizes;
  /// 1, or 2 for double-buffered input/weight and output tiles.
  int64_t virtualThreads = 1;
  /// The tile loops, outermost first, as tile-iterator indices (a
  /// permutation with the parallel iterators first); empty: kernel order.
  std::vector<int64_t> loopOrder;
  /// Where the weight loads sit.
  DmaPlacement dma = DmaPlacement::Step;

  bool operator==(const ScheduleKnobs &other) const {
    return tileSizes == other.tileSizes &&
           virtualThreads == other.virtualThreads &&
           loopOrder == other.loopOrder && dma == other.dma;
  }
};

struct TileProgram {
  Config config;
  ScheduleKnobs knobs;
  std::vector<TileInstruction> instructions;
};

/// The SRAM rows of one buffer an instruction touches, as a half-open
/// interval (empty when begin == end).
struct BufferRange {
  Buffer buffer;
  int64_t begin = 0;
  int64_t end = 0;
  bool write = false;
};

/// Every buffer range `insn` reads or writes (GEMM: inp and wgt read, acc
/// read and written, out written, as the HLS GEMM writes the low byte of
/// each result to the output buffer too; reset: acc and out written; ALU:
/// acc read and written, out written; LOAD: its buffer, padding included,
/// written; STORE: out read). GEMM/ALU ranges are bounding intervals over
/// the loop nest and `uops`.
std::vector<BufferRange> getBufferRanges(const Config &config,
                                         const TileInstruction &insn);

/// The instruction-level program: one micro-op table with identical loop
/// bodies shared, micro-op loads first, dependence tokens wherever two
/// modules touch the same SRAM rows (read after write, write after read,
/// write after write, in program order; each instruction waits for the
/// latest conflicting one of each neighbouring module), and FINISH after
/// everything. Fails with a message when the micro-ops do not fit the
/// micro-op buffer or an instruction is not a tile instruction.
llvm::Expected<Program> assemble(const TileProgram &tiles);

} // namespace raf::vta

#endif // RAF_TARGET_VTA_TILEPROGRAM_H
