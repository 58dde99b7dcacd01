// RUN: raf-opt %s | FileCheck %s
// RUN: raf-opt %s | raf-opt | FileCheck %s
// RUN: raf-opt %s -mlir-print-op-generic | FileCheck %s --check-prefix=GENERIC
// RUN: raf-opt %s -mlir-print-op-generic | raf-opt | FileCheck %s

// Typed attributes of relay operators: layouts (#relay.layout) and the
// fixed-set attributes (EnumAttrs). The custom and the generic form print
// them the same way and round-trip; values equal to the default are elided.

// CHECK-LABEL: func.func @layouts
// GENERIC-LABEL: sym_name = "layouts"
func.func @layouts(%x: tensor<1x8x8x3xf32>, %w: tensor<3x3x3x4xf32>,
                   %n: tensor<1x3x8x8xf32>, %k: tensor<4x3x3x3xf32>) {
  // CHECK: relay.nn.conv2d %{{.*}}, %{{.*}} {data_layout = #relay.layout<NHWC>, kernel_layout = #relay.layout<HWIO>} : (tensor<1x8x8x3xf32>, tensor<3x3x3x4xf32>) -> tensor<1x6x6x4xf32>
  // GENERIC: "relay.nn.conv2d"(%{{.*}}, %{{.*}}) {data_layout = #relay.layout<NHWC>, {{.*}}kernel_layout = #relay.layout<HWIO>,
  %0 = relay.nn.conv2d %x, %w {data_layout = #relay.layout<NHWC>, kernel_layout = #relay.layout<HWIO>} : (tensor<1x8x8x3xf32>, tensor<3x3x3x4xf32>)
  // The defaults (NCHW, OIHW) are implied.
  // CHECK: relay.nn.conv2d %{{.*}}, %{{.*}} : (tensor<1x3x8x8xf32>, tensor<4x3x3x3xf32>) -> tensor<1x4x6x6xf32>
  %1 = relay.nn.conv2d %n, %k {data_layout = #relay.layout<NCHW>, kernel_layout = #relay.layout<OIHW>} : (tensor<1x3x8x8xf32>, tensor<4x3x3x3xf32>)
  // CHECK: relay.nn.max_pool2d %{{.*}} {layout = #relay.layout<NHWC>, pool_size = array<i64: 2, 2>} : (tensor<1x8x8x3xf32>) -> tensor<1x7x7x3xf32>
  %2 = relay.nn.max_pool2d %x {pool_size = array<i64: 2, 2>, layout = #relay.layout<NHWC>} : (tensor<1x8x8x3xf32>)
  // CHECK: relay.nn.global_avg_pool2d %{{.*}} {layout = #relay.layout<HWCN>} : (tensor<1x8x8x3xf32>) -> tensor<1x1x8x3xf32>
  %3 = relay.nn.global_avg_pool2d %x {layout = #relay.layout<HWCN>} : (tensor<1x8x8x3xf32>)
  return
}

// CHECK-LABEL: func.func @enums
// GENERIC-LABEL: sym_name = "enums"
func.func @enums(%p: tensor<4x5xf32>, %t: tensor<4xi64>) {
  // CHECK: relay.nn.pad %{{.*}} {pad_mode = #relay.pad_mode<reflect>, pad_width = array<i64: 1, 1, 2, 2>} : (tensor<4x5xf32>) -> tensor<6x9xf32>
  // GENERIC: "relay.nn.pad"(%{{.*}}) {pad_mode = #relay.pad_mode<reflect>, {{.*}}pad_width = array<i64: 1, 1, 2, 2>}
  %0 = relay.nn.pad %p {pad_width = array<i64: 1, 1, 2, 2>, pad_mode = #relay.pad_mode<reflect>} : (tensor<4x5xf32>)
  // CHECK: relay.nn.pad %{{.*}} {pad_mode = #relay.pad_mode<edge>, pad_width = array<i64: 0, 0, 1, 0>}
  %1 = relay.nn.pad %p {pad_width = array<i64: 0, 0, 1, 0>, pad_mode = #relay.pad_mode<edge>} : (tensor<4x5xf32>)
  // CHECK: relay.nn.pad %{{.*}} {pad_width = array<i64: 0, 0, 1, 0>} : (tensor<4x5xf32>) -> tensor<4x6xf32>
  %2 = relay.nn.pad %p {pad_width = array<i64: 0, 0, 1, 0>, pad_mode = #relay.pad_mode<constant>} : (tensor<4x5xf32>)
  // CHECK: relay.nn.nll_loss %{{.*}}, %{{.*}} {reduction = #relay.loss_reduction<sum>} : (tensor<4x5xf32>, tensor<4xi64>) -> tensor<f32>
  // GENERIC: "relay.nn.nll_loss"(%{{.*}}, %{{.*}}) {{{.*}}reduction = #relay.loss_reduction<sum>}
  %3 = relay.nn.nll_loss %p, %t {reduction = #relay.loss_reduction<sum>} : (tensor<4x5xf32>, tensor<4xi64>)
  // CHECK: relay.nn.cross_entropy %{{.*}}, %{{.*}} {reduction = #relay.loss_reduction<none>} : (tensor<4x5xf32>, tensor<4xi64>) -> tensor<4xf32>
  %4 = relay.nn.cross_entropy %p, %t {reduction = #relay.loss_reduction<none>} : (tensor<4x5xf32>, tensor<4xi64>)
  // CHECK: relay.nn.cross_entropy %{{.*}}, %{{.*}} : (tensor<4x5xf32>, tensor<4xi64>) -> tensor<f32>
  %5 = relay.nn.cross_entropy %p, %t {reduction = #relay.loss_reduction<mean>} : (tensor<4x5xf32>, tensor<4xi64>)
  // CHECK: relay.nn.gelu %{{.*}} {approximate = #relay.gelu_approximation<tanh>} : (tensor<4x5xf32>) -> tensor<4x5xf32>
  // GENERIC: "relay.nn.gelu"(%{{.*}}) {approximate = #relay.gelu_approximation<tanh>}
  %6 = relay.nn.gelu %p {approximate = #relay.gelu_approximation<tanh>} : (tensor<4x5xf32>)
  // CHECK: relay.nn.gelu %{{.*}} : (tensor<4x5xf32>) -> tensor<4x5xf32>
  %7 = relay.nn.gelu %p {approximate = #relay.gelu_approximation<none>} : (tensor<4x5xf32>)
  // CHECK: relay.take %{{.*}}, %{{.*}} {axis = 0 : i64, mode = #relay.take_mode<wrap>} : (tensor<4x5xf32>, tensor<4xi64>) -> tensor<4x5xf32>
  // GENERIC: "relay.take"(%{{.*}}, %{{.*}}) {axis = 0 : i64, mode = #relay.take_mode<wrap>}
  %8 = relay.take %p, %t {mode = #relay.take_mode<wrap>, axis = 0 : i64} : (tensor<4x5xf32>, tensor<4xi64>)
  // CHECK: relay.take %{{.*}}, %{{.*}} {mode = #relay.take_mode<fast>} : (tensor<4x5xf32>, tensor<4xi64>) -> tensor<4xf32>
  %9 = relay.take %p, %t {mode = #relay.take_mode<fast>} : (tensor<4x5xf32>, tensor<4xi64>)
  // CHECK: relay.take %{{.*}}, %{{.*}} : (tensor<4x5xf32>, tensor<4xi64>) -> tensor<4xf32>
  %10 = relay.take %p, %t {mode = #relay.take_mode<clip>} : (tensor<4x5xf32>, tensor<4xi64>)
  return
}
