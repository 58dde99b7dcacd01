//===- AllocationLimit.h - the largest buffer a program may allocate ------===//
//
// One limit for every path that allocates memory sized by its input: the
// reference evaluator's tensors, the buffers compiled code allocates (checked
// when the CPU pipeline compiles a static shape and again when compiled code
// runs) and the tensors raf-run reads or returns. A size above the limit is
// an error that names the limit, never an allocation that fails later with a
// crash or an abort.
//
// It is ResourceLimit::AllocationBytes of raf/Support/ResourceLimits.h (the
// project's resource limits, docs/resource-limits.md); these functions are
// shorthands for it.
//
//===----------------------------------------------------------------------===//

#ifndef RAF_SUPPORT_ALLOCATIONLIMIT_H
#define RAF_SUPPORT_ALLOCATIONLIMIT_H

#include <cstdint>
#include <optional>
#include <string>

namespace raf {

/// The largest single allocation in bytes: the value given to
/// setAllocationLimit, or else this machine's physical memory.
uint64_t getAllocationLimit();

/// Sets the limit for this process (0 restores the default). Tools expose it
/// as --max-allocation-bytes.
void setAllocationLimit(uint64_t bytes);

/// An error message if `bytes` exceeds the limit, naming the limit and how to
/// raise it; nullopt if the allocation may go ahead.
std::optional<std::string> checkAllocationSize(uint64_t bytes);

/// As above for `count` elements of `elementBytes` each; also reports a
/// product that overflows 64 bits.
std::optional<std::string> checkAllocationSize(uint64_t count,
                                               uint64_t elementBytes);

} // namespace raf

#endif // RAF_SUPPORT_ALLOCATIONLIMIT_H
