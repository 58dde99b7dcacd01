//===- PassOptions.h - Checking and reporting pass options ------*- C++ -*-===//
//
// Conventions for the options of RAF-MLIR's passes (docs/ecosystem.md,
// "Pass options"):
//
// - An enumerated option (a string option with a fixed set of values, or an
//   enum option) is checked when the pass is created from text
//   (`--pass-pipeline`, `--raf-x=...`, mlir-opt's plugin passes), and a bad
//   value names the accepted ones. Passes do this in
//   Pass::initializeOptions:
//
//     LogicalResult initializeOptions(
//         StringRef options,
//         function_ref<LogicalResult(const Twine &)> errorHandler) override {
//       if (failed(raf::checkEnumeratedOptions(
//               getArgument(), options, {{"method", {"raf", "optimal"}}},
//               errorHandler)))
//         return failure();
//       return Base::initializeOptions(options, errorHandler);
//     }
//
//   The error then names the pass and its options before any IR is read.
// - An option error found while the pass runs (a pass created in C++ with an
//   options struct, or a value that depends on the IR) is reported with
//   mlir::emitError(op->getLoc()), not op->emitError(): located at the
//   operation, without printing the operation (for a module pass: the whole
//   module) as a note.
//
//===----------------------------------------------------------------------===//

#ifndef RAF_SUPPORT_PASSOPTIONS_H
#define RAF_SUPPORT_PASSOPTIONS_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/ADT/Twine.h"
#include "llvm/Support/LogicalResult.h"

#include <string>
#include <utility>

namespace raf {

/// An enumerated pass option: its name (as written in the pipeline), the
/// values it accepts and whether the empty value (an option whose default
/// is "", as --dump-pass-pipeline prints it) is accepted too.
struct EnumeratedOption {
  llvm::StringRef name;
  llvm::SmallVector<llvm::StringRef, 4> values;
  bool allowEmpty = false;
};

/// The values of an enum option (its `llvm::cl::values`, e.g. a TableGen
/// pass option of enum type or a pipeline's `Option<Enum>`), in declaration
/// order, so that checkEnumeratedOptions takes them from the option itself:
///
///   {{"method", raf::getEnumOptionValues(method)}}
template <typename OptionT>
llvm::SmallVector<llvm::StringRef, 4> getEnumOptionValues(OptionT &option) {
  auto &parser = option.getParser();
  llvm::SmallVector<llvm::StringRef, 4> values;
  for (unsigned i = 0, e = parser.getNumOptions(); i < e; ++i)
    values.push_back(parser.getOption(i));
  return values;
}

/// The `key=value` pairs of a pass option string, as Pass::initializeOptions
/// receives it (`a=1 b={x,y} c="q r"`; a key without `=` has an empty value).
/// Braces and quotes group a value; the text is not otherwise validated
/// (the pass's own option parser does that).
llvm::SmallVector<std::pair<llvm::StringRef, llvm::StringRef>>
splitPassOptions(llvm::StringRef options);

/// Checks that every option of `enumerated` given in `options` has one of
/// its values. Otherwise calls `errorHandler` with "option '<name>' of
/// <pass>: unknown value '<value>'; expected one of a, b, c" and returns
/// failure.
llvm::LogicalResult checkEnumeratedOptions(
    llvm::StringRef pass, llvm::StringRef options,
    llvm::ArrayRef<EnumeratedOption> enumerated,
    llvm::function_ref<llvm::LogicalResult(const llvm::Twine &)> errorHandler);

/// "a, b, c" for the accepted values of an enumerated option, for
/// diagnostics.
std::string joinAcceptedValues(llvm::ArrayRef<llvm::StringRef> values);

} // namespace raf

#endif // RAF_SUPPORT_PASSOPTIONS_H
