//===- ResourceLimits.cpp - limits on sizes derived from the input --------===//

#include "raf/Support/ResourceLimits.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/Twine.h"
#include "llvm/Support/CheckedArithmetic.h"
#include "llvm/Support/raw_ostream.h"

#include <atomic>
#include <memory>
#include <unistd.h>

using namespace llvm;

namespace {

struct LimitInfo {
  const char *option;
  const char *name;
  const char *unit;
  const char *description;
};

// Indexed by ResourceLimit.
constexpr LimitInfo infos[] = {
    {"max-allocation-bytes", "allocation", "bytes",
     "Largest tensor or buffer the program may allocate, in bytes (default: "
     "this machine's physical memory)"},
    {"max-embedding-extent", "embedding extent", "points",
     "Largest iterator extent the dataflow embedding accepts (default "
     "2^20)"},
    {"max-iteration-points", "iteration domain", "points",
     "Largest iteration domain (product of the iterator extents) the "
     "dataflow embedding accepts (default 2^40)"},
    {"max-dram-bytes", "simulated DRAM", "bytes",
     "Largest simulated VTA DRAM in bytes (default 4GiB; never more than "
     "this machine's physical memory)"},
    {"max-nesting-depth", "nesting depth", "levels",
     "Deepest bracket nesting accepted in textual IR (default 1000)"},
};
constexpr unsigned numLimits = std::size(infos);

std::atomic<uint64_t> configured[numLimits];

unsigned indexOf(raf::ResourceLimit limit) {
  return static_cast<unsigned>(limit);
}

} // namespace

uint64_t raf::getPhysicalMemoryBytes() {
  long pages = sysconf(_SC_PHYS_PAGES), pageSize = sysconf(_SC_PAGESIZE);
  if (pages <= 0 || pageSize <= 0)
    return UINT64_MAX;
  return checkedMulUnsigned(static_cast<uint64_t>(pages),
                            static_cast<uint64_t>(pageSize))
      .value_or(UINT64_MAX);
}

uint64_t raf::getDefaultResourceLimit(ResourceLimit limit) {
  switch (limit) {
  case ResourceLimit::AllocationBytes:
    return getPhysicalMemoryBytes();
  case ResourceLimit::EmbeddingExtent:
    // The enumeration behind the embedding's cost model is linear in every
    // extent: 2^20 takes about a third of a second; the DeepBench
    // convolutions have extents up to 2048.
    return uint64_t(1) << 20;
  case ResourceLimit::EmbeddingPoints:
    // The largest DeepBench convolution has 2.8e9 (< 2^32) points; with
    // extents below 2^20 and domains below 2^40, MAC and data counts of
    // padded tilings stay far from 2^64.
    return uint64_t(1) << 40;
  case ResourceLimit::DRAMBytes:
    return std::min<uint64_t>(uint64_t(4) << 30, getPhysicalMemoryBytes());
  case ResourceLimit::NestingDepth:
    // MLIR's parser and printer recurse once or twice per level, with
    // frames of up to about 2 KiB (nested regions); 1000 levels fit a 8 MiB
    // stack several times over.
    return 1000;
  }
  return UINT64_MAX;
}

uint64_t raf::getResourceLimit(ResourceLimit limit) {
  uint64_t value = configured[indexOf(limit)].load(std::memory_order_relaxed);
  if (!value)
    return getDefaultResourceLimit(limit);
  // Simulated DRAM is memory of this process: never beyond the machine.
  if (limit == ResourceLimit::DRAMBytes)
    return std::min(value, getPhysicalMemoryBytes());
  return value;
}

void raf::setResourceLimit(ResourceLimit limit, uint64_t value) {
  configured[indexOf(limit)].store(value, std::memory_order_relaxed);
}

bool raf::isResourceLimitSet(ResourceLimit limit) {
  return configured[indexOf(limit)].load(std::memory_order_relaxed) != 0;
}

StringRef raf::getResourceLimitOption(ResourceLimit limit) {
  return infos[indexOf(limit)].option;
}

StringRef raf::getResourceLimitName(ResourceLimit limit) {
  return infos[indexOf(limit)].name;
}

StringRef raf::getResourceLimitUnit(ResourceLimit limit) {
  return infos[indexOf(limit)].unit;
}

/// Where the limit in force comes from, for messages.
static std::string describeSource(raf::ResourceLimit limit) {
  using raf::ResourceLimit;
  std::string option = ("--" + raf::getResourceLimitOption(limit)).str();
  uint64_t physical = raf::getPhysicalMemoryBytes();
  bool set = raf::isResourceLimitSet(limit);
  if (limit == ResourceLimit::DRAMBytes &&
      raf::getResourceLimit(limit) == physical &&
      (set || raf::getDefaultResourceLimit(limit) == physical))
    return "(this machine's physical memory)";
  if (set)
    return "(" + option + ")";
  if (limit == ResourceLimit::AllocationBytes)
    return "(this machine's physical memory); " + option + " sets another";
  return "(the default); raise it with " + option;
}

std::optional<std::string> raf::checkResourceLimit(ResourceLimit limit,
                                                   uint64_t value) {
  uint64_t bound = getResourceLimit(limit);
  if (value <= bound)
    return std::nullopt;
  StringRef unit = getResourceLimitUnit(limit);
  return (Twine(value) + " " + unit + " exceed the " +
          getResourceLimitName(limit) + " limit of " + Twine(bound) + " " +
          unit + " " + describeSource(limit))
      .str();
}

std::string raf::describeOverflow(ResourceLimit limit, StringRef what) {
  return (what + " exceed 2^64 " + getResourceLimitUnit(limit) +
          ", beyond the " + getResourceLimitName(limit) + " limit of " +
          Twine(getResourceLimit(limit)) + " " + getResourceLimitUnit(limit) +
          " " + describeSource(limit))
      .str();
}

Expected<uint64_t> raf::parseByteSize(StringRef text) {
  auto fail = [&](const Twine &why) -> Expected<uint64_t> {
    return createStringError(inconvertibleErrorCode(),
                             "'" + text + "' is not a byte size: " + why);
  };
  StringRef rest = text.trim();
  unsigned radix = 10;
  if (rest.starts_with_insensitive("0x")) {
    radix = 16;
    rest = rest.drop_front(2);
  }
  size_t digits = 0;
  while (digits < rest.size() &&
         (radix == 16 ? isHexDigit(rest[digits]) : isDigit(rest[digits])))
    ++digits;
  if (digits == 0)
    return fail("expected an integer, optionally followed by K, M, G, T "
                "(or KiB, MiB, GiB, TiB)");
  uint64_t value = 0;
  for (char c : rest.take_front(digits)) {
    std::optional<uint64_t> next = checkedMulUnsigned<uint64_t>(value, radix);
    if (next)
      next = checkedAddUnsigned<uint64_t>(*next, hexDigitValue(c));
    if (!next)
      return fail("larger than 2^64 - 1");
    value = *next;
  }
  StringRef suffix = rest.drop_front(digits);
  unsigned shift = 0;
  if (suffix.empty() || suffix.equals_insensitive("b"))
    shift = 0;
  else if (suffix.equals_insensitive("k") || suffix.equals_insensitive("kib"))
    shift = 10;
  else if (suffix.equals_insensitive("m") || suffix.equals_insensitive("mib"))
    shift = 20;
  else if (suffix.equals_insensitive("g") || suffix.equals_insensitive("gib"))
    shift = 30;
  else if (suffix.equals_insensitive("t") || suffix.equals_insensitive("tib"))
    shift = 40;
  else
    return fail("unknown unit '" + suffix +
                "' (expected K, M, G, T or KiB, MiB, GiB, TiB)");
  if (shift && value > (UINT64_MAX >> shift))
    return fail("larger than 2^64 - 1");
  return value << shift;
}

bool cl::parser<raf::ByteSize>::parse(cl::Option &option, StringRef argName,
                                     StringRef argValue,
                                     raf::ByteSize &value) {
  Expected<uint64_t> parsed = raf::parseByteSize(argValue);
  if (!parsed)
    return option.error(toString(parsed.takeError()), argName);
  value.value = *parsed;
  return false;
}

void cl::parser<raf::ByteSize>::printOptionDiff(
    const cl::Option &option, raf::ByteSize value,
    const cl::OptionValue<raf::ByteSize> &defaultValue,
    size_t globalWidth) const {
  printOptionName(option, globalWidth);
  outs() << "= " << value.value;
  if (defaultValue.hasValue())
    outs() << " (default: " << defaultValue.getValue().value << ")";
  outs() << "\n";
}

void raf::registerResourceLimitOptions(ArrayRef<ResourceLimit> limits,
                                       cl::OptionCategory *category) {
  // An option exists once per process (LLVM refuses duplicates).
  static std::atomic<bool> registered[numLimits];
  // The options live as long as the process and are destroyed at its exit,
  // like static cl::opts (owned here: once llvm_shutdown has dropped the
  // option registry, nothing else points to them, and LeakSanitizer reports
  // what nothing points to).
  static std::unique_ptr<cl::Option> options[numLimits];
  for (ResourceLimit limit : limits) {
    if (registered[indexOf(limit)].exchange(true))
      continue;
    const LimitInfo &info = infos[indexOf(limit)];
    bool bytes = StringRef(info.unit) == "bytes";
    if (bytes) {
      auto *option = new cl::opt<ByteSize>(
          StringRef(info.option), cl::desc(info.description),
          cl::value_desc("bytes"), cl::cb<void, ByteSize>([limit](ByteSize size) {
            setResourceLimit(limit, size.value);
          }));
      if (category)
        option->addCategory(*category);
      options[indexOf(limit)].reset(option);
    } else {
      auto *option = new cl::opt<uint64_t>(
          StringRef(info.option), cl::desc(info.description), cl::init(0),
          cl::value_desc(info.unit),
          cl::cb<void, uint64_t>(
              [limit](uint64_t value) { setResourceLimit(limit, value); }));
      if (category)
        option->addCategory(*category);
      options[indexOf(limit)].reset(option);
    }
  }
}
