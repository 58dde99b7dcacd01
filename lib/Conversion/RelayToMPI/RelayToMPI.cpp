//===- RelayToMPI.cpp - relay collectives to MLIR's mpi dialect -----------===//
//
// --raf-lower-collectives-to-mpi and --raf-convert-mpi-to-llvm: the CPU path
// of the relay collectives (docs/data-parallel.md). MLIR 22's mpi dialect
// has allreduce but no reduce-scatter, allgather or broadcast, so only
// relay.comm.allreduce is lowered so far; the others are reported as not
// implemented.
//
//===----------------------------------------------------------------------===//

#include "raf/Conversion/Passes.h"

#include "raf/Dialect/Relay/IR/RelayOps.h"

#include "mlir/Conversion/LLVMCommon/TypeConverter.h"
#include "mlir/Conversion/MPIToLLVM/MPIToLLVM.h"
#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/DLTI/DLTI.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/MPI/IR/MPI.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/AsmParser/AsmParser.h"
#include "mlir/Transforms/DialectConversion.h"

namespace raf {
#define GEN_PASS_DEF_RAFLOWERCOLLECTIVESTOMPI
#define GEN_PASS_DEF_RAFCONVERTMPITOLLVM
#include "raf/Conversion/Passes.h.inc"
} // namespace raf

using namespace mlir;
namespace relay = raf::relay;

namespace {

constexpr llvm::StringLiteral kMPIImplementation =
    "#dlti.map<\"MPI:Implementation\" = \"OpenMPI\">";

constexpr llvm::StringLiteral kAllreduceHelperAttr = "raf.mpi_allreduce_sum";

/// The private function `(memref in, memref out) -> ()` that sums `in` over
/// the ranks into `out`, declared once per buffer type. It stays a
/// declaration until --raf-convert-mpi-to-llvm gives it its body (the
/// mpi.allreduce), after buffer deallocation: that pipeline rejects ops
/// without declared memory effects, which mpi.allreduce is.
func::FuncOp getAllreduceHelper(ModuleOp module, MemRefType type) {
  std::string name = "raf_mpi_allreduce_sum_";
  llvm::raw_string_ostream os(name);
  for (int64_t size : type.getShape())
    os << size << "x";
  os << type.getElementType();
  if (auto existing = module.lookupSymbol<func::FuncOp>(name))
    return existing;
  OpBuilder builder = OpBuilder::atBlockEnd(module.getBody());
  auto helper = func::FuncOp::create(
      builder, module.getLoc(), name,
      builder.getFunctionType({type, type}, {}));
  helper.setPrivate();
  helper->setAttr(kAllreduceHelperAttr, builder.getUnitAttr());
  return helper;
}

/// `relay.comm.allreduce %x {reduction = "sum"}` as
///   %in = bufferization.to_buffer %x read_only
///   %out = memref.alloc()
///   call @raf_mpi_allreduce_sum_...(%in, %out)
///   %r = bufferization.to_tensor %out restrict writable
/// and "avg" as that sum times 1 / world_size.
LogicalResult lowerAllreduce(relay::AllreduceOp op) {
  auto module = op->getParentOfType<ModuleOp>();
  OpBuilder builder(op);
  Location loc = op.getLoc();
  auto type = cast<RankedTensorType>(op.getX().getType());
  if (!type.hasStaticShape())
    return op.emitError("lowering to MPI needs a static shape, got ") << type;
  // MLIR 22's MPI to LLVM lowering counts the elements of dimension 0
  // only: the buffers are one-dimensional (relay.reshape around the call).
  Value x = op.getX();
  auto flatType =
      RankedTensorType::get({type.getNumElements()}, type.getElementType());
  if (type.getRank() != 1)
    x = relay::ReshapeOp::create(
        builder, loc, flatType, x,
        builder.getDenseI64ArrayAttr({type.getNumElements()}));
  auto memrefType =
      MemRefType::get(flatType.getShape(), type.getElementType());
  Value in = bufferization::ToBufferOp::create(builder, loc, memrefType, x,
                                               /*read_only=*/true);
  Value out = memref::AllocOp::create(builder, loc, memrefType);
  func::FuncOp helper = getAllreduceHelper(module, memrefType);
  func::CallOp::create(builder, loc, helper, ValueRange{in, out});
  Value result = bufferization::ToTensorOp::create(
      builder, loc, flatType, out, /*restrict=*/builder.getUnitAttr(),
      /*writable=*/builder.getUnitAttr());
  if (type.getRank() != 1)
    result = relay::ReshapeOp::create(
        builder, loc, type, result,
        builder.getDenseI64ArrayAttr(type.getShape()));
  if (op.getReduction() == "avg") {
    auto floatType = cast<FloatType>(type.getElementType());
    llvm::APFloat scale(1.0 / static_cast<double>(op.getWorldSize()));
    bool losesInfo;
    scale.convert(floatType.getFloatSemantics(),
                  llvm::APFloat::rmNearestTiesToEven, &losesInfo);
    auto scalarType = RankedTensorType::get({}, floatType);
    Value constant = relay::ConstantOp::create(
        builder, loc, scalarType, DenseElementsAttr::get(scalarType, scale));
    result = relay::MultiplyOp::create(builder, loc, type, result, constant);
  }
  op.getResult().replaceAllUsesWith(result);
  op.erase();
  return success();
}

struct RafLowerCollectivesToMPIPass
    : public raf::impl::RafLowerCollectivesToMPIBase<RafLowerCollectivesToMPIPass> {
  using Base::Base;

  void getDependentDialects(DialectRegistry &registry) const override {
    registry.insert<bufferization::BufferizationDialect, DLTIDialect,
                    func::FuncDialect, memref::MemRefDialect,
                    mpi::MPIDialect, relay::RelayDialect>();
  }

  void runOnOperation() override {
    ModuleOp module = getOperation();
    SmallVector<relay::AllreduceOp> allreduces;
    WalkResult walk = module.walk([&](Operation *op) {
      if (auto allreduce = dyn_cast<relay::AllreduceOp>(op)) {
        allreduces.push_back(allreduce);
        return WalkResult::advance();
      }
      if (isa<relay::ReduceScatterOp, relay::AllgatherOp,
              relay::CommBroadcastOp>(op)) {
        op->emitError("'")
            << op->getName()
            << "' has no MPI lowering yet (only relay.comm.allreduce "
               "runs on --target=cpu; docs/data-parallel.md)";
        return WalkResult::interrupt();
      }
      return WalkResult::advance();
    });
    if (walk.wasInterrupted())
      return signalPassFailure();
    if (allreduces.empty())
      return;
    for (relay::AllreduceOp op : allreduces)
      if (failed(lowerAllreduce(op)))
        return signalPassFailure();
    Attribute implementation =
        parseAttribute(kMPIImplementation, module.getContext());
    if (!implementation) {
      module.emitError("cannot build the MPI implementation attribute");
      return signalPassFailure();
    }
    module->setAttr("dlti.map", implementation);
  }
};

struct RafConvertMPIToLLVMPass
    : public raf::impl::RafConvertMPIToLLVMBase<RafConvertMPIToLLVMPass> {
  using Base::Base;

  void getDependentDialects(DialectRegistry &registry) const override {
    registry.insert<LLVM::LLVMDialect, mpi::MPIDialect>();
  }

  void runOnOperation() override {
    ModuleOp module = getOperation();
    // Bodies of the allreduce helpers --raf-lower-collectives-to-mpi
    // declared.
    for (auto helper : module.getOps<func::FuncOp>()) {
      if (!helper->hasAttr(kAllreduceHelperAttr) || !helper.isExternal())
        continue;
      Block *body = helper.addEntryBlock();
      OpBuilder builder = OpBuilder::atBlockEnd(body);
      Location loc = helper.getLoc();
      Value comm = mpi::CommWorldOp::create(
          builder, loc, mpi::CommType::get(&getContext()));
      mpi::AllReduceOp::create(
          builder, loc, /*retval=*/Type(), body->getArgument(0),
          body->getArgument(1),
          mpi::MPI_ReductionOpEnumAttr::get(
              &getContext(), mpi::MPI_ReductionOpEnum::MPI_SUM),
          comm);
      func::ReturnOp::create(builder, loc);
    }
    bool hasMPI = false;
    module.walk([&](Operation *op) {
      if (isa<mpi::MPIDialect>(op->getDialect()))
        hasMPI = true;
    });
    if (!hasMPI)
      return;
    LLVMTypeConverter converter(&getContext());
    RewritePatternSet patterns(&getContext());
    mpi::populateMPIToLLVMConversionPatterns(converter, patterns);
    ConversionTarget target(getContext());
    target.addIllegalDialect<mpi::MPIDialect>();
    target.markUnknownOpDynamicallyLegal([](Operation *) { return true; });
    if (failed(applyPartialConversion(module, target, std::move(patterns))))
      return signalPassFailure();
    // MLIR 22's OpenMPI ABI names the predefined reduction handles
    // `ompi_mpi_<op>`, but OpenMPI exports them as `ompi_mpi_op_<op>`
    // (MPI_SUM is &ompi_mpi_op_sum in OpenMPI's mpi.h).
    for (auto global :
         llvm::make_early_inc_range(module.getOps<LLVM::GlobalOp>())) {
      StringRef name = global.getSymName();
      static constexpr llvm::StringLiteral reductions[] = {
          "max",  "min",  "sum",  "prod", "land",   "band",   "lor",
          "bor",  "lxor", "bxor", "minloc", "maxloc", "replace"};
      if (!name.consume_front("ompi_mpi_") ||
          !llvm::is_contained(reductions, name))
        continue;
      std::string fixed = ("ompi_mpi_op_" + name).str();
      if (failed(SymbolTable::replaceAllSymbolUses(
              global, StringAttr::get(&getContext(), fixed), module)))
        return signalPassFailure();
      SymbolTable::setSymbolName(global, fixed);
    }
  }
};

} // namespace
