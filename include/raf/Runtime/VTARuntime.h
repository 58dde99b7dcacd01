//===- VTARuntime.h - the host side of VTA launches -------------*- C++ -*-===//
//
// The runtime compiled host code calls to run a VTA program, in the role of
// TVM-VTA's runtime on the ARM host (`vta/runtime/runtime.cc`: VTABufferAlloc,
// VTABufferCopy, VTASynchronize): it loads a program binary (the format of
// raf-translate --vta-isa-to-bin, decoded once per program), copies the
// operands into a simulated DRAM image as the program's #vta.dram_layout
// says, runs the VTA simulator (raf/Target/VTA/Simulator.h), copies the
// result planes back, and accumulates the simulated cycles.
//
// --convert-vta-launch-to-runtime turns every `vta.launch` into a call of
// the C entry point `rafVTALaunch` (with `llvm.emit_c_interface`, so the
// symbol the compiled code calls is `_mlir_ciface_rafVTALaunch`);
// getVTARuntimeSymbols() gives the symbols to register with the
// JIT, as CPURunner registers its allocation functions.
//
//===----------------------------------------------------------------------===//

#ifndef RAF_RUNTIME_VTARUNTIME_H
#define RAF_RUNTIME_VTARUNTIME_H

#include "raf/Support/ThreadCPUTime.h"
#include "raf/Target/VTA/CycleModel.h"
#include "raf/Target/VTA/ISA.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace raf::runtime {

/// The function --convert-vta-launch-to-runtime declares and calls.
inline constexpr llvm::StringLiteral VTALaunchFunctionName = "rafVTALaunch";
/// The same for a program with a fused bias (a third operand).
inline constexpr llvm::StringLiteral VTALaunchBiasedFunctionName =
    "rafVTALaunchBiased";

/// What the launches run so far cost on the simulator.
struct VTARunStats {
  uint64_t kernels = 0;
  /// Sum of the launches' simulated cycles (they run one after another).
  uint64_t cycles = 0;
  uint64_t instructions = 0;
  uint64_t uops = 0;
  /// Wall time spent inside the runtime (finding or decoding programs,
  /// operand copies into the simulated DRAM, simulation, result copies back),
  /// in milliseconds.
  double launchMilliseconds = 0;
  /// CPU time of the calling thread spent inside the runtime (the same work
  /// as launchMilliseconds, without the time the thread waited for a core),
  /// in milliseconds.
  double launchCPUMilliseconds = 0;
};

/// The calling thread's CPU time in milliseconds (raf/Support/ThreadCPUTime.h).
using raf::getThreadCPUMilliseconds;

/// Where a launch's operands and result live in the DRAM image, in bytes
/// (#vta.dram_layout without the operand numbers: the launch passes the
/// GEMM input and weight in that order).
struct VTALaunchLayout {
  int64_t inputOffset = 0;
  int64_t weightOffset = 0;
  int64_t resultOffset = 0;
  /// 4: byte k of every int32 result element in plane k; 1: the
  /// requantised int8 result, returned sign-extended.
  int64_t resultPlanes = 4;
  int64_t size = 0;
  /// The fused bias's int32 rows (#vta.dram_layout's bias_offset); negative
  /// when the program has none.
  int64_t biasOffset = -1;
};

/// A strided view of host memory: `data` points at element 0, `strides`
/// count elements. Operands are int8, results int32.
struct VTATensorView {
  void *data = nullptr;
  llvm::ArrayRef<int64_t> shape;
  llvm::ArrayRef<int64_t> strides;
};

class VTARuntime {
public:
  explicit VTARuntime(vta::CycleModel cycleModel = {})
      : cycleModel(cycleModel) {}

  /// The instance compiled code reaches through rafVTALaunch.
  static VTARuntime &getGlobal();

  void setCycleModel(const vta::CycleModel &model);

  /// Decodes (and checks) a program binary; the result is cached by the
  /// binary's address and contents, so each program is decoded once.
  llvm::Expected<const vta::Program *>
  loadProgram(llvm::ArrayRef<uint8_t> binary);

  /// Runs `program` on a fresh DRAM image holding `input` and `weight` (int8,
  /// row-major at their offsets) and, for a program with a fused bias,
  /// `bias` (int32, row-major, little-endian at layout.biasOffset), and
  /// writes the result planes, reassembled, into `result` (int32). `name`
  /// only labels errors.
  llvm::Error launch(llvm::StringRef name, const vta::Program &program,
                     const VTALaunchLayout &layout, const VTATensorView &input,
                     const VTATensorView &weight, const VTATensorView &result,
                     const VTATensorView *bias = nullptr);

  /// Records the first error of a launch compiled code made (it cannot
  /// return one); later launches are skipped until takeError().
  void recordError(std::string message);
  /// The recorded error, cleared.
  std::optional<std::string> takeError();
  /// Whether an error is recorded.
  bool hasError();

  VTARunStats getStats();
  void resetStats();

private:
  std::mutex mutex;
  vta::CycleModel cycleModel;
  VTARunStats stats;
  std::optional<std::string> error;
  /// Decoded programs by binary address, with the bytes they came from.
  std::map<const uint8_t *,
           std::pair<std::vector<uint8_t>, std::unique_ptr<vta::Program>>>
      programs;
};

/// The runtime functions compiled launches call, by unmangled symbol name,
/// for CPURunnerOptions::runtimeSymbols.
std::vector<std::pair<std::string, void *>> getVTARuntimeSymbols();

} // namespace raf::runtime

#endif // RAF_RUNTIME_VTARUNTIME_H
