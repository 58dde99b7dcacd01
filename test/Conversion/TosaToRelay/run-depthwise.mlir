// The riskiest index mappings against PyTorch on both raf-run targets:
// depthwise weights [KH, KW, C, M] as a grouped HWIO kernel, average pooling
// that excludes padding, and TOSA's [top, bottom, left, right] padding order
// (asymmetric here), followed by slice, pad, transpose and concat.
//
// RUN: raf-opt --convert-tosa-to-relay %s -o %t.mlir
// RUN: rm -rf %t.dir && mkdir -p %t.dir
// RUN: %python %S/Inputs/depthwise.py generate %t.dir
// RUN: raf-run %t.mlir --entry=depthwise --target=interp --input=%t.dir/x.npy --input=%t.dir/w.npy --input=%t.dir/b.npy --output=%t.dir/interp.npy
// RUN: raf-run %t.mlir --entry=depthwise --target=cpu --input=%t.dir/x.npy --input=%t.dir/w.npy --input=%t.dir/b.npy --output=%t.dir/cpu.npy
// RUN: %python %S/Inputs/depthwise.py check %t.dir %t.dir/interp.npy %t.dir/cpu.npy | FileCheck %s

// CHECK: interp: max abs error {{[0-9.e-]+}} ok
// CHECK: cpu: max abs error {{[0-9.e-]+}} ok

func.func @depthwise(%x: tensor<1x6x7x2xf32>, %w: tensor<3x2x2x3xf32>, %b: tensor<6xf32>) -> tensor<6x1x5x7xf32> {
  %zp = "tosa.const"() {values = dense<0.0> : tensor<1xf32>} : () -> tensor<1xf32>
  %dw = tosa.depthwise_conv2d %x, %w, %b, %zp, %zp {acc_type = f32, dilation = array<i64: 1, 1>, pad = array<i64: 2, 0, 0, 1>, stride = array<i64: 1, 1>} : (tensor<1x6x7x2xf32>, tensor<3x2x2x3xf32>, tensor<6xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x6x7x6xf32>
  %avg = tosa.avg_pool2d %dw, %zp, %zp {acc_type = f32, kernel = array<i64: 3, 3>, pad = array<i64: 1, 0, 0, 2>, stride = array<i64: 2, 1>} : (tensor<1x6x7x6xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x3x7x6xf32>
  %start = tosa.const_shape {values = dense<[0, 1, 2, 0]> : tensor<4xindex>} : () -> !tosa.shape<4>
  %size = tosa.const_shape {values = dense<[1, 2, 5, 6]> : tensor<4xindex>} : () -> !tosa.shape<4>
  %slice = tosa.slice %avg, %start, %size : (tensor<1x3x7x6xf32>, !tosa.shape<4>, !tosa.shape<4>) -> tensor<1x2x5x6xf32>
  %padding = tosa.const_shape {values = dense<[0, 0, 1, 2, 0, 0, 0, 0]> : tensor<8xindex>} : () -> !tosa.shape<8>
  %value = "tosa.const"() {values = dense<-1.0> : tensor<1xf32>} : () -> tensor<1xf32>
  %pad = tosa.pad %slice, %padding, %value : (tensor<1x2x5x6xf32>, !tosa.shape<8>, tensor<1xf32>) -> tensor<1x5x5x6xf32>
  %t = tosa.transpose %pad {perms = array<i32: 3, 0, 2, 1>} : (tensor<1x5x5x6xf32>) -> tensor<6x1x5x5xf32>
  %cat = tosa.concat %t, %t {axis = 3 : i32} : (tensor<6x1x5x5xf32>, tensor<6x1x5x5xf32>) -> tensor<6x1x5x10xf32>
  %start2 = tosa.const_shape {values = dense<[0, 0, 0, 2]> : tensor<4xindex>} : () -> !tosa.shape<4>
  %size2 = tosa.const_shape {values = dense<[6, 1, 5, 7]> : tensor<4xindex>} : () -> !tosa.shape<4>
  %out = tosa.slice %cat, %start2, %size2 : (tensor<6x1x5x10xf32>, !tosa.shape<4>, !tosa.shape<4>) -> tensor<6x1x5x7xf32>
  return %out : tensor<6x1x5x7xf32>
}
