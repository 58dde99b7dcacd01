// RUN: raf-opt %s | FileCheck %s

// Result types of reductions: `axis` lists the reduced axes (all of them when
// absent; negative axes count from the end), `keepdims` keeps them as size
// 1, `exclude` reduces every axis that is *not* listed.

// CHECK-LABEL: func.func @reduce
func.func @reduce(%x: tensor<2x3x4x5xf32>) {
  // CHECK: relay.sum %{{.*}} {axis = array<i64: 1, 3>} : (tensor<2x3x4x5xf32>) -> tensor<2x4xf32>
  %0 = relay.sum %x {axis = array<i64: 1, 3>} : (tensor<2x3x4x5xf32>)
  // The order of the listed axes does not matter.
  // CHECK: relay.sum %{{.*}} {axis = array<i64: 3, 1>} : (tensor<2x3x4x5xf32>) -> tensor<2x4xf32>
  %1 = relay.sum %x {axis = array<i64: 3, 1>} : (tensor<2x3x4x5xf32>)
  // Negative axes: -1 is the last axis.
  // CHECK: relay.mean %{{.*}} {axis = array<i64: -1>} : (tensor<2x3x4x5xf32>) -> tensor<2x3x4xf32>
  %2 = relay.mean %x {axis = array<i64: -1>} : (tensor<2x3x4x5xf32>)
  // CHECK: relay.mean %{{.*}} {axis = array<i64: -4, -2>} : (tensor<2x3x4x5xf32>) -> tensor<3x5xf32>
  %3 = relay.mean %x {axis = array<i64: -4, -2>} : (tensor<2x3x4x5xf32>)
  // keepdims.
  // CHECK: relay.max %{{.*}} {axis = array<i64: 0, -1>, keepdims = true} : (tensor<2x3x4x5xf32>) -> tensor<1x3x4x1xf32>
  %4 = relay.max %x {axis = array<i64: 0, -1>, keepdims = true} : (tensor<2x3x4x5xf32>)
  // exclude: reduce every axis except 1.
  // CHECK: relay.sum %{{.*}} {axis = array<i64: 1>, exclude = true} : (tensor<2x3x4x5xf32>) -> tensor<3xf32>
  %5 = relay.sum %x {axis = array<i64: 1>, exclude = true} : (tensor<2x3x4x5xf32>)
  // CHECK: relay.sum %{{.*}} {axis = array<i64: 1, -2>, exclude = true, keepdims = true} : (tensor<2x3x4x5xf32>) -> tensor<1x3x4x1xf32>
  %6 = relay.sum %x {axis = array<i64: 1, -2>, exclude = true, keepdims = true} : (tensor<2x3x4x5xf32>)
  // No axis: reduce everything.
  // CHECK: relay.sum %{{.*}} : (tensor<2x3x4x5xf32>) -> tensor<f32>
  %7 = relay.sum %x : (tensor<2x3x4x5xf32>)
  // CHECK: relay.max %{{.*}} {keepdims = true} : (tensor<2x3x4x5xf32>) -> tensor<1x1x1x1xf32>
  %8 = relay.max %x {keepdims = true} : (tensor<2x3x4x5xf32>)
  // An empty axis list reduces nothing; excluding nothing reduces everything.
  // CHECK: relay.sum %{{.*}} {axis = array<i64>} : (tensor<2x3x4x5xf32>) -> tensor<2x3x4x5xf32>
  %9 = relay.sum %x {axis = array<i64>} : (tensor<2x3x4x5xf32>)
  // CHECK: relay.sum %{{.*}} {axis = array<i64>, exclude = true} : (tensor<2x3x4x5xf32>) -> tensor<f32>
  %10 = relay.sum %x {axis = array<i64>, exclude = true} : (tensor<2x3x4x5xf32>)
  return
}

// argmax returns i32 indices whatever the input element type.
// CHECK-LABEL: func.func @argmax
func.func @argmax(%x: tensor<2x3x4xf16>, %i: tensor<6xi64>, %d: tensor<?x10xf32>) {
  // CHECK: relay.argmax %{{.*}} {axis = array<i64: 1>} : (tensor<2x3x4xf16>) -> tensor<2x4xi32>
  %0 = relay.argmax %x {axis = array<i64: 1>} : (tensor<2x3x4xf16>)
  // CHECK: relay.argmax %{{.*}} {axis = array<i64: -1>, keepdims = true} : (tensor<2x3x4xf16>) -> tensor<2x3x1xi32>
  %1 = relay.argmax %x {axis = array<i64: -1>, keepdims = true} : (tensor<2x3x4xf16>)
  // CHECK: relay.argmax %{{.*}} : (tensor<6xi64>) -> tensor<i32>
  %2 = relay.argmax %i : (tensor<6xi64>)
  // Dynamic dimensions that are kept stay dynamic.
  // CHECK: relay.argmax %{{.*}} {axis = array<i64: 1>} : (tensor<?x10xf32>) -> tensor<?xi32>
  %3 = relay.argmax %d {axis = array<i64: 1>} : (tensor<?x10xf32>)
  return
}
