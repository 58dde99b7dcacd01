//===- Layout.h - bit positions of VTA instruction fields -------*- C++ -*-===//
//
// Where each field of a 128-bit VTA instruction and of a 32-bit micro-op
// lives (tvm-vta include/vta/hw_spec.h). The layout is the one GCC gives the C
// bit-fields of TVM-VTA's hw_spec.h: fields are packed from bit 0 upwards in
// declaration order, and a field that would straddle a 64-bit unit
// (instructions, declared uint64_t) or a 32-bit unit (micro-ops, uint32_t)
// starts at the next unit instead. Widths of index and factor fields are the
// log2 depths of the buffers they index, so positions depend on the Config;
// they are computed here rather than written down.
//
//===----------------------------------------------------------------------===//

#ifndef RAF_TARGET_VTA_LAYOUT_H
#define RAF_TARGET_VTA_LAYOUT_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringRef.h"

#include <cstdint>
#include <optional>
#include <string>

namespace raf::vta {

struct Config;

/// Fixed field widths of the ISA (hw_spec_const.h).
namespace widths {
constexpr unsigned Opcode = 3;
constexpr unsigned MemoryType = 3;
constexpr unsigned SramAddr = 16;
constexpr unsigned DramAddr = 32;
constexpr unsigned MemSize = 16;
constexpr unsigned MemStride = 16;
constexpr unsigned Pad = 4;
constexpr unsigned LoopIter = 14;
constexpr unsigned AluOpcode = 3;
constexpr unsigned AluImm = 16;
constexpr unsigned Instruction = 128;
constexpr unsigned Uop = 32;
} // namespace widths

/// A field of `width` bits starting at bit `offset` of its word.
struct BitField {
  llvm::StringRef name;
  unsigned offset = 0;
  unsigned width = 0;

  /// Largest unsigned value the field holds.
  uint64_t getMaxValue() const {
    return width >= 64 ? ~uint64_t(0) : (uint64_t(1) << width) - 1;
  }
  /// Highest bit, as the spec writes ranges (`sram_base[25:10]`).
  unsigned getLastBit() const { return offset + width - 1; }
};

/// The field positions of every instruction format and of the micro-op for
/// one configuration. Field names are the ISA's (hw_spec.h) names.
struct Layout {
  // Common to all instructions: the opcode and the four dependence flags.
  BitField opcode, popPrevDep, popNextDep, pushPrevDep, pushNextDep;

  /// LOAD and STORE (VTAMemInsn).
  struct Mem {
    BitField memoryType, sramBase, dramBase, ySize, xSize, xStride, yPad0,
        yPad1, xPad0, xPad1;
  } mem;

  /// GEMM (VTAGemInsn). FINISH uses the common fields only.
  struct Gemm {
    BitField resetReg, uopBgn, uopEnd, iterOut, iterIn, dstFactorOut,
        dstFactorIn, srcFactorOut, srcFactorIn, wgtFactorOut, wgtFactorIn;
  } gemm;

  /// ALU (VTAAluInsn).
  struct Alu {
    BitField resetReg, uopBgn, uopEnd, iterOut, iterIn, dstFactorOut,
        dstFactorIn, srcFactorOut, srcFactorIn, aluOpcode, useImm, imm;
  } alu;

  /// The 32-bit micro-op (VTAUop). `srcIdx` indexes the input buffer for
  /// GEMM and the accumulator buffer for ALU, so it is as wide as the wider
  /// of the two (they are equal in both presets).
  struct Uop {
    BitField dstIdx, srcIdx, wgtIdx;
  } uop;

  /// Computes the layout of `config`'s fields; nullopt, and a message in
  /// `error` if given, when a format does not fit its word. The config's
  /// buffer depths must be valid (non-negative logs).
  static std::optional<Layout> compute(const Config &config,
                                       std::string *error = nullptr);

  /// The fields of each format in bit order (common fields first), for
  /// printing and for computing the reserved bits.
  llvm::SmallVector<BitField> getMemFields() const;
  llvm::SmallVector<BitField> getGemmFields() const;
  llvm::SmallVector<BitField> getAluFields() const;
  llvm::SmallVector<BitField> getFinishFields() const;
  llvm::SmallVector<BitField> getUopFields() const;
};

} // namespace raf::vta

#endif // RAF_TARGET_VTA_LAYOUT_H
