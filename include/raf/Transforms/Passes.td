//===- Passes.td - RAF passes on upstream dialects ---------*- tablegen -*-===//

#ifndef RAF_TRANSFORMS_PASSES_TD
#define RAF_TRANSFORMS_PASSES_TD

include "mlir/Pass/PassBase.td"

def RAFTileAndVectorize : Pass<"raf-tile-and-vectorize", "mlir::func::FuncOp"> {
  let summary = "Tile and vectorise matrix products and convolutions";
  let description = [{
    The compute-heavy part of `--raf-cpu-pipeline`, on linalg ops on
    tensors. Convolutions in NCHW/FCHW and NHWC/HWCF form are rewritten as
    an im2col copy plus a contraction; every contraction (matmul,
    batch_matmul, dense, the im2col products) is tiled to a register block
    of `tile-m` x `tile-n` with the reduction innermost, and each tile is
    vectorised, so the innermost loop is a chain of vector FMAs whose
    accumulators stay in registers. An output the block does not divide is
    split first (e.g. 196 columns = 192 in blocks of 32 + a block of 4), so
    every tile has a static shape and vectorises without masks. Depthwise
    convolutions (forward and both gradients) become vector loops of their
    own: a block of output columns kept in a register across the filter
    taps, or, where the filter is larger than the output (a weight
    gradient), one vector dot product per output. Sums along the innermost
    loop (batch-norm statistics, gradient sums) are vectorised, and
    elementwise loops over small contiguous planes are merged into one.
    Dynamic shapes, grouped convolutions and pooling are left to scalar
    loops.
  }];
  let options = [
    Option<"tileM", "tile-m", "int64_t", /*default=*/"8",
           "Rows of the register block (output channels / matrix rows)">,
    Option<"tileN", "tile-n", "int64_t", /*default=*/"32",
           "Columns of the register block (the contiguous output dimension)">,
    Option<"im2col", "im2col", "bool", /*default=*/"true",
           "Rewrite convolutions as im2col + contraction first">,
    Option<"vectorBits", "vector-bits", "int64_t", /*default=*/"0",
           "Bits of the vectors of the depthwise and sum loops (0: the "
           "host CPU's widest register, as raf-run compiles for the host: "
           "512 with AVX-512, 256 with AVX, else 128)">
  ];
  let dependentDialects = [
    "mlir::arith::ArithDialect", "mlir::linalg::LinalgDialect",
    "mlir::scf::SCFDialect", "mlir::tensor::TensorDialect",
    "mlir::vector::VectorDialect"
  ];
}

def RAFHoistVectorTransfers
    : Pass<"raf-hoist-vector-transfers", "mlir::func::FuncOp"> {
  let summary = "Keep vector accumulators in registers across loops (on buffers)";
  let description = [{
    After bufferization, moves `vector.transfer_read`/`transfer_write` pairs
    on loop-invariant addresses out of the loops around them (upstream
    `linalg::hoistRedundantVectorTransfers`), so the accumulator block of a
    vectorised contraction is loaded once before the reduction loop and
    stored once after it instead of in every iteration. LLVM cannot do this
    itself because it cannot prove that the output buffer does not alias the
    inputs.
  }];
}

def RAFApproximateMath : Pass<"raf-approximate-math"> {
  let summary = "Replace f32 erf, exp and tanh by vectorisable approximations";
  let description = [{
    Rewrites `math.erf`, `math.exp` and `math.tanh` (or those named in
    `functions`) on f32 scalars and vectors into MLIR's polynomial and
    rational approximations (upstream
    `populateMathPolynomialApproximationPatterns`), built from `arith` and
    `math.fma`/`math.floor`/`math.absf` only, so that loops over them
    vectorise instead of calling libm once per element. f16 and bf16 are
    computed in f32; f64 is left to libm. The measured maximum errors
    against a float64 reference, beside libm's, are in docs/lowering.md.
  }];
  let options = [
    ListOption<"functions", "functions", "std::string",
               "Functions to approximate: erf, exp, tanh (default: all three)">
  ];
  let dependentDialects = [
    "mlir::arith::ArithDialect", "mlir::math::MathDialect",
    "mlir::vector::VectorDialect"
  ];
}

def RAFEmitCInterface : Pass<"raf-emit-c-interface", "mlir::ModuleOp"> {
  let summary = "Request a C interface wrapper for every public function";
  let description = [{
    Sets `llvm.emit_c_interface` on every public `func.func`, so that
    `--convert-func-to-llvm` emits `_mlir_ciface_<name>`, which takes each
    memref as a pointer to its descriptor. raf-run calls compiled functions
    through it.
  }];
}

def RAFPrefixEntryPoints : Pass<"raf-prefix-entry-points", "mlir::ModuleOp"> {
  let summary = "Prefix the names of the public functions a module exports";
  let description = [{
    Renames every public `func.func` with a body `@f` to `@<prefix>f` and
    updates the calls and symbol references to it, so that the compiled
    entry points (and their `_mlir_ciface_<prefix>f` wrappers) do not clash
    with the symbols of the program the object is linked into: a relay
    module's `@main` becomes `raf_main` with `prefix=raf_`, and a C program
    keeps its own `main`. A new name that another symbol of the module
    already has is an error at that function. `--raf-cpu-pipeline` runs it
    with its `entry-prefix` option; raf-run looks the entry up with the same
    prefix.
  }];
  let options = [
    Option<"prefix", "prefix", "std::string", /*default=*/"\"raf_\"",
           "Prepended to the name of every public function">
  ];
}

def RAFCheckForeignOps : Pass<"raf-check-foreign-ops", "mlir::ModuleOp"> {
  let summary = "Name the missing conversion of ops the CPU pipeline cannot lower";
  let description = [{
    Run by `--raf-cpu-pipeline` first. Finds the ops of dialects the
    pipeline does not lower (it lowers relay and tcg, and the upstream
    dialects they become: func, arith, math, linalg, tensor, scf, cf,
    memref, bufferization, vector, affine, index, ub, mpi, llvm) and reports
    each such dialect once, at its first op, with the conversion that would
    make it input of the pipeline:

    ```
    error: tosa.abs: no conversion to relay/linalg in this pipeline; run
           --convert-tosa-to-relay first (2 tosa ops)
    ```

    Known dialects and their conversions: `tosa` (`--convert-tosa-to-relay`),
    `vta` (`--convert-vta-launch-to-runtime`), `shape`
    (`--convert-shape-to-std`), `torch` (torch-mlir's
    `--torch-backend-to-linalg-on-tensors-backend-pipeline`) and `stablehlo`
    (StableHLO's `--stablehlo-legalize-to-linalg`); other dialects get a
    generic message. Without this check such an op reached bufferization,
    which reported only "op was not bufferized". `allow` adds dialects that
    a caller lowers itself.
  }];
  let options = [
    ListOption<"allow", "allow", "std::string",
               "Further dialects (namespaces) to accept">
  ];
}

def RAFDotProductContraction
    : Pass<"raf-dot-product-contraction", "mlir::func::FuncOp"> {
  let summary = "Vectorise A * B^T contractions along the reduction (on buffers)";
  let description = [{
    For a float contraction on buffers whose two operands both have the
    reduction dimension innermost with unit stride (nn.dense's `x W^T`,
    matmul/batch_matmul with `transpose_b`, attention's `Q K^T`), emits loops
    whose vector lanes run along the reduction: a `block-m` x `block-n` block
    of the output is `block-m * block-n` vector accumulators, each step loads
    `block-m` rows of A and `block-n` rows of B contiguously and issues one
    FMA per accumulator, and the lanes are summed into the output once per K
    block of `k-block` elements. The B block stays in cache while all rows of
    A stream past it; at one row (a dense layer at batch 1) B is read once.
    The reduction's remainder is one masked step. Other contractions are left
    as they are (`--raf-tile-and-vectorize` handles those with a contiguous
    output dimension on tensors).
  }];
  let options = [
    Option<"vectorBits", "vector-bits", "int64_t", /*default=*/"512",
           "Bits per vector (lanes = vector-bits / element bits)">,
    Option<"blockM", "block-m", "int64_t", /*default=*/"4",
           "Rows of A per block">,
    Option<"blockN", "block-n", "int64_t", /*default=*/"4",
           "Rows of B (output columns) per block">,
    Option<"kBlock", "k-block", "int64_t", /*default=*/"2048",
           "Reduction elements per block (rounded to whole vectors)">,
    Option<"parallel", "parallel", "bool", /*default=*/"false",
           "Emit the loop over column blocks as scf.parallel (for "
           "--convert-scf-to-openmp)">
  ];
  let dependentDialects = [
    "mlir::arith::ArithDialect", "mlir::memref::MemRefDialect",
    "mlir::scf::SCFDialect", "mlir::vector::VectorDialect"
  ];
}

def RAFParallelizeLoops : Pass<"raf-parallelize-loops", "mlir::func::FuncOp"> {
  let summary = "Choose the parallel loop of each loop nest (on buffers)";
  let description = [{
    Prepares loops for `--convert-scf-to-openmp` (used by
    `--raf-cpu-pipeline="threads=N"` with N > 1): an `scf.for` that
    `--raf-tile-and-vectorize` marked `raf.parallel` (a tile loop over a
    parallel dimension, whose iterations write disjoint output tiles)
    becomes an `scf.parallel` when it is the outermost marked loop with at
    least two iterations; an `scf.parallel` over several dimensions keeps
    parallel only its shortest prefix of dimensions with 16 iterations (the
    rest become sequential loops inside, which LLVM vectorises, instead of
    one collapsed OpenMP space whose indices are divided out in every
    iteration); an `scf.parallel` nested in another, or one whose nest
    performs fewer than `min-work` iterations in all, becomes sequential
    loops, so every nest forks its threads at most once and tiny loops do
    not pay for waking them.
  }];
  let options = [
    Option<"minWork", "min-work", "int64_t", /*default=*/"4096",
           "Fewest loop iterations (all loops of the nest multiplied) that "
           "run in parallel">
  ];
  let dependentDialects = ["mlir::scf::SCFDialect"];
}

def RAFDistinctReturnBuffers
    : Pass<"raf-distinct-return-buffers", "mlir::ModuleOp"> {
  let summary = "Give every result of a function a buffer of its own, "
                "allocated in the returned shape";
  let description = [{
    On buffers (after bufferization, before
    `--buffer-results-to-out-params`): when a `func.return` returns the same
    memref as several results (`return %y, %y`, or a training graph's
    statistics that CSE merged), every repetition after the first is returned
    as a fresh copy. Each result then has its own buffer, so moving results
    into caller-provided out-parameters writes each of them once; upstream's
    out-param promotion with `hoist-static-allocs` crashes on a repeated
    allocation (MLIR 22).

    A result that is a chain of `memref.collapse_shape`/`expand_shape` views
    of a static local `memref.alloc` (a product computed on a merged matrix
    and returned in its NCHW shape) would be copied into its out-parameter,
    since only an allocation is promoted to one. The allocation is made in
    the returned shape instead and returned itself; its other users read it
    through a view (identity layouts keep row-major order).
  }];
  let dependentDialects = ["mlir::memref::MemRefDialect"];
}

def RAFOutlineEntryLoops
    : Pass<"raf-outline-entry-loops", "mlir::ModuleOp"> {
  let summary = "Move the linalg ops left in public functions into private "
                "functions shared by identical ops";
  let description = [{
    On buffers, before the linalg ops become loops. The kernels of a model
    are already private functions (`--raf-share-kernels`), but what is left
    in a public function (the entry) stays there: a training step's
    optimizer updates, which `--raf-inplace-update` inlines into it (161
    loops in ResNet-50's step), and transposes. Each such loop was compiled
    by LLVM as part of one function with thousands of blocks, and each was
    vectorised and given its own alias checks.

    Every linalg op on buffers in the body of a public function becomes a
    call of a private function `@<function>_loops_<k>` holding it, and
    identical functions are merged, so that each distinct loop is compiled
    once. An elementwise op (all loops parallel, every operand an
    identity-layout buffer indexed by the identity or a scalar) takes its
    buffers with dynamic sizes, so that one function serves every shape of
    the same rank: all the SGD updates of a step share one function. Ops
    whose region uses values defined outside it other than constants stay
    where they are.
  }];
  let dependentDialects = ["mlir::func::FuncDialect",
                           "mlir::memref::MemRefDialect"];
}

def RAFSimplifyInference : Pass<"raf-simplify-inference", "mlir::ModuleOp"> {
  let summary = "Rewrite inference batch norms into a per-channel scale and shift";
  let description = [{
    On relay (before fusion), as TVM's SimplifyInference: a
    `relay.nn.batch_norm` with `training = false` becomes

    ```
    s = rsqrt(moving_var + epsilon) * gamma      // [C]
    y = x * reshape(s) + reshape(beta - moving_mean * s)
    ```

    (the reshapes to `[C, 1, ...]` broadcast along `axis`; without `scale`
    or `center`, gamma or beta are left out), and its moving-statistics
    results are replaced by its moving-statistics operands. Batch norm is
    opaque to fusion; the two broadcast operators fuse with the convolution
    before them and the activation after them. Training-mode batch norms and
    ones with dynamic shapes or non-float types are left alone.
  }];
}

def RAFFoldTransposesAcrossCalls
    : Pass<"raf-fold-transposes-across-calls", "mlir::ModuleOp"> {
  let summary = "Drop transposes that a function's callers invert, and move "
                "reshaped results to the callers";
  let description = [{
    On tensors: when a private function returns `linalg.transpose` of a
    value and the only uses of that result at every call are
    `linalg.transpose` ops with the inverse permutation, the function
    returns the value before its transpose and the callers' transposes are
    removed; a rank-keeping `tensor.extract_slice` between the result and
    the inverse transpose becomes a slice of the value before the transpose
    (offsets, sizes and strides permuted). Relay's gradient of `nn.conv2d`
    with respect to the weight is
    a convolution laid out `[I, O, KH, KW]` and a transpose to
    `[O, I, KH, KW]`; after fusion the convolution's primitive function (on
    the BLAS path, a product that ends in a transpose) and the transpose
    before the optimizer's update sit on the two sides of a call. The CPU
    pipeline runs it after `--raf-inplace-update`, which inlines the
    update.

    Reshapes (`tensor.collapse_shape`, `tensor.expand_shape`) at the end of
    a private function move to its callers, where they bufferize to views:
    a static result that is a reshape of another result, or the same value
    as an earlier result, is dropped and every caller reshapes the other
    result instead; a result that only reshapes a value computed inside
    returns that value and every caller reshapes it. Otherwise each such
    result is an out-parameter of its own, filled by a copy (Relay's
    depthwise weight gradient reshapes a batch-1 activation to
    `[C, 1, H, W]` next to the activation itself).
  }];
  let dependentDialects = ["mlir::linalg::LinalgDialect"];
}

def RAFStridedCopiesToLoops
    : Pass<"raf-strided-copies-to-loops", "mlir::func::FuncOp"> {
  let summary = "Lower non-contiguous memref.copy ops as linalg.copy loops";
  let description = [{
    On buffers: a `memref.copy` whose source or target is not one contiguous
    row-major block (the interior of a padded buffer that bufferized
    `tensor.pad` fills, a strided view) becomes `linalg.copy`, so it is
    lowered to loops with the rest of the function (and vectorised by LLVM)
    instead of a call of the C runner's `memrefCopy`, which moves one element
    at a time through its strides. Contiguous copies stay `memref.copy`
    (`memcpy`).
  }];
  let dependentDialects = ["mlir::linalg::LinalgDialect"];
}

def RAFCheckAllocations : Pass<"raf-check-allocations", "mlir::ModuleOp"> {
  let summary = "Reject static buffers larger than the allocation limit";
  let description = [{
    On buffers (after bufferization), checks every `memref.alloc` and
    `memref.alloca` of static shape against the allocation limit and reports
    one that exceeds it at the location of the operation that needs it,
    instead of compiling code whose allocation would fail at run time. The
    limit is `max-bytes`, or when that is 0 the process-wide limit (this
    machine's physical memory unless a tool's `--max-allocation-bytes`
    changed it). Buffers of dynamic size are checked when compiled code runs
    under raf-run (`--raf-cpu-pipeline="checked-allocations=1"`).
  }];
  let options = [
    Option<"maxBytes", "max-bytes", "uint64_t", /*default=*/"0",
           "Largest buffer in bytes (0: the process-wide allocation limit)">
  ];
}

def RAFContractionsToBLAS : Pass<"raf-contractions-to-blas", "mlir::ModuleOp"> {
  let summary = "Run large matrix products and convolutions as BLAS GEMM calls";
  let description = [{
    On linalg ops on tensors, before `--raf-tile-and-vectorize` (as TVM's
    `-libs=cblas` hands dense and batch_matmul to an external library):
    static convolutions in NCHW/FCHW and NHWC/HWCF form become an im2col
    copy plus a contraction (a 1x1, stride-1, unpadded NCHW convolution is
    one product per image and needs no copy), and every static f32/f64
    contraction with at most one batch dimension and at least `min-macs`
    multiply-accumulates (linalg.matmul and batch_matmul in all the
    transpose forms their indexing maps express, nn.dense of 3-D inputs,
    the im2col products of convolutions and of their gradients) becomes a
    call of `rafBlasGemmF32`/`rafBlasGemmF64` (raf/Runtime/BLASRuntime.h) on
    strided views of its operands: transposed and offset operands are
    passed as BLAS transpose flags and leading dimensions, not copied. An
    output initialised by a fill of zero is written by the call; any other
    initial value is copied into the output and accumulated onto. The calls
    set OpenBLAS's thread count to `threads`; they replace whole operations
    at function level, never inside the loops `--raf-parallelize-loops`
    shares among threads, so the two thread teams never nest.
  }];
  let options = [
    Option<"minMacs", "min-macs", "int64_t", /*default=*/"65536",
           "Fewest multiply-accumulates of a contraction that calls BLAS "
           "(smaller ones keep the compiled register-blocked code)">,
    Option<"threads", "threads", "int64_t", /*default=*/"1",
           "Threads of the BLAS library during the calls">,
    Option<"requireRuntime", "require-runtime", "bool", /*default=*/"false",
           "Fail when this build has no BLAS runtime (OpenBLAS not found at "
           "configure time)">
  ];
  let dependentDialects = [
    "mlir::arith::ArithDialect", "mlir::bufferization::BufferizationDialect",
    "mlir::func::FuncDialect", "mlir::linalg::LinalgDialect",
    "mlir::memref::MemRefDialect", "mlir::tensor::TensorDialect"
  ];
}

def RAFFlattenTuples : Pass<"raf-flatten-tuples", "mlir::ModuleOp"> {
  let summary = "Pass tuples as their elements across functions and relay.if";
  let description = [{
    On relay (the CPU pipeline runs it after defunctionalisation, before the
    lowering to linalg): every tuple-typed argument and result of a
    function, `func.call`, `func.return`, `relay.if` / `relay.yield`,
    `relay.zero` and the scf structural ops becomes the values of its
    leaves, depth first, nested tuples recursively (MLIR's 1:N dialect
    conversion). `relay.tuple` is replaced by its operands' leaves and
    `relay.tuple_get` by the leaves of its field, so no tuple is left.
    Public functions are flattened too: an entry point returning
    `tuple<A, tuple<B, C>>` returns A, B and C, the order in which
    `raf-run --target=interp` prints and saves a tuple result. Any other op
    that takes or gives a tuple (a closure that is still a value, a
    reference) is reported at its location and nothing is rewritten.

    ```mlir
    func.func private @both(%x: tensor<4xf32>) -> tuple<tensor<4xf32>, tensor<4xf32>>
    // becomes
    func.func private @both(%x: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>)
    ```
  }];
}

#endif // RAF_TRANSFORMS_PASSES_TD
