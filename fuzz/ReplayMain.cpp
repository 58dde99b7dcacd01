//===- ReplayMain.cpp - run a fuzz target on files ------------------------===//
//
// The main() of a fuzz target in builds without libFuzzer (docs/fuzzing.md):
// runs LLVMFuzzerTestOneInput once on each file given, or on each file of a
// directory given, as libFuzzer does when it is handed files. lit uses it to
// replay every input that once crashed a target (test/Fuzz). Arguments that
// start with '-' (libFuzzer's flags) are ignored.
//
//===----------------------------------------------------------------------===//

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/raw_ostream.h"

#include <cstdint>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
extern "C" int LLVMFuzzerInitialize(int *argc, char ***argv)
    __attribute__((weak));

static int runFile(const std::string &path) {
  llvm::ErrorOr<std::unique_ptr<llvm::MemoryBuffer>> buffer =
      llvm::MemoryBuffer::getFile(path, /*IsText=*/false,
                                  /*RequiresNullTerminator=*/false);
  if (!buffer) {
    llvm::errs() << "error: cannot read '" << path
                 << "': " << buffer.getError().message() << "\n";
    return 1;
  }
  // An exactly sized copy, as libFuzzer passes inputs: a read past the end
  // is a heap overflow the sanitizers see.
  size_t size = (*buffer)->getBufferSize();
  std::unique_ptr<uint8_t[]> data(new uint8_t[size == 0 ? 1 : size]);
  std::memcpy(data.get(), (*buffer)->getBufferStart(), size);
  LLVMFuzzerTestOneInput(data.get(), size);
  return 0;
}

int main(int argc, char **argv) {
  if (LLVMFuzzerInitialize)
    LLVMFuzzerInitialize(&argc, &argv);
  std::vector<std::string> files;
  for (int i = 1; i < argc; ++i) {
    llvm::StringRef arg(argv[i]);
    if (arg.starts_with("-"))
      continue;
    if (!llvm::sys::fs::is_directory(arg)) {
      files.push_back(arg.str());
      continue;
    }
    std::error_code ec;
    std::vector<std::string> entries;
    for (llvm::sys::fs::directory_iterator it(arg, ec), end; it != end && !ec;
         it.increment(ec))
      if (!llvm::sys::fs::is_directory(it->path()))
        entries.push_back(it->path());
    if (ec) {
      llvm::errs() << "error: cannot list '" << arg << "': " << ec.message()
                   << "\n";
      return 1;
    }
    llvm::sort(entries);
    llvm::append_range(files, entries);
  }
  int status = 0;
  for (const std::string &file : files)
    status |= runFile(file);
  llvm::outs() << "replayed " << files.size() << " inputs\n";
  return status;
}
