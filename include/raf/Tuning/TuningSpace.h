//===- TuningSpace.h - The search space an auto-tuner sees ------*- C++ -*-===//
//
// The narrow interface between the tuners and a schedule model: knobs with
// candidate values, a validity query (a static check, cheap compared with
// a measurement) and a ground-truth cost query (a measurement; here the
// cycle model). Configurations are points of the Cartesian grid of knob
// indices with a unique mixed-radix identifier, as in AutoTVM's
// ConfigSpace (Rieber 2022, §2.3.2.3); two configurations are neighbours
// when their Manhattan distance (Eq. 5.1) is 1.
//
//===----------------------------------------------------------------------===//

#ifndef RAF_TUNING_TUNINGSPACE_H
#define RAF_TUNING_TUNINGSPACE_H

#include "llvm/ADT/ArrayRef.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace raf {
namespace tuning {

/// One knob: a name and the values it can take, in index order.
struct Knob {
  std::string name;
  std::vector<int64_t> values;
  /// For a split knob (a tile size dividing `splitExtent`), the knob
  /// features are [-1, value], AutoTVM's SplitEntity.size: the entities of
  /// a `define_split` space are [-1, factor] (SplitSpace._generate_space in
  /// apache/tvm python/tvm/autotvm/task/space.py), and
  /// ConfigEntity.get_flatten_feature copies them. 0 for other knobs (one
  /// feature, the value).
  int64_t splitExtent = 0;
};

/// A configuration: one index per knob.
using Point = std::vector<unsigned>;

/// The result of the validity query.
struct Validity {
  bool valid = false;
  /// The violated rule of an invalid configuration.
  std::string problem;
};

class TuningSpace {
public:
  virtual ~TuningSpace();

  virtual llvm::ArrayRef<Knob> getKnobs() const = 0;
  /// The static validity check.
  virtual Validity checkValidity(const Point &point) = 0;
  /// The ground-truth cost (lower is better; cycles for VTA), or nothing
  /// when the configuration turns out invalid.
  virtual std::optional<double> measure(const Point &point) = 0;

  /// Number of configurations (the product of the knob sizes).
  uint64_t size() const;
  /// Mixed-radix identifier of `point`, the first knob varying slowest.
  uint64_t toIndex(const Point &point) const;
  Point toPoint(uint64_t index) const;
  /// Knob features of AutoTVM's `feature_type="knob"`: the flattened knob
  /// values (split knobs as [-1, inner], see Knob::splitExtent).
  void appendFeatures(uint64_t index, std::vector<float> &features) const;
  unsigned getNumFeatures() const;
  /// Configurations at Manhattan distance 1 of `index`.
  std::vector<uint64_t> getNeighbours(uint64_t index) const;
  /// Eq. 5.1 on knob indices.
  unsigned distance(uint64_t a, uint64_t b) const;
  /// A uniformly random configuration different from `index` in exactly
  /// one knob (AutoTVM's random_walk); `index` itself for a space of one
  /// point.
  template <typename Rng> uint64_t randomWalk(uint64_t index, Rng &rng) const;
};

template <typename Rng>
uint64_t TuningSpace::randomWalk(uint64_t index, Rng &rng) const {
  llvm::ArrayRef<Knob> knobs = getKnobs();
  bool movable = false;
  for (const Knob &knob : knobs)
    movable |= knob.values.size() > 1;
  if (!movable)
    return index;
  Point point = toPoint(index);
  while (true) {
    unsigned k = rng() % knobs.size();
    unsigned value = rng() % knobs[k].values.size();
    if (value != point[k]) {
      point[k] = value;
      return toIndex(point);
    }
  }
}

/// A space whose validity and costs are given by a table: the ground truth
/// of another space (GroundTruth.h) or a hand-made test space.
class TabulatedSpace : public TuningSpace {
public:
  /// `costs` by index, +inf for invalid configurations. `checkValid`, when
  /// given, is the static check's answer (a configuration can pass it and
  /// still fail to build); otherwise the valid ones are those with a cost.
  TabulatedSpace(std::vector<Knob> knobs, std::vector<double> costs,
                 std::vector<uint8_t> checkValid = {});
  llvm::ArrayRef<Knob> getKnobs() const override { return knobs; }
  Validity checkValidity(const Point &point) override;
  std::optional<double> measure(const Point &point) override;
  /// The cost of every configuration by index; invalid ones are +inf.
  llvm::ArrayRef<double> getCosts() const { return costs; }
  bool isValid(uint64_t index) const;

private:
  std::vector<Knob> knobs;
  std::vector<double> costs;
  std::vector<uint8_t> checkValid;
};

} // namespace tuning
} // namespace raf

#endif // RAF_TUNING_TUNINGSPACE_H
