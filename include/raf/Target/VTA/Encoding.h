//===- Encoding.h - VTA instruction and micro-op words ----------*- C++ -*-===//
//
// Packs instructions into the 128-bit words and micro-ops into the 32-bit words
// VTA fetches (VTA hardware guide; tvm-vta hw_spec.h), at the field positions
// Layout computes for the configuration, and unpacks them again. Words are
// little-endian: bit 0 of a word is bit 0 of its first byte.
//
//===----------------------------------------------------------------------===//

#ifndef RAF_TARGET_VTA_ENCODING_H
#define RAF_TARGET_VTA_ENCODING_H

#include "raf/Target/VTA/ISA.h"
#include "raf/Target/VTA/Layout.h"

#include "llvm/Support/Error.h"

#include <array>
#include <cstdint>

namespace raf::vta {

/// A 128-bit instruction: bits 0-63 in `lo`, bits 64-127 in `hi`.
struct InstructionWord {
  uint64_t lo = 0;
  uint64_t hi = 0;

  /// The 16 bytes in memory order (little-endian).
  std::array<uint8_t, 16> toBytes() const;
  static InstructionWord fromBytes(const uint8_t *bytes);

  bool operator==(const InstructionWord &other) const {
    return lo == other.lo && hi == other.hi;
  }
  bool operator!=(const InstructionWord &other) const {
    return !(*this == other);
  }
};

/// Encodes `insn`, which must satisfy checkInstruction() for the
/// configuration `layout` was computed for (values are masked to their
/// fields, never checked here). Bits no field of the format uses are 0.
InstructionWord encodeInstruction(const Layout &layout,
                                  const Instruction &insn);

/// Decodes a word. Fails on an unknown opcode, memory type or ALU opcode,
/// and on set bits that the instruction's format does not use; the message
/// names the offending value or bit. Range rules beyond the field widths
/// (buffer bounds, ...) are checkInstruction()'s business.
llvm::Expected<Instruction> decodeInstruction(const Layout &layout,
                                              InstructionWord word);

/// Encodes a micro-op that satisfies checkUop().
uint32_t encodeUop(const Layout &layout, const Uop &uop);

/// Decodes a micro-op word; fails if bits beyond the three indices are set.
llvm::Expected<Uop> decodeUop(const Layout &layout, uint32_t word);

} // namespace raf::vta

#endif // RAF_TARGET_VTA_ENCODING_H
