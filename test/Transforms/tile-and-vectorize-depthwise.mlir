// RUN: raf-opt --split-input-file --raf-tile-and-vectorize %s | FileCheck %s

// A depthwise convolution with more output positions than filter taps:
// output rows as vectors. The taps are broadcast once per channel, each
// block of 16 output columns accumulates in a register, a stride-2 row is
// one contiguous read of 32 and a deinterleaving shuffle, and the fill is
// not read (the accumulator starts from its value).

// CHECK-LABEL: func.func @output_rows
// CHECK-NOT: linalg.fill
// CHECK: scf.for %[[N:.*]] = %c0 to %c1 step %c1
// CHECK: scf.for %[[C:.*]] = %c0 to %c8 step %c1
// CHECK-COUNT-9: vector.broadcast %{{.*}} : f32 to vector<16xf32>
// CHECK: scf.for %[[OH:.*]] = %c0 to %c10 step %c1
// CHECK: scf.for %[[OW:.*]] = %c0 to %c19 step %c16
// CHECK: %[[ROW:.*]] = arith.muli %[[OH]], %c2
// CHECK: %[[COL:.*]] = arith.muli %[[OW]], %c2
// The reads may pass the row's end (masked, no in_bounds attribute).
// CHECK: %[[READ:.*]] = vector.transfer_read %{{.*}}[%[[N]], %[[C]], %[[ROW]], %[[COL]]], %[[PAD:[[:alnum:]_]+]] : tensor<1x8x21x39xf32>, vector<32xf32>{{$}}
// CHECK: %[[EVEN:.*]] = vector.shuffle %[[READ]], %[[READ]] [0, 2, 4, 6, 8, 10, 12, 14, 16, 18, 20, 22, 24, 26, 28, 30]
// CHECK: vector.fma %[[EVEN]]
// CHECK-COUNT-8: vector.fma
// CHECK: vector.transfer_write %{{.*}}, %{{.*}}[%[[N]], %[[C]], %[[OH]], %[[OW]]] : vector<16xf32>, tensor<1x8x10x19xf32>
// CHECK: {raf.parallel}
func.func @output_rows(%input: tensor<1x8x21x39xf32>, %filter: tensor<8x3x3xf32>) -> tensor<1x8x10x19xf32> {
  %zero = arith.constant 0.0 : f32
  %empty = tensor.empty() : tensor<1x8x10x19xf32>
  %init = linalg.fill ins(%zero : f32) outs(%empty : tensor<1x8x10x19xf32>) -> tensor<1x8x10x19xf32>
  %0 = linalg.depthwise_conv_2d_nchw_chw {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>}
         ins(%input, %filter : tensor<1x8x21x39xf32>, tensor<8x3x3xf32>)
         outs(%init : tensor<1x8x10x19xf32>) -> tensor<1x8x10x19xf32>
  return %0 : tensor<1x8x10x19xf32>
}

// -----

// A filter larger than the output (Relay's depthwise weight gradient, the
// input convolved with the output gradient, here dilated by a stride of 2):
// each output element is a vector dot product along the filter rows; the
// last block of a 28-wide filter row is masked; an output that is no fill
// is read and added to.

// CHECK-LABEL: func.func @filter_rows
// CHECK: scf.for %{{.*}} = %c0 to %c3 step %c1
// CHECK: scf.for %{{.*}} = %c0 to %c3 step %c1
// CHECK: scf.for %{{.*}} = %c0 to %c28 step %c1 iter_args(%{{.*}} = %cst{{.*}}) -> (vector<16xf32>)
// CHECK: scf.for %[[KW:.*]] = %c0 to %c28 step %c16
// CHECK: vector.transfer_read %{{[[:alnum:]_]+}}[%{{.*}}], %{{[[:alnum:]_]+}} : tensor<4x28x28xf32>, vector<16xf32>{{$}}
// CHECK: vector.transfer_read %{{[[:alnum:]_]+}}[%{{.*}}], %{{[[:alnum:]_]+}} : tensor<1x4x58x58xf32>, vector<32xf32>{{$}}
// CHECK: vector.shuffle
// CHECK: %[[FMA:.*]] = vector.fma
// CHECK: %[[LEFT:.*]] = arith.subi %c28, %[[KW]]
// CHECK: %[[MASK:.*]] = vector.create_mask %[[LEFT]] : vector<16xi1>
// CHECK: arith.select %[[MASK]], %[[FMA]]
// CHECK: %[[OLD:.*]] = tensor.extract
// CHECK: vector.reduction <add>, %{{.*}}, %[[OLD]] : vector<16xf32> into f32
// CHECK: tensor.insert
func.func @filter_rows(%input: tensor<1x4x58x58xf32>, %filter: tensor<4x28x28xf32>, %init: tensor<1x4x3x3xf32>) -> tensor<1x4x3x3xf32> {
  %0 = linalg.depthwise_conv_2d_nchw_chw {dilations = dense<2> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
         ins(%input, %filter : tensor<1x4x58x58xf32>, tensor<4x28x28xf32>)
         outs(%init : tensor<1x4x3x3xf32>) -> tensor<1x4x3x3xf32>
  return %0 : tensor<1x4x3x3xf32>
}

// -----

// An integer depthwise convolution is left to scalar loops.

// CHECK-LABEL: func.func @integer
// CHECK-NOT: vector.
// CHECK: linalg.depthwise_conv_2d_nchw_chw
func.func @integer(%input: tensor<1x2x6x6xi32>, %filter: tensor<2x3x3xi32>, %init: tensor<1x2x4x4xi32>) -> tensor<1x2x4x4xi32> {
  %0 = linalg.depthwise_conv_2d_nchw_chw {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
         ins(%input, %filter : tensor<1x2x6x6xi32>, tensor<2x3x3xi32>)
         outs(%init : tensor<1x2x4x4xi32>) -> tensor<1x2x4x4xi32>
  return %0 : tensor<1x2x4x4xi32>
}
