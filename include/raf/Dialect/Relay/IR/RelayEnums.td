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

#endif // RAF_DIALECT_RELAY_IR_RELAYENUMS_TD
