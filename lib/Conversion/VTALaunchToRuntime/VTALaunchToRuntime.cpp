//===- VTALaunchToRuntime.cpp - --convert-vta-launch-to-runtime -----------===//
//
// The host side of a VTA launch as TVM-VTA's runtime does it on the ARM
// host (`vta/runtime/runtime.cc`): the program is a binary in the host
// program's constant data, and running it is a call of the runtime, which
// copies the operands into DRAM, runs the accelerator and copies the result
// back (raf/Runtime/VTARuntime.h). Here the call is on buffers taken from
// and given back to tensors, so that the CPU pipeline's one-shot
// bufferization treats it like any other buffer code.
//
//===----------------------------------------------------------------------===//

#include "raf/Conversion/Passes.h"

#include "raf/Dialect/VTA/IR/VTAOps.h"
#include "raf/Dialect/VTAISA/IR/VTAISAOps.h"
#include "raf/Support/ResourceLimits.h"
#include "raf/Target/VTA/BinaryFormat.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/SymbolTable.h"

#include "llvm/ADT/DenseMap.h"

namespace raf {
#define GEN_PASS_DEF_CONVERTVTALAUNCHTORUNTIME
#include "raf/Conversion/Passes.h.inc"
} // namespace raf

using namespace mlir;
using namespace raf;

/// The names of the C entry points (raf::runtime::VTALaunchFunctionName and
/// VTALaunchBiasedFunctionName; the conversion does not link the runtime).
static constexpr llvm::StringLiteral kLaunchFunction = "rafVTALaunch";
static constexpr llvm::StringLiteral kLaunchBiasedFunction =
    "rafVTALaunchBiased";

namespace {

/// The globals of one program: its binary and its name.
struct ProgramGlobals {
  memref::GlobalOp binary;
  memref::GlobalOp name;
};

/// A private constant rank-1 i8 global holding `bytes`.
memref::GlobalOp createByteGlobal(OpBuilder &builder, Location loc,
                                  SymbolTable &symbols, StringRef name,
                                  ArrayRef<char> bytes) {
  auto type = MemRefType::get({static_cast<int64_t>(bytes.size())},
                              builder.getI8Type());
  auto tensorType =
      RankedTensorType::get(type.getShape(), type.getElementType());
  auto global = memref::GlobalOp::create(
      builder, loc, name, builder.getStringAttr("private"), type,
      DenseElementsAttr::getFromRawBuffer(tensorType, bytes),
      /*constant=*/true, /*alignment=*/IntegerAttr());
  symbols.insert(global);
  return global;
}

/// The runtime's entry point, declared once:
///   func.func private @rafVTALaunch(binary, name, input, weight, result,
///       input_offset, weight_offset, result_offset, result_planes, size)
/// or, for programs with a fused bias,
///   func.func private @rafVTALaunchBiased(binary, name, input, weight, bias,
///       result, input_offset, weight_offset, bias_offset, result_offset,
///       result_planes, size)
/// A module symbol of that name that is not this declaration is an error:
/// inserting ours would rename it and the JIT would not find the runtime.
FailureOr<func::FuncOp> getLaunchFunction(ModuleOp module, SymbolTable &symbols,
                                          bool biased) {
  OpBuilder builder = OpBuilder::atBlockEnd(module.getBody());
  Type i8 = builder.getI8Type(), i64 = builder.getI64Type();
  auto bytes = UnrankedMemRefType::get(i8, /*memorySpace=*/0);
  auto words = UnrankedMemRefType::get(builder.getI32Type(), 0);
  StringRef name = biased ? kLaunchBiasedFunction : kLaunchFunction;
  auto type =
      biased ? builder.getFunctionType({bytes, bytes, bytes, bytes, words,
                                        words, i64, i64, i64, i64, i64, i64},
                                       {})
             : builder.getFunctionType(
                   {bytes, bytes, bytes, bytes, words, i64, i64, i64, i64, i64},
                   {});
  if (Operation *existing = symbols.lookup(name)) {
    auto function = dyn_cast<func::FuncOp>(existing);
    if (function && function.getFunctionType() == type)
      return function;
    return existing->emitError("symbol '")
           << name
           << "' is the VTA runtime's launch entry point; expected a "
              "func.func of type "
           << type;
  }
  auto function = func::FuncOp::create(builder, module.getLoc(), name, type);
  function.setPrivate();
  // Called through MLIR's C interface: each memref as a pointer to its
  // (unranked) descriptor.
  function->setAttr("llvm.emit_c_interface", builder.getUnitAttr());
  symbols.insert(function);
  return function;
}

/// A memref of `type`'s shape with any strides and offset: every buffer
/// one-shot bufferization may give the operand casts to it without a copy.
MemRefType getAnyLayoutType(RankedTensorType type) {
  SmallVector<int64_t> strides(type.getRank(), ShapedType::kDynamic);
  auto layout = StridedLayoutAttr::get(type.getContext(), ShapedType::kDynamic,
                                       strides);
  return MemRefType::get(type.getShape(), type.getElementType(), layout);
}

struct ConvertVTALaunchToRuntimePass
    : public raf::impl::ConvertVTALaunchToRuntimeBase<
          ConvertVTALaunchToRuntimePass> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    SymbolTable symbols(module);
    SmallVector<vta::LaunchOp> launches;
    module.walk([&](vta::LaunchOp launch) { launches.push_back(launch); });
    llvm::DenseMap<Operation *, ProgramGlobals> globals;
    bool failedAny = false;
    for (vta::LaunchOp launch : launches) {
      Operation *target = symbols.lookup(launch.getProgram());
      auto program = dyn_cast_or_null<vta_isa::ProgramOp>(target);
      if (!program) {
        launch.emitError("'")
            << launch.getProgram()
            << "' is not an assembled vta_isa.program (run "
               "--convert-vta-to-vta-isa first)";
        failedAny = true;
        continue;
      }
      vta::DramLayoutAttr layout = program.getDramAttr();
      if (!layout) {
        launch.emitError("program '")
            << launch.getProgram() << "' has no dram layout";
        failedAny = true;
        continue;
      }
      // The simulated DRAM is checked like raf-vta-sim's (--max-dram-bytes),
      // when the host code is compiled rather than when it runs.
      if (std::optional<std::string> problem = checkResourceLimit(
              ResourceLimit::DRAMBytes,
              static_cast<uint64_t>(layout.getSize()))) {
        launch.emitError("cannot simulate the launch's DRAM image: ")
            << *problem;
        failedAny = true;
        continue;
      }
      auto [entry, inserted] = globals.try_emplace(program);
      if (inserted) {
        llvm::Expected<std::vector<uint8_t>> binary =
            vta::writeBinary(program.getProgram());
        if (!binary) {
          program.emitError("cannot encode the program: ")
              << llvm::toString(binary.takeError());
          failedAny = true;
          continue;
        }
        OpBuilder builder(program);
        StringRef name = launch.getProgram();
        entry->second.binary = createByteGlobal(
            builder, program.getLoc(), symbols, (name + "_binary").str(),
            ArrayRef<char>(reinterpret_cast<const char *>(binary->data()),
                           binary->size()));
        entry->second.name = createByteGlobal(
            builder, program.getLoc(), symbols, (name + "_name").str(),
            ArrayRef<char>(name.data(), name.size()));
      }
      if (!entry->second.binary)
        continue;
      FailureOr<func::FuncOp> launchFunction =
          getLaunchFunction(module, symbols, layout.hasBias());
      if (failed(launchFunction))
        return signalPassFailure();
      rewriteLaunch(launch, entry->second, layout, *launchFunction);
    }
    if (failedAny)
      return signalPassFailure();
    // The programs now live in the globals; what remains is host code.
    SmallVector<Operation *> programs;
    for (Operation &op : module.getOps())
      if (isa<vta::ProgramOp, vta_isa::ProgramOp>(op))
        programs.push_back(&op);
    for (Operation *op : programs)
      op->erase();
  }

  /// %binary = memref.get_global @<program>_binary, likewise the name;
  /// %in = bufferization.to_buffer %input read_only (and the weight);
  /// %out = memref.alloc(); call @rafVTALaunch(casts to unranked, offsets);
  /// %result = bufferization.to_tensor %out restrict writable.
  void rewriteLaunch(vta::LaunchOp launch, const ProgramGlobals &program,
                     vta::DramLayoutAttr layout, func::FuncOp callee) {
    OpBuilder builder(launch);
    Location loc = launch.getLoc();
    auto unranked = [&](Value memref) -> Value {
      auto type = cast<MemRefType>(memref.getType());
      return memref::CastOp::create(
          builder, loc, UnrankedMemRefType::get(type.getElementType(), 0),
          memref);
    };
    auto global = [&](memref::GlobalOp op) {
      return unranked(memref::GetGlobalOp::create(builder, loc, op.getType(),
                                                  op.getSymName()));
    };
    auto operand = [&](int64_t index) {
      Value tensor = launch.getOperands()[index];
      auto type = cast<RankedTensorType>(tensor.getType());
      return unranked(bufferization::ToBufferOp::create(
          builder, loc, getAnyLayoutType(type), tensor, /*read_only=*/true));
    };
    auto constant = [&](int64_t value) -> Value {
      return arith::ConstantIntOp::create(builder, loc, value, 64);
    };
    auto resultType = cast<RankedTensorType>(launch.getResult().getType());
    Value out = memref::AllocOp::create(
        builder, loc,
        MemRefType::get(resultType.getShape(), resultType.getElementType()));
    SmallVector<Value> arguments = {
        global(program.binary), global(program.name),
        operand(layout.getInputOperand()), operand(layout.getWeightOperand())};
    // A fused bias: its rows (the launch's third operand) and offset.
    if (layout.hasBias())
      arguments.push_back(operand(2));
    arguments.append(
        {unranked(out), constant(layout.getInputOffset()),
         constant(layout.getWeightOffset())});
    if (layout.hasBias())
      arguments.push_back(constant(*layout.getBiasOffset()));
    arguments.append({constant(layout.getResultOffset()),
                      constant(layout.getResultPlanes()),
                      constant(layout.getSize())});
    func::CallOp::create(builder, loc, callee, arguments);
    Value result = bufferization::ToTensorOp::create(
        builder, loc, resultType, out, /*restrict=*/builder.getUnitAttr(),
        /*writable=*/builder.getUnitAttr());
    launch.getResult().replaceAllUsesWith(result);
    launch.erase();
  }
};

} // namespace
