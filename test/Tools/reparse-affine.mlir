// raf-opt re-reads its own affine output: the loops of a strided pool,
// lowered with the upstream --convert-linalg-to-affine-loops, parse again and
// print the same (docs/ecosystem.md).
// RUN: raf-opt %s --convert-relay-to-linalg --one-shot-bufferize=bufferize-function-boundaries --convert-linalg-to-affine-loops > %t.mlir
// RUN: raf-opt %t.mlir | FileCheck %s
// RUN: raf-opt %t.mlir | raf-opt | diff - %t.mlir

// CHECK-LABEL: func.func @pool
// CHECK: affine.for
// CHECK: %[[ROW:.*]] = affine.apply #{{.*}}(%{{.*}}, %{{.*}})
// CHECK: affine.load %arg0[%{{.*}}, %{{.*}}, %[[ROW]], %{{.*}}]
// CHECK: affine.store

func.func @pool(%x: tensor<1x2x4x4xf32>) -> tensor<1x2x2x2xf32> {
  %0 = relay.nn.max_pool2d %x {pool_size = array<i64: 2, 2>, strides = array<i64: 2, 2>} : (tensor<1x2x4x4xf32>)
  return %0 : tensor<1x2x2x2xf32>
}
