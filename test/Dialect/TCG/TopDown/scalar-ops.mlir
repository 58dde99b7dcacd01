// RUN: raf-opt %s | raf-opt | FileCheck %s
// RUN: raf-opt %s --mlir-print-op-generic | raf-opt | FileCheck %s
// RUN: not raf-opt %s --tcg-print-tensor-exprs -o /dev/null 2>/dev/null | FileCheck %s --check-prefix=EXPR
// RUN: not raf-opt %s --tcg-print-tensor-exprs -o /dev/null 2>&1 >/dev/null | FileCheck %s --check-prefix=NOEXPR

// The scalar operations chapter 3's operators need (Rieber 2022, Tab. 3.1):
// div, the unary exp, and constants.

// CHECK-LABEL: func.func @softmax_numerator
// CHECK:       %[[D:.*]] = tcg.compute sub %{{.*}}, %{{.*}} : (f32, f32) -> f32
// CHECK-NEXT:  %[[E:.*]] = tcg.compute exp %[[D]] : (f32) -> f32
// CHECK-NEXT:  tcg.yield %[[E]] : f32
// EXPR: softmax_num: e[i, j] = exp(x[i, j] - m[i])
func.func @softmax_numerator(%xin: tensor<2x8xf32>, %min: tensor<2xf32>) -> tensor<2x8xf32> {
  %r = tcg.kernel "softmax_num" (%x = %xin : tensor<2x8xf32>, %m = %min : tensor<2xf32>)
      -> tensor<2x8xf32> attributes {arg_names = ["x", "m"], result_name = "e"} {
    %0 = tcg.tensor %i in [0, 2) name "i" -> tensor<2x8xf32> {
      %1 = tcg.tensor %j in [0, 8) name "j" -> tensor<8xf32> {
        %a = tcg.input %x[%i, %j] : tensor<2x8xf32>
        %b = tcg.input %m[%i] : tensor<2xf32>
        %d = tcg.compute sub %a, %b : (f32, f32) -> f32
        %e = tcg.compute exp %d : (f32) -> f32
        tcg.yield %e : f32
      }
      tcg.yield %1 : tensor<8xf32>
    }
    tcg.yield %0 : tensor<2x8xf32>
  }
  return %r : tensor<2x8xf32>
}

// CHECK-LABEL: func.func @sigmoid
// CHECK:       %[[Z:.*]] = tcg.constant 0.000000e+00 : f32
// CHECK:       %[[ONE:.*]] = tcg.constant 1.000000e+00 : f32
// CHECK:       tcg.compute sub %[[Z]], %{{.*}} : (f32, f32) -> f32
// CHECK:       tcg.compute exp
// CHECK:       tcg.compute add %{{.*}}, %[[ONE]] : (f32, f32) -> f32
// CHECK:       tcg.compute div %[[ONE]], %{{.*}} : (f32, f32) -> f32
func.func @sigmoid(%xin: tensor<8xf32>) -> tensor<8xf32> {
  %r = tcg.kernel "sigmoid" (%x = %xin : tensor<8xf32>) -> tensor<8xf32> {
    %0 = tcg.tensor %i in [0, 8) name "i" -> tensor<8xf32> {
      %a = tcg.input %x[%i] : tensor<8xf32>
      %zero = tcg.constant 0.0 : f32
      %one = tcg.constant 1.0 : f32
      %n = tcg.compute sub %zero, %a : (f32, f32) -> f32
      %e = tcg.compute exp %n : (f32) -> f32
      %d = tcg.compute add %e, %one : (f32, f32) -> f32
      %s = tcg.compute div %one, %d : (f32, f32) -> f32
      tcg.yield %s : f32
    }
    tcg.yield %0 : tensor<8xf32>
  }
  return %r : tensor<8xf32>
}
// A tensor expression has no constants: the dataflow embedding's reader
// refuses the sigmoid kernel with a located error.
// NOEXPR: error: 'tcg.constant' op is not modelled by a tensor expression (no constants); the dataflow embedding cannot read this kernel

// Integer division (signed) and a max reduction of quotients.
// CHECK-LABEL: func.func @int_div
// CHECK:       tcg.compute div %{{.*}}, %{{.*}} : (i8, i8) -> i32
func.func @int_div(%ain: tensor<4x8xi8>, %bin: tensor<8xi8>) -> tensor<4xi32> {
  %r = tcg.kernel "int_div" (%a = %ain : tensor<4x8xi8>, %b = %bin : tensor<8xi8>)
      -> tensor<4xi32> attributes {arg_names = ["a", "b"]} {
    %0 = tcg.tensor %i in [0, 4) name "i" -> tensor<4xi32> {
      %1 = tcg.reduce max %k in [0, 8) name "k" -> i32 {
        %x = tcg.input %a[%i, %k] : tensor<4x8xi8>
        %y = tcg.input %b[%k] : tensor<8xi8>
        %q = tcg.compute div %x, %y : (i8, i8) -> i32
        tcg.yield %q : i32
      }
      tcg.yield %1 : i32
    }
    tcg.yield %0 : tensor<4xi32>
  }
  return %r : tensor<4xi32>
}
// EXPR: int_div: out[i] = max_{k} (a[i, k] / b[k])
