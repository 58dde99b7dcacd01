//===- CycleModel.h - VTA instruction latencies -----------------*- C++ -*-===//
//
// How long each instruction occupies its module, for the simulator's cycle
// count (Simulator.h). The three modules run concurrently; an instruction
// starts when its module is free and the dependence tokens it pops have
// been pushed, and the tokens it pushes become available when it ends. So
// loads, compute and stores overlap exactly as far as the tokens allow.
//
// The parameters are deliberately few and all in this struct (docs/vta.md
// lists them); they describe a VTA like the Pynq-Z1 build TVM ships: a
// 64-bit AXI DMA port per module, a GEMM core that retires one micro-op per
// cycle and an ALU with initiation interval 2. Not modelled: contention
// between the modules' DMA ports, DRAM latency variation, instruction fetch
// and the depth of the instruction and token queues.
//
//===----------------------------------------------------------------------===//

#ifndef RAF_TARGET_VTA_CYCLEMODEL_H
#define RAF_TARGET_VTA_CYCLEMODEL_H

#include "raf/Target/VTA/ISA.h"

#include <cstdint>

namespace raf::vta {

struct CycleModel {
  /// Bytes a LOAD or STORE moves between DRAM and SRAM per cycle.
  uint64_t dmaBytesPerCycle = 8;
  /// Cycles a LOAD or STORE waits before its first byte moves (request
  /// latency); 0 by default so that transfers cost exactly bytes/bandwidth.
  uint64_t dmaLatencyCycles = 0;
  /// Cycles a LOAD spends per padding element it writes (zeros are written
  /// one buffer row per cycle, without DMA).
  uint64_t padCyclesPerElement = 1;
  /// Cycles per GEMM micro-op step (the GEMM pipeline's II), resets
  /// included.
  uint64_t gemmCyclesPerUop = 1;
  /// Cycles per ALU micro-op step (the HLS ALU pipeline has II = 2).
  uint64_t aluCyclesPerUop = 2;
  /// Cycles added to every instruction for decode and issue; 0 because the
  /// hardware overlaps them with the previous instruction.
  uint64_t issueCycles = 0;

  /// DRAM bytes `insn` transfers (LOAD/STORE; 0 for other instructions and
  /// for transfers of no rows or columns). ACC_8BIT loads read one byte per
  /// accumulator.
  static uint64_t getTransferBytes(const Config &config,
                                   const Instruction &insn);
  /// Padding elements a LOAD writes.
  static uint64_t getPadElements(const Instruction &insn);
  /// Micro-op steps a GEMM or ALU runs: iter_out x iter_in x uops.
  static uint64_t getUopSteps(const Instruction &insn);

  /// Cycles `insn` occupies its module.
  uint64_t getLatency(const Config &config, const Instruction &insn) const;
};

} // namespace raf::vta

#endif // RAF_TARGET_VTA_CYCLEMODEL_H
