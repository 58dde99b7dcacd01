//===- StridedCopiesToLoops.cpp - non-contiguous copies as linalg.copy ----===//
//
// `--finalize-memref-to-llvm` lowers a `memref.copy` between contiguous
// buffers to `memcpy`, and every other copy (into the interior of a padded
// buffer, out of a strided view) to a call of the C runner's generic
// `memrefCopy`, which walks the elements one at a time through their
// strides. Such copies become `linalg.copy` here, so that they are lowered
// to loops with the rest of the function and vectorised by LLVM.
//
//===----------------------------------------------------------------------===//

#include "raf/Transforms/Passes.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/MemRef/Utils/MemRefUtils.h"
#include "mlir/IR/PatternMatch.h"

namespace raf {
#define GEN_PASS_DEF_RAFSTRIDEDCOPIESTOLOOPS
#include "raf/Transforms/Passes.h.inc"
} // namespace raf

using namespace mlir;

namespace {

/// True when the copy of `type` is one memcpy (upstream's criterion:
/// identity layout or strides of a contiguous row-major buffer).
bool isContiguous(MemRefType type) {
  return type.getLayout().isIdentity() ||
         (type.hasStaticShape() && type.getNumElements() > 0 &&
          memref::isStaticShapeAndContiguousRowMajor(type));
}

struct StridedCopiesToLoops
    : public raf::impl::RAFStridedCopiesToLoopsBase<StridedCopiesToLoops> {
  void runOnOperation() override {
    SmallVector<memref::CopyOp> copies;
    getOperation().walk([&](memref::CopyOp copy) {
      auto source = dyn_cast<MemRefType>(copy.getSource().getType());
      auto target = dyn_cast<MemRefType>(copy.getTarget().getType());
      if (source && target && source.getRank() > 0 &&
          (!isContiguous(source) || !isContiguous(target)))
        copies.push_back(copy);
    });
    IRRewriter rewriter(&getContext());
    for (memref::CopyOp copy : copies) {
      rewriter.setInsertionPoint(copy);
      rewriter.replaceOpWithNewOp<linalg::CopyOp>(copy, copy.getSource(),
                                                  copy.getTarget());
    }
  }
};

} // namespace
