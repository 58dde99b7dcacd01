//===- BinaryFormat.cpp - the VTA program container -----------------------===//

#include "raf/Target/VTA/BinaryFormat.h"

#include "raf/Target/VTA/Checks.h"
#include "raf/Target/VTA/Encoding.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/Twine.h"
#include "llvm/Support/Endian.h"

#include <cstring>

using namespace raf::vta;
namespace endian = llvm::support::endian;

static llvm::Error joinedError(const std::vector<std::string> &messages) {
  return llvm::createStringError(llvm::join(messages, "\n"));
}

llvm::Expected<std::vector<uint8_t>>
raf::vta::writeBinary(const Program &program) {
  std::vector<std::string> errors = checkProgram(program);
  if (!errors.empty())
    return joinedError(errors);
  // checkProgram() validated the configuration, so the layout exists.
  Layout layout = *Layout::compute(program.config);

  std::vector<uint8_t> bytes(binary::HeaderBytes +
                             binary::UopBytes * program.uops.size() +
                             binary::InstructionBytes *
                                 program.instructions.size());
  uint8_t *p = bytes.data();
  std::memcpy(p, binary::Magic, sizeof(binary::Magic));
  endian::write32le(p + 8, binary::Version);
  llvm::ArrayRef<ConfigParameter> parameters = getConfigParameters();
  for (size_t i = 0; i < parameters.size(); ++i)
    p[12 + i] = uint8_t(program.config.*parameters[i].member);
  endian::write32le(p + 24, uint32_t(program.uops.size()));
  endian::write32le(p + 28, uint32_t(program.instructions.size()));
  p += binary::HeaderBytes;
  for (const Uop &uop : program.uops) {
    endian::write32le(p, encodeUop(layout, uop));
    p += binary::UopBytes;
  }
  for (const Instruction &insn : program.instructions) {
    std::array<uint8_t, 16> word = encodeInstruction(layout, insn).toBytes();
    std::memcpy(p, word.data(), word.size());
    p += binary::InstructionBytes;
  }
  return bytes;
}

llvm::Expected<Program> raf::vta::readBinary(llvm::ArrayRef<uint8_t> bytes) {
  if (bytes.size() < binary::HeaderBytes)
    return llvm::createStringError(
        "truncated: " + llvm::Twine(uint64_t(bytes.size())) +
        " bytes is shorter than the 32-byte header");
  const uint8_t *p = bytes.data();
  if (std::memcmp(p, binary::Magic, sizeof(binary::Magic)) != 0)
    return llvm::createStringError(
        "bad magic: this is not a RAF-MLIR VTA binary (expected the bytes "
        "\"RAF-VTA\\0\" at offset 0)");
  uint32_t version = endian::read32le(p + 8);
  if (version != binary::Version)
    return llvm::createStringError("unsupported version " +
                                   llvm::Twine(version) +
                                   " (this reader knows version 1)");

  Program program;
  llvm::ArrayRef<ConfigParameter> parameters = getConfigParameters();
  for (size_t i = 0; i < parameters.size(); ++i)
    program.config.*parameters[i].member = p[12 + i];
  for (size_t offset = 12 + parameters.size(); offset < 24; ++offset)
    if (p[offset] != 0)
      return llvm::createStringError("reserved header byte " +
                                     llvm::Twine(uint64_t(offset)) +
                                     " is not zero");
  std::vector<std::string> configErrors = program.config.validate();
  if (!configErrors.empty())
    return llvm::createStringError("invalid configuration: " +
                                   llvm::join(configErrors, "; "));

  uint64_t numUops = endian::read32le(p + 24);
  uint64_t numInsns = endian::read32le(p + 28);
  uint64_t expected = binary::HeaderBytes + binary::UopBytes * numUops +
                      binary::InstructionBytes * numInsns;
  if (bytes.size() != expected)
    return llvm::createStringError(
        llvm::Twine(bytes.size() < expected ? "truncated" : "trailing data") +
        ": the header announces " + llvm::Twine(numUops) +
        " micro-ops and " + llvm::Twine(numInsns) + " instructions (" +
        llvm::Twine(expected) + " bytes) but the file has " +
        llvm::Twine(uint64_t(bytes.size())) + " bytes");

  Layout layout = *Layout::compute(program.config);
  size_t offset = binary::HeaderBytes;
  for (uint64_t i = 0; i < numUops; ++i, offset += binary::UopBytes) {
    llvm::Expected<Uop> uop = decodeUop(layout, endian::read32le(p + offset));
    if (!uop)
      return llvm::createStringError(
          "micro-op " + llvm::Twine(i) + " at byte " + llvm::Twine(offset) +
          ": " + llvm::toString(uop.takeError()));
    program.uops.push_back(*uop);
  }
  for (uint64_t i = 0; i < numInsns; ++i, offset += binary::InstructionBytes) {
    llvm::Expected<Instruction> insn =
        decodeInstruction(layout, InstructionWord::fromBytes(p + offset));
    if (!insn)
      return llvm::createStringError(
          "instruction " + llvm::Twine(i) + " at byte " + llvm::Twine(offset) +
          ": " + llvm::toString(insn.takeError()));
    program.instructions.push_back(*insn);
  }

  std::vector<std::string> errors = checkProgram(program);
  if (!errors.empty())
    return joinedError(errors);
  return program;
}
