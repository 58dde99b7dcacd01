//===- GroundTruth.h - Exhaustive costs of a tuning space -------*- C++ -*-===//
//
// The ground truth of the tuning experiments (Rieber 2022, §5.1): the
// validity check and the cost of every configuration, computed once per
// space and kept in a file, so that tuning runs query the table instead of
// measuring again.
//
//===----------------------------------------------------------------------===//

#ifndef RAF_TUNING_GROUNDTRUTH_H
#define RAF_TUNING_GROUNDTRUTH_H

#include "raf/Tuning/TuningSpace.h"

#include "llvm/Support/Error.h"

#include <functional>

namespace raf {
namespace tuning {

struct GroundTruth {
  /// The static check's answer and the measured cost (+inf if the
  /// configuration is invalid or its measurement failed), by index.
  std::vector<uint8_t> checkValid;
  std::vector<double> costs;
  /// Seconds spent in validity queries and measurements, and how many.
  double checkSeconds = 0, measureSeconds = 0;
  uint64_t checks = 0, measurements = 0;

  uint64_t numValid() const;
  /// The lowest cost (+inf if nothing is valid).
  double optimum() const;
};

/// Queries every configuration of `space`; `progress(done, total, valid)`
/// is called every `progressEvery` configurations and at the end.
GroundTruth
computeGroundTruth(TuningSpace &space,
                   const std::function<void(uint64_t, uint64_t, uint64_t)>
                       &progress = nullptr,
                   uint64_t progressEvery = 256);

/// Writes `truth` to `path` under `key` (a description of the space and
/// the cost model, checked when reading).
llvm::Error saveGroundTruth(llvm::StringRef path, llvm::StringRef key,
                            const GroundTruth &truth);
/// Reads a table written for the same key and number of configurations;
/// nothing if the file is missing or was written for another space.
llvm::Expected<std::optional<GroundTruth>>
loadGroundTruth(llvm::StringRef path, llvm::StringRef key, uint64_t size);

} // namespace tuning
} // namespace raf

#endif // RAF_TUNING_GROUNDTRUTH_H
