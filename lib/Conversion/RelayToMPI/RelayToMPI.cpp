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
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/DLTI/DLTI.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/MPI/IR/MPI.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
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

constexpr llvm::StringLiteral kCommRankHelperAttr = "raf.mpi_comm_rank";

/// `func.func private @raf_mpi_comm_rank() -> i32`, given its
/// mpi.comm_rank body by --raf-convert-mpi-to-llvm.
func::FuncOp getCommRankHelper(ModuleOp module) {
  constexpr llvm::StringLiteral name = "raf_mpi_comm_rank";
  if (auto existing = module.lookupSymbol<func::FuncOp>(name))
    return existing;
  OpBuilder builder = OpBuilder::atBlockEnd(module.getBody());
  auto helper = func::FuncOp::create(
      builder, module.getLoc(), name,
      builder.getFunctionType({}, {builder.getI32Type()}));
  helper.setPrivate();
  helper->setAttr(kCommRankHelperAttr, builder.getUnitAttr());
  return helper;
}

/// The sum of tensor `x` over the ranks:
///   %in = bufferization.to_buffer %x read_only
///   %out = memref.alloc()
///   call @raf_mpi_allreduce_sum_...(%in, %out)
///   bufferization.to_tensor %out restrict writable
/// on buffers flattened to one dimension.
Value emitAllreduceSum(OpBuilder &builder, Location loc, ModuleOp module,
                       Value x) {
  auto type = cast<RankedTensorType>(x.getType());
  // MLIR 22's MPI to LLVM lowering counts the elements of dimension 0
  // only: the buffers are one-dimensional (relay.reshape around the call).
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
  return result;
}

/// `x * (1 / worldSize)` (a relay multiply by a rank-0 constant).
Value emitScale(OpBuilder &builder, Location loc, Value x, int64_t worldSize) {
  auto type = cast<RankedTensorType>(x.getType());
  auto floatType = cast<FloatType>(type.getElementType());
  llvm::APFloat scale(1.0 / static_cast<double>(worldSize));
  bool losesInfo;
  scale.convert(floatType.getFloatSemantics(),
                llvm::APFloat::rmNearestTiesToEven, &losesInfo);
  auto scalarType = RankedTensorType::get({}, floatType);
  Value constant = relay::ConstantOp::create(
      builder, loc, scalarType, DenseElementsAttr::get(scalarType, scale));
  return relay::MultiplyOp::create(builder, loc, type, x, constant);
}

/// This process's rank as an index.
Value emitRank(OpBuilder &builder, Location loc, ModuleOp module) {
  Value rank =
      func::CallOp::create(builder, loc, getCommRankHelper(module), ValueRange{})
          .getResult(0);
  return arith::IndexCastOp::create(builder, loc, builder.getIndexType(),
                                    rank);
}

/// Offsets, sizes and strides of the block of dimension 0 that starts at
/// `offset` and has `type`'s shape.
void blockOf(OpBuilder &builder, RankedTensorType type, Value offset,
             SmallVectorImpl<OpFoldResult> &offsets,
             SmallVectorImpl<OpFoldResult> &sizes,
             SmallVectorImpl<OpFoldResult> &strides) {
  for (int64_t d = 0; d < type.getRank(); ++d) {
    offsets.push_back(d == 0 ? OpFoldResult(offset)
                             : OpFoldResult(builder.getIndexAttr(0)));
    sizes.push_back(builder.getIndexAttr(type.getDimSize(d)));
    strides.push_back(builder.getIndexAttr(1));
  }
}

Value emitZeros(OpBuilder &builder, Location loc, RankedTensorType type) {
  return arith::ConstantOp::create(
      builder, loc, type, cast<TypedAttr>(builder.getZeroAttr(type)));
}

/// Lowers one collective. MPI 22's dialect has only allreduce, so the
/// others are built on it (each rank sends the whole buffer, N times a
/// direct MPI_Reduce_scatter_block/MPI_Allgather/MPI_Bcast's data):
///   reduce_scatter = allreduce, then the rank's block (extract_slice);
///   allgather      = the rank's block inserted into zeros, then allreduce;
///   broadcast      = the root's operand, zeros elsewhere, then allreduce.
/// Sums with zeros are exact (up to the sign of a zero).
LogicalResult lowerCollective(Operation *op) {
  auto module = op->getParentOfType<ModuleOp>();
  OpBuilder builder(op);
  Location loc = op->getLoc();
  Value x = op->getOperand(0);
  auto type = cast<RankedTensorType>(x.getType());
  auto resultType = cast<RankedTensorType>(op->getResult(0).getType());
  if (!type.hasStaticShape() || !resultType.hasStaticShape())
    return op->emitError("lowering to MPI needs static shapes, got ") << type;
  Value result;
  if (auto allreduce = dyn_cast<relay::AllreduceOp>(op)) {
    result = emitAllreduceSum(builder, loc, module, x);
    if (allreduce.getReduction() == "avg")
      result = emitScale(builder, loc, result, allreduce.getWorldSize());
  } else if (auto scatter = dyn_cast<relay::ReduceScatterOp>(op)) {
    Value sum = emitAllreduceSum(builder, loc, module, x);
    Value block = arith::ConstantIndexOp::create(builder, loc,
                                                 resultType.getDimSize(0));
    Value offset = arith::MulIOp::create(builder, loc,
                                         emitRank(builder, loc, module), block);
    SmallVector<OpFoldResult> offsets, sizes, strides;
    blockOf(builder, resultType, offset, offsets, sizes, strides);
    result = tensor::ExtractSliceOp::create(builder, loc, resultType, sum,
                                            offsets, sizes, strides);
    if (scatter.getReduction() == "avg")
      result = emitScale(builder, loc, result, scatter.getWorldSize());
  } else if (isa<relay::AllgatherOp>(op)) {
    Value block =
        arith::ConstantIndexOp::create(builder, loc, type.getDimSize(0));
    Value offset = arith::MulIOp::create(builder, loc,
                                         emitRank(builder, loc, module), block);
    SmallVector<OpFoldResult> offsets, sizes, strides;
    blockOf(builder, type, offset, offsets, sizes, strides);
    Value placed = tensor::InsertSliceOp::create(
        builder, loc, x, emitZeros(builder, loc, resultType), offsets, sizes,
        strides);
    result = emitAllreduceSum(builder, loc, module, placed);
  } else {
    auto broadcast = cast<relay::CommBroadcastOp>(op);
    Value root =
        arith::ConstantIndexOp::create(builder, loc, broadcast.getRoot());
    Value isRoot = arith::CmpIOp::create(builder, loc, arith::CmpIPredicate::eq,
                                         emitRank(builder, loc, module), root);
    Value own = arith::SelectOp::create(builder, loc, isRoot, x,
                                        emitZeros(builder, loc, type));
    result = emitAllreduceSum(builder, loc, module, own);
  }
  op->getResult(0).replaceAllUsesWith(result);
  op->erase();
  return success();
}

struct RafLowerCollectivesToMPIPass
    : public raf::impl::RafLowerCollectivesToMPIBase<RafLowerCollectivesToMPIPass> {
  using Base::Base;

  void getDependentDialects(DialectRegistry &registry) const override {
    registry.insert<arith::ArithDialect, bufferization::BufferizationDialect,
                    DLTIDialect, func::FuncDialect, memref::MemRefDialect,
                    mpi::MPIDialect, relay::RelayDialect,
                    tensor::TensorDialect>();
  }

  void runOnOperation() override {
    ModuleOp module = getOperation();
    SmallVector<Operation *> collectives;
    module.walk([&](Operation *op) {
      if (isa<relay::AllreduceOp, relay::ReduceScatterOp, relay::AllgatherOp,
              relay::CommBroadcastOp>(op))
        collectives.push_back(op);
    });
    if (collectives.empty())
      return;
    for (Operation *op : collectives)
      if (failed(lowerCollective(op)))
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
    for (auto helper : module.getOps<func::FuncOp>()) {
      if (!helper->hasAttr(kCommRankHelperAttr) || !helper.isExternal())
        continue;
      Block *body = helper.addEntryBlock();
      OpBuilder builder = OpBuilder::atBlockEnd(body);
      Location loc = helper.getLoc();
      Value comm = mpi::CommWorldOp::create(
          builder, loc, mpi::CommType::get(&getContext()));
      Value rank = mpi::CommRankOp::create(builder, loc, /*retval=*/Type(),
                                           builder.getI32Type(), comm)
                       .getRank();
      func::ReturnOp::create(builder, loc, rank);
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
