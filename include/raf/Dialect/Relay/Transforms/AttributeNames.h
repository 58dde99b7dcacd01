//===- AttributeNames.h - attributes the relay passes exchange --*- C++ -*-===//
//
// Discardable attributes one pass writes and another reads; one spelling
// for all of them.
//
//===----------------------------------------------------------------------===//

#ifndef RAF_DIALECT_RELAY_TRANSFORMS_ATTRIBUTENAMES_H
#define RAF_DIALECT_RELAY_TRANSFORMS_ATTRIBUTENAMES_H

#include "llvm/ADT/StringRef.h"

namespace raf::relay {

// Training graphs (--raf-autodiff, --raf-append-optimizer, read by
// --raf-autocast): docs/autodiff.md and docs/training.md.
inline constexpr llvm::StringLiteral kGradParamsAttr = "raf.grad_params";
// On an entry argument: whether --raf-autodiff differentiates it when no
// requires-grad option is given (written by the Python frontends).
inline constexpr llvm::StringLiteral kRequiresGradAttr = "raf.requires_grad";
inline constexpr llvm::StringLiteral kOptimizerAttr = "raf.optimizer";
inline constexpr llvm::StringLiteral kNumParamsAttr = "raf.num_params";
inline constexpr llvm::StringLiteral kNumStatesAttr = "raf.num_states";
inline constexpr llvm::StringLiteral kNumAuxAttr = "raf.num_aux";
inline constexpr llvm::StringLiteral kUpdatableAttr = "raf.updatable";
inline constexpr llvm::StringLiteral kUpdatesArgAttr = "raf.updates_arg";
// On the relay.mean ops of a training-mode batch norm's gradient that take
// statistics over the batch (written by --raf-autodiff, read by
// --raf-data-parallel's SyncBatchNorm): docs/data-parallel.md.
inline constexpr llvm::StringLiteral kBatchStatAttr = "raf.batch_stat";

// Fused functions (--raf-fuse, lifted primitive closures):
// docs/fusion-and-dispatch.md.
inline constexpr llvm::StringLiteral kPrimitiveAttr = "relay.primitive";
inline constexpr llvm::StringLiteral kBackendAttr = "relay.backend";
inline constexpr llvm::StringLiteral kFusionPatternAttr =
    "relay.fusion_pattern";

// Rematerialisation (--raf-rematerialize): docs/memory.md.
inline constexpr llvm::StringLiteral kRecomputedAttr = "raf.recomputed";
inline constexpr llvm::StringLiteral kRematPeakBytesAttr =
    "raf.remat.peak_bytes";
inline constexpr llvm::StringLiteral kRematNumRecomputedOpsAttr =
    "raf.remat.num_recomputed_ops";
inline constexpr llvm::StringLiteral kRematRecomputedFlopsAttr =
    "raf.remat.recomputed_flops";
inline constexpr llvm::StringLiteral kRematMethodAttr = "raf.remat.method";
inline constexpr llvm::StringLiteral kRematOptimalProvenAttr =
    "raf.remat.optimal_proven";

} // namespace raf::relay

#endif // RAF_DIALECT_RELAY_TRANSFORMS_ATTRIBUTENAMES_H
