//===- ValidityBias.cpp - Biased simulated annealing scores ---------------===//

#include "raf/Tuning/ValidityBias.h"

#include <cassert>

using namespace raf::tuning;

void raf::tuning::biasScores(llvm::ArrayRef<uint64_t> indices,
                             std::vector<float> &scores,
                             const KnownValidity &known) {
  assert(indices.size() == scores.size() && "one score per configuration");
  for (size_t i = 0; i < indices.size(); ++i) {
    auto it = known.find(indices[i]);
    if (it == known.end())
      continue;
    if (it->second)
      scores[i] += kKnownValidBonus;
    else
      scores[i] = kKnownInvalidScore;
  }
}
