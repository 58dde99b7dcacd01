//===- VTARuntime.cpp - the host side of VTA launches ---------------------===//

#include "raf/Runtime/VTARuntime.h"

#include "raf/Support/ResourceLimits.h"
#include "raf/Target/VTA/BinaryFormat.h"
#include "raf/Target/VTA/Simulator.h"

#include "mlir/ExecutionEngine/CRunnerUtils.h"

#include "llvm/ADT/ScopeExit.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/Support/FormatVariadic.h"

#include <chrono>
#include <cstring>

using namespace raf;
using namespace raf::runtime;

VTARuntime &VTARuntime::getGlobal() {
  static VTARuntime runtime;
  return runtime;
}

void VTARuntime::setCycleModel(const vta::CycleModel &model) {
  std::lock_guard<std::mutex> lock(mutex);
  cycleModel = model;
}

llvm::Expected<const vta::Program *>
VTARuntime::loadProgram(llvm::ArrayRef<uint8_t> binary) {
  // Finding (or decoding) the program is the runtime's work, not the host
  // code's: it counts towards launchMilliseconds, which raf-run subtracts
  // from a run's wall time to report host-ms.
  auto start = std::chrono::steady_clock::now();
  double cpuStart = getThreadCPUMilliseconds();
  std::lock_guard<std::mutex> lock(mutex);
  auto chargeLaunchTime = llvm::make_scope_exit([&] {
    stats.launchMilliseconds += std::chrono::duration<double, std::milli>(
                                    std::chrono::steady_clock::now() - start)
                                    .count();
    stats.launchCPUMilliseconds += getThreadCPUMilliseconds() - cpuStart;
  });
  auto cached = programs.find(binary.data());
  if (cached != programs.end() &&
      llvm::ArrayRef<uint8_t>(cached->second.first) == binary)
    return cached->second.second.get();
  llvm::Expected<vta::Program> program = vta::readBinary(binary);
  if (!program)
    return program.takeError();
  auto &entry = programs[binary.data()];
  entry.first.assign(binary.begin(), binary.end());
  entry.second = std::make_unique<vta::Program>(std::move(*program));
  return entry.second.get();
}

/// Calls `fn(offset)` for every element of `view` in row-major order, with
/// the element's offset from `view.data` in elements.
template <typename Fn> static void forEachElement(const VTATensorView &view,
                                                  Fn fn) {
  size_t rank = view.shape.size();
  for (int64_t size : view.shape)
    if (size == 0)
      return;
  llvm::SmallVector<int64_t> index(rank, 0);
  while (true) {
    int64_t offset = 0;
    for (size_t d = 0; d < rank; ++d)
      offset += index[d] * view.strides[d];
    fn(offset);
    size_t d = rank;
    while (d > 0 && ++index[d - 1] == view.shape[d - 1])
      index[--d] = 0;
    if (d == 0)
      return;
  }
}

static int64_t getNumElements(const VTATensorView &view) {
  int64_t count = 1;
  for (int64_t size : view.shape)
    count *= size;
  return count;
}

llvm::Error VTARuntime::launch(llvm::StringRef name,
                               const vta::Program &program,
                               const VTALaunchLayout &layout,
                               const VTATensorView &input,
                               const VTATensorView &weight,
                               const VTATensorView &result,
                               const VTATensorView *bias) {
  auto failure = [&](const llvm::Twine &message) {
    return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                   "VTA launch of '" + name + "': " + message);
  };
  auto start = std::chrono::steady_clock::now();
  double cpuStart = getThreadCPUMilliseconds();
  // The simulated DRAM is checked like raf-vta-sim's (--max-dram-bytes).
  if (layout.size < 0)
    return failure("negative DRAM image size");
  if (std::optional<std::string> problem = checkResourceLimit(
          ResourceLimit::DRAMBytes, static_cast<uint64_t>(layout.size)))
    return failure("cannot simulate the DRAM image: " + *problem);
  if (layout.resultPlanes != 1 && layout.resultPlanes != 4)
    return failure(llvm::formatv("{0} result planes (expected 1 or 4)",
                                 layout.resultPlanes));
  std::vector<uint8_t> dram(layout.size, 0);
  // The verifiers of the launch and the layout keep every transfer inside
  // the image; checked again here because the copies are raw.
  auto fits = [&](int64_t offset, int64_t bytes) {
    return offset >= 0 && bytes >= 0 && uint64_t(offset) <= dram.size() &&
           uint64_t(bytes) <= dram.size() - uint64_t(offset);
  };
  int64_t count = getNumElements(result);
  if (!fits(layout.inputOffset, getNumElements(input)) ||
      !fits(layout.weightOffset, getNumElements(weight)) ||
      !fits(layout.resultOffset, count * layout.resultPlanes))
    return failure(llvm::formatv(
        "the operands or the result do not fit the {0}-byte DRAM image",
        layout.size));
  if ((bias != nullptr) != (layout.biasOffset >= 0))
    return failure(bias ? "a bias for a program without one"
                        : "the program adds a bias but the launch has none");
  if (bias && !fits(layout.biasOffset, 4 * getNumElements(*bias)))
    return failure(llvm::formatv(
        "the bias does not fit the {0}-byte DRAM image", layout.size));
  // Operands go in row-major order, as the packed tensors are laid out
  // (TVM-VTA's runtime copies packed buffers the same way, VTABufferCopy).
  auto place = [&](const VTATensorView &view, int64_t offset) {
    uint8_t *destination = dram.data() + offset;
    const auto *source = static_cast<const uint8_t *>(view.data);
    forEachElement(view, [&](int64_t element) {
      *destination++ = source[element];
    });
  };
  place(input, layout.inputOffset);
  place(weight, layout.weightOffset);
  // The bias rows as the accumulator buffer holds them: int32,
  // little-endian.
  if (bias) {
    uint8_t *destination = dram.data() + layout.biasOffset;
    const auto *source = static_cast<const int32_t *>(bias->data);
    forEachElement(*bias, [&](int64_t element) {
      auto value = static_cast<uint32_t>(source[element]);
      for (unsigned byte = 0; byte < 4; ++byte)
        *destination++ = uint8_t(value >> (8 * byte));
    });
  }

  vta::CycleModel model;
  {
    std::lock_guard<std::mutex> lock(mutex);
    model = cycleModel;
  }
  vta::SimulatorOptions options;
  options.cycleModel = model;
  llvm::Expected<vta::SimulationResult> simulated =
      vta::simulate(program, dram, options);
  if (!simulated)
    return failure("VTA simulation failed: " +
                   llvm::toString(simulated.takeError()));

  // Plane k holds bits [8k, 8k + 8) of every int32 element, in the packed
  // result's row-major order; a single (requantised) plane is sign-extended.
  const uint8_t *planes = dram.data() + layout.resultOffset;
  auto *target = static_cast<int32_t *>(result.data);
  int64_t i = 0;
  forEachElement(result, [&](int64_t element) {
    if (layout.resultPlanes == 1) {
      target[element] = int8_t(planes[i++]);
      return;
    }
    uint32_t value = 0;
    for (unsigned plane = 0; plane < 4; ++plane)
      value |= uint32_t(planes[plane * count + i]) << (8 * plane);
    target[element] = int32_t(value);
    ++i;
  });

  std::lock_guard<std::mutex> lock(mutex);
  ++stats.kernels;
  stats.cycles += simulated->cycles;
  stats.instructions += program.instructions.size();
  stats.uops += program.uops.size();
  stats.launchMilliseconds += std::chrono::duration<double, std::milli>(
                                  std::chrono::steady_clock::now() - start)
                                  .count();
  stats.launchCPUMilliseconds += getThreadCPUMilliseconds() - cpuStart;
  return llvm::Error::success();
}

void VTARuntime::recordError(std::string message) {
  std::lock_guard<std::mutex> lock(mutex);
  if (!error)
    error = std::move(message);
}

std::optional<std::string> VTARuntime::takeError() {
  std::lock_guard<std::mutex> lock(mutex);
  return std::exchange(error, std::nullopt);
}

bool VTARuntime::hasError() {
  std::lock_guard<std::mutex> lock(mutex);
  return error.has_value();
}

VTARunStats VTARuntime::getStats() {
  std::lock_guard<std::mutex> lock(mutex);
  return stats;
}

void VTARuntime::resetStats() {
  std::lock_guard<std::mutex> lock(mutex);
  stats = VTARunStats();
}

//===----------------------------------------------------------------------===//
// C entry point
//===----------------------------------------------------------------------===//

namespace {
/// A view of an unranked memref descriptor (MLIR's C interface).
template <typename T>
VTATensorView viewOf(UnrankedMemRefType<T> *memref,
                     llvm::SmallVectorImpl<int64_t> &storage) {
  DynamicMemRefType<T> dynamic(*memref);
  storage.assign(dynamic.sizes, dynamic.sizes + dynamic.rank);
  storage.append(dynamic.strides, dynamic.strides + dynamic.rank);
  VTATensorView view;
  view.data = dynamic.data + dynamic.offset;
  view.shape = llvm::ArrayRef<int64_t>(storage).take_front(dynamic.rank);
  view.strides = llvm::ArrayRef<int64_t>(storage).drop_front(dynamic.rank);
  return view;
}

llvm::ArrayRef<uint8_t> bytesOf(UnrankedMemRefType<int8_t> *memref) {
  DynamicMemRefType<int8_t> dynamic(*memref);
  int64_t size = dynamic.rank == 1 ? dynamic.sizes[0] : 0;
  return {reinterpret_cast<const uint8_t *>(dynamic.data + dynamic.offset),
          static_cast<size_t>(size)};
}
} // namespace

/// Runs one launch for the C entry points below; `bias` may be null.
static void launchFromC(UnrankedMemRefType<int8_t> *binary,
                        UnrankedMemRefType<int8_t> *name,
                        UnrankedMemRefType<int8_t> *input,
                        UnrankedMemRefType<int8_t> *weight,
                        UnrankedMemRefType<int32_t> *bias,
                        UnrankedMemRefType<int32_t> *result,
                        const VTALaunchLayout &layout) {
  VTARuntime &runtime = VTARuntime::getGlobal();
  if (runtime.hasError())
    return;
  llvm::ArrayRef<uint8_t> nameBytes = bytesOf(name);
  llvm::StringRef programName(reinterpret_cast<const char *>(nameBytes.data()),
                              nameBytes.size());
  llvm::Expected<const vta::Program *> program =
      runtime.loadProgram(bytesOf(binary));
  if (!program) {
    runtime.recordError(("cannot load the VTA program '" + programName +
                         "': " + llvm::toString(program.takeError()))
                            .str());
    return;
  }
  llvm::SmallVector<int64_t> inputStorage, weightStorage, biasStorage,
      resultStorage;
  VTATensorView biasView;
  if (bias)
    biasView = viewOf(bias, biasStorage);
  if (llvm::Error error = runtime.launch(
          programName, **program, layout, viewOf(input, inputStorage),
          viewOf(weight, weightStorage), viewOf(result, resultStorage),
          bias ? &biasView : nullptr))
    runtime.recordError(llvm::toString(std::move(error)));
}

/// One `vta.launch`: the program binary and its symbol name (rank-1 i8
/// constants), the GEMM input and weight (int8), the result buffer (int32)
/// and the #vta.dram_layout offsets. Failures are recorded on the global
/// runtime (the caller checks after the compiled function returns); once one
/// is recorded, launches do nothing.
extern "C" void _mlir_ciface_rafVTALaunch(
    UnrankedMemRefType<int8_t> *binary, UnrankedMemRefType<int8_t> *name,
    UnrankedMemRefType<int8_t> *input, UnrankedMemRefType<int8_t> *weight,
    UnrankedMemRefType<int32_t> *result, int64_t inputOffset,
    int64_t weightOffset, int64_t resultOffset, int64_t resultPlanes,
    int64_t dramSize) {
  launchFromC(binary, name, input, weight, /*bias=*/nullptr, result,
              {inputOffset, weightOffset, resultOffset, resultPlanes,
               dramSize});
}

/// A `vta.launch` of a program with a fused bias: as rafVTALaunch, with the
/// bias rows (int32) and their offset.
extern "C" void _mlir_ciface_rafVTALaunchBiased(
    UnrankedMemRefType<int8_t> *binary, UnrankedMemRefType<int8_t> *name,
    UnrankedMemRefType<int8_t> *input, UnrankedMemRefType<int8_t> *weight,
    UnrankedMemRefType<int32_t> *bias, UnrankedMemRefType<int32_t> *result,
    int64_t inputOffset, int64_t weightOffset, int64_t biasOffset,
    int64_t resultOffset, int64_t resultPlanes, int64_t dramSize) {
  launchFromC(binary, name, input, weight, bias, result,
              {inputOffset, weightOffset, resultOffset, resultPlanes, dramSize,
               biasOffset});
}

std::vector<std::pair<std::string, void *>>
raf::runtime::getVTARuntimeSymbols() {
  return {{("_mlir_ciface_" + VTALaunchFunctionName).str(),
           reinterpret_cast<void *>(&_mlir_ciface_rafVTALaunch)},
          {("_mlir_ciface_" + VTALaunchBiasedFunctionName).str(),
           reinterpret_cast<void *>(&_mlir_ciface_rafVTALaunchBiased)}};
}
