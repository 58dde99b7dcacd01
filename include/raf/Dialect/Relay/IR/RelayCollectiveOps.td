//===- RelayCollectiveOps.td - collective communication ----*- tablegen -*-===//
//
// Collective operators of data-parallel training (RAF paper §3.1.3: the
// passes insert collective operators into a single-device graph; RAF's
// `_allreduce`, `_reduce_scatter`, `_allgather` and `_broadcast`).
//
// A program holding them is SPMD: every rank (process) runs the same
// function on its own values, and each collective combines the values of
// the `world_size` ranks. All ranks must execute the same collectives in the
// same order. Partitioned dimensions are always dimension 0 and rank r owns
// the r-th of `world_size` equal contiguous blocks.
//
// The ops are pure in MLIR's sense: given the values of all ranks, the
// result is a deterministic function of them, and since every rank runs the
// same program, a transformation that removes, merges or moves a collective
// does so on every rank alike. They are not recomputable (recomputing one
// communicates again).
//
// Gradients are taken with respect to the sum of the ranks' losses, the
// quantity data-parallel training differentiates:
//   allreduce(sum)      <-> allreduce(sum)
//   allreduce(avg)      <-> allreduce(avg)
//   allgather           <-> reduce_scatter(sum)
//   reduce_scatter(sum) <-> allgather
//   reduce_scatter(avg) <-> allgather, times 1 / world_size
// broadcast has no gradient rule yet (its adjoint is a reduce to the root).
//
//===----------------------------------------------------------------------===//

#ifndef RAF_DIALECT_RELAY_IR_RELAYCOLLECTIVEOPS_TD
#define RAF_DIALECT_RELAY_IR_RELAYCOLLECTIVEOPS_TD

include "raf/Dialect/Relay/IR/RelayOpBase.td"

// Every collective: one tensor operand, one result, opaque to fusion,
// following its operand's precision under AutoCast.
class Relay_CollectiveOp<string mnemonic, list<Trait> traits = []>
    : Relay_Operator<mnemonic, "Opaque", "Infer", 1, traits> {
  let results = (outs AnyRankedTensor:$result);
  code collectiveDecls = [{
    /// Floating-point additions of one execution on one rank.
    int64_t getFlops();
    /// Bytes one rank sends with the ring algorithm (Patarasuk and Yuan
    /// 2009): the volume model of the communication cost.
    int64_t getBytesSent();
    /// Recomputing a collective communicates again.
    bool isRecomputable() { return false; }
  }];
  let extraClassDeclaration = operatorDecls # collectiveDecls;
}

def Relay_AllreduceOp : Relay_CollectiveOp<"comm.allreduce",
    [DeclareOpInterfaceMethods<Relay_GradientOpInterface>]> {
  let summary = "sum or average of a tensor over all ranks";
  let description = [{
    Every rank receives the element-wise sum (`reduction = "sum"`) or mean
    (`"avg"`, float tensors only) of the operand over the `world_size`
    ranks. The result has the operand's type.

    ```mlir
    %g = relay.comm.allreduce %x {reduction = "avg", world_size = 2 : i64}
        : (tensor<4x8xf32>) -> tensor<4x8xf32>
    ```
  }];
  let arguments = (ins AnyRankedTensor:$x,
                       DefaultValuedAttr<StrAttr, "\"sum\"">:$reduction,
                       I64Attr:$world_size);
}

def Relay_ReduceScatterOp : Relay_CollectiveOp<"comm.reduce_scatter",
    [DeclareOpInterfaceMethods<Relay_GradientOpInterface>]> {
  let summary = "reduction over all ranks, each rank keeping one block";
  let description = [{
    Reduces the operand over the ranks as `comm.allreduce` does, then rank
    `r` keeps block `r` of `world_size` equal blocks along dimension 0. The
    operand's dimension 0 must be divisible by `world_size` (the
    data-parallel pass pads it first).

    ```mlir
    %s = relay.comm.reduce_scatter %x {reduction = "sum", world_size = 2 : i64}
        : (tensor<4x8xf32>) -> tensor<2x8xf32>
    ```
  }];
  let arguments = (ins AnyRankedTensor:$x,
                       DefaultValuedAttr<StrAttr, "\"sum\"">:$reduction,
                       I64Attr:$world_size);
}

def Relay_AllgatherOp : Relay_CollectiveOp<"comm.allgather",
    [DeclareOpInterfaceMethods<Relay_GradientOpInterface>]> {
  let summary = "concatenation of every rank's tensor along dimension 0";
  let description = [{
    Every rank receives the operands of ranks `0 .. world_size - 1`
    concatenated along dimension 0, so dimension 0 grows `world_size` times.

    ```mlir
    %w = relay.comm.allgather %x {world_size = 2 : i64}
        : (tensor<2x8xf32>) -> tensor<4x8xf32>
    ```
  }];
  let arguments = (ins AnyRankedTensor:$x, I64Attr:$world_size);
}

def Relay_CommBroadcastOp : Relay_CollectiveOp<"comm.broadcast"> {
  let summary = "the root rank's tensor, sent to every rank";
  let description = [{
    Every rank receives the operand of rank `root`; the other ranks'
    operands are ignored. Not differentiable yet.

    ```mlir
    %w = relay.comm.broadcast %x {root = 0 : i64, world_size = 2 : i64}
        : (tensor<4xf32>) -> tensor<4xf32>
    ```
  }];
  let arguments = (ins AnyRankedTensor:$x,
                       DefaultValuedAttr<I64Attr, "0">:$root,
                       I64Attr:$world_size);
}

def Relay_CommShardOp : Relay_CollectiveOp<"comm.shard"> {
  let summary = "this rank's block of a replicated tensor";
  let description = [{
    Rank `r` keeps block `r` of `world_size` equal blocks of its operand
    along dimension 0, as `comm.reduce_scatter` does, but without reducing:
    no data is sent. ZeRO (Rajbhandari et al. 2020, §5) uses it to take the
    local shard of a parameter that every rank holds. The operand's
    dimension 0 must be divisible by `world_size`. Not differentiable.

    ```mlir
    %s = relay.comm.shard %w {world_size = 2 : i64}
        : (tensor<4x8xf32>) -> tensor<2x8xf32>
    ```
  }];
  let arguments = (ins AnyRankedTensor:$x, I64Attr:$world_size);
}

#endif // RAF_DIALECT_RELAY_IR_RELAYCOLLECTIVEOPS_TD
