//===- Npy.cpp - numpy .npy files -----------------------------------------===//
//
// Format: magic "\x93NUMPY", major and minor version bytes, a little-endian
// header length (2 bytes in version 1, 4 bytes in versions 2 and 3), then a
// Python dict literal `{'descr': '<f4', 'fortran_order': False,
// 'shape': (2, 3), }` padded with spaces and a newline, then the raw data.
//
//===----------------------------------------------------------------------===//

#include "raf/Runtime/Npy.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/raw_ostream.h"

using namespace raf::runtime;

static llvm::Error npyError(llvm::StringRef name, const llvm::Twine &message) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                 name + ": " + message);
}

/// The numpy `descr` of a dtype ('|' for single bytes, little-endian '<'
/// otherwise). bf16 has no numpy type.
static std::optional<std::string> descrOf(DType dtype) {
  switch (dtype) {
  case DType::Bool:
    return std::string("|b1");
  case DType::I8:
    return std::string("|i1");
  case DType::U8:
    return std::string("|u1");
  case DType::I16:
    return std::string("<i2");
  case DType::I32:
    return std::string("<i4");
  case DType::I64:
    return std::string("<i8");
  case DType::F16:
    return std::string("<f2");
  case DType::F32:
    return std::string("<f4");
  case DType::F64:
    return std::string("<f8");
  case DType::BF16:
    return std::nullopt;
  }
  return std::nullopt;
}

static std::optional<DType> dtypeOfDescr(llvm::StringRef descr) {
  // Single-byte types may be spelled with any byte-order mark.
  if (descr.size() == 3 && (descr[0] == '|' || descr[0] == '<' ||
                            descr[0] == '=' || descr[0] == '>')) {
    llvm::StringRef kind = descr.drop_front();
    if (kind == "b1")
      return DType::Bool;
    if (kind == "i1")
      return DType::I8;
    if (kind == "u1")
      return DType::U8;
  }
  // Multi-byte types must be little-endian ('<', or '=' on this host).
  if (descr.size() < 2 || (descr[0] != '<' && descr[0] != '='))
    return std::nullopt;
  llvm::StringRef kind = descr.drop_front();
  if (kind == "i2")
    return DType::I16;
  if (kind == "i4")
    return DType::I32;
  if (kind == "i8")
    return DType::I64;
  if (kind == "f2")
    return DType::F16;
  if (kind == "f4")
    return DType::F32;
  if (kind == "f8")
    return DType::F64;
  return std::nullopt;
}

/// The text after `'key':` in the header dict, up to the matching delimiter.
static std::optional<llvm::StringRef> findValue(llvm::StringRef header,
                                                llvm::StringRef key) {
  for (const char *quote : {"'", "\""}) {
    std::string pattern = (llvm::Twine(quote) + key + quote).str();
    size_t at = header.find(pattern);
    if (at == llvm::StringRef::npos)
      continue;
    llvm::StringRef rest = header.drop_front(at + pattern.size()).ltrim();
    if (!rest.consume_front(":"))
      return std::nullopt;
    return rest.ltrim();
  }
  return std::nullopt;
}

llvm::Expected<HostTensor> raf::runtime::parseNpy(llvm::StringRef contents,
                                                  llvm::StringRef name) {
  static constexpr llvm::StringLiteral magic("\x93NUMPY");
  if (!contents.starts_with(magic))
    return npyError(name, "not a .npy file (missing the \\x93NUMPY magic)");
  if (contents.size() < 10)
    return npyError(name, "truncated .npy header");
  unsigned major = static_cast<uint8_t>(contents[6]);
  size_t headerLength, headerStart;
  if (major == 1) {
    headerLength = static_cast<uint8_t>(contents[8]) |
                   (static_cast<uint8_t>(contents[9]) << 8);
    headerStart = 10;
  } else if (major == 2 || major == 3) {
    if (contents.size() < 12)
      return npyError(name, "truncated .npy header");
    headerLength = 0;
    for (int i = 3; i >= 0; --i)
      headerLength = (headerLength << 8) | static_cast<uint8_t>(contents[8 + i]);
    headerStart = 12;
  } else {
    return npyError(name, "unsupported .npy version " + llvm::Twine(major));
  }
  if (contents.size() < headerStart + headerLength)
    return npyError(name, "truncated .npy header");
  llvm::StringRef header = contents.substr(headerStart, headerLength);

  std::optional<llvm::StringRef> descrText = findValue(header, "descr");
  std::optional<llvm::StringRef> orderText =
      findValue(header, "fortran_order");
  std::optional<llvm::StringRef> shapeText = findValue(header, "shape");
  if (!descrText || !orderText || !shapeText)
    return npyError(name, "malformed .npy header (needs 'descr', "
                          "'fortran_order' and 'shape'): " +
                              header.trim());

  if (descrText->empty() || ((*descrText)[0] != '\'' && (*descrText)[0] != '"'))
    return npyError(name, "unsupported 'descr' (structured arrays are not "
                          "tensors)");
  char quote = (*descrText)[0];
  size_t close = descrText->find(quote, 1);
  if (close == llvm::StringRef::npos)
    return npyError(name, "malformed 'descr' in .npy header");
  llvm::StringRef descr = descrText->substr(1, close - 1);
  std::optional<DType> dtype = dtypeOfDescr(descr);
  if (!dtype)
    return npyError(name, "unsupported element type '" + descr +
                              "' (supported: bool, int8/16/32/64, uint8, "
                              "float16/32/64, little-endian)");

  if (orderText->starts_with("True"))
    return npyError(name, "Fortran-ordered arrays are not supported (save a "
                          "C-contiguous array)");
  if (!orderText->starts_with("False"))
    return npyError(name, "malformed 'fortran_order' in .npy header");

  if (!shapeText->consume_front("("))
    return npyError(name, "malformed 'shape' in .npy header");
  size_t end = shapeText->find(')');
  if (end == llvm::StringRef::npos)
    return npyError(name, "malformed 'shape' in .npy header");
  llvm::SmallVector<int64_t> shape;
  llvm::SmallVector<llvm::StringRef> parts;
  shapeText->take_front(end).split(parts, ',', -1, /*KeepEmpty=*/false);
  for (llvm::StringRef part : parts) {
    part = part.trim();
    if (part.empty())
      continue;
    int64_t dim;
    if (part.getAsInteger(10, dim) || dim < 0 || dim > (int64_t(1) << 40))
      return npyError(name, "malformed dimension '" + part +
                                "' in .npy shape");
    shape.push_back(dim);
  }

  // Check the size the header claims against the data before allocating,
  // with overflow-checked arithmetic: a header is free to claim anything.
  llvm::StringRef data = contents.drop_front(headerStart + headerLength);
  std::optional<int64_t> bytes = byteSize(*dtype, shape);
  if (!bytes || *bytes != static_cast<int64_t>(data.size()))
    return npyError(name, "data is " + llvm::Twine(data.size()) +
                              " bytes but shape and type " +
                              HostTensor::typeString(*dtype, shape) +
                              " need " +
                              (bytes ? llvm::Twine(*bytes)
                                     : llvm::Twine("more than 2^63")));
  HostTensor tensor(*dtype, shape);
  std::memcpy(tensor.data(), data.data(), data.size());
  // numpy booleans are bytes; anything but 0 means true. Normalise to 0/1,
  // which is what compiled code (reading the low bit) expects too.
  if (*dtype == DType::Bool)
    for (int64_t i = 0, e = tensor.getNumElements(); i < e; ++i)
      tensor.setInt(i, tensor.data()[i] != 0);
  return tensor;
}

llvm::Expected<HostTensor> raf::runtime::readNpy(llvm::StringRef path) {
  auto buffer = llvm::MemoryBuffer::getFile(path, /*IsText=*/false,
                                            /*RequiresNullTerminator=*/false);
  if (!buffer)
    return npyError(path, "cannot open: " + buffer.getError().message());
  return parseNpy((*buffer)->getBuffer(), path);
}

llvm::Error raf::runtime::writeNpy(llvm::StringRef path,
                                   const HostTensor &tensor) {
  std::optional<std::string> descr = descrOf(tensor.getDType());
  if (!descr)
    return npyError(path, "cannot write " + tensor.getTypeString() +
                              ": numpy has no " +
                              dtypeName(tensor.getDType()) + " type");
  std::string header;
  llvm::raw_string_ostream os(header);
  os << "{'descr': '" << *descr << "', 'fortran_order': False, 'shape': (";
  for (int64_t dim : tensor.getShape())
    os << dim << (tensor.getRank() == 1 ? "," : ", ");
  if (tensor.getRank() > 1)
    header.resize(header.size() - 2);
  os << "), }";
  // Pad so that magic + version + length + header is a multiple of 64.
  size_t total = 10 + header.size() + 1;
  header.append((64 - total % 64) % 64, ' ');
  header.push_back('\n');

  std::error_code error;
  llvm::raw_fd_ostream file(path, error, llvm::sys::fs::OF_None);
  if (error)
    return npyError(path, "cannot write: " + error.message());
  file << "\x93NUMPY" << char(1) << char(0) << char(header.size() & 0xff)
       << char((header.size() >> 8) & 0xff) << header;
  file.write(reinterpret_cast<const char *>(tensor.data()),
             tensor.getNumBytes());
  file.close();
  if (file.has_error())
    return npyError(path, "write failed: " + file.error().message());
  return llvm::Error::success();
}
