//===- Passes.td - relay dialect passes --------------------*- tablegen -*-===//

#ifndef RAF_DIALECT_RELAY_TRANSFORMS_PASSES_TD
#define RAF_DIALECT_RELAY_TRANSFORMS_PASSES_TD

include "mlir/Pass/PassBase.td"

def RelayPrintOpProperties : Pass<"relay-print-op-properties"> {
  let summary = "Report the property interfaces of every relay operator";
  let description = [{
    Emits one remark per relay operator with the facts its op interfaces
    provide: fusion kind, AutoCast category and argument count, FLOPs, bytes
    read and written, and whether it is recomputable. With `totals`, also a
    remark on every `func.func` summing FLOPs and bytes. The IR is unchanged.

    ```
    raf-opt --relay-print-op-properties model.mlir
    ```
  }];
  let options = [
    Option<"totals", "totals", "bool", /*default=*/"false",
           "Also report per-function totals">
  ];
}

// Options shared by --raf-dispatch and --raf-fuse.
defvar BackendSelectionOptions = [
  Option<"device", "device", "std::string", /*default=*/"\"cpu\"",
         "Device the module runs on: cpu or cuda">,
  ListOption<"backendPreference", "backend-preference", "std::string",
             "Backends to use, in order of preference; filters and reorders "
             "every dispatch list (default: --raf-backend-preference)">,
  ListOption<"disableBackends", "disable-backends", "std::string",
             "Backends removed from every dispatch list and fusion pattern "
             "(default: --raf-disable-backends)">
];

def RafDispatch : Pass<"raf-dispatch"> {
  let summary = "Choose a backend for every relay operator";
  let description = [{
    Annotates every relay operator outside fused functions (`func.func` with
    `relay.primitive`) with `relay.backend = "<name>"`: the first backend of the
    operator's dispatch list that is enabled on `device`, not disabled, has
    priority > 0 and accepts the operation (RAF's DispatchDialect, RAF paper
    §3.2.1). The lists come from the backend registry; by default `linalg` (cpu
    and cuda, priority 10) takes every operator, `cublas` takes dense, matmul
    and batch_matmul at 15 and `cudnn` conv2d at 12, softmax and dropout at 11
    on cuda. The cuda backends decide dispatch only: nothing in RAF-MLIR
    generates CUDA code.

    An operator no usable backend takes is an error at the operator. An
    unknown device or backend name in the options is an error.

    ```
    raf-opt --raf-dispatch="device=cuda disable-backends=cublas" model.mlir
    raf-opt --raf-backend-preference=linalg,cublas --raf-dispatch model.mlir
    ```
  }];
  let options = BackendSelectionOptions;
}

def RafFuse : Pass<"raf-fuse", "::mlir::ModuleOp"> {
  let summary = "Pattern-based and rule-based operator fusion";
  let description = [{
    Applies the registry's fusion list in descending priority (RAF's
    FuseDialect and FuseTVM, RAF paper §3.2.2, Tab. 1), skipping entries whose
    backend is not enabled on `device`, disabled, or not preferred:

    * a pattern matches rooted at each relay operator, from the end of each
      block; a match whose intermediate values are used outside it, or that
      is not convex, is rejected;
    * rule-based fusion groups the remaining operators whose top dispatch
      choice is the rule's backend (`linalg` by default) by fusion kind:
      elementwise/broadcast producers into elementwise, broadcast, injective
      and reduce consumers; injective with elementwise, broadcast and
      injective; an out-elementwise-fusable anchor (conv2d, dense, ...)
      absorbs following elementwise/broadcast ops; a reduction absorbs
      following elementwise ops; opaque operators never fuse. Groups are
      convex, have at most one anchor and at most `max-group-size`
      operators; single-operator groups are left alone.

    Each group is outlined into `func.func private @<parent>_fused_<k>`
    (arguments: the group's inputs in first-use order; results: its values
    used outside) with `relay.primitive`, `relay.backend` and, for patterns,
    `relay.fusion_pattern`, and replaced by a `func.call`. Operators inside
    carry `relay.backend` too. Blocks are fused independently (relay.if and
    relay.fn bodies included); structural ops and constants stay outside.

    By default, on cuda the vendor patterns of RAF's Table 1 apply
    (cutlass conv2d+[bias]+relu f16 at 15, cuda conv2d+[bias]+relu at 12,
    cuda conv2d at 10, cutlass matmul_fusion at 9, cutlass
    conv2d+[bias]+relu at 8), then `linalg` rule-based fusion at 5; on cpu
    only the latter. The cuda backends decide fusion only: nothing in
    RAF-MLIR generates CUDA code.

    ```
    raf-opt --raf-fuse="device=cuda" model.mlir
    ```
  }];
  let options = !listconcat(BackendSelectionOptions, [
    Option<"maxGroupSize", "max-group-size", "unsigned", /*default=*/"256",
           "Maximum number of operators in a rule-based group">
  ]);
  let dependentDialects = ["::mlir::func::FuncDialect"];
}

def RafShareKernels : Pass<"raf-share-kernels", "::mlir::ModuleOp"> {
  let summary = "Compile each distinct kernel once";
  let description = [{
    Outlines every out-elementwise-fusable operator (conv2d, dense, matmul,
    batch_matmul, conv2d_transpose, ...), every reduction (sum, mean, ...)
    and every opaque operator on tensors (batch norm and its gradient,
    softmax, losses, pooling gradients) that is not already in a fused
    function into its own `relay.primitive` function, then merges private
    `relay.primitive` functions that are identical (same type, attributes
    and body), so calls with the same shapes and attributes share one
    function. Views (reshape, ...), constants, collectives and operators with
    regions stay in place. ResNet-50's 53 convolutions have 23 distinct
    configurations and its 17 fused add + relu groups 5: the CPU pipeline,
    and LLVM after it, compile 28 kernels instead of 70. In a training step
    the reductions and batch-norm operators matter most: left in the entry
    they make one function of thousands of loops (ResNet-50: 53,000 lines of
    LLVM dialect), on which LLVM's IndVarSimplify and LoopRotate spend most
    of the compile time. Run after `--raf-fuse`.
  }];
  let dependentDialects = ["::mlir::func::FuncDialect"];
}

def RafAppendOptimizer : Pass<"raf-append-optimizer", "::mlir::ModuleOp"> {
  let summary = "Append a training step: the gradient function plus an "
                "optimizer update";
  let description = [{
    Reads the gradient function `@<entry>` that
    `--raf-autodiff="inline-backward=true"` produces,

    ```
    func.func @main(%a_0, ..., %a_n, %dy) -> (loss, aux_1..aux_m, g_1..g_k)
        attributes {raf.grad_params = array<i64: i_1, ..., i_k>}
    ```

    (`%dy` has the loss type, a float tensor of one element; gradient `g_j`
    has the type of parameter `%a_{i_j}`), and appends a public function
    `@<step-name>` that inlines its body with `%dy` seeded with ones and
    updates the parameters as `torch.optim` does (like RAF's optimizer
    wrappers, python/raf/optim/ in the RAF source):

    ```
    func.func @train_step(p_1..p_k, states..., other arguments...)
        -> (loss, aux_1..aux_m, p_1'..p_k', states'...)
    ```

    * `sgd`: `w' = w - lr*g`; no state.
    * `momentum`: `v' = momentum*v + g; w' = w - lr*v'`; states `v_1..v_k`
      (zero initially, which makes the first step PyTorch's `buf = g`).
    * `adam`: `t' = t + 1; m' = b1*m + (1-b1)*g; v' = b2*v + (1-b2)*g*g;
      w' = w - lr*(m'/(1-b1^t')) / (sqrt(v'/(1-b2^t')) + eps)`; states
      `m_1..m_k, v_1..v_k, t` with `t` a `tensor<f32>` step counter (zero
      initially).

    A non-zero `weight-decay` first adds `weight-decay*w` to each gradient
    (L2, as PyTorch's SGD and Adam). The gradient function stays in place.
    The step function records its layout in `raf.optimizer`,
    `raf.num_params`, `raf.num_states` and `raf.num_aux`; each new parameter
    or state result carries `raf.updates_arg`, the index of the argument it
    replaces, and those arguments carry `raf.updatable`.

    A missing entry, a function that breaks the contract, an invalid option
    or an existing `@<step-name>` is an error.

    ```
    raf-opt --raf-append-optimizer="kind=adam lr=0.001" grad.mlir
    ```
  }];
  let options = [
    Option<"entry", "entry", "std::string", /*default=*/"\"main\"",
           "Gradient function to read">,
    Option<"stepName", "step-name", "std::string",
           /*default=*/"\"train_step\"", "Name of the appended step function">,
    Option<"kind", "kind", "std::string", /*default=*/"\"sgd\"",
           "Optimizer: sgd, momentum or adam">,
    Option<"lr", "lr", "double", /*default=*/"0.01", "Learning rate (> 0)">,
    Option<"momentum", "momentum", "double", /*default=*/"0.9",
           "Momentum factor of kind=momentum (>= 0)">,
    Option<"beta1", "beta1", "double", /*default=*/"0.9",
           "Adam's first-moment decay, in [0, 1)">,
    Option<"beta2", "beta2", "double", /*default=*/"0.999",
           "Adam's second-moment decay, in [0, 1)">,
    Option<"eps", "eps", "double", /*default=*/"1e-8",
           "Adam's denominator term (> 0)">,
    Option<"weightDecay", "weight-decay", "double", /*default=*/"0.0",
           "L2 penalty added to every gradient (>= 0)">
  ];
  let dependentDialects = ["::mlir::func::FuncDialect",
                           "::raf::relay::RelayDialect"];
}

def RafAutodiff : Pass<"raf-autodiff", "::mlir::ModuleOp"> {
  let summary = "Generate the gradient function of a forward function";
  let description = [{
    RAF's AutoDiff (RAF paper §3.1.1; RAF source src/pass/gradient.cc): a
    reverse sweep over the entry
    function's block builds, with each operator's gradient rule
    (GradientOpInterface), the gradients of the loss with respect to the
    arguments that require them. The forward function returns the loss (a
    float tensor with exactly one element) first; further results are
    auxiliary outputs (e.g. batch-norm statistics) and get no gradient.

    Forward values an adjoint needs are used where they are: the backward
    code refers to them (in closure form it captures them), nothing is
    recomputed. Fan-out accumulates with `relay.add`; tuples route gradients
    field by field; a `func.call` becomes a call of the callee's adjoint
    version `@<callee>_adjoint`, which returns its results and a
    backpropagator closure; a `relay.if` returns a backpropagator closure
    from each branch (both give the gradients of the branches' free
    variables). A required argument the loss does not depend on gets zeros.

    Output, with `inline-backward=false` (default):
    `@f(args...) -> (loss, aux..., (dy) -> tuple<grads...>)`;
    with `inline-backward=true`: `@f(args..., %dy) -> (loss, aux...,
    grads...)`, flat so it runs on both raf-run targets. Either way the
    function gets `raf.grad_params`, the indices of the differentiated
    arguments in the order of the gradients.

    Without `requires-grad`, arguments carrying `raf.requires_grad` (a
    boolean; the Python frontends mark trainable parameters `true` and
    inputs, labels and batch-norm running statistics `false`) decide which
    are differentiated; with no such marks, every float tensor argument is.
    The option, when given, overrides the marks.

    Errors (located): a missing entry, a loss that is not a one-element
    float tensor, a requires-grad index out of range or not a float tensor,
    a `raf.requires_grad` that is not a boolean or marks a non-float
    argument, marks with none `true`,
    closures, closure calls or references in the differentiated code (use
    `relay.grad`), and a gradient that would flow through a
    non-differentiable operator (argmax, comparisons, a cast from an
    integer): the error names the operator and notes the path from the
    loss to it. `nondifferentiable=zero` treats such operators as constants
    instead (a stop-gradient, like PyTorch does).

    ```
    raf-opt --raf-autodiff="requires-grad=2,3 inline-backward=true" mlp.mlir
    ```
  }];
  let options = [
    Option<"entry", "entry", "std::string", /*default=*/"\"main\"",
           "Function to differentiate">,
    ListOption<"requiresGrad", "requires-grad", "int64_t",
               "Indices of the arguments to differentiate (default: the "
               "arguments marked raf.requires_grad = true, or every float "
               "tensor argument when none is marked)">,
    Option<"inlineBackward", "inline-backward", "bool", /*default=*/"false",
           "Take the output gradient as a last argument and return the "
           "gradients instead of a backpropagator closure">,
    Option<"nondifferentiable", "nondifferentiable", "std::string",
           /*default=*/"\"error\"",
           "What a gradient reaching a non-differentiable operator does: "
           "error, or zero (the operator acts as a constant)">
  ];
  let dependentDialects = ["::raf::relay::RelayDialect"];
}

def RelayLambdaLift : Pass<"relay-lambda-lift", "::mlir::ModuleOp"> {
  let summary = "Lift relay.fn closures to module functions and close the "
                "operands of relay.grad";
  let description = [{
    Turns every `relay.fn` into `func.func private @<parent>_lambda_<k>`
    whose leading parameters are the closure's free variables (in first-use
    order), followed by its own parameters (the lambda lifting Relay paper §4.2
    calls for before differentiation). Free variables
    defined by constants, `relay.zero`, `relay.global_ref` and closures are
    cloned into the lifted function instead of becoming parameters, so a
    closure that only uses them becomes closed. The closure value becomes:

    * `relay.global_ref @<parent>_lambda_<k>` when nothing is captured;
    * otherwise a partial application, written as a `relay.fn` whose body is
      exactly one `func.call @<parent>_lambda_<k>(captured..., args...)`
      followed by `relay.return` of its results.

    A `primitive` closure becomes a function marked `relay.primitive`.

    Every `relay.grad` operand then becomes closed (the precondition of
    `--relay-lower-grad`, Relay §4.2). A closure that still captures values
    is differentiated as its lifted function, with respect to the captured
    values and its arguments, in `func.func private
    @<lifted>_partial_grad_<k>`, which drops the captured values'
    gradients; the `relay.grad` becomes a partial application of it.
    Captured values must therefore be floating-point tensors: a captured
    reference, integer tensor, tuple or run-time function value, and a
    `relay.grad` of a function parameter or of a function value computed at
    run time, are reported as errors at the `relay.grad`.

    ```
    raf-opt --relay-lambda-lift model.mlir
    ```
  }];
  let dependentDialects = ["::mlir::func::FuncDialect"];
}

def RelayDefunctionalize : Pass<"relay-defunctionalize", "::mlir::ModuleOp"> {
  let summary = "Replace function values whose closures are known statically "
                "by first-order calls";
  let description = [{
    Defunctionalisation (Reynolds 1972, §6) of a lambda-lifted module (run
    `--relay-lambda-lift` first), so that programs with closures compile
    for the CPU. Every function value gets a static shape and a run-time
    environment of first-order values:

    * `relay.global_ref @f`: the closure of `@f`, environment empty;
    * a partial application of `--relay-lambda-lift`: the closure of the
      lifted function, environment the captured values (a captured function
      value contributes its own environment);
    * a `relay.if` choosing between closures of different functions: a
      union, environment an `i32` tag followed by every alternative's
      environment (zeros for the alternatives not taken);
    * a tuple containing function values: its fields' environments.

    Each function is specialised per distinct shape of its function-typed
    parameters: `func.func private @<f>_defun_<k>` takes the environments
    in their place, and a function that returns a function value returns
    its environment. `relay.call` of a known closure becomes a `func.call`
    of (the specialisation of) its function with the environment in front
    of the arguments; a call of a union dispatches on the tag with a chain
    of `relay.if`. Functions whose signature has no function types are
    rewritten in place. A function whose signature has function types is
    erased once its specialisations have replaced every use (public ones
    too: no caller outside the module can pass it a closure); one nothing
    calls stays as it is. Recursion works when every recursive call passes
    closures of the shapes the function was entered with.

    Errors, reported at the op and naming `--target=interp` as the way to
    run the program: a function value stored in a reference, passed to any
    op other than calls, `relay.if`, tuples and returns, or produced by one
    (its closure is only known at run time); `relay.grad` (lower it with
    `--relay-grad-pipeline` for the evaluator); a `relay.fn` not in lambda-lifted form; a recursive
    call of a function that returns a function value; a function that
    would need more than 64 specialisations (a recursion that wraps its
    function argument in a new closure at every step); a choice between
    closures where a captured value has no placeholder (e.g. a reference).

    ```
    raf-opt --relay-lambda-lift --relay-defunctionalize model.mlir
    ```
  }];
  let dependentDialects = ["::mlir::func::FuncDialect"];
}

def RelayTailRecursionToLoops
    : Pass<"relay-tail-recursion-to-loops", "::mlir::ModuleOp"> {
  let summary = "Turn self tail calls into scf.while loops";
  let description = [{
    Relay expresses loops as recursion (Relay §3.1). Compiled code would
    run each iteration as a call and a stack frame, so a deep loop
    overflows the stack. In every single-block function with a tail call
    of itself - a `func.call` whose results are the function's results,
    directly or through `relay.if` branches, used by nothing else and
    followed only by effect-free ops - the body becomes the before region
    of an `scf.while` over
    the function's arguments: each exit yields whether to continue, the
    next arguments (a tail call's operands) and the results (zeros on a
    tail call). Non-tail recursive calls stay calls. Functions whose
    results are not statically shaped tensors are left alone. The result
    is for the CPU pipeline (the reference evaluator does not run
    `scf.while`), which runs this pass after defunctionalisation.

    ```
    raf-opt --relay-tail-recursion-to-loops model.mlir
    ```
  }];
  let dependentDialects = ["::mlir::scf::SCFDialect",
                           "::mlir::tensor::TensorDialect"];
}

def RelayLowerGrad : Pass<"relay-lower-grad", "::mlir::ModuleOp"> {
  let summary = "Higher-order reverse-mode AD: lower relay.grad to "
                "references and backpropagator closures";
  let description = [{
    Lowers every `relay.grad` with a closed operand (a `relay.global_ref`
    or a closure without free variables; run `--relay-lambda-lift` first)
    as in Relay paper §4.2 (docs/relay-grad.md fixes what the paper leaves
    open). Each module function `@f` reachable
    from a differentiated function gets a transformed copy
    `func.func private @f_lowergrad` over lifted types: a floating-point
    tensor `T` becomes `tuple<T, !relay.ref<T>>` (value and adjoint cell),
    tuples and functions are lifted structurally, integer and boolean
    tensors stay as they are, and every function takes the backpropagator
    cell `!relay.ref<() -> ()>` as an extra leading parameter.

    Every differentiable operator is replaced by its primal, a
    zero-initialised adjoint reference, and a new backpropagator closure
    that reads and clears that reference, adds the operator's adjoints
    (from `GradientOpInterface`) into its operands' references and then
    calls the previous backpropagator. `relay.if`, `relay.fn`,
    `relay.call`, `func.call`, `relay.global_ref`, tuples and references
    are rebuilt over lifted values, so closures, recursion and control flow
    differentiate like straight-line code.

    `relay.grad %f` becomes `relay.global_ref @f_grad`, a function that
    creates a fresh backpropagator cell and zero adjoints for its
    arguments, calls `@f_lowergrad`, seeds the result's adjoint with ones,
    runs the backpropagator and returns `tuple<result, tuple<grads...>>`.
    References never leave `@f_grad`. A `relay.grad` inside a
    differentiated function (higher-order derivatives) is lowered first
    and its `@f_grad` is then differentiated like any other function.

    An operator without a gradient rule on a path from the arguments to
    the result, a call of a function without a body, and constructs the
    transformation does not know are reported as errors at the operation.

    ```
    raf-opt --relay-lambda-lift --relay-lower-grad model.mlir
    ```
  }];
  let dependentDialects = ["::mlir::func::FuncDialect"];
}

//===----------------------------------------------------------------------===//
// Memory: analysis, scheduling, rematerialisation
//===----------------------------------------------------------------------===//

def RafMemoryReport : Pass<"raf-memory-report", "::mlir::ModuleOp"> {
  let summary = "Report tensor liveness and peak memory of every function";
  let description = [{
    Traces every function (or `entry`) with the memory model of
    `raf/Analysis/MemoryTrace.h` (docs/memory.md): parameters live
    throughout, each op result a fresh buffer from its op to its last use,
    tuples aliasing their fields. Emits one remark per function with the
    peak bytes and where it is reached, plus a note at the peak op:

    ```
    remark: @f: peak 5242880 bytes (5.00 MiB) at step 3 of 5 (relay.multiply);
            parameters 1048576 bytes (1.00 MiB); 6 buffers
    ```

    `tensors` also prints the liveness of every buffer in execution order,
    `trace` the bytes allocated, released and live at every step (to
    stderr). A function the model cannot trace (calls, regions,
    references, dynamic shapes) gets a warning saying why. The IR is
    unchanged.

    With `inplace-update` (default on), a result that replaces an argument
    (`raf.updates_arg`: the new parameters and optimizer states of a
    training step) is written into the argument's buffer, as
    `--raf-inplace-update` makes `--target=cpu` do (RAF's InplaceUpdate),
    when the argument is not read after the result's op (or only by that
    op, if it is element-wise): it allocates nothing, and the remark adds
    `updated in place N bytes`.
  }];
  let options = [
    Option<"entry", "entry", "std::string", /*default=*/"\"\"",
           "Only report this function (default: every function)">,
    Option<"printTensors", "tensors", "bool", /*default=*/"false",
           "Print the live range and size of every buffer">,
    Option<"printTrace", "trace", "bool", /*default=*/"false",
           "Print allocated, released and live bytes at every step">,
    Option<"inPlaceUpdates", "inplace-update", "bool", /*default=*/"true",
           "Write results carrying raf.updates_arg into their arguments' "
           "buffers">
  ];
}

def RafMemorySchedule : Pass<"raf-memory-schedule", "::mlir::func::FuncOp"> {
  let summary = "Reorder operators to lower peak memory (RAF's scheduler)";
  let description = [{
    RAF's memory-aware operator scheduling (RAF paper §3.1.4; RAF source
    src/pass/memory_schedule.cc). For every op,
    `inc = p - c`, where `p` is the bytes of the buffers it allocates and
    `c` the bytes of the operand buffers (not parameters, not constants)
    whose last use it is. Up to `max-iters` times, until nothing moves: a
    forward sweep moves every op with `inc < -threshold` to just after the
    last definition of its operands (as soon as possible), then a backward
    sweep moves every op with `inc > threshold` to just before its first
    user (as late as possible). Ops with regions or side effects, unused
    ops and the terminator stay in place. The sweeps do not always lower the
    peak: the pass keeps, of the original order and the order after each
    sweep, the one with the lowest peak in the memory model (the later on
    ties), so it never raises the peak; the remark reports moves the pass
    did not keep. Functions the memory model cannot trace are left
    unchanged with a remark.
  }];
  let options = [
    Option<"thresholdMB", "threshold-mb", "double", /*default=*/"1.0",
           "Move an op only when |inc| exceeds this many MiB">,
    Option<"maxIters", "max-iters", "unsigned", /*default=*/"5",
           "Maximum number of forward/backward sweep pairs">
  ];
}

def RafRematerialize : Pass<"raf-rematerialize", "::mlir::ModuleOp"> {
  let summary = "Recompute tensors instead of keeping them, to fit a memory "
                "budget";
  let description = [{
    Keeps the peak memory of the memory model (docs/memory.md) at or below
    `budget` by releasing tensors early and recomputing them, with a clone of
    their producer inserted just before the next use (RAF paper §3.1.5; RAF
    source src/pass/rematerialization.cc).

    * `method=raf`: RAF's compile-time trace. Whenever the live bytes at an
      op exceed the budget, live tensors are evicted in increasing order of
      `(gflops + offset) * (remaining uses + 1) / GiB` (ties: the older
      first) until the budget holds. Parameters, returned values, the op's
      operands and results, tensors just recomputed, tensors smaller than
      `min-tensor-bytes`, tuple fields and results of ops that are not
      recomputable or not single-result relay operators are never evicted.
      Recomputing an evicted tensor whose inputs were evicted too recurses
      up to `max-depth`. RAF's offset is 0.1; our extension, on by default,
      runs the trace once per offset of `score-offsets` (small offsets let
      the cost of small operators count), drops from each plan the
      recomputations the budget does not need (`prune`, the most expensive
      first, checked with the memory model) and keeps the plan that
      recomputes the fewest FLOPs. `score-offsets=0.1 prune=false` is RAF's
      algorithm exactly.
    * `method=optimal`: the recompute choice as a constraint optimisation
      problem solved with Gecode: for each op (stage) which earlier results
      are recomputed in that stage and which stay resident, minimising the
      recomputed FLOPs subject to every stage's resident and recomputed
      bytes fitting the budget (Checkmate's formulation with the order
      fixed). raf's plan, when it has one, bounds the search (so the result
      never recomputes more FLOPs than raf's) and is the first choice tried;
      memory constraints are added lazily, stage by stage, where a solution
      overflows. A plan is applied only after the memory model has traced it
      on a copy of the function. Functions with more than `optimal-max-ops`
      ops, searches that find no plan within `time-limit-ms` and plans that
      fail that check fall back to `method=raf` with a remark; a search the
      limit stops keeps its best plan (`not proven` in `raf.remat.method`)
      unless raf's plan recomputes as few FLOPs.

    With `inplace-update` (default on, as `--raf-memory-report`), the
    memory model writes updated parameters and optimizer states into their
    arguments' buffers (RAF's InplaceUpdate, what `--target=cpu` does), so
    an updated parameter is counted once; recomputations never read an
    argument after its in-place update (such candidates are not evicted
    past it).

    The function gains `raf.remat.peak_bytes` (the memory model's peak
    after the pass), `raf.remat.num_recomputed_ops`,
    `raf.remat.recomputed_flops` and `raf.remat.method`; with
    `method=optimal` also `raf.remat.optimal_proven`, true when the search
    proved that no plan of the exact model recomputes fewer FLOPs. A budget
    the method cannot reach is an error that reports the smallest budget it
    can reach. Functions the memory model cannot trace are an error.

    ```
    raf-opt --raf-rematerialize="budget=512MiB method=raf" step.mlir
    ```
  }];
  let options = [
    Option<"budget", "budget", "std::string", /*default=*/"\"\"",
           "Memory budget in bytes, with an optional unit (B, KiB, MiB, "
           "GiB, KB, MB, GB); required">,
    Option<"method", "method", "std::string", /*default=*/"\"raf\"",
           "raf (RAF's eviction score) or optimal (Gecode)">,
    Option<"entry", "entry", "std::string", /*default=*/"\"\"",
           "Only rematerialise this function (default: every function)">,
    Option<"minTensorBytes", "min-tensor-bytes", "int64_t",
           /*default=*/"1048576",
           "Never evict tensors smaller than this many bytes">,
    Option<"maxDepth", "max-depth", "unsigned", /*default=*/"10",
           "Maximum recursion depth of a recomputation">,
    ListOption<"scoreOffsets", "score-offsets", "double",
               "method=raf: the GFLOPs added to every cost in the eviction "
               "score, one trace per value (default 0.1,0.01,0.001,0; RAF's "
               "is 0.1)">,
    Option<"prune", "prune", "bool", /*default=*/"true",
           "method=raf: drop the recomputations a plan does not need to "
           "meet the budget">,
    Option<"optimalMaxOps", "optimal-max-ops", "unsigned",
           /*default=*/"80",
           "Largest function (in ops) method=optimal solves exactly">,
    Option<"timeLimitMs", "time-limit-ms", "unsigned", /*default=*/"60000",
           "Time limit of one Gecode search, in milliseconds">,
    Option<"inPlaceUpdates", "inplace-update", "bool", /*default=*/"true",
           "Model the updates of raf.updates_arg results in their "
           "arguments' buffers (as --raf-memory-report)">
  ];
  let dependentDialects = ["::raf::relay::RelayDialect"];
}

def RafAutoCast : Pass<"raf-autocast", "::mlir::ModuleOp"> {
  let summary = "Automatic mixed precision: insert casts to and from a "
                "low-precision float type";
  let description = [{
    RAF's AutoCast (RAF paper §3.1.2, Fig. 3; RAF source src/pass/auto_cast.cc
    and python/raf/amp/type_hints.py): one walk over each training graph
    that casts the operands of every relay operator as its AutoCast
    category (`AutoCastOpInterface`) asks and re-infers its result types:

    * `always` (conv2d, dense, matmul, batch_matmul, ...): the first `k`
      float operands are cast to `dtype`;
    * `never` (softmax, exp, sum, multiply, losses, ...): operands keep, or
      get back, the dtype they had before the pass (f32);
    * `infer`: the first `k` float operands follow their majority (those
      in `dtype` against those in f32; ties go to `dtype`);
    * `follow` (split): `dtype` if the input is in `dtype`, else unchanged;
    * `special`: add/subtract take `dtype` when their result was f32 and an
      operand is in `dtype`; concatenate takes `dtype` when more than half
      of at most 5 inputs are in it, f32 otherwise; batch_norm keeps its
      f32 statistics and so runs in their precision; an existing cast keeps
      its target (a cast to the operand's own type disappears) and casting
      its result back to its source's type yields the source.

    Casts for consumers whose fusion kind is beyond injective (conv2d,
    dense, reductions, opaque operators) are made once per value and type
    and shared; elementwise, broadcast and injective consumers get casts of
    their own, which fusion can absorb (RAF's exclusive casts, Fig. 3 of
    the paper). Results of the function in `dtype` are cast to `out-dtype`,
    other results get back their original type; a result that replaces an
    argument (`raf.updates_arg`: new parameters and optimizer states) is
    cast to that argument's type, so the step can be iterated. A function
    referenced in the module keeps its signature.

    By default every function carrying `raf.grad_params` (from
    `--raf-autodiff`) or `raf.optimizer` (from `--raf-append-optimizer`) is
    converted; `entry` names one function instead. A module without such a
    function is an error unless `inference=true` (then every function with
    a body, or `entry`, is converted). An operation without a casting rule
    (closures, calls, `relay.if`, operations of other dialects) is an
    error listing every such operation.

    ```
    raf-opt --raf-autocast="dtype=bf16 out-dtype=f32" step.mlir
    raf-opt --raf-autocast="force-f32=nn.dense force-low=nn.softmax" step.mlir
    ```
  }];
  let options = [
    Option<"dtype", "dtype", "std::string", /*default=*/"\"f16\"",
           "Low-precision float type: f16 or bf16">,
    Option<"outDtype", "out-dtype", "std::string", /*default=*/"\"\"",
           "Type of the function results computed in dtype: f16, bf16 or "
           "f32 (default: dtype)">,
    Option<"entry", "entry", "std::string", /*default=*/"\"\"",
           "Function to convert (default: every training graph)">,
    ListOption<"forceLow", "force-low", "std::string",
               "Operators (e.g. nn.softmax) whose float operands are all "
               "cast to dtype">,
    ListOption<"forceF32", "force-f32", "std::string",
               "Operators (e.g. nn.dense) whose operands keep or get back "
               "their original type">,
    Option<"inference", "inference", "bool", /*default=*/"false",
           "Also accept functions that are not training graphs">
  ];
  let dependentDialects = ["::raf::relay::RelayDialect"];
}

def RafDataParallel : Pass<"raf-data-parallel", "::mlir::ModuleOp"> {
  let summary = "Scale a single-device gradient function to data-parallel "
                "ranks (RAF's AutoDataParallel)";
  let description = [{
    RAF's AutoDataParallel (RAF paper §3.1.3): reads the gradient function
    `@<entry>` that `--raf-autodiff="inline-backward=true"` produces (the
    contract of `--raf-append-optimizer`, `raf.grad_params`) and makes it
    the program of one of `world-size` ranks that each run it on their own
    shard of the batch. Every gradient result is averaged over the ranks
    with `relay.comm.allreduce {reduction = "avg"}`, inserted right after
    the op that produces the gradient (so that later backward ops can
    overlap it). With a loss that is a mean over the batch and equal
    shards, the averaged gradient is the gradient of the whole batch's loss.

    * `zero=0`: that is all; with `bucket-bytes=B > 0` the all-reduces of
      consecutive gradients of one element type are fused into one
      all-reduce of their flattened concatenation while the bucket holds at
      most `B` bytes (RAF's grouped collectives), issued after the bucket's
      last gradient.
    * `zero=1` and `zero=2` (ZeRO, Rajbhandari et al. 2020): the
      all-reduces are tagged `raf.zero = 1|2`; after
      `--raf-append-optimizer`, `--raf-zero-partition` partitions the
      optimizer update over the ranks; with `bucket-bytes=B > 0` the
      all-reduces of each bucket are tagged `raf.bucket = <index>` and
      `--raf-zero-partition` fuses the bucket's collectives.

    * `sync-batch-norm=true` (the default): every training-mode batch norm
      normalises with the mean and variance of the global batch (two
      all-reduces per batch norm, of the per-channel mean and of the mean
      squared deviation), updates its moving statistics with them (unbiased
      global variance), and the means over the batch in its gradient
      (`raf.batch_stat`) are all-reduced too, as PyTorch's SyncBatchNorm;
      the step then equals single-process training on the concatenated
      batch. `false`: each rank's own statistics (DistributedDataParallel
      without SyncBatchNorm).

    The loss and the auxiliary results stay per rank (with synchronised
    batch norms the running statistics are the same on every rank). The
    function gets `raf.world_size` and
    `raf.zero`. Running `--raf-append-optimizer` afterwards gives a
    data-parallel training step; it runs on simulated ranks with
    `raf-run --target=interp --ranks=N` and as MPI processes with
    `mpirun -np N raf-run --target=cpu` (docs/data-parallel.md).

    A missing entry, a function that breaks the contract, one that already
    holds collectives, or an invalid option is an error.
  }];
  let options = [
    Option<"entry", "entry", "std::string", /*default=*/"\"main\"",
           "Gradient function to make data parallel">,
    Option<"worldSize", "world-size", "int64_t", /*default=*/"0",
           "Number of ranks (>= 1; required)">,
    Option<"zero", "zero", "int64_t", /*default=*/"0",
           "ZeRO level: 0 (allreduce of gradients), 1 (partitioned "
           "optimizer state), 2 (and gradients); 1 and 2 need "
           "--raf-zero-partition after --raf-append-optimizer">,
    Option<"bucketBytes", "bucket-bytes", "int64_t", /*default=*/"0",
           "Fuse the all-reduces of consecutive gradients into buckets of "
           "at most this many bytes (0: no bucketing)">,
    Option<"syncBatchNorm", "sync-batch-norm", "bool", /*default=*/"true",
           "Training-mode batch norms use the statistics of the global "
           "batch, as PyTorch's SyncBatchNorm (false: each rank's own, as "
           "DistributedDataParallel without it)">
  ];
  let dependentDialects = ["::mlir::func::FuncDialect",
                           "::raf::relay::RelayDialect"];
}

def RafZeroPartition : Pass<"raf-zero-partition", "::mlir::ModuleOp"> {
  let summary = "Partition the optimizer update of a data-parallel training "
                "step over the ranks (ZeRO-1/2, RAF's PartitionGradient)";
  let description = [{
    Runs on the step `@<entry>` that `--raf-append-optimizer` builds from a
    gradient function made data parallel with `--raf-data-parallel zero=1`
    or `zero=2` (ZeRO, Rajbhandari et al. 2020; RAF's PartitionGradient).
    For each gradient all-reduce tagged `raf.zero`, dimension 0 of the
    gradient is padded with zeros to a multiple of the world size N and
    every rank updates only its block: the element-wise optimizer update
    that uses the gradient runs on blocks, the parameter's block is taken
    with `relay.comm.shard`, the optimizer states become per-rank blocks
    (arguments and results of the block type), and the new parameter is
    gathered with `relay.comm.allgather` and stripped of the padding.
    `raf.zero = 1` keeps the all-reduce and takes the rank's block of its
    result; `raf.zero = 2` replaces it by a `relay.comm.reduce_scatter` of
    the padded gradient, so only the block is kept. The gradients of one
    bucket (`raf.bucket`) share one collective: an all-reduce of their
    flattened concatenation (ZeRO-1) or a reduce-scatter of their padded
    gradients viewed as [N, block] rows and concatenated along the blocks
    (ZeRO-2), each gradient keeping its own padding and block layout. The
    allgather of a new parameter comes right after its block is updated;
    the padding is removed before the return. The new parameters of one
    bucket share one allgather of their blocks' concatenation, after the
    bucket's last block, split back before the return. An op in the update that
    is not element-wise, or that mixes the gradient with a tensor of
    another shape, is an error.
  }];
  let options = [
    Option<"entry", "entry", "std::string", /*default=*/"\"train_step\"",
           "Training step to partition">
  ];
  let dependentDialects = ["::mlir::func::FuncDialect",
                           "::raf::relay::RelayDialect"];
}

def RafInplaceUpdate : Pass<"raf-inplace-update", "::mlir::ModuleOp"> {
  let summary = "Write updated parameters and optimizer states into their "
                "arguments (RAF's InplaceUpdate), before bufferization";
  let description = [{
    RAF's InplaceUpdate (RAF source src/pass/inplace_update.cc), on tensors
    before one-shot bufferization (`--raf-cpu-pipeline` runs it after the
    relay to linalg conversion). For every public function that nothing in
    the module calls and every result `i` with `raf.updates_arg = j`
    (`--raf-append-optimizer`'s new parameters and states) whose type is
    argument `j`'s static tensor type, the returned value becomes
    `bufferization.materialize_in_destination %new in %arg_j` (a call of a
    private function that computes `%new`, such as a fused primitive
    function holding the optimizer's update, is inlined first: across a
    call the update would write an out-parameter that is then copied into
    the argument), and empty
    tensors feeding it are replaced by the argument (MLIR's empty tensor
    elimination), so the update's last op writes the argument's buffer
    directly where bufferization finds that safe (else it writes a
    temporary and copies it in). Empty tensor elimination does not follow
    reshapes: an update computed on collapsed views (merged loops), whose
    destination is the collapse of an empty tensor of the argument's type
    and whose result is expanded back, writes and is materialized in the
    collapsed argument instead, and the result is expanded from there. The
    function gets
    `raf.inplace_results = array<i64: i, j, ...>` for
    `--raf-drop-inplace-results`. Function arguments must be writable
    (one-shot bufferization with function boundaries). An argument that is
    also returned unchanged as another result is an error.
  }];
  let dependentDialects = ["::mlir::bufferization::BufferizationDialect"];
}

def RafDropInplaceResults
    : Pass<"raf-drop-inplace-results", "::mlir::ModuleOp"> {
  let summary = "Drop the results --raf-inplace-update wrote into their "
                "arguments, after bufferization";
  let description = [{
    After one-shot bufferization (and before results become out-parameters),
    removes each result `i` listed in a function's `raf.inplace_results`
    from its signature and return: it is the buffer of argument `j`, which
    the caller reads after the call (also when it is that buffer collapsed
    and expanded back with the same reassociation, as --raf-inplace-update
    returns an update written through a reshape). A listed result that
    bufferization did not place in its argument's buffer is an error.
  }];
}

#endif // RAF_DIALECT_RELAY_TRANSFORMS_PASSES_TD
