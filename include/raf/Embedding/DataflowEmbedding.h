//===- DataflowEmbedding.h - Intrinsic embedding as a CSP -------*- C++ -*-===//
//
// Dataflow embedding (Rieber 2022, §4.3-4.4, §4.6): find one instance
// of an intrinsic's scalar dataflow graph inside an operator's polyhedral
// dataflow graph, as a constraint problem solved with Gecode.
//
// Variables: one per node of the intrinsic DFG (every statement instance and
// every operand element of the intrinsic, Def. 4.4). A variable is a point
// of the matching operator node's space and is encoded as one Gecode integer
// per coordinate, so a domain is a box of small per-dimension ranges rather
// than one linearised integer: no layer's instance set overflows Gecode's
// 32-bit integers (the dissertation lost 28 of 108 DeepBench layers to
// that).
//
// Constraints (each can be switched off, see EmbeddingOptions):
//  - edge: every intrinsic edge maps onto an operator relation; functional
//    relations (reads, writes, flow) post their quasi-affine form as
//    linear equalities between coordinates, which propagate in both
//    directions; the relaxed reduction self-edge keeps the output element
//    and changes a reduction coordinate;
//  - AllDiff: statement instances and output elements pairwise distinct;
//    input elements too unless relaxed (allowing overlapping reads);
//  - hyper-rectangle (Fig. 4.4, Eq. 4.22) on the elements of every intrinsic
//    operand, with the stride and dimensions parameters;
//  - memory access (Fig. 4.7; Eqs. 4.35-4.38 of §4.4.3 as printed
//    contradict each other, so the GEMM's own semantics are used):
//    for neighbouring intrinsic outputs, and for every output against the
//    first, the operator's access sets must relate as the intrinsic's do
//    (identical, or disjoint);
//  - fixed origin: the first element of every operand is the origin;
//  - padding: iterators below a threshold are extended (DataflowGraph).
// Candidates are ranked by w_MAC * O_MAC + w_Data * O_Data (§4.3.6) and the
// best is found by branch and bound.
//
//===----------------------------------------------------------------------===//

#ifndef RAF_EMBEDDING_DATAFLOWEMBEDDING_H
#define RAF_EMBEDDING_DATAFLOWEMBEDDING_H

#include "raf/Embedding/DataflowGraph.h"

#include "llvm/ADT/SmallVector.h"

#include <cstdint>
#include <string>

namespace raf {
namespace embed {

struct EmbeddingOptions {
  /// Strict reproduces TVM's mapping: every intrinsic iterator maps to the
  /// operator iterator tagged with the same GEMM axis (Iterator::StrictAxis),
  /// with stride 1 and one dimension per axis. Relaxed lets the solver choose
  /// (stride up to MaxStride, dimensions up to the operator's rank) and runs
  /// searches with and without the memory-access constraint (§4.5.2).
  enum class Mode { Strict, Relaxed };
  Mode SearchMode = Mode::Relaxed;
  /// How many of the cheapest distinct embeddings to find (the
  /// dissertation auto-tunes the five best, §4.5.2).
  unsigned MaxCandidates = 5;
  /// CPU-time limit of the whole search (its thread) in ms (0: none).
  uint64_t TimeoutMs = 10000;
  /// Hyper-rectangle parameters. 0 means: strict 1, relaxed 4 (stride) and
  /// the operator's rank (dimensions).
  int64_t MaxStride = 0;
  unsigned MaxDimensions = 0;
  /// Allow an input element to appear several times in one instance
  /// (overlapping reads, e.g. im2col). Default: relaxed mode only.
  std::optional<bool> RelaxInputAllDiff;
  /// Robustness strategy B (Eq. 4.39, corrected to a cap): bound every
  /// statement coordinate by (largest intrinsic extent) * MaxStride.
  bool DomainBound = true;
  /// Robustness strategy A (Eq. 4.40): search assets, each trying a
  /// different choice of innermost dimensions first. 0: all of them.
  unsigned MaxAssets = 0;
  /// Weights of the MAC and data-movement overheads (§4.3.6).
  uint64_t WeightMac = 1, WeightData = 1;
  /// If nonzero, enumerate up to this many distinct embeddings after the
  /// search (without the bound, within the time limit) and report how many
  /// the space holds.
  unsigned CountLimit = 0;
  /// Check every edge of every reported embedding against the operator's
  /// isl relations (the search posts their affine form; this confirms the
  /// two agree). Costs an isl query per edge.
  bool VerifyWithIsl = false;
  /// Testing aid: constraints to leave out ("hyper-rectangle",
  /// "memory-access", "alldiff"); used to name the failing constraint.
  llvm::SmallVector<std::string, 2> Disabled;
};

/// One operator dimension an intrinsic axis covers (Fig. 4.10): Dim is an
/// operator iterator (for iterator mappings) or a dimension of the operand's
/// view (for operand mappings); Length points, Stride apart.
struct AxisMapping {
  unsigned Dim = 0;
  int64_t Length = 1;
  int64_t Stride = 1;

  bool operator==(const AxisMapping &O) const {
    return Dim == O.Dim && Length == O.Length && Stride == O.Stride;
  }
};
/// The operator dimensions of one intrinsic axis, innermost first.
using AxisMappings = llvm::SmallVector<AxisMapping, 2>;

struct OperandEmbedding {
  /// The intrinsic's operand and the operator's (input index, -1: output).
  std::string IntrinsicOperand;
  std::string OperatorOperand;
  int OperatorInput = -1;
  /// Per dimension of the intrinsic operand.
  llvm::SmallVector<AxisMappings, 2> Dims;
};

struct Embedding {
  /// Per intrinsic iterator, the operator iterators it covers.
  llvm::SmallVector<AxisMappings, 3> Iterators;
  llvm::SmallVector<OperandEmbedding, 3> Operands;
  /// Whether the memory-access constraint held (false: found by the search
  /// without it; the layout duplicates data, e.g. im2col).
  bool MemoryAccess = true;
  /// Per operator iterator: its extent and the extent executed once tiled by
  /// the intrinsic (padding included).
  llvm::SmallVector<int64_t, 8> Extents, Executed;
  uint64_t MacTotal = 0, MacMin = 0;
  uint64_t DataTotal = 0, DataMin = 0;
  uint64_t Cost = 0;
  /// Every intrinsic node's operator point, in intrinsic node order.
  llvm::SmallVector<llvm::SmallVector<int64_t, 8>, 0> Points;

  /// A key equal for embeddings with the same mapping.
  std::string getKey() const;
};

struct EmbeddingStats {
  uint64_t Nodes = 0, Fails = 0;
  uint64_t Solutions = 0;
  unsigned Assets = 0;
  double Milliseconds = 0; ///< CPU time, the clock of TimeoutMs.
  /// With EmbeddingOptions::CountLimit: the distinct embeddings of the whole
  /// space (every mapping, not only the cheapest), and whether the count is
  /// complete (the enumeration finished below the limit and in time).
  uint64_t Distinct = 0;
  bool DistinctComplete = false;
};

struct EmbeddingResult {
  enum class Status {
    /// Candidates holds at least one embedding.
    Found,
    /// The search finished without an embedding.
    Infeasible,
    /// The time limit stopped the search before any embedding was found.
    Timeout,
    /// The problem could not be built (Message says why).
    Error,
  };
  Status S = Status::Error;
  /// Error: the reason. Infeasible: the constraint that fails (found by
  /// re-solving without it) or the structural mismatch. Timeout: the limit.
  std::string Message;
  /// Distinct embeddings, cheapest first.
  llvm::SmallVector<Embedding, 4> Candidates;
  /// Whether branch and bound proved Candidates[0] optimal.
  bool ProvedOptimal = false;
  bool LimitReached = false;
  EmbeddingStats Stats;
};

/// The padding the embedding uses (Rieber 2022, §4.3.4). Both modes: an
/// iterator tagged with an intrinsic axis is padded to that axis' extent (TVM
/// pads the input channels and the batch), so relaxed mode's space contains
/// strict mode's embedding. Relaxed also: an iterator shorter than the largest
/// intrinsic extent is padded at least to the smallest divisor of an intrinsic
/// extent that is not below it (3 -> 4, 5 -> 8 for extents of 16). A domain
/// extended this far still admits shorter mappings; the cost counts only the
/// padding a mapping executes.
PaddingOptions choosePadding(const TensorExpression &Operator,
                             const TensorExpression &Intrinsic,
                             EmbeddingOptions::Mode Mode);

/// The search's time limit for an option of TimeoutMs (thread CPU time, in
/// ms): "N ms", on the sanitizer build, whose limits are ten times the
/// option's, "N ms (10 x the option's M ms on the sanitizer build)".
std::string describeTimeLimit(uint64_t TimeoutMs);

/// Embeds Intrinsic into Operator. Never throws.
EmbeddingResult embedIntrinsic(const DataflowGraph &Operator,
                               const DataflowGraph &Intrinsic,
                               const EmbeddingOptions &Options);

} // namespace embed
} // namespace raf

#endif // RAF_EMBEDDING_DATAFLOWEMBEDDING_H
