//===- Config.h - VTA hardware configuration --------------------*- C++ -*-===//
//
// The parameters a VTA instance is built with (the keys of TVM-VTA's
// vta_config.json) and every size derived from them as TVM-VTA's
// pkg_config.py derives them: tile shape, buffer element widths, buffer depths. Field widths of the
// instruction encoding follow from the depths (Encoding.h), so the
// encoder, the verifiers and the simulator all read them from here.
//
//===----------------------------------------------------------------------===//

#ifndef RAF_TARGET_VTA_CONFIG_H
#define RAF_TARGET_VTA_CONFIG_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace llvm {
class raw_ostream;
} // namespace llvm

namespace raf::vta {

/// The on-chip buffers, named as the ISA's memory ids name them.
enum class Buffer { Uop, Inp, Wgt, Acc, Out };

/// Name of a buffer as the ISA prints it: "uop", "inp", ...
llvm::StringRef getBufferName(Buffer buffer);

/// A VTA configuration. The nine stored parameters are log2 values, as in
/// vta_config.json; everything else is derived. A Config is only meaningful
/// once validate() accepted it.
struct Config {
  /// log2 of the input, weight and accumulator element widths in bits.
  unsigned logInpWidth = 3;
  unsigned logWgtWidth = 3;
  unsigned logAccWidth = 5;
  /// log2 of BATCH and of BLOCK (= BLOCK_IN = BLOCK_OUT).
  unsigned logBatch = 0;
  unsigned logBlock = 4;
  /// log2 of the buffer sizes in bytes.
  unsigned logUopBuffSize = 15;
  unsigned logInpBuffSize = 15;
  unsigned logWgtBuffSize = 18;
  unsigned logAccBuffSize = 17;

  /// The default VTA configuration (1x16x16 GEMM, 32 KiB uop and input
  /// buffers, 256 KiB weight buffer, 128 KiB accumulator buffer), the one the
  /// dissertation evaluates (§4.4.1).
  static Config getDefault();
  /// The 8x8x8 variant of §4.5.2.2: BATCH = BLOCK = 8 with the default
  /// buffer sizes.
  static Config get8x8x8();
  /// Names of the presets, in a stable order ("1x16x16", "8x8x8").
  static llvm::ArrayRef<llvm::StringRef> getPresetNames();
  /// The preset called `name`, if there is one.
  static std::optional<Config> getPreset(llvm::StringRef name);
  /// The name of the preset equal to this configuration, if any.
  std::optional<llvm::StringRef> getPresetName() const;

  /// Problems with this configuration, one message each; empty if valid.
  /// A valid configuration has 8-bit inputs and weights and 32-bit
  /// accumulators (what VTA's datapath and this simulator implement), buffers
  /// of at least one element each, buffer depths that SRAM addresses (16
  /// bits) can reach, and instruction and micro-op fields that fit their
  /// 128-bit and 32-bit words.
  std::vector<std::string> validate() const;
  bool isValid() const { return validate().empty(); }

  // Derived log2 values (as tvm-vta's config/pkg_config.py derives them).
  unsigned logBlockIn() const { return logBlock; }
  unsigned logBlockOut() const { return logBlock; }
  unsigned logOutWidth() const { return logInpWidth; }
  unsigned logOutBuffSize() const {
    return logAccBuffSize + logOutWidth() - logAccWidth;
  }
  /// log2 of the buffer depths (rows). Only meaningful for a valid config:
  /// the subtraction would wrap for buffers smaller than one element.
  unsigned logUopBuffDepth() const { return logUopBuffSize - 5 + 3; }
  unsigned logInpBuffDepth() const {
    return logInpBuffSize - logBatch - logBlockIn() - logInpWidth + 3;
  }
  unsigned logWgtBuffDepth() const {
    return logWgtBuffSize - logBlockOut() - logBlockIn() - logWgtWidth + 3;
  }
  unsigned logAccBuffDepth() const {
    return logAccBuffSize - logBatch - logBlockOut() - logAccWidth + 3;
  }
  /// The output buffer has as many rows as the accumulator buffer.
  unsigned logOutBuffDepth() const { return logAccBuffDepth(); }
  unsigned logBuffDepth(Buffer buffer) const;

  // Tile shape.
  unsigned batch() const { return 1u << logBatch; }
  unsigned blockIn() const { return 1u << logBlockIn(); }
  unsigned blockOut() const { return 1u << logBlockOut(); }
  /// Element widths in bits.
  unsigned inpWidth() const { return 1u << logInpWidth; }
  unsigned wgtWidth() const { return 1u << logWgtWidth; }
  unsigned accWidth() const { return 1u << logAccWidth; }
  unsigned outWidth() const { return 1u << logOutWidth(); }

  /// Bits of one buffer row (one "element" of the buffer): an input row is
  /// BATCH x BLOCK_IN inputs, a weight row BLOCK_OUT x BLOCK_IN weights, an
  /// accumulator row BATCH x BLOCK_OUT accumulators, an output row BATCH x
  /// BLOCK_OUT outputs, a micro-op 32 bits.
  uint64_t elemBits(Buffer buffer) const;
  uint64_t elemBytes(Buffer buffer) const { return elemBits(buffer) / 8; }
  /// Rows of a buffer.
  uint64_t buffDepth(Buffer buffer) const {
    return uint64_t(1) << logBuffDepth(buffer);
  }
  /// Bytes of a buffer.
  uint64_t buffBytes(Buffer buffer) const {
    return buffDepth(buffer) * elemBytes(buffer);
  }

  /// Prints every parameter and derived size, one per line (for tools and
  /// test failure messages).
  void print(llvm::raw_ostream &os) const;

  bool operator==(const Config &other) const;
  bool operator!=(const Config &other) const { return !(*this == other); }
};

/// The stored parameters as (key, member) pairs, keyed as in vta_config.json
/// but lower-case ("log_inp_width", ...). Parsers, printers and the binary
/// container iterate over this list so the keys are spelled once.
struct ConfigParameter {
  llvm::StringRef key;
  unsigned Config::*member;
};
llvm::ArrayRef<ConfigParameter> getConfigParameters();

} // namespace raf::vta

#endif // RAF_TARGET_VTA_CONFIG_H
