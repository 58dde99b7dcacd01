//===- VTADialect.td - vta dialect definition --------------*- tablegen -*-===//
//
// The vta dialect: tile-level VTA programs (docs/vta.md). It holds the
// hardware configuration attribute that every VTA-level IR is parameterised
// by, and the tile-level operations (VTAOps.td) that
// --convert-vta-to-vta-isa assembles into vta_isa programs.
//
//===----------------------------------------------------------------------===//

#ifndef RAF_DIALECT_VTA_IR_VTADIALECT_TD
#define RAF_DIALECT_VTA_IR_VTADIALECT_TD

include "mlir/IR/OpBase.td"

def VTA_Dialect : Dialect {
  let name = "vta";
  let cppNamespace = "::raf::vta";
  let summary = "VTA accelerator programs at tile level";
  let description = [{
    VTA (the Versatile Tensor Accelerator of TVM) computes with a GEMM core
    of `BATCH x BLOCK_IN x BLOCK_OUT` int8 multiply / int32 accumulate, an
    ALU on the accumulators, and DMA loads and stores of 2-D tiles between
    DRAM and on-chip buffers.

    Programs for VTA are parameterised by a `#vta.config` attribute: the
    tile shape, the element widths and the buffer sizes an instance is built
    with, from which buffer depths and instruction field widths follow. The
    `vta_isa` dialect and the binary encoder read it, and so do the
    tile-level operations of this dialect: a `vta.program` of tile loads and
    stores and of GEMM and ALU loop nests with their micro-ops inline,
    without dependence tokens, micro-op table or FINISH, which
    `--convert-vta-to-vta-isa` derives (`raf::vta::assemble()`).

    See docs/vta.md for the configuration, the instruction set, the binary
    format and the simulator.
  }];
  let useDefaultAttributePrinterParser = 1;
  let hasOperationAttrVerify = 1;
  let extraClassDeclaration = [{
    /// Adds the attributes (defined with their storage in VTAAttrs.cpp).
    void registerAttributes();
  }];
}

#endif // RAF_DIALECT_VTA_IR_VTADIALECT_TD
