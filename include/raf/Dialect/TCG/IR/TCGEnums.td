//===- TCGEnums.td - enums of the tcg dialect --------------*- tablegen -*-===//

#ifndef RAF_DIALECT_TCG_IR_TCGENUMS_TD
#define RAF_DIALECT_TCG_IR_TCGENUMS_TD

include "mlir/IR/EnumAttr.td"

// The scalar operations of compute and reduce nodes. The same set as
// raf::embed::ScalarOp, so extracting a tensor expression is a 1:1 mapping.
// Reductions use add, mul, max and min only (`sub` and `div` are not
// associative, `exp` is unary). `div` and `exp` complete the element-wise
// operations of Rieber 2022, Tab. 3.1 (sigmoid, softmax); `exp` is the one
// unary operation and needs a floating-point type.
def TCG_ScalarOp : I32EnumAttr<"ScalarOp", "scalar operation", [
  I32EnumAttrCase<"Add", 0, "add">,
  I32EnumAttrCase<"Sub", 1, "sub">,
  I32EnumAttrCase<"Mul", 2, "mul">,
  I32EnumAttrCase<"Max", 3, "max">,
  I32EnumAttrCase<"Min", 4, "min">,
  I32EnumAttrCase<"Div", 5, "div">,
  I32EnumAttrCase<"Exp", 6, "exp">
]> {
  let cppNamespace = "::raf::tcg";
}

// The axes of a GEMM core, c[x, y] = sum_z a[x, z] * b[y, z]: x the rows of
// the activation (VTA's BATCH), y the output channels (BLOCK_OUT), z the
// reduced input channels (BLOCK_IN). TVM's hand-written VTA strategy maps
// batch -> x, output channel -> y, input channel -> z (Rieber 2022,
// §4.5.1).
def TCG_GemmAxis : I32EnumAttr<"GemmAxis", "GEMM core axis", [
  I32EnumAttrCase<"X", 0, "x">,
  I32EnumAttrCase<"Y", 1, "y">,
  I32EnumAttrCase<"Z", 2, "z">
]> {
  let cppNamespace = "::raf::tcg";
}

// How an embedding was found: the two search modes of the dataflow
// embedding (Rieber 2022, §4.5.1-2; strict reproduces TVM's fixed mapping,
// relaxed lets the solver choose), or the top-down tree matching of
// chapter 3 (--tcg-topdown-embed).
def TCG_EmbeddingMode : I32EnumAttr<"EmbeddingMode", "embedding search mode", [
  I32EnumAttrCase<"Strict", 0, "strict">,
  I32EnumAttrCase<"Relaxed", 1, "relaxed">,
  I32EnumAttrCase<"TopDown", 2, "topdown">
]> {
  let cppNamespace = "::raf::tcg";
}

#endif // RAF_DIALECT_TCG_IR_TCGENUMS_TD
