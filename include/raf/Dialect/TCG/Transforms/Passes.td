//===- Passes.td - tcg passes ------------------------------*- tablegen -*-===//

#ifndef RAF_DIALECT_TCG_TRANSFORMS_PASSES_TD
#define RAF_DIALECT_TCG_TRANSFORMS_PASSES_TD

include "mlir/Pass/PassBase.td"

def TCGPrintTensorExprs : Pass<"tcg-print-tensor-exprs", "mlir::ModuleOp"> {
  let summary = "Print the tensor expression of every tcg.kernel";
  let description = [{
    Extracts the tensor expression the dataflow embedding reads
    (`raf::tcg::extractTensorExpr`) from every `tcg.kernel` of the module and
    prints it to stdout, in module order, in the form below. A kernel that
    has no tensor expression (a sequence of computations, a reduction
    combined with other values, nested reductions of different kinds) gets
    a located error and the pass fails. The module is not changed.

    ```
    $ raf-opt --tcg-print-tensor-exprs conv.mlir -o /dev/null
    conv2d: out[n, oc, oh, ow] = add_{ic, kh, kw} (data[n, ic, oh + kh, ow + kw] * weight[oc, ic, kh, kw])
      n: [0, 1) gemm x
      ...
    ```
  }];
}

def TCGPrintIntrinsics : Pass<"tcg-print-intrinsics", "mlir::ModuleOp"> {
  let summary = "Print the intrinsic library";
  let description = [{
    Prints the intrinsic library (VTA GEMM 1x16x16 and 8x8x8, GEMV 16x16,
    dot 16, and the float32 vector-scalar, vector-vector, reduction, dot and
    matrix-vector intrinsics of Rieber 2022, Tab. 3.1;
    `raf::tcg::lookupIntrinsic`) to stdout as a module, each
    function preceded by its tensor expression as a comment, so the output
    is itself valid input. `names` selects intrinsics; an unknown name is an
    error that lists the known ones. The input module is not read or
    changed.

    ```
    raf-opt --tcg-print-intrinsics=names=vta.gemm.1x16x16 /dev/null -o /dev/null
    ```
  }];
  let options = [
    ListOption<"names", "names", "std::string",
               "Intrinsics to print (default: all)">
  ];
  let dependentDialects = ["mlir::func::FuncDialect", "raf::tcg::TCGDialect"];
}

def TCGDataflowEmbed : Pass<"tcg-dataflow-embed", "mlir::ModuleOp"> {
  let summary = "Embed a hardware intrinsic into every tcg.kernel (Gecode)";
  let description = [{
    Dataflow embedding (Rieber 2022, §4.2-4.3, §4.6): builds the
    polyhedral dataflow graph of each kernel's tensor expression with isl and
    searches, as a Gecode constraint problem, for one instance of the
    intrinsic's dataflow graph inside it: edge (the isl relations), AllDiff
    (relaxed on inputs in relaxed mode), hyper-rectangle (`max-stride`,
    `max-dimensions`), memory access, fixed origin and padding constraints,
    with the asset portfolio and domain bound of §4.6 and k-best branch and
    bound on `w_MAC * O_MAC + w_Data * O_Data` (§4.3.6).

    `mode=strict` reproduces TVM's hand-written mapping (the iterators with
    `gemm_axis` x, y, z; stride 1; one dimension per axis; the tagged
    iterators padded to the intrinsic's extents). `mode=relaxed` lets the
    solver choose, with strides up to `max-stride` (default 4) on parallel
    iterators and data, several operator dimensions per axis, and padding of
    short iterators to a divisor of the intrinsic's extents.

    The result is a typed `#tcg.embedding` attribute on the kernel (see
    the tcg dialect's attributes): the intrinsic and mode; `optimal`
    (branch and bound finished); the up to `max-candidates` cheapest
    `#tcg.candidate`s, each with the operator iterators every intrinsic
    iterator covers and the view dimensions every intrinsic operand
    dimension covers (as `(dim, length, stride)` triples, innermost first),
    the extents before and after tiling (padding included), `cost`, `mac`,
    `data` and `memory_access` (false when the layout must duplicate data,
    e.g. im2col); and the search statistics `nodes`, `fails`, `solutions`,
    `assets` (and `time_ms` with `report-time`; `distinct` and `complete`
    with `count`, whose enumeration `time_ms` does not include).

    A kernel without a tensor expression, an intrinsic that cannot embed
    (the message names the structural mismatch or the constraint whose
    removal would allow an embedding) and a timeout before any embedding
    are errors at the kernel. A timeout after some embeddings is a warning:
    the best is then not proven optimal.

    Input from any frontend: with `convert=true` (the default) every
    operation outside a kernel that implements `tcg::TensorExprOpInterface`
    (relay convolutions and matrix products, linalg's named convolutions,
    `matmul`, `batch_matmul` and multiply-accumulate `linalg.generic`s on
    tensors, as torch-mlir and IREE emit them) is first replaced by its
    `tcg.kernel`, as `--convert-relay-to-tcg` and `--convert-linalg-to-tcg`
    do; one that cannot be expressed stays, with a remark. A module with
    nothing to embed gets a remark at the module (an error, and the pass
    fails, with `require-kernels=true`).

    `intrinsics=path.mlir` reads a user's intrinsic library, in the format
    of the built-in one (`raf-opt --tcg-print-intrinsics`): functions, each
    holding one `tcg.kernel` named after the intrinsic. `intrinsic=name`
    looks in that file first, then in the built-in library. A file that
    cannot be read or parsed, holds no named kernel or names two kernels
    alike is an error located in the file.

    ```
    raf-opt --convert-relay-to-tcg \
      --tcg-dataflow-embed="intrinsic=vta.gemm.1x16x16 mode=relaxed" \
      --tcg-print-embeddings conv.mlir
    ```
  }];
  let options = [
    Option<"intrinsic", "intrinsic", "std::string", "\"vta.gemm.1x16x16\"",
           "Intrinsic of the library to embed (see --tcg-print-intrinsics)">,
    Option<"mode", "mode", "::raf::tcg::EmbeddingMode",
           "::raf::tcg::EmbeddingMode::Relaxed", "Search mode",
           [{::llvm::cl::values(
               clEnumValN(::raf::tcg::EmbeddingMode::Strict, "strict",
                          "TVM's mapping: n -> x, oc -> y, ic -> z"),
               clEnumValN(::raf::tcg::EmbeddingMode::Relaxed, "relaxed",
                          "the solver chooses strides and dimensions"))}]>,
    Option<"maxCandidates", "max-candidates", "unsigned", "5",
           "Number of cheapest distinct embeddings to find">,
    Option<"timeout", "timeout", "unsigned", "10000",
           "Time limit per kernel in milliseconds of the searching thread's "
           "CPU time (0: none; ten times this on the sanitizer build)">,
    Option<"maxStride", "max-stride", "unsigned", "0",
           "Hyper-rectangle stride parameter (0: strict 1, relaxed 4)">,
    Option<"maxDimensions", "max-dimensions", "unsigned", "0",
           "Hyper-rectangle dimensions parameter (0: strict 1, relaxed the "
           "operator's rank)">,
    Option<"maxAssets", "assets", "unsigned", "0",
           "Portfolio assets (Eq. 4.40) to run first (0: all)">,
    Option<"domainBound", "domain-bound", "bool", "true",
           "Cap statement coordinates (Eq. 4.39, corrected to a cap)">,
    Option<"weightMac", "weight-mac", "unsigned", "1",
           "Weight of the MAC overhead in the cost">,
    Option<"weightData", "weight-data", "unsigned", "1",
           "Weight of the data-movement overhead in the cost">,
    Option<"reportTime", "report-time", "bool", "false",
           "Record the solve time (time_ms) in the attribute">,
    Option<"verifyIsl", "verify-isl", "bool", "false",
           "Check every edge of every reported embedding against the isl "
           "relations (an internal consistency check, one isl query per "
           "edge)">,
    Option<"countLimit", "count", "unsigned", "0",
           "Also enumerate up to this many distinct embeddings of the whole "
           "space and record how many there are (distinct, complete)">,
    Option<"intrinsicsFile", "intrinsics", "std::string", "\"\"",
           "A .mlir file of user intrinsics (named tcg.kernels), searched "
           "before the built-in library">,
    Option<"convert", "convert", "bool", "true",
           "First replace operations with a tensor-expression form (relay, "
           "linalg) by tcg.kernels">,
    Option<"requireKernels", "require-kernels", "bool", "false",
           "Fail when the module holds nothing to embed (default: a remark)">
  ];
  let dependentDialects = [
    "mlir::func::FuncDialect", "mlir::linalg::LinalgDialect",
    "mlir::tensor::TensorDialect", "raf::tcg::TCGDialect"
  ];
}

def TCGPrintEmbeddings : Pass<"tcg-print-embeddings", "mlir::ModuleOp"> {
  let summary = "Print the embeddings found by --tcg-dataflow-embed";
  let description = [{
    Prints, for every `tcg.kernel` with a `tcg.embedding` attribute, a
    readable report to stdout: the intrinsic and mode, which operator
    iterators each intrinsic axis covers, how every intrinsic operand maps
    onto the operator's operand dimensions, the padding, the cost terms, the
    search statistics and the other candidates. The module is not changed.

    Each embedding is followed by its deployment strategy (the data-layout
    rewrites of Tab. 4.1 that `--tcg-apply-strategy` emits), one line per
    operand, e.g. for a one-channel convolution whose kernel rows and
    columns cover the GEMM's z axis:

    ```
    strategy: data: stencil unroll (kh 2, kw 8), pad kh 5->6 kw 20->24, ...
    ```

    An attribute the printer cannot read (written by hand or by another
    tool) is an error at its kernel. An embedding of a user intrinsic needs
    the same `intrinsics=path.mlir` as `--tcg-dataflow-embed`.
  }];
  let options = [
    Option<"intrinsicsFile", "intrinsics", "std::string", "\"\"",
           "The .mlir file of user intrinsics the embeddings were found with">
  ];
  let dependentDialects = ["mlir::func::FuncDialect", "raf::tcg::TCGDialect"];
}

def TCGApplyStrategy : Pass<"tcg-apply-strategy", "mlir::ModuleOp"> {
  let summary = "Rewrite embedded kernels into the intrinsic's tiled layout";
  let description = [{
    Derives the deployment strategy of an embedding found by
    `--tcg-dataflow-embed` (Rieber 2022, §4.4.4, Tab. 4.1; see
    docs/embedding-strategies.md) and replaces every `tcg.kernel` carrying a
    `tcg.embedding` by

    1. relay layout rewrites of each input: `relay.nn.pad` (the operand's
       view and the tiling's padding), `relay.take` with a constant index
       list (stencil unroll, dilate pack, image pack, and the fallback
       gather), `relay.strided_slice`, `relay.reshape` (split and fuse) and
       `relay.transpose` (reorder);
    2. a packed `tcg.kernel` computing the operator in the tiled layout:
       its iterators are the outer tile iterators, then the intrinsic's
       (parallel first, as tcg nests reductions innermost), which carry
       their `gemm_axis`; every operand has the intrinsic's dimensions
       innermost (`a[tile..., x, z]`, `b[tile..., y, z]`,
       `c[tile..., x, y]` for the VTA GEMM); the kernel records the
       intrinsic in `tcg.tensorize` (`#tcg.tensorize`, copied from the
       intrinsic library: the target and the GEMM extents);
    3. the inverse rewrites of the result (reshape, transpose, and a
       strided slice that cuts the padding away) back to the original
       type.

    A constant operand (a weight) is packed at compile time into a new
    `relay.constant` of the packed layout; the rewrites of the other
    operands run at run time.

    For a kernel whose intrinsic targets VTA, the input's zero padding (the
    convolution's `padding`) is not stored by the host when VTA's loads can
    write it (`pad-on-the-fly`, default on): the packed kernel reads the
    unpadded packed input through a zero-padded view (`pad_low`/`pad_high`),
    provided the padding stays on the two innermost row dimensions of the
    packed input, 0 to 15 on each side, without dilation. Otherwise the input
    is padded on the host and a remark says why.

    `candidate=K` applies the K-th candidate of the attribute (0, the
    cheapest, by default). Kernels without an embedding are left alone. An
    embedding that does not fit its kernel, a candidate index out of range
    and an operand that cannot be packed are errors at the kernel.

    An embedding of a user intrinsic needs the file it was found with,
    `intrinsics=path.mlir` as for `--tcg-dataflow-embed`; the packed kernel
    carries that kernel's `tcg.tensorize` (or just the intrinsic's name).

    ```
    raf-opt --convert-relay-to-tcg --tcg-dataflow-embed=mode=strict \
      --tcg-apply-strategy conv.mlir
    ```
  }];
  let options = [
    Option<"candidate", "candidate", "unsigned", "0",
           "Which candidate of the embedding to apply (0: the best)">,
    Option<"padOnTheFlyOption", "pad-on-the-fly", "bool", "true",
           "For VTA kernels, read the input through its zero-padded view "
           "(the loads pad) instead of padding it on the host, when the "
           "padding fits the load's pad fields">,
    Option<"intrinsicsFile", "intrinsics", "std::string", "\"\"",
           "The .mlir file of user intrinsics the embeddings were found with "
           "(as --tcg-dataflow-embed's intrinsics)">
  ];
  let dependentDialects = ["mlir::func::FuncDialect", "raf::tcg::TCGDialect",
                           "raf::relay::RelayDialect"];
}

//===----------------------------------------------------------------------===//
// Top-down embedding (Rieber 2022, chapter 3)
//===----------------------------------------------------------------------===//

def TCGTopDownTransform : Pass<"tcg-topdown-transform", "mlir::ModuleOp"> {
  let summary = "Apply one transformation of the top-down search (§3.3)";
  let description = [{
    Applies the transformation `kind` of Rieber 2022, §3.3.1 to every op
    that carries the discardable marker attribute `topdown.target` (the
    marker is removed), or, for `kind=canonicalize`, puts every commutative
    `tcg.compute` of the module into the operand order of Tab. 3.2
    (constants to the right, intermediate values to the left). A refused
    transformation (a precondition fails) is an error at the op and the pass
    fails.

    | kind | marked op | rewrite |
    | --- | --- | --- |
    | `swap` | `tcg.compute` | operand swap (Fig. 3.7); commutative ops only |
    | `canonicalize` | – | Tab. 3.2 on every compute |
    | `output-transpose` | `tcg.tensor` | interchange with the nested dimension (Fig. 3.9); reads of the computation follow |
    | `input-transpose` | `tcg.input`, marker `array<i64: ...>` the permutation | read a transposed copy of the source (Fig. 3.8) |
    | `compute-fission` | `tcg.compute` | move into a new computation (Fig. 3.10) |
    | `reduction-fission` | `tcg.reduce` | move the element computation into a new computation with the reduced dimension (Fig. 3.11) |
    | `reduction-out` | `tcg.reduce` combined with other values | move the whole reduction into a new computation, read where it was (Fig. 3.11 on the reduction node) |
    | `inline` | computation (top-level `tcg.tensor` or local row) | replace every read by the computation (Figs. 3.13, 3.14) |
    | `fusion` | computation | move it into the outer dimension of the computation reading it (Fig. 3.12) |
    | `unfuse` | local row of a fused body | the inverse of fusion: the row becomes a computation of its own before the fused tensor, read at the fused iterator |
    | `unfuse-all` | – (every kernel) | inverse fusion until no fused body is left |
    | `full-fission` | – (every kernel) | Alg. 2: compute and reduction fission until every operation has its own computation |

    The pass exists to test the rewrites one by one (and `full-fission`,
    Alg. 2, on whole kernels); the search combining them (Algs. 2, 3 under
    the configurations of Tab. 3.4) is `--tcg-topdown-search`.

    ```
    raf-opt --tcg-topdown-transform=kind=compute-fission kernel.mlir
    ```
  }];
  let options = [
    Option<"kind", "kind", "std::string", /*default=*/"\"\"",
           "swap, canonicalize, output-transpose, input-transpose, "
           "compute-fission, reduction-fission, reduction-out, inline, "
           "fusion, unfuse, unfuse-all or full-fission">
  ];
}

def TCGTopDownMatch : Pass<"tcg-topdown-match", "mlir::ModuleOp"> {
  let summary = "Match intrinsics into every kernel top-down and select a cover (§3.2)";
  let description = [{
    Rieber 2022, §3.2 on each `tcg.kernel` of the module, as it is (no
    transformation is applied; see `--tcg-topdown-transform`): builds its
    label tree (§3.2.1), matches the label paths of the intrinsics (all of
    the library, or `intrinsics`) with one Aho-Corasick automaton under
    every masking of outer input dimensions (at most `max-maskings`; inputs
    of rank r mask r - 2 to r outer dimensions; fully masked, an input is a
    scalar operand), keeps the full matches
    (§3.2.2: every intrinsic path matched, every leaf below the root
    matched, masked dimensions only use iterators defined above the root),
    and selects non-overlapping matches of the largest coverage (Alg. 1,
    Eq. 3.4). Prints, per kernel, the node count, the candidates (full
    matches) and the selection with its coverage and whether every compute
    and reduce node is covered (a solution, Tab. 3.3). `print-paths` also
    prints the kernel's label strings. `config=1` first puts the operands
    into the canonical form of Tab. 3.2 and `config=2` also applies full
    fission (Alg. 2), on a copy of each kernel: configurations 1 and 2 of
    Tab. 3.4 for one graph each (3 and 4 enumerate many graphs, Alg. 3:
    `--tcg-topdown-search`). Element types must agree unless
    `ignore-element-types`. The module is not changed.

    ```
    $ raf-opt --tcg-topdown-match=intrinsics=mv.mul.add.16x16 gemm.mlir -o /dev/null
    topdown gemm: 11 nodes, 2 algebraic, 4 maskings, 1 candidates
      candidate mv.mul.add.16x16 at tensor "n" (node 2), masked a: 1; covers 8
      selection: covers 8 of 11 nodes, algebraic 2 of 2: solution
        mv.mul.add.16x16 at tensor "n" (node 2), masked a: 1
    ```
  }];
  let options = [
    ListOption<"intrinsics", "intrinsics", "std::string",
               "Intrinsics to match (default: the whole library)">,
    Option<"maxMaskings", "max-maskings", "unsigned", /*default=*/"4096",
           "Stop after this many maskings (a warning says so)">,
    Option<"intrinsicsFile", "intrinsics-file", "std::string", "\"\"",
           "A .mlir file of user intrinsics (named tcg.kernels, as "
           "--tcg-topdown-embed's intrinsics-file=), searched before the "
           "built-in library">,
    Option<"printPaths", "print-paths", "bool", /*default=*/"false",
           "Also print every root-to-leaf label string of each kernel">,
    Option<"config", "config", "unsigned", /*default=*/"0",
           "Transformations before matching (Tab. 3.4): 0 none, 1 operand "
           "swap to the canonical form (masking is always on), 2 also full "
           "fission; 3 and 4 (fusion) enumerate many graphs: "
           "--tcg-topdown-search">,
    Option<"ignoreElementTypes", "ignore-element-types", "bool",
           /*default=*/"false",
           "Match intrinsics of other element types too (an int8 "
           "instruction against a float operator)">
  ];
  let dependentDialects = ["raf::tcg::TCGDialect",
                           "mlir::func::FuncDialect"];
}

def TCGTopDownSearch : Pass<"tcg-topdown-search", "mlir::ModuleOp"> {
  let summary = "Search transformed graphs for intrinsic covers (§3.4, Algs. 2, 3)";
  let description = [{
    The search of Rieber 2022, §3.4.1 on a copy of each `tcg.kernel`: the
    canonical operand order (Tab. 3.2), full fission (Alg. 2), then fusion
    and inlining in every conflict-free combination (Alg. 3, Def. 3.2), a
    graph kept only when its label tree is new (duplicates are removed by
    the matcher's own representation). Every graph is matched against the
    intrinsics under every masking of outer input dimensions (with
    `selective-masking`, of any dimensions but those of the nearest
    enclosing iterator: the rest are read with a stride), and Alg. 1
    selects a cover per masking: each distinct cover is a *candidate*, and a
    candidate covering every compute and reduce node a *solution*
    (Tab. 3.3). `config` is the configuration of Tab. 3.4 (1: swap and
    masking, 2: also fission, 3: swap, masking, fusion and inlining, 4: all;
    0: the kernel as written). `layout` transposes every operand and
    computation of that rank identically before the search (§3.4.4,
    Tab. 3.5). The limits stop the search; the report then names the limit.
    Prints, per kernel, the nodes, graphs, candidates, solutions, hit rate,
    the median of the solutions' transformations and the best solution.
    The module is not changed.

    ```
    $ raf-opt --tcg-topdown-search=config=4 gemm.mlir -o /dev/null
    topdown-search gemm: config 4, 11 nodes, 3 graphs, ...
    ```
  }];
  let options = [
    ListOption<"intrinsics", "intrinsics", "std::string",
               "Intrinsics to match (default: the whole library)">,
    Option<"config", "config", "unsigned", /*default=*/"4",
           "Configuration of Tab. 3.4 (0 to 4)">,
    ListOption<"layout", "layout", "int64_t",
               "Layout transposition: new dimension k is old dimension "
               "layout[k], for every operand and computation of that rank">,
    Option<"maxGraphs", "max-graphs", "unsigned", /*default=*/"20000",
           "Stop generating graphs after this many">,
    Option<"maxCandidates", "max-candidates", "uint64_t",
           /*default=*/"5000000", "Stop matching after this many candidates">,
    Option<"selectiveMasking", "selective-masking", "bool",
           /*default=*/"false",
           "Hide any set of at least r - 2 dimensions of a rank-r input "
           "(read with a stride), not only the outer ones">,
    Option<"maxMaskings", "max-maskings", "unsigned", /*default=*/"4096",
           "Maskings tried per graph">,
    Option<"maxCombinations", "max-combinations", "unsigned",
           /*default=*/"4096",
           "Conflict-free fusion/inlining combinations tried per graph">,
    Option<"timeLimit", "time-limit", "double", /*default=*/"60",
           "Seconds before the search stops (0: no limit)">,
    Option<"ignoreElementTypes", "ignore-element-types", "bool",
           /*default=*/"false",
           "Match intrinsics of other element types too (an int8 "
           "instruction against a float operator)">,
    Option<"intrinsicsFile", "intrinsics-file", "std::string", "\"\"",
           "A .mlir file of user intrinsics (named tcg.kernels, as "
           "--tcg-topdown-embed's intrinsics-file=), searched before the "
           "built-in library">,
    Option<"printBest", "print-best", "bool", /*default=*/"false",
           "Also print the graph of the best solution">,
    Option<"printTime", "print-time", "bool", /*default=*/"true",
           "Print the search time">
  ];
  let dependentDialects = ["raf::tcg::TCGDialect",
                           "mlir::func::FuncDialect"];
}

def TCGTopDownEmbed : Pass<"tcg-topdown-embed", "mlir::ModuleOp"> {
  let summary = "Embed intrinsics top-down and attach #tcg.embedding (partial)";
  let description = [{
    The top-down embedding of Rieber 2022, chapter 3, in its first version:
    matches the intrinsics (all of the library, or `intrinsics`) into each
    kernel as `--tcg-topdown-match` does, keeps the matches of a single
    instruction that cover every compute and reduce node (solutions,
    Tab. 3.3), and attaches the intrinsic of the largest coverage (Eq. 3.4;
    the library order breaks ties) with up to `max-candidates` of its
    solutions as `#tcg.embedding<..., topdown, ...>`, the typed form of
    `--tcg-dataflow-embed`, which `--tcg-print-embeddings` and
    `--tcg-apply-strategy` read. A candidate maps each intrinsic iterator to
    the operator iterator it was matched to, tiled by the intrinsic's
    extent and padded to a multiple (Eqs. 3.5, 3.6); `cost` is the number
    of nodes left uncovered, `data` is 0 (not modelled); the statistics are
    the tree's nodes, the solutions of the chosen intrinsic, and all
    candidate matches (`distinct`). `intrinsics-file=path.mlir` adds a
    user's intrinsics, searched first (`intrinsics` stays the list of names
    to match; `--tcg-apply-strategy` then needs `intrinsics=path.mlir`).

    `search=true` applies the search of `--tcg-topdown-search` instead
    (Algs. 2, 3 under configuration `config` of Tab. 3.4; with
    `selective-masking` also strided operands): of the solutions, the best
    one (coverage, then fewer instructions) whose statements the typed form
    can hold (every computation one tensor expression covered by one
    instruction whose operands pair by position; a fused graph, Fig. 3.12,
    is split back into its statements first) is applied: the kernel is
    replaced by one kernel per computation of the transformed graph
    (`<name>.<i>`, reading the kernel's operands and earlier statements;
    the constants of a covered statement become one-element relay
    constants), and every covered one gets its instruction's
    `#tcg.embedding`. Without `search`, a kernel only gets an embedding
    when one instruction covers it as written; kernels holding a sequence
    of computations, and matches whose operands the typed attribute cannot
    pair by position, are errors. See docs/topdown-embedding.md.
  }];
  let options = [
    ListOption<"intrinsics", "intrinsics", "std::string",
               "Intrinsics to match (default: the whole library)">,
    Option<"maxCandidates", "max-candidates", "unsigned", /*default=*/"5",
           "Solutions to keep">,
    Option<"maxMaskings", "max-maskings", "unsigned", /*default=*/"4096",
           "Stop after this many maskings (a warning says so)">,
    Option<"ignoreElementTypes", "ignore-element-types", "bool",
           /*default=*/"false",
           "Match intrinsics of other element types too (an int8 "
           "instruction against a float operator)">,
    Option<"intrinsicsFile", "intrinsics-file", "std::string", "\"\"",
           "A .mlir file of user intrinsics (named tcg.kernels, the "
           "format of --tcg-dataflow-embed's intrinsics=path), searched "
           "before the built-in library">,
    Option<"selectiveMasking", "selective-masking", "bool",
           /*default=*/"false",
           "Hide any set of at least r - 2 dimensions of a rank-r input "
           "(read with a stride), not only the outer ones">,
    Option<"search", "search", "bool", /*default=*/"false",
           "Run the search of --tcg-topdown-search and apply its best "
           "solution the typed form can hold: one kernel per statement, "
           "each covered statement with its instruction's embedding">,
    Option<"config", "config", "unsigned", /*default=*/"4",
           "With search: the configuration of Tab. 3.4 (0 to 4)">,
    Option<"maxGraphs", "max-graphs", "unsigned", /*default=*/"20000",
           "With search: stop generating graphs after this many">,
    Option<"timeLimit", "time-limit", "double", /*default=*/"60",
           "With search: seconds before the search stops (0: no limit)">,
    Option<"solution", "solution", "unsigned", /*default=*/"0",
           "With search: apply the solution of this rank among the "
           "applicable ones (0: the best; each statement kernel's "
           "`topdown.solution` holds the rank and the count)">
  ];
  let dependentDialects = ["raf::tcg::TCGDialect",
                           "mlir::func::FuncDialect",
                           "raf::relay::RelayDialect"];
}

#endif // RAF_DIALECT_TCG_TRANSFORMS_PASSES_TD
