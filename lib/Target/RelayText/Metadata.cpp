//===- Metadata.cpp - the `#[metadata]` section of Relay text -------------===//

#include "Metadata.h"

#include "mlir/IR/BuiltinTypes.h"
#include "llvm/Support/Base64.h"
#include "llvm/Support/Endian.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/JSON.h"

using namespace mlir;
using namespace raf::relaytext;
namespace json = llvm::json;

// NDArray::Save header (little-endian): magic, reserved, device type and id,
// ndim, dtype code/bits/lanes, then the shape, byte count and data.
static constexpr uint64_t kNDArrayMagic = 0xDD5E40F096B4A13FULL;
enum DLTypeCode : uint8_t {
  kDLInt = 0,
  kDLUInt = 1,
  kDLFloat = 2,
  kDLBfloat = 4
};

static llvm::Error fail(const llvm::Twine &message) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(), message);
}

static Type dtypeToType(MLIRContext *context, uint8_t code, uint8_t bits) {
  switch (code) {
  case kDLInt:
    if (bits == 8 || bits == 16 || bits == 32 || bits == 64)
      return IntegerType::get(context, bits);
    return {};
  case kDLUInt:
    if (bits == 1)
      return IntegerType::get(context, 1);
    if (bits == 8 || bits == 16 || bits == 32 || bits == 64)
      return IntegerType::get(context, bits, IntegerType::Unsigned);
    return {};
  case kDLFloat:
    if (bits == 16)
      return Float16Type::get(context);
    if (bits == 32)
      return Float32Type::get(context);
    if (bits == 64)
      return Float64Type::get(context);
    return {};
  case kDLBfloat:
    return bits == 16 ? BFloat16Type::get(context) : Type();
  default:
    return {};
  }
}

static bool typeToDtype(Type type, uint8_t &code, uint8_t &bits) {
  if (auto intType = dyn_cast<IntegerType>(type)) {
    bits = intType.getWidth();
    code = bits == 1 || intType.isUnsigned() ? kDLUInt : kDLInt;
    return bits == 1 || bits == 8 || bits == 16 || bits == 32 || bits == 64;
  }
  if (type.isBF16()) {
    code = kDLBfloat;
    bits = 16;
    return true;
  }
  if (type.isF16() || type.isF32() || type.isF64()) {
    code = kDLFloat;
    bits = type.getIntOrFloatBitWidth();
    return true;
  }
  return false;
}

static llvm::Expected<DenseElementsAttr>
decodeNDArray(StringRef base64, MLIRContext *context, size_t index) {
  std::vector<char> bytes;
  if (llvm::Error error = llvm::decodeBase64(base64, bytes)) {
    llvm::consumeError(std::move(error));
    return fail("b64ndarrays[" + llvm::Twine(index) + "] is not valid base64");
  }
  size_t pos = 0;
  auto need = [&](size_t n) { return pos + n <= bytes.size(); };
  auto read64 = [&]() {
    uint64_t v = llvm::support::endian::read64le(bytes.data() + pos);
    pos += 8;
    return v;
  };
  auto read32 = [&]() {
    uint32_t v = llvm::support::endian::read32le(bytes.data() + pos);
    pos += 4;
    return v;
  };
  std::string prefix = ("b64ndarrays[" + llvm::Twine(index) + "]").str();
  if (!need(8 + 8 + 8 + 4 + 4) || read64() != kNDArrayMagic)
    return fail(prefix + " is not a TVM NDArray (bad magic number)");
  read64(); // reserved
  read64(); // device type and id
  int32_t ndim = static_cast<int32_t>(read32());
  uint8_t code = bytes[pos], bits = bytes[pos + 1];
  uint16_t lanes = llvm::support::endian::read16le(bytes.data() + pos + 2);
  pos += 4;
  Type elementType = dtypeToType(context, code, bits);
  if (!elementType || lanes != 1)
    return fail(prefix + " has an unsupported dtype (code " +
                llvm::Twine(unsigned(code)) + ", " +
                llvm::Twine(unsigned(bits)) + " bits, " + llvm::Twine(lanes) +
                " lanes)");
  if (ndim < 0 || !need(size_t(ndim) * 8 + 8))
    return fail(prefix + " is truncated in its shape");
  SmallVector<int64_t> shape;
  int64_t count = 1;
  for (int32_t i = 0; i < ndim; ++i) {
    int64_t dim = static_cast<int64_t>(read64());
    if (dim < 0 || (dim != 0 && count > (int64_t(1) << 40) / dim))
      return fail(prefix + " has an invalid shape");
    shape.push_back(dim);
    count *= dim;
  }
  uint64_t byteSize = read64();
  uint64_t elementBytes = (bits + 7) / 8;
  if (byteSize != uint64_t(count) * elementBytes || !need(byteSize))
    return fail(prefix + " holds " + llvm::Twine(byteSize) +
                " data bytes, expected " + llvm::Twine(count * elementBytes));
  auto type = RankedTensorType::get(shape, elementType);
  const char *data = bytes.data() + pos;
  if (bits == 1) {
    SmallVector<bool> values;
    for (int64_t i = 0; i < count; ++i)
      values.push_back(data[i] != 0);
    return DenseElementsAttr::get(type, values);
  }
  SmallVector<APInt> words;
  for (int64_t i = 0; i < count; ++i) {
    uint64_t word = 0;
    for (uint64_t b = 0; b < elementBytes; ++b)
      word |= uint64_t(uint8_t(data[i * elementBytes + b])) << (8 * b);
    words.push_back(APInt(bits, word));
  }
  if (isa<FloatType>(elementType)) {
    auto floatType = cast<FloatType>(elementType);
    SmallVector<APFloat> values;
    for (const APInt &word : words)
      values.push_back(APFloat(floatType.getFloatSemantics(), word));
    return DenseElementsAttr::get(type, values);
  }
  return DenseElementsAttr::get(type, words);
}

llvm::Expected<SmallVector<DenseElementsAttr>>
raf::relaytext::parseMetadata(StringRef text, MLIRContext *context) {
  llvm::Expected<json::Value> parsed = json::parse(text);
  if (!parsed)
    return fail("metadata is not valid JSON: " +
                llvm::toString(parsed.takeError()));
  const json::Object *root = parsed->getAsObject();
  const json::Array *nodes = root ? root->getArray("nodes") : nullptr;
  std::optional<int64_t> rootIndex =
      root ? root->getInteger("root") : std::nullopt;
  if (!nodes || !rootIndex)
    return fail("metadata must be a JSON object with \"root\" and \"nodes\"");
  const json::Array *ndarrays = root->getArray("b64ndarrays");

  auto node = [&](int64_t index) -> const json::Object * {
    if (index < 0 || size_t(index) >= nodes->size())
      return nullptr;
    return (*nodes)[index].getAsObject();
  };
  // The root is a Map (older TVM: StrMap) from kinds to Arrays of nodes.
  const json::Object *map = node(*rootIndex);
  const json::Array *keys = map ? map->getArray("keys") : nullptr;
  const json::Array *data = map ? map->getArray("data") : nullptr;
  if (!keys || !data || keys->size() != data->size())
    return fail("metadata root is not a Map node with \"keys\" and \"data\"");

  SmallVector<DenseElementsAttr> constants;
  for (size_t k = 0; k < keys->size(); ++k) {
    if ((*keys)[k].getAsString() != std::optional<StringRef>("relay.Constant"))
      continue;
    std::optional<int64_t> arrayIndex = (*data)[k].getAsInteger();
    const json::Object *array = arrayIndex ? node(*arrayIndex) : nullptr;
    const json::Array *elements = array ? array->getArray("data") : nullptr;
    if (!elements)
      return fail("metadata entry \"relay.Constant\" is not an Array node");
    for (const json::Value &element : *elements) {
      std::optional<int64_t> constIndex = element.getAsInteger();
      const json::Object *constant = constIndex ? node(*constIndex) : nullptr;
      const json::Object *attrs =
          constant ? constant->getObject("attrs") : nullptr;
      std::optional<StringRef> dataRef =
          attrs ? attrs->getString("data") : std::nullopt;
      size_t blob;
      if (!dataRef || dataRef->getAsInteger(10, blob))
        return fail("relay.Constant node " +
                    llvm::Twine(constIndex ? *constIndex : -1) +
                    " has no \"data\" attribute naming a b64ndarrays entry");
      if (!ndarrays || blob >= ndarrays->size() ||
          !(*ndarrays)[blob].getAsString())
        return fail("relay.Constant node " + llvm::Twine(*constIndex) +
                    " names b64ndarrays[" + llvm::Twine(blob) +
                    "], which does not exist");
      llvm::Expected<DenseElementsAttr> value =
          decodeNDArray(*(*ndarrays)[blob].getAsString(), context, blob);
      if (!value)
        return value.takeError();
      constants.push_back(*value);
    }
  }
  return constants;
}

static std::string encodeNDArray(DenseElementsAttr value, uint8_t code,
                                 uint8_t bits) {
  std::string bytes;
  auto put = [&](uint64_t v, unsigned n) {
    for (unsigned b = 0; b < n; ++b)
      bytes.push_back(char((v >> (8 * b)) & 0xff));
  };
  auto type = cast<ShapedType>(value.getType());
  put(kNDArrayMagic, 8);
  put(0, 8); // reserved
  put(1, 4); // kDLCPU
  put(0, 4); // device id
  put(type.getRank(), 4);
  put(code, 1);
  put(bits, 1);
  put(1, 2); // lanes
  for (int64_t dim : type.getShape())
    put(dim, 8);
  unsigned elementBytes = (bits + 7) / 8;
  put(uint64_t(type.getNumElements()) * elementBytes, 8);
  if (isa<FloatType>(type.getElementType())) {
    for (const APFloat &v : value.getValues<APFloat>())
      put(v.bitcastToAPInt().getZExtValue(), elementBytes);
  } else {
    for (const APInt &v : value.getValues<APInt>())
      put(v.getZExtValue(), elementBytes);
  }
  return llvm::encodeBase64(bytes);
}

llvm::Expected<std::string>
raf::relaytext::printMetadata(ArrayRef<DenseElementsAttr> constants) {
  // Node 0 is the null node that `_checked_type_` and `span` refer to.
  json::Array nodes;
  nodes.push_back(json::Object{{"type_key", ""}});
  nodes.push_back(json::Object{{"type_key", "Map"},
                               {"keys", json::Array{"relay.Constant"}},
                               {"data", json::Array{2}}});
  json::Array elements;
  for (size_t i = 0; i < constants.size(); ++i)
    elements.push_back(int64_t(3 + i));
  nodes.push_back(
      json::Object{{"type_key", "Array"}, {"data", std::move(elements)}});
  json::Array ndarrays;
  for (auto [i, value] : llvm::enumerate(constants)) {
    uint8_t code, bits;
    if (!typeToDtype(value.getElementType(), code, bits))
      return fail("a constant of element type has no TVM dtype");
    nodes.push_back(
        json::Object{{"type_key", "relay.Constant"},
                     {"attrs", json::Object{{"_checked_type_", "0"},
                                            {"data", std::to_string(i)},
                                            {"span", "0"},
                                            {"virtual_device_", "0"}}}});
    ndarrays.push_back(encodeNDArray(value, code, bits));
  }
  json::Object root{{"root", 1},
                    {"nodes", std::move(nodes)},
                    {"b64ndarrays", std::move(ndarrays)},
                    {"attrs", json::Object{{"tvm_version", "0.8.0"}}}};
  return llvm::formatv("{0:2}", json::Value(std::move(root))).str();
}
