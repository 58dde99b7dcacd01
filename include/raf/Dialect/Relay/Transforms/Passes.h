//===- Passes.h - relay dialect passes --------------------------*- C++ -*-===//

#ifndef RAF_DIALECT_RELAY_TRANSFORMS_PASSES_H
#define RAF_DIALECT_RELAY_TRANSFORMS_PASSES_H

#include "mlir/Pass/Pass.h"

namespace raf::relay {

#define GEN_PASS_DECL
#include "raf/Dialect/Relay/Transforms/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "raf/Dialect/Relay/Transforms/Passes.h.inc"

} // namespace raf::relay

#endif // RAF_DIALECT_RELAY_TRANSFORMS_PASSES_H
