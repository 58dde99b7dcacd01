// RUN: raf-opt --split-input-file --raf-tile-and-vectorize=vector-bits=512 %s | FileCheck %s

// A depthwise convolution with more output positions than filter taps:
// output rows as vectors. The taps are broadcast once per channel, each
// block of 16 output columns accumulates in a register, a stride-2 row is
// one contiguous read of 32 and a deinterleaving shuffle, and the fill is
// not read (the accumulator starts from its value). The block at column 0
// reads columns 0..33 of 39 and writes 0..15 of 19: plain (in_bounds)
// reads and write; the block at 16 would read past the row (32..65) and
// write past it (16..31): masked, in a loop of its own.

// CHECK-LABEL: func.func @output_rows
// CHECK-NOT: linalg.fill
// CHECK: scf.for %[[N:.*]] = %c0 to %c1 step %c1
// CHECK: scf.for %[[C:.*]] = %c0 to %c8 step %c1
// CHECK-COUNT-9: vector.broadcast %{{.*}} : f32 to vector<16xf32>
// CHECK: scf.for %[[OH:.*]] = %c0 to %c10 step %c1
// CHECK: scf.for %[[OW:.*]] = %c0 to %c16 step %c16
// CHECK: %[[ROW:.*]] = arith.muli %[[OH]], %c2
// CHECK: %[[COL:.*]] = arith.muli %[[OW]], %c2
// CHECK: %[[READ:.*]] = vector.transfer_read %{{.*}}[%[[N]], %[[C]], %[[ROW]], %[[COL]]], %[[PAD:[[:alnum:]_]+]] {in_bounds = [true]} : tensor<1x8x21x39xf32>, vector<32xf32>{{$}}
// CHECK: %[[EVEN:.*]] = vector.shuffle %[[READ]], %[[READ]] [0, 2, 4, 6, 8, 10, 12, 14, 16, 18, 20, 22, 24, 26, 28, 30]
// CHECK: vector.fma %[[EVEN]]
// CHECK-COUNT-8: vector.fma
// CHECK: vector.transfer_write %{{.*}}, %{{.*}}[%[[N]], %[[C]], %[[OH]], %[[OW]]] {in_bounds = [true]} : vector<16xf32>, tensor<1x8x10x19xf32>
// The tail: the reads may pass the row's end (masked, no in_bounds).
// CHECK: scf.for %[[TAIL:.*]] = %c16 to %c19 step %c16
// CHECK: %[[TROW:.*]] = arith.muli %[[OH]], %c2
// CHECK: %[[TCOL:.*]] = arith.muli %[[TAIL]], %c2
// CHECK: vector.transfer_read %{{.*}}[%[[N]], %[[C]], %[[TROW]], %[[TCOL]]], %{{[[:alnum:]_]+}} : tensor<1x8x21x39xf32>, vector<32xf32>{{$}}
// CHECK-COUNT-9: vector.fma
// CHECK: vector.transfer_write %{{.*}}, %{{.*}}[%[[N]], %[[C]], %[[OH]], %[[TAIL]]] : vector<16xf32>, tensor<1x8x10x19xf32>
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
// each output element is a vector dot product along the filter rows,
// summed in blocks of up to 8 elements (3x3: rows 0-1, then row 2) that
// share each filter row read and keep 6 (then 3) sums in registers; the
// last block of a 28-wide filter row is masked; an output that is no fill
// is read and added to.

// CHECK-LABEL: func.func @filter_rows
// CHECK: scf.for %{{.*}} = %c0 to %c4 step %c1
// CHECK: scf.for %[[OH:.*]] = %c0 to %c2 step %c2
// CHECK: scf.for %[[OW:.*]] = %c0 to %c3 step %c3
// CHECK: scf.for %{{.*}} = %c0 to %c28 step %c1 iter_args({{.*}}) -> (vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>)
// CHECK: scf.for %[[KW:.*]] = %c0 to %c28 step %c16
// CHECK: vector.transfer_read %{{[[:alnum:]_]+}}[%{{.*}}], %{{[[:alnum:]_]+}} : tensor<4x28x28xf32>, vector<16xf32>{{$}}
// CHECK: vector.transfer_read %{{[[:alnum:]_]+}}[%{{.*}}], %{{[[:alnum:]_]+}} : tensor<1x4x58x58xf32>, vector<32xf32>{{$}}
// CHECK: vector.shuffle
// CHECK: %[[FMA:.*]] = vector.fma
// CHECK: %[[LEFT:.*]] = arith.subi %c28, %[[KW]]
// CHECK: %[[MASK:.*]] = vector.create_mask %[[LEFT]] : vector<16xi1>
// CHECK: arith.select %[[MASK]], %[[FMA]]
// CHECK-COUNT-5: vector.fma
// CHECK: scf.yield {{.*}} : vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>
// CHECK: %[[OLD:.*]] = tensor.extract
// CHECK: vector.reduction <add>, %{{.*}}, %[[OLD]] : vector<16xf32> into f32
// CHECK: tensor.insert
// CHECK-COUNT-5: vector.reduction <add>
// CHECK: scf.for %{{.*}} = %c0 to %c3 step %c3
// CHECK: scf.for %{{.*}} = %c0 to %c28 step %c1 iter_args({{.*}}) -> (vector<16xf32>, vector<16xf32>, vector<16xf32>)
// CHECK-COUNT-3: vector.reduction <add>
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

// -----

// vector-bits: 256-bit registers (AVX2) hold 8 f32 lanes. A 56-wide row of
// a stride-1 3x3 convolution over the padded 58-wide input is 7 blocks of
// 8, all inside the row (the last reads columns 50..57): no masked block.
// At 512 bits, blocks of 16: 0, 16 and 32 inside (32..49 read), the block
// at 48 (48..65) masked.
// RUN: raf-opt --raf-tile-and-vectorize=vector-bits=256 --split-input-file %s | FileCheck %s --check-prefix=AVX2
// RUN: not raf-opt --raf-tile-and-vectorize=vector-bits=-1 %s 2>&1 >/dev/null | FileCheck %s --check-prefix=NEGATIVE
// AVX2-LABEL: func.func @row_of_56
// AVX2: scf.for %{{.*}} = %c0 to %c56 step %c8
// AVX2-COUNT-9: vector.transfer_read %{{.*}} {in_bounds = [true]} : tensor<1x2x58x58xf32>, vector<8xf32>
// AVX2: vector.transfer_write %{{.*}} {in_bounds = [true]} : vector<8xf32>
// AVX2-NOT: vector.transfer_read
// AVX2: {raf.parallel}
// CHECK-LABEL: func.func @row_of_56
// CHECK: scf.for %{{.*}} = %c0 to %c48 step %c16
// CHECK: vector.transfer_read %{{.*}} {in_bounds = [true]} : tensor<1x2x58x58xf32>, vector<16xf32>
// CHECK: scf.for %{{.*}} = %c48 to %c56 step %c16
// CHECK: vector.transfer_read %{{.*}}], %{{[[:alnum:]_]+}} : tensor<1x2x58x58xf32>, vector<16xf32>{{$}}
// NEGATIVE: error: --raf-tile-and-vectorize: vector-bits must not be negative (got -1)
func.func @row_of_56(%input: tensor<1x2x58x58xf32>, %filter: tensor<2x3x3xf32>) -> tensor<1x2x56x56xf32> {
  %zero = arith.constant 0.0 : f32
  %empty = tensor.empty() : tensor<1x2x56x56xf32>
  %init = linalg.fill ins(%zero : f32) outs(%empty : tensor<1x2x56x56xf32>) -> tensor<1x2x56x56xf32>
  %0 = linalg.depthwise_conv_2d_nchw_chw {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
         ins(%input, %filter : tensor<1x2x58x58xf32>, tensor<2x3x3xf32>)
         outs(%init : tensor<1x2x56x56xf32>) -> tensor<1x2x56x56xf32>
  return %0 : tensor<1x2x56x56xf32>
}

// -----

// MobileNetV2's stride-2 weight gradient in small: a 56-wide filter row is
// 7 whole blocks of 8 (no masks, filter rows read in bounds); the 4x4
// output in 2 blocks of 2 rows x 4 columns (8 sums); an input row read
// from output column ow ends at ow + 2 * 56 - 1, inside the 114-wide row
// for ow = 0, 1, 2 (plain loads) but not for ow = 3 (masked).
// AVX2-LABEL: func.func @filter_rows_inside
// AVX2: scf.for %{{.*}} = %c0 to %c4 step %c2
// AVX2: scf.for %{{.*}} = %c0 to %c4 step %c4
// AVX2: scf.for %{{.*}} = %c0 to %c56 step %c1 iter_args({{.*}}) -> (vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>)
// AVX2: scf.for %{{.*}} = %c0 to %c56 step %c8
// AVX2: vector.transfer_read %{{.*}} {in_bounds = [true]} : tensor<2x56x56xf32>, vector<8xf32>
// AVX2-COUNT-3: vector.transfer_read %{{.*}} {in_bounds = [true]} : tensor<1x2x114x114xf32>, vector<16xf32>
// AVX2: vector.transfer_read %{{.*}}], %{{[[:alnum:]_]+}} : tensor<1x2x114x114xf32>, vector<16xf32>{{$}}
// AVX2-NOT: arith.select
// AVX2: vector.reduction <add>
func.func @filter_rows_inside(%input: tensor<1x2x114x114xf32>, %filter: tensor<2x56x56xf32>) -> tensor<1x2x4x4xf32> {
  %zero = arith.constant 0.0 : f32
  %empty = tensor.empty() : tensor<1x2x4x4xf32>
  %init = linalg.fill ins(%zero : f32) outs(%empty : tensor<1x2x4x4xf32>) -> tensor<1x2x4x4xf32>
  %0 = linalg.depthwise_conv_2d_nchw_chw {dilations = dense<2> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
         ins(%input, %filter : tensor<1x2x114x114xf32>, tensor<2x56x56xf32>)
         outs(%init : tensor<1x2x4x4xf32>) -> tensor<1x2x4x4xf32>
  return %0 : tensor<1x2x4x4xf32>
}
