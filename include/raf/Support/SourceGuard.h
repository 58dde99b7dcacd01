//===- SourceGuard.h - checks of textual IR before the parser ----*- C++ -*-===//
//
// MLIR's textual parser (llvm-project mlir/lib/AsmParser) does not survive
// every input: it recurses once or more per bracket level, so deeply nested
// IR (10,000 `[`) overflows the stack, and the dense-array parser of LLVM 22
// accepts `array<index: ...>` and then asks the index type for a bit width,
// which crashes (llvm-project issue #179045). Every tool of ours that reads
// `.mlir` text scans it with checkMLIRSource first and runs on a stack sized
// for the nesting-depth limit (runOnParserStack), so such inputs are located
// errors instead of crashes.
//
// The scan is one linear pass over the text that knows just enough of the
// lexical syntax (string literals, comments, `->`) to count brackets and see
// keywords; it accepts everything the parser accepts up to the limit.
// Further constructs the parser does not survive belong in the same scan.
//
//===----------------------------------------------------------------------===//

#ifndef RAF_SUPPORT_SOURCEGUARD_H
#define RAF_SUPPORT_SOURCEGUARD_H

#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/MemoryBufferRef.h"
#include "llvm/Support/raw_ostream.h"

#include <cstddef>
#include <optional>
#include <string>

namespace raf {

/// A construct the upstream parser would crash on: where it starts (an
/// offset into the scanned text) and what it is.
struct UnsafeSource {
  size_t offset = 0;
  std::string message;
};

/// Scans MLIR assembly for nesting deeper than `maxDepth` brackets ((, [,
/// {, <) and for dense arrays of index elements. Returns the first problem.
std::optional<UnsafeSource> findUnsafeMLIRSource(llvm::StringRef text,
                                                 uint64_t maxDepth);

/// Whether `buffer` holds MLIR bytecode rather than text (the bytecode
/// reader does not recurse on nesting; it is not scanned).
bool isMLIRBytecode(llvm::StringRef buffer);

/// Scans `buffer` (text; bytecode passes) with the nesting-depth limit of
/// raf/Support/ResourceLimits.h. On a problem prints a located error
/// (`file:line:col: error: ...`) to `os` and returns false.
bool checkMLIRSource(llvm::MemoryBufferRef buffer,
                     llvm::raw_ostream &os = llvm::errs());

/// Runs `body` (a tool's work after option parsing) on a stack large enough
/// for the nesting-depth limit in force, and returns its result.
int runOnParserStack(llvm::function_ref<int()> body);

} // namespace raf

#endif // RAF_SUPPORT_SOURCEGUARD_H
