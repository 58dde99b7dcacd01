//===- Lexer.cpp - tokens of the TVM Relay text format --------------------===//

#include "Lexer.h"

#include "llvm/ADT/StringExtras.h"

using namespace raf::relaytext;

static bool isIdentStart(char c) { return llvm::isAlpha(c) || c == '_'; }
static bool isIdentChar(char c) { return llvm::isAlnum(c) || c == '_'; }

bool Lexer::skipTrivia(Token &errorToken) {
  const char *end = buffer.end();
  while (cur != end) {
    if (llvm::isSpace(*cur)) {
      ++cur;
      continue;
    }
    if (*cur == '/' && cur + 1 != end && cur[1] == '/') {
      while (cur != end && *cur != '\n')
        ++cur;
      continue;
    }
    if (*cur == '/' && cur + 1 != end && cur[1] == '*') {
      const char *start = cur;
      cur += 2;
      while (cur != end && !(*cur == '*' && cur + 1 != end && cur[1] == '/'))
        ++cur;
      if (cur == end) {
        errorToken = error(start, "unterminated '/*' comment");
        return false;
      }
      cur += 2;
      continue;
    }
    break;
  }
  return true;
}

Token Lexer::lexNumber(const char *start) {
  const char *end = buffer.end();
  if (*cur == '-')
    ++cur;
  while (cur != end && llvm::isDigit(*cur))
    ++cur;
  bool isFloat = false;
  if (!afterDot) {
    if (cur != end && *cur == '.' && cur + 1 != end && llvm::isDigit(cur[1])) {
      isFloat = true;
      ++cur;
      while (cur != end && llvm::isDigit(*cur))
        ++cur;
    }
    if (cur != end && (*cur == 'e' || *cur == 'E')) {
      const char *exp = cur + 1;
      if (exp != end && (*exp == '+' || *exp == '-'))
        ++exp;
      if (exp != end && llvm::isDigit(*exp)) {
        isFloat = true;
        cur = exp;
        while (cur != end && llvm::isDigit(*cur))
          ++cur;
      }
    }
  }
  // Type suffixes: 1f, 1f16, 2i64, 3u8.
  if (cur != end && (*cur == 'f' || *cur == 'i' || *cur == 'u')) {
    if (*cur == 'f')
      isFloat = true;
    ++cur;
    while (cur != end && llvm::isDigit(*cur))
      ++cur;
  }
  if (cur != end && isIdentChar(*cur))
    return error(start, "malformed number literal");
  afterDot = false;
  return make(isFloat ? TokenKind::Float : TokenKind::Integer, start);
}

Token Lexer::lex() {
  Token errorToken;
  if (!skipTrivia(errorToken))
    return errorToken;
  const char *start = cur;
  if (cur == buffer.end())
    return make(TokenKind::Eof, start);

  char c = *cur;
  bool wasAfterDot = afterDot;
  afterDot = false;
  if (llvm::isDigit(c) ||
      (c == '-' && cur + 1 != buffer.end() && llvm::isDigit(cur[1]))) {
    afterDot = wasAfterDot;
    return lexNumber(start);
  }
  if (c == '%' || c == '@') {
    ++cur;
    const char *nameStart = cur;
    while (cur != buffer.end() && isIdentChar(*cur))
      ++cur;
    if (cur == nameStart)
      return error(start, c == '%' ? "expected a variable name after '%'"
                                   : "expected a function name after '@'");
    return Token{c == '%' ? TokenKind::LocalVar : TokenKind::GlobalVar,
                 llvm::StringRef(nameStart, cur - nameStart),
                 llvm::SMLoc::getFromPointer(start)};
  }
  if (isIdentStart(c)) {
    // Dotted names: nn.conv2d, relay.Constant.
    while (true) {
      while (cur != buffer.end() && isIdentChar(*cur))
        ++cur;
      if (cur + 1 < buffer.end() && *cur == '.' && isIdentStart(cur[1])) {
        ++cur;
        continue;
      }
      break;
    }
    return make(TokenKind::Ident, start);
  }
  if (c == '"') {
    ++cur;
    while (cur != buffer.end() && *cur != '"' && *cur != '\n') {
      if (*cur == '\\' && cur + 1 != buffer.end())
        ++cur;
      ++cur;
    }
    if (cur == buffer.end() || *cur != '"')
      return error(start, "unterminated string literal");
    ++cur;
    return Token{TokenKind::String, llvm::StringRef(start + 1, cur - start - 2),
                 llvm::SMLoc::getFromPointer(start)};
  }
  ++cur;
  switch (c) {
  case '(':
    return make(TokenKind::LParen, start);
  case ')':
    return make(TokenKind::RParen, start);
  case '[':
    return make(TokenKind::LBracket, start);
  case ']':
    return make(TokenKind::RBracket, start);
  case '{':
    return make(TokenKind::LBrace, start);
  case '}':
    return make(TokenKind::RBrace, start);
  case ',':
    return make(TokenKind::Comma, start);
  case ';':
    return make(TokenKind::Semicolon, start);
  case ':':
    return make(TokenKind::Colon, start);
  case '=':
    return make(TokenKind::Equal, start);
  case '#':
    return make(TokenKind::Hash, start);
  case '.':
    afterDot = true;
    return make(TokenKind::Dot, start);
  case '-':
    if (cur != buffer.end() && *cur == '>') {
      ++cur;
      return make(TokenKind::Arrow, start);
    }
    break;
  default:
    break;
  }
  return error(start, "unexpected character");
}
