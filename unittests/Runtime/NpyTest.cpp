//===- NpyTest.cpp - HostTensor and .npy round trips ----------------------===//

#include "raf/Runtime/Npy.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "gtest/gtest.h"

#include <string>

using namespace raf::runtime;

namespace {

std::string temporaryPath(llvm::StringRef stem) {
  llvm::SmallString<128> path;
  EXPECT_FALSE(llvm::sys::fs::createTemporaryFile(stem, "npy", path));
  return std::string(path);
}

std::string errorText(llvm::Error error) {
  return llvm::toString(std::move(error));
}

TEST(HostTensor, ConvertsAndRounds) {
  HostTensor half(DType::F16, {3});
  half.setDouble(0, 1.0 / 3.0);
  // The nearest f16 to 1/3 is 0x3555 = 0.333251953125.
  EXPECT_DOUBLE_EQ(half.getDouble(0), 0.333251953125);
  half.setDouble(1, 70000.0); // beyond f16 range
  EXPECT_TRUE(std::isinf(half.getDouble(1)));

  HostTensor bytes(DType::I8, {2});
  bytes.setInt(0, 300); // wraps like a two's complement truncation
  EXPECT_EQ(bytes.getInt(0), 44);
  bytes.setDouble(1, -2.7);
  EXPECT_EQ(bytes.getInt(1), -2);

  HostTensor flags(DType::Bool, {1});
  flags.setDouble(0, 0.25);
  EXPECT_EQ(flags.getInt(0), 1);
  EXPECT_EQ(HostTensor(DType::F32, {2, 3, 4}).getStrides(),
            (llvm::SmallVector<int64_t>{12, 4, 1}));
  EXPECT_EQ(HostTensor(DType::I64, {2, 3}).getTypeString(),
            "tensor<2x3xi64>");
}

TEST(Npy, RoundTripsEveryType) {
  std::mt19937_64 generator(7);
  for (DType dtype : {DType::Bool, DType::I8, DType::I16, DType::I32,
                      DType::I64, DType::U8, DType::F16, DType::F32,
                      DType::F64}) {
    for (llvm::SmallVector<int64_t> shape :
         {llvm::SmallVector<int64_t>{}, {5}, {2, 3, 4}, {0, 3}}) {
      HostTensor tensor = HostTensor::random(dtype, shape, generator);
      std::string path = temporaryPath("roundtrip");
      ASSERT_FALSE(writeNpy(path, tensor));
      llvm::Expected<HostTensor> back = readNpy(path);
      ASSERT_TRUE(bool(back)) << errorText(back.takeError());
      EXPECT_EQ(back->getDType(), dtype);
      EXPECT_EQ(back->getShape(), tensor.getShape());
      ASSERT_EQ(back->getNumBytes(), tensor.getNumBytes());
      // An empty tensor's data may be null, which memcmp does not accept.
      if (tensor.getNumBytes() != 0)
        EXPECT_EQ(0, std::memcmp(back->data(), tensor.data(),
                                 tensor.getNumBytes()));
      llvm::sys::fs::remove(path);
    }
  }
}

TEST(Npy, HeaderIsAlignedAndParsesNumpyStyle) {
  // A version 1.0 header as numpy writes it for np.arange(6, dtype='<i4')
  // .reshape(2, 3).
  std::string header =
      "{'descr': '<i4', 'fortran_order': False, 'shape': (2, 3), }";
  header.append(127 - 10 - header.size(), ' '); // 128-byte preamble
  header.push_back('\n');
  std::string file = std::string("\x93NUMPY\x01\x00", 8);
  file.push_back(static_cast<char>(header.size()));
  file.push_back(0);
  file += header;
  for (int32_t i = 0; i < 6; ++i)
    file.append(reinterpret_cast<const char *>(&i), 4);
  llvm::Expected<HostTensor> tensor = parseNpy(file, "arange.npy");
  ASSERT_TRUE(bool(tensor)) << errorText(tensor.takeError());
  EXPECT_EQ(tensor->getTypeString(), "tensor<2x3xi32>");
  EXPECT_EQ(tensor->getInt(5), 5);
}

TEST(Npy, RejectsMalformedFiles) {
  auto expectError = [](llvm::StringRef contents, llvm::StringRef needle) {
    llvm::Expected<HostTensor> tensor = parseNpy(contents, "bad.npy");
    ASSERT_FALSE(bool(tensor));
    std::string message = errorText(tensor.takeError());
    EXPECT_NE(message.find("bad.npy"), std::string::npos) << message;
    EXPECT_NE(message.find(needle.str()), std::string::npos) << message;
  };
  auto withHeader = [](llvm::StringRef dict, llvm::StringRef data) {
    std::string file = std::string("\x93NUMPY\x01\x00", 8);
    file.push_back(static_cast<char>(dict.size()));
    file.push_back(0);
    return file + dict.str() + data.str();
  };
  expectError("PK\x03\x04 zip", "magic");
  expectError(std::string("\x93NUMPY\x01", 7), "truncated");
  expectError(std::string("\x93NUMPY\x09\x00\x00\x00", 10), "version");
  expectError(withHeader("{'descr': '<f4', 'shape': (2,), }", ""),
              "fortran_order");
  expectError(withHeader("{'descr': '>f4', 'fortran_order': False, "
                         "'shape': (1,), }",
                         "abcd"),
              "unsupported element type");
  expectError(withHeader("{'descr': '<f4', 'fortran_order': True, "
                         "'shape': (1,), }",
                         "abcd"),
              "Fortran");
  expectError(withHeader("{'descr': '<f4', 'fortran_order': False, "
                         "'shape': (2, x), }",
                         ""),
              "'x' is not a literal");
  expectError(withHeader("{'descr': '<f4', 'fortran_order': False, "
                         "'shape': (2, -1), }",
                         ""),
              "malformed dimension -1");
  // numpy needs exactly the three keys.
  expectError(withHeader("{'descr': '<f4', 'fortran_order': False, "
                         "'shape': (1,), 'extra': 0}",
                         "abcd"),
              "unknown key 'extra'");
  expectError(withHeader("{'descr': '<f4', 'fortran_order': 0, "
                         "'shape': (1,), }",
                         "abcd"),
              "'fortran_order' is 0");
  // Versions 1.0, 2.0 and 3.0 only; minor versions other than 0 are not.
  expectError(std::string("\x93NUMPY\x01\x01\x00\x00", 10), "version 1.1");
  expectError(withHeader("{'descr': '<f4', 'fortran_order': False, "
                         "'shape': (2,), }",
                         "abc"),
              "data is 3 bytes");
  EXPECT_TRUE(
      llvm::errorToBool(readNpy("/nonexistent/dir/x.npy").takeError()));
  EXPECT_TRUE(llvm::errorToBool(
      writeNpy("/nonexistent/dir/x.npy", HostTensor(DType::F32, {1}))));
  EXPECT_TRUE(llvm::errorToBool(
      writeNpy(temporaryPath("bf16"), HostTensor(DType::BF16, {1}))));
}

TEST(Npy, ReadsHeadersAsNumpyDoes) {
  auto file = [](llvm::StringRef dict, llvm::StringRef data,
                 unsigned major = 1) {
    std::string bytes = std::string("\x93NUMPY", 6);
    bytes.push_back(static_cast<char>(major));
    bytes.push_back(0);
    bytes.push_back(static_cast<char>(dict.size()));
    bytes.push_back(0);
    if (major > 1)
      bytes.append(2, '\0');
    return bytes + dict.str() + data.str();
  };
  std::string twoInts("\x01\x00\x00\x00\x02\x00\x00\x00", 8);
  // A dict literal keeps the last value of a repeated key (numpy reads
  // int32 here; a reader taking the first would read float32).
  llvm::Expected<HostTensor> repeated = parseNpy(
      file("{'descr': '<f4', 'fortran_order': False, 'shape': (2,), "
           "'descr': '<i4'}",
           twoInts),
      "repeated.npy");
  ASSERT_TRUE(bool(repeated)) << errorText(repeated.takeError());
  EXPECT_EQ(repeated->getTypeString(), "tensor<2xi32>");
  EXPECT_EQ(repeated->getInt(1), 2);
  // Version 3.0 (a UTF-8 header), double quotes, comments, a continuation
  // line, hexadecimal and parenthesised dimensions, a Python 2 long in 1.0.
  for (auto [dict, major] :
       {std::make_pair("{\"descr\": \"<i4\", # type\n \"fortran_order\": "
                       "\\\n False, \"shape\": (0x2,)}",
                       3u),
        std::make_pair("{'descr': 'int32', 'fortran_order': False, "
                       "'shape': ((2),)}",
                       2u),
        std::make_pair("{'descr': '<i4', 'fortran_order': False, "
                       "'shape': (2L,)}",
                       1u)}) {
    llvm::Expected<HostTensor> tensor = parseNpy(file(dict, twoInts, major),
                                                 "variant.npy");
    ASSERT_TRUE(bool(tensor)) << dict << ": " << errorText(tensor.takeError());
    EXPECT_EQ(tensor->getTypeString(), "tensor<2xi32>") << dict;
  }
  // ... but a Python 2 long is a syntax error in a 3.0 header.
  EXPECT_TRUE(llvm::errorToBool(
      parseNpy(file("{'descr': '<i4', 'fortran_order': False, "
                    "'shape': (2L,)}",
                    twoInts, 3),
               "long.npy")
          .takeError()));
}

} // namespace
