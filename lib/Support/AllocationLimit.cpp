//===- AllocationLimit.cpp - the largest buffer a program may allocate ----===//

#include "raf/Support/AllocationLimit.h"

#include "llvm/Support/CheckedArithmetic.h"

#include <atomic>
#include <unistd.h>

namespace {
std::atomic<uint64_t> configuredLimit{0};

uint64_t physicalMemoryBytes() {
  long pages = sysconf(_SC_PHYS_PAGES), pageSize = sysconf(_SC_PAGESIZE);
  if (pages <= 0 || pageSize <= 0)
    return UINT64_MAX;
  return llvm::checkedMulUnsigned(static_cast<uint64_t>(pages),
                                  static_cast<uint64_t>(pageSize))
      .value_or(UINT64_MAX);
}
} // namespace

uint64_t raf::getAllocationLimit() {
  uint64_t configured = configuredLimit.load(std::memory_order_relaxed);
  return configured ? configured : physicalMemoryBytes();
}

void raf::setAllocationLimit(uint64_t bytes) {
  configuredLimit.store(bytes, std::memory_order_relaxed);
}

std::optional<std::string> raf::checkAllocationSize(uint64_t bytes) {
  uint64_t limit = getAllocationLimit();
  if (bytes <= limit)
    return std::nullopt;
  bool configured = configuredLimit.load(std::memory_order_relaxed) != 0;
  return std::to_string(bytes) + " bytes exceed the allocation limit of " +
         std::to_string(limit) + " bytes (" +
         (configured ? "--max-allocation-bytes"
                     : "this machine's physical memory") +
         ")";
}

std::optional<std::string> raf::checkAllocationSize(uint64_t count,
                                                    uint64_t elementBytes) {
  std::optional<uint64_t> bytes = llvm::checkedMulUnsigned(count, elementBytes);
  if (!bytes)
    return std::to_string(count) + " elements of " +
           std::to_string(elementBytes) + " bytes overflow a 64-bit size";
  return checkAllocationSize(*bytes);
}
