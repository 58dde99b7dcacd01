//===- Schedule.cpp - the VTA schedule model and its validity check -------===//

#include "raf/Target/VTA/Schedule.h"

#include "ScheduleGeometry.h"

#include "llvm/ADT/Twine.h"

#include <algorithm>
#include <functional>
#include <numeric>

using namespace raf;
using namespace raf::vta;
using namespace raf::vta::detail;
using llvm::ArrayRef;
using llvm::SmallVector;

//===----------------------------------------------------------------------===//
// Geometry
//===----------------------------------------------------------------------===//

Box detail::getBox(ArrayRef<DimAccess> dims, ArrayRef<int64_t> origin,
                   ArrayRef<int64_t> tile) {
  Box box;
  for (const DimAccess &dim : dims) {
    int64_t lo = dim.base, len = 1;
    for (auto [i, c] : llvm::enumerate(dim.coefficients)) {
      lo += c * origin[i] + std::min<int64_t>(0, c * (tile[i] - 1));
      len += std::abs(c) * (tile[i] - 1);
    }
    box.lo.push_back(lo);
    box.len.push_back(len);
    box.rows *= len;
  }
  return box;
}

static TileAccess getTileAccess(ArrayRef<DimAccess> dims,
                                ArrayRef<int64_t> tile, const Box &box) {
  TileAccess access;
  access.coefficients.assign(tile.size(), 0);
  int64_t stride = 1;
  for (int d = int(dims.size()) - 1; d >= 0; --d) {
    for (auto [i, c] : llvm::enumerate(dims[d].coefficients)) {
      access.coefficients[i] += stride * c;
      access.offset -= stride * std::min<int64_t>(0, c * (tile[i] - 1));
    }
    stride *= box.len[d];
  }
  return access;
}

int64_t DmaPlan::count() const {
  int64_t n = 1;
  for (auto [len, stride] : outer)
    n *= len;
  return n;
}

static DmaPlan planDma(ArrayRef<DimAccess> dims, ArrayRef<int64_t> len) {
  // Dimensions the box spans, innermost first, with the contiguous ones
  // merged.
  SmallVector<std::pair<int64_t, int64_t>> spans;
  int64_t stride = 1;
  for (int d = int(dims.size()) - 1; d >= 0; --d) {
    if (len[d] > 1) {
      if (!spans.empty() && spans.back().first * spans.back().second == stride)
        spans.back().first *= len[d];
      else
        spans.push_back({len[d], stride});
    }
    stride *= dims[d].size;
  }
  std::reverse(spans.begin(), spans.end());
  DmaPlan plan;
  if (!spans.empty() && spans.back().second == 1) {
    plan.xSize = spans.back().first;
    spans.pop_back();
  }
  plan.xStride = plan.xSize;
  if (!spans.empty() && spans.back().first < kMemFieldLimit &&
      spans.back().second < kMemFieldLimit) {
    plan.ySize = spans.back().first;
    plan.xStride = spans.back().second;
    spans.pop_back();
  }
  plan.outer.assign(spans.begin(), spans.end());
  return plan;
}

bool detail::isPadded(ArrayRef<DimAccess> dims) {
  return llvm::any_of(dims, [](const DimAccess &dim) {
    return dim.padLow != 0 || dim.padHigh != 0;
  });
}

/// The plan of an operand padded on the fly: x the innermost dimension, y
/// the next, one transfer per index of the others.
static DmaPlan planPaddedDma(ArrayRef<DimAccess> dims, ArrayRef<int64_t> len) {
  DmaPlan plan;
  plan.padded = true;
  unsigned rank = dims.size();
  plan.xSize = len[rank - 1];
  plan.xStride = dims[rank - 1].size;
  plan.ySize = rank > 1 ? len[rank - 2] : 1;
  int64_t stride = dims[rank - 1].size * (rank > 1 ? dims[rank - 2].size : 1);
  for (int d = int(rank) - 3; d >= 0; --d) {
    plan.outer.insert(plan.outer.begin(), {len[d], stride});
    stride *= dims[d].size;
  }
  return plan;
}

void detail::forEachTransfer(const DmaPlan &plan, int64_t dramFirst,
                             llvm::function_ref<void(int64_t, int64_t)> emit) {
  SmallVector<int64_t> at(plan.outer.size(), 0);
  int64_t runRows = plan.ySize * plan.xSize;
  for (int64_t n = 0, e = plan.count(); n < e; ++n) {
    int64_t dram = dramFirst;
    for (auto [k, dim] : llvm::enumerate(plan.outer))
      dram += at[k] * dim.second;
    emit(n * runRows, dram);
    for (int k = int(at.size()) - 1; k >= 0; --k) {
      if (++at[k] < plan.outer[k].first)
        break;
      at[k] = 0;
    }
  }
}

int64_t detail::dramFirstRow(ArrayRef<DimAccess> dims, const Box &box) {
  int64_t row = 0, stride = 1;
  for (int d = int(dims.size()) - 1; d >= 0; --d) {
    row += box.lo[d] * stride;
    stride *= dims[d].size;
  }
  return row;
}

bool detail::dependsOn(ArrayRef<DimAccess> dims, unsigned iterator) {
  return llvm::any_of(dims, [&](const DimAccess &dim) {
    return dim.coefficients[iterator] != 0;
  });
}

TileShape::TileShape(const GemmKernelModel &kernel, ArrayRef<int64_t> tiles,
                     bool hoistWeight)
    : kernel(kernel), tiles(tiles.begin(), tiles.end()),
      hoistWeight(hoistWeight) {
  SmallVector<int64_t> zeros(tiles.size(), 0);
  // The weight box: the tile's, or hoisted, the whole reduction range.
  SmallVector<int64_t> weightTiles(tiles.begin(), tiles.end());
  if (hoistWeight)
    for (unsigned i = kernel.numParallel; i < tiles.size(); ++i)
      weightTiles[i] = kernel.extents[i];
  inputBox = getBox(kernel.input, zeros, tiles);
  weightBox = getBox(kernel.weight, zeros, weightTiles);
  outputBox = getBox(kernel.output, zeros, tiles);
  src = getTileAccess(kernel.input, tiles, inputBox);
  wgt = getTileAccess(kernel.weight, weightTiles, weightBox);
  dst = getTileAccess(kernel.output, tiles, outputBox);
  inputDma = isPadded(kernel.input) ? planPaddedDma(kernel.input, inputBox.len)
                                    : planDma(kernel.input, inputBox.len);
  weightDma = isPadded(kernel.weight)
                  ? planPaddedDma(kernel.weight, weightBox.len)
                  : planDma(kernel.weight, weightBox.len);
  outputDma = planDma(kernel.output, outputBox.len);
  accRows = outputBox.rows;
  if (kernel.hasBias()) {
    biasBox = getBox(kernel.bias, zeros, tiles);
    biasAccess = getTileAccess(kernel.bias, tiles, biasBox);
    biasDma = planDma(kernel.bias, biasBox.len);
    // The ADD's loops: the longest parallel iterators whose factors fit;
    // the micro-ops enumerate the other parallel ones.
    SmallVector<unsigned> order;
    for (unsigned i = 0; i < kernel.numParallel; ++i)
      order.push_back(i);
    llvm::stable_sort(
        order, [&](unsigned a, unsigned b) { return tiles[a] > tiles[b]; });
    int64_t depth = std::min(int64_t(kernel.config.buffDepth(Buffer::Acc)),
                             int64_t(kernel.config.buffDepth(Buffer::Inp)));
    for (unsigned i : order) {
      bool fits = tiles[i] > 1 && tiles[i] < kLoopLimit &&
                  dst.coefficients[i] >= 0 && dst.coefficients[i] < depth &&
                  biasAccess.coefficients[i] >= 0 &&
                  biasAccess.coefficients[i] < depth;
      if (fits && biasLoops.size() < 2)
        biasLoops.push_back(i);
      else if (tiles[i] > 1)
        biasEnumerated.push_back(i);
    }
    llvm::sort(biasEnumerated);
  }
}

int64_t TileShape::biasUops() const {
  int64_t count = 1;
  for (unsigned i : biasEnumerated)
    count *= tiles[i];
  return count;
}

int64_t TileShape::weightOffset(ArrayRef<int64_t> origin) const {
  if (!hoistWeight)
    return 0;
  int64_t offset = 0;
  for (unsigned i = kernel.numParallel; i < tiles.size(); ++i)
    offset += wgt.coefficients[i] * origin[i];
  return offset;
}

int64_t TileShape::gemmSteps() const {
  int64_t product = 1;
  for (int64_t t : tiles)
    product *= t;
  return product;
}

/// Whether iterator `i` can be a GEMM loop: loop factors are unsigned and
/// as wide as the buffer they index.
bool TileShape::canLoop(unsigned i) const {
  const Config &config = kernel.config;
  return tiles[i] > 1 && tiles[i] < kLoopLimit && src.coefficients[i] >= 0 &&
         wgt.coefficients[i] >= 0 && dst.coefficients[i] >= 0 &&
         src.coefficients[i] < int64_t(config.buffDepth(Buffer::Inp)) &&
         wgt.coefficients[i] < int64_t(config.buffDepth(Buffer::Wgt)) &&
         dst.coefficients[i] < int64_t(config.buffDepth(Buffer::Acc));
}

SmallVector<unsigned> TileShape::pickLoops(bool reductionsOnly) const {
  SmallVector<unsigned> order(tiles.size());
  std::iota(order.begin(), order.end(), 0);
  llvm::stable_sort(
      order, [&](unsigned a, unsigned b) { return tiles[a] > tiles[b]; });
  SmallVector<unsigned> picked;
  for (unsigned i : order)
    if (picked.size() < 2 && canLoop(i) &&
        (!reductionsOnly || i >= kernel.numParallel))
      picked.push_back(i);
  return picked;
}

/// The iterators the micro-ops enumerate, slowest first: reductions, then
/// parallel iterators, so that consecutive micro-ops write other
/// accumulator rows.
SmallVector<unsigned> TileShape::enumerate(ArrayRef<unsigned> loops) const {
  SmallVector<unsigned> rest;
  for (bool reductions : {true, false})
    for (unsigned i = 0; i < tiles.size(); ++i)
      if (!llvm::is_contained(loops, i) &&
          (i >= kernel.numParallel) == reductions)
        rest.push_back(i);
  return rest;
}

int64_t TileShape::countUops(ArrayRef<unsigned> loops) const {
  int64_t count = 1;
  for (unsigned i : enumerate(loops))
    count *= tiles[i];
  return count;
}

/// Whether one GEMM writes every accumulator row at least `distance`
/// micro-op steps after its previous write.
bool TileShape::keepsDistance(ArrayRef<unsigned> loops,
                              unsigned distance) const {
  SmallVector<unsigned> rest = enumerate(loops);
  SmallVector<int64_t> rows;
  SmallVector<int64_t> at(rest.size(), 0);
  for (int64_t u = 0, e = countUops(loops); u < e; ++u) {
    int64_t row = 0;
    for (auto [k, i] : llvm::enumerate(rest))
      row += dst.coefficients[i] * at[k];
    rows.push_back(row);
    for (int k = int(rest.size()) - 1; k >= 0; --k) {
      if (++at[k] < tiles[rest[k]])
        break;
      at[k] = 0;
    }
  }
  int64_t outer = loops.size() > 0 ? tiles[loops[0]] : 1;
  int64_t inner = loops.size() > 1 ? tiles[loops[1]] : 1;
  int64_t outerFactor = loops.size() > 0 ? dst.coefficients[loops[0]] : 0;
  int64_t innerFactor = loops.size() > 1 ? dst.coefficients[loops[1]] : 0;
  std::vector<uint64_t> last(accRows, 0);
  uint64_t step = 1;
  for (int64_t o = 0; o < outer; ++o)
    for (int64_t i = 0; i < inner; ++i)
      for (int64_t base : rows) {
        uint64_t &previous = last[base + o * outerFactor + i * innerFactor];
        if (previous != 0 && step - previous < distance)
          return false;
        previous = step++;
      }
  return true;
}

bool TileShape::chooseLoops(unsigned distance) {
  // The fewest micro-ops, unless the accumulator distance asks for loops
  // over reductions only.
  loops = pickLoops(false);
  if (distance > 1 && !keepsDistance(loops, distance)) {
    loops = pickLoops(true);
    if (!keepsDistance(loops, distance))
      return false;
  }
  enumerated = enumerate(loops);
  return true;
}

TileNest::TileNest(const GemmKernelModel &kernel, const ScheduleKnobs &knobs)
    : kernel(kernel), knobs(knobs), n(kernel.extents.size()),
      order(getLoopOrder(kernel, knobs)) {
  for (unsigned i = 0; i < n; ++i) {
    int64_t tile = knobs.tileSizes[i];
    counts.push_back((kernel.extents[i] + tile - 1) / tile);
    (i < kernel.numParallel ? outputTiles : reductionTiles) *= counts[i];
  }
  planes = kernel.requantShift ? 1 : 4;
  aluOps = (kernel.requantShift ? 3 : 4) + kernel.getNumClampOps();
}

int64_t TileNest::tileAt(unsigned i, int64_t digit) const {
  int64_t tile = knobs.tileSizes[i];
  return std::min(tile, kernel.extents[i] - digit * tile);
}

SmallVector<int64_t, 2> TileNest::sizesOf(unsigned i) const {
  SmallVector<int64_t, 2> sizes = {knobs.tileSizes[i]};
  int64_t last = tileAt(i, counts[i] - 1);
  if (last != sizes.front())
    sizes.push_back(last);
  return sizes;
}

int64_t TileNest::loads(ArrayRef<DimAccess> dims) const {
  int64_t loads = 1, upTo = 1;
  for (unsigned i : order) {
    upTo *= counts[i];
    if (counts[i] > 1 && dependsOn(dims, i))
      loads = upTo;
  }
  // With two threads, a tile that stays for several steps is loaded into
  // both halves.
  return std::min(steps(), knobs.virtualThreads * loads);
}

int64_t TileNest::weightLoads() const {
  if (!hoistsWeight())
    return loads(kernel.weight);
  int64_t loads = 1, upTo = 1;
  for (unsigned i : order) {
    if (i >= kernel.numParallel)
      break;
    upTo *= counts[i];
    if (counts[i] > 1 && dependsOn(kernel.weight, i))
      loads = upTo;
  }
  return loads;
}

int64_t TileNest::gemmUopLists() const {
  if (knobs.virtualThreads == 1)
    return 1;
  int64_t lists = reductionTiles == 1 ? 2 : 4;
  // Hoisted, the weight's half alternates with the resident loads, not
  // with the steps.
  if (hoistsWeight() && weightLoads() > 1)
    lists *= 2;
  return lists;
}

int64_t TileNest::weightOffsets(const TileShape &shape) const {
  if (!hoistsWeight())
    return 1;
  int64_t offsets = 1;
  for (unsigned i = kernel.numParallel; i < n; ++i) {
    int64_t full = kernel.extents[i] / knobs.tileSizes[i];
    offsets *= shape.tiles[i] == knobs.tileSizes[i] ? full : 1;
  }
  return offsets;
}

std::map<SmallVector<int64_t>, std::unique_ptr<TileShape>>
TileNest::getShapes() const {
  std::map<SmallVector<int64_t>, std::unique_ptr<TileShape>> shapes;
  SmallVector<int64_t> tiles(n, 0);
  std::function<void(unsigned)> each = [&](unsigned i) {
    if (i == n) {
      shapes.emplace(tiles, std::make_unique<TileShape>(kernel, tiles,
                                                        hoistsWeight()));
      return;
    }
    for (int64_t size : sizesOf(i)) {
      tiles[i] = size;
      each(i + 1);
    }
  };
  each(0);
  return shapes;
}

//===----------------------------------------------------------------------===//
// The check
//===----------------------------------------------------------------------===//

SmallVector<unsigned> raf::vta::getLoopOrder(const GemmKernelModel &kernel,
                                             const ScheduleKnobs &knobs) {
  SmallVector<unsigned> order;
  if (knobs.loopOrder.empty()) {
    order.resize(kernel.extents.size());
    std::iota(order.begin(), order.end(), 0);
  } else {
    order.assign(knobs.loopOrder.begin(), knobs.loopOrder.end());
  }
  return order;
}

uint64_t raf::vta::estimateCycles(const ScheduleCounts &counts,
                                  int64_t virtualThreads,
                                  const CycleModel &model) {
  uint64_t perCycle = model.dmaBytesPerCycle ? model.dmaBytesPerCycle : 1;
  auto dma = [&](int64_t transfers, int64_t bytes) {
    return uint64_t(transfers) * (model.dmaLatencyCycles + model.issueCycles) +
           (uint64_t(bytes) + perCycle - 1) / perCycle;
  };
  uint64_t load = dma(counts.loadTransfers, counts.loadBytes);
  uint64_t compute = uint64_t(counts.gemmSteps) * model.gemmCyclesPerUop +
                     uint64_t(counts.aluSteps) * model.aluCyclesPerUop;
  uint64_t store = dma(counts.storeTransfers, counts.storeBytes);
  uint64_t total = load + compute + store;
  if (virtualThreads == 1 || counts.steps < 1)
    return total;
  return std::max({load, compute, store}) + total / uint64_t(counts.steps);
}

namespace {
/// What the check derives from the tile sizes and threads alone, shared by
/// every loop order.
struct TilingFacts {
  int64_t inputTransfers = 0, weightTransfers = 0, outputTransfers = 0;
  int64_t biasTransfers = 0;
};
} // namespace

/// The rules on the knobs themselves and on the kernel's padding; the
/// problem, or empty.
static std::string checkKnobs(const GemmKernelModel &kernel,
                              const ScheduleKnobs &knobs) {
  auto fail = [&](const llvm::Twine &problem) { return problem.str(); };
  unsigned n = kernel.extents.size();
  if (knobs.tileSizes.size() != n)
    return fail("the schedule gives " + llvm::Twine(knobs.tileSizes.size()) +
                " tile sizes; the kernel has " + llvm::Twine(n) +
                " tile iterators");
  for (unsigned i = 0; i < n; ++i)
    if (knobs.tileSizes[i] < 1 || knobs.tileSizes[i] > kernel.extents[i])
      return fail("tile size " + llvm::Twine(knobs.tileSizes[i]) +
                  " is not in [1, " + llvm::Twine(kernel.extents[i]) +
                  "], the extent of iterator '" + kernel.names[i] + "'");
  if (knobs.virtualThreads != 1 && knobs.virtualThreads != 2)
    return fail("virtual threads must be 1 or 2, not " +
                llvm::Twine(knobs.virtualThreads));
  if (!knobs.loopOrder.empty()) {
    if (knobs.loopOrder.size() != n)
      return fail("the loop order lists " +
                  llvm::Twine(knobs.loopOrder.size()) +
                  " loops; the kernel has " + llvm::Twine(n) +
                  " tile iterators");
    SmallVector<bool> seen(n, false);
    for (auto [position, i] : llvm::enumerate(knobs.loopOrder)) {
      if (i < 0 || i >= int64_t(n))
        return fail("loop " + llvm::Twine(position) + " of the loop order is " +
                    llvm::Twine(i) + ", not a tile iterator (0 to " +
                    llvm::Twine(n - 1) + ")");
      if (seen[i])
        return fail("the loop order lists iterator '" + kernel.names[i] +
                    "' twice");
      seen[i] = true;
      if (position > 0 && unsigned(i) < kernel.numParallel &&
          unsigned(knobs.loopOrder[position - 1]) >= kernel.numParallel)
        return fail("the loop order puts reduction '" +
                    kernel.names[knobs.loopOrder[position - 1]] +
                    "' outside parallel iterator '" + kernel.names[i] +
                    "' (an output tile must be complete before the next)");
    }
  }

  for (auto [what, dims] : {std::pair("input", ArrayRef(kernel.input)),
                            std::pair("weight", ArrayRef(kernel.weight))})
    for (auto [d, dim] : llvm::enumerate(dims)) {
      if (dim.padLow == 0 && dim.padHigh == 0)
        continue;
      if (llvm::StringRef(what) == "weight")
        return fail("the weight is padded; only input loads pad on the fly "
                    "(TVM-VTA's load module pads the inp path only)");
      if (d + 2 < dims.size())
        return fail(llvm::Twine("the ") + what + " is padded along row "
                    "dimension " + llvm::Twine(d) + " of " +
                    llvm::Twine(dims.size()) + "; loads pad only the two "
                    "innermost (y and x)");
      if (dim.padLow < 0 || dim.padHigh < 0 || dim.padLow > kPadLimit ||
          dim.padHigh > kPadLimit)
        return fail(llvm::Twine("the ") + what + " is padded by " +
                    llvm::Twine(dim.padLow) + " and " +
                    llvm::Twine(dim.padHigh) + " along row dimension " +
                    llvm::Twine(d) + "; a load pads 0 to " +
                    llvm::Twine(kPadLimit));
    }
  // The fused epilogue's bounds are ALU immediates (signed 16 bits).
  for (auto [what, bound] : {std::pair("lower", kernel.clampLow),
                             std::pair("upper", kernel.clampHigh)})
    if (bound && (*bound < -32768 || *bound > 32767))
      return fail(llvm::Twine("the fused epilogue's ") + what + " bound " +
                  llvm::Twine(*bound) +
                  " does not fit an ALU immediate (signed 16 bits)");
  return "";
}

/// The rules on the tiles: buffers, loop fields, the accumulator distance,
/// the micro-op buffer; the problem, or empty (and `facts`).
static std::string checkTiling(const GemmKernelModel &kernel,
                               const ScheduleKnobs &knobs,
                               const ScheduleLimits &limits,
                               TilingFacts &facts) {
  auto fail = [&](const llvm::Twine &problem) { return problem.str(); };
  const Config &config = kernel.config;
  TileNest nest(kernel, knobs);
  int64_t v = knobs.virtualThreads;
  // The full tile is the largest: remainder tiles only shrink the boxes.
  TileShape full(kernel, knobs.tileSizes, nest.hoistsWeight());
  struct Need {
    const char *what;
    int64_t rows;
    Buffer buffer;
  };
  for (Need need : {Need{"input tile", full.inputBox.rows, Buffer::Inp},
                    Need{nest.hoistsWeight()
                             ? "hoisted weight (every reduction tile)"
                             : "weight tile",
                         full.weightBox.rows, Buffer::Wgt},
                    Need{kernel.hasBias() ? "accumulator tile and its bias"
                                          : "accumulator tile",
                         full.accRows + full.biasBox.rows * kernel.hasBias(),
                         Buffer::Acc}}) {
    int64_t capacity = int64_t(config.buffDepth(need.buffer)) / v;
    if (need.rows > capacity)
      return fail(llvm::Twine("the ") + need.what + " needs " +
                  llvm::Twine(need.rows) + " rows of the " +
                  getBufferName(need.buffer) + " buffer, which holds " +
                  llvm::Twine(capacity) + (v > 1 ? " per virtual thread" : ""));
  }
  if (full.accRows >= kLoopLimit)
    return fail("the epilogue loops over " + llvm::Twine(full.accRows) +
                " accumulator rows, more than a loop field holds");

  // Every tile shape's GEMM: its loops, the accumulator distance, and its
  // micro-ops (one list per buffer-half pair, identical lists shared).
  int64_t uops = 0, biasUops = 0;
  int64_t &inputTransfers = facts.inputTransfers;
  int64_t &weightTransfers = facts.weightTransfers;
  int64_t &outputTransfers = facts.outputTransfers;
  for (auto &[tiles, shape] : nest.getShapes()) {
    if (!shape->chooseLoops(limits.accDependenceDistance))
      return fail("the GEMM writes an accumulator row again within " +
                  llvm::Twine(limits.accDependenceDistance) +
                  " micro-op steps (too few independent output rows per "
                  "tile)");
    uops += shape->countUops(shape->loops) * nest.weightOffsets(*shape);
    // The bias ADD's body, one per accumulator half.
    if (kernel.hasBias()) {
      biasUops += shape->biasUops();
      facts.biasTransfers =
          std::max(facts.biasTransfers, shape->biasDma.count());
    }
    // A box entirely in the padding is zero-filled by loads of at most
    // kPadLimit rows of y each.
    auto transfers = [](const DmaPlan &plan) {
      return plan.count() *
             (plan.padded ? std::max<int64_t>(
                                1, (plan.ySize + kPadLimit - 1) / kPadLimit)
                          : 1);
    };
    inputTransfers = std::max(inputTransfers, transfers(shape->inputDma));
    weightTransfers = std::max(weightTransfers, transfers(shape->weightDma));
    outputTransfers = std::max(outputTransfers, shape->outputDma.count());
  }
  int64_t uopEntries = nest.gemmUopLists() * uops + v * biasUops + 2 * v;
  if (uopEntries > int64_t(config.buffDepth(Buffer::Uop)))
    return fail("the GEMMs need " + llvm::Twine(uopEntries) +
                " micro-ops, the micro-op buffer holds " +
                llvm::Twine(config.buffDepth(Buffer::Uop)));
  return "";
}

/// The loop order's part: loads, the instruction limit and the counts.
static ScheduleCheck finishCheck(const GemmKernelModel &kernel,
                                 const ScheduleKnobs &knobs,
                                 const ScheduleLimits &limits,
                                 const TilingFacts &facts) {
  ScheduleCheck check;
  auto fail = [&](const llvm::Twine &problem) {
    check.problem = problem.str();
    return check;
  };
  const Config &config = kernel.config;
  TileNest nest(kernel, knobs);
  unsigned n = nest.n;
  int64_t v = knobs.virtualThreads;
  int64_t inputLoads = nest.loads(kernel.input);
  int64_t weightLoads = nest.weightLoads();
  int64_t steps = nest.steps();
  ScheduleCounts &counts = check.counts;
  counts.steps = steps;
  counts.outputTiles = nest.outputTiles;
  counts.loadTransfers = inputLoads * facts.inputTransfers +
                         weightLoads * facts.weightTransfers +
                         nest.outputTiles * facts.biasTransfers;
  counts.storeTransfers =
      nest.outputTiles * nest.planes * facts.outputTransfers;
  check.instructions = counts.loadTransfers + steps +
                       nest.outputTiles * (1 + nest.aluOps) +
                       counts.storeTransfers + 2;
  if (check.instructions > limits.maxInstructions)
    return fail("the program needs " + llvm::Twine(check.instructions) +
                " instructions, more than the limit of " +
                llvm::Twine(limits.maxInstructions));

  // The counts the estimate ranks by: the GEMM and epilogue steps are
  // exact (every point of the iteration space once, every result row
  // once); the load bytes take the box of the mean tile size per loop.
  int64_t resultRows = 1, points = 1;
  for (unsigned i = 0; i < n; ++i) {
    points *= kernel.extents[i];
    if (i < kernel.numParallel)
      resultRows *= kernel.extents[i];
  }
  // (A hoisted weight spans every reduction.)
  auto meanRows = [&](ArrayRef<DimAccess> dims, bool hoisted) {
    double rows = 1;
    for (const DimAccess &dim : dims) {
      double len = 1;
      for (auto [i, c] : llvm::enumerate(dim.coefficients))
        len += std::abs(c) *
               (double(kernel.extents[i]) /
                    double(hoisted && i >= kernel.numParallel
                               ? 1
                               : nest.counts[i]) -
                1);
      // A padded load moves only the stored rows of its box; the pad
      // fields write the rest. Count the stored share of the view (exact
      // for one tile, the mean share otherwise).
      if (dim.padLow != 0 || dim.padHigh != 0)
        len *= double(dim.size) / double(dim.padLow + dim.size + dim.padHigh);
      rows *= len;
    }
    return rows;
  };
  counts.loadBytes =
      int64_t(inputLoads * meanRows(kernel.input, false) *
                  config.elemBytes(Buffer::Inp) +
              weightLoads * meanRows(kernel.weight, nest.hoistsWeight()) *
                  config.elemBytes(Buffer::Wgt));
  // A bias box per output tile (accumulator rows of int32).
  if (kernel.hasBias())
    counts.loadBytes +=
        int64_t(nest.outputTiles * meanRows(kernel.bias, false) *
                config.elemBytes(Buffer::Acc));
  counts.storeBytes = nest.planes * resultRows * config.elemBytes(Buffer::Out);
  counts.gemmSteps = points + resultRows;
  counts.aluSteps = nest.aluOps * resultRows;
  check.estimatedCycles = estimateCycles(counts, v, CycleModel());
  return check;
}

ScheduleCheck raf::vta::checkSchedule(const GemmKernelModel &kernel,
                                      const ScheduleKnobs &knobs,
                                      const ScheduleLimits &limits) {
  ScheduleCheck check;
  check.problem = checkKnobs(kernel, knobs);
  if (!check.valid())
    return check;
  TilingFacts facts;
  check.problem = checkTiling(kernel, knobs, limits, facts);
  if (!check.valid())
    return check;
  return finishCheck(kernel, knobs, limits, facts);
}

//===----------------------------------------------------------------------===//
// The space
//===----------------------------------------------------------------------===//

int64_t raf::vta::forEachSchedule(
    const GemmKernelModel &kernel, const ScheduleLimits &limits,
    const ScheduleSpace &space,
    llvm::function_ref<void(const ScheduleKnobs &, const ScheduleCheck &)>
        visit) {
  unsigned n = kernel.extents.size();
  // Candidate sizes per iterator, ascending.
  SmallVector<SmallVector<int64_t>> sizes(n);
  for (unsigned i = 0; i < n; ++i) {
    int64_t extent = kernel.extents[i];
    for (int64_t count = extent; count >= 1; --count) {
      int64_t size = (extent + count - 1) / count;
      if (!space.remainderTiles && extent % count != 0)
        continue;
      if (sizes[i].empty() || sizes[i].back() != size)
        sizes[i].push_back(size);
    }
  }
  const Config &config = kernel.config;
  int64_t visited = 0;
  for (int64_t v : space.virtualThreads) {
    ScheduleKnobs knobs;
    knobs.virtualThreads = v;
    knobs.tileSizes.assign(n, 1);
    SmallVector<int64_t> zeros(n, 0);
    auto fits = [&] {
      return getBox(kernel.input, zeros, knobs.tileSizes).rows <=
                 int64_t(config.buffDepth(Buffer::Inp)) / v &&
             getBox(kernel.weight, zeros, knobs.tileSizes).rows <=
                 int64_t(config.buffDepth(Buffer::Wgt)) / v &&
             getBox(kernel.output, zeros, knobs.tileSizes).rows <=
                 int64_t(config.buffDepth(Buffer::Acc)) / v;
    };
    auto tryPlacement = [&] {
      // The tiling's rules once; the loop order changes only the loads.
      knobs.loopOrder.clear();
      TilingFacts facts;
      if (!checkKnobs(kernel, knobs).empty() ||
          !checkTiling(kernel, knobs, limits, facts).empty())
        return;
      if (!space.loopOrders) {
        ScheduleCheck check = finishCheck(kernel, knobs, limits, facts);
        if (check.valid()) {
          ++visited;
          visit(knobs, check);
        }
        return;
      }
      // Loops of one tile can sit anywhere: permute only the others, each
      // group (parallel, reductions) on its own.
      SmallVector<int64_t> fixedParallel, parallel, fixedReduction, reduction;
      for (unsigned i = 0; i < n; ++i) {
        bool single = knobs.tileSizes[i] >= kernel.extents[i];
        bool isParallel = i < kernel.numParallel;
        (isParallel ? (single ? fixedParallel : parallel)
                    : (single ? fixedReduction : reduction))
            .push_back(i);
      }
      SmallVector<int64_t> p = parallel;
      do {
        SmallVector<int64_t> r = reduction;
        do {
          bool identity = p == parallel && r == reduction;
          knobs.loopOrder.clear();
          if (!identity) {
            for (ArrayRef<int64_t> group : {ArrayRef<int64_t>(fixedParallel),
                                            ArrayRef<int64_t>(p),
                                            ArrayRef<int64_t>(fixedReduction),
                                            ArrayRef<int64_t>(r)})
              knobs.loopOrder.insert(knobs.loopOrder.end(), group.begin(),
                                     group.end());
          }
          ScheduleCheck check = finishCheck(kernel, knobs, limits, facts);
          if (check.valid()) {
            ++visited;
            visit(knobs, check);
          }
        } while (std::next_permutation(r.begin(), r.end()));
      } while (std::next_permutation(p.begin(), p.end()));
      knobs.loopOrder.clear();
    };
    auto tryOrders = [&] {
      knobs.dma = DmaPlacement::Step;
      tryPlacement();
      if (space.hoistWeight) {
        knobs.dma = DmaPlacement::HoistWeight;
        tryPlacement();
        knobs.dma = DmaPlacement::Step;
      }
    };
    std::function<void(unsigned)> assign = [&](unsigned i) {
      if (i == n) {
        tryOrders();
        return;
      }
      for (int64_t size : sizes[i]) {
        knobs.tileSizes[i] = size;
        if (!fits())
          break;
        assign(i + 1);
      }
      knobs.tileSizes[i] = 1;
    };
    if (fits())
      assign(0);
  }
  return visited;
}
