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
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <mutex>
#include <tuple>
#include <type_traits>
#include <vector>

#include <dlfcn.h>

using namespace raf::runtime;

#ifdef RAF_HAVE_OPENBLAS

// OpenBLAS is opened on first use (dlopen), not linked: a run that calls no
// BLAS does not start its thread pool, and its core type can be chosen
// before it initialises (below). The entry points are those of the CBLAS
// standard, with the values of its enumerations.
namespace {
using SgemmFn = void (*)(int, int, int, int, int, int, float, const float *,
                         int, const float *, int, float, float *, int);
using DgemmFn = void (*)(int, int, int, int, int, int, double,
                         const double *, int, const double *, int, double,
                         double *, int);
using SgemvFn = void (*)(int, int, int, int, float, const float *, int,
                         const float *, int, float, float *, int);
using DgemvFn = void (*)(int, int, int, int, double, const double *, int,
                         const double *, int, double, double *, int);
using SetThreadsFn = void (*)(int);
using NameFn = char *(*)();

struct OpenBLAS {
  SgemmFn sgemm = nullptr;
  DgemmFn dgemm = nullptr;
  SgemvFn sgemv = nullptr;
  DgemvFn dgemv = nullptr;
  SetThreadsFn setThreads = nullptr;
  NameFn config = nullptr, coreName = nullptr;
  std::string error;
  /// Where the core type came from: the environment or our choice.
  std::string coreTypeSource;

  bool ok() const { return error.empty(); }
};

/// OpenBLAS 0.3.21's DYNAMIC_ARCH build picks its kernels from the CPU's
/// model, and falls back to the SSE3 "Prescott" kernels on a model it does
/// not know, even with AVX-512 (virtual CPUs named "Intel Xeon Processor",
/// newer AMD cores). Unless the user chose a core type, choose one from the
/// instruction set: SkylakeX (AVX-512 F/CD/BW/DQ/VL kernels) or Haswell
/// (AVX2 + FMA).
std::string chooseCoreType() {
  if (const char *chosen = std::getenv("OPENBLAS_CORETYPE");
      chosen && *chosen)
    return std::string("OPENBLAS_CORETYPE=") + chosen + " (environment)";
#if defined(__x86_64__)
  __builtin_cpu_init();
  const char *core = nullptr;
  if (__builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512cd") &&
      __builtin_cpu_supports("avx512bw") &&
      __builtin_cpu_supports("avx512dq") && __builtin_cpu_supports("avx512vl"))
    core = "SkylakeX";
  else if (__builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma"))
    core = "Haswell";
  if (core) {
    setenv("OPENBLAS_CORETYPE", core, /*overwrite=*/0);
    return std::string("OPENBLAS_CORETYPE=") + core +
           " (chosen by raf from the CPU's instruction set)";
  }
#endif
  return "OPENBLAS_CORETYPE unset (OpenBLAS's own detection)";
}

const OpenBLAS &getOpenBLAS() {
  static OpenBLAS library = [] {
    OpenBLAS blas;
    blas.coreTypeSource = chooseCoreType();
    void *handle = dlopen(RAF_OPENBLAS_PATH, RTLD_NOW | RTLD_LOCAL);
    if (!handle) {
      blas.error = std::string("cannot open OpenBLAS (") + RAF_OPENBLAS_PATH +
                   "): " + dlerror();
      return blas;
    }
    auto load = [&](auto &function, const char *name) {
      function = reinterpret_cast<std::remove_reference_t<decltype(function)>>(
          dlsym(handle, name));
      if (!function && blas.error.empty())
        blas.error = std::string("OpenBLAS has no ") + name;
    };
    load(blas.sgemm, "cblas_sgemm");
    load(blas.dgemm, "cblas_dgemm");
    load(blas.sgemv, "cblas_sgemv");
    load(blas.dgemv, "cblas_dgemv");
    load(blas.setThreads, "openblas_set_num_threads");
    load(blas.config, "openblas_get_config");
    load(blas.coreName, "openblas_get_corename");
    return blas;
  }();
  return library;
}

/// The library, or the end of the process with a message: compiled code
/// cannot receive an error from a call.
const OpenBLAS &requireOpenBLAS() {
  const OpenBLAS &blas = getOpenBLAS();
  if (!blas.ok()) {
    std::fprintf(stderr, "error: BLAS runtime: %s\n", blas.error.c_str());
    std::exit(1);
  }
  return blas;
}
} // namespace

namespace {
constexpr int kRowMajor = 101, kNoTrans = 111, kTrans = 112;

inline void gemm(int ta, int tb, int m, int n, int k, const float *a, int lda,
                 const float *b, int ldb, float beta, float *c, int ldc) {
  requireOpenBLAS().sgemm(kRowMajor, ta, tb, m, n, k, 1.0f, a, lda, b, ldb, beta, c, ldc);
}
inline void gemm(int ta, int tb, int m, int n, int k, const double *a, int lda,
                 const double *b, int ldb, double beta, double *c, int ldc) {
  requireOpenBLAS().dgemm(kRowMajor, ta, tb, m, n, k, 1.0, a, lda, b, ldb, beta, c, ldc);
}
inline void gemv(int t, int m, int n, const float *a, int lda, const float *x,
                 int incx, float beta, float *y, int incy) {
  requireOpenBLAS().sgemv(kRowMajor, t, m, n, 1.0f, a, lda, x, incx, beta, y, incy);
}
inline void gemv(int t, int m, int n, const double *a, int lda,
                 const double *x, int incx, double beta, double *y, int incy) {
  requireOpenBLAS().dgemv(kRowMajor, t, m, n, 1.0, a, lda, x, incx, beta, y, incy);
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
  int64_t ldc = 0;
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
  if (k == 1) {
    // A rank-1 product (the weight gradient of a dense layer at batch 1):
    // one pass writing C. GEMM zeroes C first for beta = 0 and packs both
    // vectors; on a 1000 x 2048 product it took 2.7 ms against 1.0 ms for
    // this loop, 4096 x 9216 48 against 22 ms (1 thread, same results).
    // C's rows are contiguous here (cForm is kNoTrans).
    for (int64_t i = 0; i < m; ++i) {
      T ai = a.data[i * a.rowStride];
      T *row = c.data + i * c.rowStride;
      const T *bRow = b.data;
      if (b.colStride == 1 || n == 1) {
        if (accumulate)
          for (int64_t j = 0; j < n; ++j)
            row[j] += ai * bRow[j];
        else
          for (int64_t j = 0; j < n; ++j)
            row[j] = ai * bRow[j];
      } else {
        for (int64_t j = 0; j < n; ++j) {
          T product = ai * bRow[j * b.colStride];
          row[j] = accumulate ? row[j] + product : product;
        }
      }
    }
    return;
  }
  std::vector<T> aStorage, bStorage;
  int64_t lda = 0, ldb = 0;
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
    int64_t ldbt = 0;
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
bool used = false;

void useThreads(int64_t threads) {
  static int64_t current = 0;
  used = true;
  threads = std::max<int64_t>(threads, 1);
  if (threads != current) {
    requireOpenBLAS().setThreads(static_cast<int>(threads));
    current = threads;
  }
}

/// With RAF_BLAS_PROFILE set, the calls' wall time per product shape
/// (batch, M, N, K), printed to stderr when the process exits.
struct Profile {
  using Shape = std::tuple<int64_t, int64_t, int64_t, int64_t>;
  std::map<Shape, std::pair<int64_t, double>> calls;
  /// Guards `calls`: products may run on several threads of the compiled
  /// code at once.
  std::mutex mutex;

  static Profile *get() {
    static Profile *profile = [] {
      const char *value = std::getenv("RAF_BLAS_PROFILE");
      return value && *value && std::string(value) != "0" ? new Profile()
                                                          : nullptr;
    }();
    return profile;
  }

  static void print() {
    Profile *profile = get();
    std::lock_guard<std::mutex> lock(profile->mutex);
    std::vector<std::pair<Shape, std::pair<int64_t, double>>> rows(
        profile->calls.begin(), profile->calls.end());
    std::sort(rows.begin(), rows.end(), [](const auto &x, const auto &y) {
      return x.second.second > y.second.second;
    });
    double total = 0;
    for (const auto &row : rows)
      total += row.second.second;
    std::fprintf(stderr,
                 "blas-profile: %.3f ms in all calls; per shape "
                 "(batch M N K: calls, ms, GFLOP/s):\n",
                 total);
    for (const auto &[shape, entry] : rows) {
      auto [batch, m, n, k] = shape;
      double flop = 2.0 * batch * m * n * k * entry.first;
      std::fprintf(stderr, "blas-profile: %lld %lld %lld %lld: %lld, %.3f, %.1f\n",
                   (long long)batch, (long long)m, (long long)n, (long long)k,
                   (long long)entry.first, entry.second,
                   entry.second > 0 ? flop / entry.second / 1e6 : 0.0);
    }
  }
};

template <typename T>
void gemmEntry(StridedMemRefType<T, 3> *a, StridedMemRefType<T, 3> *b,
               StridedMemRefType<T, 3> *c, int64_t transA, int64_t transB,
               int64_t transC, int64_t accumulate, int64_t threads) {
  useThreads(threads);
  Profile *profile = Profile::get();
  auto start = std::chrono::steady_clock::now();
  for (int64_t index = 0; index < c->sizes[0]; ++index)
    multiply(matrixOf(a, transA, index), matrixOf(b, transB, index),
             matrixOf(c, transC, index), accumulate != 0);
  if (profile) {
    static bool registered = (std::atexit(&Profile::print), true);
    (void)registered;
    Matrix<T> first = matrixOf(c, transC, 0);
    int64_t k = matrixOf(a, transA, 0).cols;
    std::lock_guard<std::mutex> lock(profile->mutex);
    auto &entry = profile->calls[{c->sizes[0], first.rows, first.cols, k}];
    entry.first += 1;
    entry.second += std::chrono::duration<double, std::milli>(
                        std::chrono::steady_clock::now() - start)
                        .count();
  }
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

bool raf::runtime::isBLASRuntimeAvailable() { return getOpenBLAS().ok(); }

bool raf::runtime::wasBLASRuntimeUsed() { return used; }

std::vector<std::pair<std::string, void *>>
raf::runtime::getBLASRuntimeSymbols() {
  return {{"_mlir_ciface_rafBlasGemmF32",
           reinterpret_cast<void *>(&_mlir_ciface_rafBlasGemmF32)},
          {"_mlir_ciface_rafBlasGemmF64",
           reinterpret_cast<void *>(&_mlir_ciface_rafBlasGemmF64)}};
}

std::string raf::runtime::getBLASDescription() {
  const OpenBLAS &blas = getOpenBLAS();
  if (!blas.ok())
    return blas.error;
  return std::string(blas.config()) + "; kernels " + blas.coreName() + "; " +
         blas.coreTypeSource;
}

#else // !RAF_HAVE_OPENBLAS

bool raf::runtime::isBLASRuntimeAvailable() { return false; }

bool raf::runtime::wasBLASRuntimeUsed() { return false; }

std::vector<std::pair<std::string, void *>>
raf::runtime::getBLASRuntimeSymbols() {
  return {};
}

std::string raf::runtime::getBLASDescription() { return ""; }

#endif // RAF_HAVE_OPENBLAS
