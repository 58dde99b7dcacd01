//===- Matcher.cpp - top-down tree matching and selection -----------------===//
//
// Rieber 2022, §3.2: label trees, the Aho-Corasick matcher over all
// intrinsics, the full-match conditions with input masking, and the
// branch-and-bound selection of Alg. 1 with the coverage cost of Eq. 3.4.
//
//===----------------------------------------------------------------------===//

#include "raf/Dialect/TCG/TopDown/Matcher.h"

#include "mlir/IR/AffineExpr.h"
#include "mlir/IR/AffineMap.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/bit.h"
#include "llvm/Support/raw_ostream.h"

#include <deque>
#include <functional>
#include <map>
#include <set>

using namespace mlir;
using namespace raf::tcg;
using namespace raf::tcg::topdown;

//===----------------------------------------------------------------------===//
// Label trees (§3.2.1)
//===----------------------------------------------------------------------===//

namespace {

/// The largest label tree built; the dissertation's operators have a few
/// dozen nodes (Tab. 3.3).
constexpr size_t kMaxLabelNodes = 10000;

class TreeBuilder {
public:
  TreeBuilder(LabelTree &tree, bool intrinsic)
      : tree(tree), intrinsic(intrinsic) {}

  LogicalResult visitTensor(TensorOp tensor, StringRef edge, unsigned parent) {
    unsigned node = add(LabelNode::Kind::Tensor, "T", edge, tensor, parent);
    ancestors.push_back({tensor, node});
    // A fused body (Fig. 3.12): the computations before the dimension are
    // its left children (Fig. 3.2: the preceding computations), edge `l`.
    LogicalResult result = success();
    Value yielded = tensor.getYield().getValue();
    for (TensorOp local : tensor.getBody().front().getOps<TensorOp>())
      if (local.getResult() != yielded && succeeded(result))
        result = visitTensor(local, "l", node);
    if (succeeded(result))
      result = visitValue(yielded, "r", node);
    ancestors.pop_back();
    finish(node);
    return result;
  }

private:
  unsigned add(LabelNode::Kind kind, std::string label, StringRef edge,
               Operation *op, unsigned parent) {
    LabelNode node;
    node.kind = kind;
    node.label = std::move(label);
    node.edge = edge.str();
    node.parent = parent;
    node.depth = tree.nodes[parent].depth + 1;
    node.op = op;
    unsigned index = tree.nodes.size();
    tree.nodes.push_back(std::move(node));
    tree.nodes[parent].children.push_back(index);
    tree.subtreeEnd.push_back(index + 1);
    return index;
  }

  void finish(unsigned node) { tree.subtreeEnd[node] = tree.nodes.size(); }

  LogicalResult visitValue(Value value, StringRef edge, unsigned parent) {
    // A value used several times is expanded once per use (the tree of
    // Rieber 2022, §3.2.1), so a chain of squares doubles the tree at every
    // step; the bound keeps memory, time and the recursion depth in check.
    if (tree.nodes.size() >= kMaxLabelNodes)
      return emitError(value.getLoc(), "the kernel's label tree exceeds ")
             << kMaxLabelNodes
             << " nodes (values used several times are expanded once per "
                "use); the top-down matcher does not take kernels this large";
    Operation *op = value.getDefiningOp();
    if (auto tensor = dyn_cast_or_null<TensorOp>(op))
      return visitTensor(tensor, edge, parent);
    if (auto reduce = dyn_cast_or_null<ReduceOp>(op)) {
      if (!intrinsic && reduce->hasAttr(kStrideAttrName))
        return reduce.emitOpError()
               << "has a reduction stride ('" << kStrideAttrName
               << "'), which only intrinsics take; an operator writes a "
                  "strided reduction as a scaled access, e.g. a[2 * k]";
      if (intrinsic && failed(verifyReductionStride(reduce)))
        return failure();
      unsigned node = add(LabelNode::Kind::Reduce,
                          ("R." + stringifyScalarOp(reduce.getKind())).str(),
                          edge, reduce, parent);
      ancestors.push_back({reduce, node});
      LogicalResult result =
          visitValue(reduce.getYield().getValue(), "r", node);
      ancestors.pop_back();
      finish(node);
      return result;
    }
    if (auto compute = dyn_cast_or_null<ComputeOp>(op)) {
      unsigned node = add(LabelNode::Kind::Compute,
                          ("C." + stringifyScalarOp(compute.getKind())).str(),
                          edge, compute, parent);
      if (failed(visitValue(compute.getLhs(), "0", node)) ||
          (compute.getRhs() && failed(visitValue(compute.getRhs(), "1", node))))
        return failure();
      finish(node);
      return success();
    }
    if (auto constant = dyn_cast_or_null<ConstantOp>(op)) {
      add(LabelNode::Kind::Scalar, "S", edge, constant, parent);
      return success();
    }
    if (auto input = dyn_cast_or_null<InputOp>(op))
      return visitInput(input, edge, parent);
    if (op)
      return op->emitOpError("has no node in a tensor compute graph");
    return emitError(value.getLoc(), "a block argument is no TCG node");
  }

  LogicalResult visitInput(InputOp input, StringRef edge, unsigned parent) {
    AffineMap map = input.getMap();
    // A read at constant indices is a scalar operand (Tab. 3.1's S).
    if (map.getNumDims() == 0) {
      add(LabelNode::Kind::Scalar, "S", edge, input, parent);
      return success();
    }
    unsigned node = add(LabelNode::Kind::Input, "I", edge, input, parent);
    unsigned depth = tree.nodes[node].depth;
    tree.nodes[node].rank = map.getNumResults();
    // Iterator operand j -> dimension "parent moves to its defining node".
    SmallVector<AffineExpr> replacements;
    SmallVector<unsigned> distances;
    for (Value iterator : input.getIterators()) {
      Operation *owner =
          cast<BlockArgument>(iterator).getOwner()->getParentOp();
      auto it = llvm::find_if(ancestors,
                              [&](auto entry) { return entry.first == owner; });
      if (it == ancestors.end())
        return input.emitOpError("uses an iterator of no enclosing node");
      unsigned distance = depth - tree.nodes[it->second].depth;
      distances.push_back(distance);
      // An intrinsic's strided reduction (§3.1.1) counts steps: its
      // iterator z stands for stride * step, so the leaf says how far apart
      // the reads are, as an operator's scaled access does.
      AffineExpr step = getAffineDimExpr(distance, input.getContext());
      int64_t stride = intrinsic && isa<ReduceOp>(owner)
                           ? getReductionStride(owner).value_or(1)
                           : 1;
      replacements.push_back(stride == 1 ? step : step * stride);
    }
    for (auto [dim, expr] : llvm::enumerate(map.getResults())) {
      AffineExpr replaced = expr.replaceDims(replacements);
      std::string text;
      llvm::raw_string_ostream os(text);
      os << "a:" << replaced;
      unsigned rank = map.getNumResults();
      unsigned leaf = add(LabelNode::Kind::Access, text,
                          "d" + std::to_string(rank - 1 - dim), nullptr, node);
      // Distances are at least 1 (an ancestor defines the iterator); 0
      // means the dimension uses no iterator.
      unsigned minDistance = 0;
      for (auto [operand, distance] : llvm::enumerate(distances))
        if (expr.isFunctionOfDim(operand))
          minDistance =
              minDistance == 0 ? distance : std::min(minDistance, distance);
      tree.nodes[leaf].dim = dim;
      tree.nodes[leaf].minDistance = minDistance;
      for (auto [operand, distance] : llvm::enumerate(distances))
        if (expr.isFunctionOfDim(operand))
          tree.nodes[leaf].distances.push_back(distance);
    }
    finish(node);
    return success();
  }

  LabelTree &tree;
  bool intrinsic;
  SmallVector<std::pair<Operation *, unsigned>> ancestors;
};

} // namespace

FailureOr<LabelTree> raf::tcg::topdown::buildLabelTree(KernelOp kernel,
                                                       bool intrinsic) {
  LabelTree tree;
  tree.name = kernel.getKernelName().value_or("kernel").str();
  LabelNode root;
  root.label = "K";
  tree.nodes.push_back(root);
  tree.subtreeEnd.push_back(1);
  TreeBuilder builder(tree, intrinsic);
  for (TensorOp computation : kernel.getBodyBlock().getOps<TensorOp>())
    if (failed(builder.visitTensor(computation, "", 0)))
      return failure();
  tree.subtreeEnd[0] = tree.nodes.size();
  return tree;
}

unsigned raf::tcg::topdown::getNumHidden(unsigned mask) {
  return llvm::popcount(mask);
}

bool LabelTree::isLeaf(unsigned node, ArrayRef<unsigned> mask) const {
  const LabelNode &n = nodes[node];
  return n.children.empty() ||
         (n.kind == LabelNode::Kind::Input && !mask.empty() &&
          getNumHidden(mask[node]) == n.rank);
}

StringRef LabelTree::getLabel(unsigned node, ArrayRef<unsigned> mask) const {
  // An input with every dimension masked is read at one point per
  // instruction: a scalar operand.
  if (nodes[node].kind == LabelNode::Kind::Input && isLeaf(node, mask))
    return "S";
  return nodes[node].label;
}

bool LabelTree::isMasked(unsigned node, ArrayRef<unsigned> mask) const {
  const LabelNode &n = nodes[node];
  if (n.kind != LabelNode::Kind::Access || mask.empty())
    return false;
  return (mask[n.parent] >> n.dim) & 1;
}

std::string LabelTree::getEdge(unsigned node, ArrayRef<unsigned> mask) const {
  const LabelNode &n = nodes[node];
  if (n.kind != LabelNode::Kind::Access || mask.empty() || !mask[n.parent])
    return n.edge;
  // Count the visible dimensions inside this one.
  unsigned rank = nodes[n.parent].rank, inner = 0;
  for (unsigned dim = n.dim + 1; dim < rank; ++dim)
    if (!((mask[n.parent] >> dim) & 1))
      ++inner;
  return "d" + std::to_string(inner);
}

SmallVector<unsigned, 8>
raf::tcg::topdown::getMaskOptions(const LabelTree &tree, unsigned input,
                                  bool selective) {
  const LabelNode &n = tree.nodes[input];
  unsigned rank = n.rank;
  unsigned lowest = rank > 2 ? rank - 2 : 0;
  SmallVector<unsigned, 8> options;
  if (!selective) {
    for (unsigned count = lowest; count <= rank; ++count)
      options.push_back((1u << count) - 1);
    return options;
  }
  // The parent moves from the input to the nearest tensor or reduction.
  unsigned nearest = 0;
  for (int node = input; node > 0; node = tree.nodes[node].parent, ++nearest)
    if (tree.nodes[node].kind == LabelNode::Kind::Tensor ||
        tree.nodes[node].kind == LabelNode::Kind::Reduce)
      break;
  unsigned fixed = 0;
  for (unsigned child : n.children)
    if (llvm::is_contained(tree.nodes[child].distances, nearest))
      fixed |= 1u << tree.nodes[child].dim;
  for (unsigned mask = 0; mask < (1u << rank); ++mask)
    if (!(mask & fixed) && getNumHidden(mask) >= lowest)
      options.push_back(mask);
  return options;
}

std::vector<std::vector<std::string>>
LabelTree::getPaths(unsigned top, ArrayRef<unsigned> mask) const {
  std::vector<std::vector<std::string>> paths;
  std::vector<std::string> current = {getLabel(top, mask).str()};
  std::function<void(unsigned)> walk = [&](unsigned node) {
    if (isLeaf(node, mask)) {
      paths.push_back(current);
      return;
    }
    for (unsigned child : nodes[node].children) {
      if (isMasked(child, mask))
        continue;
      current.push_back(getEdge(child, mask));
      current.push_back(getLabel(child, mask).str());
      walk(child);
      current.pop_back();
      current.pop_back();
    }
  };
  walk(top);
  return paths;
}

//===----------------------------------------------------------------------===//
// The Aho-Corasick automaton (§3.2.1, §3.2.2)
//===----------------------------------------------------------------------===//

namespace {

/// The element type a label-tree node stands for: a computation's elements,
/// an operand read or a constant; none for other nodes.
Type getElementType(Operation *op) {
  if (auto tensor = dyn_cast_or_null<TensorOp>(op))
    return tensor.getType().getElementType();
  if (isa_and_nonnull<InputOp, ConstantOp>(op))
    return op->getResult(0).getType();
  return {};
}

} // namespace

bool Matcher::typesAgree(const LabelTree &tree, unsigned root,
                         ArrayRef<unsigned> masking,
                         const Intrinsic &intrinsic) const {
  if (!checkElementTypes)
    return true;
  if (getElementType(tree.nodes[root].op) != intrinsic.resultType)
    return false;
  for (unsigned node = root + 1; node != tree.subtreeEnd[root]; ++node) {
    const LabelNode &n = tree.nodes[node];
    if ((n.kind == LabelNode::Kind::Input ||
         n.kind == LabelNode::Kind::Scalar) &&
        !llvm::is_contained(intrinsic.operandTypes, getElementType(n.op)))
      return false;
  }
  return true;
}

unsigned Matcher::intern(const std::string &token) {
  return tokens.try_emplace(token, tokens.size()).first->second;
}

int Matcher::lookupToken(const std::string &token) const {
  auto it = tokens.find(token);
  return it == tokens.end() ? -1 : static_cast<int>(it->second);
}

void Matcher::addIntrinsic(const LabelTree &tree) {
  unsigned index = intrinsics.size();
  unsigned top = tree.nodes[0].children.front();
  std::vector<std::vector<std::string>> paths = tree.getPaths(top);
  Intrinsic intrinsic{tree.name, static_cast<unsigned>(paths.size()), {}};
  intrinsic.resultType = getElementType(tree.nodes[top].op);
  for (const LabelNode &node : tree.nodes)
    if (Type type = getElementType(node.op);
        type && node.op != tree.nodes[top].op &&
        !llvm::is_contained(intrinsic.operandTypes, type))
      intrinsic.operandTypes.push_back(type);
  for (unsigned node = top, depth = 0;
       tree.nodes[node].kind == LabelNode::Kind::Tensor; ++depth) {
    if (cast<TensorOp>(tree.nodes[node].op).getExtent() == 1)
      intrinsic.unitTensorDepths.push_back(depth);
    node = tree.nodes[node].children.front();
  }
  intrinsics.push_back(std::move(intrinsic));
  for (auto [pathIndex, path] : llvm::enumerate(paths)) {
    unsigned state = 0;
    for (const std::string &token : path) {
      unsigned id = intern(token);
      auto it = transitions[state].find(id);
      if (it != transitions[state].end()) {
        state = it->second;
        continue;
      }
      unsigned next = transitions.size();
      transitions[state][id] = next;
      transitions.emplace_back();
      failure.push_back(0);
      outputs.emplace_back();
      state = next;
    }
    outputs[state].push_back({index, static_cast<unsigned>(pathIndex),
                              static_cast<unsigned>(path.size())});
  }
}

void Matcher::finalize() {
  // Breadth first: a state's failure link is the longest proper suffix of
  // its string that is a prefix of some pattern; outputs accumulate along
  // the links.
  std::deque<unsigned> queue;
  for (auto [token, next] : transitions[0]) {
    failure[next] = 0;
    queue.push_back(next);
  }
  while (!queue.empty()) {
    unsigned state = queue.front();
    queue.pop_front();
    for (auto [token, next] : transitions[state]) {
      unsigned link = failure[state];
      while (link != 0 && !transitions[link].count(token))
        link = failure[link];
      auto it = transitions[link].find(token);
      failure[next] =
          it != transitions[link].end() && it->second != next ? it->second : 0;
      llvm::append_range(outputs[next], outputs[failure[next]]);
      queue.push_back(next);
    }
  }
}

int Matcher::step(unsigned state, int token) const {
  if (token < 0)
    return 0;
  while (true) {
    auto it = transitions[state].find(token);
    if (it != transitions[state].end())
      return it->second;
    if (state == 0)
      return 0;
    state = failure[state];
  }
}

std::vector<Match> Matcher::match(const LabelTree &tree,
                                  ArrayRef<unsigned> masking,
                                  unsigned computation) const {
  // (root, intrinsic) -> matched intrinsic paths and operator leaves.
  std::map<std::pair<unsigned, unsigned>,
           std::pair<std::set<unsigned>, std::set<unsigned>>>
      found;
  // Token positions along the current path: the node of a node label, -1
  // for an edge label.
  std::vector<int> positions;
  std::function<void(unsigned, unsigned)> walk = [&](unsigned node,
                                                     unsigned state) {
    const LabelNode &n = tree.nodes[node];
    unsigned pushed = 0;
    if (n.parent > 0) {
      state = step(state, lookupToken(tree.getEdge(node, masking)));
      positions.push_back(-1);
      ++pushed;
    }
    state = step(state, lookupToken(tree.getLabel(node, masking).str()));
    positions.push_back(node);
    ++pushed;
    if (tree.isLeaf(node, masking)) {
      for (const Output &out : outputs[state]) {
        int root = positions[positions.size() - out.length];
        auto &entry = found[{static_cast<unsigned>(root), out.intrinsic}];
        entry.first.insert(out.path);
        entry.second.insert(node);
      }
    }
    // Right-to-left pre-order (§3.2.2); the order does not change the
    // counts.
    if (!tree.isLeaf(node, masking))
      for (unsigned child : llvm::reverse(n.children))
        if (!tree.isMasked(child, masking))
          walk(child, state);
    positions.resize(positions.size() - pushed);
  };
  for (unsigned top : tree.nodes[0].children)
    if (computation == 0 || top == computation)
      walk(top, 0);

  std::vector<Match> matches;
  for (auto &[key, entry] : found) {
    auto [root, intrinsic] = key;
    // Condition (1): every path of the intrinsic matched here.
    if (entry.first.size() != intrinsics[intrinsic].numPaths)
      continue;
    // Condition (2): every (unmasked) leaf below the root matched, and
    // masked dimensions only use iterators defined above the root.
    unsigned leaves = 0, covered = 0;
    bool validMask = true;
    Masking relevant(tree.nodes.size(), 0);
    for (unsigned node = root; node != tree.subtreeEnd[root]; ++node) {
      const LabelNode &n = tree.nodes[node];
      if (tree.isMasked(node, masking)) {
        unsigned input = n.parent;
        relevant[input] = masking[input];
        unsigned span = tree.nodes[input].depth - tree.nodes[root].depth;
        for (unsigned distance : n.distances)
          if (distance <= span &&
              !llvm::is_contained(intrinsics[intrinsic].unitTensorDepths,
                                  span - distance))
            validMask = false;
        continue;
      }
      ++covered;
      if (tree.isLeaf(node, masking))
        ++leaves;
    }
    if (!validMask || entry.second.size() != leaves ||
        !typesAgree(tree, root, masking, intrinsics[intrinsic]))
      continue;
    matches.push_back({intrinsic, root, std::move(relevant), covered});
  }
  return matches;
}

std::vector<Match> Matcher::matchAllMaskings(const LabelTree &tree,
                                             unsigned maxMaskings,
                                             bool &truncated,
                                             bool selective) const {
  truncated = false;
  SmallVector<unsigned> inputs;
  std::vector<SmallVector<unsigned, 8>> options;
  for (auto [index, node] : llvm::enumerate(tree.nodes))
    if (node.kind == LabelNode::Kind::Input) {
      inputs.push_back(index);
      options.push_back(getMaskOptions(tree, index, selective));
    }
  Masking masking(tree.nodes.size(), 0);
  SmallVector<unsigned> choice(inputs.size(), 0);
  for (auto [position, input] : llvm::enumerate(inputs))
    masking[input] = options[position].front();

  std::set<std::tuple<unsigned, unsigned, std::vector<unsigned>>> seen;
  std::vector<Match> all;
  for (unsigned count = 0;; ++count) {
    if (count == maxMaskings) {
      truncated = true;
      break;
    }
    for (Match &m : match(tree, masking)) {
      auto key = std::make_tuple(
          m.intrinsic, m.root,
          std::vector<unsigned>(m.masking.begin(), m.masking.end()));
      if (seen.insert(key).second)
        all.push_back(std::move(m));
    }
    // The next masking, mixed radix over the inputs.
    unsigned position = 0;
    for (; position != inputs.size(); ++position) {
      unsigned input = inputs[position];
      if (++choice[position] < options[position].size()) {
        masking[input] = options[position][choice[position]];
        break;
      }
      choice[position] = 0;
      masking[input] = options[position].front();
    }
    if (position == inputs.size())
      break;
  }
  return all;
}

//===----------------------------------------------------------------------===//
// Selection (§3.2.3, Alg. 1, Eq. 3.4)
//===----------------------------------------------------------------------===//

Selection raf::tcg::topdown::select(const LabelTree &tree,
                                    ArrayRef<Match> matches) {
  unsigned size = tree.nodes.size();
  std::vector<SmallVector<unsigned, 2>> at(size);
  for (auto [index, m] : llvm::enumerate(matches))
    at[m.root].push_back(index);

  // best[i]: the best selection among nodes i.. in pre-order, where a match
  // at i continues after its subtree (the continuation) and the null
  // pattern continues at i + 1. Only the best selection per continuation
  // is kept, so each index is solved once; the terminal case (i == size)
  // is the empty selection (Alg. 1's lines 2-3 index past the end).
  struct Best {
    unsigned covered = 0, count = 0;
    int choice = -1;
  };
  std::vector<Best> best(size + 1);
  for (unsigned i = size; i-- > 1;) {
    best[i] = best[i + 1];
    best[i].choice = -1;
    for (unsigned index : at[i]) {
      const Match &m = matches[index];
      const Best &rest = best[tree.subtreeEnd[i]];
      unsigned covered = m.covered + rest.covered;
      unsigned count = rest.count + 1;
      if (covered > best[i].covered ||
          (covered == best[i].covered && count < best[i].count)) {
        best[i] = {covered, count, static_cast<int>(index)};
      }
    }
  }

  Selection selection;
  selection.total = size;
  std::vector<bool> inside(size, false);
  for (unsigned i = 1; i < size;) {
    if (best[i].choice < 0) {
      ++i;
      continue;
    }
    const Match &m = matches[best[i].choice];
    selection.matches.push_back(m);
    selection.covered += m.covered;
    for (unsigned node = i; node != tree.subtreeEnd[i]; ++node)
      inside[node] = true;
    i = tree.subtreeEnd[i];
  }
  for (auto [index, node] : llvm::enumerate(tree.nodes)) {
    if (node.kind != LabelNode::Kind::Compute &&
        node.kind != LabelNode::Kind::Reduce)
      continue;
    ++selection.algebraicTotal;
    if (inside[index])
      ++selection.algebraicCovered;
  }
  return selection;
}

//===----------------------------------------------------------------------===//
// Intrinsic sizes (§3.1.2)
//===----------------------------------------------------------------------===//

bool IntrinsicSizes::contains(int64_t size) const {
  if (isVariable())
    return lower <= size && size <= upper;
  return llvm::is_contained(sizes, size);
}

int64_t IntrinsicSizes::choose(int64_t extent) const {
  auto executed = [&](int64_t size) {
    return (extent + size - 1) / size * size;
  };
  if (isVariable()) {
    // One instruction when the extent fits (padded up to the lower bound);
    // otherwise the size with the least padding, scanning down from the
    // upper bound so that ties keep the larger size.
    if (extent <= upper)
      return std::max(extent, lower);
    int64_t best = upper;
    for (int64_t size = upper - 1;
         size >= lower && upper - size <= (int64_t(1) << 16); --size)
      if (executed(size) < executed(best))
        best = size;
    return best;
  }
  int64_t best = sizes.back();
  for (int64_t size : llvm::reverse(sizes))
    if (executed(size) < executed(best))
      best = size;
  return best;
}

FailureOr<int64_t> raf::tcg::topdown::getReductionStride(Operation *op) {
  Attribute attr = op->getAttr(kStrideAttrName);
  if (!attr)
    return 1;
  auto stride = dyn_cast<IntegerAttr>(attr);
  // getInt() reads signless integers only.
  if (!isa<ReduceOp>(op) || !stride || !stride.getType().isSignlessInteger() ||
      stride.getInt() < 1)
    return failure();
  return stride.getInt();
}

bool raf::tcg::topdown::hasReductionStride(KernelOp kernel) {
  return kernel
      .walk([](ReduceOp reduce) {
        return reduce->hasAttr(kStrideAttrName) ? WalkResult::interrupt()
                                                : WalkResult::advance();
      })
      .wasInterrupted();
}

LogicalResult raf::tcg::topdown::verifyReductionStride(Operation *op) {
  if (succeeded(getReductionStride(op)))
    return success();
  if (!isa<ReduceOp>(op))
    return op->emitError() << "'" << kStrideAttrName
                           << "' belongs to a tcg.reduce (a reduction "
                              "stride, Rieber 2022, §3.1.1)";
  return op->emitError() << "'" << kStrideAttrName
                         << "' must be a signless integer >= 1, e.g. 2 : i64";
}

FailureOr<int64_t> raf::tcg::topdown::getNumPoints(Operation *op) {
  int64_t extent = isa<TensorOp>(op) ? cast<TensorOp>(op).getExtent()
                                     : cast<ReduceOp>(op).getExtent();
  FailureOr<int64_t> stride = getReductionStride(op);
  if (failed(stride))
    return failure();
  return (extent + *stride - 1) / *stride;
}

FailureOr<IntrinsicSizes> raf::tcg::topdown::getIntrinsicSizes(Operation *op) {
  if (!isa<TensorOp, ReduceOp>(op))
    return op->emitError() << "sizes belong to a tcg.tensor or tcg.reduce";
  if (failed(verifyReductionStride(op)))
    return failure();
  int64_t extent = *getNumPoints(op);
  auto sizes = op->getAttrOfType<DenseI64ArrayAttr>(kSizesAttrName);
  auto range = op->getAttrOfType<DenseI64ArrayAttr>(kSizeRangeAttrName);
  for (StringRef name : {kSizesAttrName, kSizeRangeAttrName})
    if (op->hasAttr(name) && !op->getAttrOfType<DenseI64ArrayAttr>(name))
      return op->emitError() << "'" << name << "' must be an array<i64: ...>";
  IntrinsicSizes result;
  if (sizes && range)
    return op->emitError() << "an intrinsic iterator has either '"
                           << kSizesAttrName << "' (several sizes) or '"
                           << kSizeRangeAttrName << "' (a variable size)";
  if (range) {
    if (range.size() != 2 || range[0] < 1 || range[0] > range[1])
      return op->emitError()
             << "'" << kSizeRangeAttrName
             << "' must be [lower, upper] with 1 <= lower <= upper";
    result.lower = range[0];
    result.upper = range[1];
  } else if (sizes) {
    for (auto [index, size] : llvm::enumerate(sizes.asArrayRef()))
      if (size < 1 || (index != 0 && size <= sizes[index - 1]))
        return op->emitError() << "'" << kSizesAttrName
                               << "' must list positive sizes in ascending "
                                  "order";
    result.sizes.assign(sizes.asArrayRef().begin(), sizes.asArrayRef().end());
  } else {
    result.sizes.push_back(extent);
  }
  if (!result.contains(extent))
    return op->emitError() << "the written extent " << extent
                           << " is not one of the iterator's sizes";
  return result;
}

LogicalResult raf::tcg::topdown::verifyIntrinsicSizes(KernelOp kernel) {
  WalkResult walk = kernel.walk([](Operation *op) {
    if (!isa<TensorOp, ReduceOp>(op))
      return WalkResult::advance();
    return failed(getIntrinsicSizes(op)) ? WalkResult::interrupt()
                                         : WalkResult::advance();
  });
  return failure(walk.wasInterrupted());
}

SmallVector<Operation *> raf::tcg::topdown::getIntrinsicIterators(KernelOp kernel) {
  SmallVector<Operation *> tensors, reductions;
  kernel.getRootTensor().walk<WalkOrder::PreOrder>([&](Operation *op) {
    if (isa<TensorOp>(op))
      tensors.push_back(op);
    else if (isa<ReduceOp>(op))
      reductions.push_back(op);
  });
  llvm::append_range(tensors, reductions);
  return tensors;
}

bool raf::tcg::topdown::instantiateIntrinsic(KernelOp kernel,
                                             ArrayRef<int64_t> extents,
                                             embed::TensorExpression &intrinsic,
                                             std::string &error) {
  SmallVector<Operation *> iterators = getIntrinsicIterators(kernel);
  if (iterators.size() != intrinsic.Iterators.size() ||
      extents.size() != iterators.size()) {
    error = "'" + intrinsic.Name + "' has " +
            std::to_string(intrinsic.Iterators.size()) + " iterators";
    return false;
  }
  // Strided reductions (§3.1.1), by iterator.
  SmallVector<std::pair<unsigned, int64_t>> strided;
  for (auto [q, op] : llvm::enumerate(iterators)) {
    int64_t extent = extents[q];
    embed::Iterator &it = intrinsic.Iterators[q];
    FailureOr<int64_t> stride = getReductionStride(op);
    if (failed(stride)) {
      error = "'" + intrinsic.Name + "' has a malformed stride on " + it.Name;
      return false;
    }
    // A strided reduction iterates its steps.
    if (*stride != 1) {
      it.Extent = *getNumPoints(op);
      strided.push_back({q, *stride});
    }
    // Fixed-size iterators keep their extent (a mismatch is the strategy
    // derivation's error).
    if (extent == it.Extent ||
        (!op->hasAttr(kSizesAttrName) && !op->hasAttr(kSizeRangeAttrName)))
      continue;
    FailureOr<IntrinsicSizes> sizes = getIntrinsicSizes(op);
    if (failed(sizes) || !sizes->contains(extent)) {
      error = "'" + intrinsic.Name + "' has no instance with " + it.Name +
              " of size " + std::to_string(extent);
      return false;
    }
    it.Extent = extent;
    // The operand dimensions that iterator indexes by itself (a strided
    // one's are split below).
    auto resize = [&](embed::Operand &operand) {
      for (auto [k, expr] : llvm::enumerate(operand.Access.getResults()))
        if (auto dim = dyn_cast<AffineDimExpr>(expr);
            dim && dim.getPosition() == q)
          operand.Shape[k] = extent;
    };
    for (embed::Operand &operand : intrinsic.Inputs)
      resize(operand);
    resize(intrinsic.Output);
  }
  // A strided reduction's read x[z] reads x[stride * z]: the dimension z
  // indexes is stored as [points, stride] and read at [z, 0], the same
  // memory (element stride * z) with bare iterators and a constant, which
  // the strategy derivation packs (the operator's element at column 0,
  // padded with zeros to the stride, as the instruction skips them).
  for (auto [q, stride] : strided) {
    for (embed::Operand &operand : intrinsic.Inputs) {
      MLIRContext *context = operand.Access.getContext();
      AffineExpr iterator = getAffineDimExpr(q, context);
      if (!operand.Access.isFunctionOfDim(q))
        continue;
      if (!operand.PadLow.empty() || !operand.PadHigh.empty() ||
          !operand.Dilation.empty()) {
        error = "'" + intrinsic.Name + "' reads operand '" + operand.Name +
                "' of its strided reduction " + intrinsic.Iterators[q].Name +
                " through a view";
        return false;
      }
      SmallVector<AffineExpr> results;
      SmallVector<int64_t> shape;
      for (auto [k, expr] : llvm::enumerate(operand.Access.getResults())) {
        if (expr != iterator) {
          if (expr.isFunctionOfDim(q)) {
            error = "'" + intrinsic.Name + "' reads operand '" + operand.Name +
                    "' at an expression of its strided reduction " +
                    intrinsic.Iterators[q].Name +
                    "; a strided iterator must index a dimension by itself";
            return false;
          }
          results.push_back(expr);
          shape.push_back(operand.Shape[k]);
          continue;
        }
        results.push_back(iterator);
        results.push_back(getAffineConstantExpr(0, context));
        shape.push_back(intrinsic.Iterators[q].Extent);
        shape.push_back(stride);
      }
      operand.Access =
          AffineMap::get(operand.Access.getNumDims(), 0, results, context);
      operand.Shape = std::move(shape);
    }
  }
  return true;
}

bool raf::tcg::topdown::instantiateForEmbedding(
    KernelOp kernel, const embed::Embedding &emb,
    embed::TensorExpression &intrinsic, std::string &error) {
  SmallVector<int64_t> extents;
  for (const embed::AxisMappings &axis : emb.Iterators) {
    int64_t points = 1;
    for (const embed::AxisMapping &mapped : axis)
      points *= mapped.Length;
    extents.push_back(points);
  }
  return instantiateIntrinsic(kernel, extents, intrinsic, error);
}
