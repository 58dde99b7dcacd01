//===- OperatorKernels.h - plain kernels of relay operators -----*- C++ -*-===//
//
// One straightforward kernel per relay operator, used by the reference
// evaluator. Kernels compute floating-point values in double and store them
// with the result element type's rounding; integer arithmetic is done in
// int64 and wraps when stored. They favour being obviously right over being
// fast.
//
//===----------------------------------------------------------------------===//

#ifndef RAF_RUNTIME_OPERATORKERNELS_H
#define RAF_RUNTIME_OPERATORKERNELS_H

#include "raf/Runtime/HostTensor.h"

#include "mlir/IR/Operation.h"
#include "mlir/Support/TypeID.h"
#include "llvm/ADT/DenseMap.h"

#include <functional>

namespace raf::runtime {

/// The operand tensors of an operator, in operand order.
using KernelOperands = llvm::ArrayRef<const HostTensor *>;

/// Computes the results of `op` (one HostTensor per op result) from its
/// operands. A run-time error (an index out of range, a shape that does not
/// match at run time) is reported as a diagnostic located at `op` and
/// returns failure.
using Kernel = std::function<mlir::LogicalResult(
    mlir::Operation *op, KernelOperands operands,
    llvm::SmallVectorImpl<HostTensor> &results)>;

class KernelRegistry {
public:
  /// Registers `kernel`, a callable taking (OpT, KernelOperands,
  /// SmallVectorImpl<HostTensor> &), for the operation class OpT.
  template <typename OpT, typename KernelT>
  void add(KernelT kernel) {
    kernels[mlir::TypeID::get<OpT>()] =
        [kernel](mlir::Operation *op, KernelOperands operands,
                 llvm::SmallVectorImpl<HostTensor> &results) {
          return kernel(llvm::cast<OpT>(op), operands, results);
        };
  }

  /// The kernel of `op`'s operation class, or null.
  const Kernel *lookup(mlir::Operation *op) const;
  bool contains(mlir::TypeID opClass) const {
    return kernels.count(opClass) != 0;
  }

  /// The registry holding the kernel of every relay operator.
  static const KernelRegistry &get();

private:
  llvm::DenseMap<mlir::TypeID, Kernel> kernels;
};

// Each adds the kernels of one group of operators.
void addElementwiseKernels(KernelRegistry &registry);
void addLinearAlgebraKernels(KernelRegistry &registry);
void addNormalizationKernels(KernelRegistry &registry);
void addLossKernels(KernelRegistry &registry);
void addPoolingKernels(KernelRegistry &registry);
void addReductionKernels(KernelRegistry &registry);
void addShapeKernels(KernelRegistry &registry);

/// The dropout keep mask of element `index` (flat, row-major) for `seed` and
/// `rate`. Shared with the compiled path's definition: a murmur3-style mix of
/// the index and the seed, taken as a 24-bit uniform number u in [0, 1);
/// the element is kept iff u >= rate (compared in double precision).
bool dropoutKeeps(uint64_t index, int64_t seed, double rate);

} // namespace raf::runtime

#endif // RAF_RUNTIME_OPERATORKERNELS_H
