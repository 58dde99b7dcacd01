//===- PrintOpProperties.cpp - report operator property interfaces --------===//

#include "raf/Dialect/Relay/Transforms/Passes.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "raf/Dialect/Relay/IR/RelayOps.h"

namespace raf::relay {
#define GEN_PASS_DEF_RELAYPRINTOPPROPERTIES
#include "raf/Dialect/Relay/Transforms/Passes.h.inc"
} // namespace raf::relay

using namespace mlir;
using namespace raf::relay;

namespace {
struct RelayPrintOpProperties
    : public raf::relay::impl::RelayPrintOpPropertiesBase<
          RelayPrintOpProperties> {
  using Base::Base;

  void runOnOperation() override {
    getOperation()->walk([&](Operation *op) {
      if (auto fn = dyn_cast<func::FuncOp>(op)) {
        if (totals)
          reportTotals(fn);
        return;
      }
      auto fusion = dyn_cast<FusionOpInterface>(op);
      auto cast = dyn_cast<AutoCastOpInterface>(op);
      auto cost = dyn_cast<CostOpInterface>(op);
      if (!fusion || !cast || !cost)
        return;
      op->emitRemark() << "fusion=" << stringifyFusionKind(
                              fusion.getFusionKind())
                       << " autocast=" << stringifyAutoCastCategory(
                              cast.getAutoCastCategory())
                       << "/" << cast.getAutoCastArgCount()
                       << " flops=" << cost.getFlops()
                       << " read=" << cost.getBytesRead()
                       << " written=" << cost.getBytesWritten()
                       << " recomputable="
                       << (cost.isRecomputable() ? "true" : "false");
    });
  }

  void reportTotals(func::FuncOp fn) {
    int64_t flops = 0, read = 0, written = 0, count = 0;
    fn.walk([&](CostOpInterface cost) {
      flops += cost.getFlops();
      read += cost.getBytesRead();
      written += cost.getBytesWritten();
      ++count;
    });
    fn.emitRemark() << "@" << fn.getSymName() << ": " << count
                    << " operators, flops=" << flops << " read=" << read
                    << " written=" << written;
  }
};
} // namespace
