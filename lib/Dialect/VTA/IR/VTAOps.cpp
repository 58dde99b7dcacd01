//===- VTAOps.cpp - vta tile-level operations -----------------------------===//
//
// Each tile op converts to a raf::vta::TileInstruction, and its verifier
// hands that to the rule checker of raf/Target/VTA/Checks.h (field widths,
// buffer bounds of transfers, padding) and checks what only tile programs
// have: sizes of at least 1, the micro-op list, and the rows its loop nest
// reaches (getBufferRanges()). So the tile ops are held to the rules the
// vta_isa ops they become are held to, with the same messages.
//
//===----------------------------------------------------------------------===//

#include "raf/Dialect/VTA/IR/VTAOps.h"

#include "raf/Target/VTA/Checks.h"

#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace raf::vta;

#include "raf/Dialect/VTA/IR/VTAEnums.cpp.inc"
#include "raf/Dialect/VTA/IR/VTAInterfaces.cpp.inc"

//===----------------------------------------------------------------------===//
// Micro-op lists: `[[d, s, w], ...]`, stored flat
//===----------------------------------------------------------------------===//

static ParseResult parseUops(OpAsmParser &parser, DenseI64ArrayAttr &uops) {
  SmallVector<int64_t> values;
  auto parseUop = [&]() -> ParseResult {
    int64_t triple[3];
    if (parser.parseLSquare() || parser.parseInteger(triple[0]) ||
        parser.parseComma() || parser.parseInteger(triple[1]) ||
        parser.parseComma() || parser.parseInteger(triple[2]) ||
        parser.parseRSquare())
      return failure();
    values.append(std::begin(triple), std::end(triple));
    return success();
  };
  if (parser.parseCommaSeparatedList(AsmParser::Delimiter::Square, parseUop,
                                     " in the micro-op list"))
    return failure();
  uops = DenseI64ArrayAttr::get(parser.getContext(), values);
  return success();
}

static void printUops(OpAsmPrinter &printer, Operation *,
                      DenseI64ArrayAttr uops) {
  ArrayRef<int64_t> values = uops.asArrayRef();
  printer << '[';
  // A list whose length is not a multiple of 3 only reaches the printer
  // from C++; print what makes up whole triples, the verifier reports it.
  for (size_t i = 0; i + 2 < values.size(); i += 3) {
    if (i)
      printer << ", ";
    printer << '[' << values[i] << ", " << values[i + 1] << ", "
            << values[i + 2] << ']';
  }
  printer << ']';
}

#define GET_OP_CLASSES
#include "raf/Dialect/VTA/IR/VTAOps.cpp.inc"

//===----------------------------------------------------------------------===//
// Conversion to TileInstruction
//===----------------------------------------------------------------------===//

/// Entry `i` of `values`, 0 if absent (the verifier reports wrong lengths).
static int64_t at(ArrayRef<int64_t> values, size_t i) {
  return i < values.size() ? values[i] : 0;
}

static std::vector<Uop> getUopList(ArrayRef<int64_t> values) {
  std::vector<Uop> uops;
  for (size_t i = 0; i + 2 < values.size(); i += 3)
    uops.push_back({values[i], values[i + 1], values[i + 2]});
  return uops;
}

TileInstruction LoadTileOp::getTileInstruction() {
  Instruction insn = Instruction::load(
      static_cast<MemoryType>(getMemory()), getSramAttr().getInt(),
      getDramAttr().getInt(), getRowsAttr().getInt(), getColsAttr().getInt(),
      getStrideAttr().getInt());
  if (std::optional<ArrayRef<int64_t>> pad = getPad()) {
    insn.yPad0 = at(*pad, 0);
    insn.yPad1 = at(*pad, 1);
    insn.xPad0 = at(*pad, 2);
    insn.xPad1 = at(*pad, 3);
  }
  return {insn, {}};
}

TileInstruction StoreTileOp::getTileInstruction() {
  return {Instruction::store(getSramAttr().getInt(), getDramAttr().getInt(),
                             getRowsAttr().getInt(), getColsAttr().getInt(),
                             getStrideAttr().getInt()),
          {}};
}

/// The loop fields GEMM and ALU share.
template <typename OpT>
static void setLoop(OpT op, Instruction &insn) {
  insn.iterOut = at(op.getLoops(), 0);
  insn.iterIn = at(op.getLoops(), 1);
  insn.dstFactorOut = at(op.getDst(), 0);
  insn.dstFactorIn = at(op.getDst(), 1);
  insn.srcFactorOut = at(op.getSrc(), 0);
  insn.srcFactorIn = at(op.getSrc(), 1);
}

TileInstruction GemmOp::getTileInstruction() {
  Instruction insn = Instruction::gemm(0, 0, 1, 1, getReset());
  setLoop(*this, insn);
  insn.wgtFactorOut = at(getWgt(), 0);
  insn.wgtFactorIn = at(getWgt(), 1);
  return {insn, getUopList(getUops())};
}

TileInstruction AluOp::getTileInstruction() {
  auto opcode = static_cast<AluOpcode>(getFunction());
  std::optional<int64_t> imm;
  if (IntegerAttr attr = getImmAttr())
    imm = attr.getInt();
  Instruction insn = imm ? Instruction::aluImm(opcode, *imm, 0, 0)
                         : Instruction::alu(opcode, 0, 0);
  setLoop(*this, insn);
  return {insn, getUopList(getUops())};
}

//===----------------------------------------------------------------------===//
// Verifiers
//===----------------------------------------------------------------------===//

/// The configuration of the program `op` belongs to (HasParent guarantees
/// the parent), or nullopt if it is invalid: the attribute's own verifier
/// reports that, and no field width is meaningful then.
static std::optional<Config> getProgramConfig(Operation *op) {
  Config config = cast<ProgramOp>(op->getParentOp()).getConfig().getConfig();
  if (!config.isValid())
    return std::nullopt;
  return config;
}

/// Reports each problem checkInstruction() finds as an error on `op`.
static LogicalResult checkFields(Operation *op, const Config &config,
                                 const Instruction &insn) {
  return success(checkInstruction(
      config, insn, [&](const Twine &message) { op->emitOpError(message); }));
}

static LogicalResult verifyTransfer(Operation *op, const Instruction &insn) {
  // An empty transfer is valid VTA, but a tile program has no use for one,
  // and assemble() would have no rows to order it by; a load of no DRAM
  // rows with y padding zero-fills its padding rows (as TVM-VTA's load
  // module does), which a schedule padding on the fly uses.
  bool zeroFill = insn.opcode == Opcode::Load && insn.ySize == 0 &&
                  insn.yPad0 + insn.yPad1 > 0;
  if (insn.ySize < 1 && !zeroFill)
    return op->emitOpError("rows = ") << insn.ySize << " must be at least 1";
  if (insn.xSize < 1)
    return op->emitOpError("cols = ") << insn.xSize << " must be at least 1";
  std::optional<Config> config = getProgramConfig(op);
  if (!config)
    return success();
  return checkFields(op, *config, insn);
}

LogicalResult LoadTileOp::verify() {
  if (std::optional<ArrayRef<int64_t>> pad = getPad(); pad && pad->size() != 4)
    return emitOpError("pad has ")
           << pad->size() << " entries, expected 4: [y0, y1, x0, x1]";
  return verifyTransfer(*this, getTileInstruction().insn);
}

LogicalResult StoreTileOp::verify() {
  return verifyTransfer(*this, getTileInstruction().insn);
}

/// Checks the loop nest and micro-ops of a GEMM or ALU op.
static LogicalResult
verifyLoop(Operation *op,
           ArrayRef<std::pair<StringRef, ArrayRef<int64_t>>> pairs,
           ArrayRef<int64_t> uopValues,
           llvm::function_ref<TileInstruction()> getTile) {
  for (auto [name, values] : pairs)
    if (values.size() != 2)
      return op->emitOpError() << name << " has " << values.size()
                               << " entries, expected 2: [outer, inner]";
  if (uopValues.empty())
    return op->emitOpError("has no micro-ops");
  if (uopValues.size() % 3 != 0)
    return op->emitOpError("micro-op list has ")
           << uopValues.size() << " values, not a multiple of 3";
  std::optional<Config> config = getProgramConfig(op);
  if (!config)
    return success();

  TileInstruction tile = getTile();
  uint64_t uopDepth = config->buffDepth(Buffer::Uop);
  if (tile.uops.size() > uopDepth)
    return op->emitOpError("has ")
           << tile.uops.size() << " micro-ops, more than the uop buffer's "
           << uopDepth << " rows";
  // The micro-op range is assemble()'s to choose; any valid one will do.
  Instruction insn = tile.insn;
  insn.uopBgn = 0;
  insn.uopEnd = 1;
  if (failed(checkFields(op, *config, insn)))
    return failure();
  bool uopsOk = true;
  for (auto [index, uop] : llvm::enumerate(tile.uops))
    uopsOk &= checkUop(*config, uop, [&](const Twine &message) {
      op->emitOpError("micro-op ") << index << ": " << message;
    });
  if (!uopsOk)
    return failure();

  for (const BufferRange &range : getBufferRanges(*config, tile)) {
    uint64_t depth = config->buffDepth(range.buffer);
    if (uint64_t(range.end) > depth)
      return op->emitOpError("reaches rows [")
             << range.begin << ", " << range.end << ") of the "
             << getBufferName(range.buffer) << " buffer, which has " << depth
             << " rows";
  }
  return success();
}

LogicalResult GemmOp::verify() {
  return verifyLoop(*this,
                    {{"loops", getLoops()},
                     {"dst", getDst()},
                     {"src", getSrc()},
                     {"wgt", getWgt()}},
                    getUops(), [&] { return getTileInstruction(); });
}

LogicalResult AluOp::verify() {
  return verifyLoop(
      *this, {{"loops", getLoops()}, {"dst", getDst()}, {"src", getSrc()}},
      getUops(), [&] { return getTileInstruction(); });
}

LogicalResult ProgramOp::verify() {
  if (std::optional<ArrayRef<int64_t>> sizes = getTileSizes())
    for (int64_t size : *sizes)
      if (size < 1)
        return emitOpError("tile_sizes must be positive, got ") << size;
  if (std::optional<uint64_t> threads = getVirtualThreads();
      threads && *threads != 1 && *threads != 2)
    return emitOpError("virtual_threads must be 1 or 2, got ")
           << int64_t(*threads);
  for (Operation &op : getBody().front())
    if (!isa<LoadTileOp, StoreTileOp, GemmOp, AluOp>(op))
      return op.emitOpError("is not a vta tile operation; a vta.program "
                            "holds vta.load_tile, vta.store_tile, vta.gemm "
                            "and vta.alu only");
  return success();
}

//===----------------------------------------------------------------------===//
// ProgramOp <-> TileProgram
//===----------------------------------------------------------------------===//

TileProgram ProgramOp::getTileProgram() {
  TileProgram program;
  program.config = getConfig().getConfig();
  if (std::optional<ArrayRef<int64_t>> sizes = getTileSizes())
    program.knobs.tileSizes.assign(sizes->begin(), sizes->end());
  if (IntegerAttr threads = getVirtualThreadsAttr())
    program.knobs.virtualThreads = threads.getInt();
  for (Operation &op : getBody().front())
    program.instructions.push_back(
        llvm::TypeSwitch<Operation *, TileInstruction>(&op)
            .Case<LoadTileOp, StoreTileOp, GemmOp, AluOp>(
                [](auto tileOp) { return tileOp.getTileInstruction(); }));
  return program;
}

namespace {
/// Builds the op of one tile instruction; the verifier checks the values
/// afterwards.
class TileBuilder {
public:
  TileBuilder(OpBuilder &builder, Location loc) : builder(builder), loc(loc) {}

  void build(const TileInstruction &tile) {
    const Instruction &insn = tile.insn;
    switch (insn.opcode) {
    case Opcode::Load: {
      auto op = createEmpty<LoadTileOp>();
      op.setMemory(static_cast<TileMemory>(insn.memoryType));
      setTransfer(op, insn);
      if (insn.yPad0 || insn.yPad1 || insn.xPad0 || insn.xPad1)
        op.setPad(
            ArrayRef<int64_t>{insn.yPad0, insn.yPad1, insn.xPad0, insn.xPad1});
      return;
    }
    case Opcode::Store:
      setTransfer(createEmpty<StoreTileOp>(), insn);
      return;
    case Opcode::Gemm: {
      auto op = createEmpty<GemmOp>();
      op.setReset(insn.resetReg);
      setLoop(op, tile);
      op.setWgt(ArrayRef<int64_t>{insn.wgtFactorOut, insn.wgtFactorIn});
      return;
    }
    case Opcode::Alu: {
      auto op = createEmpty<AluOp>();
      op.setFunction(static_cast<AluFunction>(insn.aluOpcode));
      if (insn.useImm)
        op.setImmAttr(builder.getI64IntegerAttr(insn.imm));
      setLoop(op, tile);
      return;
    }
    case Opcode::Finish:
      break;
    }
    // assemble() rejects these too; a builder has no way to report.
    llvm_unreachable("not a tile instruction");
  }

private:
  template <typename OpT>
  OpT createEmpty() {
    OperationState state(loc, OpT::getOperationName());
    return cast<OpT>(builder.create(state));
  }

  IntegerAttr i64(int64_t value) { return builder.getI64IntegerAttr(value); }

  template <typename OpT>
  void setTransfer(OpT op, const Instruction &insn) {
    op.setSramAttr(i64(insn.sramBase));
    op.setDramAttr(i64(insn.dramBase));
    op.setRowsAttr(i64(insn.ySize));
    op.setColsAttr(i64(insn.xSize));
    op.setStrideAttr(i64(insn.xStride));
  }

  template <typename OpT>
  void setLoop(OpT op, const TileInstruction &tile) {
    const Instruction &insn = tile.insn;
    op.setLoops(ArrayRef<int64_t>{insn.iterOut, insn.iterIn});
    op.setDst(ArrayRef<int64_t>{insn.dstFactorOut, insn.dstFactorIn});
    op.setSrc(ArrayRef<int64_t>{insn.srcFactorOut, insn.srcFactorIn});
    SmallVector<int64_t> values;
    for (const Uop &uop : tile.uops)
      values.append({uop.dstIdx, uop.srcIdx, uop.wgtIdx});
    op.setUops(values);
  }

  OpBuilder &builder;
  Location loc;
};
} // namespace

ProgramOp ProgramOp::createFrom(OpBuilder &builder, Location loc,
                                const TileProgram &program) {
  DenseI64ArrayAttr tileSizes;
  if (!program.knobs.tileSizes.empty())
    tileSizes = builder.getDenseI64ArrayAttr(program.knobs.tileSizes);
  auto op = ProgramOp::create(
      builder, loc, ConfigAttr::get(builder.getContext(), program.config),
      tileSizes, builder.getI64IntegerAttr(program.knobs.virtualThreads),
      /*sym_name=*/StringAttr(), /*dram=*/DramLayoutAttr());
  OpBuilder::InsertionGuard guard(builder);
  builder.setInsertionPointToStart(&op.getBody().emplaceBlock());
  TileBuilder tileBuilder(builder, loc);
  for (const TileInstruction &tile : program.instructions)
    tileBuilder.build(tile);
  return op;
}

//===----------------------------------------------------------------------===//
// LaunchOp
//===----------------------------------------------------------------------===//

LogicalResult LaunchOp::verify() {
  if (getOperands().size() != 2 && getOperands().size() != 3)
    return emitOpError("takes the GEMM's input and weight (and a bias), got ")
           << getOperands().size() << " operand(s)";
  for (Value operand : getOperands().take_front(2)) {
    auto type = cast<RankedTensorType>(operand.getType());
    if (!type.getElementType().isSignlessInteger(8) || !type.hasStaticShape())
      return emitOpError("operands must be static int8 tensors, got ")
             << operand.getType();
  }
  if (getOperands().size() == 3) {
    auto type = cast<RankedTensorType>(getOperands()[2].getType());
    if (!type.getElementType().isSignlessInteger(32) || !type.hasStaticShape())
      return emitOpError("the bias (third operand) must be a static int32 "
                         "tensor, got ")
             << type;
  }
  auto resultType = cast<RankedTensorType>(getResult().getType());
  if (!resultType.getElementType().isSignlessInteger(32) ||
      !resultType.hasStaticShape())
    return emitOpError("result must be a static int32 tensor, got ")
           << resultType;
  return success();
}

LogicalResult
LaunchOp::verifySymbolUses(SymbolTableCollection &symbolTable) {
  Operation *target =
      symbolTable.lookupNearestSymbolFrom(*this, getProgramAttr());
  auto program = dyn_cast_or_null<LaunchableProgram>(target);
  if (!program)
    return emitOpError("'") << getProgram()
                            << "' does not name a vta.program or "
                               "vta_isa.program";
  DramLayoutAttr layout = program.getDramLayout();
  if (!layout)
    return emitOpError("program '")
           << getProgram() << "' has no dram layout to launch it with";
  // The operand count and types are verify()'s; do not index past them.
  if (getOperands().size() != 2 && getOperands().size() != 3)
    return success();
  bool hasBiasOperand = getOperands().size() == 3;
  if (hasBiasOperand != layout.hasBias())
    return emitOpError("program '")
           << getProgram()
           << (layout.hasBias() ? "' adds a bias, which the launch must pass "
                                  "as a third operand"
                                : "' adds no bias, but the launch passes a "
                                  "third operand");
  if (hasBiasOperand) {
    int64_t biasElements = cast<RankedTensorType>(getOperands()[2].getType())
                               .getNumElements();
    if (biasElements != *layout.getBiasRows() * layout.getResultRowBytes())
      return emitOpError("bias has ")
             << biasElements << " elements but program '" << getProgram()
             << "' reads " << *layout.getBiasRows() << " rows of "
             << layout.getResultRowBytes() << " int32 elements";
  }
  // The result is read back as planes of result_rows x result_row_bytes
  // elements, in the result's row-major order.
  int64_t elements = cast<RankedTensorType>(getResult().getType())
                         .getNumElements();
  if (elements != layout.getResultRows() * layout.getResultRowBytes())
    return emitOpError("result has ")
           << elements << " elements but program '" << getProgram()
           << "' writes " << layout.getResultRows() << " rows of "
           << layout.getResultRowBytes() << " elements";
  auto bytes = [&](int64_t operand) {
    return cast<RankedTensorType>(getOperand(operand).getType())
        .getNumElements();
  };
  // The layout's verifier keeps the offsets inside the image, so these
  // differences do not overflow.
  if (bytes(layout.getInputOperand()) >
          layout.getSize() - layout.getInputOffset() ||
      bytes(layout.getWeightOperand()) >
          layout.getSize() - layout.getWeightOffset())
    return emitOpError("operands do not fit the ")
           << layout.getSize() << "-byte DRAM image of program '"
           << getProgram() << "'";
  return success();
}
