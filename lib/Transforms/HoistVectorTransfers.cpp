//===- HoistVectorTransfers.cpp - accumulators stay in registers ----------===//

#include "raf/Transforms/Passes.h"

#include "mlir/Dialect/Linalg/Transforms/Hoisting.h"

namespace raf {
#define GEN_PASS_DEF_RAFHOISTVECTORTRANSFERS
#include "raf/Transforms/Passes.h.inc"
} // namespace raf

using namespace mlir;

namespace {
struct HoistVectorTransfers
    : public raf::impl::RAFHoistVectorTransfersBase<HoistVectorTransfers> {
  void runOnOperation() override {
    // Only loops that run at least once: hoisting a read out of a loop that
    // may not run would read memory the program never touched.
    linalg::hoistRedundantVectorTransfers(getOperation(),
                                          /*verifyNonZeroTrip=*/true);
  }
};
} // namespace
