//===- TensorPrinter.h - human-readable tensors -----------------*- C++ -*-===//

#ifndef RAF_RUNTIME_TENSORPRINTER_H
#define RAF_RUNTIME_TENSORPRINTER_H

#include "raf/Runtime/HostTensor.h"
#include "llvm/Support/raw_ostream.h"

namespace raf::runtime {

/// Prints `<label>: tensor<...>` and the values, nested like numpy. Tensors
/// of more than `maxElements` elements print a summary (min, max, mean and
/// the first values) instead.
void printTensor(llvm::raw_ostream &os, llvm::StringRef label,
                 const HostTensor &tensor, int64_t maxElements = 1000);

} // namespace raf::runtime

#endif // RAF_RUNTIME_TENSORPRINTER_H
