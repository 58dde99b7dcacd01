// RUN: raf-opt %s --tcg-print-tensor-exprs -o /dev/null | FileCheck %s

// raf::tcg::extractTensorExpr: iterators (tensor nest, then reductions),
// one operand per read, views, the body DAG and default names.

// CHECK:      conv2d: out[n, oc, oh, ow] = add_{ic, kh, kw} (data[n, (oc floordiv 3) * 2 + ic, oh * 2 + kh, ow * 2 + kw] * weight[oc, ic, kh, kw])
// CHECK-NEXT:   n: [0, 1) gemm x
// CHECK-NEXT:   oc: [0, 6) gemm y
// CHECK-NEXT:   oh: [0, 3)
// CHECK-NEXT:   ow: [0, 3)
// CHECK-NEXT:   ic: [0, 2) reduction gemm z
// CHECK-NEXT:   kh: [0, 3) reduction
// CHECK-NEXT:   kw: [0, 3) reduction
// CHECK-NEXT:   data: tensor<1x4x5x5xf32> view pad_low [0, 0, 1, 1] pad_high [0, 0, 1, 1]
// CHECK-NEXT:   weight: tensor<6x2x3x3xf32>
// CHECK-NEXT:   out: tensor<1x6x3x3xf32>
func.func @grouped_conv(%x: tensor<1x4x5x5xf32>, %w: tensor<6x2x3x3xf32>) -> tensor<1x6x3x3xf32> {
  %r = tcg.kernel "conv2d" (%data = %x : tensor<1x4x5x5xf32>, %weight = %w : tensor<6x2x3x3xf32>)
      -> tensor<1x6x3x3xf32> attributes {arg_names = ["data", "weight"]} {
    %0 = tcg.tensor %n in [0, 1) name "n" gemm_axis x -> tensor<1x6x3x3xf32> {
      %1 = tcg.tensor %oc in [0, 6) name "oc" gemm_axis y -> tensor<6x3x3xf32> {
        %2 = tcg.tensor %oh in [0, 3) name "oh" -> tensor<3x3xf32> {
          %3 = tcg.tensor %ow in [0, 3) name "ow" -> tensor<3xf32> {
            %4 = tcg.reduce add %ic in [0, 2) name "ic" gemm_axis z -> f32 {
              %5 = tcg.reduce add %kh in [0, 3) name "kh" -> f32 {
                %6 = tcg.reduce add %kw in [0, 3) name "kw" -> f32 {
                  %7 = tcg.input %data[%n, (%oc floordiv 3) * 2 + %ic, %oh * 2 + %kh, %ow * 2 + %kw]
                      pad_low [0, 0, 1, 1] pad_high [0, 0, 1, 1] : tensor<1x4x5x5xf32>
                  %8 = tcg.input %weight[%oc, %ic, %kh, %kw] : tensor<6x2x3x3xf32>
                  %9 = tcg.compute mul %7, %8 : (f32, f32) -> f32
                  tcg.yield %9 : f32
                }
                tcg.yield %6 : f32
              }
              tcg.yield %5 : f32
            }
            tcg.yield %4 : f32
          }
          tcg.yield %3 : tensor<3xf32>
        }
        tcg.yield %2 : tensor<3x3xf32>
      }
      tcg.yield %1 : tensor<6x3x3xf32>
    }
    tcg.yield %0 : tensor<1x6x3x3xf32>
  }
  return %r : tensor<1x6x3x3xf32>
}

// Without names: d<i> / r<i> iterators, in<i> / out operands, <unnamed>
// kernel. A dilated view lists all three view attributes' effective values;
// a flipped access prints as a difference.
// CHECK-NEXT: <unnamed>: out[d0] = max_{r0} (in0[d0 + r0] * in1[2 - r0])
// CHECK-NEXT:   d0: [0, 9)
// CHECK-NEXT:   r0: [0, 3) reduction
// CHECK-NEXT:   in0: tensor<4xi8> view pad_low [2] pad_high [2] dilation [2]
// CHECK-NEXT:   in1: tensor<3xi8>
// CHECK-NEXT:   out: tensor<9xi32>
func.func @defaults(%x: tensor<4xi8>, %y: tensor<3xi8>) -> tensor<9xi32> {
  %r = tcg.kernel (%d = %x : tensor<4xi8>, %w = %y : tensor<3xi8>) -> tensor<9xi32> {
    %0 = tcg.tensor %i in [0, 9) -> tensor<9xi32> {
      %1 = tcg.reduce max %k in [0, 3) -> i32 {
        %2 = tcg.input %d[%i + %k] pad_low [2] pad_high [2] dilation [2] : tensor<4xi8>
        %3 = tcg.input %w[2 - %k] : tensor<3xi8>
        %4 = tcg.compute mul %2, %3 : (i8, i8) -> i32
        tcg.yield %4 : i32
      }
      tcg.yield %1 : i32
    }
    tcg.yield %0 : tensor<9xi32>
  }
  return %r : tensor<9xi32>
}

// No reduction; a tensor read twice is two operands of the same name; the
// body is a DAG (a read used twice is one node).
// CHECK-NEXT: flip: y[i] = max(x[i] - x[7 - i], x[i])
// CHECK-NEXT:   i: [0, 8)
// CHECK-NEXT:   x: tensor<8xf32>
// CHECK-NEXT:   y: tensor<8xf32>
func.func @elementwise(%a: tensor<8xf32>) -> tensor<8xf32> {
  %r = tcg.kernel "flip" (%x = %a : tensor<8xf32>) -> tensor<8xf32>
      attributes {arg_names = ["x"], result_name = "y"} {
    %0 = tcg.tensor %i in [0, 8) name "i" -> tensor<8xf32> {
      %1 = tcg.input %x[%i] : tensor<8xf32>
      %2 = tcg.input %x[7 - %i] : tensor<8xf32>
      %3 = tcg.compute sub %1, %2 : (f32, f32) -> f32
      %4 = tcg.compute max %3, %1 : (f32, f32) -> f32
      tcg.yield %4 : f32
    }
    tcg.yield %0 : tensor<8xf32>
  }
  return %r : tensor<8xf32>
}

// A reduction placed in the middle of a tensor nest's chain, with a read
// outside the innermost reduce (loop invariant, still part of the body).
// CHECK-NEXT: scaled: out[i, j] = add_{k, l} ((s[i] * a[i, k]) * b[l, j])
// CHECK-NEXT:   i: [0, 2)
// CHECK-NEXT:   j: [0, 3)
// CHECK-NEXT:   k: [0, 4) reduction
// CHECK-NEXT:   l: [0, 5) reduction
func.func @invariant_read(%s: tensor<2xf32>, %a: tensor<2x4xf32>, %b: tensor<5x3xf32>) -> tensor<2x3xf32> {
  %r = tcg.kernel "scaled" (%s0 = %s : tensor<2xf32>, %a0 = %a : tensor<2x4xf32>, %b0 = %b : tensor<5x3xf32>)
      -> tensor<2x3xf32> attributes {arg_names = ["s", "a", "b"]} {
    %0 = tcg.tensor %i in [0, 2) name "i" -> tensor<2x3xf32> {
      %1 = tcg.tensor %j in [0, 3) name "j" -> tensor<3xf32> {
        %2 = tcg.reduce add %k in [0, 4) name "k" -> f32 {
          %3 = tcg.input %s0[%i] : tensor<2xf32>
          %4 = tcg.input %a0[%i, %k] : tensor<2x4xf32>
          %5 = tcg.compute mul %3, %4 : (f32, f32) -> f32
          %6 = tcg.reduce add %l in [0, 5) name "l" -> f32 {
            %7 = tcg.input %b0[%l, %j] : tensor<5x3xf32>
            %8 = tcg.compute mul %5, %7 : (f32, f32) -> f32
            tcg.yield %8 : f32
          }
          tcg.yield %6 : f32
        }
        tcg.yield %2 : f32
      }
      tcg.yield %1 : tensor<3xf32>
    }
    tcg.yield %0 : tensor<2x3xf32>
  }
  return %r : tensor<2x3xf32>
}
