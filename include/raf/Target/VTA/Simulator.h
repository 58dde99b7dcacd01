//===- Simulator.h - functional and cycle simulation of VTA -----*- C++ -*-===//
//
// Runs a VTA program on a DRAM image (VTA hardware guide; tvm-vta
// hardware/xilinx/src/vta.cc and src/sim/sim_driver.cc): the
// instruction stream is dispatched to three in-order queues (load, compute,
// store) that synchronise through four dependence-token FIFOs (l2g, g2l,
// g2s, s2g); each instruction executes with VTA's semantics on int8 input
// and weight buffers, int32 accumulators and an int8 output buffer, and is
// timed by the CycleModel.
//
// DRAM is a flat byte array. A LOAD or STORE addresses it in elements of the
// buffer it transfers (byte address = address x element bytes); a UOP load
// reads the program's micro-op table instead (ISA.h). Every access is
// bounds-checked: an out-of-range DRAM or buffer access, a deadlock, tokens
// left over at the end, or an instruction that runs after FINISH is an error
// whose message names the instruction (and, for a deadlock, every stuck
// queue and the token it waits for).
//
// Semantics, in short (docs/vta.md has the details):
// * LOAD zero-fills the padding around the tile; ACC_8BIT sign-extends.
// * GEMM accumulates int8 x int8 products into int32 with wrap-around, or
//   with reset_reg zeroes the accumulators.
// * ALU computes min/max (signed), add and mul (wrapping), shr (arithmetic,
//   by the operand's low 5 bits as a signed amount; negative shifts left).
// * GEMM and ALU write the low 8 bits of each accumulator they write to the
//   output buffer (two's-complement wrap-around, no saturation); STORE
//   copies output rows to DRAM. ACC loads do not touch the output buffer.
//
//===----------------------------------------------------------------------===//

#ifndef RAF_TARGET_VTA_SIMULATOR_H
#define RAF_TARGET_VTA_SIMULATOR_H

#include "raf/Target/VTA/CycleModel.h"
#include "raf/Target/VTA/ISA.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/Support/Error.h"

#include <array>
#include <cstdint>
#include <vector>

namespace llvm {
class raw_ostream;
} // namespace llvm

namespace raf::vta {

struct SimulatorOptions {
  CycleModel cycleModel;
  /// Check the program with checkProgram() (Checks.h) before running it.
  /// Turn off to watch the run-time checks catch what the static rules would
  /// have (tests do); they are always on.
  bool checkProgram = true;
  /// Execute the instructions' effects on the buffers and DRAM. When off,
  /// only the cycle model runs (with the same queues and tokens, so the
  /// cycles, counters and deadlock reports are those of a functional run)
  /// and DRAM may be empty: the cost of a schedule on a layer too large to
  /// simulate with data. The static checks still apply; run-time bounds
  /// checks of DRAM and buffer rows do not.
  bool functional = true;
  /// Record start and end cycles of every instruction.
  bool recordTimeline = false;
};

/// When one instruction ran, in cycles from the start of the program.
struct InstructionTiming {
  size_t index;
  Module module;
  uint64_t start;
  uint64_t end;
};

struct SimulationResult {
  /// Cycles until the last instruction ends.
  uint64_t cycles = 0;
  /// Per module (indexed by Module): cycles spent executing, and
  /// instructions executed.
  std::array<uint64_t, 3> busyCycles{};
  std::array<uint64_t, 3> instructions{};
  /// GEMM and ALU micro-op steps executed (GEMM resets included).
  uint64_t gemmUopSteps = 0;
  uint64_t aluUopSteps = 0;
  /// DRAM bytes read by loads (indexed by MemoryType) and written by
  /// stores.
  std::array<uint64_t, 6> loadBytes{};
  uint64_t storeBytes = 0;
  /// Filled when SimulatorOptions::recordTimeline is set, in execution
  /// order.
  std::vector<InstructionTiming> timeline;

  /// Prints the counts, one per line.
  void print(llvm::raw_ostream &os) const;
};

/// A VTA instance: its configuration and its on-chip buffers.
class Simulator {
public:
  explicit Simulator(const Config &config);

  /// Runs `program` (whose configuration must equal this simulator's),
  /// reading and writing `dram` in place. Buffers are zeroed first.
  llvm::Expected<SimulationResult> run(const Program &program,
                                       llvm::MutableArrayRef<uint8_t> dram,
                                       const SimulatorOptions &options = {});

  const Config &getConfig() const { return config; }

  /// Buffer contents after a run, row-major: inp [depth][BATCH][BLOCK_IN],
  /// wgt [depth][BLOCK_OUT][BLOCK_IN], acc and out [depth][BATCH][BLOCK_OUT],
  /// uop [depth].
  llvm::ArrayRef<int8_t> getInpBuffer() const { return inp; }
  llvm::ArrayRef<int8_t> getWgtBuffer() const { return wgt; }
  llvm::ArrayRef<int32_t> getAccBuffer() const { return acc; }
  llvm::ArrayRef<int8_t> getOutBuffer() const { return out; }
  llvm::ArrayRef<Uop> getUopBuffer() const { return uops; }

private:
  friend class Execution;

  Config config;
  std::vector<int8_t> inp, wgt, out;
  std::vector<int32_t> acc;
  std::vector<Uop> uops;
};

/// Convenience: a fresh Simulator for the program's configuration.
llvm::Expected<SimulationResult>
simulate(const Program &program, llvm::MutableArrayRef<uint8_t> dram,
         const SimulatorOptions &options = {});

} // namespace raf::vta

#endif // RAF_TARGET_VTA_SIMULATOR_H
