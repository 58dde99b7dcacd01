//===- ISA.h - VTA instructions, micro-ops and programs ---------*- C++ -*-===//
//
// The VTA instruction set as plain values (VTA hardware guide in the TVM
// documentation; tvm-vta include/vta/hw_spec.h):
// the five instruction kinds with every field of their 128-bit encoding, the
// micro-op, and a program (configuration, micro-op table, instruction
// stream). The vta_isa dialect converts to and from these values; the
// encoder (Encoding.h), the container format (BinaryFormat.h), the rule
// checker (Checks.h) and the simulator (Simulator.h) work on them.
//
// Fields are int64_t so that any value written in IR can be represented and
// then rejected by the checker with a message, instead of being truncated on
// the way in.
//
//===----------------------------------------------------------------------===//

#ifndef RAF_TARGET_VTA_ISA_H
#define RAF_TARGET_VTA_ISA_H

#include "raf/Target/VTA/Config.h"

#include "llvm/ADT/StringRef.h"

#include <cstdint>
#include <optional>
#include <vector>

namespace raf::vta {

/// Instruction opcodes (3 bits).
enum class Opcode : uint8_t { Load = 0, Store = 1, Gemm = 2, Finish = 3, Alu = 4 };
/// Memory ids of LOAD and STORE (3 bits). `Acc8Bit` loads int8 values into
/// the int32 accumulator buffer.
enum class MemoryType : uint8_t {
  Uop = 0,
  Wgt = 1,
  Inp = 2,
  Acc = 3,
  Out = 4,
  Acc8Bit = 5
};
/// ALU operations (3 bits). MUL exists in TVM-VTA's simulator only, not in
/// the HLS hardware.
enum class AluOpcode : uint8_t { Min = 0, Max = 1, Add = 2, Shr = 3, Mul = 4 };

/// "load", "store", "gemm", "finish", "alu".
llvm::StringRef getOpcodeName(Opcode opcode);
/// "uop", "wgt", "inp", "acc", "out", "acc_8bit".
llvm::StringRef getMemoryTypeName(MemoryType type);
/// "min", "max", "add", "shr", "mul".
llvm::StringRef getAluOpcodeName(AluOpcode opcode);
/// The enumerator with this encoding, if any.
std::optional<Opcode> getOpcode(uint64_t value);
std::optional<MemoryType> getMemoryType(uint64_t value);
std::optional<AluOpcode> getAluOpcode(uint64_t value);

/// The buffer a memory id addresses (`Acc8Bit` -> `Acc`).
Buffer getBuffer(MemoryType type);

/// The three hardware modules, each fed by its own in-order instruction
/// queue.
enum class Module { Load, Compute, Store };
/// "load", "compute", "store".
llvm::StringRef getModuleName(Module module);

/// The four dependence-token FIFOs between the modules.
enum class TokenQueue {
  LoadToCompute,  ///< l2g: input/weight data is loaded.
  ComputeToLoad,  ///< g2l: input/weight buffer space is free again.
  ComputeToStore, ///< g2s: results are ready to store.
  StoreToCompute, ///< s2g: output buffer space is free again.
};
/// "l2g", "g2l", "g2s", "s2g".
llvm::StringRef getTokenQueueName(TokenQueue queue);

/// One VTA instruction. Which fields are meaningful depends on `opcode`:
/// the dependence flags always; the memory fields for LOAD and STORE; the
/// loop fields for GEMM and ALU; the weight factors for GEMM; the ALU fields
/// for ALU. FINISH has the dependence flags only.
struct Instruction {
  Opcode opcode = Opcode::Finish;

  // Dependence flags. What they pop and push depends on the module
  // (getPopPrevQueue() and friends).
  bool popPrevDep = false;
  bool popNextDep = false;
  bool pushPrevDep = false;
  bool pushNextDep = false;

  // LOAD / STORE: a 2-D transfer of y_size rows of x_size buffer elements,
  // rows x_stride elements apart in DRAM, with zero padding around the tile
  // in SRAM. DRAM addresses and strides count elements of the buffer.
  MemoryType memoryType = MemoryType::Uop;
  int64_t sramBase = 0;
  int64_t dramBase = 0;
  int64_t ySize = 0;
  int64_t xSize = 0;
  int64_t xStride = 0;
  int64_t yPad0 = 0;
  int64_t yPad1 = 0;
  int64_t xPad0 = 0;
  int64_t xPad1 = 0;

  // GEMM / ALU: micro-ops [uop_bgn, uop_end) of the uop buffer, run in a
  // two-level loop nest whose iterators offset each micro-op's indices.
  bool resetReg = false;
  int64_t uopBgn = 0;
  int64_t uopEnd = 0;
  int64_t iterOut = 0;
  int64_t iterIn = 0;
  int64_t dstFactorOut = 0;
  int64_t dstFactorIn = 0;
  int64_t srcFactorOut = 0;
  int64_t srcFactorIn = 0;
  // GEMM only.
  int64_t wgtFactorOut = 0;
  int64_t wgtFactorIn = 0;
  // ALU only.
  AluOpcode aluOpcode = AluOpcode::Min;
  bool useImm = false;
  int64_t imm = 0;

  /// A LOAD of a y_size x x_size tile without padding.
  static Instruction load(MemoryType type, int64_t sramBase, int64_t dramBase,
                          int64_t ySize, int64_t xSize, int64_t xStride);
  /// A STORE of a y_size x x_size tile from the output buffer.
  static Instruction store(int64_t sramBase, int64_t dramBase, int64_t ySize,
                           int64_t xSize, int64_t xStride);
  /// A GEMM over micro-ops [uopBgn, uopEnd) with all factors 0.
  static Instruction gemm(int64_t uopBgn, int64_t uopEnd, int64_t iterOut = 1,
                          int64_t iterIn = 1, bool resetReg = false);
  /// An ALU operation with a tensor operand (useImm false) over micro-ops
  /// [uopBgn, uopEnd) with all factors 0.
  static Instruction alu(AluOpcode op, int64_t uopBgn, int64_t uopEnd,
                         int64_t iterOut = 1, int64_t iterIn = 1);
  /// The same with the immediate operand `imm`.
  static Instruction aluImm(AluOpcode op, int64_t imm, int64_t uopBgn,
                            int64_t uopEnd, int64_t iterOut = 1,
                            int64_t iterIn = 1);
  static Instruction finish();

  /// Sets the dependence flags and returns *this (for building programs).
  Instruction &deps(bool popPrev, bool popNext, bool pushPrev, bool pushNext);

  /// The module whose queue executes this instruction: LOADs of INP and
  /// WGT go to the load module, STOREs to the store module, everything else
  /// (GEMM, ALU, FINISH and LOADs of UOP, ACC, ACC_8BIT) to compute.
  Module getModule() const;

  /// Compares the fields this instruction's format encodes.
  bool operator==(const Instruction &other) const;
  bool operator!=(const Instruction &other) const { return !(*this == other); }
};

/// The FIFO a dependence flag of an instruction executed by `module` refers
/// to, or nullopt if the module has no such neighbour (the load module has
/// no previous stage, the store module no next one).
std::optional<TokenQueue> getPopPrevQueue(Module module);
std::optional<TokenQueue> getPopNextQueue(Module module);
std::optional<TokenQueue> getPushPrevQueue(Module module);
std::optional<TokenQueue> getPushNextQueue(Module module);

/// A micro-op: the row indices one GEMM or ALU step reads and writes.
/// `dstIdx` indexes the accumulator buffer, `srcIdx` the input buffer
/// (GEMM) or the accumulator buffer (ALU), `wgtIdx` the weight buffer.
struct Uop {
  int64_t dstIdx = 0;
  int64_t srcIdx = 0;
  int64_t wgtIdx = 0;

  bool operator==(const Uop &other) const {
    return dstIdx == other.dstIdx && srcIdx == other.srcIdx &&
           wgtIdx == other.wgtIdx;
  }
  bool operator!=(const Uop &other) const { return !(*this == other); }
};

/// A complete VTA program. The micro-op table is its own DRAM segment: a
/// LOAD with memory type UOP copies table entries [dram_base, dram_base +
/// x_size) into the uop buffer.
struct Program {
  Config config;
  std::vector<Uop> uops;
  std::vector<Instruction> instructions;
};

} // namespace raf::vta

#endif // RAF_TARGET_VTA_ISA_H
