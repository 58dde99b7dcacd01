//===- VTAISAEnums.td - enums of the vta_isa dialect -------*- tablegen -*-===//
//
// The enumerations of the VTA ISA with their encodings (hw_spec_const.h).
// They mirror raf::vta::MemoryType and raf::vta::AluOpcode (ISA.h), value for
// value. As attributes they are i32 integers printed as keywords
// (`vta_isa.load inp ...`), like arith.cmpi's predicate.
//
//===----------------------------------------------------------------------===//

#ifndef RAF_DIALECT_VTAISA_IR_VTAISAENUMS_TD
#define RAF_DIALECT_VTAISA_IR_VTAISAENUMS_TD

include "mlir/IR/EnumAttr.td"

def VTAISA_MemoryType : I32EnumAttr<"MemoryType", "VTA memory id", [
  I32EnumAttrCase<"Uop", 0, "uop">,
  I32EnumAttrCase<"Wgt", 1, "wgt">,
  I32EnumAttrCase<"Inp", 2, "inp">,
  I32EnumAttrCase<"Acc", 3, "acc">,
  I32EnumAttrCase<"Out", 4, "out">,
  I32EnumAttrCase<"Acc8Bit", 5, "acc_8bit">
]> {
  let cppNamespace = "::raf::vta_isa";
}
def VTAISA_AluOpcode : I32EnumAttr<"AluOpcode", "VTA ALU operation", [
  I32EnumAttrCase<"Min", 0, "min">,
  I32EnumAttrCase<"Max", 1, "max">,
  I32EnumAttrCase<"Add", 2, "add">,
  I32EnumAttrCase<"Shr", 3, "shr">,
  I32EnumAttrCase<"Mul", 4, "mul">
]> {
  let cppNamespace = "::raf::vta_isa";
}
#endif // RAF_DIALECT_VTAISA_IR_VTAISAENUMS_TD
