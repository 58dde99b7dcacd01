//===- AllocationLimit.cpp - the largest buffer a program may allocate ----===//
//
// The allocation limit is ResourceLimit::AllocationBytes of
// raf/Support/ResourceLimits.h; these are its historical entry points.
//
//===----------------------------------------------------------------------===//

#include "raf/Support/AllocationLimit.h"
#include "raf/Support/ResourceLimits.h"

#include "llvm/Support/CheckedArithmetic.h"

uint64_t raf::getAllocationLimit() {
  return getResourceLimit(ResourceLimit::AllocationBytes);
}

void raf::setAllocationLimit(uint64_t bytes) {
  setResourceLimit(ResourceLimit::AllocationBytes, bytes);
}

std::optional<std::string> raf::checkAllocationSize(uint64_t bytes) {
  return checkResourceLimit(ResourceLimit::AllocationBytes, bytes);
}

std::optional<std::string> raf::checkAllocationSize(uint64_t count,
                                                    uint64_t elementBytes) {
  std::optional<uint64_t> bytes = llvm::checkedMulUnsigned(count, elementBytes);
  if (!bytes)
    return std::to_string(count) + " elements of " +
           std::to_string(elementBytes) + " bytes overflow a 64-bit size";
  return checkAllocationSize(*bytes);
}
