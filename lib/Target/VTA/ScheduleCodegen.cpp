//===- ScheduleCodegen.cpp - the tile program of a VTA schedule -----------===//

#include "raf/Target/VTA/ScheduleCodegen.h"

#include "ScheduleGeometry.h"

#include "llvm/ADT/Twine.h"

#include <map>
#include <tuple>

using namespace raf;
using namespace raf::vta;
using namespace raf::vta::detail;
using llvm::ArrayRef;
using llvm::SmallVector;

llvm::Expected<TileProgram>
raf::vta::buildSchedule(const GemmKernelModel &kernel,
                        const ScheduleKnobs &knobs,
                        const ScheduleLimits &limits) {
  ScheduleCheck check = checkSchedule(kernel, knobs, limits);
  if (!check.valid())
    return llvm::createStringError(check.problem);
  const Config &config = kernel.config;
  TileNest nest(kernel, knobs);
  unsigned n = nest.n;
  int64_t v = knobs.virtualThreads;
  auto shapes = nest.getShapes();
  for (auto &[tiles, shape] : shapes)
    if (!shape->chooseLoops(limits.accDependenceDistance))
      return llvm::createStringError("the accumulator distance cannot be kept");

  int64_t inpHalf = int64_t(config.buffDepth(Buffer::Inp)) / v;
  int64_t wgtHalf = int64_t(config.buffDepth(Buffer::Wgt)) / v;
  int64_t accHalf = int64_t(config.buffDepth(Buffer::Acc)) / v;

  // Micro-ops of a GEMM over `shape` reading input half `h` and the weight
  // rows from `wgtBase` on into accumulator half `a`.
  std::map<std::tuple<const TileShape *, int64_t, int64_t, int64_t>,
           std::vector<Uop>>
      uopCache;
  auto gemmUops = [&](const TileShape &shape, int64_t h, int64_t a,
                      int64_t wgtBase) -> const std::vector<Uop> & {
    std::vector<Uop> &uops = uopCache[{&shape, h, a, wgtBase}];
    if (!uops.empty())
      return uops;
    SmallVector<int64_t> at(shape.enumerated.size(), 0);
    for (int64_t u = 0, e = shape.countUops(shape.loops); u < e; ++u) {
      Uop uop{a * accHalf, h * inpHalf + shape.src.offset,
              wgtBase + shape.wgt.offset};
      for (auto [k, i] : llvm::enumerate(shape.enumerated)) {
        uop.dstIdx += shape.dst.coefficients[i] * at[k];
        uop.srcIdx += shape.src.coefficients[i] * at[k];
        uop.wgtIdx += shape.wgt.coefficients[i] * at[k];
      }
      uops.push_back(uop);
      for (int k = int(at.size()) - 1; k >= 0; --k) {
        if (++at[k] < shape.tiles[shape.enumerated[k]])
          break;
        at[k] = 0;
      }
    }
    return uops;
  };
  auto loopOver = [&](const TileShape &shape, Instruction &insn, unsigned k,
                      bool inner) {
    if (k >= shape.loops.size())
      return;
    unsigned i = shape.loops[k];
    (inner ? insn.iterIn : insn.iterOut) = shape.tiles[i];
    (inner ? insn.dstFactorIn : insn.dstFactorOut) = shape.dst.coefficients[i];
    (inner ? insn.srcFactorIn : insn.srcFactorOut) = shape.src.coefficients[i];
    (inner ? insn.wgtFactorIn : insn.wgtFactorOut) = shape.wgt.coefficients[i];
  };

  TileProgram program;
  program.config = config;
  program.knobs = knobs;
  auto &code = program.instructions;
  // Which tile each half of the input and weight buffers holds (its origin
  // along the iterators the operand depends on).
  SmallVector<std::optional<SmallVector<int64_t>>> inputIn(v), weightIn(v);
  // Hoisted (DmaPlacement::HoistWeight): the resident weight, the half it
  // is in, and how many resident loads there were.
  std::optional<SmallVector<int64_t>> residentWeight;
  int64_t residentHalf = 0, residentLoads = 0;
  auto tileKey = [&](ArrayRef<DimAccess> dims, ArrayRef<int64_t> origin) {
    SmallVector<int64_t> key;
    for (unsigned i = 0; i < n; ++i)
      key.push_back(dependsOn(dims, i) ? origin[i] : -1);
    return key;
  };
  auto load = [&](MemoryType type, ArrayRef<DimAccess> dims,
                  const DmaPlan &plan, const Box &box, int64_t sramBase,
                  int64_t dramBase) {
    if (!plan.padded) {
      forEachTransfer(plan, dramBase + dramFirstRow(dims, box),
                      [&](int64_t sram, int64_t dram) {
                        code.push_back(
                            {Instruction::load(type, sramBase + sram, dram,
                                               plan.ySize, plan.xSize,
                                               plan.xStride),
                             {}});
                      });
      return;
    }
    // Padding on the fly: clip x and y to the stored rows, pad the rest;
    // the outer dimensions are never padded.
    unsigned rank = dims.size();
    struct Clip {
      int64_t pad0, rows, pad1, first;
    };
    auto clip = [&](unsigned d) {
      const DimAccess &dim = dims[d];
      int64_t lo = box.lo[d], hi = box.lo[d] + box.len[d];
      int64_t inLo = std::max(lo, dim.padLow);
      int64_t inHi = std::min(hi, dim.padLow + dim.size);
      if (inHi <= inLo)
        return Clip{box.len[d], 0, 0, 0};
      return Clip{inLo - lo, inHi - inLo, hi - inHi, inLo - dim.padLow};
    };
    Clip x = clip(rank - 1);
    Clip y = rank > 1 ? clip(rank - 2) : Clip{0, 1, 0, 0};
    int64_t xStride = dims[rank - 1].size;
    int64_t first = dramBase + y.first * xStride + x.first;
    int64_t stride = xStride * (rank > 1 ? dims[rank - 2].size : 1);
    for (int d = int(rank) - 3; d >= 0; --d) {
      first += (box.lo[d] - dims[d].padLow) * stride;
      stride *= dims[d].size;
    }
    DmaPlan outer = plan;
    outer.ySize = box.len[rank > 1 ? rank - 2 : rank - 1];
    outer.xSize = rank > 1 ? box.len[rank - 1] : 1;
    forEachTransfer(outer, first, [&](int64_t sram, int64_t dram) {
      if (x.rows == 0 || y.rows == 0) {
        // Entirely padding: zero-fill loads of no DRAM rows.
        int64_t rows = rank > 1 ? box.len[rank - 2] : 1;
        for (int64_t done = 0; done < rows; done += kPadLimit) {
          Instruction fill = Instruction::load(
              type, sramBase + sram + done * box.len[rank - 1], dramBase, 0,
              box.len[rank - 1], box.len[rank - 1]);
          fill.yPad0 = std::min(kPadLimit, rows - done);
          code.push_back({fill, {}});
        }
        return;
      }
      Instruction insn = Instruction::load(type, sramBase + sram, dram, y.rows,
                                           x.rows, xStride);
      insn.yPad0 = y.pad0;
      insn.yPad1 = y.pad1;
      insn.xPad0 = x.pad0;
      insn.xPad1 = x.pad1;
      code.push_back({insn, {}});
    });
  };

  // The tile loops in the schedule's order: an odometer over the tile
  // indices, the innermost loop last. Parallel loops come first, so every
  // output tile runs its reduction tiles consecutively.
  SmallVector<int64_t> digit(n, 0), origin(n, 0), tiles(n, 0);
  int64_t step = 0;
  for (int64_t o = 0; o < nest.outputTiles; ++o) {
    int64_t a = o % v;
    const TileShape *outputShape = nullptr;
    SmallVector<int64_t> outOrigin;
    for (int64_t r = 0; r < nest.reductionTiles; ++r, ++step) {
      for (unsigned i = 0; i < n; ++i) {
        origin[i] = digit[i] * knobs.tileSizes[i];
        tiles[i] = nest.tileAt(i, digit[i]);
      }
      const TileShape &shape = *shapes.at(tiles);
      if (r == 0) {
        outputShape = &shape;
        outOrigin = origin;
      }
      int64_t h = step % v;
      if (nest.hoistsWeight() && r == 0) {
        // The weight of every reduction tile for this output tile's
        // parallel origin, unless it is resident already.
        SmallVector<int64_t> residentOrigin(origin), residentTiles(tiles);
        for (unsigned i = kernel.numParallel; i < n; ++i) {
          residentOrigin[i] = 0;
          residentTiles[i] = kernel.extents[i];
        }
        SmallVector<int64_t> key = tileKey(kernel.weight, residentOrigin);
        if (residentWeight != key) {
          residentHalf = residentLoads++ % v;
          load(MemoryType::Wgt, kernel.weight, shape.weightDma,
               getBox(kernel.weight, residentOrigin, residentTiles),
               residentHalf * wgtHalf, kernel.weightBase);
          residentWeight = key;
        }
      }
      for (auto [type, dims, plan, held, half, base] :
           {std::tuple(MemoryType::Inp, ArrayRef<DimAccess>(kernel.input),
                       &shape.inputDma, &inputIn[h], inpHalf, kernel.inputBase),
            std::tuple(MemoryType::Wgt, ArrayRef<DimAccess>(kernel.weight),
                       &shape.weightDma, &weightIn[h], wgtHalf,
                       kernel.weightBase)}) {
        if (type == MemoryType::Wgt && nest.hoistsWeight())
          continue;
        SmallVector<int64_t> key = tileKey(dims, origin);
        if (*held == key)
          continue;
        load(type, dims, *plan, getBox(dims, origin, tiles), h * half, base);
        *held = key;
      }
      if (r == 0) {
        Instruction reset = Instruction::gemm(0, 0, shape.accRows, 1, true);
        reset.dstFactorOut = 1;
        code.push_back({reset, {Uop{a * accHalf, 0, 0}}});
      }
      Instruction gemm = Instruction::gemm(0, 0);
      loopOver(shape, gemm, 0, false);
      loopOver(shape, gemm, 1, true);
      int64_t wgtBase = nest.hoistsWeight()
                            ? residentHalf * wgtHalf + shape.weightOffset(origin)
                            : h * wgtHalf;
      code.push_back({gemm, gemmUops(shape, h, a, wgtBase)});

      for (int k = int(n) - 1; k >= 0; --k) {
        unsigned i = nest.order[k];
        if (++digit[i] < nest.counts[i])
          break;
        digit[i] = 0;
      }
    }

    // Epilogue: each ALU writes the low byte of its results to the output
    // buffer, which the stores copy out.
    int64_t accRows = outputShape->accRows;
    auto alu = [&](AluOpcode op, int64_t imm) {
      Instruction insn = Instruction::aluImm(op, imm, 0, 0, accRows, 1);
      insn.dstFactorOut = 1;
      insn.srcFactorOut = 1;
      code.push_back({insn, {Uop{a * accHalf, a * accHalf, 0}}});
    };
    Box box = getBox(kernel.output, outOrigin, outputShape->tiles);
    const DmaPlan &outputDma = outputShape->outputDma;
    auto storePlane = [&](unsigned plane) {
      forEachTransfer(outputDma,
                      kernel.resultBase + plane * kernel.resultRows +
                          dramFirstRow(kernel.output, box),
                      [&](int64_t sram, int64_t dram) {
                        code.push_back(
                            {Instruction::store(a * accHalf + sram, dram,
                                                outputDma.ySize,
                                                outputDma.xSize,
                                                outputDma.xStride),
                             {}});
                      });
    };
    // The fused bias (TVM-VTA's conv2d + bias): the output tile's bias box
    // into the accumulator rows after the tile, then ALU ADD of it.
    if (kernel.hasBias()) {
      const TileShape &shape = *outputShape;
      int64_t biasSram = a * accHalf + accRows;
      Box biasBox = getBox(kernel.bias, outOrigin, shape.tiles);
      forEachTransfer(shape.biasDma,
                      kernel.biasBase + dramFirstRow(kernel.bias, biasBox),
                      [&](int64_t sram, int64_t dram) {
                        code.push_back(
                            {Instruction::load(MemoryType::Acc,
                                               biasSram + sram, dram,
                                               shape.biasDma.ySize,
                                               shape.biasDma.xSize,
                                               shape.biasDma.xStride),
                             {}});
                      });
      Instruction add = Instruction::alu(AluOpcode::Add, 0, 0);
      for (auto [k, i] : llvm::enumerate(shape.biasLoops)) {
        bool inner = k == 1;
        (inner ? add.iterIn : add.iterOut) = shape.tiles[i];
        (inner ? add.dstFactorIn : add.dstFactorOut) =
            shape.dst.coefficients[i];
        (inner ? add.srcFactorIn : add.srcFactorOut) =
            shape.biasAccess.coefficients[i];
      }
      std::vector<Uop> uops;
      SmallVector<int64_t> at(shape.biasEnumerated.size(), 0);
      for (int64_t u = 0, e = shape.biasUops(); u < e; ++u) {
        Uop uop{a * accHalf + shape.dst.offset,
                biasSram + shape.biasAccess.offset, 0};
        for (auto [k, i] : llvm::enumerate(shape.biasEnumerated)) {
          uop.dstIdx += shape.dst.coefficients[i] * at[k];
          uop.srcIdx += shape.biasAccess.coefficients[i] * at[k];
        }
        uops.push_back(uop);
        for (int k = int(at.size()) - 1; k >= 0; --k) {
          if (++at[k] < shape.tiles[shape.biasEnumerated[k]])
            break;
          at[k] = 0;
        }
      }
      code.push_back({add, std::move(uops)});
    }
    // The fused epilogue first (TVM-VTA's conv2d + relu: MAX 0 on the
    // accumulators, then the shift and the clip of the requantisation).
    if (kernel.clampLow)
      alu(AluOpcode::Max, *kernel.clampLow);
    if (kernel.clampHigh)
      alu(AluOpcode::Min, *kernel.clampHigh);
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

llvm::Expected<SimulatedSchedule>
raf::vta::simulateSchedule(const GemmKernelModel &kernel,
                           const ScheduleKnobs &knobs,
                           const ScheduleLimits &limits,
                           const CycleModel &cycleModel) {
  llvm::Expected<TileProgram> tiles = buildSchedule(kernel, knobs, limits);
  if (!tiles)
    return tiles.takeError();
  llvm::Expected<Program> program = assemble(*tiles);
  if (!program)
    return program.takeError();
  SimulatorOptions options;
  options.cycleModel = cycleModel;
  options.functional = false;
  std::vector<uint8_t> noDram;
  llvm::Expected<SimulationResult> timing = simulate(*program, noDram, options);
  if (!timing)
    return timing.takeError();
  return SimulatedSchedule{std::move(*tiles), std::move(*program),
                           std::move(*timing)};
}
