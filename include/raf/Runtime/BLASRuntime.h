//===- BLASRuntime.h - matrix products through OpenBLAS ---------*- C++ -*-===//
//
// The runtime of `--raf-contractions-to-blas`: compiled code calls
//
//   rafBlasGemmF32(A, B, C, transA, transB, transC, accumulate, threads)
//   rafBlasGemmF64(...)
//
// (through their C interface, `_mlir_ciface_rafBlasGemmF32`), with A, B and
// C rank-3 strided memrefs [batch, rows, cols]: C[b] (+)= A[b] * B[b], where
// a `trans` flag says that the operand's last two dimensions are stored
// swapped ([K, M] for A, [N, K] for B, [N, M] for C) and a batch extent of 1
// in A or B is broadcast over C's batch. The strides of the memrefs become
// BLAS leading dimensions and transpose flags; an operand whose layout BLAS
// cannot express (neither dimension of unit stride) is copied into a
// contiguous buffer first. One row or one column of output uses GEMV.
//
//===----------------------------------------------------------------------===//

#ifndef RAF_RUNTIME_BLASRUNTIME_H
#define RAF_RUNTIME_BLASRUNTIME_H

#include <string>
#include <utility>
#include <vector>

namespace raf::runtime {

/// True when this build links OpenBLAS (found at configure time).
bool isBLASRuntimeAvailable();

/// The symbols compiled code calls (`_mlir_ciface_rafBlasGemmF32` and
/// `..F64`) and their addresses, for CPURunnerOptions::runtimeSymbols; empty
/// without OpenBLAS.
std::vector<std::pair<std::string, void *>> getBLASRuntimeSymbols();

/// The OpenBLAS library's self-description (openblas_get_config(), e.g.
/// "OpenBLAS 0.3.21 DYNAMIC_ARCH NO_AFFINITY SkylakeX MAX_THREADS=64") and
/// the core type its kernels were chosen for; empty without OpenBLAS.
std::string getBLASDescription();

} // namespace raf::runtime

#endif // RAF_RUNTIME_BLASRUNTIME_H
