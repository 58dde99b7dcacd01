// The fused operators of Rieber 2022, Tab. 3.3 written as fused relay
// functions, converted into one tcg.kernel each, and the converted module
// run on raf-run against PyTorch (Inputs/oracle.py).
// RUN: raf-opt %s --convert-relay-fused-to-tcg | FileCheck %s
// RUN: raf-opt %s --convert-relay-fused-to-tcg --tcg-topdown-search="print-time=false selective-masking=true" -o /dev/null | FileCheck %s --check-prefix=SEARCH
// RUN: raf-opt %s --convert-relay-fused-to-tcg -o %t.mlir
// RUN: %python %S/Inputs/oracle.py inputs %t
// RUN: raf-run %t.mlir --entry=fc_bias --input=%t.x.npy --input=%t.w.npy --input=%t.b.npy --output=%t.fc_bias.npy
// RUN: raf-run %t.mlir --entry=fc_bias_sigmoid --input=%t.x.npy --input=%t.w.npy --input=%t.b.npy --output=%t.fc_bias_sigmoid.npy
// RUN: raf-run %t.mlir --entry=attention --input=%t.q.npy --input=%t.k.npy --input=%t.s.npy --output=%t.attention.npy
// RUN: raf-run %t.mlir --entry=conv2d_relu --input=%t.data.npy --input=%t.hwio.npy --output=%t.conv2d_relu.npy
// RUN: raf-run %t.mlir --entry=capsule_routing --input=%t.blog.npy --input=%t.u.npy --output=%t.capsule_routing.npy
// RUN: %python %S/Inputs/oracle.py check %t | FileCheck %s --check-prefix=NUM

// CHECK-LABEL: func.func @fc_bias
// CHECK:       tcg.kernel "fc_bias"
// CHECK:       tcg.reduce add
// CHECK:       tcg.compute mul
// CHECK:       tcg.compute add
// CHECK-NOT:   relay.nn
// CHECK-LABEL: func.func @fc_bias_sigmoid
// CHECK:       tcg.compute exp
// CHECK:       tcg.compute div
// CHECK-LABEL: func.func @capsule_routing
// CHECK:       tcg.reduce max
// CHECK-NOT:   relay.

// SEARCH: topdown-search fc_bias: config 4, {{.*}} solutions
// SEARCH: topdown-search fc_bias_sigmoid: config 4,
// SEARCH: topdown-search attention: config 4,
// SEARCH: topdown-search conv2d_relu: config 4,
// SEARCH: topdown-search capsule_routing: config 4,

// NUM: fc_bias: ok
// NUM-NEXT: fc_bias_sigmoid: ok
// NUM-NEXT: attention: ok
// NUM-NEXT: conv2d_relu: ok
// NUM-NEXT: capsule_routing: ok

func.func @fc_bias(%x: tensor<4x8xf32>, %w: tensor<6x8xf32>, %b: tensor<6xf32>) -> tensor<4x6xf32> attributes {relay.primitive} {
  %0 = relay.nn.dense %x, %w : (tensor<4x8xf32>, tensor<6x8xf32>)
  %1 = relay.nn.bias_add %0, %b {axis = 1 : i64} : (tensor<4x6xf32>, tensor<6xf32>)
  return %1 : tensor<4x6xf32>
}

func.func @fc_bias_sigmoid(%x: tensor<4x8xf32>, %w: tensor<6x8xf32>, %b: tensor<6xf32>) -> tensor<4x6xf32> attributes {relay.primitive} {
  %0 = relay.nn.dense %x, %w : (tensor<4x8xf32>, tensor<6x8xf32>)
  %1 = relay.nn.bias_add %0, %b {axis = 1 : i64} : (tensor<4x6xf32>, tensor<6xf32>)
  %2 = relay.sigmoid %1 : (tensor<4x6xf32>)
  return %2 : tensor<4x6xf32>
}

// Eqs. 3.2 + 3.3: t = q k^T, r = s * t.
func.func @attention(%q: tensor<4x8xf32>, %k: tensor<6x8xf32>, %s: tensor<1xf32>) -> tensor<4x6xf32> attributes {relay.primitive} {
  %0 = relay.nn.dense %q, %k : (tensor<4x8xf32>, tensor<6x8xf32>)
  %1 = relay.multiply %s, %0 : (tensor<1xf32>, tensor<4x6xf32>)
  return %1 : tensor<4x6xf32>
}

func.func @conv2d_relu(%d: tensor<1x6x6x4xf32>, %w: tensor<3x3x4x8xf32>) -> tensor<1x4x4x8xf32> attributes {relay.primitive} {
  %0 = relay.nn.conv2d %d, %w {data_layout = #relay.layout<NHWC>, kernel_layout = #relay.layout<HWIO>} : (tensor<1x6x6x4xf32>, tensor<3x3x4x8xf32>)
  %1 = relay.nn.relu %0 : (tensor<1x4x4x8xf32>)
  return %1 : tensor<1x4x4x8xf32>
}

// One routing iteration (Sabour et al. 2017): c = softmax_j(b),
// s[j, d] = sum_i c[i, j] u[i, j, d], v = s * |s|^2 / (1 + |s|^2).
func.func @capsule_routing(%b: tensor<8x4xf32>, %u: tensor<8x4x4xf32>) -> tensor<4x4xf32> attributes {relay.primitive} {
  %c = relay.nn.softmax %b : (tensor<8x4xf32>)
  %c3 = relay.expand_dims %c {axis = 2 : i64} : (tensor<8x4xf32>)
  %p = relay.multiply %c3, %u : (tensor<8x4x1xf32>, tensor<8x4x4xf32>)
  %s = relay.sum %p {axis = array<i64: 0>} : (tensor<8x4x4xf32>)
  %sq = relay.multiply %s, %s : (tensor<4x4xf32>, tensor<4x4xf32>)
  %n = relay.sum %sq {axis = array<i64: 1>} : (tensor<4x4xf32>)
  %one = relay.constant dense<1.0> : tensor<f32>
  %a = relay.add %n, %one : (tensor<4xf32>, tensor<f32>)
  %f = relay.divide %n, %a : (tensor<4xf32>, tensor<4xf32>)
  %f2 = relay.expand_dims %f {axis = 1 : i64} : (tensor<4xf32>)
  %v = relay.multiply %s, %f2 : (tensor<4x4xf32>, tensor<4x1xf32>)
  return %v : tensor<4x4xf32>
}
