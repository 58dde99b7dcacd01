//===- Npy.h - numpy .npy files ---------------------------------*- C++ -*-===//
//
// Reads and writes numpy's `.npy` format (versions 1.0, 2.0 and 3.0; C order,
// little-endian or byte-order-free element types). The header is read as
// numpy.load reads it (numpy/lib/format.py): a Python dict literal with
// exactly the keys descr, fortran_order and shape, the last value of a
// repeated key, at most 10000 bytes. Every malformed file is an llvm::Error
// naming the file and what is wrong with it.
//
//===----------------------------------------------------------------------===//

#ifndef RAF_RUNTIME_NPY_H
#define RAF_RUNTIME_NPY_H

#include "raf/Runtime/HostTensor.h"
#include "llvm/Support/Error.h"

namespace raf::runtime {

llvm::Expected<HostTensor> readNpy(llvm::StringRef path);
/// Parses an in-memory `.npy` image; `name` is used in error messages.
llvm::Expected<HostTensor> parseNpy(llvm::StringRef contents,
                                    llvm::StringRef name);
llvm::Error writeNpy(llvm::StringRef path, const HostTensor &tensor);

} // namespace raf::runtime

#endif // RAF_RUNTIME_NPY_H
