//===- Config.cpp - VTA hardware configuration ----------------------------===//

#include "raf/Target/VTA/Config.h"

#include "raf/Target/VTA/Layout.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/Twine.h"
#include "llvm/Support/ErrorHandling.h"
#include "llvm/Support/raw_ostream.h"

using namespace raf::vta;

llvm::StringRef raf::vta::getBufferName(Buffer buffer) {
  switch (buffer) {
  case Buffer::Uop:
    return "uop";
  case Buffer::Inp:
    return "inp";
  case Buffer::Wgt:
    return "wgt";
  case Buffer::Acc:
    return "acc";
  case Buffer::Out:
    return "out";
  }
  llvm_unreachable("unknown buffer");
}

Config Config::getDefault() { return Config(); }

Config Config::get8x8x8() {
  Config config;
  config.logBatch = 3;
  config.logBlock = 3;
  return config;
}

llvm::ArrayRef<llvm::StringRef> Config::getPresetNames() {
  static const llvm::StringRef names[] = {"1x16x16", "8x8x8"};
  return names;
}

std::optional<Config> Config::getPreset(llvm::StringRef name) {
  if (name == "1x16x16")
    return getDefault();
  if (name == "8x8x8")
    return get8x8x8();
  return std::nullopt;
}

std::optional<llvm::StringRef> Config::getPresetName() const {
  for (llvm::StringRef name : getPresetNames())
    if (*getPreset(name) == *this)
      return name;
  return std::nullopt;
}

llvm::ArrayRef<ConfigParameter> raf::vta::getConfigParameters() {
  static const ConfigParameter parameters[] = {
      {"log_inp_width", &Config::logInpWidth},
      {"log_wgt_width", &Config::logWgtWidth},
      {"log_acc_width", &Config::logAccWidth},
      {"log_batch", &Config::logBatch},
      {"log_block", &Config::logBlock},
      {"log_uop_buff_size", &Config::logUopBuffSize},
      {"log_inp_buff_size", &Config::logInpBuffSize},
      {"log_wgt_buff_size", &Config::logWgtBuffSize},
      {"log_acc_buff_size", &Config::logAccBuffSize},
  };
  return parameters;
}

bool Config::operator==(const Config &other) const {
  return llvm::all_of(getConfigParameters(), [&](const ConfigParameter &p) {
    return this->*p.member == other.*p.member;
  });
}

unsigned Config::logBuffDepth(Buffer buffer) const {
  switch (buffer) {
  case Buffer::Uop:
    return logUopBuffDepth();
  case Buffer::Inp:
    return logInpBuffDepth();
  case Buffer::Wgt:
    return logWgtBuffDepth();
  case Buffer::Acc:
    return logAccBuffDepth();
  case Buffer::Out:
    return logOutBuffDepth();
  }
  llvm_unreachable("unknown buffer");
}

uint64_t Config::elemBits(Buffer buffer) const {
  switch (buffer) {
  case Buffer::Uop:
    return 32;
  case Buffer::Inp:
    return uint64_t(inpWidth()) * batch() * blockIn();
  case Buffer::Wgt:
    return uint64_t(wgtWidth()) * blockOut() * blockIn();
  case Buffer::Acc:
    return uint64_t(accWidth()) * batch() * blockOut();
  case Buffer::Out:
    return uint64_t(outWidth()) * batch() * blockOut();
  }
  llvm_unreachable("unknown buffer");
}

std::vector<std::string> Config::validate() const {
  std::vector<std::string> errors;
  auto fail = [&](const llvm::Twine &message) {
    errors.push_back(message.str());
  };

  // The datapath (and TVM-VTA's simulator, which asserts the same) computes
  // int8 x int8 products into int32 accumulators.
  if (logInpWidth != 3)
    fail("log_inp_width must be 3 (8-bit inputs), got " +
         llvm::Twine(logInpWidth));
  if (logWgtWidth != 3)
    fail("log_wgt_width must be 3 (8-bit weights), got " +
         llvm::Twine(logWgtWidth));
  if (logAccWidth != 5)
    fail("log_acc_width must be 5 (32-bit accumulators), got " +
         llvm::Twine(logAccWidth));
  // Bounds that keep every derived size far from overflow; real VTA
  // instances use BATCH, BLOCK <= 64 and buffers of a few hundred KiB.
  if (logBatch > 8)
    fail("log_batch must be at most 8, got " + llvm::Twine(logBatch));
  if (logBlock > 8)
    fail("log_block must be at most 8, got " + llvm::Twine(logBlock));
  for (const ConfigParameter &p : getConfigParameters().drop_front(5))
    if (this->*p.member > 32)
      fail(p.key + " must be at most 32, got " + llvm::Twine(this->*p.member));
  if (!errors.empty())
    return errors;

  // Depths, computed signed so that too-small buffers are reported instead
  // of wrapping.
  struct DepthCheck {
    Buffer buffer;
    llvm::StringRef key;
    int64_t logSize;
    // log2 of the bytes of one row.
    int64_t logRowBytes;
  };
  DepthCheck depths[] = {
      {Buffer::Uop, "log_uop_buff_size", logUopBuffSize, 2},
      {Buffer::Inp, "log_inp_buff_size", logInpBuffSize,
       int64_t(logBatch) + logBlock + logInpWidth - 3},
      {Buffer::Wgt, "log_wgt_buff_size", logWgtBuffSize,
       int64_t(logBlock) + logBlock + logWgtWidth - 3},
      {Buffer::Acc, "log_acc_buff_size", logAccBuffSize,
       int64_t(logBatch) + logBlock + logAccWidth - 3},
  };
  for (const DepthCheck &check : depths) {
    int64_t logDepth = check.logSize - check.logRowBytes;
    if (logDepth < 0)
      fail("the " + getBufferName(check.buffer) +
           " buffer holds less than one row: " + check.key + " = " +
           llvm::Twine(check.logSize) + " but a row takes 2^" +
           llvm::Twine(check.logRowBytes) + " bytes");
    else if (logDepth > widths::SramAddr)
      fail("the " + getBufferName(check.buffer) + " buffer has 2^" +
           llvm::Twine(logDepth) +
           " rows, more than 16-bit SRAM addresses reach");
  }
  if (!errors.empty())
    return errors;

  std::string layoutError;
  if (!Layout::compute(*this, &layoutError))
    fail(layoutError);
  return errors;
}

void Config::print(llvm::raw_ostream &os) const {
  for (const ConfigParameter &p : getConfigParameters())
    os << p.key << " = " << this->*p.member << "\n";
  if (!isValid()) {
    os << "(invalid)\n";
    return;
  }
  os << "BATCH x BLOCK_IN x BLOCK_OUT = " << batch() << "x" << blockIn() << "x"
     << blockOut() << "\n";
  for (Buffer buffer :
       {Buffer::Uop, Buffer::Inp, Buffer::Wgt, Buffer::Acc, Buffer::Out})
    os << getBufferName(buffer) << ": " << elemBytes(buffer)
       << " B per row, " << buffDepth(buffer) << " rows, "
       << buffBytes(buffer) << " B\n";
}
