//===- DefaultBackends.h - the backends RAF-MLIR ships ----------*- C++ -*-===//
//
// The default contents of the backend registry, chosen so that RAF's Table 1
// and Fig. 6 decisions reproduce (RAF paper §3.2.1-3.2.2):
//
//  * `linalg` (cpu, cuda): every relay operator at priority 10 and
//    rule-based fusion at 5. It is the code generator of the CPU path and
//    stands in for RAF's `tvm`.
//  * `cublas`, `cudnn`, `cutlass`, `cuda` (cuda only): vendor-library
//    backends with their dispatch priorities and fusion patterns. They exist
//    for dispatch and fusion decisions only; nothing generates CUDA code.
//
//===----------------------------------------------------------------------===//

#ifndef RAF_DIALECT_RELAY_TRANSFORMS_DEFAULTBACKENDS_H
#define RAF_DIALECT_RELAY_TRANSFORMS_DEFAULTBACKENDS_H

#include "llvm/ADT/StringRef.h"

namespace raf::relay {

class BackendRegistry;

namespace backend {
inline constexpr llvm::StringLiteral kLinalg = "linalg";
inline constexpr llvm::StringLiteral kCublas = "cublas";
inline constexpr llvm::StringLiteral kCudnn = "cudnn";
inline constexpr llvm::StringLiteral kCutlass = "cutlass";
/// Table 1's "cuda (>=8)" backend; the name is kept for fidelity.
inline constexpr llvm::StringLiteral kCuda = "cuda";
} // namespace backend

/// Registers the default backends, operator priorities and fusion list into
/// an empty registry.
void registerDefaultBackends(BackendRegistry &registry);

} // namespace raf::relay

#endif // RAF_DIALECT_RELAY_TRANSFORMS_DEFAULTBACKENDS_H
