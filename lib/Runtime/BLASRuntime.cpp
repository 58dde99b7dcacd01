//===- BLASRuntime.cpp - matrix products through OpenBLAS -----------------===//
//
// The calls `--raf-contractions-to-blas` emits, in the manner of TVM's
// `-libs=cblas` external contractions (Chen et al., OSDI 2018, §6): each
// operand's strides are mapped onto the CBLAS interface (row-major order, a
// transpose flag and a leading dimension per matrix, BLAS Technical Forum
// Standard 2001, App. B), so transposed and offset views cost no copy.
//
//===----------------------------------------------------------------------===//

#include "raf/Runtime/BLASRuntime.h"

#include "mlir/ExecutionEngine/CRunnerUtils.h"

#include <algorithm>
#include <cstdint>
#include <vector>

using namespace raf::runtime;

#ifdef RAF_HAVE_OPENBLAS

// The CBLAS and OpenBLAS entry points used here, declared with the values of
// the standard's enumerations, so that the build does not depend on which
// cblas.h the system's alternatives select.
extern "C" {
void cblas_sgemm(int order, int transA, int transB, int m, int n, int k,
                 float alpha, const float *a, int lda, const float *b, int ldb,
                 float beta, float *c, int ldc);
void cblas_dgemm(int order, int transA, int transB, int m, int n, int k,
                 double alpha, const double *a, int lda, const double *b,
                 int ldb, double beta, double *c, int ldc);
void cblas_sgemv(int order, int trans, int m, int n, float alpha,
                 const float *a, int lda, const float *x, int incx, float beta,
                 float *y, int incy);
void cblas_dgemv(int order, int trans, int m, int n, double alpha,
                 const double *a, int lda, const double *x, int incx,
                 double beta, double *y, int incy);
void openblas_set_num_threads(int threads);
char *openblas_get_config(void);
char *openblas_get_corename(void);
}

namespace {
constexpr int kRowMajor = 101, kNoTrans = 111, kTrans = 112;

inline void gemm(int ta, int tb, int m, int n, int k, const float *a, int lda,
                 const float *b, int ldb, float beta, float *c, int ldc) {
  cblas_sgemm(kRowMajor, ta, tb, m, n, k, 1.0f, a, lda, b, ldb, beta, c, ldc);
}
inline void gemm(int ta, int tb, int m, int n, int k, const double *a, int lda,
                 const double *b, int ldb, double beta, double *c, int ldc) {
  cblas_dgemm(kRowMajor, ta, tb, m, n, k, 1.0, a, lda, b, ldb, beta, c, ldc);
}
inline void gemv(int t, int m, int n, const float *a, int lda, const float *x,
                 int incx, float beta, float *y, int incy) {
  cblas_sgemv(kRowMajor, t, m, n, 1.0f, a, lda, x, incx, beta, y, incy);
}
inline void gemv(int t, int m, int n, const double *a, int lda,
                 const double *x, int incx, double beta, double *y, int incy) {
  cblas_dgemv(kRowMajor, t, m, n, 1.0, a, lda, x, incx, beta, y, incy);
}

/// A strided rows x cols matrix.
template <typename T> struct Matrix {
  T *data;
  int64_t rows, cols, rowStride, colStride;

  Matrix transposed() const { return {data, cols, rows, colStride, rowStride}; }

  /// The CBLAS form of this matrix in row-major order: kNoTrans with the
  /// leading dimension `ld` when rows are contiguous, kTrans when columns
  /// are; 0 when neither is (the matrix must be copied first). A dimension
  /// of extent 1 may have any stride.
  int form(int64_t &ld) const {
    if (cols == 1 || colStride == 1) {
      ld = rows == 1 ? std::max<int64_t>(cols, 1) : rowStride;
      if (ld >= std::max<int64_t>(cols, 1))
        return kNoTrans;
    }
    if (rows == 1 || rowStride == 1) {
      ld = cols == 1 ? std::max<int64_t>(rows, 1) : colStride;
      if (ld >= std::max<int64_t>(rows, 1))
        return kTrans;
    }
    return 0;
  }

  /// A contiguous row-major copy of this matrix, held by `storage`.
  Matrix packed(std::vector<T> &storage) const {
    storage.resize(rows * cols);
    for (int64_t i = 0; i < rows; ++i)
      for (int64_t j = 0; j < cols; ++j)
        storage[i * cols + j] = data[i * rowStride + j * colStride];
    return {storage.data(), rows, cols, cols, 1};
  }
};

/// C = A * B (+ C when `accumulate`), A: M x K, B: K x N, C: M x N.
template <typename T>
void multiply(Matrix<T> a, Matrix<T> b, Matrix<T> c, bool accumulate) {
  int64_t m = c.rows, n = c.cols, k = a.cols;
  if (m == 0 || n == 0)
    return;
  T beta = accumulate ? T(1) : T(0);
  int64_t ldc;
  int cForm = c.form(ldc);
  if (cForm == kTrans) {
    // C^T = B^T A^T has unit-stride rows.
    multiply(b.transposed(), a.transposed(), c.transposed(), accumulate);
    return;
  }
  if (cForm == 0) {
    // Not expressible (no output of ours, but any caller's view): compute
    // into a contiguous buffer and copy back.
    std::vector<T> storage;
    Matrix<T> packed = c.packed(storage);
    multiply(a, b, packed, accumulate);
    for (int64_t i = 0; i < m; ++i)
      for (int64_t j = 0; j < n; ++j)
        c.data[i * c.rowStride + j * c.colStride] = storage[i * n + j];
    return;
  }
  if (k == 0) {
    if (!accumulate)
      for (int64_t i = 0; i < m; ++i)
        for (int64_t j = 0; j < n; ++j)
          c.data[i * c.rowStride + j * c.colStride] = T(0);
    return;
  }
  std::vector<T> aStorage, bStorage;
  int64_t lda, ldb;
  int aForm = a.form(lda), bForm = b.form(ldb);
  if (aForm == 0) {
    a = a.packed(aStorage);
    aForm = a.form(lda);
  }
  if (bForm == 0) {
    b = b.packed(bStorage);
    bForm = b.form(ldb);
  }
  // One output row or column: a matrix-vector product (GEMM's blocking
  // gains nothing there).
  if (m == 1) {
    // c^T (N) = B^T (N x K) a^T (K): the strided row of A is the vector.
    Matrix<T> bt = b.transposed();
    int64_t ldbt;
    int btForm = bt.form(ldbt);
    gemv(btForm, btForm == kNoTrans ? n : k, btForm == kNoTrans ? k : n,
         bt.data, ldbt, a.data, k == 1 ? 1 : a.colStride, beta, c.data,
         n == 1 ? 1 : c.colStride);
    return;
  }
  if (n == 1) {
    // c (M) = A (M x K) b (K).
    gemv(aForm, aForm == kNoTrans ? m : k, aForm == kNoTrans ? k : m, a.data,
         lda, b.data, k == 1 ? 1 : b.rowStride, beta, c.data,
         m == 1 ? 1 : c.rowStride);
    return;
  }
  gemm(aForm, bForm, m, n, k, a.data, lda, b.data, ldb, beta, c.data, ldc);
}

/// The matrix of batch `index` of a [batch, rows, cols] operand (`swapped`:
/// stored [batch, cols, rows]); a batch extent of 1 is broadcast.
template <typename T>
Matrix<T> matrixOf(StridedMemRefType<T, 3> *memref, bool swapped,
                   int64_t index) {
  int64_t batch = memref->sizes[0] == 1 ? 0 : index;
  Matrix<T> matrix{memref->data + memref->offset + batch * memref->strides[0],
                   memref->sizes[1], memref->sizes[2], memref->strides[1],
                   memref->strides[2]};
  return swapped ? matrix.transposed() : matrix;
}

/// OpenBLAS's thread count follows the compiled code's (`--threads`): set
/// when it changes, since setting it is not free.
void useThreads(int64_t threads) {
  static int64_t current = 0;
  threads = std::max<int64_t>(threads, 1);
  if (threads != current) {
    openblas_set_num_threads(static_cast<int>(threads));
    current = threads;
  }
}

template <typename T>
void gemmEntry(StridedMemRefType<T, 3> *a, StridedMemRefType<T, 3> *b,
               StridedMemRefType<T, 3> *c, int64_t transA, int64_t transB,
               int64_t transC, int64_t accumulate, int64_t threads) {
  useThreads(threads);
  for (int64_t index = 0; index < c->sizes[0]; ++index)
    multiply(matrixOf(a, transA, index), matrixOf(b, transB, index),
             matrixOf(c, transC, index), accumulate != 0);
}
} // namespace

extern "C" void _mlir_ciface_rafBlasGemmF32(
    StridedMemRefType<float, 3> *a, StridedMemRefType<float, 3> *b,
    StridedMemRefType<float, 3> *c, int64_t transA, int64_t transB,
    int64_t transC, int64_t accumulate, int64_t threads) {
  gemmEntry(a, b, c, transA, transB, transC, accumulate, threads);
}

extern "C" void _mlir_ciface_rafBlasGemmF64(
    StridedMemRefType<double, 3> *a, StridedMemRefType<double, 3> *b,
    StridedMemRefType<double, 3> *c, int64_t transA, int64_t transB,
    int64_t transC, int64_t accumulate, int64_t threads) {
  gemmEntry(a, b, c, transA, transB, transC, accumulate, threads);
}

bool raf::runtime::isBLASRuntimeAvailable() { return true; }

std::vector<std::pair<std::string, void *>>
raf::runtime::getBLASRuntimeSymbols() {
  return {{"_mlir_ciface_rafBlasGemmF32",
           reinterpret_cast<void *>(&_mlir_ciface_rafBlasGemmF32)},
          {"_mlir_ciface_rafBlasGemmF64",
           reinterpret_cast<void *>(&_mlir_ciface_rafBlasGemmF64)}};
}

std::string raf::runtime::getBLASDescription() {
  return std::string(openblas_get_config()) + " (core " +
         openblas_get_corename() + ")";
}

#else // !RAF_HAVE_OPENBLAS

bool raf::runtime::isBLASRuntimeAvailable() { return false; }

std::vector<std::pair<std::string, void *>>
raf::runtime::getBLASRuntimeSymbols() {
  return {};
}

std::string raf::runtime::getBLASDescription() { return ""; }

#endif // RAF_HAVE_OPENBLAS
