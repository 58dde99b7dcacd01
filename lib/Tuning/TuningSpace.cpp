//===- TuningSpace.cpp - The search space an auto-tuner sees --------------===//

#include "raf/Tuning/TuningSpace.h"

#include <cassert>
#include <cmath>
#include <cstdlib>
#include <limits>

using namespace raf::tuning;

TuningSpace::~TuningSpace() = default;

uint64_t TuningSpace::size() const {
  uint64_t n = 1;
  for (const Knob &knob : getKnobs())
    n *= knob.values.size();
  return n;
}

uint64_t TuningSpace::toIndex(const Point &point) const {
  llvm::ArrayRef<Knob> knobs = getKnobs();
  assert(point.size() == knobs.size() && "one index per knob");
  uint64_t index = 0;
  for (auto [k, knob] : llvm::enumerate(knobs))
    index = index * knob.values.size() + point[k];
  return index;
}

Point TuningSpace::toPoint(uint64_t index) const {
  llvm::ArrayRef<Knob> knobs = getKnobs();
  Point point(knobs.size());
  for (int k = int(knobs.size()) - 1; k >= 0; --k) {
    point[k] = index % knobs[k].values.size();
    index /= knobs[k].values.size();
  }
  return point;
}

void TuningSpace::appendFeatures(uint64_t index,
                                 std::vector<float> &features) const {
  Point point = toPoint(index);
  for (auto [k, knob] : llvm::enumerate(getKnobs())) {
    int64_t value = knob.values[point[k]];
    // AutoTVM's split entity leaves the outer factor as -1, so the first
    // feature of a split is the constant -1. (An outer factor extent/value
    // would carry the same information, but a tree splitting on it places
    // its thresholds differently between the values it has seen.)
    if (knob.splitExtent > 0)
      features.push_back(-1.0f);
    features.push_back(float(value));
  }
}

unsigned TuningSpace::getNumFeatures() const {
  unsigned n = 0;
  for (const Knob &knob : getKnobs())
    n += knob.splitExtent > 0 ? 2 : 1;
  return n;
}

std::vector<uint64_t> TuningSpace::getNeighbours(uint64_t index) const {
  Point point = toPoint(index);
  std::vector<uint64_t> result;
  for (auto [k, knob] : llvm::enumerate(getKnobs())) {
    unsigned at = point[k];
    if (at > 0) {
      point[k] = at - 1;
      result.push_back(toIndex(point));
    }
    if (at + 1 < knob.values.size()) {
      point[k] = at + 1;
      result.push_back(toIndex(point));
    }
    point[k] = at;
  }
  return result;
}

unsigned TuningSpace::distance(uint64_t a, uint64_t b) const {
  Point pa = toPoint(a), pb = toPoint(b);
  unsigned d = 0;
  for (size_t k = 0; k < pa.size(); ++k)
    d += unsigned(std::abs(int(pa[k]) - int(pb[k])));
  return d;
}

TabulatedSpace::TabulatedSpace(std::vector<Knob> knobs,
                               std::vector<double> costs,
                               std::vector<uint8_t> checkValid)
    : knobs(std::move(knobs)), costs(std::move(costs)),
      checkValid(std::move(checkValid)) {
  assert(this->costs.size() == size() && "one cost per configuration");
  assert((this->checkValid.empty() || this->checkValid.size() == size()) &&
         "one check result per configuration");
}

bool TabulatedSpace::isValid(uint64_t index) const {
  return std::isfinite(costs[index]);
}

Validity TabulatedSpace::checkValidity(const Point &point) {
  Validity v;
  uint64_t index = toIndex(point);
  v.valid = checkValid.empty() ? isValid(index) : checkValid[index] != 0;
  if (!v.valid)
    v.problem = "invalid in the table";
  return v;
}

std::optional<double> TabulatedSpace::measure(const Point &point) {
  uint64_t index = toIndex(point);
  if (!isValid(index))
    return std::nullopt;
  return costs[index];
}
