// Structure of the gradient code --raf-autodiff generates (cf. RAF's
// src/pass/gradient.cc).
// RUN: raf-opt --raf-autodiff %s | FileCheck %s --check-prefix=CLOSURE
// RUN: raf-opt --raf-autodiff="inline-backward=true" %s | FileCheck %s --check-prefix=INLINE
// RUN: raf-opt --raf-autodiff="entry=fan_out inline-backward=true" %s | FileCheck %s --check-prefix=FANOUT
// RUN: raf-opt --raf-autodiff="entry=split_unused inline-backward=true" %s | FileCheck %s --check-prefix=SPLIT
// RUN: raf-opt --raf-autodiff="entry=main requires-grad=2 inline-backward=true" %s | FileCheck %s --check-prefix=SELECT
// RUN: raf-opt --raf-autodiff="entry=saved inline-backward=true" %s | FileCheck %s --check-prefix=SAVED

// The C3 example: the closure captures the forward values it needs.
// CLOSURE-LABEL: func.func @main(
// CLOSURE-SAME: -> (tensor<f32>, (tensor<f32>) -> tuple<tensor<2x2xf32>, tensor<2x2xf32>>)
// CLOSURE-SAME: raf.grad_params = array<i64: 0, 2>
// CLOSURE: %[[A1:.*]] = relay.nn.matmul %arg0, %arg2
// CLOSURE: %[[A2:.*]] = relay.nn.log_softmax %[[A1]]
// CLOSURE: %[[LOSS:.*]] = relay.nn.nll_loss %[[A2]], %arg1
// CLOSURE: %[[BP:.*]] = relay.fn(%[[DY:.*]]: tensor<f32>) -> tuple<tensor<2x2xf32>, tensor<2x2xf32>>
// CLOSURE: relay.divide %[[DY]]
// CLOSURE: relay.exp %[[A2]]
// CLOSURE: %[[G:.*]] = relay.subtract
// CLOSURE: %[[GX:.*]] = relay.nn.matmul %[[G]], %arg2 {transpose_b = true}
// CLOSURE: %[[GC:.*]] = relay.nn.matmul %arg0, %[[G]] {transpose_a = true}
// CLOSURE: %[[T:.*]] = relay.tuple(%[[GX]], %[[GC]])
// CLOSURE: relay.return %[[T]]
// CLOSURE: return %[[LOSS]], %[[BP]]

// INLINE-LABEL: func.func @main(%arg0: tensor<2x2xf32>, %arg1: tensor<2xi64>, %arg2: tensor<2x2xf32>, %arg3: tensor<f32>)
// INLINE-SAME: -> (tensor<f32>, tensor<2x2xf32>, tensor<2x2xf32>)
// INLINE-NOT: relay.fn
// INLINE: %[[LOSS:.*]] = relay.nn.nll_loss
// INLINE: relay.divide %arg3
// INLINE: %[[GX:.*]] = relay.nn.matmul {{.*}} {transpose_b = true}
// INLINE: %[[GC:.*]] = relay.nn.matmul %arg0, {{.*}} {transpose_a = true}
// INLINE: return %[[LOSS]], %[[GX]], %[[GC]]
func.func @main(%x: tensor<2x2xf32>, %y_true: tensor<2xi64>, %c: tensor<2x2xf32>) -> tensor<f32> {
  %a1 = relay.nn.matmul %x, %c : (tensor<2x2xf32>, tensor<2x2xf32>)
  %a2 = relay.nn.log_softmax %a1 : (tensor<2x2xf32>)
  %a3 = relay.nn.nll_loss %a2, %y_true : (tensor<2x2xf32>, tensor<2xi64>)
  return %a3 : tensor<f32>
}

// Fan-out: x feeds both the product and the sum, so its gradient is the sum
// of three contributions accumulated with relay.add.
// FANOUT-LABEL: func.func @fan_out(%arg0: tensor<3xf32>, %arg1: tensor<f32>)
// FANOUT: %[[SQ:.*]] = relay.multiply %arg0, %arg0
// FANOUT: %[[S:.*]] = relay.add %[[SQ]], %arg0
// FANOUT: %[[L:.*]] = relay.sum %[[S]]
// FANOUT: %[[B:.*]] = relay.broadcast_to
// FANOUT: %[[M1:.*]] = relay.multiply %[[B]], %arg0
// FANOUT: %[[M2:.*]] = relay.multiply %[[B]], %arg0
// FANOUT: %[[ACC1:.*]] = relay.add %[[B]], %[[M2]]
// FANOUT: %[[ACC2:.*]] = relay.add %[[ACC1]], %[[M1]]
// FANOUT: return %[[L]], %[[ACC2]]
func.func @fan_out(%x: tensor<3xf32>) -> tensor<f32> {
  %sq = relay.multiply %x, %x : (tensor<3xf32>, tensor<3xf32>)
  %s = relay.add %sq, %x : (tensor<3xf32>, tensor<3xf32>)
  %l = relay.sum %s : (tensor<3xf32>)
  return %l : tensor<f32>
}

// A split part nobody uses contributes zeros to the concatenated gradient.
// SPLIT-LABEL: func.func @split_unused
// SPLIT: %[[P:.*]]:2 = relay.split
// SPLIT: %[[Z:.*]] = relay.zeros {dtype = f32, shape = array<i64: 2, 2>}
// SPLIT: relay.concatenate %{{.*}}, %[[Z]]
func.func @split_unused(%x: tensor<4x2xf32>) -> tensor<f32> {
  %p:2 = relay.split %x {sections = 2} : (tensor<4x2xf32>)
  %l = relay.sum %p#0 : (tensor<2x2xf32>)
  return %l : tensor<f32>
}

// requires-grad selects the arguments; only the gradient of %c is built.
// SELECT-LABEL: func.func @main
// SELECT-SAME: -> (tensor<f32>, tensor<2x2xf32>)
// SELECT-SAME: raf.grad_params = array<i64: 2>
// SELECT-NOT: transpose_b = true
// SELECT: relay.nn.matmul %arg0, {{.*}} {transpose_a = true}

// Adjoints read saved forward values: tanh's rule uses its result y, not x,
// and nothing of the forward is recomputed.
// SAVED-LABEL: func.func @saved
// SAVED: %[[Y:.*]] = relay.tanh %arg0
// SAVED-NOT: relay.tanh
// SAVED: relay.multiply %[[Y]], %[[Y]]
// SAVED-NOT: relay.tanh
// SAVED: return
func.func @saved(%x: tensor<3xf32>) -> tensor<f32> {
  %y = relay.tanh %x : (tensor<3xf32>)
  %l = relay.sum %y : (tensor<3xf32>)
  return %l : tensor<f32>
}

// With nondifferentiable=zero, argmax acts as a constant: x gets zeros.
// RUN: raf-opt --raf-autodiff="entry=stop_gradient inline-backward=true nondifferentiable=zero" %s | FileCheck %s --check-prefix=ZERO
// ZERO-LABEL: func.func @stop_gradient
// ZERO: %[[Z:.*]] = relay.zeros {dtype = f32, shape = array<i64: 3>}
// ZERO: return %{{.*}}, %[[Z]]
func.func @stop_gradient(%x: tensor<3xf32>) -> tensor<f32> {
  %i = relay.argmax %x : (tensor<3xf32>)
  %f = relay.cast %i {dtype = f32} : (tensor<i32>)
  %y = relay.multiply %f, %f : (tensor<f32>, tensor<f32>)
  return %y : tensor<f32>
}
