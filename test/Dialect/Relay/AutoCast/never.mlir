// RUN: raf-opt %s --raf-autocast=inference=true | FileCheck %s

// Category `never` (exp, softmax, log_softmax, sum, multiply, power, losses,
// tanh, rsqrt, erf, gelu): operands keep, or get back, the type they had
// before the pass. A low-precision product is cast back to f32 for them;
// f32 values are not touched.

// The product is f16; softmax (opaque), sum (reduction) and the loss share
// one cast back; exp (elementwise) and multiply (broadcast) get their own.
// CHECK-LABEL: func.func @never(
// CHECK-SAME: %[[X:.*]]: tensor<4x8xf32>, %[[W:.*]]: tensor<8x8xf32>, %[[L:.*]]: tensor<4xi64>)
// CHECK-NEXT:   %[[XH:.*]] = relay.cast %[[X]] {dtype = f16}
// CHECK-NEXT:   %[[WH:.*]] = relay.cast %[[W]] {dtype = f16}
// CHECK-NEXT:   %[[P:.*]] = relay.nn.matmul %[[XH]], %[[WH]] : {{.*}} -> tensor<4x8xf16>
// CHECK-NEXT:   %[[PF:.*]] = relay.cast %[[P]] {dtype = f32} : (tensor<4x8xf16>) -> tensor<4x8xf32>
// CHECK-NEXT:   %[[S:.*]] = relay.nn.softmax %[[PF]] : (tensor<4x8xf32>) -> tensor<4x8xf32>
// CHECK-NEXT:   %[[SUM:.*]] = relay.sum %[[PF]] : (tensor<4x8xf32>) -> tensor<f32>
// CHECK-NEXT:   %[[NLL:.*]] = relay.nn.nll_loss %[[PF]], %[[L]] : (tensor<4x8xf32>, tensor<4xi64>) -> tensor<f32>
// CHECK-NEXT:   %[[PE:.*]] = relay.cast %[[P]] {dtype = f32} : (tensor<4x8xf16>) -> tensor<4x8xf32>
// CHECK-NEXT:   %[[E:.*]] = relay.exp %[[PE]] : (tensor<4x8xf32>) -> tensor<4x8xf32>
// CHECK-NEXT:   %[[PM:.*]] = relay.cast %[[P]] {dtype = f32} : (tensor<4x8xf16>) -> tensor<4x8xf32>
// CHECK-NEXT:   %[[M:.*]] = relay.multiply %[[PM]], %[[X]] : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
// CHECK-NEXT:   %[[T:.*]] = relay.tanh %[[X]] : (tensor<4x8xf32>) -> tensor<4x8xf32>
// CHECK-NEXT:   return %[[S]], %[[SUM]], %[[NLL]], %[[E]], %[[M]], %[[T]]
// CHECK-SAME:   : tensor<4x8xf32>, tensor<f32>, tensor<f32>, tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x8xf32>
func.func @never(%x: tensor<4x8xf32>, %w: tensor<8x8xf32>, %labels: tensor<4xi64>)
    -> (tensor<4x8xf32>, tensor<f32>, tensor<f32>, tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x8xf32>) {
  %p = relay.nn.matmul %x, %w : (tensor<4x8xf32>, tensor<8x8xf32>)
  %s = relay.nn.softmax %p : (tensor<4x8xf32>)
  %sum = relay.sum %p : (tensor<4x8xf32>)
  %nll = relay.nn.nll_loss %p, %labels : (tensor<4x8xf32>, tensor<4xi64>)
  %e = relay.exp %p : (tensor<4x8xf32>)
  %m = relay.multiply %p, %x : (tensor<4x8xf32>, tensor<4x8xf32>)
  %t = relay.tanh %x : (tensor<4x8xf32>)
  return %s, %sum, %nll, %e, %m, %t : tensor<4x8xf32>, tensor<f32>, tensor<f32>, tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x8xf32>
}

// "Don't touch" restores the type before the pass, which need not be f32:
// an f16 argument stays f16 for exp, an f64 one stays f64 for multiply.
// CHECK-LABEL: func.func @original_type(
// CHECK-NEXT:   %[[E:.*]] = relay.exp %arg0 : (tensor<4xf16>) -> tensor<4xf16>
// CHECK-NEXT:   %[[M:.*]] = relay.multiply %arg1, %arg1 : (tensor<4xf64>, tensor<4xf64>) -> tensor<4xf64>
// CHECK-NEXT:   return %[[E]], %[[M]]
func.func @original_type(%h: tensor<4xf16>, %d: tensor<4xf64>) -> (tensor<4xf16>, tensor<4xf64>) {
  %e = relay.exp %h : (tensor<4xf16>)
  %m = relay.multiply %d, %d : (tensor<4xf64>, tensor<4xf64>)
  return %e, %m : tensor<4xf16>, tensor<4xf64>
}
