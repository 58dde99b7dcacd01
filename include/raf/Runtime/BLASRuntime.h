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

/// True when this build has the runtime (OpenBLAS found at configure time)
/// and the library opens. OpenBLAS is opened on first use, after its core
/// type is chosen: the user's OPENBLAS_CORETYPE if set, else SkylakeX on
/// CPUs with AVX-512 (F/CD/BW/DQ/VL) and Haswell on AVX2 + FMA, since
/// OpenBLAS 0.3.21 runs its SSE3 kernels on CPU models it does not know.
bool isBLASRuntimeAvailable();

/// True once compiled code has called the runtime in this process.
bool wasBLASRuntimeUsed();

/// The symbols compiled code calls (`_mlir_ciface_rafBlasGemmF32` and
/// `..F64`) and their addresses, for CPURunnerOptions::runtimeSymbols; empty
/// without OpenBLAS.
std::vector<std::pair<std::string, void *>> getBLASRuntimeSymbols();

/// The OpenBLAS library's self-description (openblas_get_config()), the
/// kernels it runs (openblas_get_corename()) and where OPENBLAS_CORETYPE
/// came from; opens the library; empty without OpenBLAS.
std::string getBLASDescription();

} // namespace raf::runtime

#endif // RAF_RUNTIME_BLASRUNTIME_H
