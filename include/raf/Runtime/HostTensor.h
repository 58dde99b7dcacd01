//===- HostTensor.h - dense tensors in host memory --------------*- C++ -*-===//
//
// The value every RAF-MLIR runner exchanges: a dense, row-major tensor with an
// element type and a shape, stored as raw little-endian bytes. raf-run reads
// it from and writes it to `.npy` files, passes it to JIT-compiled code as a
// memref, and the reference evaluator computes on it.
//
//===----------------------------------------------------------------------===//

#ifndef RAF_RUNTIME_HOSTTENSOR_H
#define RAF_RUNTIME_HOSTTENSOR_H

#include "mlir/IR/BuiltinTypes.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringRef.h"

#include <cstdint>
#include <optional>
#include <random>
#include <string>
#include <vector>

namespace raf::runtime {

/// Element types a HostTensor can hold. Booleans take one byte each, as in
/// numpy.
enum class DType { Bool, I8, I16, I32, I64, U8, F16, BF16, F32, F64 };

/// Bytes per element.
unsigned byteWidth(DType dtype);
bool isFloat(DType dtype);
/// "f32", "i64", "bool", ... (the MLIR spelling, i1 for bool).
std::string dtypeName(DType dtype);
/// The DType of an MLIR element type, if a HostTensor can hold it.
std::optional<DType> dtypeFromMLIR(mlir::Type type);
mlir::Type dtypeToMLIR(mlir::MLIRContext *context, DType dtype);
/// Bytes of a dense tensor of this type, or nullopt when the count does not
/// fit in int64_t (a negative dimension counts as overflow).
std::optional<int64_t> byteSize(DType dtype, llvm::ArrayRef<int64_t> shape);

class HostTensor {
public:
  HostTensor() = default;
  /// A zero-filled tensor. The caller makes sure it fits in memory (see
  /// checkAllocatable).
  HostTensor(DType dtype, llvm::ArrayRef<int64_t> shape);

  /// An error message if a tensor of this type cannot be allocated: its size
  /// overflows or exceeds the machine's physical memory. Empty if it can.
  static std::optional<std::string>
  checkAllocatable(DType dtype, llvm::ArrayRef<int64_t> shape);

  DType getDType() const { return dtype; }
  llvm::ArrayRef<int64_t> getShape() const { return shape; }
  int64_t getRank() const { return static_cast<int64_t>(shape.size()); }
  int64_t getNumElements() const;
  /// Row-major strides, in elements.
  llvm::SmallVector<int64_t> getStrides() const;

  uint8_t *data() { return bytes.data(); }
  const uint8_t *data() const { return bytes.data(); }
  size_t getNumBytes() const { return bytes.size(); }

  /// Element `index` (flat, row-major) converted to double / int64. Floats
  /// are truncated toward zero by getInt; booleans read as 0 or 1.
  double getDouble(int64_t index) const;
  int64_t getInt(int64_t index) const;
  /// Stores `value` converted to the element type: floats round to nearest
  /// (f16/bf16 included), integers truncate toward zero and wrap, booleans
  /// become value != 0.
  void setDouble(int64_t index, double value);
  void setInt(int64_t index, int64_t value);

  /// The tensor type this value has in IR (`tensor<2x3xf32>`).
  mlir::RankedTensorType getType(mlir::MLIRContext *context) const;
  /// "tensor<2x3xf32>" without needing a context.
  std::string getTypeString() const;
  static std::string typeString(DType dtype, llvm::ArrayRef<int64_t> shape);

  /// A tensor of seeded random data: floats uniform in [low, high)
  /// (default [-1, 1)), integers uniform in [0, 10), booleans fair coins.
  static HostTensor random(DType dtype, llvm::ArrayRef<int64_t> shape,
                           std::mt19937_64 &generator, double low = -1.0,
                           double high = 1.0);

private:
  DType dtype = DType::F32;
  llvm::SmallVector<int64_t> shape;
  std::vector<uint8_t> bytes;
};

} // namespace raf::runtime

#endif // RAF_RUNTIME_HOSTTENSOR_H
