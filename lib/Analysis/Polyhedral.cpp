//===- Polyhedral.cpp - Integer set helpers over isl ----------------------===//

#include "raf/Analysis/Polyhedral.h"

#include <isl/ctx.h>
#include <isl/options.h>
#include <isl/set.h>
#include <isl/val.h>

#include <dlfcn.h>

#include <climits>
#include <cstdlib>

using namespace raf::poly;
using llvm::ArrayRef;
using llvm::StringRef;

/// Builds an error from Context, followed by isl's message for the last error
/// in Ctx if there is one.
static llvm::Error makeError(isl_ctx *Ctx, const std::string &Context) {
  std::string Message = Context;
  if (Ctx && isl_ctx_last_error(Ctx) != isl_error_none) {
    if (const char *Text = isl_ctx_last_error_msg(Ctx))
      Message += std::string(": ") + Text;
  }
  return llvm::createStringError(llvm::inconvertibleErrorCode(), Message);
}

//===----------------------------------------------------------------------===//
// IslContext and IslSet
//===----------------------------------------------------------------------===//

IslContext::IslContext() : Ctx(isl_ctx_alloc()) {
  // isl's default is to print a warning and carry on; ISL_ON_ERROR_ABORT
  // would take the process down. Continuing silently lets every failing call
  // return null or an error code, and the message is read back from the
  // context when the error is reported.
  if (Ctx)
    isl_options_set_on_error(Ctx, ISL_ON_ERROR_CONTINUE);
}

IslContext::~IslContext() {
  if (Ctx)
    isl_ctx_free(Ctx);
}

IslSet::IslSet(const IslSet &Other)
    : Set(Other.Set ? isl_set_copy(Other.Set) : nullptr) {}

IslSet::~IslSet() {
  if (Set)
    isl_set_free(Set);
}

std::string IslSet::toString() const {
  if (!Set)
    return "";
  char *Text = isl_set_to_str(Set);
  if (!Text)
    return "";
  std::string Result(Text);
  free(Text);
  return Result;
}

//===----------------------------------------------------------------------===//
// Queries
//===----------------------------------------------------------------------===//

llvm::Expected<IslSet> raf::poly::parseSet(IslContext &Ctx, StringRef Text) {
  if (!Ctx.get())
    return makeError(nullptr, "isl context could not be allocated");
  // Errors are sticky in the context; clear them so that the message reported
  // below belongs to this call.
  isl_ctx_reset_error(Ctx.get());
  std::string Str = Text.str();
  isl_set *Set = isl_set_read_from_str(Ctx.get(), Str.c_str());
  if (!Set)
    return makeError(Ctx.get(), "cannot parse isl set '" + Str + "'");
  return IslSet(Set);
}

llvm::Expected<IslSet> raf::poly::fixParameters(const IslSet &Set,
                                                ArrayRef<ParamBinding> Params) {
  if (!Set)
    return makeError(nullptr, "cannot fix the parameters of a null set");
  isl_ctx *Ctx = isl_set_get_ctx(Set.get());
  isl_ctx_reset_error(Ctx);

  for (size_t I = 0, E = Params.size(); I != E; ++I)
    for (size_t J = 0; J != I; ++J)
      if (Params[I].first == Params[J].first)
        return makeError(nullptr, "parameter '" + Params[I].first.str() +
                                      "' is bound twice");

  IslSet Result = Set;
  for (const ParamBinding &Binding : Params) {
    std::string Name = Binding.first.str();
    int Pos =
        isl_set_find_dim_by_name(Result.get(), isl_dim_param, Name.c_str());
    if (Pos < 0)
      return makeError(nullptr, "set has no parameter '" + Name + "'");
    // isl_set_fix_si takes an int; going through isl_val keeps all 64 bits.
    isl_val *Value = isl_val_int_from_si(Ctx, Binding.second);
    Result =
        IslSet(isl_set_fix_val(Result.release(), isl_dim_param, Pos, Value));
    if (!Result)
      return makeError(Ctx, "cannot fix parameter '" + Name + "'");
  }

  isl_size NumParams = isl_set_dim(Result.get(), isl_dim_param);
  if (NumParams < 0)
    return makeError(Ctx, "cannot query the parameters of a set");
  for (isl_size I = 0; I != NumParams; ++I) {
    const char *Name = isl_set_get_dim_name(Result.get(), isl_dim_param, I);
    StringRef NameRef = Name ? Name : "";
    if (llvm::none_of(Params, [&](const ParamBinding &Binding) {
          return Binding.first == NameRef;
        }))
      return makeError(nullptr,
                       "parameter '" + NameRef.str() + "' has no value");
  }

  // Once fixed, the parameters carry no information; dropping them gives a
  // plain set that the counting and boundedness queries treat exactly.
  Result = IslSet(
      isl_set_project_out(Result.release(), isl_dim_param, 0, NumParams));
  if (!Result)
    return makeError(Ctx, "cannot project out the parameters of a set");
  return std::move(Result);
}

llvm::Expected<uint64_t> raf::poly::countPoints(const IslSet &Set) {
  if (!Set)
    return makeError(nullptr, "cannot count the points of a null set");
  isl_ctx *Ctx = isl_set_get_ctx(Set.get());
  isl_ctx_reset_error(Ctx);

  isl_size NumParams = isl_set_dim(Set.get(), isl_dim_param);
  if (NumParams < 0)
    return makeError(Ctx, "cannot query the parameters of a set");
  if (NumParams > 0) {
    const char *Name = isl_set_get_dim_name(Set.get(), isl_dim_param, 0);
    return makeError(nullptr, "set has unbound parameter '" +
                                  std::string(Name ? Name : "") +
                                  "'; fix its parameters first");
  }

  // isl_set_count_val returns 0 for an unbounded set rather than failing,
  // so boundedness has to be established first.
  isl_bool Bounded = isl_set_is_bounded(Set.get());
  if (Bounded == isl_bool_error)
    return makeError(Ctx, "cannot decide whether the set is bounded");
  if (Bounded == isl_bool_false)
    return makeError(nullptr, "set is unbounded: " + Set.toString());

  isl_val *Count = isl_set_count_val(Set.get());
  if (!Count)
    return makeError(Ctx, "cannot count the points of " + Set.toString());
  llvm::Expected<uint64_t> Result = uint64_t(0);
  if (isl_val_is_int(Count) != isl_bool_true)
    Result = makeError(Ctx, "point count is not an integer");
  else if (isl_val_cmp_si(Count, LONG_MAX) > 0)
    Result = makeError(nullptr, "set has more than 2^63 - 1 points");
  else
    Result = static_cast<uint64_t>(isl_val_get_num_si(Count));
  isl_val_free(Count);
  return Result;
}

llvm::Expected<uint64_t> raf::poly::countPoints(IslContext &Ctx, StringRef Text,
                                                ArrayRef<ParamBinding> Params) {
  llvm::Expected<IslSet> Set = parseSet(Ctx, Text);
  if (!Set)
    return Set.takeError();
  llvm::Expected<IslSet> Fixed = fixParameters(*Set, Params);
  if (!Fixed)
    return Fixed.takeError();
  return countPoints(*Fixed);
}

llvm::Expected<uint64_t> raf::poly::countPoints(StringRef Text,
                                                ArrayRef<ParamBinding> Params) {
  IslContext Ctx;
  return countPoints(Ctx, Text, Params);
}

std::string raf::poly::islLibraryPath() {
  // This translation unit is compiled as position-independent code, so the
  // address of isl_ctx_alloc is loaded from the GOT: it is the definition the
  // dynamic linker bound this library's isl calls to, not a local PLT stub.
  void *Address = reinterpret_cast<void *>(&isl_ctx_alloc);
  Dl_info Info;
  if (!dladdr(Address, &Info) || !Info.dli_fname)
    return "";
  return Info.dli_fname;
}
