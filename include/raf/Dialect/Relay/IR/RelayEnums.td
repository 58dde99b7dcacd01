//===- RelayEnums.td - enums of the op property interfaces -*- tablegen -*-===//

#ifndef RAF_DIALECT_RELAY_IR_RELAYENUMS_TD
#define RAF_DIALECT_RELAY_IR_RELAYENUMS_TD

include "mlir/IR/EnumAttr.td"

// Values follow TVM's OpPatternKind, which RAF's AutoCast compares against
// (`use_cache = kind > Injective`).
def Relay_FusionKind : I32EnumAttr<"FusionKind", "operator fusion kind", [
  I32EnumAttrCase<"ElemWise", 0, "elemwise">,
  I32EnumAttrCase<"Broadcast", 1, "broadcast">,
  I32EnumAttrCase<"Injective", 2, "injective">,
  I32EnumAttrCase<"CommReduce", 3, "comm_reduce">,
  I32EnumAttrCase<"OutEWiseFusable", 4, "out_elemwise_fusable">,
  I32EnumAttrCase<"Tuple", 7, "tuple">,
  I32EnumAttrCase<"Opaque", 8, "opaque">
]> {
  let cppNamespace = "::raf::relay";
  let genSpecializedAttr = 0;
}

// AutoCast categories (RAF's type-hint rules).
def Relay_AutoCastCategory : I32EnumAttr<"AutoCastCategory",
    "automatic mixed precision category", [
  // Cast the first k float arguments to the low-precision type.
  I32EnumAttrCase<"Always", 0, "always">,
  // Keep or restore float32 (accuracy-sensitive ops and losses).
  I32EnumAttrCase<"Never", 1, "never">,
  // Follow the majority of the first k arguments (ties go to low precision).
  I32EnumAttrCase<"Infer", 2, "infer">,
  // Follow the dtype of the (single) data input.
  I32EnumAttrCase<"Follow", 3, "follow">,
  // Operator-specific rule implemented by the AutoCast pass (add/subtract,
  // concatenate, batch_norm, cast).
  I32EnumAttrCase<"Special", 4, "special">
]> {
  let cppNamespace = "::raf::relay";
  let genSpecializedAttr = 0;
}

//===----------------------------------------------------------------------===//
// Operator attributes that name a fixed set of values. The mnemonics are the
// strings TVM Relay's attributes hold (python/tvm/relay/op/nn/nn.py,
// transform.py), so the Relay text format maps them one to one.
//===----------------------------------------------------------------------===//

// An enum of an operator attribute. A keyword that is not a case is an
// error listing the cases and naming the attribute's meaning ("expected one
// of constant, edge, reflect (padding mode of nn.pad)").
class Relay_AttrEnum<string name, string summary, list<I32EnumAttrCase> cases>
    : I32EnumAttr<name, summary, cases> {
  let cppNamespace = "::raf::relay";
  let genSpecializedAttr = 0;
  let parameterParser = [{[&]() -> ::mlir::FailureOr<}] # cppType # [{> {
    auto loc = $_parser.getCurrentLocation();
    std::string keyword;
    if (::mlir::failed($_parser.parseKeywordOrString(&keyword)))
      return ::mlir::failure();
    if (auto value = }] # cppNamespace # "::" # stringToSymbolFnName #
                         [{(keyword))
      return *value;
    return {(::llvm::LogicalResult)($_parser.emitError(loc)
        << "expected one of }] #
        !interleave(!foreach(enum, enumerants, enum.str), ", ") #
        [{ (}] # summary # [{)")};
  }()}];
}

// `nn.pad`'s `pad_mode` (TVM PadAttrs::pad_mode).
def Relay_PadMode : Relay_AttrEnum<"PadMode", "padding mode of nn.pad", [
  // Fill with `pad_value`.
  I32EnumAttrCase<"Constant", 0, "constant">,
  // Repeat the border element.
  I32EnumAttrCase<"Edge", 1, "edge">,
  // Mirror without repeating the border element (numpy's "reflect").
  I32EnumAttrCase<"Reflect", 2, "reflect">
]>;

// How a loss reduces its per-sample values (TVM NLLLossAttrs::reduction,
// PyTorch's `reduction` argument).
def Relay_LossReduction : Relay_AttrEnum<"LossReduction",
    "reduction of a loss over its samples", [
  I32EnumAttrCase<"Mean", 0, "mean">,
  I32EnumAttrCase<"Sum", 1, "sum">,
  // Per-sample losses.
  I32EnumAttrCase<"None", 2, "none">
]>;

// How `take` treats an out-of-range index (TVM TakeAttrs::mode).
def Relay_TakeMode : Relay_AttrEnum<"TakeMode", "index mode of take", [
  // Clamp into [0, n).
  I32EnumAttrCase<"Clip", 0, "clip">,
  // Wrap around modulo n (negative indices count from the end).
  I32EnumAttrCase<"Wrap", 1, "wrap">,
  // No check: an out-of-range index is undefined behaviour.
  I32EnumAttrCase<"Fast", 2, "fast">
]>;

// `nn.gelu`'s `approximate` (PyTorch's argument of the same name).
def Relay_GeluApproximation : Relay_AttrEnum<"GeluApproximation",
    "approximation of nn.gelu", [
  // x * 0.5 * (1 + erf(x / sqrt(2))).
  I32EnumAttrCase<"None", 0, "none">,
  // Hendrycks & Gimpel 2016's tanh approximation.
  I32EnumAttrCase<"Tanh", 1, "tanh">
]>;

#endif // RAF_DIALECT_RELAY_IR_RELAYENUMS_TD
