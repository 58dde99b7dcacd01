// RUN: raf-opt %s -split-input-file -verify-diagnostics --convert-linalg-to-tcg
// RUN: raf-opt %s -split-input-file --convert-linalg-to-tcg 2>/dev/null | FileCheck %s

// Operations that cannot be expressed stay as they are, with a remark that
// says why; a module where nothing is converted gets a remark too.

// CHECK-LABEL: func.func @dynamic
// CHECK: linalg.matmul
// expected-remark@+1 {{no linalg operation was converted (1 with a tensor-expression form could not be expressed)}}
module {
func.func @dynamic(%a: tensor<?x8xf32>, %b: tensor<8x4xf32>, %c: tensor<?x4xf32>) -> tensor<?x4xf32> {
  // expected-remark@+1 {{'linalg.matmul' left as is: cannot be expressed as a tcg.kernel: operand #0 has a dynamic shape ('tensor<?x8xf32>')}}
  %r = linalg.matmul ins(%a, %b : tensor<?x8xf32>, tensor<8x4xf32>) outs(%c : tensor<?x4xf32>) -> tensor<?x4xf32>
  return %r : tensor<?x4xf32>
}
}

// -----

// CHECK-LABEL: func.func @buffers
// expected-remark@+1 {{no linalg operation was converted}}
module {
func.func @buffers(%a: memref<4x8xf32>, %b: memref<8x4xf32>, %c: memref<4x4xf32>) {
  // expected-remark@+1 {{'linalg.matmul' left as is: cannot be expressed as a tcg.kernel: it works on buffers; a tcg.kernel computes a tensor}}
  linalg.matmul ins(%a, %b : memref<4x8xf32>, memref<8x4xf32>) outs(%c : memref<4x4xf32>)
  return
}
}

// -----

// An unsigned widening (arith.extui) is not a tcg widening: not a
// multiply-accumulate candidate, and no remark but the module's.
// CHECK-LABEL: func.func @unsigned
// expected-remark@+1 {{no linalg operation was converted (0 with a tensor-expression form could not be expressed)}}
module {
func.func @unsigned(%a: tensor<4x8xi8>, %b: tensor<8x4xi8>, %c: tensor<4x4xi32>) -> tensor<4x4xi32> {
  %r = linalg.generic {indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (k, n)>, affine_map<(m, n, k) -> (m, n)>], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%a, %b : tensor<4x8xi8>, tensor<8x4xi8>) outs(%c : tensor<4x4xi32>) {
  ^bb0(%x: i8, %y: i8, %acc: i32):
    %0 = arith.extui %x : i8 to i32
    %1 = arith.extui %y : i8 to i32
    %2 = arith.muli %0, %1 : i32
    %3 = arith.addi %acc, %2 : i32
    linalg.yield %3 : i32
  } -> tensor<4x4xi32>
  return %r : tensor<4x4xi32>
}
}

// -----

// A multiply-accumulate whose output is a broadcast (not indexed by every
// parallel loop) has no tensor expression.
// CHECK-LABEL: func.func @broadcast_output
// expected-remark@+1 {{no linalg operation was converted}}
module {
func.func @broadcast_output(%a: tensor<4x8xf32>, %b: tensor<4x8xf32>, %c: tensor<8xf32>) -> tensor<8xf32> {
  // expected-remark@+1 {{'linalg.generic' left as is: cannot be expressed as a tcg.kernel: its output is not indexed by a permutation of its parallel loops (indexing map affine_map<(d0, d1) -> (d1)>)}}
  %r = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (j)>], iterator_types = ["parallel", "parallel"]}
      ins(%a, %b : tensor<4x8xf32>, tensor<4x8xf32>) outs(%c : tensor<8xf32>) {
  ^bb0(%x: f32, %y: f32, %acc: f32):
    %0 = arith.mulf %x, %y : f32
    %1 = arith.addf %acc, %0 : f32
    linalg.yield %1 : f32
  } -> tensor<8xf32>
  return %r : tensor<8xf32>
}
}

// -----

// Nothing to convert at all.
// CHECK-LABEL: func.func @nothing
// expected-remark@+1 {{--convert-linalg-to-tcg: no linalg operation was converted (0 with a tensor-expression form could not be expressed); the pass converts convolutions, matmuls and multiply-accumulate linalg.generics on static tensors}}
module {
func.func @nothing(%a: tensor<4xf32>) -> tensor<4xf32> {
  return %a : tensor<4xf32>
}
}
