// RUN: raf-opt %s --convert-tcg-to-linalg | FileCheck %s

// One linalg.generic per computation: parallel then reduction iterators,
// accesses as indexing maps, views as tensor.pad / strided insert_slice,
// neutral-element initialisation, arith bodies with widening.

// CHECK-DAG: #[[CONV_D:.*]] = affine_map<(d0, d1, d2, d3, d4, d5, d6) -> (d0, d4, d2 * 2 + d5, d3 * 2 + d6)>
// CHECK-DAG: #[[CONV_W:.*]] = affine_map<(d0, d1, d2, d3, d4, d5, d6) -> (d1, d4, d5, d6)>
// CHECK-DAG: #[[CONV_O:.*]] = affine_map<(d0, d1, d2, d3, d4, d5, d6) -> (d0, d1, d2, d3)>
// CHECK-DAG: #[[FLIP:.*]] = affine_map<(d0, d1) -> (-d1 + 2)>
// CHECK-DAG: #[[PIN:.*]] = affine_map<(d0, d1) -> (d1)>

// CHECK-LABEL: func.func @conv
// CHECK-SAME:    (%[[X:.*]]: tensor<1x3x8x8xf32>, %[[W:.*]]: tensor<4x3x3x3xf32>)
// CHECK:         %[[ZERO:.*]] = arith.constant 0.000000e+00 : f32
// CHECK:         %[[PAD:.*]] = tensor.pad %[[X]] low[0, 0, 1, 1] high[0, 0, 1, 1]
// CHECK:           tensor.yield %[[ZERO]] : f32
// CHECK:         } : tensor<1x3x8x8xf32> to tensor<1x3x10x10xf32>
// CHECK:         %[[EMPTY:.*]] = tensor.empty() : tensor<1x4x4x4xf32>
// CHECK:         %[[INIT:.*]] = linalg.fill ins(%{{.*}} : f32) outs(%[[EMPTY]] : tensor<1x4x4x4xf32>)
// CHECK:         %[[R:.*]] = linalg.generic {indexing_maps = [#[[CONV_D]], #[[CONV_W]], #[[CONV_O]]], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction", "reduction", "reduction"]}
// CHECK-SAME:        ins(%[[PAD]], %[[W]] : tensor<1x3x10x10xf32>, tensor<4x3x3x3xf32>) outs(%[[INIT]] : tensor<1x4x4x4xf32>)
// CHECK:         ^bb0(%[[A:.*]]: f32, %[[B:.*]]: f32, %[[ACC:.*]]: f32):
// CHECK-NEXT:      %[[P:.*]] = arith.mulf %[[A]], %[[B]] : f32
// CHECK-NEXT:      %[[S:.*]] = arith.addf %[[ACC]], %[[P]] : f32
// CHECK-NEXT:      linalg.yield %[[S]] : f32
// CHECK:         return %[[R]]
// CHECK-NOT:     tcg.
func.func @conv(%x: tensor<1x3x8x8xf32>, %w: tensor<4x3x3x3xf32>) -> tensor<1x4x4x4xf32> {
  %r = tcg.kernel (%data = %x : tensor<1x3x8x8xf32>, %weight = %w : tensor<4x3x3x3xf32>) -> tensor<1x4x4x4xf32> {
    %0 = tcg.tensor %n in [0, 1) -> tensor<1x4x4x4xf32> {
      %1 = tcg.tensor %oc in [0, 4) -> tensor<4x4x4xf32> {
        %2 = tcg.tensor %oh in [0, 4) -> tensor<4x4xf32> {
          %3 = tcg.tensor %ow in [0, 4) -> tensor<4xf32> {
            %4 = tcg.reduce add %ic in [0, 3) -> f32 {
              %5 = tcg.reduce add %kh in [0, 3) -> f32 {
                %6 = tcg.reduce add %kw in [0, 3) -> f32 {
                  %7 = tcg.input %data[%n, %ic, %oh * 2 + %kh, %ow * 2 + %kw] pad_low [0, 0, 1, 1] pad_high [0, 0, 1, 1] : tensor<1x3x8x8xf32>
                  %8 = tcg.input %weight[%oc, %ic, %kh, %kw] : tensor<4x3x3x3xf32>
                  %9 = tcg.compute mul %7, %8 : (f32, f32) -> f32
                  tcg.yield %9 : f32
                }
                tcg.yield %6 : f32
              }
              tcg.yield %5 : f32
            }
            tcg.yield %4 : f32
          }
          tcg.yield %3 : tensor<4xf32>
        }
        tcg.yield %2 : tensor<4x4xf32>
      }
      tcg.yield %1 : tensor<4x4x4xf32>
    }
    tcg.yield %0 : tensor<1x4x4x4xf32>
  }
  return %r : tensor<1x4x4x4xf32>
}

// A dilated view: a strided insert into zeros. The flipped kernel's
// iterator appears only in `2 - k`, so an unread i8 operand gives linalg
// its range. i8 x i8 widens to i32; max starts at the lowest i32.
// CHECK-LABEL: func.func @dilated_flipped
// CHECK-SAME:    (%[[X:.*]]: tensor<4xi8>, %[[W:.*]]: tensor<3xi8>)
// CHECK:         %[[ZEROS:.*]] = linalg.fill ins(%{{.*}} : i8) outs(%{{.*}} : tensor<11xi8>)
// CHECK:         %[[VIEW:.*]] = tensor.insert_slice %[[X]] into %[[ZEROS]][2] [4] [2] : tensor<4xi8> into tensor<11xi8>
// CHECK:         %[[RANGE:.*]] = tensor.empty() : tensor<3xi8>
// CHECK:         %[[LOWEST:.*]] = arith.constant -2147483648 : i32
// CHECK:         %[[INIT:.*]] = linalg.fill ins(%[[LOWEST]] : i32)
// CHECK:         linalg.generic {indexing_maps = [#{{.*}}, #[[FLIP]], #[[PIN]], #{{.*}}], iterator_types = ["parallel", "reduction"]}
// CHECK-SAME:        ins(%[[VIEW]], %[[W]], %[[RANGE]] : tensor<11xi8>, tensor<3xi8>, tensor<3xi8>) outs(%[[INIT]] : tensor<9xi32>)
// CHECK:         ^bb0(%[[A:.*]]: i8, %[[B:.*]]: i8, %{{.*}}: i8, %[[ACC:.*]]: i32):
// CHECK-NEXT:      %[[A32:.*]] = arith.extsi %[[A]] : i8 to i32
// CHECK-NEXT:      %[[B32:.*]] = arith.extsi %[[B]] : i8 to i32
// CHECK-NEXT:      %[[P:.*]] = arith.muli %[[A32]], %[[B32]] : i32
// CHECK-NEXT:      %[[M:.*]] = arith.maxsi %[[ACC]], %[[P]] : i32
// CHECK-NEXT:      linalg.yield %[[M]] : i32
func.func @dilated_flipped(%x: tensor<4xi8>, %y: tensor<3xi8>) -> tensor<9xi32> {
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

// Float neutral elements: +inf for min, 1 for mul; f16 widened with extf.
// CHECK-LABEL: func.func @neutral_elements
// CHECK:         arith.constant 0x7F800000 : f32
// CHECK:         arith.extf %{{.*}} : f16 to f32
// CHECK:         arith.minimumf
// CHECK:         arith.constant 1.000000e+00 : f32
// CHECK:         arith.mulf
// CHECK:         arith.constant 2147483647 : i32
// CHECK:         arith.minsi
func.func @neutral_elements(%x: tensor<2x4xf16>, %y: tensor<2x4xi32>) -> (tensor<2xf32>, tensor<2xf32>, tensor<2xi32>) {
  %min = tcg.kernel (%a = %x : tensor<2x4xf16>) -> tensor<2xf32> {
    %0 = tcg.tensor %i in [0, 2) -> tensor<2xf32> {
      %1 = tcg.reduce min %k in [0, 4) -> f32 {
        %2 = tcg.input %a[%i, %k] : tensor<2x4xf16>
        %3 = tcg.compute add %2, %2 : (f16, f16) -> f32
        tcg.yield %3 : f32
      }
      tcg.yield %1 : f32
    }
    tcg.yield %0 : tensor<2xf32>
  }
  %prod = tcg.kernel (%a = %min : tensor<2xf32>) -> tensor<2xf32> {
    %0 = tcg.tensor %i in [0, 2) -> tensor<2xf32> {
      %1 = tcg.reduce mul %k in [0, 2) -> f32 {
        %2 = tcg.input %a[%k] : tensor<2xf32>
        %3 = tcg.input %a[%i] : tensor<2xf32>
        %4 = tcg.compute sub %2, %3 : (f32, f32) -> f32
        tcg.yield %4 : f32
      }
      tcg.yield %1 : f32
    }
    tcg.yield %0 : tensor<2xf32>
  }
  %imin = tcg.kernel (%a = %y : tensor<2x4xi32>) -> tensor<2xi32> {
    %0 = tcg.tensor %i in [0, 2) -> tensor<2xi32> {
      %1 = tcg.reduce min %k in [0, 4) -> i32 {
        %2 = tcg.input %a[%i, %k] : tensor<2x4xi32>
        tcg.yield %2 : i32
      }
      tcg.yield %1 : i32
    }
    tcg.yield %0 : tensor<2xi32>
  }
  return %min, %prod, %imin : tensor<2xf32>, tensor<2xf32>, tensor<2xi32>
}

// Without reduction the output starts empty; a sequence reads the earlier
// computation's result; a view shared by two reads is built once; a read
// indexed by a loop alone that covers part of a dimension is sliced to the
// loop's extent (linalg takes loop ranges from such dimensions).
// CHECK-LABEL: func.func @sequence
// CHECK-SAME:    (%[[X:.*]]: tensor<4xf32>)
// CHECK:         %[[PAD:.*]] = tensor.pad %[[X]] low[1] high[1]
// CHECK-NOT:     tensor.pad
// CHECK:         %[[SLICE:.*]] = tensor.extract_slice %[[PAD]][0] [4] [1] : tensor<6xf32> to tensor<4xf32>
// CHECK:         %[[E1:.*]] = tensor.empty() : tensor<4xf32>
// CHECK:         %[[FIRST:.*]] = linalg.generic {{.*}} iterator_types = ["parallel"]} ins(%[[PAD]], %[[SLICE]] : tensor<6xf32>, tensor<4xf32>) outs(%[[E1]] : tensor<4xf32>)
// CHECK:           arith.subf
// CHECK:         linalg.generic {{.*}} ins(%[[FIRST]], %[[X]] : tensor<4xf32>, tensor<4xf32>)
// CHECK:           arith.mulf
func.func @sequence(%x: tensor<4xf32>) -> tensor<4xf32> {
  %r = tcg.kernel (%a = %x : tensor<4xf32>) -> tensor<4xf32> {
    %t = tcg.tensor %i in [0, 4) -> tensor<4xf32> {
      %0 = tcg.input %a[%i + 2] pad_low [1] pad_high [1] : tensor<4xf32>
      %1 = tcg.input %a[%i] pad_low [1] pad_high [1] : tensor<4xf32>
      %2 = tcg.compute sub %0, %1 : (f32, f32) -> f32
      tcg.yield %2 : f32
    }
    %u = tcg.tensor %i in [0, 4) -> tensor<4xf32> {
      %0 = tcg.input %t[%i] : tensor<4xf32>
      %1 = tcg.input %a[%i] : tensor<4xf32>
      %2 = tcg.compute mul %0, %1 : (f32, f32) -> f32
      tcg.yield %2 : f32
    }
    tcg.yield %u : tensor<4xf32>
  }
  return %r : tensor<4xf32>
}
