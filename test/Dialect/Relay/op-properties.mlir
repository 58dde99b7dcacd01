// RUN: raf-opt %s --relay-print-op-properties=totals=1 -verify-diagnostics -o /dev/null
// The expected-remark lines are stripped for the second run (raf-opt checks
// them whenever they are present); line numbers are kept.
// RUN: sed 's|// expected-remark.*||' %s | raf-opt --relay-print-op-properties 2>&1 | FileCheck %s

// The operator property interfaces: fusion kind, AutoCast category and
// argument count, FLOPs, bytes read / written. Costs checked by hand:
//
// conv2d: x 2x8x16x16, w 16x4x3x3, groups 2, stride 2, padding 1
//   output 2x16x8x8 ((16 + 2 - 3) / 2 + 1 = 8)
//   FLOPs = 2 * N * O * OH * OW * (C / groups) * KH * KW
//         = 2 * 2 * 16 * 8 * 8 * 4 * 3 * 3 = 147456
//   read  = (2*8*16*16 + 16*4*3*3) * 4 bytes = (4096 + 576) * 4 = 18688
//   written = 2*16*8*8 * 4 = 8192
// dense: x 4x32, w 10x32 -> 4x10; FLOPs = 2 * 4 * 10 * 32 = 2560
//   read = (128 + 320) * 4 = 1792, written = 40 * 4 = 160
// matmul: 4x32 * 32x8 -> 4x8; FLOPs = 2 * 4 * 8 * 32 = 2048
//   read = (128 + 256) * 4 = 1536, written = 32 * 4 = 128
// sum over axis 1 of 4x6xf16: one operation per input element = 24
//   read = 24 * 2 = 48, written = 4 * 2 = 8
// add 4x32: one per output element = 128; read 2 * 512, written 512
// reshape: moves data only, 0 FLOPs; read 512, written 512
// totals: flops = 147456 + 2560 + 2048 + 24 + 128 + 0 = 152216
//         read = 18688 + 1792 + 1536 + 48 + 1024 + 512 = 23600
//         written = 8192 + 160 + 128 + 8 + 512 + 512 = 9512

// expected-remark @+1 {{@props: 6 operators, flops=152216 read=23600 written=9512}}
func.func @props(%x: tensor<2x8x16x16xf32>, %w: tensor<16x4x3x3xf32>,
                 %a: tensor<4x32xf32>, %dw: tensor<10x32xf32>,
                 %m: tensor<32x8xf32>, %r: tensor<4x6xf16>) {
  // expected-remark @+1 {{fusion=out_elemwise_fusable autocast=always/2 flops=147456 read=18688 written=8192 recomputable=true}}
  %0 = relay.nn.conv2d %x, %w {groups = 2 : i64, padding = array<i64: 1>, strides = array<i64: 2, 2>} : (tensor<2x8x16x16xf32>, tensor<16x4x3x3xf32>)
  // expected-remark @+1 {{fusion=out_elemwise_fusable autocast=always/2 flops=2560 read=1792 written=160 recomputable=true}}
  %1 = relay.nn.dense %a, %dw : (tensor<4x32xf32>, tensor<10x32xf32>)
  // expected-remark @+1 {{fusion=out_elemwise_fusable autocast=always/2 flops=2048 read=1536 written=128 recomputable=true}}
  %2 = relay.nn.matmul %a, %m : (tensor<4x32xf32>, tensor<32x8xf32>)
  // expected-remark @+1 {{fusion=comm_reduce autocast=never/1 flops=24 read=48 written=8 recomputable=true}}
  %3 = relay.sum %r {axis = array<i64: 1>} : (tensor<4x6xf16>)
  // expected-remark @+1 {{fusion=broadcast autocast=special/2 flops=128 read=1024 written=512 recomputable=true}}
  %4 = relay.add %a, %a : (tensor<4x32xf32>, tensor<4x32xf32>)
  // expected-remark @+1 {{fusion=injective autocast=infer/1 flops=0 read=512 written=512 recomputable=true}}
  %5 = relay.reshape %a {newshape = array<i64: 8, 16>} : (tensor<4x32xf32>)
  return
}

// Without totals there is no per-function remark, and the IR is unchanged.
// CHECK-NOT: @props: 6 operators
// CHECK: <stdin>:32:8: remark: fusion=out_elemwise_fusable autocast=always/2 flops=147456
// CHECK: <stdin>:42:8: remark: fusion=injective autocast=infer/1 flops=0
// CHECK-NOT: @props: 6 operators
// CHECK: relay.nn.conv2d
// CHECK-SAME: -> tensor<2x16x8x8xf32>
