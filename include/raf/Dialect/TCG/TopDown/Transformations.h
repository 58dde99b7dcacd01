//===- Transformations.h - TCG rewrites of the top-down search --*- C++ -*-===//
//
// The transformations of Rieber 2022, §3.3.1, as rewrites of tcg kernels.
// Each checks its preconditions first and, when one fails, emits an error at
// the op it was asked to transform and returns failure without changing the
// IR (a refusal). On success the kernel verifies again.
//
//   swapOperands        operand swap (Fig. 3.7), commutative ops only
//   canonicalizeOperands  the Tab. 3.2 canonical form (constants to the
//                       right, intermediate values to the left)
//   interchangeTensors  output transpose (Fig. 3.9) of two adjacent
//                       dimensions; consumers in the kernel are rewritten
//   transposeInput      input transpose (Fig. 3.8): the read goes through a
//                       transposed copy of its source
//   fissionCompute      compute fission (Fig. 3.10)
//   fissionReduction    reduction fission (Fig. 3.11)
//   inlineComputation   compute and reduction inlining (Figs. 3.13, 3.14)
//   fuseComputation     fusion (Fig. 3.12): a computation moves into the
//                       outer dimension of the one reading it
//   fullFission         Alg. 2: fission until every operation stands alone
//   unfuseRow           the inverse of fusion: a local row becomes a
//                       computation of its own again
//   unfuseAll           inverse fusion until no fused body is left
//
// Fusion makes a tensor body a sequence of computations (the fused
// computation's rows, then the dimension itself); inlining also applies to
// such local rows. Not here: input masking is a matching concept
// (Matcher.h), not a rewrite.
//
//===----------------------------------------------------------------------===//

#ifndef RAF_DIALECT_TCG_TOPDOWN_TRANSFORMATIONS_H
#define RAF_DIALECT_TCG_TOPDOWN_TRANSFORMATIONS_H

#include "raf/Dialect/TCG/IR/TCGOps.h"

#include "mlir/Support/LLVM.h"

#include <string>

namespace raf::tcg::topdown {

/// Swaps the operands of a commutative binary compute (Fig. 3.7). Refuses
/// unary and non-commutative operations.
mlir::LogicalResult swapOperands(ComputeOp op);

/// Puts a commutative binary compute into the canonical form of Tab. 3.2:
/// a constant goes to the right, an intermediate value (a result computed
/// in the kernel: a compute or reduce result, or a read of an earlier
/// computation) to the left. Returns whether the operands were swapped.
bool canonicalizeOperands(ComputeOp op);

/// Output transpose (Fig. 3.9): interchanges `outer` with the tcg.tensor
/// nested in it, so the two output dimensions trade places. Every read of
/// the computation in the kernel is rewritten to the new layout. Refuses an
/// innermost dimension and a computation the kernel returns (its type would
/// change) unless `allowKernelResult`, which changes the kernel's result
/// type with it (the layout study of Tab. 3.5 works on such copies).
mlir::LogicalResult interchangeTensors(TensorOp outer,
                                       bool allowKernelResult = false);

/// Input transpose (Fig. 3.8): makes `input` read a copy of its source with
/// the dimensions permuted by `permutation` (copy dimension k is source
/// dimension permutation[k]), inserted as a new computation right after the
/// source is available. Refuses a permutation that is not one of the
/// source's rank or is the identity. Returns the copy.
mlir::FailureOr<TensorOp> transposeInput(InputOp input,
                                         llvm::ArrayRef<int64_t> permutation);

/// Compute fission (Fig. 3.10): moves `op` into a new computation, placed
/// before the one holding it, whose dimensions are all iterators enclosing
/// `op`; `op` is replaced by a read of it. Refuses when the computation has
/// a single statement (compute or reduce) and when an operand of `op` is
/// computed by another statement (fission that one first; Alg. 2 goes
/// bottom-up). Returns the new computation.
mlir::FailureOr<TensorOp> fissionCompute(ComputeOp op);

/// Reduction fission (Fig. 3.11): moves the element computation of the
/// reduction `op` (which may be an inner reduction of a nest) into a new
/// computation with one dimension per enclosing iterator, the reduction's
/// own included; the reduction then reduces a read of it. Refuses a
/// reduction whose body is a single read or constant.
mlir::FailureOr<TensorOp> fissionReduction(ReduceOp op);

/// Reduction fission of a reduction combined with other values (Fig. 3.11
/// applied to the reduction node itself, e.g. the sum of `sum_k x w + b`):
/// the whole reduction moves into a new computation over the iterators
/// enclosing it, and a read of that computation replaces it. Refuses a
/// reduction that no compute uses (it already is its computation's
/// element) and one whose body uses a value of its enclosing computation.
mlir::FailureOr<TensorOp> fissionReductionOut(ReduceOp op);

/// Full fission (Alg. 2, corrected: G' starts as the kernel itself, and
/// every option is re-checked before it is applied, since it can go stale):
/// applies compute fission and reduction fission wherever their preconditions
/// hold until none does, so every algebraic operation ends up in its own
/// computation. Returns the number of fissions applied.
unsigned fullFission(KernelOp kernel);

/// Whether fuseComputation(producer) applies; otherwise `why` says which
/// precondition fails (completing "'tcg.tensor' op ...").
mlir::LogicalResult canFuse(TensorOp producer, std::string &why);

/// Fusion (Fig. 3.12): moves the computation `producer` into the outer
/// dimension of the one computation reading it, `for x: {for y: t; for y:
/// r}`, which then reads the local row `t[y]` instead of `t[x, y]`.
/// Refuses (Rieber 2022, §3.3.1: "only possible if the iteration interval
/// is identical and no data is consumed before it is computed") different
/// outer intervals, reads at another row than the consumer's outer iterator
/// or through a view, several consuming computations, the kernel's result,
/// and computations of a single dimension. Returns the consumer.
mlir::FailureOr<TensorOp> fuseComputation(TensorOp producer);

/// Whether `tensor`'s body is a fused sequence of computations (Fig. 3.12):
/// more than one nested tcg.tensor.
bool isFusedBody(TensorOp tensor);

/// Whether some tensor of `kernel` has a fused body.
bool hasFusedBody(KernelOp kernel);

/// Whether unfuseRow(row) applies; otherwise `why` says which precondition
/// fails.
mlir::LogicalResult canUnfuse(TensorOp row, std::string &why);

/// The inverse of fusion (Fig. 3.12 read backwards): the local row `row` of
/// the fused body `for x: {for y: t; for y: r}` becomes the computation
/// `for x: for y: t` placed right before the fused tensor, and the reads of
/// the local row `t[rest]` become reads `t[x, rest]`. Refuses a tensor that
/// is not a local row (an inner dimension, a top-level computation, the
/// dimension a fused body yields) and a row reading an earlier local row of
/// its body (split that one first). `replaced`, when given, is called with
/// every read it replaces and its replacement (whose dimension 0 is the new
/// one) before the old read is erased. Returns the new computation.
mlir::FailureOr<TensorOp>
unfuseRow(TensorOp row,
          llvm::function_ref<void(InputOp, InputOp)> replaced = nullptr);

/// Splits every fused body of `kernel` (unfuseRow on the first local row of
/// the outermost fused body, until none is left), so every computation is
/// one loop nest again, as before the fusions. Returns the number of rows
/// split; `replaced` as for unfuseRow.
unsigned
unfuseAll(KernelOp kernel,
          llvm::function_ref<void(InputOp, InputOp)> replaced = nullptr);

/// Whether inlineComputation(producer) applies; otherwise `why` says which
/// precondition fails.
mlir::LogicalResult canInline(TensorOp producer, std::string &why);

/// Inlining (Figs. 3.13, 3.14): replaces every read of the element-wise
/// computation `producer` (a top-level tcg.tensor, or a local row of a
/// fused body) by its scalar
/// computation with the access functions composed, then erases it. Refuses
/// a computation the kernel returns, one that nothing reads, one with a
/// reduction, and reads through a padded or dilated view.
mlir::LogicalResult inlineComputation(TensorOp producer);

} // namespace raf::tcg::topdown

#endif // RAF_DIALECT_TCG_TOPDOWN_TRANSFORMATIONS_H
