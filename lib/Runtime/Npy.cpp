//===- Npy.cpp - numpy .npy files -----------------------------------------===//
//
// Format: magic "\x93NUMPY", major and minor version bytes, a little-endian
// header length (2 bytes in version 1, 4 bytes in versions 2 and 3), then a
// Python dict literal `{'descr': '<f4', 'fortran_order': False,
// 'shape': (2, 3), }` padded with spaces and a newline, then the raw data.
//
//===----------------------------------------------------------------------===//

#include "raf/Runtime/Npy.h"

#include "llvm/ADT/APInt.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringSwitch.h"
#include "llvm/Support/ConvertUTF.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/raw_ostream.h"

#include <vector>

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

/// The element type of a simple numpy `descr` (what np.dtype accepts for
/// it): an optional byte order ('<', '=', '|', or '>' for single bytes; this
/// host is little-endian) and a kind with a size ("f4"), or numpy's name.
static std::optional<DType> dtypeOfDescr(llvm::StringRef descr) {
  std::optional<DType> named =
      llvm::StringSwitch<std::optional<DType>>(descr)
          .Cases({"?", "bool"}, DType::Bool)
          .Case("int8", DType::I8)
          .Case("uint8", DType::U8)
          .Case("int16", DType::I16)
          .Case("int32", DType::I32)
          .Case("int64", DType::I64)
          .Case("float16", DType::F16)
          .Case("float32", DType::F32)
          .Case("float64", DType::F64)
          .Default(std::nullopt);
  if (named)
    return named;
  char order = '=';
  if (!descr.empty() && llvm::StringRef("<>=|").contains(descr[0])) {
    order = descr[0];
    descr = descr.drop_front();
  }
  std::optional<DType> dtype = llvm::StringSwitch<std::optional<DType>>(descr)
                                   .Cases({"b1", "?"}, DType::Bool)
                                   .Case("i1", DType::I8)
                                   .Case("u1", DType::U8)
                                   .Case("i2", DType::I16)
                                   .Case("i4", DType::I32)
                                   .Case("i8", DType::I64)
                                   .Case("f2", DType::F16)
                                   .Case("f4", DType::F32)
                                   .Case("f8", DType::F64)
                                   .Default(std::nullopt);
  // Big-endian multi-byte data would need swapping.
  if (dtype && order == '>' && byteWidth(*dtype) > 1)
    return std::nullopt;
  return dtype;
}

namespace {

/// A value of the Python literal syntax numpy's header uses (numpy reads it
/// with ast.literal_eval, numpy/lib/format.py `_read_array_header`).
struct PyValue {
  enum class Kind { Str, Bytes, Int, Bool, None, Float, Tuple, List, Set, Dict };
  Kind kind = Kind::None;
  /// Str, Bytes: the decoded contents.
  std::string text;
  /// Int: the value, unless it does not fit int64 (tooLarge). Bool: 0 or 1.
  int64_t integer = 0;
  bool tooLarge = false;
  /// Tuple, List, Set: the elements. Dict: keys and values alternating.
  std::vector<PyValue> items;

  bool isString() const { return kind == Kind::Str; }
};

/// A recursive-descent reader of the literals ast.literal_eval accepts in a
/// header: strings (quotes, triple quotes, u/r/b prefixes, escapes, adjacent
/// literals concatenated), integers (decimal, 0x, 0o, 0b, unary signs),
/// floats, True/False/None, tuples, lists, sets and dicts, with comments and
/// line continuations. Versions 1.0 and 2.0 also drop a Python 2 'L' after
/// an integer, as numpy's `_filter_header` does.
class HeaderParser {
public:
  HeaderParser(llvm::StringRef text, bool dropLongSuffix)
      : text(text), dropLongSuffix(dropLongSuffix) {}

  /// Parses the whole header as one expression; on failure `error` says
  /// why and where.
  std::optional<PyValue> parse() {
    std::optional<PyValue> value = parseExpression();
    if (!value)
      return std::nullopt;
    skipSpace();
    if (pos != text.size())
      return fail("unexpected '" + text.substr(pos, 1) + "'");
    return value;
  }

  std::string error;

private:
  llvm::StringRef text;
  size_t pos = 0;
  bool dropLongSuffix;
  unsigned depth = 0;

  std::nullopt_t fail(const llvm::Twine &message) {
    if (error.empty())
      error = (message + " at offset " + llvm::Twine(pos)).str();
    return std::nullopt;
  }

  char peek(size_t ahead = 0) const {
    return pos + ahead < text.size() ? text[pos + ahead] : '\0';
  }

  void skipSpace() {
    while (pos < text.size()) {
      char c = text[pos];
      if (c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' ||
          c == '\v') {
        ++pos;
      } else if (c == '#') {
        while (pos < text.size() && text[pos] != '\n')
          ++pos;
      } else if (c == '\\' && (peek(1) == '\n' || peek(1) == '\r')) {
        pos += 2;
      } else {
        break;
      }
    }
  }

  static bool isNameChar(char c) { return llvm::isAlnum(c) || c == '_'; }

  std::optional<PyValue> parseExpression() {
    // CPython's tokenizer stops at 200 nested brackets.
    if (++depth > 200)
      return fail("too many nested brackets");
    std::optional<PyValue> value = parseUnary();
    --depth;
    return value;
  }

  std::optional<PyValue> parseUnary() {
    skipSpace();
    if (peek() == '+' || peek() == '-') {
      bool negate = peek() == '-';
      ++pos;
      std::optional<PyValue> operand = parseUnary();
      if (!operand)
        return std::nullopt;
      if (operand->kind != PyValue::Kind::Int &&
          operand->kind != PyValue::Kind::Float)
        return fail("a sign applies only to a number");
      if (negate && operand->kind == PyValue::Kind::Int && !operand->tooLarge)
        operand->integer = -operand->integer;
      return operand;
    }
    return parseAtom();
  }

  std::optional<PyValue> parseAtom() {
    skipSpace();
    char c = peek();
    if (c == '(' || c == '[' || c == '{')
      return parseBracket();
    if (c == '\'' || c == '"')
      return parseStrings();
    if (llvm::isDigit(c) || (c == '.' && llvm::isDigit(peek(1))))
      return parseNumber();
    if (llvm::isAlpha(c) || c == '_') {
      size_t start = pos;
      while (isNameChar(peek()))
        ++pos;
      llvm::StringRef name = text.slice(start, pos);
      // A string prefix directly followed by a quote.
      if ((peek() == '\'' || peek() == '"') && name.size() <= 2 &&
          llvm::all_of(name.lower(), [](char p) {
            return p == 'u' || p == 'r' || p == 'b';
          })) {
        pos = start;
        return parseStrings();
      }
      PyValue value;
      if (name == "True" || name == "False") {
        value.kind = PyValue::Kind::Bool;
        value.integer = name == "True";
        return value;
      }
      if (name == "None")
        return value;
      pos = start;
      return fail("'" + name + "' is not a literal");
    }
    if (c == '\0')
      return fail("unexpected end of the header");
    return fail("unexpected '" + llvm::StringRef(&text.data()[pos], 1) + "'");
  }

  /// (...), [...], {...}: a parenthesised expression, a tuple, a list, a set
  /// or a dict.
  std::optional<PyValue> parseBracket() {
    char open = text[pos++];
    char close = open == '(' ? ')' : open == '[' ? ']' : '}';
    PyValue value;
    value.kind = open == '(' ? PyValue::Kind::Tuple
                 : open == '[' ? PyValue::Kind::List
                               : PyValue::Kind::Set;
    bool sawComma = false, isDict = false;
    skipSpace();
    if (peek() == close) {
      ++pos;
      if (open == '{')
        value.kind = PyValue::Kind::Dict;
      return value;
    }
    while (true) {
      std::optional<PyValue> element = parseExpression();
      if (!element)
        return std::nullopt;
      skipSpace();
      if (open == '{' && (value.items.empty() || isDict)) {
        if (peek() == ':') {
          isDict = true;
          ++pos;
          std::optional<PyValue> mapped = parseExpression();
          if (!mapped)
            return std::nullopt;
          value.items.push_back(std::move(*element));
          element = std::move(mapped);
          skipSpace();
        } else if (isDict) {
          return fail("expected ':' in a dict");
        }
      }
      value.items.push_back(std::move(*element));
      if (peek() == ',') {
        ++pos;
        sawComma = true;
        skipSpace();
        if (peek() == close) {
          ++pos;
          break;
        }
        continue;
      }
      if (peek() == close) {
        ++pos;
        break;
      }
      return fail("expected ',' or '" + std::string(1, close) + "'");
    }
    if (isDict)
      value.kind = PyValue::Kind::Dict;
    // (x) is x, not a tuple.
    if (open == '(' && !sawComma)
      return std::move(value.items.front());
    return value;
  }

  /// One or more adjacent string literals, concatenated.
  std::optional<PyValue> parseStrings() {
    PyValue value;
    value.kind = PyValue::Kind::Str;
    bool first = true;
    while (true) {
      skipSpace();
      size_t start = pos;
      bool raw = false, bytes = false;
      while (llvm::isAlpha(peek())) {
        char p = llvm::toLower(peek());
        raw |= p == 'r';
        bytes |= p == 'b';
        ++pos;
      }
      if (peek() != '\'' && peek() != '"') {
        pos = start;
        if (first)
          return fail("expected a string");
        return value;
      }
      PyValue::Kind kind = bytes ? PyValue::Kind::Bytes : PyValue::Kind::Str;
      if (!first && kind != value.kind)
        return fail("cannot concatenate bytes and str literals");
      value.kind = kind;
      first = false;
      if (!parseStringBody(raw, value.text))
        return std::nullopt;
    }
  }

  bool parseStringBody(bool raw, std::string &out) {
    char quote = text[pos];
    bool triple = peek(1) == quote && peek(2) == quote;
    pos += triple ? 3 : 1;
    while (true) {
      if (pos >= text.size())
        return fail("unterminated string"), false;
      char c = text[pos];
      if (c == quote &&
          (!triple || (peek(1) == quote && peek(2) == quote))) {
        pos += triple ? 3 : 1;
        return true;
      }
      if (!triple && c == '\n')
        return fail("unterminated string"), false;
      if (c != '\\' || raw) {
        if (c == '\\' && pos + 1 < text.size()) {
          // A raw string keeps the backslash and the character after it.
          out.push_back(c);
          ++pos;
          c = text[pos];
        }
        out.push_back(c);
        ++pos;
        continue;
      }
      ++pos;
      char e = peek();
      ++pos;
      switch (e) {
      case '\n':
        break;
      case '\\':
      case '\'':
      case '"':
        out.push_back(e);
        break;
      case 'a':
        out.push_back('\a');
        break;
      case 'b':
        out.push_back('\b');
        break;
      case 'f':
        out.push_back('\f');
        break;
      case 'n':
        out.push_back('\n');
        break;
      case 'r':
        out.push_back('\r');
        break;
      case 't':
        out.push_back('\t');
        break;
      case 'v':
        out.push_back('\v');
        break;
      case 'x': {
        if (!llvm::isHexDigit(peek()) || !llvm::isHexDigit(peek(1)))
          return fail("malformed \\x escape"), false;
        out.push_back(static_cast<char>(llvm::hexDigitValue(peek()) * 16 +
                                        llvm::hexDigitValue(peek(1))));
        pos += 2;
        break;
      }
      default:
        if (e >= '0' && e <= '7') {
          unsigned code = e - '0';
          for (int i = 0; i < 2 && peek() >= '0' && peek() <= '7'; ++i)
            code = code * 8 + (text[pos++] - '0');
          out.push_back(static_cast<char>(code & 0xff));
          break;
        }
        // Python keeps unknown escapes (and \u, \N, which no valid header
        // key or type code needs) as written.
        out.push_back('\\');
        out.push_back(e);
        break;
      }
    }
  }

  std::optional<PyValue> parseNumber() {
    size_t start = pos;
    PyValue value;
    value.kind = PyValue::Kind::Int;
    unsigned radix = 10;
    if (peek() == '0' && llvm::is_contained("xXoObB", peek(1)) &&
        peek(1) != '\0') {
      char r = llvm::toLower(peek(1));
      radix = r == 'x' ? 16 : r == 'o' ? 8 : 2;
      pos += 2;
    }
    size_t digitsStart = pos;
    while (isNameChar(peek()) || peek() == '.' ||
           ((peek() == '+' || peek() == '-') &&
            llvm::toLower(text[pos - 1]) == 'e' && radix == 10))
      ++pos;
    llvm::StringRef spelling = text.slice(digitsStart, pos);
    if (radix == 10 && spelling.find_first_of(".eEjJ") != llvm::StringRef::npos) {
      value.kind = PyValue::Kind::Float;
      return value;
    }
    // A Python 2 long, as numpy's _filter_header removes it (1.0 and 2.0).
    if (dropLongSuffix && spelling.ends_with("L"))
      spelling = spelling.drop_back();
    if (spelling.empty() ||
        (radix == 10 && spelling.size() > 1 && spelling[0] == '0' &&
         spelling.find_first_not_of('0') != llvm::StringRef::npos)) {
      pos = start;
      return fail("malformed integer '" + text.slice(start, pos) + "'");
    }
    llvm::APInt parsed;
    if (spelling.getAsInteger(radix, parsed)) {
      pos = start;
      return fail("malformed integer");
    }
    if (parsed.getActiveBits() > 63)
      value.tooLarge = true;
    else
      value.integer = static_cast<int64_t>(parsed.getZExtValue());
    // _filter_header also drops an 'L' token after some space.
    if (dropLongSuffix) {
      size_t save = pos;
      skipSpace();
      if (peek() == 'L' && !isNameChar(peek(1)))
        ++pos;
      else
        pos = save;
    }
    return value;
  }
};

/// Python's repr-like spelling of a header value, for messages.
std::string describe(const PyValue &value) {
  switch (value.kind) {
  case PyValue::Kind::Str:
    return "'" + value.text + "'";
  case PyValue::Kind::Bytes:
    return "b'" + value.text + "'";
  case PyValue::Kind::Int:
    return value.tooLarge ? std::string("a too large integer")
                          : std::to_string(value.integer);
  case PyValue::Kind::Bool:
    return value.integer ? "True" : "False";
  case PyValue::Kind::None:
    return "None";
  case PyValue::Kind::Float:
    return "a float";
  case PyValue::Kind::Tuple:
  case PyValue::Kind::List:
  case PyValue::Kind::Set: {
    const char *brackets = value.kind == PyValue::Kind::Tuple  ? "()"
                           : value.kind == PyValue::Kind::List ? "[]"
                                                               : "{}";
    std::string result(1, brackets[0]);
    for (auto [index, item] : llvm::enumerate(value.items))
      result += (index ? ", " : "") + describe(item);
    if (value.kind == PyValue::Kind::Tuple && value.items.size() == 1)
      result += ",";
    return result + brackets[1];
  }
  case PyValue::Kind::Dict:
    return "a dict";
  }
  return "?";
}

} // namespace

/// numpy refuses longer headers unless the file is trusted
/// (numpy/lib/format.py, _MAX_HEADER_SIZE).
static constexpr size_t maxHeaderSize = 10000;

llvm::Expected<HostTensor> raf::runtime::parseNpy(llvm::StringRef contents,
                                                  llvm::StringRef name) {
  static constexpr llvm::StringLiteral magic("\x93NUMPY");
  if (!contents.starts_with(magic))
    return npyError(name, "not a .npy file (missing the \\x93NUMPY magic)");
  if (contents.size() < 10)
    return npyError(name, "truncated .npy header");
  // numpy reads versions (1, 0), (2, 0) and (3, 0) only (_check_version):
  // 1.0 has a 2-byte header length, 2.0 and 3.0 a 4-byte one; 3.0's header
  // is UTF-8 rather than Latin-1.
  unsigned major = static_cast<uint8_t>(contents[6]);
  unsigned minor = static_cast<uint8_t>(contents[7]);
  if (major < 1 || major > 3 || minor != 0)
    return npyError(name, "unsupported .npy version " + llvm::Twine(major) +
                              "." + llvm::Twine(minor) +
                              " (numpy writes and reads 1.0, 2.0 and 3.0)");
  size_t headerLength, headerStart;
  if (major == 1) {
    headerLength = static_cast<uint8_t>(contents[8]) |
                   (static_cast<uint8_t>(contents[9]) << 8);
    headerStart = 10;
  } else {
    if (contents.size() < 12)
      return npyError(name, "truncated .npy header");
    headerLength = 0;
    for (int i = 3; i >= 0; --i)
      headerLength = (headerLength << 8) | static_cast<uint8_t>(contents[8 + i]);
    headerStart = 12;
  }
  if (contents.size() < headerStart + headerLength)
    return npyError(name, "truncated .npy header");
  llvm::StringRef header = contents.substr(headerStart, headerLength);
  if (major == 3) {
    const auto *begin = reinterpret_cast<const llvm::UTF8 *>(header.begin());
    if (!llvm::isLegalUTF8String(
            &begin, reinterpret_cast<const llvm::UTF8 *>(header.end())))
      return npyError(name, "the version 3.0 header is not UTF-8");
  }
  // numpy counts decoded characters; every header it accepts has an ASCII
  // dict, where characters and bytes agree.
  if (header.size() > maxHeaderSize)
    return npyError(name, "the header is " + llvm::Twine(header.size()) +
                              " bytes; numpy refuses headers longer than " +
                              llvm::Twine(maxHeaderSize));

  HeaderParser parser(header, /*dropLongSuffix=*/major <= 2);
  std::optional<PyValue> dict = parser.parse();
  if (!dict)
    return npyError(name, "cannot parse the header (" + parser.error +
                              "): " + header.trim());
  if (dict->kind != PyValue::Kind::Dict)
    return npyError(name, "the header is not a dictionary: " + header.trim());
  // A dict literal keeps the last value of a repeated key, and numpy needs
  // exactly the keys descr, fortran_order and shape.
  const PyValue *descrValue = nullptr, *orderValue = nullptr,
                *shapeValue = nullptr;
  std::vector<std::string> otherKeys;
  for (size_t i = 0; i + 1 < dict->items.size(); i += 2) {
    const PyValue &key = dict->items[i], &value = dict->items[i + 1];
    if (key.isString() && key.text == "descr")
      descrValue = &value;
    else if (key.isString() && key.text == "fortran_order")
      orderValue = &value;
    else if (key.isString() && key.text == "shape")
      shapeValue = &value;
    else
      otherKeys.push_back(describe(key));
  }
  if (!descrValue || !orderValue || !shapeValue || !otherKeys.empty()) {
    std::string problem;
    for (auto [present, key] :
         {std::make_pair(descrValue != nullptr, "'descr'"),
          std::make_pair(orderValue != nullptr, "'fortran_order'"),
          std::make_pair(shapeValue != nullptr, "'shape'")})
      if (!present)
        problem += std::string(problem.empty() ? "" : ", ") + "no " + key;
    for (const std::string &key : otherKeys)
      problem += (problem.empty() ? "" : ", ") + std::string("unknown key ") +
                 key;
    return npyError(name, "the header needs exactly the keys 'descr', "
                          "'fortran_order' and 'shape' (" +
                              problem + ")");
  }

  if (descrValue->kind != PyValue::Kind::Str)
    return npyError(name, "unsupported 'descr' " + describe(*descrValue) +
                              " (structured arrays are not tensors)");
  std::optional<DType> dtype = dtypeOfDescr(descrValue->text);
  if (!dtype)
    return npyError(name, "unsupported element type '" + descrValue->text +
                              "' (supported: bool, int8/16/32/64, uint8, "
                              "float16/32/64, little-endian)");

  if (orderValue->kind != PyValue::Kind::Bool)
    return npyError(name, "'fortran_order' is " + describe(*orderValue) +
                              ", not True or False");
  if (orderValue->integer)
    return npyError(name, "Fortran-ordered arrays are not supported (save a "
                          "C-contiguous array)");

  if (shapeValue->kind != PyValue::Kind::Tuple)
    return npyError(name, "'shape' is " + describe(*shapeValue) +
                              ", not a tuple of dimensions");
  llvm::SmallVector<int64_t> shape;
  for (const PyValue &dim : shapeValue->items) {
    if (dim.kind != PyValue::Kind::Int || dim.tooLarge || dim.integer < 0 ||
        dim.integer > (int64_t(1) << 40))
      return npyError(name, "malformed dimension " + describe(dim) +
                                " in the shape " + describe(*shapeValue) +
                                " (dimensions are integers from 0 to 2^40)");
    shape.push_back(dim.integer);
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
  if (std::optional<std::string> problem =
          HostTensor::checkAllocatable(*dtype, shape))
    return npyError(name, "cannot hold the array: " + *problem);
  HostTensor tensor(*dtype, shape);
  // An empty array has no storage to copy into (data() may be null, which
  // memcpy does not accept even for 0 bytes).
  if (!data.empty())
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
