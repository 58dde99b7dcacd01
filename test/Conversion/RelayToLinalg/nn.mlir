// RUN: raf-opt %s --convert-relay-to-linalg | FileCheck %s
// The result bufferizes and lowers to LLVM IR:
// RUN: raf-opt %s --convert-relay-to-linalg | mlir-opt %lower_to_llvm \
// RUN:   | mlir-translate --mlir-to-llvmir -o /dev/null

// Convolutions, matrix products and pooling (NNToLinalg.cpp).

// The flipped kernel of @conv2d_transpose_groups reads w[g * 3 + i, o, 2 - kh, 2 - kw].
// CHECK-DAG: #[[FLIP:.*]] = affine_map<(d0, d1, d2, d3, d4) -> (d0 * 3 + d2, d1, -d3 + 2, -d4 + 2)>
// Transposed operands of the matrix products, as indexing maps over
// ([batch,] m, n, k):
// CHECK-DAG: #[[$MK:.*]] = affine_map<(d0, d1, d2) -> (d0, d2)>
// CHECK-DAG: #[[$NK:.*]] = affine_map<(d0, d1, d2) -> (d1, d2)>
// CHECK-DAG: #[[$MN:.*]] = affine_map<(d0, d1, d2) -> (d0, d1)>
// CHECK-DAG: #[[$KM:.*]] = affine_map<(d0, d1, d2) -> (d2, d0)>
// CHECK-DAG: #[[$KN:.*]] = affine_map<(d0, d1, d2) -> (d2, d1)>
// CHECK-DAG: #[[$BMK:.*]] = affine_map<(d0, d1, d2, d3) -> (d0, d1, d3)>
// CHECK-DAG: #[[$BNK:.*]] = affine_map<(d0, d1, d2, d3) -> (d0, d2, d3)>
// CHECK-DAG: #[[$BMN:.*]] = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>

// CHECK-LABEL: func.func @conv2d_nchw
func.func @conv2d_nchw(%x: tensor<1x3x8x8xf32>, %w: tensor<4x3x3x3xf32>) -> tensor<1x4x5x2xf32> {
  // The input in an uninitialised buffer, then only the border rows filled
  // (no tensor.pad: it bufferizes to a fill of the whole buffer).
  // CHECK-NOT: tensor.pad
  // CHECK: %[[EMPTY:.*]] = tensor.empty() : tensor<1x3x11x8xf32>
  // CHECK: %[[IN:.*]] = tensor.insert_slice %arg0 into %[[EMPTY]][0, 0, 1, 0] [1, 3, 8, 8] [1, 1, 1, 1]
  // CHECK: %[[TOP:.*]] = tensor.extract_slice %[[IN]][0, 0, 0, 0] [1, 3, 1, 8] [1, 1, 1, 1]
  // CHECK: %[[TOPFILL:.*]] = linalg.fill ins(%{{.*}} : f32) outs(%[[TOP]] : tensor<1x3x1x8xf32>)
  // CHECK: %[[WITHTOP:.*]] = tensor.insert_slice %[[TOPFILL]] into %[[IN]][0, 0, 0, 0] [1, 3, 1, 8] [1, 1, 1, 1]
  // CHECK: %[[BOTTOM:.*]] = tensor.extract_slice %[[WITHTOP]][0, 0, 9, 0] [1, 3, 2, 8] [1, 1, 1, 1]
  // CHECK: %[[BOTTOMFILL:.*]] = linalg.fill ins(%{{.*}} : f32) outs(%[[BOTTOM]] : tensor<1x3x2x8xf32>)
  // CHECK: %[[PAD:.*]] = tensor.insert_slice %[[BOTTOMFILL]] into %[[WITHTOP]][0, 0, 9, 0] [1, 3, 2, 8] [1, 1, 1, 1]
  // CHECK: %[[INIT:.*]] = linalg.fill
  // CHECK: linalg.conv_2d_nchw_fchw {dilations = dense<[1, 2]> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>} ins(%[[PAD]], %{{.*}} : tensor<1x3x11x8xf32>, tensor<4x3x3x3xf32>) outs(%[[INIT]] : tensor<1x4x5x2xf32>)
  // CHECK-NOT: relay.
  %0 = relay.nn.conv2d %x, %w {strides = array<i64: 2, 2>, padding = array<i64: 1, 0, 2, 0>, dilation = array<i64: 1, 2>} : (tensor<1x3x8x8xf32>, tensor<4x3x3x3xf32>)
  return %0 : tensor<1x4x5x2xf32>
}

// CHECK-LABEL: func.func @conv2d_no_padding
func.func @conv2d_no_padding(%x: tensor<1x3x8x8xf32>, %w: tensor<4x3x3x3xf32>) -> tensor<1x4x6x6xf32> {
  // CHECK-NOT: tensor.pad
  // CHECK: linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>} ins(%arg0, %arg1
  %0 = relay.nn.conv2d %x, %w : (tensor<1x3x8x8xf32>, tensor<4x3x3x3xf32>)
  return %0 : tensor<1x4x6x6xf32>
}

// CHECK-LABEL: func.func @conv2d_nhwc_hwio
func.func @conv2d_nhwc_hwio(%x: tensor<1x8x8x3xf32>, %w: tensor<3x3x3x4xf32>) -> tensor<1x8x8x4xf32> {
  // CHECK: tensor.insert_slice %arg0 into %{{.*}}[0, 1, 1, 0] [1, 8, 8, 3] [1, 1, 1, 1] : tensor<1x8x8x3xf32> into tensor<1x10x10x3xf32>
  // CHECK-COUNT-4: linalg.fill
  // CHECK: linalg.conv_2d_nhwc_hwcf
  // CHECK-NOT: linalg.transpose
  %0 = relay.nn.conv2d %x, %w {padding = array<i64: 1>, data_layout = #relay.layout<NHWC>, kernel_layout = #relay.layout<HWIO>} : (tensor<1x8x8x3xf32>, tensor<3x3x3x4xf32>)
  return %0 : tensor<1x8x8x4xf32>
}

// Other layouts go through NCHW/OIHW and back.
// CHECK-LABEL: func.func @conv2d_nhwc_oihw
func.func @conv2d_nhwc_oihw(%x: tensor<1x8x8x3xf32>, %w: tensor<4x3x3x3xf32>) -> tensor<1x6x6x4xf32> {
  // CHECK: linalg.transpose ins(%arg0 : tensor<1x8x8x3xf32>) outs(%{{.*}} : tensor<1x3x8x8xf32>) permutation = [0, 3, 1, 2]
  // CHECK: linalg.conv_2d_nchw_fchw
  // CHECK: linalg.transpose ins(%{{.*}} : tensor<1x4x6x6xf32>) outs(%{{.*}} : tensor<1x6x6x4xf32>) permutation = [0, 2, 3, 1]
  %0 = relay.nn.conv2d %x, %w {data_layout = #relay.layout<NHWC>} : (tensor<1x8x8x3xf32>, tensor<4x3x3x3xf32>)
  return %0 : tensor<1x6x6x4xf32>
}

// CHECK-LABEL: func.func @conv2d_depthwise
func.func @conv2d_depthwise(%x: tensor<1x4x8x8xf32>, %w: tensor<4x1x3x3xf32>) -> tensor<1x4x6x6xf32> {
  // CHECK: %[[K:.*]] = tensor.collapse_shape %arg1 {{\[\[}}0], [1, 2], [3]] : tensor<4x1x3x3xf32> into tensor<4x3x3xf32>
  // CHECK: linalg.depthwise_conv_2d_nchw_chw {{.*}} ins(%arg0, %[[K]] : tensor<1x4x8x8xf32>, tensor<4x3x3xf32>)
  %0 = relay.nn.conv2d %x, %w {groups = 4 : i64} : (tensor<1x4x8x8xf32>, tensor<4x1x3x3xf32>)
  return %0 : tensor<1x4x6x6xf32>
}

// CHECK-LABEL: func.func @conv2d_groups
func.func @conv2d_groups(%x: tensor<1x4x8x8xf32>, %w: tensor<6x2x3x3xf32>) -> tensor<1x6x6x6xf32> {
  // CHECK: tensor.expand_shape %arg0 {{\[\[}}0], [1, 2], [3], [4]] output_shape [1, 2, 2, 8, 8]
  // CHECK: tensor.expand_shape %arg1 {{\[\[}}0, 1], [2], [3], [4]] output_shape [2, 3, 2, 3, 3]
  // CHECK: %[[G:.*]] = linalg.conv_2d_ngchw_gfchw {{.*}} -> tensor<1x2x3x6x6xf32>
  // CHECK: tensor.collapse_shape %[[G]] {{\[\[}}0], [1, 2], [3], [4]] : tensor<1x2x3x6x6xf32> into tensor<1x6x6x6xf32>
  %0 = relay.nn.conv2d %x, %w {groups = 2 : i64} : (tensor<1x4x8x8xf32>, tensor<6x2x3x3xf32>)
  return %0 : tensor<1x6x6x6xf32>
}

// out_dtype: the named op extends i8 operands to the i32 accumulator.
// CHECK-LABEL: func.func @conv2d_i8_i32
func.func @conv2d_i8_i32(%x: tensor<1x3x4x4xi8>, %w: tensor<2x3x3x3xi8>) -> tensor<1x2x2x2xi32> {
  // CHECK: %[[ZERO:.*]] = arith.constant 0 : i32
  // CHECK: linalg.fill ins(%[[ZERO]] : i32)
  // CHECK: linalg.conv_2d_nchw_fchw {{.*}} ins(%arg0, %arg1 : tensor<1x3x4x4xi8>, tensor<2x3x3x3xi8>) outs(%{{.*}} : tensor<1x2x2x2xi32>)
  %0 = relay.nn.conv2d %x, %w {out_dtype = i32} : (tensor<1x3x4x4xi8>, tensor<2x3x3x3xi8>)
  return %0 : tensor<1x2x2x2xi32>
}

// One group: col2im. The product reads the IOHW kernel as a transposed
// [3, 2*3*3] matrix; each of the 9 taps adds its plane of the columns into
// the uncropped 9x9 sum at stride 2; padding 1 crops it to 8x8.
// CHECK-LABEL: func.func @conv2d_transpose(
func.func @conv2d_transpose(%x: tensor<1x3x4x4xf32>, %w: tensor<3x2x3x3xf32>) -> tensor<1x2x8x8xf32> {
  // CHECK-DAG: %[[X:.*]] = tensor.collapse_shape %arg0 {{\[\[}}0, 1], [2, 3]] : tensor<1x3x4x4xf32> into tensor<3x16xf32>
  // CHECK-DAG: %[[W:.*]] = tensor.collapse_shape %arg1 {{\[\[}}0], [1, 2, 3]] : tensor<3x2x3x3xf32> into tensor<3x18xf32>
  // CHECK: %[[COLS:.*]] = linalg.matmul indexing_maps = [#[[$KM]], #[[$KN]], #[[$MN]]] ins(%[[W]], %[[X]] : tensor<3x18xf32>, tensor<3x16xf32>) outs(%{{.*}} : tensor<18x16xf32>)
  // CHECK: %[[TAPS:.*]] = tensor.expand_shape %[[COLS]] {{.*}} into tensor<2x3x3x1x4x4xf32>
  // CHECK: %[[SUM:.*]] = linalg.fill {{.*}} -> tensor<1x2x9x9xf32>
  // CHECK: tensor.extract_slice %[[TAPS]][0, 0, 0, 0, 0, 0] [2, 1, 1, 1, 4, 4] [1, 1, 1, 1, 1, 1] : tensor<2x3x3x1x4x4xf32> to tensor<2x1x4x4xf32>
  // CHECK: tensor.extract_slice %[[SUM]][0, 0, 0, 0] [1, 2, 4, 4] [1, 1, 2, 2]
  // CHECK: linalg.generic
  // CHECK: tensor.insert_slice %{{.*}} into %[[SUM]][0, 0, 0, 0] [1, 2, 4, 4] [1, 1, 2, 2]
  // CHECK-COUNT-8: tensor.insert_slice
  // CHECK: tensor.extract_slice %{{.*}}[0, 0, 1, 1] [1, 2, 8, 8] [1, 1, 1, 1] : tensor<1x2x9x9xf32> to tensor<1x2x8x8xf32>
  // CHECK-NOT: linalg.conv
  %0 = relay.nn.conv2d_transpose %x, %w {strides = array<i64: 2, 2>, padding = array<i64: 1>, output_padding = array<i64: 1, 1>} : (tensor<1x3x4x4xf32>, tensor<3x2x3x3xf32>)
  return %0 : tensor<1x2x8x8xf32>
}

// Padding beyond dilation * (K - 1) only moves the crop.
// CHECK-LABEL: func.func @conv2d_transpose_crop
func.func @conv2d_transpose_crop(%x: tensor<1x1x4x4xf32>, %w: tensor<1x1x3x3xf32>) -> tensor<1x1x6x6xf32> {
  // CHECK: linalg.fill {{.*}} -> tensor<1x1x12x12xf32>
  // CHECK: tensor.extract_slice %{{.*}}[0, 0, 3, 3] [1, 1, 6, 6] [1, 1, 1, 1] : tensor<1x1x12x12xf32> to tensor<1x1x6x6xf32>
  %0 = relay.nn.conv2d_transpose %x, %w {strides = array<i64: 3, 3>, padding = array<i64: 3>} : (tensor<1x1x4x4xf32>, tensor<1x1x3x3xf32>)
  return %0 : tensor<1x1x6x6xf32>
}

// Stride 1 (a stride-1 convolution's data gradient): no columns and no
// col2im; the input padded by K - 1 - padding = 1 convolved at stride 1 with
// the flipped kernel, I and O exchanged, i.e. a forward-shaped product.
// CHECK-LABEL: func.func @conv2d_transpose_stride1
func.func @conv2d_transpose_stride1(%x: tensor<1x3x4x4xf32>, %w: tensor<3x2x3x3xf32>) -> tensor<1x2x4x4xf32> {
  // CHECK-NOT: linalg.matmul
  // CHECK: %[[ZEROS:.*]] = linalg.fill {{.*}} -> tensor<1x3x6x6xf32>
  // CHECK: %[[PADDED:.*]] = tensor.insert_slice %arg0 into %[[ZEROS]][0, 0, 1, 1] [1, 3, 4, 4] [1, 1, 1, 1]
  // CHECK: %[[FLIPPED:.*]] = linalg.generic {{.*}} ins(%arg1 : tensor<3x2x3x3xf32>)
  // CHECK: %[[KERNEL:.*]] = tensor.collapse_shape %[[FLIPPED]] {{.*}} into tensor<2x3x3x3xf32>
  // CHECK: linalg.conv_2d_nchw_fchw {{.*}} ins(%[[PADDED]], %[[KERNEL]] : tensor<1x3x6x6xf32>, tensor<2x3x3x3xf32>) outs(%{{.*}} : tensor<1x2x4x4xf32>)
  // CHECK-NOT: tensor.insert_slice
  %0 = relay.nn.conv2d_transpose %x, %w {padding = array<i64: 1>} : (tensor<1x3x4x4xf32>, tensor<3x2x3x3xf32>)
  return %0 : tensor<1x2x4x4xf32>
}

// Stride 1 with more input channels (16) than input positions (9): col2im,
// since the flipped kernel would be a larger copy than the columns.
// CHECK-LABEL: func.func @conv2d_transpose_stride1_many_channels
func.func @conv2d_transpose_stride1_many_channels(%x: tensor<1x16x3x3xf32>, %w: tensor<16x4x3x3xf32>) -> tensor<1x4x3x3xf32> {
  // CHECK: linalg.matmul {{.*}} outs(%{{.*}} : tensor<36x9xf32>)
  // CHECK-COUNT-9: tensor.insert_slice
  // CHECK-NOT: linalg.conv
  %0 = relay.nn.conv2d_transpose %x, %w {padding = array<i64: 1>} : (tensor<1x16x3x3xf32>, tensor<16x4x3x3xf32>)
  return %0 : tensor<1x4x3x3xf32>
}

// Two groups: the input is spread by 2 into a zero tensor with
// dilation * (K - 1) - padding = 1 row/column before and
// 1 + output_padding = 2 after, then convolved with the flipped kernel.
// CHECK-LABEL: func.func @conv2d_transpose_groups
func.func @conv2d_transpose_groups(%x: tensor<1x6x4x4xf32>, %w: tensor<6x2x3x3xf32>) -> tensor<1x4x8x8xf32> {
  // CHECK: %[[ZEROS:.*]] = linalg.fill {{.*}} -> tensor<1x6x10x10xf32>
  // CHECK: %[[SPREAD:.*]] = tensor.insert_slice %arg0 into %[[ZEROS]][0, 0, 1, 1] [1, 6, 4, 4] [1, 1, 2, 2]
  // CHECK: %[[FLIPPED:.*]] = linalg.generic {indexing_maps = [#[[FLIP]], {{.*}}]} ins(%arg1 : tensor<6x2x3x3xf32>)
  // CHECK: tensor.collapse_shape %[[FLIPPED]] {{.*}} into tensor<4x3x3x3xf32>
  // CHECK: linalg.conv_2d_ngchw_gfchw
  %0 = relay.nn.conv2d_transpose %x, %w {groups = 2 : i64, strides = array<i64: 2, 2>, padding = array<i64: 1>, output_padding = array<i64: 1, 1>} : (tensor<1x6x4x4xf32>, tensor<6x2x3x3xf32>)
  return %0 : tensor<1x4x8x8xf32>
}

// CHECK-LABEL: func.func @dense
func.func @dense(%x: tensor<2x3x4xf32>, %w: tensor<5x4xf32>) -> tensor<2x3x5xf32> {
  // CHECK: %[[X:.*]] = tensor.collapse_shape %arg0 {{\[\[}}0, 1], [2]] : tensor<2x3x4xf32> into tensor<6x4xf32>
  // The weight is read transposed through the indexing maps, not copied.
  // CHECK-NOT: linalg.transpose
  // CHECK: %[[Y:.*]] = linalg.matmul indexing_maps = [#[[$MK]], #[[$NK]], #[[$MN]]] ins(%[[X]], %arg1 : tensor<6x4xf32>, tensor<5x4xf32>) outs(%{{.*}} : tensor<6x5xf32>)
  // CHECK: tensor.expand_shape %[[Y]] {{\[\[}}0, 1], [2]] output_shape [2, 3, 5]
  %0 = relay.nn.dense %x, %w : (tensor<2x3x4xf32>, tensor<5x4xf32>)
  return %0 : tensor<2x3x5xf32>
}

// CHECK-LABEL: func.func @matmul
func.func @matmul(%a: tensor<4x3xi8>, %b: tensor<4x5xi8>) -> tensor<3x5xi32> {
  // CHECK-NOT: linalg.transpose
  // CHECK: linalg.matmul indexing_maps = [#[[$KM]], #[[$KN]], #[[$MN]]] ins(%arg0, %arg1 : tensor<4x3xi8>, tensor<4x5xi8>) outs(%{{.*}} : tensor<3x5xi32>)
  %0 = relay.nn.matmul %a, %b {transpose_a = true, out_dtype = i32} : (tensor<4x3xi8>, tensor<4x5xi8>)
  return %0 : tensor<3x5xi32>
}

// transpose_b defaults to true; a batch of 1 is broadcast.
// CHECK-LABEL: func.func @batch_matmul
func.func @batch_matmul(%a: tensor<2x3x4xf32>, %b: tensor<1x5x4xf32>) -> tensor<2x3x5xf32> {
  // CHECK: %[[B2:.*]] = tensor.collapse_shape %arg1 {{\[\[}}0, 1], [2]] : tensor<1x5x4xf32> into tensor<5x4xf32>
  // CHECK: %[[B3:.*]] = linalg.broadcast ins(%[[B2]] : tensor<5x4xf32>) outs(%{{.*}} : tensor<2x5x4xf32>) dimensions = [0]
  // CHECK: linalg.batch_matmul indexing_maps = [#[[$BMK]], #[[$BNK]], #[[$BMN]]] ins(%arg0, %[[B3]] : tensor<2x3x4xf32>, tensor<2x5x4xf32>)
  %0 = relay.nn.batch_matmul %a, %b : (tensor<2x3x4xf32>, tensor<1x5x4xf32>)
  return %0 : tensor<2x3x5xf32>
}

// ceil_mode pads the last window into bounds with -inf.
// CHECK-LABEL: func.func @max_pool2d
func.func @max_pool2d(%x: tensor<1x2x7x7xf32>) -> tensor<1x2x4x4xf32> {
  // CHECK: %[[NEG_INF:.*]] = arith.constant 0xFF800000 : f32
  // CHECK: tensor.insert_slice %arg0 into %{{.*}}[0, 0, 1, 1] [1, 2, 7, 7] [1, 1, 1, 1] : tensor<1x2x7x7xf32> into tensor<1x2x9x9xf32>
  // CHECK-COUNT-3: linalg.fill ins(%[[NEG_INF]] : f32)
  // CHECK: linalg.fill ins(%[[NEG_INF]] : f32)
  // CHECK: %[[PAD:.*]] = tensor.insert_slice
  // CHECK: %[[WIN:.*]] = tensor.empty() : tensor<3x3xf32>
  // CHECK: linalg.pooling_nchw_max {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>} ins(%[[PAD]], %[[WIN]] : tensor<1x2x9x9xf32>, tensor<3x3xf32>)
  %0 = relay.nn.max_pool2d %x {pool_size = array<i64: 3, 3>, strides = array<i64: 2, 2>, padding = array<i64: 1>, ceil_mode = true} : (tensor<1x2x7x7xf32>)
  return %0 : tensor<1x2x4x4xf32>
}

// The divisor counts the taps inside the input (count_include_pad = false):
// 4 in a corner, 6 on an edge, 9 inside.
// CHECK-LABEL: func.func @avg_pool2d
func.func @avg_pool2d(%x: tensor<1x1x4x4xf32>) -> tensor<1x1x4x4xf32> {
  // CHECK: %[[SUM:.*]] = linalg.pooling_nchw_sum
  // CHECK: %[[COUNT:.*]] = arith.constant dense<{{\[\[}}4.000000e+00, 6.000000e+00, 6.000000e+00, 4.000000e+00], [6.000000e+00, 9.000000e+00
  // CHECK: linalg.generic {{.*}} ins(%[[SUM]], %[[COUNT]] : tensor<1x1x4x4xf32>, tensor<4x4xf32>)
  // CHECK: arith.divf
  %0 = relay.nn.avg_pool2d %x {pool_size = array<i64: 3, 3>, padding = array<i64: 1>} : (tensor<1x1x4x4xf32>)
  return %0 : tensor<1x1x4x4xf32>
}

// CHECK-LABEL: func.func @avg_pool2d_include_pad
func.func @avg_pool2d_include_pad(%x: tensor<1x1x4x4xf32>) -> tensor<1x1x4x4xf32> {
  // CHECK: arith.constant dense<9.000000e+00> : tensor<4x4xf32>
  %0 = relay.nn.avg_pool2d %x {pool_size = array<i64: 3, 3>, padding = array<i64: 1>, count_include_pad = true} : (tensor<1x1x4x4xf32>)
  return %0 : tensor<1x1x4x4xf32>
}

// A window lying entirely in the padding has no input element: it averages
// to 0 (PyTorch, the reference evaluator), so its divisor is 1, not 0.
// CHECK-LABEL: func.func @avg_pool2d_empty_window
func.func @avg_pool2d_empty_window(%x: tensor<1x1x2x2xf32>) -> tensor<1x1x4x4xf32> {
  // CHECK: arith.constant dense<1.000000e+00> : tensor<4x4xf32>
  %0 = relay.nn.avg_pool2d %x {pool_size = array<i64: 1, 1>, padding = array<i64: 1>} : (tensor<1x1x2x2xf32>)
  return %0 : tensor<1x1x4x4xf32>
}

// CHECK-LABEL: func.func @global_avg_pool2d_nhwc
func.func @global_avg_pool2d_nhwc(%x: tensor<2x5x6x3xf32>) -> tensor<2x1x1x3xf32> {
  // CHECK: %[[SUM:.*]] = linalg.reduce ins(%arg0 : tensor<2x5x6x3xf32>) outs(%{{.*}} : tensor<2x3xf32>) dimensions = [1, 2]
  // CHECK: arith.constant 3.000000e+01 : f32
  // CHECK: tensor.expand_shape %{{.*}} {{\[\[}}0], [1, 2, 3]] output_shape [2, 1, 1, 3]
  %0 = relay.nn.global_avg_pool2d %x {layout = #relay.layout<NHWC>} : (tensor<2x5x6x3xf32>)
  return %0 : tensor<2x1x1x3xf32>
}
