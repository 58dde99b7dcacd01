//===- TileProgram.cpp - tokens and micro-op tables for tile programs -----===//
//
// assemble() turns a tile program into an instruction-level one in three
// steps: the micro-op table (identical loop bodies share one range), the
// micro-op loads, and the dependence tokens. Tokens come from buffer
// conflicts alone: an instruction waits for the latest earlier instruction
// of each neighbouring module that touches the same rows of the same buffer
// with at least one of the two writing. Because every module runs its
// queue in order, waiting for the latest conflicting instruction covers
// all earlier ones, and a wait already implied by an earlier one of the
// same module is dropped.
//
//===----------------------------------------------------------------------===//

#include "raf/Target/VTA/TileProgram.h"

#include "raf/Target/VTA/Checks.h"
#include "raf/Target/VTA/Layout.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FormatVariadic.h"

#include <algorithm>
#include <array>
#include <map>
#include <optional>
#include <tuple>

using namespace raf::vta;

namespace {

/// Half-open row interval [begin, end) of `base + factorOut * o + factorIn
/// * i` over the loop nest, for every base in `bases`. Factors are unsigned
/// fields, so the largest row is reached in the last iteration of both loops.
std::pair<int64_t, int64_t> loopInterval(llvm::ArrayRef<int64_t> bases,
                                         const Instruction &insn,
                                         int64_t factorOut, int64_t factorIn) {
  int64_t lo = *std::min_element(bases.begin(), bases.end());
  int64_t hi = *std::max_element(bases.begin(), bases.end());
  hi += factorOut * (insn.iterOut - 1) + factorIn * (insn.iterIn - 1);
  return {lo, hi + 1};
}

std::string describe(size_t index, const Instruction &insn) {
  std::string text = llvm::formatv("tile instruction {0} ({1}", index,
                                   getOpcodeName(insn.opcode))
                         .str();
  if (insn.opcode == Opcode::Load || insn.opcode == Opcode::Store)
    text += " " + getMemoryTypeName(insn.memoryType).str();
  return text + ")";
}

/// The DRAM bytes a LOAD or STORE touches, as a bounding interval (rows are
/// x_stride elements apart, so a strided transfer has gaps the interval
/// covers).
std::pair<uint64_t, uint64_t> dramBytes(const Config &config,
                                        const Instruction &insn) {
  if (insn.ySize == 0 || insn.xSize == 0)
    return {0, 0};
  uint64_t elem = config.elemBytes(getBuffer(insn.memoryType));
  uint64_t first = uint64_t(insn.dramBase);
  uint64_t last =
      first + uint64_t(insn.ySize - 1) * uint64_t(insn.xStride) + insn.xSize;
  return {first * elem, last * elem};
}

bool conflict(llvm::ArrayRef<BufferRange> a, llvm::ArrayRef<BufferRange> b) {
  for (const BufferRange &x : a)
    for (const BufferRange &y : b)
      if (x.buffer == y.buffer && (x.write || y.write) && x.begin < y.end &&
          y.begin < x.end && x.begin < x.end && y.begin < y.end)
        return true;
  return false;
}

/// Which neighbour of `module` `other` is, if it is one.
enum class Side { Prev, Next };
std::optional<Side> getSide(Module module, Module other) {
  if (int(other) + 1 == int(module))
    return Side::Prev;
  if (int(other) == int(module) + 1)
    return Side::Next;
  return std::nullopt;
}

void setPop(Instruction &insn, Side side) {
  (side == Side::Prev ? insn.popPrevDep : insn.popNextDep) = true;
}
void setPush(Instruction &insn, Side side) {
  (side == Side::Prev ? insn.pushPrevDep : insn.pushNextDep) = true;
}

using UopKey = std::vector<std::tuple<int64_t, int64_t, int64_t>>;

UopKey getKey(llvm::ArrayRef<Uop> uops) {
  UopKey key;
  for (const Uop &uop : uops)
    key.emplace_back(uop.dstIdx, uop.srcIdx, uop.wgtIdx);
  return key;
}

} // namespace

std::vector<BufferRange>
raf::vta::getBufferRanges(const Config &config, const TileInstruction &tile) {
  const Instruction &insn = tile.insn;
  std::vector<BufferRange> ranges;
  auto add = [&](Buffer buffer, std::pair<int64_t, int64_t> rows, bool write) {
    ranges.push_back({buffer, rows.first, rows.second, write});
  };
  switch (insn.opcode) {
  case Opcode::Load: {
    // A load of no columns writes nothing; one of no DRAM rows still
    // writes its padding rows (Simulator.h).
    int64_t rows = 0;
    if (insn.xSize != 0)
      rows = (insn.yPad0 + insn.ySize + insn.yPad1) *
             (insn.xPad0 + insn.xSize + insn.xPad1);
    add(getBuffer(insn.memoryType), {insn.sramBase, insn.sramBase + rows},
        /*write=*/true);
    break;
  }
  case Opcode::Store:
    add(Buffer::Out, {insn.sramBase, insn.sramBase + insn.ySize * insn.xSize},
        /*write=*/false);
    break;
  case Opcode::Gemm:
  case Opcode::Alu: {
    if (tile.uops.empty() || insn.iterOut <= 0 || insn.iterIn <= 0)
      break;
    llvm::SmallVector<int64_t> dst, src, wgt;
    for (const Uop &uop : tile.uops) {
      dst.push_back(uop.dstIdx);
      src.push_back(uop.srcIdx);
      wgt.push_back(uop.wgtIdx);
    }
    auto dstRows = loopInterval(dst, insn, insn.dstFactorOut, insn.dstFactorIn);
    auto srcRows = loopInterval(src, insn, insn.srcFactorOut, insn.srcFactorIn);
    if (insn.opcode == Opcode::Gemm && !insn.resetReg) {
      add(Buffer::Inp, srcRows, /*write=*/false);
      add(Buffer::Wgt,
          loopInterval(wgt, insn, insn.wgtFactorOut, insn.wgtFactorIn),
          /*write=*/false);
      add(Buffer::Acc, dstRows, /*write=*/false);
    }
    if (insn.opcode == Opcode::Alu) {
      add(Buffer::Acc, dstRows, /*write=*/false);
      // src_idx indexes the accumulators for ALU.
      if (!insn.useImm)
        add(Buffer::Acc, srcRows, /*write=*/false);
    }
    add(Buffer::Acc, dstRows, /*write=*/true);
    add(Buffer::Out, dstRows, /*write=*/true);
    break;
  }
  case Opcode::Finish:
    break;
  }
  return ranges;
}

namespace {

/// Adds [begin, end) to a set of disjoint intervals, merging what touches.
void addInterval(std::map<uint64_t, uint64_t> &set, uint64_t begin,
                 uint64_t end) {
  auto it = set.upper_bound(begin);
  if (it != set.begin() && std::prev(it)->second >= begin) {
    --it;
    begin = it->first;
  }
  while (it != set.end() && it->first <= end) {
    end = std::max(end, it->second);
    it = set.erase(it);
  }
  set[begin] = end;
}

/// An interval of the set overlapping [begin, end), if any.
std::optional<std::pair<uint64_t, uint64_t>>
findOverlap(const std::map<uint64_t, uint64_t> &set, uint64_t begin,
            uint64_t end) {
  if (begin >= end)
    return std::nullopt;
  auto it = set.lower_bound(end);
  if (it == set.begin())
    return std::nullopt;
  --it;
  if (it->second > begin)
    return *it;
  return std::nullopt;
}

} // namespace

llvm::Expected<Program> raf::vta::assemble(const TileProgram &tiles) {
  const Config &config = tiles.config;
  if (std::vector<std::string> problems = config.validate(); !problems.empty())
    return llvm::createStringError("invalid VTA configuration: " +
                                   llvm::join(problems, "; "));
  Program program;
  program.config = config;

  // Reject what is not a tile instruction before deriving anything.
  // Bytes earlier stores write, as disjoint intervals (begin -> end), so
  // that programs of many transfers check in n log n.
  std::map<uint64_t, uint64_t> storedBytes;
  for (auto [index, tile] : llvm::enumerate(tiles.instructions)) {
    const Instruction &insn = tile.insn;
    // Described only when rejected: assemble() runs once per candidate
    // schedule while tuning, and most programs are accepted.
    auto what = [&] { return describe(index, insn); };
    if (insn.popPrevDep || insn.popNextDep || insn.pushPrevDep ||
        insn.pushNextDep)
      return llvm::createStringError(
          what() + " has dependence flags set; tile programs have none, as "
                 "assemble() derives the tokens");
    if (insn.opcode == Opcode::Finish)
      return llvm::createStringError(
          what() + " is a FINISH; assemble() appends the only FINISH");
    if (insn.opcode == Opcode::Load && insn.memoryType == MemoryType::Uop)
      return llvm::createStringError(
          what() + " loads micro-ops; assemble() builds the micro-op table "
                 "and its loads from the GEMM and ALU bodies");
    if ((insn.opcode == Opcode::Gemm || insn.opcode == Opcode::Alu) &&
        tile.uops.empty())
      return llvm::createStringError(what() + " has no micro-ops");
    if (insn.opcode == Opcode::Store) {
      auto [begin, end] = dramBytes(config, insn);
      if (begin < end)
        addInterval(storedBytes, begin, end);
    }
    if (insn.opcode != Opcode::Load)
      continue;
    // Tokens order SRAM accesses only; a LOAD reading what an earlier
    // STORE wrote would race with it through DRAM.
    auto [begin, end] = dramBytes(config, insn);
    if (std::optional<std::pair<uint64_t, uint64_t>> stored =
            findOverlap(storedBytes, begin, end))
      return llvm::createStringError(llvm::formatv(
          "{0} reads DRAM bytes [{1}, {2}), which an earlier STORE writes "
          "([{3}, {4}), bounding intervals); DRAM hazards between the load "
          "and store modules are not synchronised by tokens",
          what(), begin, end, stored->first, stored->second));
  }

  // The micro-op table: one range per distinct loop body, in order of first
  // appearance.
  std::map<UopKey, std::pair<int64_t, int64_t>> bodies;
  std::vector<std::pair<int64_t, int64_t>> uopRange(tiles.instructions.size());
  for (auto [index, tile] : llvm::enumerate(tiles.instructions)) {
    if (tile.uops.empty())
      continue;
    auto [it, inserted] = bodies.try_emplace(getKey(tile.uops));
    if (inserted) {
      int64_t begin = program.uops.size();
      llvm::append_range(program.uops, tile.uops);
      it->second = {begin, int64_t(program.uops.size())};
    }
    uopRange[index] = it->second;
  }
  uint64_t uopDepth = config.buffDepth(Buffer::Uop);
  if (program.uops.size() > uopDepth)
    return llvm::createStringError(llvm::formatv(
        "the micro-op table has {0} entries ({1} distinct loop bodies), more "
        "than the {2} rows of the uop buffer",
        program.uops.size(), bodies.size(), uopDepth));

  // Load the whole table once, in as few transfers as x_size allows.
  std::optional<Layout> layout = Layout::compute(config);
  int64_t maxChunk = int64_t(layout->mem.xSize.getMaxValue());
  for (int64_t begin = 0, size = program.uops.size(); begin < size;
       begin += maxChunk) {
    int64_t chunk = std::min(maxChunk, size - begin);
    program.instructions.push_back(
        Instruction::load(MemoryType::Uop, begin, begin, 1, chunk, chunk));
  }

  // The instruction stream with its buffer ranges; FINISH last.
  size_t first = program.instructions.size();
  std::vector<std::vector<BufferRange>> ranges(first);
  for (auto [index, tile] : llvm::enumerate(tiles.instructions)) {
    Instruction insn = tile.insn;
    std::vector<BufferRange> touched = getBufferRanges(config, tile);
    if (!tile.uops.empty()) {
      std::tie(insn.uopBgn, insn.uopEnd) = uopRange[index];
      touched.push_back({Buffer::Uop, insn.uopBgn, insn.uopEnd, false});
    }
    program.instructions.push_back(insn);
    ranges.push_back(std::move(touched));
  }
  program.instructions.push_back(Instruction::finish());
  ranges.emplace_back();

  // Tokens. lastSync[b][a]: the latest instruction of module a that module
  // b has waited for (directly or through an earlier instruction of b).
  // Within one direction, pops are set in program order on b's instructions
  // and pushes on strictly later a-instructions each time, so the k-th pop
  // consumes the k-th push, and every push has its pop.
  std::array<std::array<int64_t, 3>, 3> lastSync;
  for (auto &row : lastSync)
    row.fill(-1);
  std::array<int64_t, 3> lastOfModule;
  lastOfModule.fill(-1);
  std::vector<Instruction> &insns = program.instructions;
  for (size_t j = 0; j < insns.size(); ++j) {
    Module b = insns[j].getModule();
    bool isFinish = insns[j].opcode == Opcode::Finish;
    for (Module a : {Module::Load, Module::Compute, Module::Store}) {
      std::optional<Side> side = getSide(b, a);
      if (!side)
        continue;
      // FINISH ends the program for the host, so it waits for everything
      // the other modules still run.
      int64_t needed = isFinish ? lastOfModule[int(a)] : -1;
      for (int64_t i = int64_t(j) - 1;
           !isFinish && i > lastSync[int(b)][int(a)]; --i)
        if (insns[i].getModule() == a && conflict(ranges[i], ranges[j])) {
          needed = i;
          break;
        }
      if (needed <= lastSync[int(b)][int(a)])
        continue;
      setPop(insns[j], *side);
      setPush(insns[needed], side == Side::Prev ? Side::Next : Side::Prev);
      lastSync[int(b)][int(a)] = needed;
    }
    lastOfModule[int(b)] = j;
  }

  std::vector<std::string> problems = checkProgram(program);
  if (!problems.empty())
    return llvm::createStringError("the assembled program is invalid: " +
                                   llvm::join(problems, "; "));
  return program;
}
