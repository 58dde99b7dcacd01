//===- BinaryFormat.h - the VTA program container ---------------*- C++ -*-===//
//
// The file format `raf-translate --vta-isa-to-bin` writes and
// `--bin-to-vta-isa` and `raf-vta-sim` read: a 32-byte header, the micro-op
// table and the instruction stream, all little-endian (docs/vta.md).
//
//   offset  size  field
//   0       8     magic "RAF-VTA\0"
//   8       4     version (1)
//   12      9     the configuration's log2 parameters, one byte each, in the
//                 order log_inp_width, log_wgt_width, log_acc_width,
//                 log_batch, log_block, log_uop_buff_size,
//                 log_inp_buff_size, log_wgt_buff_size, log_acc_buff_size
//   21      3     reserved, 0
//   24      4     number of micro-ops U
//   28      4     number of instructions I
//   32      4*U   micro-ops, one 32-bit word each
//   32+4*U  16*I  instructions, one 128-bit word each (bits 0-63 first)
//
// The file is exactly 32 + 4*U + 16*I bytes long. The words are those of
// Encoding.h for the configuration in the header.
//
//===----------------------------------------------------------------------===//

#ifndef RAF_TARGET_VTA_BINARYFORMAT_H
#define RAF_TARGET_VTA_BINARYFORMAT_H

#include "raf/Target/VTA/ISA.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/Support/Error.h"

#include <cstdint>
#include <vector>

namespace raf::vta {

namespace binary {
constexpr char Magic[8] = {'R', 'A', 'F', '-', 'V', 'T', 'A', '\0'};
constexpr uint32_t Version = 1;
constexpr size_t HeaderBytes = 32;
constexpr size_t UopBytes = 4;
constexpr size_t InstructionBytes = 16;
} // namespace binary

/// Serializes `program`. Fails, listing checkProgram()'s messages one per
/// line, if the program breaks a rule of Checks.h.
llvm::Expected<std::vector<uint8_t>> writeBinary(const Program &program);

/// Parses a container. Rejects a short or over-long file, a wrong magic or
/// version, set reserved bytes, an invalid configuration, micro-op and
/// instruction words that do not decode (unknown opcodes, memory types or
/// ALU opcodes, set unused bits), and programs that break a rule of
/// Checks.h. Each message says where the problem is (byte offset, micro-op
/// or instruction index); several are separated by newlines.
llvm::Expected<Program> readBinary(llvm::ArrayRef<uint8_t> bytes);

} // namespace raf::vta

#endif // RAF_TARGET_VTA_BINARYFORMAT_H
