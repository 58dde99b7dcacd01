//===- VTAISADialect.td - vta_isa dialect definition -------*- tablegen -*-===//
//
// The vta_isa dialect: VTA programs at instruction level, one op per 128-bit
// instruction (VTA hardware guide in the TVM documentation; tvm-vta
// include/vta/hw_spec.h).
//
//===----------------------------------------------------------------------===//

#ifndef RAF_DIALECT_VTAISA_IR_VTAISADIALECT_TD
#define RAF_DIALECT_VTAISA_IR_VTAISADIALECT_TD

include "mlir/IR/OpBase.td"

def VTAISA_Dialect : Dialect {
  let name = "vta_isa";
  let cppNamespace = "::raf::vta_isa";
  let summary = "VTA instructions, micro-ops and dependence tokens";
  let description = [{
    A `vta_isa.program` is a complete VTA program for one `#vta.config`: a
    micro-op table and an instruction stream. Each instruction op is one
    128-bit VTA instruction with every field of its encoding written out,
    including the four dependence-token flags, so a program prints, encodes
    (`raf-translate --vta-isa-to-bin`) and decodes
    (`raf-translate --bin-to-vta-isa`) without loss.

    ```mlir
    vta_isa.program #vta.config<"1x16x16"> uops {
      vta_isa.uop dst_idx = 0, src_idx = 0, wgt_idx = 0
    } instructions {
      vta_isa.load uop sram_base = 0, dram_base = 0, y_size = 1, x_size = 1,
          x_stride = 1, y_pad_0 = 0, y_pad_1 = 0, x_pad_0 = 0, x_pad_1 = 0
      vta_isa.gemm reset_reg uop_bgn = 0, uop_end = 1, iter_out = 1,
          iter_in = 1, dst_factor_out = 0, dst_factor_in = 0,
          src_factor_out = 0, src_factor_in = 0, wgt_factor_out = 0,
          wgt_factor_in = 0
      vta_isa.finish
    }
    ```

    Verifiers hold programs to the rules of `raf/Target/VTA/Checks.h`, the
    same ones the binary reader and the simulator apply: every field fits its
    bit width for the program's configuration, transfers and micro-op ranges
    stay inside their buffers, memory types suit the opcode, only INP loads
    pad, dependence flags only name a module's existing neighbours, the
    program ends with its only FINISH, every token FIFO is pushed as often as
    it is popped, and the micro-ops each GEMM/ALU runs were loaded before and
    keep its rows inside the buffers.
  }];
  let dependentDialects = ["::raf::vta::VTADialect"];
}

#endif // RAF_DIALECT_VTAISA_IR_VTAISADIALECT_TD
