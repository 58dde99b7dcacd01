//===- ResourceLimits.h - limits on sizes derived from the input -*- C++ -*-===//
//
// Every size the project derives from its input -- a tensor or buffer to
// allocate, an operator's iteration domain handed to the dataflow
// embedding, the simulated VTA DRAM, the nesting depth of textual IR -- is
// checked against one of these limits before any work proportional to it
// is done. Each limit has a default, a command-line option of the same name
// in every tool that checks it, and a message that names both:
//
//   2147483648 points exceed the embedding extent limit of 1048576 points
//   (the default); raise it with --max-embedding-extent
//
// docs/resource-limits.md lists the limits, their defaults and where each
// is checked. The limits are process-wide (one tool run, one policy) and
// safe to read from any thread.
//
//===----------------------------------------------------------------------===//

#ifndef RAF_SUPPORT_RESOURCELIMITS_H
#define RAF_SUPPORT_RESOURCELIMITS_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/Error.h"

#include <cstdint>
#include <optional>
#include <string>

namespace raf {

enum class ResourceLimit {
  /// The largest single tensor or buffer in bytes (the reference
  /// evaluator's tensors, compiled code's buffers, .npy inputs, results).
  /// Default: this machine's physical memory.
  AllocationBytes,
  /// The largest extent of one iterator of an operator the dataflow
  /// embedding accepts (the model enumerates tile origins along every
  /// iterator, so its time and memory grow with the extents).
  EmbeddingExtent,
  /// The largest iteration domain (product of the iterator extents) the
  /// dataflow embedding accepts; it also keeps the cost model's MAC and data
  /// counts within 64 bits.
  EmbeddingPoints,
  /// The largest simulated VTA DRAM in bytes (raf-vta-sim --dram-size, the
  /// DRAM image raf-run --target=vta-sim lays out per kernel). Never more
  /// than this machine's physical memory, whatever the option says.
  DRAMBytes,
  /// The deepest nesting of brackets in textual IR the tools parse; the
  /// upstream parser recurses per level and overflows the stack otherwise.
  NestingDepth,
};

/// The limit in force: the value an option or setResourceLimit gave, else
/// the default.
uint64_t getResourceLimit(ResourceLimit limit);
/// The default of `limit` on this machine.
uint64_t getDefaultResourceLimit(ResourceLimit limit);
/// Sets `limit` for this process; 0 restores the default.
void setResourceLimit(ResourceLimit limit, uint64_t value);
/// Whether an option (or setResourceLimit) set `limit`.
bool isResourceLimitSet(ResourceLimit limit);

/// The option that sets `limit`, without dashes ("max-allocation-bytes").
llvm::StringRef getResourceLimitOption(ResourceLimit limit);
/// The limit's name in messages ("allocation", "embedding extent").
llvm::StringRef getResourceLimitName(ResourceLimit limit);
/// The unit of its values ("bytes", "points", "levels").
llvm::StringRef getResourceLimitUnit(ResourceLimit limit);

/// An error message if `value` exceeds `limit` -- "<value> <unit> exceed
/// the <name> limit of <limit> <unit> (<where it comes from>)", followed by
/// how to raise it when the default is in force -- or nullopt if `value` is
/// within it.
std::optional<std::string> checkResourceLimit(ResourceLimit limit,
                                              uint64_t value);
/// The message checkResourceLimit gives for a value beyond 2^64 (a product
/// that overflowed): `what` names the quantity.
std::string describeOverflow(ResourceLimit limit, llvm::StringRef what);

/// Registers the command-line options of `limits` (--max-allocation-bytes,
/// ...) in `category`; call before cl::ParseCommandLineOptions. The values
/// go to setResourceLimit as the command line is parsed; a limit registered
/// before is skipped (a later category is not added). Byte-valued
/// options take the sizes parseByteSize reads ("4GiB").
void registerResourceLimitOptions(llvm::ArrayRef<ResourceLimit> limits,
                                  llvm::cl::OptionCategory *category = nullptr);

/// Parses a size in bytes: a decimal (or 0x hexadecimal) integer, optionally
/// followed by K, M, G, T (or KiB, MiB, GiB, TiB: powers of 1024) or B.
/// Sizes beyond 2^64 - 1 are an error, never a wrapped value.
llvm::Expected<uint64_t> parseByteSize(llvm::StringRef text);

/// A byte size as a command-line option value: cl::opt<raf::ByteSize> reads
/// what parseByteSize reads.
struct ByteSize {
  uint64_t value = 0;
  bool operator==(const ByteSize &other) const { return value == other.value; }
  bool operator!=(const ByteSize &other) const { return value != other.value; }
};

/// This machine's physical memory in bytes (UINT64_MAX if unknown).
uint64_t getPhysicalMemoryBytes();

} // namespace raf

namespace llvm::cl {
template <>
class parser<raf::ByteSize> : public basic_parser<raf::ByteSize> {
public:
  parser(Option &option) : basic_parser(option) {}
  bool parse(Option &option, StringRef argName, StringRef argValue,
             raf::ByteSize &value);
  StringRef getValueName() const override { return "bytes"; }
  void printOptionDiff(const Option &option, raf::ByteSize value,
                       const OptionValue<raf::ByteSize> &defaultValue,
                       size_t globalWidth) const;
};
} // namespace llvm::cl

#endif // RAF_SUPPORT_RESOURCELIMITS_H
