//===- Passes.td - conversions between RAF and upstream dialects -*- tablegen -*-===//

#ifndef RAF_CONVERSION_PASSES_TD
#define RAF_CONVERSION_PASSES_TD

include "mlir/Pass/PassBase.td"

def ConvertRelayToLinalg : Pass<"convert-relay-to-linalg", "mlir::ModuleOp"> {
  let summary = "Lower relay operators to linalg, tensor, arith and math on tensors";
  let description = [{
    Rewrites every relay operator into upstream ops on tensors: named
    `linalg` ops where one exists (matmul, batch_matmul, conv_2d_nchw_fchw,
    pooling, ...), `linalg.generic` otherwise, plus `tensor`, `arith` and
    `math`; `relay.if` with statically shaped tensor results becomes
    `scf.if`. Other structural relay ops (closures, calls of closures,
    references, tuples) are not lowered: each one left is reported, at its
    location, before anything is rewritten.

    ```
    raf-opt --convert-relay-to-linalg model.mlir
    ```
  }];
  let dependentDialects = [
    "mlir::arith::ArithDialect", "mlir::linalg::LinalgDialect",
    "mlir::math::MathDialect", "mlir::scf::SCFDialect",
    "mlir::tensor::TensorDialect"
  ];
}

def ConvertTosaToRelay : Pass<"convert-tosa-to-relay", "mlir::ModuleOp"> {
  let summary = "Lower TOSA operators to relay operators";
  let description = [{
    Rewrites the TOSA operators of MLIR 22 (TOSA 1.0: zero points, `mul`'s
    shift and `pad`'s value are operands, shapes are `!tosa.shape` values
    of `tosa.const_shape`) into relay operators, so that any frontend that
    emits TOSA feeds the relay flow. Convolutions and pooling keep TOSA's
    NHWC data (OHWI / HWCM weights) through relay's layout attributes.

    The module is checked first: a TOSA op without a conversion, an integer
    (quantized) convolution, matmul or pooling, a zero point or shift that is
    not a constant zero, a NaN mode other than `PROPAGATE`, a float to
    integer cast (TOSA rounds, relay truncates) or a dynamic shape each get a
    located error naming the op, and nothing is rewritten.

    ```
    raf-opt --convert-tosa-to-relay model.mlir
    ```
  }];
  let dependentDialects = ["raf::relay::RelayDialect"];
}

def ConvertRelayToTCG : Pass<"convert-relay-to-tcg", "mlir::ModuleOp"> {
  let summary = "Replace relay operators by their tensor compute graphs";
  let description = [{
    Replaces every relay operator that has a tensor-expression form
    (`tcg::TensorExprOpInterface`, attached by this pass: `nn.conv2d` in every
    layout and variant, `nn.conv2d_transpose`, `nn.dense`, `nn.matmul`,
    `nn.batch_matmul`) by a `tcg.kernel` computing the same tensor, with the
    same result type (`out_dtype` included). With `ops`, only the named
    operators are converted; naming an operator that has no tensor-expression
    form, or no operator at all, is an error. Other operators are left alone.

    An operator whose types cannot be expressed (dynamic shapes, element
    types other than signless integers and floats, an `out_dtype` narrower
    than the inputs) gets a located error and the pass fails.

    ```
    raf-opt --convert-relay-to-tcg="ops=nn.conv2d,nn.dense" model.mlir
    ```
  }];
  let options = [
    ListOption<"ops", "ops", "std::string",
               "Operators to convert, e.g. nn.conv2d (default: every operator "
               "with a tensor-expression form)">
  ];
  let dependentDialects = ["raf::tcg::TCGDialect"];
}

def ConvertRelayFusedToTCG : Pass<"convert-relay-fused-to-tcg",
                                   "mlir::ModuleOp"> {
  let summary = "Replace the body of a fused relay function by one tcg.kernel";
  let description = [{
    Converts fused relay functions (`relay.primitive`, or those named in
    `functions`) into one multi-statement `tcg.kernel`, one computation per
    operator in program order: the form of the fused operators of Rieber
    2022, Tab. 3.3 that the top-down embedding reads
    (docs/topdown-embedding.md). Contractions (`nn.dense`, `nn.matmul`,
    `nn.batch_matmul`, `nn.conv2d`) use the tensor expressions of
    `--convert-relay-to-tcg`; `add`, `subtract`, `multiply`, `divide` (NumPy
    broadcasting), `exp`, `sigmoid` (as `e / (e + 1)`, `e = exp(x)`),
    `nn.relu`, `nn.bias_add`, `nn.softmax` (last axis), `sum` and `max`
    (axis lists) become computations; `expand_dims` and splat constants are
    folded into the reads. Any other operator is a located error and the
    function is left unchanged.
  }];
  let options = [
    ListOption<"functions", "functions", "std::string",
               "Functions to convert (default: those with relay.primitive)">
  ];
  let dependentDialects = ["raf::tcg::TCGDialect"];
}

def ConvertLinalgToTCG : Pass<"convert-linalg-to-tcg", "mlir::ModuleOp"> {
  let summary = "Replace linalg convolutions and matrix products by tensor compute graphs";
  let description = [{
    Replaces every linalg operation on tensors that has a tensor-expression
    form (`tcg::TensorExprOpInterface`, attached by this pass: the named
    `conv_1d_nwc_wcf`, `conv_2d_nchw_fchw`, `conv_2d_nhwc_hwcf`,
    `conv_2d_nhwc_fhwc`, `depthwise_conv_2d_nchw_chw`,
    `depthwise_conv_2d_nhwc_hwc`, `matmul`, `batch_matmul`, `matvec`, and a
    `linalg.generic` whose body is a multiply-accumulate of its two inputs
    into its output) by a `tcg.kernel`, so that linalg-on-tensors IR as
    torch-mlir or IREE emit it reaches the embedding passes. Iterator names
    and GEMM axes come from linalg's classification of the loops
    (`n, oc, oh, ow, ic, kh, kw` for a convolution, `m, n, k` for a
    contraction), as the relay operators have them. An input produced by a
    `tensor.pad` of zero becomes a padded view; the output operand, unless it
    is zero (a `linalg.fill` of zero, a zero constant or `tensor.empty`), is
    added to the kernel's result with `linalg.add`.

    An operation that cannot be expressed (dynamic shapes, buffers, element
    types other than signless integers and floats, an output not indexed by
    its parallel loops) is left as it is, with a remark that says why; a
    module in which nothing is converted gets a remark too.

    ```
    raf-opt --convert-linalg-to-tcg \
      --tcg-dataflow-embed="intrinsic=vta.gemm.1x16x16" model.mlir
    ```
  }];
  let dependentDialects = [
    "raf::tcg::TCGDialect", "mlir::linalg::LinalgDialect",
    "mlir::tensor::TensorDialect"
  ];
}

def ConvertTCGToLinalg : Pass<"convert-tcg-to-linalg", "mlir::ModuleOp"> {
  let summary = "Lower tcg kernels to linalg.generic on tensors";
  let description = [{
    Makes tensor compute graphs executable: every computation of a
    `tcg.kernel` (a top-level `tcg.tensor`) becomes one `linalg.generic`
    whose iterators are the tensor nest (parallel) followed by the
    reductions (reduction), whose indexing maps are the accesses, and whose
    body is the scalar computation in `arith` (narrower operands widened:
    `arith.extsi` / `arith.extf`), combined into an output initialised with
    the reduction's neutral element (`linalg.fill`). Operand views become
    `tensor.pad` (zero padding) or, with dilation, a strided
    `tensor.insert_slice` into a zero-filled tensor. A computation that
    reads an earlier one uses that one's `linalg.generic` result.

    A computation without the loop-nest form (a reduction combined with
    other values, nested reductions of different kinds) gets a located error.
    `--raf-cpu-pipeline` runs this pass before `--convert-relay-to-linalg`,
    so relay functions containing kernels run on `raf-run`.

    ```
    raf-opt --convert-tcg-to-linalg kernels.mlir
    ```
  }];
  let dependentDialects = [
    "mlir::arith::ArithDialect", "mlir::linalg::LinalgDialect",
    "mlir::math::MathDialect", "mlir::tensor::TensorDialect"
  ];
}

def ConvertTCGToVTA : Pass<"convert-tcg-to-vta", "mlir::ModuleOp"> {
  let summary = "Replace packed VTA GEMM kernels by launches of VTA programs";
  let description = [{
    Compiles every `tcg.kernel` tensorized with a VTA GEMM (`#tcg.tensorize`
    with target "vta"; other kernels are left alone) with the schedule it
    carries (`--vta-schedule`; the heuristic search for a kernel without
    one) into a tile-level `vta.program` symbol at module level, named
    `<function>_kernel<n>`, with its `#vta.dram_layout`, and replaces the
    kernel in its function by `vta.launch @<function>_kernel<n>(...)` on the
    kernel's operands. `--convert-vta-to-vta-isa` then assembles the
    programs, keeping names and layouts, and `raf-run --target=vta-sim`
    runs the launches without lowering anything at run time.

    With `fuse-epilogue` (default on), a per-channel bias and then a ReLU
    or clip after the kernel (`relay.nn.bias_add`, or `relay.add` of an
    int32 tensor broadcast along at most one axis and defined before the
    kernel; `relay.nn.relu`, `relay.maximum` / `relay.minimum` with an
    integer splat constant; reached through the reshapes, transposes and
    strided slices that unpack the result) are computed by the program's
    ALU epilogue (an ACC load of the bias rows and ADD, MAX / MIN by an
    immediate, before the store, as TVM-VTA's fused conv2d + bias + relu)
    and removed from the function; the bias rows, laid out by a host
    `relay.take`, are the launch's third operand.

    The schedule of a kernel without a `vta.schedule` is searched here
    (docs/vta.md, "Schedule search": the valid schedules ranked by the
    analytic estimate, the best `simulate`, or with `exhaustive` all,
    simulated on the cycle model), or given by `tile-sizes` and
    `virtual-threads`; an invalid schedule is an error naming the limit it
    breaks. With `report`, a remark on each kernel gives the schedule, its
    cycles and the search (`vta: cycles=... tiles=[...] ...`).

    With `keep-kernels` (inspection), every `tcg.kernel` must be a packed
    VTA GEMM (an error located at it otherwise); the kernels stay in their
    functions, each referring to its program by a `vta.program` symbol
    attribute, so the module still runs on the CPU path, and nothing is
    fused. `--tcg-lower-to-vta` is an alias: this pass with `keep-kernels`,
    followed by `--convert-vta-to-vta-isa` unless `tile-level`.

    ```
    raf-opt --tcg-apply-strategy --vta-schedule --convert-tcg-to-vta \
            --convert-vta-to-vta-isa packed.mlir
    ```
  }];
  let options = [
    Option<"requantShift", "requant-shift", "int64_t", /*default=*/"-1",
           "Requantise the result to int8 as clip(acc >> shift, -128, 127) "
           "(0-15); -1 (default) returns the exact int32 result">,
    Option<"accDependenceDistance", "acc-dep-distance", "unsigned",
           /*default=*/"0",
           "Reject programs whose GEMMs write an accumulator row again "
           "within this many micro-op steps (0: unchecked)">,
    Option<"maxInstructions", "max-instructions", "int64_t",
           /*default=*/"262144",
           "Schedules with more instructions are invalid">,
    Option<"fuseEpilogue", "fuse-epilogue", "bool", /*default=*/"true",
           "Compute a per-channel bias and a ReLU or clip after the kernel "
           "in the ALU epilogue">,
    Option<"exhaustive", "exhaustive", "bool", /*default=*/"false",
           "For kernels without a vta.schedule: simulate every valid "
           "schedule instead of the best by the estimate">,
    Option<"simulateCandidates", "simulate", "unsigned", /*default=*/"8",
           "Schedules simulated on the cycle model (the best by the "
           "analytic estimate)">,
    ListOption<"tileSizes", "tile-sizes", "int64_t",
               "A given schedule for kernels without a vta.schedule: one "
               "tile size per tile iterator, parallel ones first in kernel "
               "order (the search when empty)">,
    Option<"virtualThreads", "virtual-threads", "int64_t", /*default=*/"1",
           "Virtual threads of a given schedule (1 or 2)">,
    Option<"report", "report", "bool", /*default=*/"false",
           "Emit a remark per kernel: the schedule, its cycles and the "
           "search">,
    Option<"keepKernels", "keep-kernels", "bool", /*default=*/"false",
           "Inspection: compile every tcg.kernel (an error for one that is "
           "not a packed VTA GEMM), keep it and refer to its program by a "
           "vta.program symbol attribute; fuse nothing">
  ];
  let dependentDialects = ["raf::vta::VTADialect"];
}

def VTASchedule : Pass<"vta-schedule", "mlir::ModuleOp"> {
  let summary = "Choose the VTA schedule of every packed GEMM kernel";
  let description = [{
    For every `tcg.kernel` tensorized with a VTA GEMM (`#tcg.tensorize`
    with target "vta"; other kernels are left alone), chooses a schedule
    (docs/vta.md, "Tiled lowering") and attaches it as
    `vta.schedule = #vta.schedule<tiles = [...], virtual_threads = N>`.
    `--convert-tcg-to-vta` compiles and `raf-run --target=vta-sim` runs
    exactly the schedule a kernel carries, so the schedule is data that
    can be inspected, edited or produced by another tool.

    `method=heuristic` ranks every valid schedule by the analytic estimate
    and simulates the `simulate` best on the cycle model;
    `method=exhaustive` simulates every valid schedule; `method=tune`
    auto-tunes in the knob space of TVM's VTA conv2d template with the
    `tuner` (random, autotvm or validity: Rieber 2022, chapter 5;
    docs/tuning.md) for `trials` simulated schedules from `seed`. A kernel that
    already carries a schedule keeps it (it is checked, and an invalid one
    is an error naming the violated limit). The requantisation shift, the
    accumulator dependence distance and the instruction limit are the
    lowering's and must match the options `--convert-tcg-to-vta` is given.

    ```
    raf-opt --tcg-apply-strategy --vta-schedule=method=exhaustive \
            --convert-tcg-to-vta packed.mlir
    ```
  }];
  let options = [
    Option<"method", "method", "::raf::vta::ScheduleMethod",
           /*default=*/"::raf::vta::ScheduleMethod::Heuristic",
           "How to choose",
           [{::llvm::cl::values(
               clEnumValN(::raf::vta::ScheduleMethod::Heuristic, "heuristic",
                          "simulate the best schedules by the estimate"),
               clEnumValN(::raf::vta::ScheduleMethod::Exhaustive,
                          "exhaustive", "simulate every valid schedule"),
               clEnumValN(::raf::vta::ScheduleMethod::Tune, "tune",
                          "auto-tune (docs/tuning.md)"))}]>,
    Option<"simulateCandidates", "simulate", "unsigned", /*default=*/"8",
           "With method=heuristic: schedules simulated on the cycle model">,
    Option<"tuner", "tuner", "std::string", /*default=*/"\"validity\"",
           "With method=tune: random, autotvm or validity">,
    Option<"trials", "trials", "unsigned", /*default=*/"750",
           "With method=tune: schedules simulated">,
    Option<"seed", "seed", "uint64_t", /*default=*/"0",
           "With method=tune: the tuner's random seed">,
    Option<"requantShift", "requant-shift", "int64_t", /*default=*/"-1",
           "The lowering's requantisation shift (0-15; -1: exact int32 "
           "planes)">,
    Option<"accDependenceDistance", "acc-dep-distance", "unsigned",
           /*default=*/"0",
           "The lowering's accumulator dependence distance (0: unchecked)">,
    Option<"maxInstructions", "max-instructions", "int64_t",
           /*default=*/"262144",
           "Schedules with more instructions are invalid">,
    Option<"report", "report", "bool", /*default=*/"false",
           "Emit a remark per kernel: the schedule, its cycles and the "
           "search">,
    Option<"fuseEpilogue", "fuse-epilogue", "bool", /*default=*/"true",
           "Schedule with the epilogue --convert-tcg-to-vta fuses (a "
           "per-channel bias and a ReLU or clip after the kernel)">,
    Option<"hoistWeight", "hoist-weight", "bool", /*default=*/"false",
           "Also search schedules with the weight load hoisted out of the "
           "output-tile loops (#vta.schedule's dma = hoist_weight)">
  ];
  let dependentDialects = ["raf::vta::VTADialect"];
}

def ConvertVTAToVTAISA : Pass<"convert-vta-to-vta-isa", "mlir::ModuleOp"> {
  let summary = "Assemble tile-level vta programs into vta_isa programs";
  let description = [{
    Replaces every `vta.program` of the module by the `vta_isa.program`
    that `raf::vta::assemble()` derives from it: one micro-op table in
    which identical loop bodies share a range, the micro-op loads first,
    every tile instruction with its micro-op range, and FINISH last.
    Dependence tokens are inferred from the SRAM rows the instructions
    touch: an instruction waits for the latest earlier instruction of each
    neighbouring module (load and compute, compute and store) that touches
    the same rows of the same buffer with at least one of them writing,
    unless an earlier instruction of its own module already waited for it
    or a later one. So double buffering is a matter of using other rows:
    the modules then overlap without further annotation. The attributes of
    the `vta.program` (`tile_sizes`, `virtual_threads` and any other) stay
    on the new op.

    A program whose micro-ops do not fit the uop buffer, or that loads from
    DRAM what an earlier store wrote (DRAM hazards between the load and
    store modules are not synchronised), gets an error located at its
    `vta.program`.

    ```
    raf-opt --convert-vta-to-vta-isa tiles.mlir | \
      raf-translate --vta-isa-to-bin -o program.bin
    ```
  }];
  let dependentDialects = ["raf::vta_isa::VTAISADialect"];
}

def ConvertVTALaunchToRuntime
    : Pass<"convert-vta-launch-to-runtime", "mlir::ModuleOp"> {
  let summary = "Turn VTA launches into calls of the VTA runtime";
  let description = [{
    Prepares a module compiled by `--raf-vta-pipeline` for the CPU pipeline:
    every launched `vta_isa.program` becomes a private constant
    `memref.global` holding its binary (the bytes of
    `raf-translate --vta-isa-to-bin`) and one holding its name, and every
    `vta.launch` a call of the VTA runtime's `rafVTALaunch` (declared with
    `llvm.emit_c_interface`) on the binary, the operands' buffers
    (`bufferization.to_buffer read_only`), a freshly allocated result buffer
    and the offsets of its `#vta.dram_layout`; the result tensor is that
    buffer (`bufferization.to_tensor restrict writable`). The programs then
    leave the module, which holds only host code. `raf-run --target=vta-sim`
    runs the result with the runtime's symbols registered with the
    ExecutionEngine (`raf/Runtime/VTARuntime.h`).

    A launch of a tile-level program (not assembled yet), of a program
    without a DRAM layout, or whose DRAM image exceeds the simulated-DRAM
    limit (`--max-dram-bytes`) is an error located at the launch.

    ```
    raf-opt --raf-vta-pipeline --convert-vta-launch-to-runtime \
            --raf-cpu-pipeline conv.mlir
    ```
  }];
  let dependentDialects = ["mlir::arith::ArithDialect",
                           "mlir::bufferization::BufferizationDialect",
                           "mlir::func::FuncDialect",
                           "mlir::memref::MemRefDialect"];
}

def RafLowerCollectivesToMPI
    : Pass<"raf-lower-collectives-to-mpi", "mlir::ModuleOp"> {
  let summary = "Lower the relay collectives to calls of MPI helpers "
                "(MLIR's mpi dialect and direct MPI calls)";
  let description = [{
    Runs on relay programs before `--convert-relay-to-linalg` in
    `--raf-cpu-pipeline` (docs/data-parallel.md). Each collective becomes a
    call of a private helper `@raf_mpi_<kind>_<types>(memref in, memref
    out)` on buffers taken from and given back to tensors
    (`bufferization.to_buffer`, `memref.alloc`, `bufferization.to_tensor
    restrict writable`), flattened to one dimension with `relay.reshape`:
    `allreduce_sum` for `relay.comm.allreduce`, `reduce_scatter_sum`,
    `allgather` and `broadcast` (with the root in the name). `"avg"` is the
    sum times `1 / world_size` (a relay multiply lowered like any other).
    `relay.comm.shard` is the rank's block (`tensor.extract_slice`), the rank
    from a `@raf_mpi_comm_rank` helper. The helpers stay declarations until
    `--raf-convert-mpi-to-llvm` gives them their bodies, after buffer
    deallocation, which rejects ops without declared memory effects. The
    module gets `dlti.map<"MPI:Implementation" = "OpenMPI">`, which selects
    OpenMPI's ABI in the MPI to LLVM lowering. Dynamic shapes, buffers of
    2^31 bytes or more, and reduce-scatters of types without an MPI
    datatype are errors.
  }];
}

def RafConvertMPIToLLVM : Pass<"raf-convert-mpi-to-llvm", "mlir::ModuleOp"> {
  let summary = "Lower the mpi dialect and the MPI helpers to LLVM calls of "
                "the MPI library";
  let description = [{
    Gives the helpers of `--raf-lower-collectives-to-mpi` their bodies:
    `mpi.allreduce` and `mpi.comm_rank`, lowered with MLIR's MPI to LLVM
    patterns (`populateMPIToLLVMConversionPatterns`; MLIR 22 names
    OpenMPI's reduction handles `ompi_mpi_<op>`, while OpenMPI exports
    `ompi_mpi_op_<op>`, so the pass renames them); and, as the mpi dialect
    has no reduce-scatter, allgather or broadcast, direct `llvm.call`s of
    `MPI_Reduce_scatter_block`, `MPI_Allgather` and `MPI_Bcast` with
    OpenMPI's handles (allgather and broadcast move `MPI_BYTE`s). Runs in
    `--raf-cpu-pipeline` after buffer deallocation.
  }];
}

#endif // RAF_CONVERSION_PASSES_TD
