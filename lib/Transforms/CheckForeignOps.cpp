//===- CheckForeignOps.cpp - name the conversion a foreign op needs -------===//
//
// The CPU pipeline lowers relay and tcg, and the upstream dialects they
// become. An op of another dialect (a frontend's, e.g. TOSA from
// tf/tflite or torch-mlir) otherwise travels through the pipeline untouched
// until bufferization, which says only "op was not bufferized"; this check
// says which conversion should have run first.
//
//===----------------------------------------------------------------------===//

#include "raf/Transforms/Passes.h"

#include "llvm/ADT/MapVector.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/ADT/StringSwitch.h"

namespace raf {
#define GEN_PASS_DEF_RAFCHECKFOREIGNOPS
#include "raf/Transforms/Passes.h.inc"
} // namespace raf

using namespace mlir;

/// The dialects --raf-cpu-pipeline takes as input: its own two, and the
/// upstream dialects its conversions produce and its later passes lower.
static constexpr llvm::StringLiteral kLoweredDialects[] = {
    "builtin", "relay",  "tcg",    "func",          "arith",
    "math",    "linalg", "tensor", "scf",           "cf",
    "memref",  "vector", "affine", "bufferization", "index",
    "ub",      "mpi",    "llvm"};

/// The conversion that makes a dialect input of the pipeline, for the
/// dialects we know one of.
static StringRef getKnownConversion(StringRef dialect) {
  return llvm::StringSwitch<StringRef>(dialect)
      .Case("tosa", "--convert-tosa-to-relay")
      .Case("vta", "--convert-vta-launch-to-runtime")
      .Case("shape", "--convert-shape-to-std")
      .Case("torch", "torch-mlir's "
                     "--torch-backend-to-linalg-on-tensors-backend-pipeline")
      .Case("stablehlo", "StableHLO's --stablehlo-legalize-to-linalg")
      .Default("");
}

namespace {
struct CheckForeignOps
    : public raf::impl::RAFCheckForeignOpsBase<CheckForeignOps> {
  using Base::Base;

  void runOnOperation() override {
    llvm::StringSet<> lowered;
    for (StringRef dialect : kLoweredDialects)
      lowered.insert(dialect);
    for (const std::string &dialect : allow)
      lowered.insert(dialect);

    // The first op of each foreign dialect, and how many it has.
    llvm::MapVector<StringRef, std::pair<Operation *, unsigned>> foreign;
    getOperation()->walk([&](Operation *op) {
      StringRef dialect = op->getName().getDialectNamespace();
      if (lowered.contains(dialect))
        return;
      auto [it, inserted] = foreign.insert({dialect, {op, 0}});
      ++it->second.second;
    });
    for (auto &[dialect, first] : foreign) {
      auto [op, count] = first;
      InFlightDiagnostic diagnostic = mlir::emitError(op->getLoc())
                                      << op->getName()
                                      << ": no conversion to relay/linalg in "
                                         "this pipeline";
      StringRef conversion = getKnownConversion(dialect);
      if (!conversion.empty())
        diagnostic << "; run " << conversion << " first";
      else
        diagnostic << "; convert the '" << dialect
                   << "' dialect to relay, tcg or linalg on tensors first";
      if (count > 1)
        diagnostic << " (" << count << " " << dialect << " ops)";
    }
    if (!foreign.empty())
      signalPassFailure();
  }
};
} // namespace
