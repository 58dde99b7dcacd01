//===- ContractionsToBLAS.h - large contractions as BLAS calls --*- C++ -*-===//
//
// `--raf-contractions-to-blas` (Passes.td) emits calls of the BLAS runtime
// (raf/Runtime/BLASRuntime.h). Whether this build has that runtime decides
// the CPU pipeline's `blas=auto`.
//
//===----------------------------------------------------------------------===//

#ifndef RAF_TRANSFORMS_CONTRACTIONSTOBLAS_H
#define RAF_TRANSFORMS_CONTRACTIONSTOBLAS_H

namespace raf {

/// True when OpenBLAS was found at configure time, so that the tools of this
/// build link the runtime the calls need.
bool isBLASRuntimeBuilt();

} // namespace raf

#endif // RAF_TRANSFORMS_CONTRACTIONSTOBLAS_H
