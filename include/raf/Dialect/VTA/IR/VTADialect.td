//===- VTADialect.td - vta dialect definition --------------*- tablegen -*-===//
//
// The vta dialect: tile-level VTA programs (DESIGN.md §3). Today it holds the
// hardware configuration attribute that every VTA-level IR is parameterised
// by; the tile-level operations come with the lowering from embeddings.
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
    `vta_isa` dialect and the binary encoder read it, and so will the
    tile-level operations of this dialect (tile loads and stores, GEMM and
    ALU loop nests), which are not defined yet.

    See docs/vta.md for the configuration, the instruction set, the binary
    format and the simulator.
  }];
  let useDefaultAttributePrinterParser = 1;
  let extraClassDeclaration = [{
    /// Adds the attributes (defined with their storage in VTAAttrs.cpp).
    void registerAttributes();
  }];
}

#endif // RAF_DIALECT_VTA_IR_VTADIALECT_TD
