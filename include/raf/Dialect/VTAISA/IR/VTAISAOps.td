//===- VTAISAOps.td - vta_isa operations -------------------*- tablegen -*-===//
//
// A program op, its micro-op table and one op per VTA instruction kind.
// Instruction fields are I64Attr so that any value can be written and the
// verifier reports the field that does not fit, with its width for the
// program's configuration.
//
//===----------------------------------------------------------------------===//

#ifndef RAF_DIALECT_VTAISA_IR_VTAISAOPS_TD
#define RAF_DIALECT_VTAISA_IR_VTAISAOPS_TD

include "mlir/IR/OpBase.td"
include "mlir/IR/CommonAttrConstraints.td"
include "mlir/IR/SymbolInterfaces.td"
include "raf/Dialect/VTA/IR/VTAAttrs.td"
include "raf/Dialect/VTA/IR/VTAInterfaces.td"
include "raf/Dialect/VTAISA/IR/VTAISADialect.td"
include "raf/Dialect/VTAISA/IR/VTAISAEnums.td"
include "raf/Dialect/VTAISA/IR/VTAISAInterfaces.td"

class VTAISA_Op<string mnemonic, list<Trait> traits = []>
    : Op<VTAISA_Dialect, mnemonic, traits>;

//===----------------------------------------------------------------------===//
// Program and micro-ops
//===----------------------------------------------------------------------===//

def VTAISA_ProgramOp : VTAISA_Op<"program", [
    IsolatedFromAbove, NoTerminator, NoRegionArguments, SingleBlock, Symbol,
    DeclareOpInterfaceMethods<VTA_LaunchableProgramInterface>]> {
  let summary = "a complete VTA program: micro-op table and instructions";
  let description = [{
    Holds the configuration the program is encoded for, the micro-op table
    (the `uops` region: `vta_isa.uop` ops, entry `i` being the `i`-th op) and
    the instruction stream (the `instructions` region: instruction ops in
    issue order). The micro-op table is its own DRAM segment: a UOP load's
    `dram_base` indexes it.

    Whole-program rules are checked here, after the instructions themselves:
    the last instruction is the only `vta_isa.finish`; each of the four token
    FIFOs (l2g, g2l, g2s, s2g) is pushed as often as it is popped; UOP loads
    read inside the table; and every micro-op a GEMM or ALU runs was loaded
    into the uop buffer by an earlier UOP load (they all run in order on the
    compute module) and keeps the rows the instruction reaches inside their
    buffers.

    A program that `vta.launch` runs has a symbol name and a `dram` layout
    (`#vta.dram_layout`) saying where the launch's operands go and where
    the result is read from (`--convert-tcg-to-vta`,
    `--convert-vta-to-vta-isa`).
  }];
  let arguments = (ins VTA_ConfigAttr:$config,
                       OptionalAttr<SymbolNameAttr>:$sym_name,
                       OptionalAttr<VTA_DramLayoutAttr>:$dram);
  let regions = (region SizedRegion<1>:$uops, SizedRegion<1>:$instructions);
  let assemblyFormat = [{
    ($sym_name^)? qualified($config) (`dram` qualified($dram)^)?
    attr-dict-with-keyword `uops` $uops `instructions` $instructions
  }];
  let hasRegionVerifier = 1;
  let extraClassDeclaration = [{
    /// A program may be a symbol (the target of a vta.launch).
    bool isOptionalSymbol() { return true; }
    ::mlir::Block &getUopBlock() { return getUops().front(); }
    ::mlir::Block &getInstructionBlock() { return getInstructions().front(); }
    /// The program as plain values (ISA.h), for encoding and simulation.
    ::raf::vta::Program getProgram();
    /// Builds the op for `program` at the builder's insertion point.
    static ProgramOp createFrom(::mlir::OpBuilder &builder,
                                ::mlir::Location loc,
                                const ::raf::vta::Program &program);
  }];
}

def VTAISA_UopOp : VTAISA_Op<"uop", [HasParent<"ProgramOp">]> {
  let summary = "one entry of the micro-op table";
  let description = [{
    A 32-bit micro-op: `dst_idx` indexes the accumulator buffer, `src_idx`
    the input buffer (when a GEMM runs it) or the accumulator buffer (ALU),
    `wgt_idx` the weight buffer. Each must fit its field: `dst_idx` has
    log2(acc depth) bits, `src_idx` log2 of the larger of the input and
    accumulator depths, `wgt_idx` log2(weight depth).

    ```mlir
    vta_isa.uop dst_idx = 3, src_idx = 1, wgt_idx = 0
    ```
  }];
  let arguments = (ins I64Attr:$dst_idx, I64Attr:$src_idx, I64Attr:$wgt_idx);
  let assemblyFormat = [{
    `dst_idx` `=` $dst_idx `,` `src_idx` `=` $src_idx `,`
    `wgt_idx` `=` $wgt_idx attr-dict
  }];
  let hasVerifier = 1;
  let extraClassDeclaration = [{
    ::raf::vta::Uop getUop();
  }];
}

//===----------------------------------------------------------------------===//
// Instructions
//===----------------------------------------------------------------------===//

// The four dependence-token flags every instruction has. What they pop and
// push depends on the module that executes the instruction.
defvar VTAISA_DepArgs = (ins UnitAttr:$pop_prev_dep, UnitAttr:$pop_next_dep,
                             UnitAttr:$push_prev_dep, UnitAttr:$push_next_dep);
defvar VTAISA_DepFormat = [{
  (`pop_prev_dep` $pop_prev_dep^)? (`pop_next_dep` $pop_next_dep^)?
  (`push_prev_dep` $push_prev_dep^)? (`push_next_dep` $push_next_dep^)?
  attr-dict
}];

class VTAISA_InstructionOp<string mnemonic, list<Trait> traits = []>
    : VTAISA_Op<mnemonic, !listconcat(traits, [
        HasParent<"ProgramOp">,
        DeclareOpInterfaceMethods<VTAISA_InstructionOpInterface>])> {
  let hasVerifier = 1;
}

defvar VTAISA_MemArgs = (ins VTAISA_MemoryType:$memory_type,
    I64Attr:$sram_base, I64Attr:$dram_base, I64Attr:$y_size, I64Attr:$x_size,
    I64Attr:$x_stride, I64Attr:$y_pad_0, I64Attr:$y_pad_1, I64Attr:$x_pad_0,
    I64Attr:$x_pad_1);
defvar VTAISA_MemFormat = [{
  $memory_type `sram_base` `=` $sram_base `,` `dram_base` `=` $dram_base `,`
  `y_size` `=` $y_size `,` `x_size` `=` $x_size `,` `x_stride` `=` $x_stride
  `,` `y_pad_0` `=` $y_pad_0 `,` `y_pad_1` `=` $y_pad_1 `,`
  `x_pad_0` `=` $x_pad_0 `,` `x_pad_1` `=` $x_pad_1
}];

def VTAISA_LoadOp : VTAISA_InstructionOp<"load"> {
  let summary = "LOAD: a 2-D DMA transfer from DRAM into a buffer";
  let description = [{
    Copies `y_size` rows of `x_size` buffer elements from DRAM (row `y`
    starts at element `dram_base + y * x_stride`; addresses count elements of
    the buffer, e.g. 16-byte input rows in the default configuration) to
    consecutive buffer rows from `sram_base`, surrounded by `y_pad_0` /
    `y_pad_1` zero rows above and below and `x_pad_0` / `x_pad_1` zero
    elements left and right. Only INP loads may pad.

    INP and WGT loads run on the load module; UOP, ACC and ACC_8BIT loads on
    the compute module. A UOP load copies `x_size` micro-ops of the
    program's micro-op table from entry `dram_base` (`y_size` must be 1).
    ACC_8BIT loads int8 values sign-extended into the int32 accumulators.

    ```mlir
    vta_isa.load inp sram_base = 0, dram_base = 64, y_size = 4, x_size = 4,
        x_stride = 8, y_pad_0 = 1, y_pad_1 = 1, x_pad_0 = 1, x_pad_1 = 1
        pop_next_dep push_next_dep
    ```
  }];
  let arguments = !con(VTAISA_MemArgs, VTAISA_DepArgs);
  let assemblyFormat = !strconcat(VTAISA_MemFormat, VTAISA_DepFormat);
}

def VTAISA_StoreOp : VTAISA_InstructionOp<"store"> {
  let summary = "STORE: a 2-D DMA transfer from the output buffer to DRAM";
  let description = [{
    Copies `y_size` rows of `x_size` output-buffer elements from `sram_base`
    to DRAM (row `y` to element `dram_base + y * x_stride`). The memory type
    is always `out` and the pads are 0; both are fields of the encoding and
    are written out. Runs on the store module.

    ```mlir
    vta_isa.store out sram_base = 0, dram_base = 0, y_size = 1, x_size = 1,
        x_stride = 1, y_pad_0 = 0, y_pad_1 = 0, x_pad_0 = 0, x_pad_1 = 0
        pop_prev_dep push_prev_dep
    ```
  }];
  let arguments = !con(VTAISA_MemArgs, VTAISA_DepArgs);
  let assemblyFormat = !strconcat(VTAISA_MemFormat, VTAISA_DepFormat);
}

defvar VTAISA_LoopFormat = [{
  `uop_bgn` `=` $uop_bgn `,` `uop_end` `=` $uop_end `,`
  `iter_out` `=` $iter_out `,` `iter_in` `=` $iter_in `,`
  `dst_factor_out` `=` $dst_factor_out `,` `dst_factor_in` `=` $dst_factor_in
  `,` `src_factor_out` `=` $src_factor_out `,`
  `src_factor_in` `=` $src_factor_in
}];

def VTAISA_GemmOp : VTAISA_InstructionOp<"gemm"> {
  let summary = "GEMM: a loop nest of BATCH x BLOCK_IN x BLOCK_OUT products";
  let description = [{
    For `i_out < iter_out`, `i_in < iter_in` and each micro-op `u` in
    `[uop_bgn, uop_end)` of the uop buffer, with
    `acc = u.dst_idx + i_out * dst_factor_out + i_in * dst_factor_in`,
    `inp = u.src_idx + i_out * src_factor_out + i_in * src_factor_in` and
    `wgt = u.wgt_idx + i_out * wgt_factor_out + i_in * wgt_factor_in`:
    `acc_mem[acc][b][oc] += sum_ic inp_mem[inp][b][ic] * wgt_mem[wgt][oc][ic]`
    (int8 x int8 into int32, wrapping), or with `reset_reg` sets
    `acc_mem[acc]` to zero. Runs on the compute module.

    ```mlir
    vta_isa.gemm uop_bgn = 0, uop_end = 4, iter_out = 2, iter_in = 1,
        dst_factor_out = 4, dst_factor_in = 0, src_factor_out = 0,
        src_factor_in = 0, wgt_factor_out = 1, wgt_factor_in = 0
        pop_prev_dep push_prev_dep
    ```
  }];
  let arguments = !con((ins UnitAttr:$reset_reg, I64Attr:$uop_bgn,
      I64Attr:$uop_end, I64Attr:$iter_out, I64Attr:$iter_in,
      I64Attr:$dst_factor_out, I64Attr:$dst_factor_in,
      I64Attr:$src_factor_out, I64Attr:$src_factor_in,
      I64Attr:$wgt_factor_out, I64Attr:$wgt_factor_in), VTAISA_DepArgs);
  let assemblyFormat = !strconcat("(`reset_reg` $reset_reg^)?",
      VTAISA_LoopFormat, [{
    `,` `wgt_factor_out` `=` $wgt_factor_out `,`
    `wgt_factor_in` `=` $wgt_factor_in
  }], VTAISA_DepFormat);
}

def VTAISA_AluOp : VTAISA_InstructionOp<"alu"> {
  let summary = "ALU: a loop nest of element-wise accumulator operations";
  let description = [{
    The loop nest of `vta_isa.gemm` with `dst` and `src` both indexing the
    accumulator buffer: for every lane,
    `acc_mem[dst] = op(acc_mem[dst], use_imm ? imm : acc_mem[src])` with `op`
    one of `min`, `max` (signed), `add` (wrapping), `shr` (arithmetic shift
    right by the operand's low 5 bits read as signed; negative shifts left)
    and `mul` (wrapping; TVM-VTA's simulator has it, the HLS hardware does
    not). `imm` is a signed 16-bit field, encoded even when `use_imm` is not
    set. The ALU has no reset: `reset_reg` is an encoding bit the verifier
    rejects. Runs on the compute module.

    ```mlir
    vta_isa.alu shr uop_bgn = 0, uop_end = 1, iter_out = 1, iter_in = 1,
        dst_factor_out = 0, dst_factor_in = 0, src_factor_out = 0,
        src_factor_in = 0, imm = 8 use_imm
    ```
  }];
  let arguments = !con((ins VTAISA_AluOpcode:$alu_opcode,
      UnitAttr:$reset_reg, I64Attr:$uop_bgn, I64Attr:$uop_end,
      I64Attr:$iter_out, I64Attr:$iter_in, I64Attr:$dst_factor_out,
      I64Attr:$dst_factor_in, I64Attr:$src_factor_out,
      I64Attr:$src_factor_in, I64Attr:$imm, UnitAttr:$use_imm),
      VTAISA_DepArgs);
  let assemblyFormat = !strconcat("$alu_opcode (`reset_reg` $reset_reg^)?",
      VTAISA_LoopFormat, [{
    `,` `imm` `=` $imm (`use_imm` $use_imm^)?
  }], VTAISA_DepFormat);
}

def VTAISA_FinishOp : VTAISA_InstructionOp<"finish"> {
  let summary = "FINISH: the end of the program";
  let description = [{
    Signals completion once the compute module reaches it; it must be the
    last instruction. Its dependence flags make it wait for the other
    modules (e.g. `pop_next_dep` for the store module's last s2g token).

    ```mlir
    vta_isa.finish pop_next_dep
    ```
  }];
  let arguments = VTAISA_DepArgs;
  let assemblyFormat = VTAISA_DepFormat;
}

#endif // RAF_DIALECT_VTAISA_IR_VTAISAOPS_TD
