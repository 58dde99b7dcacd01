//===- TensorPrinter.cpp - human-readable tensors -------------------------===//

#include "raf/Runtime/TensorPrinter.h"

#include "llvm/Support/Format.h"

#include <algorithm>
#include <cmath>
#include <limits>

using namespace raf::runtime;

static void printElement(llvm::raw_ostream &os, const HostTensor &tensor,
                         int64_t index) {
  if (isFloat(tensor.getDType()))
    os << llvm::format("%.6g", tensor.getDouble(index));
  else if (tensor.getDType() == DType::Bool)
    os << (tensor.getInt(index) ? "true" : "false");
  else
    os << tensor.getInt(index);
}

static void printNested(llvm::raw_ostream &os, const HostTensor &tensor,
                        unsigned dim, int64_t offset,
                        llvm::ArrayRef<int64_t> strides) {
  if (dim == tensor.getShape().size()) {
    printElement(os, tensor, offset);
    return;
  }
  os << "[";
  for (int64_t i = 0, e = tensor.getShape()[dim]; i < e; ++i) {
    if (i)
      os << (dim + 1 == tensor.getShape().size() ? ", " : ",\n ");
    printNested(os, tensor, dim + 1, offset + i * strides[dim], strides);
  }
  os << "]";
}

void raf::runtime::printTensor(llvm::raw_ostream &os, llvm::StringRef label,
                               const HostTensor &tensor, int64_t maxElements) {
  os << label << ": " << tensor.getTypeString() << "\n";
  int64_t count = tensor.getNumElements();
  if (count <= maxElements) {
    printNested(os, tensor, 0, 0, tensor.getStrides());
    os << "\n";
    return;
  }
  double low = std::numeric_limits<double>::infinity(), high = -low, sum = 0;
  int64_t nans = 0;
  for (int64_t i = 0; i < count; ++i) {
    double value = tensor.getDouble(i);
    if (std::isnan(value)) {
      ++nans;
      continue;
    }
    low = std::min(low, value);
    high = std::max(high, value);
    sum += value;
  }
  if (nans == count)
    os << "all " << count << " values are NaN";
  else
    os << llvm::format("min %.6g max %.6g mean %.6g", low, high,
                       sum / (count - nans));
  if (nans && nans != count)
    os << "; " << nans << " NaN";
  os << "; first values: [";
  for (int64_t i = 0, e = std::min<int64_t>(8, count); i < e; ++i) {
    if (i)
      os << ", ";
    printElement(os, tensor, i);
  }
  os << ", ...]\n";
}
