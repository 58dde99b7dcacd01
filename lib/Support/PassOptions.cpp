//===- PassOptions.cpp - Checking and reporting pass options --------------===//

#include "raf/Support/PassOptions.h"

#include "llvm/ADT/StringExtras.h"

using namespace llvm;

SmallVector<std::pair<StringRef, StringRef>>
raf::splitPassOptions(StringRef options) {
  SmallVector<std::pair<StringRef, StringRef>> pairs;
  size_t i = 0, n = options.size();
  auto skipSpaces = [&] {
    while (i < n && isSpace(options[i]))
      ++i;
  };
  skipSpaces();
  while (i < n) {
    size_t keyBegin = i;
    while (i < n && options[i] != '=' && !isSpace(options[i]))
      ++i;
    StringRef key = options.slice(keyBegin, i);
    StringRef value;
    if (i < n && options[i] == '=') {
      size_t valueBegin = ++i;
      // A value runs to the next space outside braces and quotes.
      unsigned depth = 0;
      char quote = 0;
      for (; i < n; ++i) {
        char c = options[i];
        if (quote) {
          if (c == quote)
            quote = 0;
        } else if (c == '"' || c == '\'') {
          quote = c;
        } else if (c == '{') {
          ++depth;
        } else if (c == '}') {
          if (depth)
            --depth;
        } else if (depth == 0 && isSpace(c)) {
          break;
        }
      }
      value = options.slice(valueBegin, i);
      // A quoted value stands for its contents.
      if (value.size() >= 2 &&
          (value.front() == '"' || value.front() == '\'') &&
          value.back() == value.front())
        value = value.drop_front().drop_back();
    }
    pairs.push_back({key, value});
    skipSpaces();
  }
  return pairs;
}

std::string raf::joinAcceptedValues(ArrayRef<StringRef> values) {
  return join(values, ", ");
}

LogicalResult raf::checkEnumeratedOptions(
    StringRef pass, StringRef options, ArrayRef<EnumeratedOption> enumerated,
    function_ref<LogicalResult(const Twine &)> errorHandler) {
  for (auto [key, value] : splitPassOptions(options)) {
    for (const EnumeratedOption &option : enumerated) {
      if (option.name != key)
        continue;
      ArrayRef<StringRef> values = option.values;
      if (is_contained(values, value) || (option.allowEmpty && value.empty()))
        continue;
      (void)errorHandler("option '" + key + "' of " + pass +
                         ": unknown value '" + value + "'; expected one of " +
                         joinAcceptedValues(values));
      return failure();
    }
  }
  return success();
}
