//===- InterpreterMemoryTest.cpp - live-buffer measurement ----------------===//
//
// Memory tracking of the reference evaluator: results are the same with and
// without it, buffers held only by closures and reference cells are counted
// (and a cell reachable from itself does not loop), and the trace covers the
// top-level function only. The hand-worked vectors of the plain data flow
// (tuples, unused results, relay.if, calls) are in
// test/Runtime/interp-memory.mlir.
//
//===----------------------------------------------------------------------===//

#include "InterpreterFixture.h"

#include "raf/Dialect/Relay/IR/RelayOps.h"

#include <cstring>
#include <string>

using namespace mlir;
using namespace raf::runtime;

namespace {

class InterpreterMemoryTest : public InterpreterFixture {
protected:
  /// Runs `function` with memory tracking set as given; the measurements
  /// are left in `stats`.
  FailureOr<SmallVector<RuntimeValue>>
  run(llvm::StringRef function, llvm::ArrayRef<RuntimeValue> arguments,
      bool track, bool trace = false) {
    return runWith(
        function, arguments,
        [&](Interpreter &interpreter) {
          interpreter.setTrackMemory(track, trace);
        },
        [&](Interpreter &interpreter) {
          stats = interpreter.getMemoryStats();
        });
  }

  MemoryStats stats;
};

/// A 1-D f32 tensor of `size` elements 0, 1/size, 2/size, ...
RuntimeValue ramp(int64_t size) {
  HostTensor tensor(DType::F32, {size});
  for (int64_t i = 0; i < size; ++i)
    tensor.setDouble(i, static_cast<double>(i) / size);
  return RuntimeValue(std::move(tensor));
}

RuntimeValue scalar(DType dtype, double value) {
  HostTensor tensor(dtype, {});
  tensor.setDouble(0, value);
  return RuntimeValue(std::move(tensor));
}

/// Whether two results are the same: equal bytes for tensors, field by
/// field for tuples, the same relay.fn and equal captures for closures,
/// equal contents for references, the same function for functions.
bool sameValue(const RuntimeValue &a, const RuntimeValue &b) {
  if (a.getKind() != b.getKind())
    return false;
  switch (a.getKind()) {
  case RuntimeValue::Kind::Tensor: {
    const HostTensor &x = *a.getTensor(), &y = *b.getTensor();
    return x.getTypeString() == y.getTypeString() &&
           x.getNumBytes() == y.getNumBytes() &&
           std::memcmp(x.data(), y.data(), x.getNumBytes()) == 0;
  }
  case RuntimeValue::Kind::Tuple: {
    const auto &x = *a.getTupleElements(), &y = *b.getTupleElements();
    if (x.size() != y.size())
      return false;
    for (size_t i = 0; i < x.size(); ++i)
      if (!sameValue(x[i], y[i]))
        return false;
    return true;
  }
  case RuntimeValue::Kind::Closure: {
    auto x = a.getClosureCaptures(), y = b.getClosureCaptures();
    if (a.getClosureFn() != b.getClosureFn() || x.size() != y.size())
      return false;
    for (size_t i = 0; i < x.size(); ++i)
      if (x[i].first != y[i].first || !sameValue(x[i].second, y[i].second))
        return false;
    return true;
  }
  case RuntimeValue::Kind::Reference:
    return sameValue(a.readReference(), b.readReference());
  case RuntimeValue::Kind::Function:
    return a.getFunction() == b.getFunction();
  }
  return false;
}

/// fact(n) = n <= 1 ? 1 : n * fact(n - 1), recursing through relay.if and a
/// closure of @fact: branches, closures and calls in one function.
constexpr const char *kFactorial = R"mlir(
    func.func @fact(%n: tensor<i64>) -> tensor<i64> {
      %one = relay.constant dense<1> : tensor<i64>
      %done = relay.less_equal %n, %one : (tensor<i64>, tensor<i64>)
      %r = relay.if %done : tensor<i1> -> (tensor<i64>) {
        relay.yield %one : tensor<i64>
      } else {
        %m = relay.subtract %n, %one : (tensor<i64>, tensor<i64>)
        %self = relay.global_ref @fact : (tensor<i64>) -> tensor<i64>
        %sub = relay.call %self(%m) : (tensor<i64>) -> tensor<i64>
        %p = relay.multiply %n, %sub : (tensor<i64>, tensor<i64>)
        relay.yield %p : tensor<i64>
      }
      return %r : tensor<i64>
    }
)mlir";

TEST_F(InterpreterMemoryTest, TrackingDoesNotChangeResults) {
  // Values used in branches, closures and recursive calls, and returned
  // through tuples, references and closures: dropping each value after its
  // last use must leave every result as it was.
  parse(std::string(kFactorial) + R"mlir(
    func.func @main(%x: tensor<8xf32>, %c: tensor<i1>)
        -> (tensor<i64>, tuple<tensor<8xf32>, tensor<8xf32>>,
            !relay.ref<tensor<8xf32>>, (tensor<8xf32>) -> tensor<8xf32>,
            tensor<8xf32>) {
      %six = relay.constant dense<6> : tensor<i64>
      %f = func.call @fact(%six) : (tensor<i64>) -> tensor<i64>
      %e = relay.exp %x : (tensor<8xf32>)
      %unused = relay.tanh %e : (tensor<8xf32>)
      %cell = relay.ref_new %e : tensor<8xf32>
      %add = relay.fn(%a: tensor<8xf32>) -> tensor<8xf32> {
        %v = relay.ref_read %cell : !relay.ref<tensor<8xf32>>
        %s = relay.add %a, %v : (tensor<8xf32>, tensor<8xf32>)
        relay.ref_write %cell, %s : !relay.ref<tensor<8xf32>>
        %w = relay.multiply %s, %e : (tensor<8xf32>, tensor<8xf32>)
        relay.return %w : tensor<8xf32>
      }
      %y = relay.call %add(%x) : (tensor<8xf32>) -> tensor<8xf32>
      %r = relay.if %c : tensor<i1> -> (tensor<8xf32>) {
        %t = relay.sigmoid %y : (tensor<8xf32>)
        %u = relay.call %add(%t) : (tensor<8xf32>) -> tensor<8xf32>
        relay.yield %u : tensor<8xf32>
      } else {
        relay.yield %e : tensor<8xf32>
      }
      %pair = relay.tuple(%r, %y) : tensor<8xf32>, tensor<8xf32>
      %first = relay.tuple_get %pair[0] : tuple<tensor<8xf32>, tensor<8xf32>>
      %z = relay.subtract %first, %x : (tensor<8xf32>, tensor<8xf32>)
      return %f, %pair, %cell, %add, %z
          : tensor<i64>, tuple<tensor<8xf32>, tensor<8xf32>>,
            !relay.ref<tensor<8xf32>>, (tensor<8xf32>) -> tensor<8xf32>,
            tensor<8xf32>
    })mlir");
  for (bool condition : {true, false}) {
    SmallVector<RuntimeValue> arguments = {ramp(8),
                                           scalar(DType::Bool, condition)};
    auto plain = run("main", arguments, /*track=*/false);
    ASSERT_TRUE(succeeded(plain)) << diagnostics;
    EXPECT_EQ(stats.numSamples, 0u);
    for (bool trace : {false, true}) {
      auto tracked = run("main", arguments, /*track=*/true, trace);
      ASSERT_TRUE(succeeded(tracked)) << diagnostics;
      ASSERT_EQ(plain->size(), tracked->size());
      for (size_t i = 0; i < plain->size(); ++i)
        EXPECT_TRUE(sameValue((*plain)[i], (*tracked)[i]))
            << "result #" << i << " differs with memory tracking on";
      EXPECT_GT(stats.numSamples, 1u);
      EXPECT_EQ(stats.trace.size(), trace ? 11u : 0u);
    }
  }
}

TEST_F(InterpreterMemoryTest, ClosureCapturesAreCounted) {
  // X = 1024 f32 = 4096 bytes. %big's SSA value goes after relay.fn (its
  // last user), but the closure still holds the buffer.
  parse(R"mlir(
    func.func @main(%x: tensor<1024xf32>) -> tensor<1024xf32> {
      %big = relay.exp %x : (tensor<1024xf32>)
      %f = relay.fn(%a: tensor<1024xf32>) -> tensor<1024xf32> {
        %s = relay.add %a, %big : (tensor<1024xf32>, tensor<1024xf32>)
        relay.return %s : tensor<1024xf32>
      }
      %y = relay.negative %x : (tensor<1024xf32>)
      %r = relay.call %f(%y) : (tensor<1024xf32>) -> tensor<1024xf32>
      %z = relay.tanh %r : (tensor<1024xf32>)
      return %z : tensor<1024xf32>
    })mlir");
  auto results = run("main", {ramp(1024)}, /*track=*/true, /*trace=*/true);
  ASSERT_TRUE(succeeded(results)) << diagnostics;
  constexpr int64_t kX = 4096;
  EXPECT_EQ(stats.argumentBytes, kX);
  // exp: x big; fn: x big (through the closure); negative: x big y;
  // call: x big y r, then f and y go; tanh: x r z.
  std::vector<int64_t> expected = {2 * kX, 2 * kX, 3 * kX, 4 * kX, 3 * kX};
  ASSERT_EQ(stats.trace.size(), expected.size());
  for (size_t i = 0; i < expected.size(); ++i)
    EXPECT_EQ(stats.trace[i].liveBytes, expected[i]) << "op #" << i;
  // Inside the closure, the caller's x, big and y and the callee's s: the
  // peak is first reached there.
  EXPECT_EQ(stats.peakBytes, 4 * kX);
  ASSERT_NE(stats.peakOp, nullptr);
  EXPECT_TRUE(isa<raf::relay::AddOp>(stats.peakOp));
  EXPECT_TRUE(isa<raf::relay::FnOp>(stats.peakOp->getParentOp()));
  EXPECT_EQ(stats.peakLocation, stats.peakOp->getLoc());
  // The entry sample and one per op executed: 5 top-level ops and 1 inside
  // the closure.
  EXPECT_EQ(stats.numSamples, 7u);
}

TEST_F(InterpreterMemoryTest, ReferenceCellsAreCountedOnce) {
  // After the write, the cell holds a closure that captures the cell: the
  // walk over live values must stop there. big is reached through %cell,
  // %f and the closure in the cell, and counts once.
  parse(R"mlir(
    func.func @main(%x: tensor<1024xf32>) -> tensor<1024xf32> {
      %id = relay.fn(%a: tensor<1024xf32>) -> tensor<1024xf32> {
        relay.return %a : tensor<1024xf32>
      }
      %cell = relay.ref_new %id : (tensor<1024xf32>) -> tensor<1024xf32>
      %big = relay.exp %x : (tensor<1024xf32>)
      %f = relay.fn(%a: tensor<1024xf32>) -> tensor<1024xf32> {
        %g = relay.ref_read %cell
            : !relay.ref<(tensor<1024xf32>) -> tensor<1024xf32>>
        %s = relay.add %a, %big : (tensor<1024xf32>, tensor<1024xf32>)
        relay.return %s : tensor<1024xf32>
      }
      relay.ref_write %cell, %f
          : !relay.ref<(tensor<1024xf32>) -> tensor<1024xf32>>
      %h = relay.ref_read %cell
          : !relay.ref<(tensor<1024xf32>) -> tensor<1024xf32>>
      %r = relay.call %h(%x) : (tensor<1024xf32>) -> tensor<1024xf32>
      return %r : tensor<1024xf32>
    })mlir");
  auto results = run("main", {ramp(1024)}, /*track=*/true, /*trace=*/true);
  ASSERT_TRUE(succeeded(results)) << diagnostics;
  constexpr int64_t kX = 4096;
  // fn, ref_new: x; exp: x big; fn, ref_write, ref_read: x big; call: x big
  // (the cell still holds the closure) r.
  std::vector<int64_t> expected = {kX,     kX,     2 * kX, 2 * kX,
                                   2 * kX, 2 * kX, 3 * kX};
  ASSERT_EQ(stats.trace.size(), expected.size());
  for (size_t i = 0; i < expected.size(); ++i)
    EXPECT_EQ(stats.trace[i].liveBytes, expected[i]) << "op #" << i;
  EXPECT_EQ(stats.peakBytes, 3 * kX);
}

TEST_F(InterpreterMemoryTest, TraceCoversTheTopLevelFunctionOnly) {
  // fact(4) recurses through the same block; only the outermost
  // activation's ops are traced, the others are sampled.
  parse(kFactorial);
  auto results =
      run("fact", {scalar(DType::I64, 4)}, /*track=*/true, /*trace=*/true);
  ASSERT_TRUE(succeeded(results)) << diagnostics;
  EXPECT_EQ((*results)[0].getTensor()->getInt(0), 24);
  ASSERT_EQ(stats.trace.size(), 3u);
  EXPECT_TRUE(isa<raf::relay::ConstantOp>(stats.trace[0].op));
  EXPECT_TRUE(isa<raf::relay::LessEqualOp>(stats.trace[1].op));
  EXPECT_TRUE(isa<raf::relay::IfOp>(stats.trace[2].op));
  // n = 4, 3, 2 take the else branch (3 top-level ops + 4 in the branch),
  // n = 1 the then branch (3 ops): 1 + 3 * 7 + 3 samples.
  EXPECT_EQ(stats.numSamples, 25u);
  // Deepest point, inside fact(1) after less_equal: each of the four
  // activations holds n, one and done (8 + 8 + 1 bytes), and the three
  // outer ones also m, which is the next one's n (shared), and self (no
  // bytes): 4 * 17 = 68.
  EXPECT_EQ(stats.peakBytes, 68);
  // A tracked run after an untracked one starts from scratch.
  Interpreter interpreter(module.get());
  interpreter.setTrackMemory(true);
  ASSERT_TRUE(succeeded(interpreter.run("fact", {scalar(DType::I64, 4)})));
  interpreter.setTrackMemory(false);
  ASSERT_TRUE(succeeded(interpreter.run("fact", {scalar(DType::I64, 4)})));
  EXPECT_EQ(interpreter.getMemoryStats().numSamples, 0u);
  EXPECT_EQ(interpreter.getMemoryStats().peakBytes, 0);
}

} // namespace
