//===- SourceGuard.cpp - checks of textual IR before the parser -----------===//

#include "raf/Support/SourceGuard.h"

#include "raf/Support/ResourceLimits.h"

#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/WithColor.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/Support/thread.h"

#include <algorithm>

using namespace llvm;

namespace {

/// bare-id ::= (letter|[_]) (letter|digit|[_$.])*; the suffixes of %, #, !,
/// ^ identifiers also allow '-'.
bool isIdentifierChar(char c, bool prefixed = false) {
  return isAlnum(c) || c == '_' || c == '$' || c == '.' ||
         (prefixed && c == '-');
}

/// Skips whitespace and `//` comments from `pos`.
size_t skipTrivia(StringRef text, size_t pos) {
  while (pos < text.size()) {
    if (isSpace(text[pos])) {
      ++pos;
    } else if (text.substr(pos).starts_with("//")) {
      pos = text.find('\n', pos);
      if (pos == StringRef::npos)
        return text.size();
    } else {
      break;
    }
  }
  return pos;
}

char closerOf(char opener) {
  switch (opener) {
  case '(':
    return ')';
  case '[':
    return ']';
  case '{':
    return '}';
  default:
    return '>';
  }
}

} // namespace

std::optional<raf::UnsafeSource>
raf::findUnsafeMLIRSource(StringRef text, uint64_t maxDepth) {
  // The open brackets, innermost last. A `<` that is never closed (a
  // comparison in some custom syntax) is dropped when an enclosing bracket
  // closes, so it cannot accumulate.
  SmallVector<char, 64> open;
  size_t pos = 0, end = text.size();
  while (pos < end) {
    char c = text[pos];
    if (c == '"') {
      // A string literal: up to the closing quote (escapes skipped) or the
      // end of the line, where the lexer stops too.
      ++pos;
      while (pos < end && text[pos] != '"' && text[pos] != '\n')
        pos += text[pos] == '\\' ? 2 : 1;
      ++pos;
      continue;
    }
    if (c == '/' && pos + 1 < end && text[pos + 1] == '/') {
      pos = text.find('\n', pos);
      if (pos == StringRef::npos)
        break;
      continue;
    }
    if (c == '-' && pos + 1 < end && text[pos + 1] == '>') {
      pos += 2;
      continue;
    }
    if (c == '(' || c == '[' || c == '{' || c == '<') {
      open.push_back(c);
      if (open.size() > maxDepth) {
        // The limit's own message (naming its option) when `maxDepth` is
        // the limit in force.
        std::optional<std::string> problem;
        if (maxDepth == getResourceLimit(ResourceLimit::NestingDepth))
          problem = checkResourceLimit(ResourceLimit::NestingDepth,
                                       open.size());
        if (!problem)
          problem = std::to_string(open.size()) +
                    " levels exceed the limit of " + std::to_string(maxDepth) +
                    " levels";
        return UnsafeSource{
            pos, "IR nested deeper than the parser can take: " + *problem};
      }
      ++pos;
      continue;
    }
    if (c == ')' || c == ']' || c == '}' || c == '>') {
      if (c != '>')
        while (!open.empty() && open.back() == '<')
          open.pop_back();
      if (!open.empty() && closerOf(open.back()) == c)
        open.pop_back();
      ++pos;
      continue;
    }
    if (isAlpha(c) || c == '_' || c == '%' || c == '@' || c == '#' ||
        c == '!' || c == '^') {
      size_t start = pos++;
      bool prefixed = !isAlpha(c) && c != '_';
      while (pos < end && isIdentifierChar(text[pos], prefixed))
        ++pos;
      // `array` `<` `index`: the element type of a dense array.
      if (text.slice(start, pos) != "array")
        continue;
      size_t next = skipTrivia(text, pos);
      if (next >= end || text[next] != '<')
        continue;
      next = skipTrivia(text, next + 1);
      if (!text.substr(next).starts_with("index") ||
          (next + 5 < end && isIdentifierChar(text[next + 5])))
        continue;
      return UnsafeSource{
          start, "a dense array of 'index' elements is not valid IR (the "
                 "elements must be integers or floats); the upstream parser "
                 "crashes on it (llvm-project issue #179045)"};
    }
    if (isDigit(c)) {
      // A number (or the digits of a suffix like 10xi32): never a bracket.
      while (pos < end && isAlnum(text[pos]))
        ++pos;
      continue;
    }
    ++pos;
  }
  return std::nullopt;
}

bool raf::isMLIRBytecode(StringRef buffer) {
  return buffer.starts_with(StringRef("ML\xefR", 4));
}

bool raf::checkMLIRSource(MemoryBufferRef buffer, raw_ostream &os) {
  if (isMLIRBytecode(buffer.getBuffer()))
    return true;
  std::optional<UnsafeSource> problem = findUnsafeMLIRSource(
      buffer.getBuffer(), getResourceLimit(ResourceLimit::NestingDepth));
  if (!problem)
    return true;
  SourceMgr sourceMgr;
  sourceMgr.AddNewSourceBuffer(
      MemoryBuffer::getMemBuffer(buffer, /*RequiresNullTerminator=*/false),
      SMLoc());
  SMLoc loc = SMLoc::getFromPointer(buffer.getBufferStart() + problem->offset);
  auto [line, column] = sourceMgr.getLineAndColumn(loc);
  StringRef text = buffer.getBuffer();
  size_t lineStart = text.rfind('\n', problem->offset) + 1; // npos + 1 == 0
  size_t lineEnd = std::min(text.find('\n', problem->offset), text.size());
  // Hostile inputs are often one huge line: show the source line only when
  // it is of a readable length.
  if (lineEnd - lineStart <= 200) {
    sourceMgr.PrintMessage(os, loc, SourceMgr::DK_Error, problem->message);
  } else {
    os << buffer.getBufferIdentifier() << ":" << line << ":" << column
       << ": ";
    WithColor::error(os) << problem->message << "\n";
  }
  return false;
}

int raf::runOnParserStack(function_ref<int()> body) {
  // The parser's deepest recursion (nested regions) takes about 2 KiB per
  // bracket level; 8 KiB per level of the limit leaves room for the passes
  // and the printer, which recurse over regions too. A thread's stack has a
  // guard page, so anything deeper still faults rather than corrupting
  // memory.
  // Beyond 2^18 levels the stack would pass 2 GiB (and 4 GiB wraps the
  // thread's 32-bit size): a larger limit could not be honoured, so it is
  // refused instead of overflowing the stack it promises to avoid.
  constexpr uint64_t kMaxLevels = uint64_t(1) << 18;
  uint64_t levels = getResourceLimit(ResourceLimit::NestingDepth);
  if (levels > kMaxLevels) {
    llvm::errs() << "error: --max-nesting-depth=" << levels
                 << " exceeds the largest supported depth, " << kMaxLevels
                 << " (the parser's stack is sized from it)\n";
    return 1;
  }
  uint64_t bytes = (uint64_t(8) << 20) + levels * (uint64_t(8) << 10);
  int result = 1;
  llvm::thread worker(std::optional<unsigned>(static_cast<unsigned>(bytes)),
                      [&]() { result = body(); });
  worker.join();
  return result;
}
