// RUN: raf-opt %s | raf-opt | FileCheck %s
// RUN: raf-opt %s --mlir-print-op-generic | raf-opt | FileCheck %s

// The custom syntax of every tcg op, printed back as written (and the same
// after a trip through the generic form).

// CHECK-LABEL: func.func @gemm
// CHECK:      %[[R:.*]] = tcg.kernel "vta.gemm.1x16x16" (%a = %{{.*}} : tensor<1x16xi8>, %b = %{{.*}} : tensor<16x16xi8>) -> tensor<1x16xi32> attributes {arg_names = ["a", "b"], result_name = "c"} {
// CHECK-NEXT:   %[[X:.*]] = tcg.tensor %x in [0, 1) name "x" gemm_axis x -> tensor<1x16xi32> {
// CHECK-NEXT:     %[[Y:.*]] = tcg.tensor %y in [0, 16) name "y" gemm_axis y -> tensor<16xi32> {
// CHECK-NEXT:       %[[Z:.*]] = tcg.reduce add %z in [0, 16) name "z" gemm_axis z -> i32 {
// CHECK-NEXT:         %[[A:.*]] = tcg.input %a[%x, %z] : tensor<1x16xi8>
// CHECK-NEXT:         %[[B:.*]] = tcg.input %b[%y, %z] : tensor<16x16xi8>
// CHECK-NEXT:         %[[P:.*]] = tcg.compute mul %[[A]], %[[B]] : (i8, i8) -> i32
// CHECK-NEXT:         tcg.yield %[[P]] : i32
// CHECK-NEXT:       }
// CHECK-NEXT:       tcg.yield %[[Z]] : i32
// CHECK-NEXT:     }
// CHECK-NEXT:     tcg.yield %[[Y]] : tensor<16xi32>
// CHECK-NEXT:   }
// CHECK-NEXT:   tcg.yield %[[X]] : tensor<1x16xi32>
// CHECK-NEXT: }
// CHECK-NEXT: return %[[R]]
func.func @gemm(%lhs: tensor<1x16xi8>, %rhs: tensor<16x16xi8>) -> tensor<1x16xi32> {
  %c = tcg.kernel "vta.gemm.1x16x16" (%a = %lhs : tensor<1x16xi8>, %b = %rhs : tensor<16x16xi8>)
      -> tensor<1x16xi32> attributes {arg_names = ["a", "b"], result_name = "c"} {
    %0 = tcg.tensor %x in [0, 1) name "x" gemm_axis x -> tensor<1x16xi32> {
      %1 = tcg.tensor %y in [0, 16) name "y" gemm_axis y -> tensor<16xi32> {
        %2 = tcg.reduce add %z in [0, 16) name "z" gemm_axis z -> i32 {
          %3 = tcg.input %a[%x, %z] : tensor<1x16xi8>
          %4 = tcg.input %b[%y, %z] : tensor<16x16xi8>
          %5 = tcg.compute mul %3, %4 : (i8, i8) -> i32
          tcg.yield %5 : i32
        }
        tcg.yield %2 : i32
      }
      tcg.yield %1 : tensor<16xi32>
    }
    tcg.yield %0 : tensor<1x16xi32>
  }
  return %c : tensor<1x16xi32>
}

// A grouped, strided, padded convolution: nested reductions, floordiv in the
// channel access and a zero-padded view.
// CHECK-LABEL: func.func @grouped_conv
// CHECK:      tcg.kernel "conv2d" (%data = %{{.*}} : tensor<1x4x5x5xf32>, %weight = %{{.*}} : tensor<6x2x3x3xf32>) -> tensor<1x6x3x3xf32> attributes {arg_names = ["data", "weight"]} {
// CHECK:      tcg.reduce add %ic in [0, 2) name "ic" gemm_axis z -> f32 {
// CHECK-NEXT:   tcg.reduce add %kh in [0, 3) name "kh" -> f32 {
// CHECK-NEXT:     tcg.reduce add %kw in [0, 3) name "kw" -> f32 {
// CHECK-NEXT:       tcg.input %data[%n, (%oc floordiv 3) * 2 + %ic, %oh * 2 + %kh, %ow * 2 + %kw] pad_low [0, 0, 1, 1] pad_high [0, 0, 1, 1] : tensor<1x4x5x5xf32>
// CHECK-NEXT:       tcg.input %weight[%oc, %ic, %kh, %kw] : tensor<6x2x3x3xf32>
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

// A transposed convolution's read: a dilated and padded view, a flipped
// kernel (negative coefficients), and constants in the access.
// CHECK-LABEL: func.func @dilated_view
// CHECK:      tcg.input %d[%i + %k] pad_low [2] pad_high [2] dilation [2] : tensor<4xf32>
// CHECK-NEXT: tcg.input %w[-%k + 2, 0] : tensor<3x1xf32>
// CHECK-NEXT: tcg.compute mul
func.func @dilated_view(%x: tensor<4xf32>, %y: tensor<3x1xf32>) -> tensor<9xf32> {
  %r = tcg.kernel (%d = %x : tensor<4xf32>, %w = %y : tensor<3x1xf32>) -> tensor<9xf32>
      attributes {arg_names = ["d", "w"]} {
    %0 = tcg.tensor %i in [0, 9) name "i" -> tensor<9xf32> {
      %1 = tcg.reduce add %k in [0, 3) name "k" -> f32 {
        %2 = tcg.input %d[%i + %k] pad_low [2] pad_high [2] dilation [2] : tensor<4xf32>
        %3 = tcg.input %w[2 - %k, 0] : tensor<3x1xf32>
        %4 = tcg.compute mul %2, %3 : (f32, f32) -> f32
        tcg.yield %4 : f32
      }
      tcg.yield %1 : f32
    }
    tcg.yield %0 : tensor<9xf32>
  }
  return %r : tensor<9xf32>
}

// Every scalar operation and reduction kind, a body without reduction, mod
// in an access, and a sequence of two computations where the second reads
// the first (a read-after-write dependency). Without `name`, iterators print
// as %argN; the parser folds `%l mod 1` to 0 and drops the unused iterator.
// CHECK-LABEL: func.func @sequence
// CHECK:      %[[T:.*]] = tcg.tensor %[[I:.*]] in [0, 8) -> tensor<8xf32> {
// CHECK:        tcg.input %{{.*}}[-%[[I]] + 7] : tensor<8xf32>
// CHECK:        tcg.compute sub %{{.*}}, %{{.*}} : (f32, f32) -> f32
// CHECK:        tcg.compute max
// CHECK:        tcg.compute min
// CHECK:        tcg.input %{{.*}}[%[[I]] mod 4] : tensor<4xf16>
// CHECK:        tcg.compute add %{{.*}}, %{{.*}} : (f16, f32) -> f32
// CHECK:      tcg.tensor %j in [0, 2) name "j" -> tensor<2xf32> {
// CHECK-NEXT:   tcg.reduce max %k in [0, 4) name "k" -> f32 {
// CHECK-NEXT:     tcg.reduce mul %l in [0, 2) name "l" -> f32 {
// CHECK-NEXT:       tcg.reduce min %m in [0, 1) name "m" -> f32 {
// CHECK-NEXT:         tcg.input %[[T]][%j * 4 + %k + %m] : tensor<8xf32>
func.func @sequence(%x: tensor<8xf32>, %h: tensor<4xf16>) -> tensor<2xf32> {
  %r = tcg.kernel (%a = %x : tensor<8xf32>, %b = %h : tensor<4xf16>) -> tensor<2xf32> {
    %t = tcg.tensor %i in [0, 8) -> tensor<8xf32> {
      %0 = tcg.input %a[%i] : tensor<8xf32>
      %1 = tcg.input %a[7 - %i] : tensor<8xf32>
      %2 = tcg.compute sub %0, %1 : (f32, f32) -> f32
      %3 = tcg.compute max %2, %0 : (f32, f32) -> f32
      %4 = tcg.compute min %3, %1 : (f32, f32) -> f32
      %5 = tcg.input %b[%i mod 4] : tensor<4xf16>
      %6 = tcg.compute add %5, %4 : (f16, f32) -> f32
      tcg.yield %6 : f32
    }
    %u = tcg.tensor %j in [0, 2) name "j" -> tensor<2xf32> {
      %0 = tcg.reduce max %k in [0, 4) name "k" -> f32 {
        %1 = tcg.reduce mul %l in [0, 2) name "l" -> f32 {
          %2 = tcg.reduce min %m in [0, 1) name "m" -> f32 {
            %3 = tcg.input %t[%j * 4 + %k + %l mod 1 + %m] : tensor<8xf32>
            tcg.yield %3 : f32
          }
          tcg.yield %2 : f32
        }
        tcg.yield %1 : f32
      }
      tcg.yield %0 : f32
    }
    tcg.yield %u : tensor<2xf32>
  }
  return %r : tensor<2xf32>
}
