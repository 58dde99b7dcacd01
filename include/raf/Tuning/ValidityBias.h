//===- ValidityBias.h - Biased simulated annealing scores -------*- C++ -*-===//
//
// The score of biased simulated annealing (BSA; Rieber 2022, §5.2.3): the
// model's prediction, set to -1e6 for configurations known to be invalid
// and raised by 1 for configurations known to be valid (the predictions
// lie mostly in [-7, 7], so the bonus reorders neighbours without hiding
// better unknown ones). Unknown configurations keep the prediction.
//
//===----------------------------------------------------------------------===//

#ifndef RAF_TUNING_VALIDITYBIAS_H
#define RAF_TUNING_VALIDITYBIAS_H

#include "llvm/ADT/ArrayRef.h"

#include <cstdint>
#include <unordered_map>
#include <vector>

namespace raf {
namespace tuning {

/// What is known about configurations' validity: the presampled set N of
/// Alg. 4 with the oracle's answers.
using KnownValidity = std::unordered_map<uint64_t, bool>;

constexpr float kKnownInvalidScore = -1e6f;
constexpr float kKnownValidBonus = 1.0f;

/// Applies the bias to `scores` of `indices` in place.
void biasScores(llvm::ArrayRef<uint64_t> indices, std::vector<float> &scores,
                const KnownValidity &known);

} // namespace tuning
} // namespace raf

#endif // RAF_TUNING_VALIDITYBIAS_H
