//===- VTAInterfaces.td - vta interfaces -------------------*- tablegen -*-===//

#ifndef RAF_DIALECT_VTA_IR_VTAINTERFACES_TD
#define RAF_DIALECT_VTA_IR_VTAINTERFACES_TD

include "mlir/IR/OpBase.td"

def VTA_LaunchableProgramInterface : OpInterface<"LaunchableProgram"> {
  let cppNamespace = "::raf::vta";
  let description = [{
    A VTA program a `vta.launch` can name: the tile-level `vta.program` and
    the assembled `vta_isa.program`. A launchable program has a symbol name
    and a DRAM layout.
  }];
  let methods = [
    InterfaceMethod<"The DRAM layout, if the program has one.",
      "::raf::vta::DramLayoutAttr", "getDramLayout", (ins), [{
        return $_op.getDramAttr();
      }]>,
    InterfaceMethod<"The configuration the program is for.",
      "::raf::vta::ConfigAttr", "getProgramConfig", (ins), [{
        return $_op.getConfigAttr();
      }]>,
  ];
}

#endif // RAF_DIALECT_VTA_IR_VTAINTERFACES_TD
