//===- raf-vta-sim.cpp - run a VTA binary on the simulator ----------------===//
//
// Runs a VTA binary (raf-translate --vta-isa-to-bin) on the functional
// simulator with a DRAM image read from a file, prints the cycle count and
// statistics, and optionally writes the final DRAM image. A small driver for
// testing programs end to end; see docs/vta.md.
//
// The DRAM size is checked against the simulated-DRAM limit
// (--max-dram-bytes, never more than physical memory; docs/resource-limits.md)
// before anything is allocated, and DRAM is mapped zero-filled on demand, so
// a large DRAM costs only the pages the program touches.
//
//===----------------------------------------------------------------------===//

#include "raf/Target/VTA/BinaryFormat.h"
#include "raf/Target/VTA/Simulator.h"
#include "raf/Support/ResourceLimits.h"

#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/Memory.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/WithColor.h"
#include "llvm/Support/raw_ostream.h"

using namespace llvm;
using namespace raf::vta;

static cl::OptionCategory toolCategory("raf-vta-sim options");
static cl::opt<std::string> programFile(cl::Positional, cl::Required,
                                        cl::desc("<program.bin>"),
                                        cl::cat(toolCategory));
static cl::opt<std::string>
    dramFile("dram", cl::desc("Initial DRAM image (default: all zeros)"),
             cl::value_desc("file"), cl::cat(toolCategory));
static cl::opt<raf::ByteSize> dramSize(
    "dram-size",
    cl::desc("DRAM size in bytes (e.g. 4096, 64K, 1GiB); the image is "
             "zero-extended to it (default: the image's size)"),
    cl::value_desc("bytes"), cl::cat(toolCategory));
static cl::opt<std::string>
    outputFile("o", cl::desc("Write the final DRAM image to this file"),
               cl::value_desc("file"), cl::cat(toolCategory));
static cl::opt<bool> noCheck(
    "no-check",
    cl::desc("Do not check the program's rules before running it (the "
             "run-time checks stay on)"),
    cl::cat(toolCategory));
static cl::opt<bool>
    printTimeline("timeline",
                  cl::desc("Print the start and end cycle of every "
                           "instruction"),
                  cl::cat(toolCategory));

static cl::opt<bool> timingOnly(
    "timing-only",
    cl::desc("Run only the cycle model (queues, tokens, latencies), not the "
             "instructions' effects: for programs whose data would be too "
             "large or slow to simulate; DRAM is not read or written"),
    cl::cat(toolCategory));

static cl::OptionCategory cycleCategory("Cycle model (docs/vta.md)");
static CycleModel defaults;
static cl::opt<uint64_t>
    dmaBytesPerCycle("dma-bytes-per-cycle",
                     cl::desc("DRAM bytes a LOAD or STORE moves per cycle"),
                     cl::init(defaults.dmaBytesPerCycle),
                     cl::cat(cycleCategory));
static cl::opt<uint64_t>
    dmaLatency("dma-latency",
               cl::desc("Cycles before the first byte of a transfer moves"),
               cl::init(defaults.dmaLatencyCycles), cl::cat(cycleCategory));
static cl::opt<uint64_t>
    padCycles("pad-cycles",
              cl::desc("Cycles per padding element a LOAD writes"),
              cl::init(defaults.padCyclesPerElement), cl::cat(cycleCategory));
static cl::opt<uint64_t>
    gemmCycles("gemm-cycles-per-uop",
               cl::desc("Cycles per GEMM micro-op step"),
               cl::init(defaults.gemmCyclesPerUop), cl::cat(cycleCategory));
static cl::opt<uint64_t>
    aluCycles("alu-cycles-per-uop", cl::desc("Cycles per ALU micro-op step"),
              cl::init(defaults.aluCyclesPerUop), cl::cat(cycleCategory));
static cl::opt<uint64_t>
    issueCycles("issue-cycles", cl::desc("Cycles added to every instruction"),
                cl::init(defaults.issueCycles), cl::cat(cycleCategory));

static int fail(const Twine &message) {
  WithColor::error(errs(), "raf-vta-sim") << message << "\n";
  return 1;
}

int main(int argc, char **argv) {
  InitLLVM init(argc, argv);
  raf::registerResourceLimitOptions({raf::ResourceLimit::DRAMBytes},
                                    &toolCategory);
  cl::HideUnrelatedOptions({&toolCategory, &cycleCategory});
  cl::ParseCommandLineOptions(
      argc, argv,
      "Runs a VTA binary on the functional simulator and prints cycles\n");

  ErrorOr<std::unique_ptr<MemoryBuffer>> programBuffer =
      MemoryBuffer::getFileOrSTDIN(programFile, /*IsText=*/false);
  if (!programBuffer)
    return fail("cannot read '" + programFile +
                "': " + programBuffer.getError().message());
  Expected<Program> program = readBinary(ArrayRef<uint8_t>(
      reinterpret_cast<const uint8_t *>((*programBuffer)->getBufferStart()),
      (*programBuffer)->getBufferSize()));
  if (!program)
    return fail(programFile + ": " + toString(program.takeError()));

  // Both sizes are checked before anything is allocated: the image's (it is
  // read into memory) and the requested one.
  uint64_t imageSize = 0;
  if (!dramFile.empty()) {
    if (std::error_code ec = sys::fs::file_size(dramFile, imageSize))
      return fail("cannot read '" + dramFile + "': " + ec.message());
  }
  uint64_t size = std::max(dramSize.getValue().value, imageSize);
  if (dramSize.getValue().value != 0 && dramSize.getValue().value < imageSize)
    return fail("--dram-size=" + Twine(dramSize.getValue().value) +
                " is smaller than the DRAM image (" + Twine(imageSize) +
                " bytes)");
  if (std::optional<std::string> problem =
          raf::checkResourceLimit(raf::ResourceLimit::DRAMBytes, size))
    return fail("cannot simulate a DRAM of " + Twine(size) +
                " bytes: " + *problem);

  // Anonymous mapped memory is zero-filled by the system page by page as
  // the program touches it.
  sys::OwningMemoryBlock memory;
  if (size != 0) {
    std::error_code ec;
    memory = sys::OwningMemoryBlock(sys::Memory::allocateMappedMemory(
        size, nullptr, sys::Memory::MF_READ | sys::Memory::MF_WRITE, ec));
    if (ec || memory.base() == nullptr)
      return fail("cannot map a DRAM of " + Twine(size) +
                  " bytes: " + (ec ? ec.message() : "no memory"));
  }
  MutableArrayRef<uint8_t> dram(static_cast<uint8_t *>(memory.base()), size);
  if (!dramFile.empty()) {
    ErrorOr<std::unique_ptr<MemoryBuffer>> image =
        MemoryBuffer::getFile(dramFile, /*IsText=*/false);
    if (!image)
      return fail("cannot read '" + dramFile +
                  "': " + image.getError().message());
    if ((*image)->getBufferSize() != imageSize)
      return fail("'" + dramFile + "' changed while it was read");
    std::copy((*image)->getBufferStart(), (*image)->getBufferEnd(),
              dram.begin());
  }

  SimulatorOptions options;
  options.checkProgram = !noCheck;
  options.recordTimeline = printTimeline;
  options.functional = !timingOnly;
  if (timingOnly && (!dramFile.empty() || !outputFile.empty()))
    return fail("--timing-only reads and writes no DRAM image; drop --dram "
                "and -o");
  options.cycleModel.dmaBytesPerCycle = dmaBytesPerCycle;
  options.cycleModel.dmaLatencyCycles = dmaLatency;
  options.cycleModel.padCyclesPerElement = padCycles;
  options.cycleModel.gemmCyclesPerUop = gemmCycles;
  options.cycleModel.aluCyclesPerUop = aluCycles;
  options.cycleModel.issueCycles = issueCycles;
  if (dmaBytesPerCycle == 0)
    return fail("--dma-bytes-per-cycle must be at least 1");

  Expected<SimulationResult> result = simulate(*program, dram, options);
  if (!result)
    return fail(toString(result.takeError()));
  result->print(outs());
  if (printTimeline)
    for (const InstructionTiming &t : result->timeline)
      outs() << "instruction " << t.index << " ("
             << getOpcodeName(program->instructions[t.index].opcode) << ", "
             << getModuleName(t.module) << "): " << t.start << " - " << t.end
             << "\n";

  if (!outputFile.empty()) {
    std::error_code ec;
    raw_fd_ostream os(outputFile, ec, sys::fs::OF_None);
    if (ec)
      return fail("cannot write '" + outputFile + "': " + ec.message());
    os.write(reinterpret_cast<const char *>(dram.data()), dram.size());
  }
  return 0;
}
