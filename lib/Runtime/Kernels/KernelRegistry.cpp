//===- KernelRegistry.cpp - the table of operator kernels -----------------===//

#include "raf/Runtime/OperatorKernels.h"

#include "raf/Runtime/InterpreterCollectives.h"

using namespace raf::runtime;

const Kernel *KernelRegistry::lookup(mlir::Operation *op) const {
  std::optional<mlir::RegisteredOperationName> name = op->getRegisteredInfo();
  if (!name)
    return nullptr;
  auto it = kernels.find(name->getTypeID());
  return it == kernels.end() ? nullptr : &it->second;
}

const KernelRegistry &KernelRegistry::get() {
  static const KernelRegistry registry = [] {
    KernelRegistry table;
    addElementwiseKernels(table);
    addLinearAlgebraKernels(table);
    addNormalizationKernels(table);
    addLossKernels(table);
    addPoolingKernels(table);
    addReductionKernels(table);
    addShapeKernels(table);
    addCollectiveKernels(table);
    return table;
  }();
  return registry;
}
