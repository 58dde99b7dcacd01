//===- npy.cpp - fuzz the .npy reader -------------------------------------===//
//
// Input: a .npy file (raf-run --input). Parses it with the reader raf-run
// uses; a tensor it accepts must hold exactly its shape's bytes.
//
//===----------------------------------------------------------------------===//

#include "FuzzerSupport.h"

#include "raf/Runtime/Npy.h"

#include "llvm/Support/raw_ostream.h"

#include <cstdlib>

extern "C" int LLVMFuzzerInitialize(int *, char ***) {
  raf::fuzz::initializeLimits();
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  llvm::Expected<raf::runtime::HostTensor> tensor = raf::runtime::parseNpy(
      llvm::StringRef(reinterpret_cast<const char *>(data), size), "input.npy");
  if (!tensor) {
    llvm::consumeError(tensor.takeError());
    return 0;
  }
  std::optional<int64_t> bytes =
      raf::runtime::byteSize(tensor->getDType(), tensor->getShape());
  if (!bytes || uint64_t(*bytes) != tensor->getNumBytes()) {
    llvm::errs() << "fuzz invariant: the tensor read holds "
                 << tensor->getNumBytes() << " bytes, not its shape's\n";
    std::abort();
  }
  // Every element is readable as its shape says.
  if (tensor->getNumElements() > 0)
    (void)tensor->getDouble(tensor->getNumElements() - 1);
  return 0;
}
