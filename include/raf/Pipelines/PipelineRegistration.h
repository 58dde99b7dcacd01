//===- PipelineRegistration.h - Registering pass pipelines ------*- C++ -*-===//
//
// Registration of RAF-MLIR's pass pipelines with the conventions of its
// passes' options (docs/ecosystem.md, "Pass options"): an enumerated option
// given a value it does not accept is an error that names the pipeline, the
// option and the accepted values, before any IR is read. LLVM's parser of an
// enum option says only "Cannot find option named 'x'!".
//
//===----------------------------------------------------------------------===//

#ifndef RAF_PIPELINES_PIPELINEREGISTRATION_H
#define RAF_PIPELINES_PIPELINEREGISTRATION_H

#include "raf/Support/PassOptions.h"

#include "mlir/Pass/PassRegistry.h"

#include <functional>
#include <string>

namespace raf {

/// Registers the pass pipeline `argument` as
/// mlir::PassPipelineRegistration<Options> does, with the same options,
/// help and --dump-pass-pipeline text, but checks the options first with
/// raf::checkEnumeratedOptions against the list `enumerated` returns for a
/// default-constructed Options, e.g.
///
///   [](CPUPipelineOptions &o) -> SmallVector<EnumeratedOption> {
///     return {{"blas", getEnumOptionValues(o.blas)}};
///   }
template <typename Options>
void registerPassPipelineWithEnumeratedOptions(
    llvm::StringRef argument, llvm::StringRef description,
    std::function<void(mlir::OpPassManager &, const Options &)> builder,
    std::function<llvm::SmallVector<EnumeratedOption>(Options &)>
        enumerated) {
  mlir::registerPassPipeline(
      argument, description,
      [name = argument.str(), builder, enumerated](
          mlir::OpPassManager &pm, llvm::StringRef text,
          llvm::function_ref<llvm::LogicalResult(const llvm::Twine &)>
              errorHandler) -> llvm::LogicalResult {
        Options options;
        if (failed(checkEnumeratedOptions(name, text, enumerated(options),
                                          errorHandler)) ||
            failed(options.parseFromString(text)))
          return llvm::failure();
        builder(pm, options);
        return llvm::success();
      },
      [](llvm::function_ref<void(const mlir::detail::PassOptions &)>
             optionHandler) { optionHandler(Options()); });
}

} // namespace raf

#endif // RAF_PIPELINES_PIPELINEREGISTRATION_H
