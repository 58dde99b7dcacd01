//===- Lexer.h - tokens of the TVM Relay text format ------------*- C++ -*-===//
//
// Splits the text TVM's printer produces (`def @main(%x: Tensor[...]) {...}`)
// into tokens. Comments (`// ...`, `/* ty=... */`) are skipped: TVM prints
// type and span annotations in them, and the importer recomputes types.
//
//===----------------------------------------------------------------------===//

#ifndef RAF_LIB_TARGET_RELAYTEXT_LEXER_H
#define RAF_LIB_TARGET_RELAYTEXT_LEXER_H

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/SMLoc.h"

namespace raf::relaytext {

enum class TokenKind {
  Eof,
  Error,     // a lexical error; the spelling is the message
  LocalVar,  // %x, %0 (spelling without the '%')
  GlobalVar, // @main (spelling without the '@')
  Ident,     // def, fn, nn.conv2d, float32, True, meta, relay.Constant
  Integer,   // 3, -1, 2i64 (suffix kept in the spelling)
  Float,     // 0.5f, 1e-05f, 1f16, 1.5
  String,    // "NCHW" (spelling without the quotes, escapes unresolved)
  LParen,
  RParen,
  LBracket,
  RBracket,
  LBrace,
  RBrace,
  Comma,
  Semicolon,
  Colon,
  Equal,
  Arrow,
  Dot,
  Hash,
};

struct Token {
  TokenKind kind = TokenKind::Eof;
  llvm::StringRef spelling;
  llvm::SMLoc loc;

  bool is(TokenKind k) const { return kind == k; }
  bool isIdent(llvm::StringRef word) const {
    return kind == TokenKind::Ident && spelling == word;
  }
};

class Lexer {
public:
  explicit Lexer(llvm::StringRef buffer)
      : buffer(buffer), cur(buffer.begin()) {}

  Token lex();

  /// The position right after the last token (where the metadata JSON
  /// starts once `#[metadata]` was lexed).
  const char *getCurrentPtr() const { return cur; }

private:
  Token make(TokenKind kind, const char *start) {
    return Token{kind, llvm::StringRef(start, cur - start),
                 llvm::SMLoc::getFromPointer(start)};
  }
  Token error(const char *start, llvm::StringRef message) {
    return Token{TokenKind::Error, message, llvm::SMLoc::getFromPointer(start)};
  }
  Token lexNumber(const char *start);
  bool skipTrivia(Token &errorToken);

  llvm::StringRef buffer;
  const char *cur;
  // After '.', digits are a tuple index (`%t.0.1`), never a fraction.
  bool afterDot = false;
};

} // namespace raf::relaytext

#endif // RAF_LIB_TARGET_RELAYTEXT_LEXER_H
