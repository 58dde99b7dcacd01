//===- Polyhedral.h - Integer set helpers over isl --------------*- C++ -*-===//
//
// Owning wrappers over the isl C API and the few polyhedral queries the
// compiler needs, chiefly counting the points of an iteration domain.
//
// isl's own C++ bindings (isl/cpp.h) throw or abort on errors; these helpers
// use the C API with ISL_ON_ERROR_CONTINUE instead, so every isl error comes
// back as an llvm::Error carrying isl's message.
//
// Linking: libLLVM.so exports a private copy of isl (Polly's) under the same
// symbol names. libisl.so must come before libLLVM.so on the link line of a
// binary using these helpers, or its isl calls bind to the copy inside LLVM.
// islLibraryPath() reports which one was bound.
//
//===----------------------------------------------------------------------===//

#ifndef RAF_ANALYSIS_POLYHEDRAL_H
#define RAF_ANALYSIS_POLYHEDRAL_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <cstdint>
#include <string>
#include <utility>

struct isl_ctx;
struct isl_set;

namespace raf {
namespace poly {

/// An isl context that reports errors by return value. Every object created
/// in a context must be destroyed before the context is.
class IslContext {
public:
  IslContext();
  ~IslContext();
  IslContext(const IslContext &) = delete;
  IslContext &operator=(const IslContext &) = delete;

  isl_ctx *get() const { return Ctx; }

private:
  isl_ctx *Ctx;
};

/// An owned isl_set. Copies share the underlying set through isl's reference
/// counting.
class IslSet {
public:
  IslSet() = default;
  /// Takes ownership of Set, which may be null.
  explicit IslSet(isl_set *Set) : Set(Set) {}
  IslSet(const IslSet &Other);
  IslSet(IslSet &&Other) noexcept : Set(Other.release()) {}
  IslSet &operator=(IslSet Other) noexcept {
    std::swap(Set, Other.Set);
    return *this;
  }
  ~IslSet();

  isl_set *get() const { return Set; }
  /// Gives up ownership of the set.
  isl_set *release() { return std::exchange(Set, nullptr); }
  explicit operator bool() const { return Set != nullptr; }

  /// Returns the set in isl notation, or an empty string for a null set.
  std::string toString() const;

private:
  isl_set *Set = nullptr;
};

/// A value for the named parameter of a set.
using ParamBinding = std::pair<llvm::StringRef, int64_t>;

/// Parses a set written in isl notation, such as
/// "[N] -> { [i, j] : 0 <= i < N and 0 <= j <= i }".
llvm::Expected<IslSet> parseSet(IslContext &Ctx, llvm::StringRef Text);

/// Fixes every parameter of Set to its value in Params and projects the
/// parameters out, giving a set without parameters. Fails if a parameter has
/// no value, if Params names a parameter the set does not have, or if a
/// parameter is bound twice.
llvm::Expected<IslSet> fixParameters(const IslSet &Set,
                                     llvm::ArrayRef<ParamBinding> Params);

/// Counts the integer points of a set without parameters. Fails if the set
/// has parameters, is unbounded, or has more than INT64_MAX points.
llvm::Expected<uint64_t> countPoints(const IslSet &Set);

/// Parses Text in Ctx, fixes its parameters to Params and counts its points.
llvm::Expected<uint64_t> countPoints(IslContext &Ctx, llvm::StringRef Text,
                                     llvm::ArrayRef<ParamBinding> Params);

/// As above, in a context of its own.
llvm::Expected<uint64_t> countPoints(llvm::StringRef Text,
                                     llvm::ArrayRef<ParamBinding> Params);

/// Returns the path of the shared object that provides isl_ctx_alloc to this
/// library (as resolved by the dynamic linker), or an empty string if it
/// cannot be determined. It names libisl.so when linking is right and
/// libLLVM.so when Polly's isl shadows it.
std::string islLibraryPath();

} // namespace poly
} // namespace raf

#endif // RAF_ANALYSIS_POLYHEDRAL_H
