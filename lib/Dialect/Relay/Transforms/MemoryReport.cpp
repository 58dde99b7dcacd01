//===- MemoryReport.cpp - report liveness and peak memory -----------------===//

#include "raf/Dialect/Relay/Transforms/Passes.h"

#include "raf/Analysis/MemoryTrace.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/AsmState.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/raw_ostream.h"

namespace raf::relay {
#define GEN_PASS_DEF_RAFMEMORYREPORT
#include "raf/Dialect/Relay/Transforms/Passes.h.inc"
} // namespace raf::relay

using namespace mlir;
using namespace raf::memory;

namespace {
struct RafMemoryReport
    : public raf::relay::impl::RafMemoryReportBase<RafMemoryReport> {
  using Base::Base;

  void runOnOperation() override {
    bool found = entry.empty();
    for (auto function : getOperation().getOps<func::FuncOp>()) {
      if (function.isExternal() ||
          (!entry.empty() && function.getSymName() != entry))
        continue;
      found = true;
      report(function);
    }
    if (!found) {
      getOperation().emitError()
          << "--raf-memory-report: no function named '" << entry << "'";
      signalPassFailure();
    }
  }

  void report(func::FuncOp function) {
    std::string reason;
    Operation *culprit = nullptr;
    MemoryTraceOptions options;
    options.inPlaceUpdates = inPlaceUpdates;
    std::optional<MemoryTrace> trace =
        MemoryTrace::compute(function, reason, culprit, options);
    if (!trace) {
      InFlightDiagnostic diag = function.emitWarning()
                                << "@" << function.getSymName()
                                << ": not traced: " << reason;
      if (culprit)
        diag.attachNote(culprit->getLoc()) << "at this op";
      return;
    }
    ArrayRef<Step> steps = trace->getSteps();
    {
      InFlightDiagnostic diag = function.emitRemark();
      diag << "@" << function.getSymName() << ": peak "
           << formatBytes(trace->getPeakBytes());
      if (std::optional<unsigned> peak = trace->getPeakStep())
        diag << " at step " << *peak << " of " << steps.size() << " ("
             << steps[*peak].op->getName() << ")";
      else
        diag << " at entry (parameters only), " << steps.size() << " steps";
      diag << "; parameters " << formatBytes(trace->getParameterBytes())
           << "; " << trace->getBuffers().size() << " buffers";
      if (trace->getInPlaceBytes() != 0)
        diag << "; updated in place " << formatBytes(trace->getInPlaceBytes());
      if (std::optional<unsigned> peak = trace->getPeakStep())
        diag.attachNote(steps[*peak].op->getLoc()) << "peak reached here";
    }
    if (!printTensors && !printTrace)
      return;

    // Value names as the printer spells them (%0, %arg1, ...).
    AsmState state(function);
    auto name = [&](Value value) {
      std::string text;
      llvm::raw_string_ostream os(text);
      value.printAsOperand(os, state);
      return text;
    };
    llvm::raw_ostream &os = llvm::errs();
    ArrayRef<Buffer> buffers = trace->getBuffers();
    if (printTensors) {
      os << "// liveness of @" << function.getSymName()
         << " (steps 0.." << steps.size()
         << "; the last means 'to the end')\n";
      os << llvm::format("%-12s %6s %6s %14s  %s\n", "value", "def", "last",
                         "bytes", "kind");
      for (const Buffer &buffer : buffers) {
        std::string label = name(buffer.value);
        if (buffer.leaf != 0 || isa<TupleType>(buffer.value.getType()))
          label += "#" + std::to_string(buffer.leaf);
        std::string kind = buffer.isParameter  ? "parameter"
                           : buffer.isReturned ? "result"
                                               : "intermediate";
        if (buffer.inPlaceOf)
          kind += " (in place of " + name(buffers[*buffer.inPlaceOf].value) +
                  ")";
        os << llvm::format("%-12s %6u %6u %14lld  %s\n", label.c_str(),
                           buffer.defStep, buffer.lastUseStep,
                           static_cast<long long>(buffer.bytes), kind.c_str());
      }
    }
    if (printTrace) {
      os << "// memory trace of @" << function.getSymName()
         << " (parameters " << trace->getParameterBytes() << " bytes)\n";
      os << llvm::format("%6s %-26s %14s %14s %14s\n", "step", "op", "alloc",
                         "free", "live");
      for (auto [index, step] : llvm::enumerate(steps)) {
        int64_t allocated = 0, released = 0;
        for (unsigned id : step.allocated)
          allocated += buffers[id].bytes;
        for (unsigned id : step.released)
          released += buffers[id].bytes;
        std::string opName = step.op->getName().getStringRef().str();
        os << llvm::format("%6u %-26s %14lld %14lld %14lld%s\n",
                           static_cast<unsigned>(index), opName.c_str(),
                           static_cast<long long>(allocated),
                           static_cast<long long>(released),
                           static_cast<long long>(step.liveBytes),
                           trace->getPeakStep() == index ? "  <- peak" : "");
      }
    }
  }
};
} // namespace
