//===- TiledSchedule.cpp - tiling a packed GEMM kernel for VTA ------------===//

#include "raf/Conversion/TCGToVTA/TiledSchedule.h"

#include "raf/Target/VTA/Layout.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/Twine.h"

#include <algorithm>
#include <functional>
#include <numeric>

using namespace raf;
using namespace raf::vta;
using llvm::ArrayRef;
using llvm::SmallVector;

namespace {

/// Rows a DMA field (y_size, x_size, x_stride) can hold.
constexpr int64_t kMemFieldLimit = int64_t(1) << widths::MemSize;
/// Iterations a GEMM or ALU loop can run.
constexpr int64_t kLoopLimit = int64_t(1) << widths::LoopIter;

/// The bounding box of an operand's rows over one tile: per dimension, the
/// lowest index and the number of indices.
struct Box {
  SmallVector<int64_t> lo, len;
  int64_t rows = 1;
};

Box getBox(ArrayRef<DimAccess> dims, ArrayRef<int64_t> origin,
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

/// An operand's SRAM row within its dense tile box as an affine function of
/// the within-tile iterator offsets: offset + sum_i coefficients[i] * j_i.
struct TileAccess {
  SmallVector<int64_t> coefficients;
  int64_t offset = 0;
};

TileAccess getTileAccess(ArrayRef<DimAccess> dims, ArrayRef<int64_t> tile,
                         const Box &box) {
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

/// How a box moves between DRAM and its dense SRAM copy: 2-D transfers of
/// `ySize` runs of `xSize` consecutive rows, `xStride` rows apart in DRAM,
/// one per index of the `outer` dimensions (length, DRAM stride), outermost
/// first.
struct DmaPlan {
  int64_t ySize = 1, xSize = 1, xStride = 1;
  SmallVector<std::pair<int64_t, int64_t>> outer;
  int64_t count() const {
    int64_t n = 1;
    for (auto [len, stride] : outer)
      n *= len;
    return n;
  }
};

DmaPlan planDma(ArrayRef<DimAccess> dims, ArrayRef<int64_t> len) {
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

/// Calls `emit(sramOffset, dramRow)` for every transfer of a box whose
/// first row is `dramFirst` in DRAM.
template <typename Emit>
void forEachTransfer(const DmaPlan &plan, int64_t dramFirst, Emit emit) {
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

int64_t dramFirstRow(ArrayRef<DimAccess> dims, const Box &box) {
  int64_t row = 0, stride = 1;
  for (int d = int(dims.size()) - 1; d >= 0; --d) {
    row += box.lo[d] * stride;
    stride *= dims[d].size;
  }
  return row;
}

bool dependsOn(ArrayRef<DimAccess> dims, unsigned iterator) {
  return llvm::any_of(dims, [&](const DimAccess &dim) {
    return dim.coefficients[iterator] != 0;
  });
}

/// Everything about a configuration that does not depend on the tile's
/// position.
struct Shape {
  const GemmKernelModel &kernel;
  const ScheduleKnobs &knobs;
  unsigned n;
  SmallVector<int64_t> tiles, counts;
  SmallVector<int64_t> zeros;
  Box inputBox, weightBox, outputBox;
  TileAccess src, wgt, dst;
  DmaPlan inputDma, weightDma, outputDma;
  int64_t accRows = 1, outputTiles = 1, reductionTiles = 1;
  unsigned planes, aluOps;

  Shape(const GemmKernelModel &kernel, const ScheduleKnobs &knobs)
      : kernel(kernel), knobs(knobs), n(kernel.extents.size()),
        tiles(knobs.tileSizes.begin(), knobs.tileSizes.end()), zeros(n, 0) {
    for (unsigned i = 0; i < n; ++i)
      counts.push_back(kernel.extents[i] / tiles[i]);
    inputBox = getBox(kernel.input, zeros, tiles);
    weightBox = getBox(kernel.weight, zeros, tiles);
    outputBox = getBox(kernel.output, zeros, tiles);
    src = getTileAccess(kernel.input, tiles, inputBox);
    wgt = getTileAccess(kernel.weight, tiles, weightBox);
    dst = getTileAccess(kernel.output, tiles, outputBox);
    inputDma = planDma(kernel.input, inputBox.len);
    weightDma = planDma(kernel.weight, weightBox.len);
    outputDma = planDma(kernel.output, outputBox.len);
    accRows = outputBox.rows;
    for (unsigned i = 0; i < n; ++i)
      (i < kernel.numParallel ? outputTiles : reductionTiles) *= counts[i];
    planes = kernel.requantShift ? 1 : 4;
    aluOps = kernel.requantShift ? 3 : 4;
  }

  int64_t steps() const { return outputTiles * reductionTiles; }

  /// How many steps load the operand with `dims`: the tile loop order is
  /// the iterator order, so the tile changes whenever a digit at or
  /// outside the innermost one it depends on (with more than one tile)
  /// moves.
  int64_t loads(ArrayRef<DimAccess> dims) const {
    int64_t loads = 1, upTo = 1;
    for (unsigned i = 0; i < n; ++i) {
      upTo *= counts[i];
      if (counts[i] > 1 && dependsOn(dims, i))
        loads = upTo;
    }
    return loads;
  }

  /// Micro-ops of one step's GEMM: the product of the tile sizes of the
  /// iterators that are not loops.
  int64_t gemmSteps() const {
    int64_t product = 1;
    for (int64_t t : tiles)
      product *= t;
    return product;
  }

  /// Whether iterator `i` can be a GEMM loop: loop factors are unsigned
  /// and as wide as the buffer they index.
  bool canLoop(unsigned i) const {
    const Config &config = kernel.config;
    return tiles[i] > 1 && tiles[i] < kLoopLimit && src.coefficients[i] >= 0 &&
           wgt.coefficients[i] >= 0 && dst.coefficients[i] >= 0 &&
           src.coefficients[i] < int64_t(config.buffDepth(Buffer::Inp)) &&
           wgt.coefficients[i] < int64_t(config.buffDepth(Buffer::Wgt)) &&
           dst.coefficients[i] < int64_t(config.buffDepth(Buffer::Acc));
  }

  /// The GEMM's loops: the two longest iterators that can be loops, or
  /// only reductions.
  SmallVector<unsigned> chooseLoops(bool reductionsOnly) const {
    SmallVector<unsigned> order(n);
    std::iota(order.begin(), order.end(), 0);
    llvm::stable_sort(
        order, [&](unsigned a, unsigned b) { return tiles[a] > tiles[b]; });
    SmallVector<unsigned> loops;
    for (unsigned i : order)
      if (loops.size() < 2 && canLoop(i) &&
          (!reductionsOnly || i >= kernel.numParallel))
        loops.push_back(i);
    return loops;
  }

  /// The iterators the micro-ops enumerate, slowest first: reductions,
  /// then parallel iterators, so that consecutive micro-ops write other
  /// accumulator rows.
  SmallVector<unsigned> enumerated(ArrayRef<unsigned> loops) const {
    SmallVector<unsigned> rest;
    for (bool reductions : {true, false})
      for (unsigned i = 0; i < n; ++i)
        if (!llvm::is_contained(loops, i) &&
            (i >= kernel.numParallel) == reductions)
          rest.push_back(i);
    return rest;
  }

  int64_t countUops(ArrayRef<unsigned> loops) const {
    int64_t count = 1;
    for (unsigned i : enumerated(loops))
      count *= tiles[i];
    return count;
  }

  /// Whether one GEMM writes every accumulator row at least `distance`
  /// micro-op steps after its previous write.
  bool keepsDistance(ArrayRef<unsigned> loops, unsigned distance) const {
    SmallVector<unsigned> rest = enumerated(loops);
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

  /// Distinct (input half, accumulator half) pairs the GEMMs use, each
  /// with its own micro-ops.
  int64_t gemmUopLists() const {
    if (knobs.virtualThreads == 1)
      return 1;
    return reductionTiles == 1 ? 2 : 4;
  }
};

} // namespace

ScheduleCheck raf::vta::checkSchedule(const GemmKernelModel &kernel,
                                      const ScheduleKnobs &knobs,
                                      const ScheduleLimits &limits) {
  ScheduleCheck check;
  auto fail = [&](const llvm::Twine &problem) {
    check.problem = problem.str();
    return check;
  };
  unsigned n = kernel.extents.size();
  if (knobs.tileSizes.size() != n)
    return fail("the schedule gives " + llvm::Twine(knobs.tileSizes.size()) +
                " tile sizes; the kernel has " + llvm::Twine(n) +
                " tile iterators");
  for (unsigned i = 0; i < n; ++i)
    if (knobs.tileSizes[i] < 1 || kernel.extents[i] % knobs.tileSizes[i] != 0)
      return fail("tile size " + llvm::Twine(knobs.tileSizes[i]) +
                  " does not divide the extent " +
                  llvm::Twine(kernel.extents[i]) + " of iterator '" +
                  kernel.names[i] + "'");
  if (knobs.virtualThreads != 1 && knobs.virtualThreads != 2)
    return fail("virtual threads must be 1 or 2, not " +
                llvm::Twine(knobs.virtualThreads));

  const Config &config = kernel.config;
  Shape shape(kernel, knobs);
  int64_t v = knobs.virtualThreads;
  struct Need {
    const char *what;
    int64_t rows;
    Buffer buffer;
  };
  for (Need need : {Need{"input", shape.inputBox.rows, Buffer::Inp},
                    Need{"weight", shape.weightBox.rows, Buffer::Wgt},
                    Need{"accumulator", shape.accRows, Buffer::Acc}}) {
    int64_t capacity = int64_t(config.buffDepth(need.buffer)) / v;
    if (need.rows > capacity)
      return fail(llvm::Twine("the ") + need.what + " tile needs " +
                  llvm::Twine(need.rows) + " rows of the " +
                  getBufferName(need.buffer) + " buffer, which holds " +
                  llvm::Twine(capacity) + (v > 1 ? " per virtual thread" : ""));
  }
  SmallVector<unsigned> loops = shape.chooseLoops(false);
  int64_t uopEntries = shape.gemmUopLists() * shape.countUops(loops) + 2 * v;
  if (uopEntries > int64_t(config.buffDepth(Buffer::Uop)))
    return fail("the GEMMs need " + llvm::Twine(uopEntries) +
                " micro-ops, the micro-op buffer holds " +
                llvm::Twine(config.buffDepth(Buffer::Uop)));
  if (shape.accRows >= kLoopLimit)
    return fail("the epilogue loops over " + llvm::Twine(shape.accRows) +
                " accumulator rows, more than a loop field holds");

  int64_t inputLoads = shape.loads(kernel.input);
  int64_t weightLoads = shape.loads(kernel.weight);
  int64_t steps = shape.steps();
  check.instructions =
      inputLoads * shape.inputDma.count() +
      weightLoads * shape.weightDma.count() + steps +
      shape.outputTiles *
          (1 + shape.aluOps + shape.planes * shape.outputDma.count()) +
      2;
  if (check.instructions > limits.maxInstructions)
    return fail("the program needs " + llvm::Twine(check.instructions) +
                " instructions, more than the limit of " +
                llvm::Twine(limits.maxInstructions));

  // The estimate ranks configurations before simulating them: transfer
  // and compute cycles of the default cycle model, serialised by one
  // thread and overlapped by two.
  CycleModel model;
  auto dma = [&](int64_t bytes) {
    return uint64_t(bytes + model.dmaBytesPerCycle - 1) /
           model.dmaBytesPerCycle;
  };
  uint64_t load =
      inputLoads * dma(shape.inputBox.rows * config.elemBytes(Buffer::Inp)) +
      weightLoads * dma(shape.weightBox.rows * config.elemBytes(Buffer::Wgt));
  uint64_t compute =
      steps * shape.gemmSteps() * model.gemmCyclesPerUop +
      shape.outputTiles * shape.accRows *
          (model.gemmCyclesPerUop + shape.aluOps * model.aluCyclesPerUop);
  uint64_t store = shape.outputTiles * shape.planes *
                   dma(shape.accRows * config.elemBytes(Buffer::Out));
  uint64_t total = load + compute + store;
  check.estimatedCycles =
      v == 1 ? total
             : std::max({load, compute, store}) + total / uint64_t(steps);
  return check;
}

llvm::Expected<TileProgram>
raf::vta::buildSchedule(const GemmKernelModel &kernel,
                        const ScheduleKnobs &knobs,
                        const ScheduleLimits &limits) {
  ScheduleCheck check = checkSchedule(kernel, knobs, limits);
  if (!check.valid())
    return llvm::createStringError(check.problem);
  const Config &config = kernel.config;
  Shape shape(kernel, knobs);
  unsigned n = shape.n;
  int64_t v = knobs.virtualThreads;

  // The GEMM loops: the fewest micro-ops, unless the accumulator distance
  // asks for loops over reductions only.
  SmallVector<unsigned> loops = shape.chooseLoops(false);
  if (limits.accDependenceDistance > 1 &&
      !shape.keepsDistance(loops, limits.accDependenceDistance)) {
    loops = shape.chooseLoops(true);
    if (!shape.keepsDistance(loops, limits.accDependenceDistance) ||
        shape.countUops(loops) * shape.gemmUopLists() + 2 * v >
            int64_t(config.buffDepth(Buffer::Uop)))
      return llvm::createStringError(
          "the GEMM writes an accumulator row again within " +
          llvm::Twine(limits.accDependenceDistance) +
          " micro-op steps (too few independent output rows per tile)");
  }
  SmallVector<unsigned> enumerated = shape.enumerated(loops);

  int64_t inpHalf = int64_t(config.buffDepth(Buffer::Inp)) / v;
  int64_t wgtHalf = int64_t(config.buffDepth(Buffer::Wgt)) / v;
  int64_t accHalf = int64_t(config.buffDepth(Buffer::Acc)) / v;

  // Micro-ops of a GEMM reading input/weight half `h` into accumulator half
  // `a`.
  auto gemmUops = [&](int64_t h, int64_t a) {
    std::vector<Uop> uops;
    SmallVector<int64_t> at(enumerated.size(), 0);
    for (int64_t u = 0, e = shape.countUops(loops); u < e; ++u) {
      Uop uop{a * accHalf, h * inpHalf + shape.src.offset,
              h * wgtHalf + shape.wgt.offset};
      for (auto [k, i] : llvm::enumerate(enumerated)) {
        uop.dstIdx += shape.dst.coefficients[i] * at[k];
        uop.srcIdx += shape.src.coefficients[i] * at[k];
        uop.wgtIdx += shape.wgt.coefficients[i] * at[k];
      }
      uops.push_back(uop);
      for (int k = int(at.size()) - 1; k >= 0; --k) {
        if (++at[k] < shape.tiles[enumerated[k]])
          break;
        at[k] = 0;
      }
    }
    return uops;
  };
  auto loopOver = [&](Instruction &insn, unsigned k, bool inner) {
    if (k >= loops.size())
      return;
    unsigned i = loops[k];
    (inner ? insn.iterIn : insn.iterOut) = shape.tiles[i];
    (inner ? insn.dstFactorIn : insn.dstFactorOut) = shape.dst.coefficients[i];
    (inner ? insn.srcFactorIn : insn.srcFactorOut) = shape.src.coefficients[i];
    (inner ? insn.wgtFactorIn : insn.wgtFactorOut) = shape.wgt.coefficients[i];
  };

  TileProgram program;
  program.config = config;
  program.knobs = knobs;
  auto &code = program.instructions;
  // Which tile each half of the input and weight buffers holds.
  SmallVector<std::optional<SmallVector<int64_t>>> inputIn(v), weightIn(v);
  auto tileKey = [&](ArrayRef<DimAccess> dims, ArrayRef<int64_t> origin) {
    SmallVector<int64_t> key;
    for (unsigned i = 0; i < n; ++i)
      key.push_back(dependsOn(dims, i) ? origin[i] : -1);
    return key;
  };
  auto load = [&](MemoryType type, ArrayRef<DimAccess> dims,
                  const DmaPlan &plan, ArrayRef<int64_t> origin,
                  int64_t sramBase, int64_t dramBase) {
    Box box = getBox(dims, origin, shape.tiles);
    forEachTransfer(plan, dramBase + dramFirstRow(dims, box),
                    [&](int64_t sram, int64_t dram) {
                      code.push_back({Instruction::load(
                                          type, sramBase + sram, dram,
                                          plan.ySize, plan.xSize, plan.xStride),
                                      {}});
                    });
  };

  SmallVector<int64_t> digit(n, 0), origin(n, 0);
  int64_t step = 0;
  for (int64_t o = 0; o < shape.outputTiles; ++o) {
    int64_t a = o % v;
    for (int64_t r = 0; r < shape.reductionTiles; ++r, ++step) {
      for (unsigned i = 0; i < n; ++i)
        origin[i] = digit[i] * shape.tiles[i];
      int64_t h = step % v;
      SmallVector<int64_t> inputKey = tileKey(kernel.input, origin);
      if (inputIn[h] != inputKey) {
        load(MemoryType::Inp, kernel.input, shape.inputDma, origin, h * inpHalf,
             kernel.inputBase);
        inputIn[h] = inputKey;
      }
      SmallVector<int64_t> weightKey = tileKey(kernel.weight, origin);
      if (weightIn[h] != weightKey) {
        load(MemoryType::Wgt, kernel.weight, shape.weightDma, origin,
             h * wgtHalf, kernel.weightBase);
        weightIn[h] = weightKey;
      }
      if (r == 0) {
        Instruction reset = Instruction::gemm(0, 0, shape.accRows, 1, true);
        reset.dstFactorOut = 1;
        code.push_back({reset, {Uop{a * accHalf, 0, 0}}});
      }
      Instruction gemm = Instruction::gemm(0, 0);
      loopOver(gemm, 0, false);
      loopOver(gemm, 1, true);
      code.push_back({gemm, gemmUops(h, a)});

      // Next tile: the odometer over the digits, innermost last.
      for (int k = int(n) - 1; k >= 0; --k) {
        if (++digit[k] < shape.counts[k])
          break;
        digit[k] = 0;
      }
    }

    // Epilogue: each ALU writes the low byte of its results to the output
    // buffer, which the stores copy out.
    auto alu = [&](AluOpcode op, int64_t imm) {
      Instruction insn = Instruction::aluImm(op, imm, 0, 0, shape.accRows, 1);
      insn.dstFactorOut = 1;
      insn.srcFactorOut = 1;
      code.push_back({insn, {Uop{a * accHalf, a * accHalf, 0}}});
    };
    // The output tile's origin: the parallel digits of the tile just done.
    SmallVector<int64_t> outOrigin(n, 0);
    {
      int64_t rest = o;
      for (int i = int(kernel.numParallel) - 1; i >= 0; --i) {
        outOrigin[i] = (rest % shape.counts[i]) * shape.tiles[i];
        rest /= shape.counts[i];
      }
    }
    Box box = getBox(kernel.output, outOrigin, shape.tiles);
    auto storePlane = [&](unsigned plane) {
      forEachTransfer(
          shape.outputDma,
          kernel.resultBase + plane * kernel.resultRows +
              dramFirstRow(kernel.output, box),
          [&](int64_t sram, int64_t dram) {
            code.push_back({Instruction::store(
                                a * accHalf + sram, dram, shape.outputDma.ySize,
                                shape.outputDma.xSize, shape.outputDma.xStride),
                            {}});
          });
    };
    if (kernel.requantShift) {
      alu(AluOpcode::Shr, *kernel.requantShift);
      alu(AluOpcode::Min, 127);
      alu(AluOpcode::Max, -128);
      storePlane(0);
    } else {
      // Exact int32 results: plane p holds bits [8p, 8p + 8).
      for (unsigned plane = 0; plane < 4; ++plane) {
        if (plane == 0)
          alu(AluOpcode::Add, 0);
        else
          alu(AluOpcode::Shr, 8);
        storePlane(plane);
      }
    }
  }
  return program;
}

llvm::Expected<SearchResult>
raf::vta::searchSchedule(const GemmKernelModel &kernel,
                         const ScheduleLimits &limits,
                         const SearchOptions &options) {
  struct Candidate {
    ScheduleKnobs knobs;
    ScheduleCheck check;
  };
  std::vector<Candidate> valid;
  unsigned n = kernel.extents.size();
  if (options.given) {
    ScheduleCheck check = checkSchedule(kernel, *options.given, limits);
    if (!check.valid())
      return llvm::createStringError("invalid schedule: " + check.problem);
    valid.push_back({*options.given, check});
  } else {
    // Every divisor of every extent, pruned as soon as a partial tiling
    // (the remaining iterators at 1) overflows a buffer: tiles only grow.
    SmallVector<SmallVector<int64_t>> divisors(n);
    for (unsigned i = 0; i < n; ++i)
      for (int64_t d = 1; d <= kernel.extents[i]; ++d)
        if (kernel.extents[i] % d == 0)
          divisors[i].push_back(d);
    const Config &config = kernel.config;
    for (int64_t v : {1, 2}) {
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
      std::function<void(unsigned)> assign = [&](unsigned i) {
        if (i == n) {
          ScheduleCheck check = checkSchedule(kernel, knobs, limits);
          if (check.valid())
            valid.push_back({knobs, check});
          return;
        }
        for (int64_t d : divisors[i]) {
          knobs.tileSizes[i] = d;
          if (!fits())
            break;
          assign(i + 1);
        }
        knobs.tileSizes[i] = 1;
      };
      if (fits())
        assign(0);
    }
    if (valid.empty()) {
      ScheduleKnobs smallest;
      smallest.tileSizes.assign(n, 1);
      ScheduleCheck check = checkSchedule(kernel, smallest, limits);
      return llvm::createStringError(
          "no schedule fits VTA: even with tiles of 1, " +
          (check.valid() ? std::string("the accumulator distance cannot be "
                                       "kept")
                         : check.problem));
    }
  }

  llvm::stable_sort(valid, [](const Candidate &a, const Candidate &b) {
    return a.check.estimatedCycles < b.check.estimatedCycles;
  });
  size_t toSimulate =
      options.mode == SearchMode::Exhaustive
          ? valid.size()
          : std::min<size_t>(valid.size(), std::max(1u, options.simulate));
  std::optional<SearchResult> best;
  std::string lastProblem;
  SimulatorOptions simulatorOptions;
  simulatorOptions.cycleModel = options.cycleModel;
  simulatorOptions.functional = false;
  int64_t simulated = 0;
  // Candidates that cannot keep the accumulator distance are skipped, so
  // the search goes on until `toSimulate` were simulated.
  for (size_t c = 0; c < valid.size() && size_t(simulated) < toSimulate; ++c) {
    llvm::Expected<TileProgram> tiles =
        buildSchedule(kernel, valid[c].knobs, limits);
    if (!tiles) {
      lastProblem = llvm::toString(tiles.takeError());
      continue;
    }
    llvm::Expected<Program> program = assemble(*tiles);
    if (!program)
      return program.takeError();
    std::vector<uint8_t> noDram;
    llvm::Expected<SimulationResult> timing =
        simulate(*program, noDram, simulatorOptions);
    if (!timing)
      return timing.takeError();
    ++simulated;
    if (!best || timing->cycles < best->timing.cycles) {
      best = SearchResult{valid[c].knobs,
                          std::move(*tiles),
                          std::move(*program),
                          std::move(*timing),
                          0,
                          0};
    }
  }
  if (!best)
    return llvm::createStringError(lastProblem);
  best->validConfigurations = int64_t(valid.size());
  best->simulated = simulated;
  return std::move(*best);
}
