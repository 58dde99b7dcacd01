//===- VTAOps.td - vta tile-level operations ---------------*- tablegen -*-===//
//
// A program op and one op per raf::vta::TileInstruction kind (TileProgram.h):
// tile loads and stores, GEMM and ALU loop nests with their micro-ops
// inline. Tokens, the micro-op table, micro-op loads and FINISH are not
// written here; `--convert-vta-to-vta-isa` derives them with
// raf::vta::assemble(). Fields are I64Attr / DenseI64ArrayAttr so that any
// value can be written and the verifier names the one that does not fit.
//
//===----------------------------------------------------------------------===//

#ifndef RAF_DIALECT_VTA_IR_VTAOPS_TD
#define RAF_DIALECT_VTA_IR_VTAOPS_TD

include "mlir/IR/OpBase.td"
include "mlir/IR/CommonAttrConstraints.td"
include "mlir/IR/EnumAttr.td"
include "mlir/IR/SymbolInterfaces.td"
include "raf/Dialect/VTA/IR/VTAAttrs.td"
include "raf/Dialect/VTA/IR/VTAInterfaces.td"

// The memory ids a tile load may write; their values are the ISA's
// (raf::vta::MemoryType). UOP loads are derived, OUT is never loaded.
def VTA_TileMemory : I32EnumAttr<"TileMemory", "buffer a tile load writes", [
  I32EnumAttrCase<"Wgt", 1, "wgt">,
  I32EnumAttrCase<"Inp", 2, "inp">,
  I32EnumAttrCase<"Acc", 3, "acc">,
  I32EnumAttrCase<"Acc8Bit", 5, "acc_8bit">
]> {
  let cppNamespace = "::raf::vta";
}

// The ALU operations, with the ISA's values (raf::vta::AluOpcode).
def VTA_AluFunction : I32EnumAttr<"AluFunction", "VTA ALU operation", [
  I32EnumAttrCase<"Min", 0, "min">,
  I32EnumAttrCase<"Max", 1, "max">,
  I32EnumAttrCase<"Add", 2, "add">,
  I32EnumAttrCase<"Shr", 3, "shr">,
  I32EnumAttrCase<"Mul", 4, "mul">
]> {
  let cppNamespace = "::raf::vta";
}

class VTA_Op<string mnemonic, list<Trait> traits = []>
    : Op<VTA_Dialect, mnemonic, traits>;

def VTA_ProgramOp : VTA_Op<"program", [
    IsolatedFromAbove, NoTerminator, NoRegionArguments, SingleBlock, Symbol,
    DeclareOpInterfaceMethods<VTA_LaunchableProgramInterface>]> {
  let summary = "a VTA program at tile level";
  let description = [{
    The tile instructions of one VTA program in program order, for the
    configuration `config`. `tile_sizes` and `virtual_threads` record the
    schedule that produced the program (raf::vta::ScheduleKnobs); they do
    not change its meaning. A program that `vta.launch` runs has a symbol
    name and a `dram` layout (`#vta.dram_layout`); `--convert-vta-to-vta-isa`
    keeps both.

    ```mlir
    vta.program #vta.config<"1x16x16">
        attributes {tile_sizes = array<i64: 1, 2>, virtual_threads = 1} {
      vta.load_tile inp sram = 0, dram = 0, rows = 1, cols = 2, stride = 2
      vta.load_tile wgt sram = 0, dram = 1, rows = 1, cols = 2, stride = 2
      vta.gemm reset loops = [1, 1], dst = [0, 0], src = [0, 0],
          wgt = [0, 0] uops = [[0, 0, 0]]
      vta.gemm loops = [1, 1], dst = [0, 0], src = [0, 0], wgt = [0, 0]
          uops = [[0, 0, 0], [0, 1, 1]]
      vta.alu shr imm = 6, loops = [1, 1], dst = [0, 0], src = [0, 0]
          uops = [[0, 0, 0]]
      vta.store_tile sram = 0, dram = 48, rows = 1, cols = 1, stride = 1
    }
    ```
  }];
  let arguments = (ins VTA_ConfigAttr:$config,
                       OptionalAttr<DenseI64ArrayAttr>:$tile_sizes,
                       OptionalAttr<I64Attr>:$virtual_threads,
                       OptionalAttr<SymbolNameAttr>:$sym_name,
                       OptionalAttr<VTA_DramLayoutAttr>:$dram);
  let regions = (region SizedRegion<1>:$body);
  let assemblyFormat = [{
    ($sym_name^)? qualified($config) (`dram` qualified($dram)^)?
    attr-dict-with-keyword $body
  }];
  let hasVerifier = 1;
  let extraClassDeclaration = [{
    /// A program may be a symbol (the target of a vta.launch).
    bool isOptionalSymbol() { return true; }
    /// The program as plain values (TileProgram.h), for assemble().
    ::raf::vta::TileProgram getTileProgram();
    /// Builds the op for `program` at the builder's insertion point.
    static ProgramOp createFrom(::mlir::OpBuilder &builder,
                                ::mlir::Location loc,
                                const ::raf::vta::TileProgram &program);
  }];
}

def VTA_LaunchOp : VTA_Op<"launch", [
    DeclareOpInterfaceMethods<SymbolUserOpInterface>]> {
  let summary = "run a VTA program on tensors";
  let description = [{
    Runs the program `program` (a `vta_isa.program`, or a tile-level
    `vta.program` before `--convert-vta-to-vta-isa`, with a `dram` layout)
    on its two int8 operands and returns its result as int32: the exact
    accumulators, or, for a requantising program (one result plane), the
    int8 result sign-extended. A program with a fused bias (its layout has
    `bias_offset`) takes a third operand, the int32 bias rows (`bias_rows`
    accumulator rows, row-major). The operands are copied into a DRAM image as
    the program's `#vta.dram_layout` says (row-major, as the packed tensors
    are laid out), the program runs, and the result planes are read back
    in the result's row-major order. `--convert-tcg-to-vta` replaces a
    packed GEMM kernel by a launch of its program; `raf-run
    --target=vta-sim` runs launches on the VTA simulator.

    ```mlir
    %r = vta.launch @main_kernel0(%x, %w)
        : (tensor<3x2x1x16xi8>, tensor<2x2x16x16xi8>) -> tensor<3x2x1x16xi32>
    ```
  }];
  let arguments = (ins FlatSymbolRefAttr:$program,
                       Variadic<AnyRankedTensor>:$operands);
  let results = (outs AnyRankedTensor:$result);
  let assemblyFormat = [{
    $program `(` $operands `)` attr-dict `:` functional-type($operands, $result)
  }];
  let hasVerifier = 1;
}

class VTA_TileOp<string mnemonic, list<Trait> traits = []>
    : VTA_Op<mnemonic, !listconcat(traits, [HasParent<"ProgramOp">])> {
  let hasVerifier = 1;
  let extraClassDeclaration = [{
    /// The instruction as plain values (dependence flags clear, micro-op
    /// range 0).
    ::raf::vta::TileInstruction getTileInstruction();
  }];
}

def VTA_LoadTileOp : VTA_TileOp<"load_tile"> {
  let summary = "a 2-D DMA transfer of a tile from DRAM into a buffer";
  let description = [{
    A LOAD: `rows` rows of `cols` buffer elements from DRAM (row `y` starts
    at element `dram + y * stride`; addresses count elements of the buffer)
    into consecutive buffer rows from `sram`. `pad = [y0, y1, x0, x1]` adds
    zero rows above and below and zero elements left and right, in SRAM;
    only `inp` loads pad. `inp` and `wgt` loads run on the load module,
    `acc` and `acc_8bit` loads on the compute module.

    ```mlir
    vta.load_tile inp sram = 0, dram = 64, rows = 4, cols = 4, stride = 8,
        pad = [1, 1, 1, 1]
    ```
  }];
  let arguments = (ins VTA_TileMemory:$memory, I64Attr:$sram, I64Attr:$dram,
                       I64Attr:$rows, I64Attr:$cols, I64Attr:$stride,
                       OptionalAttr<DenseI64ArrayAttr>:$pad);
  let assemblyFormat = [{
    $memory `sram` `=` $sram `,` `dram` `=` $dram `,` `rows` `=` $rows `,`
    `cols` `=` $cols `,` `stride` `=` $stride (`,` `pad` `=` $pad^)? attr-dict
  }];
}

def VTA_StoreTileOp : VTA_TileOp<"store_tile"> {
  let summary = "a 2-D DMA transfer of a tile from the output buffer to DRAM";
  let description = [{
    A STORE: `rows` rows of `cols` output-buffer elements from `sram` to
    DRAM (row `y` to element `dram + y * stride`). Runs on the store module.

    ```mlir
    vta.store_tile sram = 0, dram = 16, rows = 2, cols = 4, stride = 8
    ```
  }];
  let arguments = (ins I64Attr:$sram, I64Attr:$dram, I64Attr:$rows,
                       I64Attr:$cols, I64Attr:$stride);
  let assemblyFormat = [{
    `sram` `=` $sram `,` `dram` `=` $dram `,` `rows` `=` $rows `,`
    `cols` `=` $cols `,` `stride` `=` $stride attr-dict
  }];
}

def VTA_GemmOp : VTA_TileOp<"gemm"> {
  let summary = "a GEMM loop nest with its micro-ops";
  let description = [{
    A GEMM: for `o < loops[0]`, `i < loops[1]` and each micro-op
    `[d, s, w]` of `uops`, accumulates the product of input row
    `s + src[0] * o + src[1] * i` and weight row
    `w + wgt[0] * o + wgt[1] * i` into accumulator row
    `d + dst[0] * o + dst[1] * i`, or with `reset` zeroes that row. Every
    row it reaches must lie inside its buffer.

    ```mlir
    vta.gemm loops = [2, 1], dst = [1, 0], src = [0, 0], wgt = [4, 0]
        uops = [[0, 0, 0], [0, 1, 1], [0, 2, 2], [0, 3, 3]]
    ```
  }];
  let arguments = (ins UnitAttr:$reset, DenseI64ArrayAttr:$loops,
                       DenseI64ArrayAttr:$dst, DenseI64ArrayAttr:$src,
                       DenseI64ArrayAttr:$wgt, DenseI64ArrayAttr:$uops);
  let assemblyFormat = [{
    (`reset` $reset^)? `loops` `=` $loops `,` `dst` `=` $dst `,`
    `src` `=` $src `,` `wgt` `=` $wgt `uops` `=` custom<Uops>($uops)
    attr-dict
  }];
}

def VTA_AluOp : VTA_TileOp<"alu"> {
  let summary = "an ALU loop nest with its micro-ops";
  let description = [{
    An ALU operation over the loop nest of `vta.gemm`: accumulator row
    `d + dst[0] * o + dst[1] * i` becomes `f(row, imm)` with `imm`, or
    `f(row, other)` with accumulator row `s + src[0] * o + src[1] * i`
    otherwise (the micro-op's `w` is unused), for `f` one of `min`, `max`,
    `add`, `shr`, `mul`.

    ```mlir
    vta.alu shr imm = 6, loops = [4, 1], dst = [1, 0], src = [1, 0]
        uops = [[0, 0, 0]]
    vta.alu add loops = [1, 1], dst = [0, 0], src = [0, 0] uops = [[0, 1, 0]]
    ```
  }];
  let arguments = (ins VTA_AluFunction:$function, OptionalAttr<I64Attr>:$imm,
                       DenseI64ArrayAttr:$loops, DenseI64ArrayAttr:$dst,
                       DenseI64ArrayAttr:$src, DenseI64ArrayAttr:$uops);
  let assemblyFormat = [{
    $function (`imm` `=` $imm^ `,`)? `loops` `=` $loops `,` `dst` `=` $dst
    `,` `src` `=` $src `uops` `=` custom<Uops>($uops) attr-dict
  }];
}

#endif // RAF_DIALECT_VTA_IR_VTAOPS_TD
