//===- RelayToMPI.cpp - relay collectives to MLIR's mpi dialect -----------===//
//
// --raf-lower-collectives-to-mpi and --raf-convert-mpi-to-llvm: the CPU path
// of the relay collectives (docs/data-parallel.md). MLIR 22's mpi dialect
// has a blocking allreduce but no reduce-scatter, allgather or broadcast
// and no non-blocking collective: those are direct calls of the MPI library
// (the all-reduce and reduce-scatter of f32, f64 and i8..i64 buffers and
// every allgather non-blocking, MPI_Iallreduce, MPI_Ireduce_scatter_block
// and MPI_Iallgather waited on before the result's first use).
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
#include "llvm/Support/MathExtras.h"

#include <limits>

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

/// The attribute that marks a helper declared by
/// --raf-lower-collectives-to-mpi; its value names the body that
/// --raf-convert-mpi-to-llvm gives it.
constexpr llvm::StringLiteral kHelperAttr = "raf.mpi_helper";
/// The root rank of a broadcast helper.
constexpr llvm::StringLiteral kRootAttr = "raf.mpi_root";

/// The bodies of the helpers (one per kind and buffer types):
///   allreduce_sum(in, out):      mpi.allreduce(in, out, MPI_SUM)
///   broadcast(in, out):          out = in; MPI_Bcast(out, root)
///   comm_rank() -> i32:          mpi.comm_rank
///   iallreduce_sum(in, out, request): out = in;
///                                MPI_Iallreduce(MPI_IN_PLACE, out, ...)
///   ireduce_scatter_sum(in, out, request):
///                                MPI_Ireduce_scatter_block(in, out, ...)
///   iallgather(in, out, request): MPI_Iallgather(in, ..., out, ...)
///   wait(request[, in]):         MPI_Wait(request, MPI_STATUS_IGNORE); `in`
///                                is the started collective's send buffer,
///                                passed only to keep it alive until here
enum class HelperKind { AllreduceSum, Broadcast, CommRank, IallreduceSum, IreduceScatterSum,
                        Iallgather, Wait };

StringRef getHelperName(HelperKind kind) {
  switch (kind) {
  case HelperKind::AllreduceSum:
    return "allreduce_sum";
  case HelperKind::Broadcast:
    return "broadcast";
  case HelperKind::CommRank:
    return "comm_rank";
  case HelperKind::IallreduceSum:
    return "iallreduce_sum";
  case HelperKind::IreduceScatterSum:
    return "ireduce_scatter_sum";
  case HelperKind::Iallgather:
    return "iallgather";
  case HelperKind::Wait:
    return "wait";
  }
  llvm_unreachable("unknown helper kind");
}

/// The private function `@raf_mpi_<kind>[_<buffer types>][_root<r>]` of type
/// `type`, declared once. It stays a declaration until
/// --raf-convert-mpi-to-llvm gives it its body, after buffer deallocation:
/// that pipeline rejects ops without declared memory effects, which the mpi
/// ops and the MPI calls are.
func::FuncOp getHelper(ModuleOp module, HelperKind kind, FunctionType type,
                       std::optional<int64_t> root = std::nullopt) {
  std::string name = ("raf_mpi_" + getHelperName(kind)).str();
  llvm::raw_string_ostream os(name);
  // The buffer types: `_<in>`, or `_<in>_to_<out>` when they differ.
  for (auto [index, buffer] : llvm::enumerate(type.getInputs())) {
    if (index > 0 && buffer == type.getInput(0))
      continue;
    os << (index == 0 ? "_" : "_to_");
    for (int64_t size : cast<MemRefType>(buffer).getShape())
      os << size << "x";
    os << cast<MemRefType>(buffer).getElementType();
  }
  if (root)
    os << "_root" << *root;
  if (auto existing = module.lookupSymbol<func::FuncOp>(name))
    return existing;
  OpBuilder builder = OpBuilder::atBlockEnd(module.getBody());
  auto helper = func::FuncOp::create(builder, module.getLoc(), name, type);
  helper.setPrivate();
  helper->setAttr(kHelperAttr, builder.getStringAttr(getHelperName(kind)));
  if (root)
    helper->setAttr(kRootAttr, builder.getI64IntegerAttr(*root));
  return helper;
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

/// This process's block of dimension 0 of `x` (no communication).
Value emitShard(OpBuilder &builder, Location loc, ModuleOp module, Value x,
                RankedTensorType resultType) {
  func::FuncOp rankHelper = getHelper(
      module, HelperKind::CommRank,
      builder.getFunctionType({}, {builder.getI32Type()}));
  Value rank = func::CallOp::create(builder, loc, rankHelper, ValueRange{})
                   .getResult(0);
  rank = arith::IndexCastOp::create(builder, loc, builder.getIndexType(),
                                    rank);
  Value block =
      arith::ConstantIndexOp::create(builder, loc, resultType.getDimSize(0));
  Value offset = arith::MulIOp::create(builder, loc, rank, block);
  SmallVector<OpFoldResult> offsets, sizes, strides;
  for (int64_t d = 0; d < resultType.getRank(); ++d) {
    offsets.push_back(d == 0 ? OpFoldResult(offset)
                             : OpFoldResult(builder.getIndexAttr(0)));
    sizes.push_back(builder.getIndexAttr(resultType.getDimSize(d)));
    strides.push_back(builder.getIndexAttr(1));
  }
  return tensor::ExtractSliceOp::create(builder, loc, resultType, x, offsets,
                                        sizes, strides);
}

/// The MPI datatype handle of element type `type` in OpenMPI's ABI, for the
/// reductions (allgather and broadcast move bytes).
std::optional<StringRef> getOpenMPIDatatype(Type type) {
  if (type.isF32())
    return StringRef("ompi_mpi_float");
  if (type.isF64())
    return StringRef("ompi_mpi_double");
  if (type.isSignlessInteger(8))
    return StringRef("ompi_mpi_int8_t");
  if (type.isSignlessInteger(16))
    return StringRef("ompi_mpi_int16_t");
  if (type.isSignlessInteger(32))
    return StringRef("ompi_mpi_int32_t");
  if (type.isSignlessInteger(64))
    return StringRef("ompi_mpi_int64_t");
  return std::nullopt;
}

/// The collective `kind` of `op`'s operand `x` into a tensor of `op`'s
/// result type, on buffers flattened to one dimension (MLIR 22's MPI to
/// LLVM lowering counts the elements of dimension 0 only; blocks of
/// dimension 0 are contiguous in the row-major buffers, so the flattened
/// reduce-scatter and allgather keep their meaning):
///   %in = bufferization.to_buffer %x read_only
///   %out = memref.alloc()[; %request = memref.alloc() : memref<1xi64>]
///   call @raf_mpi_<kind>_...(%in, %out[, %request])
/// where the collective is. A blocking kind (allreduce_sum, broadcast) is
/// then done; a non-blocking one (MPI 4.0 §6.12: iallreduce_sum,
/// ireduce_scatter_sum, iallgather, with a request) is waited on right
/// before the first op that uses its result (as late as possible):
///   call @raf_mpi_wait_...(%request[, %in])
/// so the ops in between, such as the rest of the backward pass or the other
/// parameters' updates, run while the collective is in flight. MPI reads the
/// send buffer until the wait: the all-reduce's start copies the operand
/// into %out and reduces in place (MPI_IN_PLACE), so MPI only touches %out,
/// which nothing else refers to before the wait, and bufferization may
/// reuse the operand's buffer right after the start; the reduce-scatter and
/// the allgather read %in itself (their output is not the operand's size),
/// so the wait takes the operand's buffer again (`to_buffer %x read_only`
/// there), which keeps it alive and unwritten until the wait. Then
///   bufferization.to_tensor %out restrict writable
/// and, for an "avg" reduction, the sum times 1/N.
Value emitCollective(OpBuilder &builder, ModuleOp module, Operation *op,
                     HelperKind kind,
                     std::optional<int64_t> root = std::nullopt) {
  Location loc = op->getLoc();
  Value x = op->getOperand(0);
  auto type = cast<RankedTensorType>(x.getType());
  auto resultType = cast<RankedTensorType>(op->getResult(0).getType());
  bool nonblocking = kind == HelperKind::IallreduceSum ||
                     kind == HelperKind::IreduceScatterSum ||
                     kind == HelperKind::Iallgather;
  auto flatType =
      RankedTensorType::get({type.getNumElements()}, type.getElementType());
  auto flatResultType = RankedTensorType::get({resultType.getNumElements()},
                                              type.getElementType());
  if (type.getRank() != 1)
    x = relay::ReshapeOp::create(
        builder, loc, flatType, x,
        builder.getDenseI64ArrayAttr({type.getNumElements()}));
  auto inType = MemRefType::get(flatType.getShape(), type.getElementType());
  auto outType =
      MemRefType::get(flatResultType.getShape(), type.getElementType());
  Value in = bufferization::ToBufferOp::create(builder, loc, inType, x,
                                               /*read_only=*/true);
  Value out = memref::AllocOp::create(builder, loc, outType);
  SmallVector<Value> operands = {in, out};
  if (nonblocking)
    operands.push_back(memref::AllocOp::create(
        builder, loc, MemRefType::get({1}, builder.getI64Type())));
  func::FuncOp start = getHelper(
      module, kind,
      builder.getFunctionType(ValueRange(operands).getTypes(), {}), root);
  func::CallOp::create(builder, loc, start, operands);

  OpBuilder::InsertionGuard guard(builder);
  if (nonblocking) {
    // The wait goes before the first op of the block that uses the result
    // (directly or inside its regions), else before the terminator.
    Block *block = op->getBlock();
    Operation *firstUser = nullptr;
    for (Operation *user : op->getUsers()) {
      Operation *ancestor = block->findAncestorOpInBlock(*user);
      if (ancestor && (!firstUser || ancestor->isBeforeInBlock(firstUser)))
        firstUser = ancestor;
    }
    if (!firstUser)
      firstUser = block->getTerminator();
    builder.setInsertionPoint(firstUser);
    SmallVector<Value> waitOperands = {operands[2]};
    if (kind != HelperKind::IallreduceSum)
      waitOperands.push_back(bufferization::ToBufferOp::create(
          builder, loc, inType, x, /*read_only=*/true));
    func::FuncOp wait =
        getHelper(module, HelperKind::Wait,
                  builder.getFunctionType(ValueRange(waitOperands).getTypes(),
                                          {}));
    func::CallOp::create(builder, loc, wait, waitOperands);
  }
  Value result = bufferization::ToTensorOp::create(
      builder, loc, flatResultType, out, /*restrict=*/builder.getUnitAttr(),
      /*writable=*/builder.getUnitAttr());
  if (resultType.getRank() != 1)
    result = relay::ReshapeOp::create(
        builder, loc, resultType, result,
        builder.getDenseI64ArrayAttr(resultType.getShape()));
  // The mean: the sum times 1/N, after the wait.
  auto reduction = op->getAttrOfType<StringAttr>("reduction");
  if (reduction && reduction.getValue() == "avg")
    result = emitScale(builder, loc, result,
                       op->getAttrOfType<IntegerAttr>("world_size").getInt());
  return result;
}

/// Lowers one collective to helper calls (docs/data-parallel.md). Only a
/// blocking allreduce exists in MLIR 22's mpi dialect; the other helpers
/// call MPI_Iallreduce, MPI_Ireduce_scatter_block, MPI_Iallgather,
/// MPI_Wait and MPI_Bcast directly (MPI 4.0 §6), so each rank sends what
/// the MPI standard's algorithms send, not the whole buffer.
LogicalResult lowerCollective(Operation *op) {
  auto module = op->getParentOfType<ModuleOp>();
  OpBuilder builder(op);
  Location loc = op->getLoc();
  Value x = op->getOperand(0);
  auto type = cast<RankedTensorType>(x.getType());
  auto resultType = cast<RankedTensorType>(op->getResult(0).getType());
  if (!type.hasStaticShape() || !resultType.hasStaticShape())
    return op->emitError("lowering to MPI needs static shapes, got ") << type;
  // MPI counts are C ints.
  int64_t bytes = std::max(type.getNumElements(), resultType.getNumElements()) *
                  llvm::divideCeil(type.getElementTypeBitWidth(), 8);
  if (bytes > std::numeric_limits<int32_t>::max())
    return op->emitError("lowering to MPI: ")
           << type << " is too large for one MPI call (more than 2^31 - 1 "
           << "bytes)";
  Value result;
  if (isa<relay::AllreduceOp>(op)) {
    // Non-blocking where OpenMPI has a datatype handle for the elements;
    // other types (f16, bf16, i1, ...) through the mpi dialect's blocking
    // mpi.allreduce.
    result = emitCollective(builder, module, op,
                            getOpenMPIDatatype(type.getElementType())
                                ? HelperKind::IallreduceSum
                                : HelperKind::AllreduceSum);
  } else if (isa<relay::ReduceScatterOp>(op)) {
    if (!getOpenMPIDatatype(type.getElementType()))
      return op->emitError("lowering to MPI: no MPI datatype for ")
             << type.getElementType()
             << " (supported: f32, f64, i8, i16, i32, i64)";
    result =
        emitCollective(builder, module, op, HelperKind::IreduceScatterSum);
  } else if (isa<relay::AllgatherOp>(op)) {
    result = emitCollective(builder, module, op, HelperKind::Iallgather);
  } else if (auto broadcast = dyn_cast<relay::CommBroadcastOp>(op)) {
    result = emitCollective(builder, module, op, HelperKind::Broadcast,
                            broadcast.getRoot());
  } else {
    result = emitShard(builder, loc, module, x, resultType);
  }
  op->getResult(0).replaceAllUsesWith(result);
  op->erase();
  return success();
}

/// The address of the external global `name` (an OpenMPI handle such as
/// `ompi_mpi_comm_world`), declared once.
Value getHandle(OpBuilder &builder, Location loc, ModuleOp module,
                StringRef name) {
  if (!module.lookupSymbol(name)) {
    OpBuilder::InsertionGuard guard(builder);
    builder.setInsertionPointToStart(module.getBody());
    LLVM::GlobalOp::create(
        builder, loc, LLVM::LLVMStructType::getLiteral(builder.getContext(), {}),
        /*isConstant=*/false, LLVM::Linkage::External, name,
        /*value=*/Attribute());
  }
  return LLVM::AddressOfOp::create(
      builder, loc, LLVM::LLVMPointerType::get(builder.getContext()), name);
}

/// `int name(types...)` declared once as an llvm.func.
LLVM::LLVMFuncOp getMPIFunction(ModuleOp module, StringRef name,
                                ArrayRef<Type> types) {
  if (auto existing = module.lookupSymbol<LLVM::LLVMFuncOp>(name))
    return existing;
  OpBuilder builder = OpBuilder::atBlockBegin(module.getBody());
  return LLVM::LLVMFuncOp::create(
      builder, module.getLoc(), name,
      LLVM::LLVMFunctionType::get(builder.getI32Type(), types));
}

/// The aligned data pointer of memref `buffer` as an !llvm.ptr.
Value getDataPointer(OpBuilder &builder, Location loc, Value buffer) {
  Value address =
      memref::ExtractAlignedPointerAsIndexOp::create(builder, loc, buffer);
  address = arith::IndexCastOp::create(builder, loc, builder.getI64Type(),
                                       address);
  return LLVM::IntToPtrOp::create(
      builder, loc, LLVM::LLVMPointerType::get(builder.getContext()), address);
}

/// Gives a helper of kind iallreduce_sum, ireduce_scatter_sum, iallgather,
/// wait or broadcast its body, a direct call of the MPI library (return codes are not checked:
/// MPI_COMM_WORLD's default error handler, MPI_ERRORS_ARE_FATAL, aborts).
void buildDirectCallBody(func::FuncOp helper, StringRef kind) {
  auto module = helper->getParentOfType<ModuleOp>();
  Block *body = helper.addEntryBlock();
  OpBuilder builder = OpBuilder::atBlockEnd(body);
  Location loc = helper.getLoc();
  Type ptr = LLVM::LLVMPointerType::get(builder.getContext());
  Type i32 = builder.getI32Type();
  Value in = body->getArgument(0);
  // wait(request) has one buffer (and maybe the send buffer it keeps alive).
  Value out = body->getNumArguments() > 1 ? body->getArgument(1) : in;
  auto inType = cast<MemRefType>(in.getType());
  auto outType = cast<MemRefType>(out.getType());
  int64_t elementBytes =
      llvm::divideCeil(inType.getElementTypeBitWidth(), 8);
  auto constant = [&](int64_t value) -> Value {
    return LLVM::ConstantOp::create(builder, loc, i32,
                                    builder.getI32IntegerAttr(value));
  };
  Value comm = getHandle(builder, loc, module, "ompi_mpi_comm_world");
  if (kind == getHelperName(HelperKind::Wait)) {
    // int MPI_Wait(MPI_Request *request, MPI_Status *status), with
    // MPI_STATUS_IGNORE, which is a null pointer in OpenMPI's mpi.h.
    auto function = getMPIFunction(module, "MPI_Wait", {ptr, ptr});
    Value ignore = LLVM::ZeroOp::create(builder, loc, ptr);
    LLVM::CallOp::create(builder, loc, function,
                         ValueRange{getDataPointer(builder, loc, in), ignore});
    func::ReturnOp::create(builder, loc);
    return;
  }
  if (kind == getHelperName(HelperKind::IallreduceSum)) {
    // int MPI_Iallreduce(const void *sendbuf, void *recvbuf, int count,
    //     MPI_Datatype, MPI_Op, MPI_Comm, MPI_Request *request), in place
    // on a copy of the operand; MPI_IN_PLACE is (void *)1 in OpenMPI.
    auto function = getMPIFunction(module, "MPI_Iallreduce",
                                   {ptr, ptr, i32, ptr, ptr, ptr, ptr});
    memref::CopyOp::create(builder, loc, in, out);
    Value one = LLVM::ConstantOp::create(builder, loc, builder.getI64Type(),
                                         builder.getI64IntegerAttr(1));
    Value inPlace = LLVM::IntToPtrOp::create(builder, loc, ptr, one);
    Value datatype = getHandle(builder, loc, module,
                               *getOpenMPIDatatype(inType.getElementType()));
    Value sum = getHandle(builder, loc, module, "ompi_mpi_op_sum");
    LLVM::CallOp::create(
        builder, loc, function,
        ValueRange{inPlace, getDataPointer(builder, loc, out),
                   constant(outType.getNumElements()), datatype, sum, comm,
                   getDataPointer(builder, loc, body->getArgument(2))});
    func::ReturnOp::create(builder, loc);
    return;
  }
  if (kind == getHelperName(HelperKind::IreduceScatterSum)) {
    // int MPI_Ireduce_scatter_block(const void *sendbuf, void *recvbuf,
    //     int recvcount, MPI_Datatype, MPI_Op, MPI_Comm, MPI_Request *)
    auto function = getMPIFunction(module, "MPI_Ireduce_scatter_block",
                                   {ptr, ptr, i32, ptr, ptr, ptr, ptr});
    Value datatype = getHandle(builder, loc, module,
                               *getOpenMPIDatatype(inType.getElementType()));
    Value sum = getHandle(builder, loc, module, "ompi_mpi_op_sum");
    LLVM::CallOp::create(
        builder, loc, function,
        ValueRange{getDataPointer(builder, loc, in),
                   getDataPointer(builder, loc, out),
                   constant(outType.getNumElements()), datatype, sum, comm,
                   getDataPointer(builder, loc, body->getArgument(2))});
    func::ReturnOp::create(builder, loc);
    return;
  }
  if (kind == getHelperName(HelperKind::Iallgather)) {
    // int MPI_Iallgather(const void *sendbuf, int sendcount, MPI_Datatype,
    //     void *recvbuf, int recvcount, MPI_Datatype, MPI_Comm,
    //     MPI_Request *), on bytes as the blocking allgather.
    auto function = getMPIFunction(module, "MPI_Iallgather",
                                   {ptr, i32, ptr, ptr, i32, ptr, ptr, ptr});
    Value byte = getHandle(builder, loc, module, "ompi_mpi_byte");
    Value count = constant(inType.getNumElements() * elementBytes);
    LLVM::CallOp::create(
        builder, loc, function,
        ValueRange{getDataPointer(builder, loc, in), count, byte,
                   getDataPointer(builder, loc, out), count, byte, comm,
                   getDataPointer(builder, loc, body->getArgument(2))});
    func::ReturnOp::create(builder, loc);
    return;
  }
  {
    // int MPI_Bcast(void *buffer, int count, MPI_Datatype, int root,
    //     MPI_Comm), in place on a copy of the operand.
    auto function =
        getMPIFunction(module, "MPI_Bcast", {ptr, i32, ptr, i32, ptr});
    memref::CopyOp::create(builder, loc, in, out);
    Value byte = getHandle(builder, loc, module, "ompi_mpi_byte");
    int64_t root = helper->getAttrOfType<IntegerAttr>(kRootAttr).getInt();
    LLVM::CallOp::create(
        builder, loc, function,
        ValueRange{getDataPointer(builder, loc, out),
                   constant(inType.getNumElements() * elementBytes), byte,
                   constant(root), comm});
  }
  func::ReturnOp::create(builder, loc);
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
              relay::CommBroadcastOp, relay::CommShardOp>(op))
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
    // Bodies of the helpers --raf-lower-collectives-to-mpi declared: the
    // mpi dialect's ops first (lowered below), the direct MPI calls after
    // that lowering, so that both share its handles.
    SmallVector<func::FuncOp> directCalls;
    for (auto helper : module.getOps<func::FuncOp>()) {
      auto kind = helper->getAttrOfType<StringAttr>(kHelperAttr);
      if (!kind || !helper.isExternal())
        continue;
      if (kind.getValue() != getHelperName(HelperKind::AllreduceSum) &&
          kind.getValue() != getHelperName(HelperKind::CommRank)) {
        directCalls.push_back(helper);
        continue;
      }
      Block *body = helper.addEntryBlock();
      OpBuilder builder = OpBuilder::atBlockEnd(body);
      Location loc = helper.getLoc();
      Value comm = mpi::CommWorldOp::create(
          builder, loc, mpi::CommType::get(&getContext()));
      if (kind.getValue() == getHelperName(HelperKind::AllreduceSum)) {
        mpi::AllReduceOp::create(
            builder, loc, /*retval=*/Type(), body->getArgument(0),
            body->getArgument(1),
            mpi::MPI_ReductionOpEnumAttr::get(
                &getContext(), mpi::MPI_ReductionOpEnum::MPI_SUM),
            comm);
        func::ReturnOp::create(builder, loc);
      } else {
        Value rank = mpi::CommRankOp::create(builder, loc, /*retval=*/Type(),
                                             builder.getI32Type(), comm)
                         .getRank();
        func::ReturnOp::create(builder, loc, rank);
      }
    }
    if (failed(lowerMPIDialect(module)))
      return signalPassFailure();
    for (func::FuncOp helper : directCalls)
      buildDirectCallBody(helper,
                          helper->getAttrOfType<StringAttr>(kHelperAttr));
  }

  LogicalResult lowerMPIDialect(ModuleOp module) {
    bool hasMPI = false;
    module.walk([&](Operation *op) {
      if (isa<mpi::MPIDialect>(op->getDialect()))
        hasMPI = true;
    });
    if (!hasMPI)
      return success();
    LLVMTypeConverter converter(&getContext());
    RewritePatternSet patterns(&getContext());
    mpi::populateMPIToLLVMConversionPatterns(converter, patterns);
    ConversionTarget target(getContext());
    target.addIllegalDialect<mpi::MPIDialect>();
    target.markUnknownOpDynamicallyLegal([](Operation *) { return true; });
    if (failed(applyPartialConversion(module, target, std::move(patterns))))
      return failure();
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
        return failure();
      SymbolTable::setSymbolName(global, fixed);
    }
    return success();
  }
};

} // namespace
