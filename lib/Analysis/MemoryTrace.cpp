//===- MemoryTrace.cpp - tensor liveness and peak memory ------------------===//

#include "raf/Analysis/MemoryTrace.h"

#include "raf/Dialect/Relay/IR/RelayOps.h"
#include "raf/Dialect/Relay/Transforms/AttributeNames.h"

#include "mlir/IR/BuiltinTypes.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/MathExtras.h"
#include "llvm/Support/raw_ostream.h"

#include <cmath>

using namespace mlir;
using namespace raf::memory;

namespace {
/// Appends the tensor leaves of `type` in depth-first order.
void collectLeaves(Type type, SmallVectorImpl<Type> &leaves) {
  if (auto tuple = dyn_cast<TupleType>(type)) {
    for (Type element : tuple.getTypes())
      collectLeaves(element, leaves);
    return;
  }
  if (isa<TensorType>(type))
    leaves.push_back(type);
}

unsigned countLeaves(Type type) {
  SmallVector<Type> leaves;
  collectLeaves(type, leaves);
  return leaves.size();
}

std::optional<int64_t> tensorBytes(Type type) {
  auto tensor = dyn_cast<RankedTensorType>(type);
  if (!tensor || !tensor.hasStaticShape())
    return std::nullopt;
  Type element = tensor.getElementType();
  unsigned bits;
  if (auto complex = dyn_cast<ComplexType>(element)) {
    if (!complex.getElementType().isIntOrFloat())
      return std::nullopt;
    bits = 2 * complex.getElementType().getIntOrFloatBitWidth();
  } else if (element.isIntOrFloat()) {
    bits = element.getIntOrFloatBitWidth();
  } else if (element.isIndex()) {
    bits = 64;
  } else {
    return std::nullopt;
  }
  int64_t bytes = (bits + 7) / 8;
  for (int64_t dim : tensor.getShape())
    if (llvm::MulOverflow(bytes, dim, bytes))
      return std::nullopt;
  return bytes;
}

/// Ops whose memory lives outside the caller's frame, or whose values
/// outlive SSA liveness, are not modelled.
std::optional<StringRef> whyNotModelled(Operation *op) {
  if (op->getNumRegions() != 0)
    return StringRef("ops with regions are not modelled (their memory "
                     "belongs to another frame)");
  if (isa<func::CallOp, func::CallIndirectOp, raf::relay::CallOp>(op))
    return StringRef("calls are not modelled (run --inline first)");
  if (isa<raf::relay::RefNewOp, raf::relay::RefReadOp,
          raf::relay::RefWriteOp>(op))
    return StringRef("references are not modelled: a reference cell keeps "
                     "its value alive beyond its uses");
  return std::nullopt;
}
} // namespace

std::optional<int64_t> raf::memory::getTypeBytes(Type type) {
  SmallVector<Type> leaves;
  collectLeaves(type, leaves);
  int64_t total = 0;
  for (Type leaf : leaves) {
    std::optional<int64_t> bytes = tensorBytes(leaf);
    if (!bytes || llvm::AddOverflow(total, *bytes, total))
      return std::nullopt;
  }
  return total;
}

llvm::Expected<int64_t> raf::memory::parseByteSize(StringRef text) {
  auto fail = [&](const Twine &why) {
    return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                   "invalid byte size '" + text + "': " + why);
  };
  StringRef rest = text.trim();
  size_t numberEnd = 0;
  while (numberEnd < rest.size() &&
         (llvm::isDigit(rest[numberEnd]) || rest[numberEnd] == '.'))
    ++numberEnd;
  StringRef number = rest.take_front(numberEnd);
  StringRef unit = rest.drop_front(numberEnd).trim();
  if (number.empty())
    return fail("expected a non-negative number followed by an optional "
                "unit (B, KB, MB, GB, KiB, MiB, GiB)");
  double multiplier;
  std::string lowered = unit.lower();
  if (lowered.empty() || lowered == "b")
    multiplier = 1;
  else if (lowered == "kib" || lowered == "k")
    multiplier = 1024.0;
  else if (lowered == "mib" || lowered == "m")
    multiplier = 1024.0 * 1024;
  else if (lowered == "gib" || lowered == "g")
    multiplier = 1024.0 * 1024 * 1024;
  else if (lowered == "kb")
    multiplier = 1e3;
  else if (lowered == "mb")
    multiplier = 1e6;
  else if (lowered == "gb")
    multiplier = 1e9;
  else
    return fail("unknown unit '" + unit +
                "' (expected B, KB, MB, GB, KiB, MiB or GiB)");
  if (number.count('.') == 0) {
    uint64_t integer;
    if (number.getAsInteger(10, integer))
      return fail("the number does not fit in 64 bits");
    double product = static_cast<double>(integer) * multiplier;
    if (product >= 9.2e18)
      return fail("the size overflows 64 bits");
    return static_cast<int64_t>(integer) * static_cast<int64_t>(multiplier);
  }
  double value;
  if (number.getAsDouble(value) || !std::isfinite(value))
    return fail("malformed number '" + number + "'");
  double product = value * multiplier;
  if (product >= 9.2e18)
    return fail("the size overflows 64 bits");
  return static_cast<int64_t>(std::llround(product));
}

std::string raf::memory::formatBytes(int64_t bytes) {
  std::string text;
  llvm::raw_string_ostream os(text);
  os << bytes << " bytes ("
     << llvm::format("%.2f", static_cast<double>(bytes) / (1024.0 * 1024.0))
     << " MiB)";
  return text;
}

ArrayRef<unsigned> MemoryTrace::getBuffersOf(Value value) const {
  auto it = valueBuffers.find(value);
  if (it == valueBuffers.end())
    return {};
  return it->second;
}

/// Whether `op` computes each result element from the same element of its
/// operands, so that a result may overwrite an operand of its own type.
static bool isElementwise(Operation *op) {
  auto fusion = dyn_cast<raf::relay::FusionOpInterface>(op);
  if (!fusion || isa<raf::relay::BiasAddOp>(op))
    return false;
  raf::relay::FusionKind kind = fusion.getFusionKind();
  return kind == raf::relay::FusionKind::ElemWise ||
         kind == raf::relay::FusionKind::Broadcast;
}

std::optional<MemoryTrace>
MemoryTrace::compute(func::FuncOp function, std::string &reason,
                     Operation *&culprit, const MemoryTraceOptions &options) {
  culprit = nullptr;
  if (function.isExternal()) {
    reason = "the function has no body";
    return std::nullopt;
  }
  if (!function.getBody().hasOneBlock()) {
    reason = "the function has more than one block";
    return std::nullopt;
  }
  MemoryTrace trace;
  Block &body = function.getBody().front();

  auto newBuffers = [&](Value value, bool isParameter,
                        unsigned step) -> LogicalResult {
    SmallVector<Type> leaves;
    collectLeaves(value.getType(), leaves);
    auto &ids = trace.valueBuffers[value];
    for (auto [index, leaf] : llvm::enumerate(leaves)) {
      std::optional<int64_t> bytes = tensorBytes(leaf);
      if (!bytes)
        return failure();
      Buffer buffer;
      buffer.value = value;
      buffer.leaf = index;
      buffer.bytes = *bytes;
      buffer.isParameter = isParameter;
      buffer.defStep = step;
      buffer.lastUseStep = step;
      ids.push_back(trace.buffers.size());
      trace.buffers.push_back(buffer);
    }
    return success();
  };
  auto dynamicShape = [&](Operation *op) {
    reason = "a tensor has a dynamic shape or an unsupported element type";
    culprit = op;
    return std::nullopt;
  };

  for (BlockArgument argument : body.getArguments())
    if (failed(newBuffers(argument, /*isParameter=*/true, 0))) {
      reason = "a parameter has a dynamic shape or an unsupported element "
               "type";
      return std::nullopt;
    }

  // Definitions and aliases, in block order.
  unsigned step = 0;
  for (Operation &op : body.without_terminator()) {
    if (std::optional<StringRef> why = whyNotModelled(&op)) {
      reason = why->str();
      culprit = &op;
      return std::nullopt;
    }
    Step current;
    current.op = &op;
    if (isa<raf::relay::TupleOp>(op)) {
      auto &ids = trace.valueBuffers[op.getResult(0)];
      for (Value operand : op.getOperands())
        llvm::append_range(ids, trace.getBuffersOf(operand));
    } else if (auto get = dyn_cast<raf::relay::TupleGetOp>(op)) {
      auto tuple = cast<TupleType>(get.getTuple().getType());
      unsigned first = 0;
      for (unsigned i = 0, e = get.getIndex(); i < e; ++i)
        first += countLeaves(tuple.getType(i));
      unsigned count = countLeaves(get.getType());
      ArrayRef<unsigned> all = trace.getBuffersOf(get.getTuple());
      trace.valueBuffers[get.getResult()] =
          SmallVector<unsigned, 1>(all.slice(first, count));
    } else {
      for (Value result : op.getResults()) {
        size_t before = trace.buffers.size();
        if (failed(newBuffers(result, /*isParameter=*/false, step)))
          return dynamicShape(&op);
        for (size_t id = before; id < trace.buffers.size(); ++id)
          current.allocated.push_back(id);
      }
    }
    trace.steps.push_back(std::move(current));
    ++step;
  }
  unsigned numSteps = step;

  // Last uses.
  for (auto [index, current] : llvm::enumerate(trace.steps))
    for (Value operand : current.op->getOperands())
      for (unsigned id : trace.getBuffersOf(operand))
        trace.buffers[id].lastUseStep =
            std::max<unsigned>(trace.buffers[id].lastUseStep, index);
  Operation *terminator = body.getTerminator();
  for (Value returned : terminator->getOperands())
    for (unsigned id : trace.getBuffersOf(returned)) {
      trace.buffers[id].isReturned = true;
      trace.buffers[id].lastUseStep = numSteps;
    }

  // In-place updates (RAF's InplaceUpdate): result i replacing argument j
  // is written into j's buffer if j is not read after the op that computes
  // the result, or only by that op when it is element-wise. Here lastUseStep
  // of a parameter is still its last use by an op (0 if unused).
  if (options.inPlaceUpdates) {
    llvm::DenseMap<unsigned, unsigned> returnCount;
    for (Value returned : terminator->getOperands())
      for (unsigned id : trace.getBuffersOf(returned))
        ++returnCount[id];
    llvm::SmallDenseSet<unsigned> donated;
    for (unsigned i = 0, e = function.getNumResults(); i < e; ++i) {
      auto attr = function.getResultAttrOfType<IntegerAttr>(
          i, raf::relay::kUpdatesArgAttr);
      if (!attr || i >= terminator->getNumOperands())
        continue;
      int64_t argIndex = attr.getInt();
      if (argIndex < 0 || argIndex >= body.getNumArguments())
        continue;
      Value argument = body.getArgument(argIndex);
      Value result = terminator->getOperand(i);
      ArrayRef<unsigned> resultIds = trace.getBuffersOf(result);
      ArrayRef<unsigned> argumentIds = trace.getBuffersOf(argument);
      if (resultIds.size() != 1 || argumentIds.size() != 1 ||
          argument.getType() != result.getType())
        continue;
      unsigned id = resultIds.front(), argumentId = argumentIds.front();
      Buffer &buffer = trace.buffers[id];
      if (buffer.isParameter || returnCount[id] != 1 ||
          returnCount.lookup(argumentId) != 0 ||
          !donated.insert(argumentId).second)
        continue;
      Operation *def = buffer.value.getDefiningOp();
      bool read = llvm::any_of(argument.getUsers(), [&](Operation *user) {
        return user != terminator;
      });
      unsigned lastRead = trace.buffers[argumentId].lastUseStep;
      if (read && (lastRead > buffer.defStep ||
                   (lastRead == buffer.defStep &&
                    !(llvm::is_contained(def->getOperands(), argument) &&
                      isElementwise(def))))) {
        donated.erase(argumentId);
        continue;
      }
      buffer.inPlaceOf = argumentId;
      llvm::erase(trace.steps[buffer.defStep].allocated, id);
      trace.inPlaceBytes += buffer.bytes;
    }
  }

  // The sweep: allocate at the definition, release after the last use.
  for (auto [id, buffer] : llvm::enumerate(trace.buffers)) {
    if (buffer.isParameter) {
      buffer.lastUseStep = numSteps;
      if (llvm::AddOverflow(trace.parameterBytes, buffer.bytes,
                            trace.parameterBytes)) {
        reason = "the total size of the parameters overflows 64 bits";
        return std::nullopt;
      }
      continue;
    }
    if (buffer.lastUseStep < numSteps)
      trace.steps[buffer.lastUseStep].released.push_back(id);
  }
  int64_t live = trace.parameterBytes;
  // An in-place result lives in its parameter's buffer, which is counted.
  trace.peakBytes = live;
  for (auto [index, current] : llvm::enumerate(trace.steps)) {
    for (unsigned id : current.allocated)
      if (llvm::AddOverflow(live, trace.buffers[id].bytes, live)) {
        reason = "the live bytes overflow 64 bits";
        culprit = current.op;
        return std::nullopt;
      }
    current.liveBytes = live;
    if (live > trace.peakBytes) {
      trace.peakBytes = live;
      trace.peakStep = index;
    }
    for (unsigned id : current.released)
      live -= trace.buffers[id].bytes;
  }
  return trace;
}
