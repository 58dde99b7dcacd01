//===- TCGAttrs.td - tcg dialect attributes ----------------*- tablegen -*-===//
//
// The typed facts the tcg passes hand on: the embedding of an intrinsic into
// an operator that --tcg-dataflow-embed finds (Rieber 2022, §4.3-4.5) and
// the intrinsic a packed kernel is tensorized with (§4.4.4, Tab. 4.1).
//
//===----------------------------------------------------------------------===//

#ifndef RAF_DIALECT_TCG_IR_TCGATTRS_TD
#define RAF_DIALECT_TCG_IR_TCGATTRS_TD

include "mlir/IR/AttrTypeBase.td"
include "raf/Dialect/TCG/IR/TCGDialect.td"
include "raf/Dialect/TCG/IR/TCGEnums.td"

class TCG_Attr<string name, string attrMnemonic> : AttrDef<TCG_Dialect, name> {
  let mnemonic = attrMnemonic;
}

def TCG_AxisMapsAttr : TCG_Attr<"AxisMaps", "axis_maps"> {
  let summary = "the operator dimensions one intrinsic axis covers";
  let description = [{
    A list of `(dim, length, stride)` triples, innermost first (Rieber
    2022, Fig. 4.10): the axis covers `length` points of dimension `dim`,
    `stride` apart (a negative stride walks the dimension backwards, e.g. a
    flipped kernel axis), then the next triple's dimension. `dim` indexes the
    operator's iterators (for an intrinsic iterator) or the dimensions of
    the operator operand's view (for an intrinsic operand dimension). An
    empty list: the axis covers no dimension (its extent is 1).

    ```mlir
    #tcg.axis_maps<[(5, 2, 1), (6, 8, 1)]>   // kh 2, then kw 8
    ```
  }];
  let parameters = (ins ArrayRefParameter<"::raf::tcg::DimMap">:$maps);
  let hasCustomAssemblyFormat = 1;
  let genVerifyDecl = 1;
}

def TCG_EmbeddingCandidateAttr : TCG_Attr<"EmbeddingCandidate", "candidate"> {
  let summary = "one embedding of an intrinsic into an operator";
  let description = [{
    An instance of the intrinsic's dataflow graph in the operator's
    (Rieber 2022, Def. 4.4), as the mapping of its axes:

    * `iterators`: per intrinsic iterator (in the intrinsic's order), the
      operator iterators it covers;
    * `operands`: per intrinsic operand (its inputs in order, then its
      output; intrinsic input `i` is operator input `i`), per dimension of
      the intrinsic operand, the dimensions of the operator operand's view
      it covers;
    * `extents` / `executed`: per operator iterator, its extent and the
      extent executed once tiled by the intrinsic (padding included);
    * `cost` (w_MAC * O_MAC + w_Data * O_Data, §4.3.6), `mac` and `data`
      (executed and minimal multiply-accumulates and data moves), and
      `memory_access` (false: found without the memory-access constraint,
      so the layout duplicates data, e.g. im2col).

    ```mlir
    #tcg.candidate<iterators = [[], [(1, 16, 1)], [(2, 16, 1)]],
                   operands = [[[], [(1, 16, 1)]], [[(0, 16, 1)], [(1, 16, 1)]],
                               [[], [(1, 16, 1)]]],
                   extents = [1, 64, 32, 14, 14, 3, 3],
                   executed = [1, 64, 32, 14, 14, 3, 3], cost = 0,
                   mac = [3612672, 3612672], data = [39168, 39168],
                   memory_access = true>
    ```

    The verifier checks what the candidate says on its own (positive
    lengths, nonzero strides, one executed extent per extent and not below it,
    minimal counts not above executed ones); that the dimensions exist is
    checked against the kernel and intrinsic by the passes that read it.
  }];
  let parameters = (ins
    ArrayRefParameter<"::raf::tcg::AxisMapsAttr">:$iterators,
    ArrayRefParameter<"::mlir::ArrayAttr">:$operands,
    ArrayRefParameter<"int64_t">:$extents,
    ArrayRefParameter<"int64_t">:$executed,
    "uint64_t":$cost,
    "uint64_t":$macTotal, "uint64_t":$macMin,
    "uint64_t":$dataTotal, "uint64_t":$dataMin,
    "bool":$memoryAccess);
  let hasCustomAssemblyFormat = 1;
  let genVerifyDecl = 1;
  let extraClassDeclaration = [{
    /// The mappings of intrinsic operand `operand`, one per dimension.
    ::llvm::SmallVector<::raf::tcg::AxisMapsAttr>
    getOperandDims(unsigned operand) const;
  }];
}

def TCG_EmbeddingAttr : TCG_Attr<"Embedding", "embedding"> {
  let summary = "the embeddings --tcg-dataflow-embed or --tcg-topdown-embed found for a kernel";
  let description = [{
    The result of the dataflow embedding of `intrinsic` (a name of the
    intrinsic library) into the kernel that carries it, under `mode`
    (`strict`, `relaxed`, or `topdown` for the tree matching of
    `--tcg-topdown-embed`, Rieber 2022, §3.2, whose candidates cost the
    nodes they leave uncovered and whose statistics are described with that
    pass):
    the candidates cheapest first (`--tcg-apply-strategy=candidate=K`
    applies the K-th; the dissertation auto-tunes the five best,
    §4.5.2.2), whether branch and bound proved the first optimal, and the
    search statistics (nodes, fails, solutions found, assets run, and
    optionally the distinct embeddings counted and the solve time).

    ```mlir
    #tcg.embedding<"vta.gemm.1x16x16", strict, optimal = true,
                   candidates = [#tcg.candidate<...>],
                   search = {nodes = 4, fails = 0, solutions = 1, assets = 1}>
    ```
  }];
  let parameters = (ins
    "::mlir::StringAttr":$intrinsic,
    "::raf::tcg::EmbeddingMode":$mode,
    "bool":$optimal,
    ArrayRefParameter<"::raf::tcg::EmbeddingCandidateAttr">:$candidates,
    "uint64_t":$nodes, "uint64_t":$fails, "uint64_t":$solutions,
    "uint64_t":$assets,
    OptionalParameter<"std::optional<uint64_t>">:$distinct,
    OptionalParameter<"std::optional<bool>">:$distinctComplete,
    OptionalParameter<"::mlir::FloatAttr">:$timeMs);
  let hasCustomAssemblyFormat = 1;
  let genVerifyDecl = 1;
}

def TCG_TensorizeAttr : TCG_Attr<"Tensorize", "tensorize"> {
  let summary = "the intrinsic a packed kernel is computed with";
  let description = [{
    Set by `--tcg-apply-strategy` on the packed kernel it emits: the
    intrinsic's name, the target whose instruction the intrinsic is (the
    `target` of the intrinsic library's kernel, e.g. `"vta"`), and, for a
    GEMM core, the extents of its x, y and z axes, from which the target's
    configuration follows (VTA: BATCH = x, BLOCK_OUT = y, BLOCK_IN = z).

    ```mlir
    #tcg.tensorize<"vta.gemm.8x8x8", target = "vta", gemm = [8, 8, 8]>
    #tcg.tensorize<"dot.16">
    ```
  }];
  let parameters = (ins
    "::mlir::StringAttr":$intrinsic,
    OptionalParameter<"::mlir::StringAttr">:$target,
    OptionalArrayRefParameter<"int64_t">:$gemm);
  let hasCustomAssemblyFormat = 1;
  let genVerifyDecl = 1;
}

#endif // RAF_DIALECT_TCG_IR_TCGATTRS_TD
