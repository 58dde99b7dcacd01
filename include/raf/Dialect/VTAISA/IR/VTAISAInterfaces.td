//===- VTAISAInterfaces.td - vta_isa interfaces ------------*- tablegen -*-===//

#ifndef RAF_DIALECT_VTAISA_IR_VTAISAINTERFACES_TD
#define RAF_DIALECT_VTAISA_IR_VTAISAINTERFACES_TD

include "mlir/IR/OpBase.td"

def VTAISA_InstructionOpInterface : OpInterface<"InstructionOpInterface"> {
  let cppNamespace = "::raf::vta_isa";
  let description = [{
    An op that is one VTA instruction. The program verifier, the encoder and
    the simulator read instructions through this interface as
    `raf::vta::Instruction` values.
  }];
  let methods = [
    InterfaceMethod<"The instruction with all its fields.",
      "::raf::vta::Instruction", "getInstruction">,
  ];
}

#endif // RAF_DIALECT_VTAISA_IR_VTAISAINTERFACES_TD
