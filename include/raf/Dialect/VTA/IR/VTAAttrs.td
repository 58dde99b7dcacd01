//===- VTAAttrs.td - vta dialect attributes ----------------*- tablegen -*-===//

#ifndef RAF_DIALECT_VTA_IR_VTAATTRS_TD
#define RAF_DIALECT_VTA_IR_VTAATTRS_TD

include "mlir/IR/AttrTypeBase.td"
include "raf/Dialect/VTA/IR/VTADialect.td"

def VTA_ConfigAttr : AttrDef<VTA_Dialect, "Config"> {
  let mnemonic = "config";
  let summary = "a VTA hardware configuration";
  let description = [{
    The nine parameters of TVM-VTA's `vta_config.json`, all log2 values:
    element widths (`log_inp_width`, `log_wgt_width`, `log_acc_width`), the
    tile shape (`log_batch`, `log_block`) and the buffer sizes in bytes
    (`log_uop_buff_size`, `log_inp_buff_size`, `log_wgt_buff_size`,
    `log_acc_buff_size`). Buffer depths and instruction field widths are
    derived from them (`raf::vta::Config`).

    The attribute is written as a preset name, as a list of parameters, or as
    a preset with some parameters overridden; parameters not given take the
    preset's value, or the default configuration's without a preset:

    ```mlir
    #vta.config<"1x16x16">     // the default: BATCH 1, BLOCK 16
    #vta.config<"8x8x8">       // BATCH 8, BLOCK 8, default buffer sizes
    #vta.config<"1x16x16", log_acc_buff_size = 16>
    #vta.config<log_inp_width = 3, log_wgt_width = 3, log_acc_width = 5,
                log_batch = 0, log_block = 4, log_uop_buff_size = 15,
                log_inp_buff_size = 15, log_wgt_buff_size = 18,
                log_acc_buff_size = 17>
    ```

    A configuration equal to a preset prints as the preset's name, any other
    one with all nine parameters. The verifier rejects configurations VTA
    cannot be built with: element widths other than int8 / int8 / int32,
    buffers smaller than one row or deeper than 16-bit SRAM addresses
    reach, and fields that do not fit the 128-bit instruction or the 32-bit
    micro-op.
  }];
  let parameters = (ins "unsigned":$logInpWidth, "unsigned":$logWgtWidth,
                        "unsigned":$logAccWidth, "unsigned":$logBatch,
                        "unsigned":$logBlock, "unsigned":$logUopBuffSize,
                        "unsigned":$logInpBuffSize, "unsigned":$logWgtBuffSize,
                        "unsigned":$logAccBuffSize);
  let builders = [
    AttrBuilder<(ins "const ::raf::vta::Config &":$config)>
  ];
  let hasCustomAssemblyFormat = 1;
  let genVerifyDecl = 1;
  let extraClassDeclaration = [{
    /// The configuration as the target library's value type.
    ::raf::vta::Config getConfig() const;
  }];
}

def VTA_ScheduleAttr : AttrDef<VTA_Dialect, "Schedule"> {
  let mnemonic = "schedule";
  let summary = "the schedule of a packed GEMM kernel on VTA";
  let description = [{
    How a packed GEMM kernel runs on VTA (docs/vta.md, "Tiled lowering";
    the model is `raf/Target/VTA/Schedule.h`):

    * `tiles`: one tile size per tile iterator of the kernel (the GEMM axes
      excluded; parallel iterators first, in kernel order). A size that
      does not divide its iterator's extent leaves a smaller remainder tile
      at the end of that loop;
    * `virtual_threads`: 1 or 2 (double-buffered input, weight and
      accumulator halves);
    * `loop_order` (optional): the tile loops, outermost first, as indices
      of the tile iterators; a permutation that puts the parallel iterators
      before the reductions. Without it, the loops run in kernel order;
    * `dma` (optional): where the weight loads sit. `step` (the default,
      not printed): at the outermost reduction loop, each step loading its
      weight tile unless the buffer half already holds it; `hoist_weight`:
      out of the output-tile loops, the weight of every reduction tile
      loaded once per tile of the parallel loops it depends on and reused
      by the output tiles inside them (TVM's weight reuse), if it fits the
      weight buffer (per virtual thread).

    `--vta-schedule` chooses it and attaches it to the kernel as
    `vta.schedule`; `--convert-tcg-to-vta` and `raf-run --target=vta-sim`
    compile and run
    exactly that schedule.

    ```mlir
    #vta.schedule<tiles = [1, 2, 1], virtual_threads = 2>
    #vta.schedule<tiles = [2, 3, 1], virtual_threads = 1, loop_order = [1, 0, 2]>
    #vta.schedule<tiles = [1, 1, 1], virtual_threads = 2, dma = hoist_weight>
    ```

    The verifier checks the attribute on its own (positive tile sizes, 1 or
    2 threads, a loop order that is a permutation of the tile iterators;
    the parser rejects an unknown DMA placement);
    whether it fits the kernel (extents, parallel before reduction loops)
    and VTA's buffers is checked when the kernel is scheduled or lowered,
    with an error that names the violated limit.
  }];
  let parameters = (ins ArrayRefParameter<"int64_t">:$tiles,
                        "int64_t":$virtualThreads,
                        OptionalArrayRefParameter<"int64_t">:$loopOrder,
                        DefaultValuedParameter<"::raf::vta::DmaPlacement",
                          "::raf::vta::DmaPlacement::Step">:$dma);
  let builders = [
    AttrBuilder<(ins "::llvm::ArrayRef<int64_t>":$tiles,
                     "int64_t":$virtualThreads), [{
      return $_get($_ctxt, tiles, virtualThreads, ::llvm::ArrayRef<int64_t>(),
                   ::raf::vta::DmaPlacement::Step);
    }]>,
    AttrBuilder<(ins "const ::raf::vta::ScheduleKnobs &":$knobs), [{
      return $_get($_ctxt, knobs.tileSizes, knobs.virtualThreads,
                   knobs.loopOrder, knobs.dma);
    }]>
  ];
  let extraClassDeclaration = [{
    /// The schedule as the target library's value type.
    ::raf::vta::ScheduleKnobs getKnobs() const;
  }];
  let hasCustomAssemblyFormat = 1;
  let genVerifyDecl = 1;
}

def VTA_DramLayoutAttr : AttrDef<VTA_Dialect, "DramLayout"> {
  let mnemonic = "dram_layout";
  let summary = "where a VTA program finds its operands and leaves its result";
  let description = [{
    The DRAM image a lowered packed GEMM kernel runs on (docs/vta.md,
    "Lowering packed kernels"), as byte offsets: the GEMM input (operand
    `input_operand` of the launch, laid out row-major as the packed tensor)
    at `input_offset`, the weight likewise at `weight_offset`, and the
    result at `result_offset`: `result_planes` consecutive planes of
    `result_rows` rows of `result_row_bytes` bytes (4 planes: byte k of
    every exact int32 element in plane k; 1 plane: the requantised int8
    result). `size` is the whole image. A program with a fused bias
    (TVM-VTA's fused conv2d + bias) also reads `bias_rows` accumulator rows
    of int32 (`result_row_bytes` elements each, little-endian) from
    `bias_offset`: the launch's third operand, row-major; both fields are
    present or both absent.

    ```mlir
    #vta.dram_layout<input_operand = 0, input_offset = 0, weight_operand = 1,
                     weight_offset = 128, result_offset = 2176,
                     result_rows = 6, result_row_bytes = 16,
                     result_planes = 4, size = 2560>
    ```
  }];
  let parameters = (ins "int64_t":$input_operand, "int64_t":$input_offset,
                        "int64_t":$weight_operand, "int64_t":$weight_offset,
                        "int64_t":$result_offset, "int64_t":$result_rows,
                        "int64_t":$result_row_bytes, "int64_t":$result_planes,
                        "int64_t":$size,
                        OptionalParameter<"std::optional<int64_t>">:$bias_offset,
                        OptionalParameter<"std::optional<int64_t>">:$bias_rows);
  let extraClassDeclaration = [{
    /// Whether the program adds a bias read from the launch's third operand.
    bool hasBias() const { return getBiasOffset().has_value(); }
  }];
  let assemblyFormat = "`<` struct(params) `>`";
  let genVerifyDecl = 1;
}

#endif // RAF_DIALECT_VTA_IR_VTAATTRS_TD
