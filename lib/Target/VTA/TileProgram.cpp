//===- TileProgram.cpp - tokens and micro-op tables for tile programs -----===//

#include "raf/Target/VTA/TileProgram.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/Twine.h"

#include <algorithm>
#include <array>
#include <map>
#include <tuple>

using namespace raf::vta;

std::vector<BufferRange>
raf::vta::getBufferRanges(const Config &config, const TileInstruction &tile) {
  const Instruction &insn = tile.insn;
  std::vector<BufferRange> ranges;
  switch (insn.opcode) {
  case Opcode::Load: {
    int64_t rows = (insn.yPad0 + insn.ySize + insn.yPad1) *
                   (insn.xPad0 + insn.xSize + insn.xPad1);
    if (insn.xSize > 0 && insn.ySize > 0)
      ranges.push_back({getBuffer(insn.memoryType), insn.sramBase,
                        insn.sramBase + rows, /*write=*/true});
    break;
  }
  case Opcode::Store:
    if (insn.xSize > 0 && insn.ySize > 0)
      ranges.push_back({Buffer::Out, insn.sramBase,
                        insn.sramBase + insn.ySize * insn.xSize,
                        /*write=*/false});
    break;
  case Opcode::Gemm:
  case Opcode::Alu: {
    if (tile.uops.empty() || insn.iterOut <= 0 || insn.iterIn <= 0)
      break;
    // Bounding interval of `index(uop) + out * factorOut + in * factorIn`;
    // factors are unsigned in the encoding.
    auto span = [&](int64_t Uop::*index, int64_t factorOut, int64_t factorIn) {
      int64_t lo = tile.uops.front().*index, hi = lo;
      for (const Uop &uop : tile.uops) {
        lo = std::min(lo, uop.*index);
        hi = std::max(hi, uop.*index);
      }
      hi += std::max<int64_t>(0, factorOut) * (insn.iterOut - 1) +
            std::max<int64_t>(0, factorIn) * (insn.iterIn - 1);
      return std::make_pair(lo, hi + 1);
    };
    auto [dstLo, dstHi] =
        span(&Uop::dstIdx, insn.dstFactorOut, insn.dstFactorIn);
    // Every GEMM and ALU writes the low byte of its results to the output
    // buffer too.
    ranges.push_back({Buffer::Acc, dstLo, dstHi, /*write=*/true});
    ranges.push_back({Buffer::Out, dstLo, dstHi, /*write=*/true});
    if (insn.opcode == Opcode::Gemm && !insn.resetReg) {
      auto [srcLo, srcHi] =
          span(&Uop::srcIdx, insn.srcFactorOut, insn.srcFactorIn);
      auto [wgtLo, wgtHi] =
          span(&Uop::wgtIdx, insn.wgtFactorOut, insn.wgtFactorIn);
      ranges.push_back({Buffer::Inp, srcLo, srcHi, /*write=*/false});
      ranges.push_back({Buffer::Wgt, wgtLo, wgtHi, /*write=*/false});
      ranges.push_back({Buffer::Acc, dstLo, dstHi, /*write=*/false});
    }
    if (insn.opcode == Opcode::Alu && !insn.useImm) {
      auto [srcLo, srcHi] =
          span(&Uop::srcIdx, insn.srcFactorOut, insn.srcFactorIn);
      ranges.push_back({Buffer::Acc, srcLo, srcHi, /*write=*/false});
    }
    if (insn.opcode == Opcode::Alu && insn.useImm)
      ranges.push_back({Buffer::Acc, dstLo, dstHi, /*write=*/false});
    break;
  }
  case Opcode::Finish:
    break;
  }
  return ranges;
}

namespace {

bool conflict(const std::vector<BufferRange> &a,
              const std::vector<BufferRange> &b) {
  for (const BufferRange &x : a)
    for (const BufferRange &y : b)
      if (x.buffer == y.buffer && (x.write || y.write) && x.begin < y.end &&
          y.begin < x.end)
        return true;
  return false;
}

} // namespace

llvm::Expected<Program> raf::vta::assemble(const TileProgram &tiles) {
  Program program;
  program.config = tiles.config;

  // The micro-op table: identical loop bodies share one range.
  using Key = std::vector<std::tuple<int64_t, int64_t, int64_t>>;
  std::map<Key, int64_t> ranges;
  std::vector<int64_t> uopBegin(tiles.instructions.size(), 0);
  for (auto [index, tile] : llvm::enumerate(tiles.instructions)) {
    const Instruction &insn = tile.insn;
    if (insn.popPrevDep || insn.popNextDep || insn.pushPrevDep ||
        insn.pushNextDep)
      return llvm::createStringError(
          "tile instruction " + llvm::Twine(index) +
          " has dependence flags; tile programs get their tokens from "
          "assemble()");
    if (insn.opcode == Opcode::Finish ||
        (insn.opcode == Opcode::Load && insn.memoryType == MemoryType::Uop))
      return llvm::createStringError(
          "tile instruction " + llvm::Twine(index) +
          " is a FINISH or a micro-op load; assemble() adds those");
    bool loop = insn.opcode == Opcode::Gemm || insn.opcode == Opcode::Alu;
    if (loop && tile.uops.empty())
      return llvm::createStringError("tile instruction " + llvm::Twine(index) +
                                     " (" + getOpcodeName(insn.opcode) +
                                     ") has no micro-ops");
    if (!loop)
      continue;
    Key key;
    for (const Uop &uop : tile.uops)
      key.emplace_back(uop.dstIdx, uop.srcIdx, uop.wgtIdx);
    auto [it, inserted] =
        ranges.try_emplace(std::move(key), int64_t(program.uops.size()));
    if (inserted)
      program.uops.insert(program.uops.end(), tile.uops.begin(),
                          tile.uops.end());
    uopBegin[index] = it->second;
  }
  int64_t uopDepth = tiles.config.buffDepth(Buffer::Uop);
  if (int64_t(program.uops.size()) > uopDepth)
    return llvm::createStringError("the program's distinct micro-ops (" +
                                   llvm::Twine(uint64_t(program.uops.size())) +
                                   ") do not fit the micro-op buffer (" +
                                   llvm::Twine(uopDepth) + " entries)");

  // The instruction stream with each instruction's SRAM ranges (micro-op
  // rows included).
  std::vector<Instruction> code;
  std::vector<std::vector<BufferRange>> touched;
  if (!program.uops.empty()) {
    int64_t count = program.uops.size();
    code.push_back(Instruction::load(MemoryType::Uop, 0, 0, 1, count, count));
    touched.push_back({{Buffer::Uop, 0, count, /*write=*/true}});
  }
  for (auto [index, tile] : llvm::enumerate(tiles.instructions)) {
    Instruction insn = tile.insn;
    std::vector<BufferRange> used = getBufferRanges(tiles.config, tile);
    if (insn.opcode == Opcode::Gemm || insn.opcode == Opcode::Alu) {
      insn.uopBgn = uopBegin[index];
      insn.uopEnd = uopBegin[index] + int64_t(tile.uops.size());
      used.push_back({Buffer::Uop, insn.uopBgn, insn.uopEnd, false});
    }
    code.push_back(insn);
    touched.push_back(std::move(used));
  }
  // DRAM is not synchronised between the load and store modules.
  std::vector<std::pair<int64_t, int64_t>> stored;
  auto dramSpan = [&](const Instruction &insn) {
    uint64_t bytes = tiles.config.elemBytes(getBuffer(insn.memoryType));
    int64_t first = insn.dramBase * bytes;
    int64_t last =
        (insn.dramBase + (insn.ySize - 1) * insn.xStride + insn.xSize) * bytes;
    return std::make_pair(first, last);
  };
  for (size_t i = 0; i < code.size(); ++i) {
    const Instruction &insn = code[i];
    if (insn.xSize <= 0 || insn.ySize <= 0 ||
        (insn.opcode != Opcode::Load && insn.opcode != Opcode::Store) ||
        insn.memoryType == MemoryType::Uop)
      continue;
    auto [first, last] = dramSpan(insn);
    if (insn.opcode == Opcode::Store) {
      stored.push_back({first, last});
      continue;
    }
    for (auto [storeFirst, storeLast] : stored)
      if (first < storeLast && storeFirst < last)
        return llvm::createStringError(
            "instruction " + llvm::Twine(uint64_t(i)) +
            " loads DRAM bytes an earlier store wrote; the load and store "
            "modules are not synchronised through DRAM");
  }

  // Tokens: each instruction waits for the latest earlier instruction of
  // each neighbouring module that touches the same rows (one of them
  // writing), unless an earlier wait of its module already covers it.
  // Pushes and pops then both come in program order, so the FIFO counts
  // pair each pop with its push.
  std::array<std::vector<size_t>, 3> byModule;
  // synced[b][a]: the latest instruction of module a that module b has
  // waited for (+1; 0 = none).
  size_t synced[3][3] = {};
  code.push_back(Instruction::finish());
  touched.push_back({});
  for (size_t j = 0; j < code.size(); ++j) {
    Module consumer = code[j].getModule();
    unsigned b = unsigned(consumer);
    bool isFinish = code[j].opcode == Opcode::Finish;
    for (unsigned a : {b - 1, b + 1}) {
      if (a > 2)
        continue;
      const std::vector<size_t> &producers = byModule[a];
      size_t needed = 0;
      for (size_t k = producers.size(); k > synced[b][a]; --k) {
        size_t p = producers[k - 1];
        // FINISH waits for everything.
        if (isFinish || conflict(touched[p], touched[j])) {
          needed = k;
          break;
        }
      }
      if (needed == 0)
        continue;
      Instruction &producer = code[producers[needed - 1]];
      if (a < b) {
        producer.pushNextDep = true;
        code[j].popPrevDep = true;
      } else {
        producer.pushPrevDep = true;
        code[j].popNextDep = true;
      }
      synced[b][a] = needed;
    }
    byModule[b].push_back(j);
  }
  program.instructions = std::move(code);
  return program;
}
