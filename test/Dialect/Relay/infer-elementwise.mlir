// RUN: raf-opt %s | FileCheck %s

// Result types of element-wise and broadcasting operators are inferred
// (NumPy broadcasting: align trailing dimensions, 1 stretches, missing
// leading dimensions count as 1).

// CHECK-LABEL: func.func @unary
func.func @unary(%x: tensor<2x?x5xf16>, %i: tensor<7xi8>) {
  // CHECK: relay.exp %{{.*}} : (tensor<2x?x5xf16>) -> tensor<2x?x5xf16>
  %0 = relay.exp %x : (tensor<2x?x5xf16>)
  // CHECK: relay.square %{{.*}} : (tensor<7xi8>) -> tensor<7xi8>
  %1 = relay.square %i : (tensor<7xi8>)
  // CHECK: relay.cast %{{.*}} {dtype = i32} : (tensor<2x?x5xf16>) -> tensor<2x?x5xi32>
  %2 = relay.cast %x {dtype = i32} : (tensor<2x?x5xf16>)
  // CHECK: relay.zeros_like %{{.*}} : (tensor<7xi8>) -> tensor<7xi8>
  %3 = relay.zeros_like %i : (tensor<7xi8>)
  return
}

// CHECK-LABEL: func.func @broadcast
func.func @broadcast(%a: tensor<8x1x6x1xf32>, %b: tensor<7x1x5xf32>,
                     %s: tensor<f32>, %v: tensor<3xf32>, %m: tensor<4x3xf32>,
                     %d: tensor<?x3xf32>, %e: tensor<4x1xf32>) {
  // Rank extension on both sides: [8,1,6,1] x [7,1,5] -> [8,7,6,5].
  // CHECK: relay.add %{{.*}}, %{{.*}} : (tensor<8x1x6x1xf32>, tensor<7x1x5xf32>) -> tensor<8x7x6x5xf32>
  %0 = relay.add %a, %b : (tensor<8x1x6x1xf32>, tensor<7x1x5xf32>)
  // The operand order does not matter.
  // CHECK: relay.multiply %{{.*}}, %{{.*}} : (tensor<7x1x5xf32>, tensor<8x1x6x1xf32>) -> tensor<8x7x6x5xf32>
  %1 = relay.multiply %b, %a : (tensor<7x1x5xf32>, tensor<8x1x6x1xf32>)
  // A scalar (rank 0) broadcasts to anything.
  // CHECK: relay.subtract %{{.*}}, %{{.*}} : (tensor<f32>, tensor<4x3xf32>) -> tensor<4x3xf32>
  %2 = relay.subtract %s, %m : (tensor<f32>, tensor<4x3xf32>)
  // CHECK: relay.divide %{{.*}}, %{{.*}} : (tensor<4x3xf32>, tensor<3xf32>) -> tensor<4x3xf32>
  %3 = relay.divide %m, %v : (tensor<4x3xf32>, tensor<3xf32>)
  // [4,1] x [3] -> [4,3] (outer-product style).
  // CHECK: relay.power %{{.*}}, %{{.*}} : (tensor<4x1xf32>, tensor<3xf32>) -> tensor<4x3xf32>
  %4 = relay.power %e, %v : (tensor<4x1xf32>, tensor<3xf32>)
  // A dynamic size against a static one gives the static one.
  // CHECK: relay.maximum %{{.*}}, %{{.*}} : (tensor<?x3xf32>, tensor<4x3xf32>) -> tensor<4x3xf32>
  %5 = relay.maximum %d, %m : (tensor<?x3xf32>, tensor<4x3xf32>)
  // A dynamic size against 1 stays dynamic.
  // CHECK: relay.minimum %{{.*}}, %{{.*}} : (tensor<?x3xf32>, tensor<3xf32>) -> tensor<?x3xf32>
  %6 = relay.minimum %d, %v : (tensor<?x3xf32>, tensor<3xf32>)
  // CHECK: relay.add %{{.*}}, %{{.*}} : (tensor<f32>, tensor<f32>) -> tensor<f32>
  %7 = relay.add %s, %s : (tensor<f32>, tensor<f32>)
  return
}

// Comparisons broadcast and produce i1.
// CHECK-LABEL: func.func @compare
func.func @compare(%a: tensor<2x1x4xf32>, %b: tensor<3x1xf32>, %i: tensor<5xi64>,
                   %j: tensor<1xi64>, %p: tensor<2xi1>) {
  // CHECK: relay.equal %{{.*}}, %{{.*}} : (tensor<2x1x4xf32>, tensor<3x1xf32>) -> tensor<2x3x4xi1>
  %0 = relay.equal %a, %b : (tensor<2x1x4xf32>, tensor<3x1xf32>)
  // CHECK: relay.not_equal %{{.*}}, %{{.*}} : (tensor<5xi64>, tensor<1xi64>) -> tensor<5xi1>
  %1 = relay.not_equal %i, %j : (tensor<5xi64>, tensor<1xi64>)
  // CHECK: relay.less %{{.*}}, %{{.*}} : (tensor<2x1x4xf32>, tensor<3x1xf32>) -> tensor<2x3x4xi1>
  %2 = relay.less %a, %b : (tensor<2x1x4xf32>, tensor<3x1xf32>)
  // CHECK: relay.less_equal %{{.*}}, %{{.*}} : (tensor<1xi64>, tensor<5xi64>) -> tensor<5xi1>
  %3 = relay.less_equal %j, %i : (tensor<1xi64>, tensor<5xi64>)
  // CHECK: relay.greater %{{.*}}, %{{.*}} : (tensor<3x1xf32>, tensor<2x1x4xf32>) -> tensor<2x3x4xi1>
  %4 = relay.greater %b, %a : (tensor<3x1xf32>, tensor<2x1x4xf32>)
  // CHECK: relay.greater_equal %{{.*}}, %{{.*}} : (tensor<5xi64>, tensor<5xi64>) -> tensor<5xi1>
  %5 = relay.greater_equal %i, %i : (tensor<5xi64>, tensor<5xi64>)
  // equal and not_equal accept i1 operands.
  // CHECK: relay.equal %{{.*}}, %{{.*}} : (tensor<2xi1>, tensor<2xi1>) -> tensor<2xi1>
  %6 = relay.equal %p, %p : (tensor<2xi1>, tensor<2xi1>)
  return
}

// relay.where broadcasts condition, x and y together.
// CHECK-LABEL: func.func @where
func.func @where(%c: tensor<4x1x1xi1>, %x: tensor<3x1xf32>, %y: tensor<5xf32>,
                 %s: tensor<i1>, %m: tensor<2x5xi32>, %n: tensor<i32>) {
  // CHECK: relay.where %{{.*}}, %{{.*}}, %{{.*}} : (tensor<4x1x1xi1>, tensor<3x1xf32>, tensor<5xf32>) -> tensor<4x3x5xf32>
  %0 = relay.where %c, %x, %y : (tensor<4x1x1xi1>, tensor<3x1xf32>, tensor<5xf32>)
  // CHECK: relay.where %{{.*}}, %{{.*}}, %{{.*}} : (tensor<i1>, tensor<2x5xi32>, tensor<i32>) -> tensor<2x5xi32>
  %1 = relay.where %s, %m, %n : (tensor<i1>, tensor<2x5xi32>, tensor<i32>)
  // The condition alone can set the rank.
  // CHECK: relay.where %{{.*}}, %{{.*}}, %{{.*}} : (tensor<4x1x1xi1>, tensor<i32>, tensor<i32>) -> tensor<4x1x1xi32>
  %2 = relay.where %c, %n, %n : (tensor<4x1x1xi1>, tensor<i32>, tensor<i32>)
  return
}

// CHECK-LABEL: func.func @bias_add
func.func @bias_add(%x: tensor<2x16x7x7xf32>, %b: tensor<16xf32>, %c: tensor<7xf32>) {
  // CHECK: relay.nn.bias_add %{{.*}}, %{{.*}} : (tensor<2x16x7x7xf32>, tensor<16xf32>) -> tensor<2x16x7x7xf32>
  %0 = relay.nn.bias_add %x, %b : (tensor<2x16x7x7xf32>, tensor<16xf32>)
  // CHECK: relay.nn.bias_add %{{.*}}, %{{.*}} {axis = -1 : i64} : (tensor<2x16x7x7xf32>, tensor<7xf32>) -> tensor<2x16x7x7xf32>
  %1 = relay.nn.bias_add %x, %c {axis = -1 : i64} : (tensor<2x16x7x7xf32>, tensor<7xf32>)
  return
}
