//===- TCGEnums.td - enums of the tcg dialect --------------*- tablegen -*-===//

#ifndef RAF_DIALECT_TCG_IR_TCGENUMS_TD
#define RAF_DIALECT_TCG_IR_TCGENUMS_TD

include "mlir/IR/EnumAttr.td"

// The scalar operations of compute and reduce nodes. The same set as
// raf::embed::ScalarOp, so extracting a tensor expression is a 1:1 mapping;
// `sub` is not a reduction (it is not associative).
def TCG_ScalarOp : I32EnumAttr<"ScalarOp", "scalar operation", [
  I32EnumAttrCase<"Add", 0, "add">,
  I32EnumAttrCase<"Sub", 1, "sub">,
  I32EnumAttrCase<"Mul", 2, "mul">,
  I32EnumAttrCase<"Max", 3, "max">,
  I32EnumAttrCase<"Min", 4, "min">
]> {
  let cppNamespace = "::raf::tcg";
}

#endif // RAF_DIALECT_TCG_IR_TCGENUMS_TD
