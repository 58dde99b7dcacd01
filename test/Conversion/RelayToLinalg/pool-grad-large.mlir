// Average-pooling gradients with more than 16 window positions are gathered (one
// linalg.generic with the window position as reduction dimensions), not
// scattered per position: the scatter's IR grows with KH * KW and one-shot
// bufferization then took 7 s at 8x8 and over 400 s at 16x16.
// RUN: raf-opt %s -split-input-file --convert-relay-to-linalg | FileCheck %s
// The CPU pipeline compiles them within a time bound:
// RUN: %python %S/../../Tools/Inputs/bounded.py 20 1000 raf-opt %s -split-input-file --raf-cpu-pipeline -o /dev/null | FileCheck %s --check-prefix=BOUNDED
// BOUNDED: exit 0
// BOUNDED-NEXT: within 20 s

// CHECK-LABEL: func.func @avg_16x16
// CHECK: linalg.generic {{.*}} iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction", "reduction"]} ins(%{{.*}} : tensor<16x16xf32>) outs(%{{.*}} : tensor<1x1x64x64xf32>)
// CHECK: arith.divsi
// CHECK: arith.remsi
// CHECK-NOT: tensor.insert_slice
// CHECK: return
func.func @avg_16x16(%g: tensor<1x1x49x49xf32>, %x: tensor<1x1x64x64xf32>) -> tensor<1x1x64x64xf32> {
  %1 = relay.nn.avg_pool2d_grad %g, %x {pool_size = array<i64: 16, 16>, strides = array<i64: 1, 1>} : (tensor<1x1x49x49xf32>, tensor<1x1x64x64xf32>)
  return %1 : tensor<1x1x64x64xf32>
}

// -----

// A global average pool's gradient at ResNet's 224x224 input (7x7).
// CHECK-LABEL: func.func @global_7x7
// CHECK: linalg.generic {{.*}} iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction", "reduction"]} ins(%{{.*}} : tensor<7x7xf32>) outs(%{{.*}} : tensor<1x512x7x7xf32>)
// CHECK-NOT: tensor.insert_slice
// CHECK: return
func.func @global_7x7(%g: tensor<1x512x1x1xf32>, %x: tensor<1x512x7x7xf32>) -> tensor<1x512x7x7xf32> {
  %1 = relay.nn.avg_pool2d_grad %g, %x {pool_size = array<i64: 7, 7>, strides = array<i64: 7, 7>} : (tensor<1x512x1x1xf32>, tensor<1x512x7x7xf32>)
  return %1 : tensor<1x512x7x7xf32>
}

// -----

// max with 16x16 windows: loops over the windows and their 16x16 taps,
// whatever the window size.
// CHECK-LABEL: func.func @max_16x16
// CHECK: scf.for {{.*}} to %c16 {{.*}} -> (f32, index, index, i1)
// CHECK: scf.for {{.*}} to %c16{{.*}} -> (f32, index, index, i1)
// CHECK: tensor.insert
// CHECK-NOT: tensor.insert_slice
// CHECK: return
func.func @max_16x16(%g: tensor<1x2x5x5xf32>, %x: tensor<1x2x20x20xf32>) -> tensor<1x2x20x20xf32> {
  %1 = relay.nn.max_pool2d_grad %g, %x {pool_size = array<i64: 16, 16>} : (tensor<1x2x5x5xf32>, tensor<1x2x20x20xf32>)
  return %1 : tensor<1x2x20x20xf32>
}
