//===- Import.cpp - TVM Relay text to the relay dialect -------------------===//
//
// A recursive-descent parser that builds relay-dialect IR directly. Operator
// result types come from each operator's shape function while building, so
// an ill-typed program fails at the call that is wrong.
//
// Two passes over the text: the first collects the signatures of every
// `def` (so functions may call each other, and themselves, in any order)
// and finds the `#[metadata]` section; the second builds the bodies.
//
//===----------------------------------------------------------------------===//

#include "raf/Target/RelayText/RelayText.h"
#include "raf/Support/ResourceLimits.h"

#include "Lexer.h"
#include "Metadata.h"
#include "Types.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/Verifier.h"
#include "mlir/Interfaces/InferTypeOpInterface.h"
#include "llvm/ADT/ScopeExit.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/SourceMgr.h"

#include "raf/Dialect/Relay/IR/RelayOps.h"

using namespace mlir;
using namespace raf::relaytext;
namespace relay = raf::relay;

namespace {

/// A parsed expression. TVM operators that return a tuple (`nn.batch_norm`,
/// `split`, `nn.dropout`) are several MLIR results: they stay a group until
/// projected (`%y.0`) or used whole, when a `relay.tuple` is built. A null
/// element is a field the dialect does not model (the dropout mask).
struct Val {
  SmallVector<Value, 1> elements;
  bool group = false;
  std::string groupOp;

  static Val single(Value v) {
    Val val;
    val.elements.push_back(v);
    return val;
  }
};

/// A literal attribute value: `2`, `0.5f`, `"NCHW"`, `True`, `None`,
/// `[1, 1]`, `[[0, 0], [1, 1]]`.
struct AttrValue {
  enum Kind { Int, Float, Bool, Str, List, None } kind = None;
  int64_t intValue = 0;
  double floatValue = 0;
  std::string strValue;
  std::vector<AttrValue> list;
  SMLoc loc;
};

struct Signature {
  func::FuncOp op;
  SmallVector<Type> inputs;
  Type result; // null until known when the `def` has no `-> type`
  SMLoc loc;
};

class Importer {
public:
  Importer(llvm::SourceMgr &sourceMgr, MLIRContext *context)
      : sourceMgr(sourceMgr), context(context), builder(context),
        buffer(
            sourceMgr.getMemoryBuffer(sourceMgr.getMainFileID())->getBuffer()),
        lexer(buffer) {}

  OwningOpRef<ModuleOp> run();

private:
  //===--------------------------------------------------------------------===//
  // Tokens and diagnostics
  //===--------------------------------------------------------------------===//

  Location loc(SMLoc pos) {
    auto [line, col] = sourceMgr.getLineAndColumn(pos);
    return FileLineColLoc::get(
        context,
        sourceMgr.getMemoryBuffer(sourceMgr.getMainFileID())
            ->getBufferIdentifier(),
        line, col);
  }
  InFlightDiagnostic error(SMLoc pos) { return emitError(loc(pos)); }
  InFlightDiagnostic error() { return error(tok.loc); }

  /// Reports the current token when it is a lexical error.
  LogicalResult lexError() {
    error() << tok.spelling;
    return failure();
  }
  void next() { tok = lexer.lex(); }
  Token peek() {
    Lexer copy = lexer;
    return copy.lex();
  }
  LogicalResult expect(TokenKind kind, StringRef what) {
    if (tok.is(TokenKind::Error))
      return lexError();
    if (!tok.is(kind)) {
      if (tok.is(TokenKind::Eof))
        error() << "expected " << what << ", got end of input";
      else
        error() << "expected " << what << ", got '"
                << (tok.is(TokenKind::LocalVar)    ? "%"
                    : tok.is(TokenKind::GlobalVar) ? "@"
                    : tok.is(TokenKind::String)    ? "\""
                                                   : "")
                << tok.spelling << (tok.is(TokenKind::String) ? "\"" : "")
                << "'";
      return failure();
    }
    next();
    return success();
  }
  LogicalResult expectIdent(StringRef word) {
    if (!tok.isIdent(word))
      return expect(TokenKind::Ident, ("'" + word + "'").str());
    next();
    return success();
  }

  //===--------------------------------------------------------------------===//
  // Nesting
  //===--------------------------------------------------------------------===//

  /// Expressions, types and attribute values are parsed by recursive
  /// descent, so each level of nesting costs stack frames. Deeply nested
  /// input is rejected with a diagnostic rather than overflowing the stack;
  /// the limit is the nesting-depth resource limit (--max-nesting-depth,
  /// docs/resource-limits.md), for which the tools size their stack.

  /// Counts one level of nesting for as long as it lives; every recursive
  /// entry point holds one.
  class NestingGuard {
  public:
    explicit NestingGuard(Importer &importer) : importer(importer) {
      ++importer.nestingDepth;
    }
    ~NestingGuard() { --importer.nestingDepth; }
    NestingGuard(const NestingGuard &) = delete;
    NestingGuard &operator=(const NestingGuard &) = delete;

    /// Fails, at the current token, once the limit is passed.
    LogicalResult check() {
      std::optional<std::string> problem = raf::checkResourceLimit(
          raf::ResourceLimit::NestingDepth, importer.nestingDepth);
      if (!problem)
        return success();
      importer.error() << "nesting deeper than "
                       << raf::getResourceLimit(raf::ResourceLimit::NestingDepth)
                       << " levels: " << *problem;
      return failure();
    }

  private:
    Importer &importer;
  };

  //===--------------------------------------------------------------------===//
  // Grammar
  //===--------------------------------------------------------------------===//

  LogicalResult prescan();
  LogicalResult parseHeaderAttribute(bool &isMetadata);
  LogicalResult parseSignature(StringRef name, SMLoc nameLoc, Signature &sig,
                               SmallVectorImpl<std::pair<Token, Type>> *params);
  LogicalResult skipBody(SMLoc openLoc);
  LogicalResult parseDef();
  FailureOr<Type> parseType();
  FailureOr<Val> parseBody();
  FailureOr<Val> parseExpr();
  FailureOr<Val> parsePrimary();
  FailureOr<Val> parseNumber();
  FailureOr<Val> parseMeta();
  FailureOr<Val> parseTupleOrParens();
  FailureOr<Val> parseIf();
  FailureOr<Val> parseFn();
  FailureOr<Val> parseGlobal();
  FailureOr<Val> parseOperatorCall();
  FailureOr<Val> parseCallArgs(Val callee, SMLoc callLoc);
  /// `element (',' element)* [',']` up to and including `close`, the
  /// opening bracket already consumed. `expected` names what may follow an
  /// element (in the error when neither ',' nor `close` does). `sawComma`,
  /// if given, tells whether any ',' was seen (`(e)` vs `(e,)`).
  LogicalResult parseCommaList(TokenKind close, StringRef expected,
                               function_ref<LogicalResult()> parseElement,
                               bool *sawComma = nullptr);
  /// `( expr, ... )` starting at '(': the values and where each begins.
  LogicalResult parseArgumentList(SmallVectorImpl<Value> &args,
                                  SmallVectorImpl<SMLoc> &argLocs);
  FailureOr<AttrValue> parseAttrValue();

  FailureOr<Val> buildOperator(Token name, ArrayRef<std::pair<Val, SMLoc>> args,
                               ArrayRef<std::pair<Token, AttrValue>> attrs);
  FailureOr<Attribute> convertAttr(StringRef op, StringRef name,
                                   const AttrValue &value, Attribute hint);
  FailureOr<Attribute> convertAttrValue(StringRef op, StringRef name,
                                        const AttrValue &value, Attribute hint);

  /// The single value an expression denotes (builds the tuple of a group).
  FailureOr<Value> materialize(const Val &val, SMLoc pos);
  LogicalResult checkType(Value value, Type expected, SMLoc pos,
                          StringRef what);

  Val *lookup(StringRef name) {
    for (auto &scope : llvm::reverse(scopes)) {
      auto it = scope.find(name);
      if (it != scope.end())
        return &it->second;
    }
    return nullptr;
  }

  llvm::SourceMgr &sourceMgr;
  MLIRContext *context;
  OpBuilder builder;
  StringRef buffer;
  Lexer lexer;
  Token tok;
  ModuleOp module;
  unsigned nestingDepth = 0;

  /// Removes the ops in `maybeDead` that ended up without uses.
  void eraseDeadFoldedOps();

  /// Constants and tuples whose contents were folded into an operator (the
  /// pad value of nn.pad, the tuple of concatenate). They cannot be erased
  /// right away: a name in scope may refer to them later.
  llvm::SetVector<Operation *> maybeDead;

  llvm::StringMap<Signature> globals;
  SmallVector<std::string> globalOrder;
  SmallVector<llvm::StringMap<Val>> scopes;

  bool hasMetadata = false;
  SMLoc metadataLoc;
  StringRef metadataText;
  SmallVector<DenseElementsAttr> constants;
};

} // namespace

//===----------------------------------------------------------------------===//
// Module structure
//===----------------------------------------------------------------------===//

LogicalResult Importer::parseHeaderAttribute(bool &isMetadata) {
  // `#[version = "0.0.5"]` or `#[metadata]`; the current token is '#'.
  SMLoc hashLoc = tok.loc;
  next();
  if (failed(expect(TokenKind::LBracket, "'[' after '#'")))
    return failure();
  if (tok.isIdent("metadata")) {
    next();
    if (!tok.is(TokenKind::RBracket))
      return expect(TokenKind::RBracket, "']'");
    // The rest of the text is JSON; do not tokenize it.
    isMetadata = true;
    metadataLoc = hashLoc;
    metadataText =
        StringRef(lexer.getCurrentPtr(), buffer.end() - lexer.getCurrentPtr());
    return success();
  }
  if (tok.isIdent("version")) {
    next();
    if (failed(expect(TokenKind::Equal, "'='")))
      return failure();
    if (!tok.is(TokenKind::String))
      return expect(TokenKind::String, "a version string");
    if (!tok.spelling.starts_with("0.0.")) {
      error() << "unsupported Relay text version \"" << tok.spelling
              << "\" (expected \"0.0.5\")";
      return failure();
    }
    next();
    return expect(TokenKind::RBracket, "']'");
  }
  error() << "expected 'version' or 'metadata' after '#['";
  return failure();
}

LogicalResult Importer::skipBody(SMLoc openLoc) {
  int depth = 1;
  while (depth > 0) {
    if (tok.is(TokenKind::Error))
      return lexError();
    if (tok.is(TokenKind::Eof)) {
      error(openLoc) << "unterminated '{': no matching '}' before the end of "
                        "the input";
      return failure();
    }
    if (tok.is(TokenKind::Hash) && peek().is(TokenKind::LBracket)) {
      error(openLoc) << "unterminated '{': no matching '}' before the "
                        "metadata section";
      return failure();
    }
    if (tok.is(TokenKind::LBrace))
      ++depth;
    else if (tok.is(TokenKind::RBrace))
      --depth;
    next();
  }
  return success();
}

LogicalResult
Importer::parseSignature(StringRef name, SMLoc nameLoc, Signature &sig,
                         SmallVectorImpl<std::pair<Token, Type>> *params) {
  sig.loc = nameLoc;
  if (failed(expect(TokenKind::LParen, "'(' after the function name")))
    return failure();
  llvm::StringSet<> seen;
  if (failed(parseCommaList(
          TokenKind::RParen, "',' or ')' in the parameter list",
          [&]() -> LogicalResult {
            if (!tok.is(TokenKind::LocalVar))
              return expect(TokenKind::LocalVar,
                            "a parameter '%name: type' or ')'");
            Token param = tok;
            if (!seen.insert(param.spelling).second) {
              error() << "duplicate parameter '%" << param.spelling << "' of @"
                      << name;
              return failure();
            }
            next();
            if (!tok.is(TokenKind::Colon)) {
              error(param.loc) << "parameter '%" << param.spelling << "' of @"
                               << name << " needs a type annotation ('%"
                               << param.spelling << ": Tensor[(...), dtype]')";
              return failure();
            }
            next();
            FailureOr<Type> type = parseType();
            if (failed(type))
              return failure();
            sig.inputs.push_back(*type);
            if (params)
              params->push_back({param, *type});
            return success();
          })))
    return failure();
  if (tok.is(TokenKind::Arrow)) {
    next();
    FailureOr<Type> result = parseType();
    if (failed(result))
      return failure();
    sig.result = *result;
  }
  return success();
}

LogicalResult Importer::prescan() {
  next();
  if (tok.is(TokenKind::Hash)) {
    bool isMetadata = false;
    if (failed(parseHeaderAttribute(isMetadata)))
      return failure();
    if (isMetadata) {
      hasMetadata = true;
      return success();
    }
  }
  while (true) {
    if (tok.is(TokenKind::Error))
      return lexError();
    if (tok.is(TokenKind::Eof))
      return success();
    if (tok.is(TokenKind::Hash)) {
      bool isMetadata = false;
      if (failed(parseHeaderAttribute(isMetadata)))
        return failure();
      if (!isMetadata) {
        error() << "the version attribute must come first";
        return failure();
      }
      hasMetadata = true;
      return success();
    }
    if (tok.isIdent("type")) {
      error() << "algebraic data type definitions are not supported";
      return failure();
    }
    if (!tok.isIdent("def")) {
      error() << "expected 'def @name(...)' or '#[metadata]' at the top level";
      return failure();
    }
    next();
    if (!tok.is(TokenKind::GlobalVar))
      return expect(TokenKind::GlobalVar, "a function name '@name'");
    Token name = tok;
    if (globals.count(name.spelling)) {
      error() << "duplicate definition of @" << name.spelling;
      emitRemark(loc(globals[name.spelling].loc)) << "previous definition here";
      return failure();
    }
    next();
    Signature sig;
    if (failed(parseSignature(name.spelling, name.loc, sig, nullptr)))
      return failure();
    SMLoc openLoc = tok.loc;
    if (failed(expect(TokenKind::LBrace, "'{' to start the function body")) ||
        failed(skipBody(openLoc)))
      return failure();
    globals[name.spelling] = sig;
    globalOrder.push_back(name.spelling.str());
  }
}

OwningOpRef<ModuleOp> Importer::run() {
  OwningOpRef<ModuleOp> owned =
      ModuleOp::create(loc(SMLoc::getFromPointer(buffer.begin())));
  module = *owned;
  if (failed(prescan()))
    return nullptr;
  if (hasMetadata) {
    auto parsed = parseMetadata(metadataText, context);
    if (!parsed) {
      error(metadataLoc) << "malformed metadata section: "
                         << llvm::toString(parsed.takeError());
      return nullptr;
    }
    constants = std::move(*parsed);
  }

  // Declare every function first: bodies may refer to any of them.
  builder.setInsertionPointToEnd(module.getBody());
  for (const std::string &name : globalOrder) {
    Signature &sig = globals[name];
    SmallVector<Type> results;
    if (sig.result)
      results.push_back(sig.result);
    sig.op = func::FuncOp::create(builder, loc(sig.loc), name,
                                  builder.getFunctionType(sig.inputs, results));
  }

  lexer = Lexer(buffer);
  next();
  while (true) {
    if (tok.is(TokenKind::Eof))
      break;
    if (tok.is(TokenKind::Hash)) {
      bool isMetadata = false;
      if (failed(parseHeaderAttribute(isMetadata)))
        return nullptr;
      if (isMetadata)
        break;
      continue;
    }
    if (failed(parseDef()))
      return nullptr;
  }
  eraseDeadFoldedOps();
  if (failed(verify(module)))
    return nullptr;
  return owned;
}

void Importer::eraseDeadFoldedOps() {
  // Erasing a tuple may leave a folded constant among its fields dead, so
  // repeat until nothing changes.
  SmallVector<Operation *> ops = maybeDead.takeVector();
  bool changed = true;
  while (changed) {
    changed = false;
    for (Operation *&op : ops) {
      if (op && op->use_empty()) {
        op->erase();
        op = nullptr;
        changed = true;
      }
    }
  }
}

LogicalResult Importer::parseDef() {
  if (failed(expectIdent("def")))
    return failure();
  Token name = tok;
  next();
  Signature &sig = globals[name.spelling];
  Signature reparsed;
  SmallVector<std::pair<Token, Type>> params;
  if (failed(parseSignature(name.spelling, name.loc, reparsed, &params)))
    return failure();
  SMLoc openLoc = tok.loc;
  if (failed(expect(TokenKind::LBrace, "'{'")))
    return failure();

  func::FuncOp func = sig.op;
  Block *entry = func.addEntryBlock();
  OpBuilder::InsertionGuard guard(builder);
  builder.setInsertionPointToEnd(entry);
  scopes.emplace_back();
  for (auto [i, param] : llvm::enumerate(params))
    scopes.back()[param.first.spelling] = Val::single(entry->getArgument(i));
  SMLoc bodyLoc = tok.loc;
  FailureOr<Val> body = parseBody();
  scopes.pop_back();
  if (failed(body))
    return failure();
  FailureOr<Value> result = materialize(*body, bodyLoc);
  if (failed(result))
    return failure();
  if (!tok.is(TokenKind::RBrace)) {
    if (tok.is(TokenKind::Eof) || tok.is(TokenKind::Hash)) {
      error(openLoc) << "unterminated '{' of @" << name.spelling;
      return failure();
    }
    return expect(TokenKind::RBrace, "'}' at the end of the function body");
  }
  next();
  if (sig.result) {
    if (failed(checkType(*result, sig.result, bodyLoc,
                         ("the body of @" + name.spelling).str())))
      return failure();
  } else {
    sig.result = result->getType();
    func.setFunctionType(
        builder.getFunctionType(sig.inputs, TypeRange{sig.result}));
  }
  func::ReturnOp::create(builder, loc(bodyLoc), ValueRange{*result});
  return success();
}

//===----------------------------------------------------------------------===//
// Types
//===----------------------------------------------------------------------===//

FailureOr<Type> Importer::parseType() {
  NestingGuard nesting(*this);
  if (failed(nesting.check()))
    return failure();
  if (tok.is(TokenKind::Error))
    return (void)lexError(), failure();
  if (tok.isIdent("Tensor")) {
    next();
    if (failed(expect(TokenKind::LBracket, "'[' after 'Tensor'")) ||
        failed(expect(TokenKind::LParen, "'(' starting the shape")))
      return failure();
    SmallVector<int64_t> shape;
    if (failed(parseCommaList(
            TokenKind::RParen, "',' or ')' in the shape",
            [&]() -> LogicalResult {
              if (tok.is(TokenKind::Ident) && tok.spelling == "Any") {
                error() << "dynamic dimensions ('Any', '?') are not supported";
                return failure();
              }
              int64_t dim;
              if (!tok.is(TokenKind::Integer) ||
                  tok.spelling.getAsInteger(10, dim) || dim < 0) {
                error() << "expected a non-negative dimension, got '"
                        << tok.spelling << "'";
                return failure();
              }
              shape.push_back(dim);
              next();
              return success();
            })))
      return failure();
    if (failed(expect(TokenKind::Comma, "',' before the dtype")))
      return failure();
    SMLoc dtypeLoc = tok.loc;
    if (!tok.is(TokenKind::Ident))
      return (void)expect(TokenKind::Ident, "a dtype"), failure();
    Type element = parseDtype(tok.spelling, context);
    if (!element) {
      error(dtypeLoc) << "unknown dtype '" << tok.spelling << "'";
      return failure();
    }
    next();
    if (failed(expect(TokenKind::RBracket, "']' closing the tensor type")))
      return failure();
    return Type(RankedTensorType::get(shape, element));
  }
  if (tok.isIdent("fn")) {
    next();
    if (failed(expect(TokenKind::LParen, "'(' after 'fn'")))
      return failure();
    SmallVector<Type> inputs;
    if (failed(parseCommaList(TokenKind::RParen, "',' or ')'",
                              [&]() -> LogicalResult {
                                FailureOr<Type> input = parseType();
                                if (failed(input))
                                  return failure();
                                inputs.push_back(*input);
                                return success();
                              })))
      return failure();
    if (failed(expect(TokenKind::Arrow, "'->' in the function type")))
      return failure();
    FailureOr<Type> result = parseType();
    if (failed(result))
      return failure();
    return Type(FunctionType::get(context, inputs, *result));
  }
  if (tok.is(TokenKind::LParen)) {
    next();
    SmallVector<Type> elements;
    if (failed(parseCommaList(TokenKind::RParen, "',' or ')' in the tuple type",
                              [&]() -> LogicalResult {
                                FailureOr<Type> element = parseType();
                                if (failed(element))
                                  return failure();
                                elements.push_back(*element);
                                return success();
                              })))
      return failure();
    return Type(TupleType::get(context, elements));
  }
  if (tok.is(TokenKind::Ident)) {
    // A bare dtype is the type of a scalar.
    Type element = parseDtype(tok.spelling, context);
    if (!element) {
      error() << "unknown type '" << tok.spelling
              << "' (expected Tensor[(...), dtype], a dtype, a tuple type or "
                 "fn (...) -> type)";
      return failure();
    }
    next();
    return Type(RankedTensorType::get({}, element));
  }
  return (void)expect(TokenKind::Ident, "a type"), failure();
}

//===----------------------------------------------------------------------===//
// Expressions
//===----------------------------------------------------------------------===//

FailureOr<Value> Importer::materialize(const Val &val, SMLoc pos) {
  if (!val.group)
    return val.elements.front();
  for (auto [i, element] : llvm::enumerate(val.elements)) {
    if (!element) {
      error(pos) << "field " << i << " of the tuple returned by " << val.groupOp
                 << " is not supported (only the output, field 0, is)";
      return failure();
    }
  }
  return relay::TupleOp::create(builder, loc(pos), ValueRange(val.elements))
      .getResult();
}

LogicalResult Importer::checkType(Value value, Type expected, SMLoc pos,
                                  StringRef what) {
  if (value.getType() == expected)
    return success();
  error(pos) << "type mismatch: " << what << " has type "
             << typeToString(value.getType()) << ", but "
             << typeToString(expected) << " is expected";
  return failure();
}

FailureOr<Val> Importer::parseBody() {
  scopes.emplace_back();
  llvm::scope_exit popScope([&] { scopes.pop_back(); });
  while (true) {
    if (tok.is(TokenKind::Error))
      return (void)lexError(), failure();
    bool isLet = tok.isIdent("let");
    bool isGraphBinding =
        tok.is(TokenKind::LocalVar) && peek().is(TokenKind::Equal);
    if (!isLet && !isGraphBinding)
      break;
    if (isLet) {
      next();
      if (!tok.is(TokenKind::LocalVar))
        return (void)expect(TokenKind::LocalVar, "a variable after 'let'"),
               failure();
    }
    Token var = tok;
    next();
    Type annotated;
    if (tok.is(TokenKind::Colon)) {
      next();
      FailureOr<Type> type = parseType();
      if (failed(type))
        return failure();
      annotated = *type;
    }
    if (failed(expect(TokenKind::Equal, "'=' in the binding")))
      return failure();
    SMLoc valueLoc = tok.loc;
    FailureOr<Val> value = parseExpr();
    if (failed(value))
      return failure();
    if (annotated) {
      FailureOr<Value> v = materialize(*value, valueLoc);
      if (failed(v) || failed(checkType(*v, annotated, valueLoc,
                                        ("'%" + var.spelling + "'").str())))
        return failure();
      value = Val::single(*v);
    }
    if (failed(expect(TokenKind::Semicolon, "';' after the binding")))
      return failure();
    scopes.back()[var.spelling] = *value;
  }
  return parseExpr();
}

FailureOr<Val> Importer::parseExpr() {
  NestingGuard nesting(*this);
  if (failed(nesting.check()))
    return failure();
  SMLoc start = tok.loc;
  FailureOr<Val> val = parsePrimary();
  if (failed(val))
    return failure();
  while (true) {
    if (tok.is(TokenKind::Dot)) {
      next();
      SMLoc indexLoc = tok.loc;
      int64_t index;
      if (!tok.is(TokenKind::Integer) || tok.spelling.getAsInteger(10, index)) {
        error() << "expected a field index after '.'";
        return failure();
      }
      next();
      if (val->group) {
        if (index < 0 || size_t(index) >= val->elements.size()) {
          error(indexLoc) << "TYPE-PROJECTION: index " << index
                          << " is out of range for the " << val->elements.size()
                          << " fields returned by " << val->groupOp;
          return failure();
        }
        if (!val->elements[index]) {
          error(indexLoc) << "field " << index << " of the tuple returned by "
                          << val->groupOp << " is not supported";
          return failure();
        }
        val = Val::single(val->elements[index]);
        continue;
      }
      Value tuple = val->elements.front();
      auto tupleType = dyn_cast<TupleType>(tuple.getType());
      if (!tupleType) {
        error(indexLoc) << "TYPE-PROJECTION: cannot project field " << index
                        << " out of a value of type "
                        << typeToString(tuple.getType()) << " (not a tuple)";
        return failure();
      }
      if (index < 0 || size_t(index) >= tupleType.size()) {
        error(indexLoc) << "TYPE-PROJECTION: index " << index
                        << " is out of range for a tuple of "
                        << tupleType.size() << " fields";
        return failure();
      }
      val = Val::single(relay::TupleGetOp::create(builder, loc(indexLoc),
                                                  tupleType.getType(index),
                                                  tuple, uint64_t(index)));
      continue;
    }
    if (tok.is(TokenKind::LParen)) {
      val = parseCallArgs(*val, start);
      if (failed(val))
        return failure();
      continue;
    }
    return val;
  }
}

FailureOr<Val> Importer::parsePrimary() {
  switch (tok.kind) {
  case TokenKind::Error:
    return (void)lexError(), failure();
  case TokenKind::LocalVar: {
    Val *val = lookup(tok.spelling);
    if (!val) {
      error() << "undefined variable '%" << tok.spelling << "'";
      return failure();
    }
    next();
    return *val;
  }
  case TokenKind::GlobalVar:
    return parseGlobal();
  case TokenKind::Integer:
  case TokenKind::Float:
    return parseNumber();
  case TokenKind::LParen:
    return parseTupleOrParens();
  case TokenKind::Ident: {
    if (tok.isIdent("fn"))
      return parseFn();
    if (tok.isIdent("if"))
      return parseIf();
    if (tok.isIdent("meta"))
      return parseMeta();
    if (tok.isIdent("True") || tok.isIdent("False")) {
      bool value = tok.isIdent("True");
      auto type = RankedTensorType::get({}, builder.getI1Type());
      Location l = loc(tok.loc);
      next();
      return Val::single(relay::ConstantOp::create(
          builder, l, type, DenseElementsAttr::get(type, value)));
    }
    if (tok.isIdent("let")) {
      error() << "'let' is only allowed at the start of a statement";
      return failure();
    }
    if (tok.isIdent("free_var") || tok.isIdent("match") || tok.isIdent("ref") ||
        tok.isIdent("ref_read") || tok.isIdent("ref_write")) {
      error() << "'" << tok.spelling << "' is not supported by this importer";
      return failure();
    }
    return parseOperatorCall();
  }
  case TokenKind::Eof:
    error() << "expected an expression, got end of input";
    return failure();
  default:
    error() << "expected an expression, got '" << tok.spelling << "'";
    return failure();
  }
}

FailureOr<Val> Importer::parseNumber() {
  Token number = tok;
  next();
  StringRef text = number.spelling;
  size_t suffixPos = text.find_first_of("fiu");
  StringRef digits = text.substr(0, suffixPos);
  StringRef suffix =
      suffixPos == StringRef::npos ? StringRef() : text.substr(suffixPos);
  // TVM's literal defaults: integers are int32, floats float32.
  Type element;
  if (suffix.empty())
    element = number.is(TokenKind::Float) ? Type(builder.getF32Type())
                                          : Type(builder.getI32Type());
  else if (suffix == "f" || suffix == "f32")
    element = builder.getF32Type();
  else if (suffix == "f16")
    element = builder.getF16Type();
  else if (suffix == "f64")
    element = builder.getF64Type();
  else if (suffix == "i8" || suffix == "i16" || suffix == "i32" ||
           suffix == "i64")
    element = builder.getIntegerType(std::stoi(suffix.drop_front(1).str()));
  else if (suffix == "u8" || suffix == "u16" || suffix == "u32" ||
           suffix == "u64")
    element = builder.getIntegerType(std::stoi(suffix.drop_front(1).str()),
                                     /*isSigned=*/false);
  else {
    error(number.loc) << "unknown literal suffix '" << suffix << "'";
    return failure();
  }
  auto type = RankedTensorType::get({}, element);
  Attribute value;
  if (auto floatType = dyn_cast<FloatType>(element)) {
    double d;
    if (digits.getAsDouble(d)) {
      error(number.loc) << "malformed float literal '" << text << "'";
      return failure();
    }
    APFloat f(d);
    bool lost;
    f.convert(floatType.getFloatSemantics(), APFloat::rmNearestTiesToEven,
              &lost);
    // The text has no spelling for infinity, so one here means the literal
    // overflowed its type (`70000f16`, `1e400f`).
    if (f.isInfinity()) {
      error(number.loc) << "float literal '" << text
                        << "' is out of range for its type";
      return failure();
    }
    value = DenseElementsAttr::get(type, f);
  } else {
    if (number.is(TokenKind::Float)) {
      error(number.loc) << "a float literal cannot have the integer suffix '"
                        << suffix << "'";
      return failure();
    }
    unsigned width = element.getIntOrFloatBitWidth();
    bool isUnsigned = element.isUnsignedInteger();
    // Unsigned literals are parsed unsigned so that a '-' is rejected rather
    // than wrapped, and the upper half of u64 is reachable.
    uint64_t u = 0;
    int64_t i = 0;
    bool fits = isUnsigned
                    ? !digits.getAsInteger(10, u) &&
                          (width == 64 || u < (uint64_t(1) << width))
                    : !digits.getAsInteger(10, i) &&
                          (width == 64 || (i >= -(int64_t(1) << (width - 1)) &&
                                           i < (int64_t(1) << (width - 1))));
    if (!fits) {
      error(number.loc) << "integer literal '" << text
                        << "' does not fit its type";
      return failure();
    }
    value = DenseElementsAttr::get(
        type,
        isUnsigned ? APInt(width, u) : APInt(width, i, /*isSigned=*/true));
  }
  return Val::single(relay::ConstantOp::create(builder, loc(number.loc), type,
                                               cast<ElementsAttr>(value)));
}

FailureOr<Val> Importer::parseMeta() {
  SMLoc metaLoc = tok.loc;
  next();
  if (failed(expect(TokenKind::LBracket, "'[' after 'meta'")))
    return failure();
  if (!tok.is(TokenKind::Ident))
    return (void)expect(TokenKind::Ident, "a metadata kind"), failure();
  if (tok.spelling != "relay.Constant") {
    error() << "metadata references of kind '" << tok.spelling
            << "' are not supported (only relay.Constant)";
    return failure();
  }
  next();
  if (failed(expect(TokenKind::RBracket, "']'")) ||
      failed(expect(TokenKind::LBracket, "'[' before the constant index")))
    return failure();
  int64_t index;
  if (!tok.is(TokenKind::Integer) || tok.spelling.getAsInteger(10, index) ||
      index < 0) {
    error() << "expected a constant index";
    return failure();
  }
  next();
  if (failed(expect(TokenKind::RBracket, "']'")))
    return failure();
  if (!hasMetadata) {
    error(metaLoc) << "the data of meta[relay.Constant][" << index
                   << "] is missing: the text has no #[metadata] section";
    return failure();
  }
  if (size_t(index) >= constants.size()) {
    error(metaLoc) << "the data of meta[relay.Constant][" << index
                   << "] is missing: the metadata section holds "
                   << constants.size() << " constant(s)";
    return failure();
  }
  DenseElementsAttr value = constants[index];
  return Val::single(
      relay::ConstantOp::create(builder, loc(metaLoc), value.getType(), value));
}

FailureOr<Val> Importer::parseTupleOrParens() {
  SMLoc open = tok.loc;
  next();
  SmallVector<std::pair<Val, SMLoc>> fields;
  bool sawComma = false;
  if (failed(parseCommaList(
          TokenKind::RParen, "',' or ')'",
          [&]() -> LogicalResult {
            SMLoc fieldLoc = tok.loc;
            FailureOr<Val> field = parseExpr();
            if (failed(field))
              return failure();
            fields.push_back({std::move(*field), fieldLoc});
            return success();
          },
          &sawComma)))
    return failure();
  // `(e)` is grouping; `(e,)`, `()` and `(a, b)` are tuples.
  if (fields.size() == 1 && !sawComma)
    return fields.front().first;
  SmallVector<Value> values;
  for (const auto &[field, fieldLoc] : fields) {
    FailureOr<Value> v = materialize(field, fieldLoc);
    if (failed(v))
      return failure();
    values.push_back(*v);
  }
  return Val::single(
      relay::TupleOp::create(builder, loc(open), ValueRange(values)));
}

FailureOr<Val> Importer::parseIf() {
  SMLoc ifLoc = tok.loc;
  next();
  if (failed(expect(TokenKind::LParen, "'(' after 'if'")))
    return failure();
  SMLoc condLoc = tok.loc;
  FailureOr<Val> condVal = parseExpr();
  if (failed(condVal))
    return failure();
  FailureOr<Value> cond = materialize(*condVal, condLoc);
  if (failed(cond) || failed(expect(TokenKind::RParen, "')'")))
    return failure();
  auto condType = dyn_cast<RankedTensorType>(cond->getType());
  if (!condType || condType.getRank() != 0 ||
      !condType.getElementType().isInteger(1)) {
    error(condLoc) << "TYPE-IF: the condition must be a bool scalar, got "
                   << typeToString(cond->getType());
    return failure();
  }

  auto parseBranch = [&](Block *block, Value &result,
                         SMLoc &resultLoc) -> LogicalResult {
    SMLoc open = tok.loc;
    if (failed(expect(TokenKind::LBrace, "'{'")))
      return failure();
    OpBuilder::InsertionGuard guard(builder);
    builder.setInsertionPointToEnd(block);
    resultLoc = tok.loc;
    FailureOr<Val> val = parseBody();
    if (failed(val))
      return failure();
    FailureOr<Value> v = materialize(*val, resultLoc);
    if (failed(v))
      return failure();
    result = *v;
    if (!tok.is(TokenKind::RBrace)) {
      if (tok.is(TokenKind::Eof)) {
        error(open) << "unterminated '{' of an if branch";
        return failure();
      }
      return expect(TokenKind::RBrace, "'}' closing the branch");
    }
    next();
    relay::YieldOp::create(builder, loc(resultLoc), ValueRange{result});
    return success();
  };

  auto thenBlock = std::make_unique<Block>();
  auto elseBlock = std::make_unique<Block>();
  Value thenValue, elseValue;
  SMLoc thenLoc, elseLoc;
  if (failed(parseBranch(thenBlock.get(), thenValue, thenLoc)) ||
      failed(expectIdent("else")) ||
      failed(parseBranch(elseBlock.get(), elseValue, elseLoc)))
    return failure();
  if (thenValue.getType() != elseValue.getType()) {
    error(elseLoc) << "TYPE-IF: the else branch has type "
                   << typeToString(elseValue.getType())
                   << ", but the then branch has type "
                   << typeToString(thenValue.getType());
    return failure();
  }
  auto ifOp = relay::IfOp::create(builder, loc(ifLoc),
                                  TypeRange{thenValue.getType()}, *cond);
  ifOp.getThenRegion().push_back(thenBlock.release());
  ifOp.getElseRegion().push_back(elseBlock.release());
  return Val::single(ifOp.getResult(0));
}

FailureOr<Val> Importer::parseFn() {
  SMLoc fnLoc = tok.loc;
  next();
  if (failed(expect(TokenKind::LParen, "'(' after 'fn'")))
    return failure();
  auto block = std::make_unique<Block>();
  llvm::StringMap<Val> params;
  SmallVector<Type> inputs;
  bool primitive = false;
  if (failed(parseCommaList(
          TokenKind::RParen, "',' or ')'", [&]() -> LogicalResult {
            if (tok.is(TokenKind::Ident) && peek().is(TokenKind::Equal)) {
              // Function attributes: `Primitive=1` marks a fused kernel.
              Token name = tok;
              next();
              next();
              FailureOr<AttrValue> value = parseAttrValue();
              if (failed(value))
                return failure();
              if (name.spelling != "Primitive") {
                error(name.loc) << "function attribute '" << name.spelling
                                << "' is not supported (only Primitive)";
                return failure();
              }
              primitive =
                  value->kind == AttrValue::Int
                      ? value->intValue != 0
                      : value->kind == AttrValue::Bool && value->intValue != 0;
            } else {
              if (!tok.is(TokenKind::LocalVar))
                return (void)expect(TokenKind::LocalVar, "a parameter or ')'"),
                       failure();
              Token param = tok;
              next();
              if (!tok.is(TokenKind::Colon)) {
                error(param.loc) << "closure parameter '%" << param.spelling
                                 << "' needs a type annotation";
                return failure();
              }
              next();
              FailureOr<Type> type = parseType();
              if (failed(type))
                return failure();
              if (params.count(param.spelling)) {
                error(param.loc)
                    << "duplicate parameter '%" << param.spelling << "'";
                return failure();
              }
              inputs.push_back(*type);
              params[param.spelling] =
                  Val::single(block->addArgument(*type, loc(param.loc)));
            }
            return success();
          })))
    return failure();
  Type declared;
  if (tok.is(TokenKind::Arrow)) {
    next();
    FailureOr<Type> type = parseType();
    if (failed(type))
      return failure();
    declared = *type;
  }
  SMLoc open = tok.loc;
  if (failed(expect(TokenKind::LBrace, "'{' to start the closure body")))
    return failure();
  Value result;
  SMLoc resultLoc = tok.loc;
  {
    OpBuilder::InsertionGuard guard(builder);
    builder.setInsertionPointToEnd(block.get());
    scopes.push_back(std::move(params));
    FailureOr<Val> body = parseBody();
    scopes.pop_back();
    if (failed(body))
      return failure();
    FailureOr<Value> v = materialize(*body, resultLoc);
    if (failed(v))
      return failure();
    result = *v;
    if (declared &&
        failed(checkType(result, declared, resultLoc, "the closure body")))
      return failure();
    relay::ReturnOp::create(builder, loc(resultLoc), ValueRange{result});
  }
  if (!tok.is(TokenKind::RBrace)) {
    if (tok.is(TokenKind::Eof)) {
      error(open) << "unterminated '{' of a closure body";
      return failure();
    }
    return (void)expect(TokenKind::RBrace, "'}' closing the closure"),
           failure();
  }
  next();
  auto type = FunctionType::get(context, inputs, result.getType());
  auto fn = relay::FnOp::create(builder, loc(fnLoc), type, primitive);
  fn.getBody().push_back(block.release());
  return Val::single(fn.getResult());
}

FailureOr<Val> Importer::parseGlobal() {
  Token name = tok;
  next();
  auto it = globals.find(name.spelling);
  if (it == globals.end()) {
    error(name.loc) << "undefined function '@" << name.spelling << "'";
    return failure();
  }
  Signature &sig = it->second;
  if (!sig.result) {
    error(name.loc) << "@" << name.spelling
                    << " is used before its definition, which has no return "
                       "type: annotate it ('-> type')";
    return failure();
  }
  FunctionType type = sig.op.getFunctionType();
  if (tok.is(TokenKind::LParen)) {
    // A direct call of a module function.
    SmallVector<Value> args;
    SmallVector<SMLoc> argLocs;
    if (failed(parseArgumentList(args, argLocs)))
      return failure();
    if (args.size() != type.getNumInputs()) {
      error(name.loc) << "TYPE-CALL: @" << name.spelling << " takes "
                      << type.getNumInputs() << " argument(s), got "
                      << args.size();
      return failure();
    }
    for (auto [i, arg] : llvm::enumerate(args))
      if (failed(checkType(arg, type.getInput(i), argLocs[i],
                           ("argument " + std::to_string(i) + " of @" +
                            name.spelling.str()))))
        return failure();
    auto call = func::CallOp::create(builder, loc(name.loc), sig.op, args);
    return Val::single(call.getResult(0));
  }
  return Val::single(
      relay::GlobalRefOp::create(builder, loc(name.loc), type, name.spelling));
}

LogicalResult
Importer::parseCommaList(TokenKind close, StringRef expected,
                         function_ref<LogicalResult()> parseElement,
                         bool *sawComma) {
  while (!tok.is(close)) {
    if (failed(parseElement()))
      return failure();
    if (tok.is(TokenKind::Comma)) {
      if (sawComma)
        *sawComma = true;
      next();
    } else if (!tok.is(close)) {
      return expect(close, expected);
    }
  }
  next();
  return success();
}

LogicalResult Importer::parseArgumentList(SmallVectorImpl<Value> &args,
                                          SmallVectorImpl<SMLoc> &argLocs) {
  next(); // '('
  if (failed(parseCommaList(TokenKind::RParen, "',' or ')'",
                            [&]() -> LogicalResult {
                              SMLoc argLoc = tok.loc;
                              FailureOr<Val> arg = parseExpr();
                              if (failed(arg))
                                return failure();
                              FailureOr<Value> v = materialize(*arg, argLoc);
                              if (failed(v))
                                return failure();
                              args.push_back(*v);
                              argLocs.push_back(argLoc);
                              return success();
                            })))
    return failure();
  return success();
}

FailureOr<Val> Importer::parseCallArgs(Val calleeVal, SMLoc callLoc) {
  FailureOr<Value> callee = materialize(calleeVal, callLoc);
  if (failed(callee))
    return failure();
  SmallVector<Value> args;
  SmallVector<SMLoc> argLocs;
  if (failed(parseArgumentList(args, argLocs)))
    return failure();
  auto type = dyn_cast<FunctionType>(callee->getType());
  if (!type) {
    error(callLoc) << "TYPE-CALL: cannot call a value of type "
                   << typeToString(callee->getType()) << " (not a function)";
    return failure();
  }
  if (args.size() != type.getNumInputs()) {
    error(callLoc) << "TYPE-CALL: the closure takes " << type.getNumInputs()
                   << " argument(s), got " << args.size();
    return failure();
  }
  for (auto [i, arg] : llvm::enumerate(args))
    if (failed(checkType(arg, type.getInput(i), argLocs[i],
                         "argument " + std::to_string(i) + " of the call")))
      return failure();
  auto call = relay::CallOp::create(builder, loc(callLoc), type.getResults(),
                                    *callee, args);
  if (call.getNumResults() != 1) {
    error(callLoc) << "calls of closures with " << call.getNumResults()
                   << " results are not supported";
    return failure();
  }
  return Val::single(call.getResult(0));
}

FailureOr<AttrValue> Importer::parseAttrValue() {
  NestingGuard nesting(*this);
  if (failed(nesting.check()))
    return failure();
  AttrValue value;
  value.loc = tok.loc;
  switch (tok.kind) {
  case TokenKind::Error:
    return (void)lexError(), failure();
  case TokenKind::Integer: {
    StringRef text = tok.spelling;
    size_t suffix = text.find_first_of("iu");
    if (text.substr(0, suffix).getAsInteger(10, value.intValue)) {
      error() << "integer '" << text << "' is out of range";
      return failure();
    }
    value.kind = AttrValue::Int;
    next();
    return value;
  }
  case TokenKind::Float: {
    StringRef text = tok.spelling;
    if (text.substr(0, text.find_first_of("f")).getAsDouble(value.floatValue)) {
      error() << "malformed float '" << text << "'";
      return failure();
    }
    if (!std::isfinite(value.floatValue)) {
      error() << "float '" << text << "' is out of range";
      return failure();
    }
    value.kind = AttrValue::Float;
    next();
    return value;
  }
  case TokenKind::String:
    value.kind = AttrValue::Str;
    value.strValue = tok.spelling.str();
    next();
    return value;
  case TokenKind::LBracket:
    value.kind = AttrValue::List;
    next();
    if (failed(parseCommaList(TokenKind::RBracket, "',' or ']' in the list",
                              [&]() -> LogicalResult {
                                FailureOr<AttrValue> element = parseAttrValue();
                                if (failed(element))
                                  return failure();
                                value.list.push_back(std::move(*element));
                                return success();
                              })))
      return failure();
    return value;
  case TokenKind::Ident:
    if (tok.isIdent("True") || tok.isIdent("False")) {
      value.kind = AttrValue::Bool;
      value.intValue = tok.isIdent("True");
      next();
      return value;
    }
    if (tok.isIdent("None")) {
      value.kind = AttrValue::None;
      next();
      return value;
    }
    break;
  default:
    break;
  }
  error() << "expected an attribute value (number, string, True/False, None "
             "or a list), got '"
          << tok.spelling << "'";
  return failure();
}

FailureOr<Val> Importer::parseOperatorCall() {
  Token name = tok;
  next();
  if (!tok.is(TokenKind::LParen)) {
    if (!RegisteredOperationName::lookup(("relay." + name.spelling).str(),
                                         context)) {
      error(name.loc) << "unknown identifier '" << name.spelling << "'";
      return failure();
    }
    error(name.loc) << "operator '" << name.spelling
                    << "' must be called; first-class operators are not "
                       "supported";
    return failure();
  }
  next();
  SmallVector<std::pair<Val, SMLoc>> args;
  SmallVector<std::pair<Token, AttrValue>> attrs;
  if (failed(parseCommaList(
          TokenKind::RParen, "',' or ')' in the argument list",
          [&]() -> LogicalResult {
            if (tok.is(TokenKind::Ident) && peek().is(TokenKind::Equal)) {
              Token attrName = tok;
              next();
              next();
              FailureOr<AttrValue> value = parseAttrValue();
              if (failed(value))
                return failure();
              attrs.push_back({attrName, std::move(*value)});
            } else {
              if (!attrs.empty()) {
                error() << "positional argument after keyword attributes";
                return failure();
              }
              SMLoc argLoc = tok.loc;
              FailureOr<Val> arg = parseExpr();
              if (failed(arg))
                return failure();
              args.push_back({std::move(*arg), argLoc});
            }
            return success();
          })))
    return failure();
  return buildOperator(name, args, attrs);
}

//===----------------------------------------------------------------------===//
// Operators and their attributes
//===----------------------------------------------------------------------===//

/// The number of operands the op declares, or -1 when variadic.
static int getArity(RegisteredOperationName name) {
  if (name.hasTrait<OpTrait::ZeroOperands>())
    return 0;
  if (name.hasTrait<OpTrait::OneOperand>())
    return 1;
  if (name.hasTrait<OpTrait::NOperands<2>::Impl>())
    return 2;
  if (name.hasTrait<OpTrait::NOperands<3>::Impl>())
    return 3;
  if (name.hasTrait<OpTrait::NOperands<4>::Impl>())
    return 4;
  if (name.hasTrait<OpTrait::NOperands<5>::Impl>())
    return 5;
  return -1;
}

static bool isReduction(StringRef op) {
  return op == "sum" || op == "mean" || op == "max" || op == "argmax" ||
         op == "squeeze";
}

/// The `AttrT` of the enum case TVM spells `text`, or null with the cases
/// listed in `expected` ("clip", "wrap" or "fast").
template <typename AttrT, typename EnumT>
static Attribute enumFromString(MLIRContext *context, StringRef text,
                                unsigned maxValue, std::string &expected) {
  if (std::optional<EnumT> value = relay::symbolizeEnum<EnumT>(text))
    return AttrT::get(context, *value);
  for (unsigned i = 0; i <= maxValue; ++i) {
    expected += i == 0 ? "" : i == maxValue ? " or " : ", ";
    expected +=
        ("\"" + relay::stringifyEnum(static_cast<EnumT>(i)) + "\"").str();
  }
  return {};
}

/// The typed attribute of kind `hint` that TVM's string `text` stands for
/// (layouts and modes are strings in Relay text), or null with what was
/// expected in `expected`.
static Attribute typedAttrFromString(MLIRContext *context, Attribute hint,
                                     StringRef text, std::string &expected) {
  if (isa<relay::LayoutAttr>(hint)) {
    if (relay::LayoutAttr::isValidName(text))
      return relay::LayoutAttr::get(context, text);
    expected = "a permutation of \"NCHW\" or \"OIHW\"";
    return {};
  }
  if (isa<relay::PadModeAttr>(hint))
    return enumFromString<relay::PadModeAttr, relay::PadMode>(
        context, text, relay::getMaxEnumValForPadMode(), expected);
  if (isa<relay::LossReductionAttr>(hint))
    return enumFromString<relay::LossReductionAttr, relay::LossReduction>(
        context, text, relay::getMaxEnumValForLossReduction(), expected);
  if (isa<relay::TakeModeAttr>(hint))
    return enumFromString<relay::TakeModeAttr, relay::TakeMode>(
        context, text, relay::getMaxEnumValForTakeMode(), expected);
  return enumFromString<relay::GeluApproximationAttr, relay::GeluApproximation>(
      context, text, relay::getMaxEnumValForGeluApproximation(), expected);
}

FailureOr<Attribute> Importer::convertAttr(StringRef op, StringRef name,
                                           const AttrValue &value,
                                           Attribute hint) {
  auto bad = [&](StringRef expected) -> FailureOr<Attribute> {
    error(value.loc) << "bad value for attribute '" << name << "' of " << op
                     << ": expected " << expected;
    return failure();
  };
  if (name == "dtype" || name == "out_dtype") {
    if (value.kind != AttrValue::Str)
      return bad("a dtype string such as \"float32\"");
    Type type = parseDtype(value.strValue, context);
    if (!type) {
      error(value.loc) << "unknown dtype \"" << value.strValue << "\"";
      return failure();
    }
    return Attribute(TypeAttr::get(type));
  }
  if (hint &&
      isa<relay::LayoutAttr, relay::PadModeAttr, relay::LossReductionAttr,
          relay::TakeModeAttr, relay::GeluApproximationAttr>(hint)) {
    if (value.kind != AttrValue::Str)
      return bad("a string");
    std::string expected;
    if (Attribute typed =
            typedAttrFromString(context, hint, value.strValue, expected))
      return typed;
    error(value.loc) << "unknown value \"" << value.strValue
                     << "\" for attribute '" << name << "' of " << op
                     << ": expected " << expected;
    return failure();
  }
  FailureOr<Attribute> converted = convertAttrValue(op, name, value, hint);
  if (failed(converted) || !hint)
    return converted;
  // The op's default says which kind the attribute has.
  auto kind = [](Attribute attr) -> StringRef {
    if (isa<BoolAttr>(attr))
      return "True or False";
    if (isa<IntegerAttr>(attr))
      return "an integer";
    if (isa<FloatAttr>(attr))
      return "a number";
    if (isa<StringAttr>(attr))
      return "a string";
    if (isa<DenseI64ArrayAttr>(attr))
      return "a list of integers";
    return "";
  };
  if (kind(*converted) != kind(hint))
    return bad(kind(hint));
  return converted;
}

FailureOr<Attribute> Importer::convertAttrValue(StringRef op, StringRef name,
                                                const AttrValue &value,
                                                Attribute hint) {
  auto bad = [&](StringRef expected) -> FailureOr<Attribute> {
    error(value.loc) << "bad value for attribute '" << name << "' of " << op
                     << ": expected " << expected;
    return failure();
  };
  switch (value.kind) {
  case AttrValue::Int:
    if (hint && isa<FloatAttr>(hint))
      return Attribute(builder.getF64FloatAttr(double(value.intValue)));
    if (hint && isa<BoolAttr>(hint)) {
      if (value.intValue != 0 && value.intValue != 1)
        return bad("True or False");
      return Attribute(builder.getBoolAttr(value.intValue));
    }
    if ((hint && isa<DenseI64ArrayAttr>(hint)) ||
        (name == "axis" && isReduction(op)))
      return Attribute(builder.getDenseI64ArrayAttr({value.intValue}));
    return Attribute(builder.getI64IntegerAttr(value.intValue));
  case AttrValue::Float:
    if (hint && !isa<FloatAttr>(hint))
      return bad("an integer, a bool or a list (not a float)");
    return Attribute(builder.getF64FloatAttr(value.floatValue));
  case AttrValue::Bool:
    return Attribute(builder.getBoolAttr(value.intValue));
  case AttrValue::Str:
    return Attribute(builder.getStringAttr(value.strValue));
  case AttrValue::List: {
    SmallVector<int64_t> ints;
    for (const AttrValue &element : value.list) {
      if (element.kind != AttrValue::Int)
        return bad("a list of integers");
      ints.push_back(element.intValue);
    }
    return Attribute(builder.getDenseI64ArrayAttr(ints));
  }
  case AttrValue::None:
    break;
  }
  return bad("a value");
}

/// The dimension of `type` that `letter` names in `layout`, if any.
static std::optional<int64_t> layoutDim(Type type, StringRef layout,
                                        char letter) {
  auto tensor = dyn_cast<RankedTensorType>(type);
  size_t pos = layout.find(letter);
  if (!tensor || pos == StringRef::npos || pos >= size_t(tensor.getRank()))
    return std::nullopt;
  return tensor.getDimSize(pos);
}

FailureOr<Val>
Importer::buildOperator(Token name, ArrayRef<std::pair<Val, SMLoc>> args,
                        ArrayRef<std::pair<Token, AttrValue>> attrs) {
  StringRef op = name.spelling;
  Location opLoc = loc(name.loc);
  std::optional<RegisteredOperationName> opName =
      RegisteredOperationName::lookup(("relay." + op).str(), context);
  if (!opName || !opName->hasInterface<raf::relay::FusionOpInterface>()) {
    error(name.loc) << "unknown operator '" << op << "'";
    return failure();
  }

  // Operands. TVM passes some inputs as one tuple (concatenate) and the
  // constant of nn.pad as a second argument.
  SmallVector<Value> operands;
  NamedAttrList attributes;
  size_t positional = args.size();
  if (op == "nn.pad" && positional == 2) {
    Value padValue = args[1].first.group ? Value() : args[1].first.elements[0];
    auto constant =
        padValue ? padValue.getDefiningOp<raf::relay::ConstantOp>() : nullptr;
    auto dense =
        constant ? dyn_cast<DenseElementsAttr>(constant.getValue()) : nullptr;
    if (!dense || !dense.isSplat() || dense.getType().getRank() != 0 ||
        !isa<FloatType, IntegerType>(dense.getElementType())) {
      error(args[1].second) << "nn.pad: the pad value must be a scalar "
                               "literal";
      return failure();
    }
    double padDouble =
        isa<FloatType>(dense.getElementType())
            ? dense.getSplatValue<APFloat>().convertToDouble()
            : double(dense.getSplatValue<APInt>().getSExtValue());
    attributes.set("pad_value", builder.getF64FloatAttr(padDouble));
    // A variable may still name the constant; erase it only once the whole
    // module is built and it is known to be dead.
    maybeDead.insert(constant);
    positional = 1;
  }
  int arity = getArity(*opName);
  if (arity < 0) {
    // Variadic operators (concatenate) take one tuple.
    if (positional != 1) {
      error(name.loc) << op << " expects 1 argument (a tuple), got "
                      << positional;
      return failure();
    }
    const Val &tuple = args[0].first;
    if (tuple.group) {
      if (llvm::is_contained(tuple.elements, Value())) {
        error(args[0].second) << op << ": the tuple returned by "
                              << tuple.groupOp << " has unsupported fields";
        return failure();
      }
      operands.append(tuple.elements.begin(), tuple.elements.end());
    } else if (auto tupleOp =
                   tuple.elements[0].getDefiningOp<raf::relay::TupleOp>()) {
      operands.append(tupleOp.getOperands().begin(),
                      tupleOp.getOperands().end());
      maybeDead.insert(tupleOp);
    } else if (auto tupleType =
                   dyn_cast<TupleType>(tuple.elements[0].getType())) {
      for (size_t i = 0; i < tupleType.size(); ++i)
        operands.push_back(raf::relay::TupleGetOp::create(
            builder, loc(args[0].second), tupleType.getType(i),
            tuple.elements[0], uint64_t(i)));
    } else {
      error(args[0].second) << op << " expects a tuple of tensors, got "
                            << typeToString(tuple.elements[0].getType());
      return failure();
    }
  } else {
    if (int(positional) != arity) {
      error(name.loc) << op << " expects " << arity << " argument(s), got "
                      << positional;
      return failure();
    }
    for (size_t i = 0; i < positional; ++i) {
      FailureOr<Value> v = materialize(args[i].first, args[i].second);
      if (failed(v))
        return failure();
      operands.push_back(*v);
    }
  }

  // Attributes: TVM names and values onto the op's.
  NamedAttrList defaults;
  opName->populateDefaultAttrs(defaults);
  ArrayRef<StringAttr> known = opName->getAttributeNames();
  std::optional<std::pair<Token, int64_t>> channels, units;
  std::optional<std::pair<Token, SmallVector<int64_t>>> kernelSize;
  // TVM repeats what the weight already says in these attributes; they are
  // only checked, and only on the operators TVM defines them for. Elsewhere
  // they fall through to the unknown-attribute error below.
  bool isConv = op == "nn.conv2d" || op == "nn.conv2d_transpose";
  bool isDense = op == "nn.dense" || op == "nn.matmul";
  llvm::StringSet<> seenAttrs;
  const AttrValue *outLayout = nullptr;
  for (const auto &[attrName, value] : attrs) {
    StringRef key = attrName.spelling;
    if (!seenAttrs.insert(key).second) {
      error(attrName.loc) << op << ": attribute '" << key
                          << "' is given more than once";
      return failure();
    }
    if (value.kind == AttrValue::None)
      continue;
    auto requireString = [&](StringRef expected, StringRef what) {
      if (value.kind == AttrValue::Str && value.strValue == expected)
        return success();
      error(value.loc) << op << ": " << what;
      return failure();
    };
    if ((key == "out_dtype" || key == "out_layout") &&
        value.kind == AttrValue::Str && value.strValue.empty())
      continue;
    if (key == "out_layout") {
      // Checked after the loop: the data layout may come later.
      outLayout = &value;
      continue;
    }
    if ((isConv && key == "channels") || (isDense && key == "units")) {
      if (value.kind != AttrValue::Int) {
        error(value.loc) << "bad value for attribute '" << key << "' of " << op
                         << ": expected an integer";
        return failure();
      }
      (key == "channels" ? channels : units) = {attrName, value.intValue};
      continue;
    }
    if (isConv && key == "kernel_size") {
      SmallVector<int64_t> sizes;
      for (const AttrValue &element : value.list)
        sizes.push_back(element.intValue);
      if (value.kind != AttrValue::List || sizes.size() != 2 ||
          llvm::any_of(value.list, [](const AttrValue &e) {
            return e.kind != AttrValue::Int;
          })) {
        error(value.loc) << "bad value for attribute 'kernel_size' of " << op
                         << ": expected two integers";
        return failure();
      }
      kernelSize = {attrName, sizes};
      continue;
    }
    if (op == "split" && key == "indices_or_sections") {
      if (value.kind == AttrValue::Int) {
        attributes.set("sections", builder.getI64IntegerAttr(value.intValue));
        continue;
      }
      FailureOr<Attribute> indices =
          convertAttr(op, key, value, builder.getDenseI64ArrayAttr({}));
      if (failed(indices))
        return failure();
      attributes.set("indices", *indices);
      continue;
    }
    if (op == "nn.pad" && key == "pad_width" && value.kind == AttrValue::List) {
      SmallVector<int64_t> flat;
      for (const AttrValue &pair : value.list) {
        if (pair.kind != AttrValue::List || pair.list.size() != 2 ||
            pair.list[0].kind != AttrValue::Int ||
            pair.list[1].kind != AttrValue::Int) {
          error(pair.loc) << "bad value for attribute 'pad_width' of nn.pad: "
                             "expected [[before, after], ...]";
          return failure();
        }
        flat.push_back(pair.list[0].intValue);
        flat.push_back(pair.list[1].intValue);
      }
      attributes.set("pad_width", builder.getDenseI64ArrayAttr(flat));
      continue;
    }
    if (op == "strided_slice" && key == "slice_mode") {
      if (failed(requireString("end", "only slice_mode=\"end\" is supported")))
        return failure();
      continue;
    }
    if (op == "take" && key == "batch_dims") {
      if (value.kind != AttrValue::Int || value.intValue != 0) {
        error(value.loc) << "take: only batch_dims=0 is supported";
        return failure();
      }
      continue;
    }
    if (op == "reshape" && key == "allowzero") {
      if ((value.kind != AttrValue::Int && value.kind != AttrValue::Bool) ||
          value.intValue != 0) {
        error(value.loc) << "reshape: only allowzero=0 is supported";
        return failure();
      }
      continue;
    }
    if (!llvm::is_contained(known, StringAttr::get(context, key))) {
      std::string names;
      for (StringAttr n : known)
        names += (names.empty() ? "" : ", ") + n.getValue().str();
      error(attrName.loc) << op << " has no attribute '" << key
                          << "'; expected one of: "
                          << (names.empty() ? "(none)" : names);
      return failure();
    }
    FailureOr<Attribute> converted =
        convertAttr(op, key, value, defaults.get(key));
    if (failed(converted))
      return failure();
    attributes.set(key, *converted);
  }
  if (outLayout) {
    Attribute layout = attributes.get("data_layout");
    if (!layout)
      layout = attributes.get("layout");
    StringRef expected =
        layout ? cast<relay::LayoutAttr>(layout).getName() : "NCHW";
    if (outLayout->kind != AttrValue::Str || outLayout->strValue != expected) {
      error(outLayout->loc) << op << ": an out_layout other than the data "
                                     "layout is not supported";
      return failure();
    }
  }

  // The shape function emits its diagnostics at the call.
  auto *inferConcept = opName->getInterface<InferTypeOpInterface>();
  SmallVector<Type> resultTypes;
  if (failed(inferConcept->inferReturnTypes(
          context, opLoc, operands, attributes.getDictionary(context),
          OpaqueProperties(nullptr), RegionRange(), resultTypes)))
    return failure();

  // TVM's redundant attributes must agree with the weight.
  if (channels || kernelSize) {
    Attribute layoutAttr = attributes.get("kernel_layout");
    if (!layoutAttr)
      layoutAttr = defaults.get("kernel_layout");
    StringRef layout =
        layoutAttr ? cast<relay::LayoutAttr>(layoutAttr).getName() : "OIHW";
    Type weight = operands.size() > 1 ? operands[1].getType() : Type();
    if (channels) {
      int64_t groups = 1;
      if (auto g = dyn_cast_or_null<IntegerAttr>(attributes.get("groups")))
        groups = g.getInt();
      std::optional<int64_t> o = layoutDim(weight, layout, 'O');
      // conv2d_transpose's kernel holds C_out / groups in its O dimension.
      if (o && op == "nn.conv2d_transpose")
        *o *= groups;
      if (o && *o != channels->second) {
        error(channels->first.loc)
            << op << ": channels=" << channels->second
            << " does not match the weight's " << *o << " output channels";
        return failure();
      }
    }
    if (kernelSize) {
      std::optional<int64_t> h = layoutDim(weight, layout, 'H');
      std::optional<int64_t> w = layoutDim(weight, layout, 'W');
      if (h && w &&
          (*h != kernelSize->second[0] || *w != kernelSize->second[1])) {
        error(kernelSize->first.loc)
            << op << ": kernel_size=[" << kernelSize->second[0] << ", "
            << kernelSize->second[1] << "] does not match the weight's " << *h
            << "x" << *w << " kernel";
        return failure();
      }
    }
  }
  if (units) {
    auto result = cast<RankedTensorType>(resultTypes.front());
    int64_t n = result.getRank() ? result.getShape().back() : 1;
    if (n != units->second) {
      error(units->first.loc)
          << op << ": units=" << units->second << " does not match the " << n
          << " output features of the weight";
      return failure();
    }
  }

  OperationState state(opLoc, *opName);
  state.addOperands(operands);
  state.addAttributes(attributes);
  state.addTypes(resultTypes);
  Operation *created = builder.create(state);

  Val result;
  if (op == "nn.batch_norm" || op == "split" || op == "nn.dropout") {
    result.group = true;
    result.groupOp = op.str();
    result.elements.append(created->result_begin(), created->result_end());
    // TVM's dropout also returns the mask, which the dialect has no result
    // for.
    if (op == "nn.dropout")
      result.elements.push_back(Value());
    return result;
  }
  if (created->getNumResults() != 1) {
    error(name.loc) << op << " has " << created->getNumResults()
                    << " results, which Relay text cannot express";
    return failure();
  }
  return Val::single(created->getResult(0));
}

OwningOpRef<ModuleOp> raf::importRelayText(llvm::SourceMgr &sourceMgr,
                                           MLIRContext *context) {
  context->loadDialect<raf::relay::RelayDialect, func::FuncDialect>();
  return Importer(sourceMgr, context).run();
}
