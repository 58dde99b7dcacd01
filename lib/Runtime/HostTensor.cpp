//===- HostTensor.cpp - dense tensors in host memory ----------------------===//

#include "raf/Runtime/HostTensor.h"

#include "raf/Support/AllocationLimit.h"

#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/MLIRContext.h"
#include "llvm/ADT/APFloat.h"
#include "llvm/Support/CheckedArithmetic.h"
#include "llvm/Support/raw_ostream.h"

#include <cmath>
#include <cstring>

using namespace raf::runtime;

unsigned raf::runtime::byteWidth(DType dtype) {
  switch (dtype) {
  case DType::Bool:
  case DType::I8:
  case DType::U8:
    return 1;
  case DType::I16:
  case DType::F16:
  case DType::BF16:
    return 2;
  case DType::I32:
  case DType::F32:
    return 4;
  case DType::I64:
  case DType::F64:
    return 8;
  }
  llvm_unreachable("unknown dtype");
}

bool raf::runtime::isFloat(DType dtype) {
  return dtype == DType::F16 || dtype == DType::BF16 || dtype == DType::F32 ||
         dtype == DType::F64;
}

std::string raf::runtime::dtypeName(DType dtype) {
  switch (dtype) {
  case DType::Bool:
    return "i1";
  case DType::I8:
    return "i8";
  case DType::I16:
    return "i16";
  case DType::I32:
    return "i32";
  case DType::I64:
    return "i64";
  case DType::U8:
    return "ui8";
  case DType::F16:
    return "f16";
  case DType::BF16:
    return "bf16";
  case DType::F32:
    return "f32";
  case DType::F64:
    return "f64";
  }
  llvm_unreachable("unknown dtype");
}

std::optional<DType> raf::runtime::dtypeFromMLIR(mlir::Type type) {
  if (type.isF16())
    return DType::F16;
  if (type.isBF16())
    return DType::BF16;
  if (type.isF32())
    return DType::F32;
  if (type.isF64())
    return DType::F64;
  auto integer = llvm::dyn_cast<mlir::IntegerType>(type);
  if (!integer)
    return std::nullopt;
  if (integer.isUnsigned())
    return integer.getWidth() == 8 ? std::optional(DType::U8) : std::nullopt;
  switch (integer.getWidth()) {
  case 1:
    return DType::Bool;
  case 8:
    return DType::I8;
  case 16:
    return DType::I16;
  case 32:
    return DType::I32;
  case 64:
    return DType::I64;
  default:
    return std::nullopt;
  }
}

mlir::Type raf::runtime::dtypeToMLIR(mlir::MLIRContext *context,
                                     DType dtype) {
  switch (dtype) {
  case DType::Bool:
    return mlir::IntegerType::get(context, 1);
  case DType::I8:
    return mlir::IntegerType::get(context, 8);
  case DType::I16:
    return mlir::IntegerType::get(context, 16);
  case DType::I32:
    return mlir::IntegerType::get(context, 32);
  case DType::I64:
    return mlir::IntegerType::get(context, 64);
  case DType::U8:
    return mlir::IntegerType::get(context, 8, mlir::IntegerType::Unsigned);
  case DType::F16:
    return mlir::Float16Type::get(context);
  case DType::BF16:
    return mlir::BFloat16Type::get(context);
  case DType::F32:
    return mlir::Float32Type::get(context);
  case DType::F64:
    return mlir::Float64Type::get(context);
  }
  llvm_unreachable("unknown dtype");
}

std::optional<int64_t> raf::runtime::byteSize(DType dtype,
                                              llvm::ArrayRef<int64_t> shape) {
  int64_t bytes = byteWidth(dtype);
  for (int64_t dim : shape) {
    if (dim < 0)
      return std::nullopt;
    std::optional<int64_t> product = llvm::checkedMul(bytes, dim);
    if (!product)
      return std::nullopt;
    bytes = *product;
  }
  return bytes;
}

std::optional<std::string>
HostTensor::checkAllocatable(DType dtype, llvm::ArrayRef<int64_t> shape) {
  std::optional<int64_t> bytes = byteSize(dtype, shape);
  if (!bytes)
    return typeString(dtype, shape) + " has more than 2^63 bytes";
  if (std::optional<std::string> problem =
          raf::checkAllocationSize(static_cast<uint64_t>(*bytes)))
    return typeString(dtype, shape) + ": " + *problem;
  return std::nullopt;
}

HostTensor::HostTensor(DType dtype, llvm::ArrayRef<int64_t> shape)
    : dtype(dtype), shape(shape.begin(), shape.end()) {
  bytes.assign(static_cast<size_t>(getNumElements()) * byteWidth(dtype), 0);
}

int64_t HostTensor::getNumElements() const {
  int64_t count = 1;
  for (int64_t dim : shape)
    count *= dim;
  return count;
}

llvm::SmallVector<int64_t> HostTensor::getStrides() const {
  llvm::SmallVector<int64_t> strides(shape.size(), 1);
  for (int64_t i = static_cast<int64_t>(shape.size()) - 2; i >= 0; --i)
    strides[i] = strides[i + 1] * shape[i + 1];
  return strides;
}

template <typename T> static T load(const uint8_t *address) {
  T value;
  std::memcpy(&value, address, sizeof(T));
  return value;
}

template <typename T> static void store(uint8_t *address, T value) {
  std::memcpy(address, &value, sizeof(T));
}

/// Half-precision values go through APFloat so rounding is IEEE
/// round-to-nearest-even, as on hardware.
static double halfToDouble(uint16_t bits, const llvm::fltSemantics &sem) {
  llvm::APFloat value(sem, llvm::APInt(16, bits));
  bool losesInfo;
  value.convert(llvm::APFloat::IEEEdouble(),
                llvm::APFloat::rmNearestTiesToEven, &losesInfo);
  return value.convertToDouble();
}

static uint16_t doubleToHalf(double input, const llvm::fltSemantics &sem) {
  llvm::APFloat value(input);
  bool losesInfo;
  value.convert(sem, llvm::APFloat::rmNearestTiesToEven, &losesInfo);
  return static_cast<uint16_t>(value.bitcastToAPInt().getZExtValue());
}

double HostTensor::getDouble(int64_t index) const {
  const uint8_t *address = bytes.data() + index * byteWidth(dtype);
  switch (dtype) {
  case DType::F16:
    return halfToDouble(load<uint16_t>(address), llvm::APFloat::IEEEhalf());
  case DType::BF16:
    return halfToDouble(load<uint16_t>(address), llvm::APFloat::BFloat());
  case DType::F32:
    return load<float>(address);
  case DType::F64:
    return load<double>(address);
  default:
    return static_cast<double>(getInt(index));
  }
}

int64_t HostTensor::getInt(int64_t index) const {
  if (isFloat(dtype))
    return static_cast<int64_t>(std::trunc(getDouble(index)));
  const uint8_t *address = bytes.data() + index * byteWidth(dtype);
  switch (dtype) {
  case DType::Bool:
    return load<uint8_t>(address) != 0;
  case DType::I8:
    return load<int8_t>(address);
  case DType::I16:
    return load<int16_t>(address);
  case DType::I32:
    return load<int32_t>(address);
  case DType::I64:
    return load<int64_t>(address);
  case DType::U8:
    return load<uint8_t>(address);
  default:
    llvm_unreachable("float handled above");
  }
}

void HostTensor::setDouble(int64_t index, double value) {
  uint8_t *address = bytes.data() + index * byteWidth(dtype);
  switch (dtype) {
  case DType::F16:
    return store<uint16_t>(address,
                           doubleToHalf(value, llvm::APFloat::IEEEhalf()));
  case DType::BF16:
    return store<uint16_t>(address,
                           doubleToHalf(value, llvm::APFloat::BFloat()));
  case DType::F32:
    return store<float>(address, static_cast<float>(value));
  case DType::F64:
    return store<double>(address, value);
  case DType::Bool:
    return store<uint8_t>(address, value != 0.0);
  default:
    // Integers: truncate toward zero, then wrap like a two's complement
    // conversion (NaN and out-of-range values become 0 / wrapped rather
    // than undefined behaviour).
    if (!std::isfinite(value) || std::fabs(value) >= 9.2e18)
      return setInt(index, 0);
    return setInt(index, static_cast<int64_t>(std::trunc(value)));
  }
}

void HostTensor::setInt(int64_t index, int64_t value) {
  uint8_t *address = bytes.data() + index * byteWidth(dtype);
  switch (dtype) {
  case DType::Bool:
    return store<uint8_t>(address, value != 0);
  case DType::I8:
    return store<int8_t>(address, static_cast<int8_t>(value));
  case DType::I16:
    return store<int16_t>(address, static_cast<int16_t>(value));
  case DType::I32:
    return store<int32_t>(address, static_cast<int32_t>(value));
  case DType::I64:
    return store<int64_t>(address, value);
  case DType::U8:
    return store<uint8_t>(address, static_cast<uint8_t>(value));
  default:
    return setDouble(index, static_cast<double>(value));
  }
}

mlir::RankedTensorType HostTensor::getType(mlir::MLIRContext *context) const {
  return mlir::RankedTensorType::get(shape, dtypeToMLIR(context, dtype));
}

std::string HostTensor::typeString(DType dtype,
                                   llvm::ArrayRef<int64_t> shape) {
  std::string text = "tensor<";
  llvm::raw_string_ostream os(text);
  for (int64_t dim : shape)
    os << dim << "x";
  os << dtypeName(dtype) << ">";
  return text;
}

std::string HostTensor::getTypeString() const {
  return typeString(dtype, shape);
}

HostTensor HostTensor::random(DType dtype, llvm::ArrayRef<int64_t> shape,
                              std::mt19937_64 &generator, double low,
                              double high) {
  HostTensor tensor(dtype, shape);
  std::uniform_real_distribution<double> real(low, high);
  std::uniform_int_distribution<int64_t> integer(0, 9);
  std::bernoulli_distribution coin(0.5);
  for (int64_t i = 0, e = tensor.getNumElements(); i < e; ++i) {
    if (isFloat(dtype))
      tensor.setDouble(i, real(generator));
    else if (dtype == DType::Bool)
      tensor.setInt(i, coin(generator));
    else
      tensor.setInt(i, integer(generator));
  }
  return tensor;
}
