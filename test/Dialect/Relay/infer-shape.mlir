// RUN: raf-opt %s | FileCheck %s

// Result types of the shape and layout operators.

// reshape: -1 is inferred from the element count, 0 copies the input
// dimension at the same position.
// CHECK-LABEL: func.func @reshape
func.func @reshape(%x: tensor<2x3x4xf32>, %d: tensor<?x3x4xf32>) {
  // CHECK: relay.reshape %{{.*}} {newshape = array<i64: -1>} : (tensor<2x3x4xf32>) -> tensor<24xf32>
  %0 = relay.reshape %x {newshape = array<i64: -1>} : (tensor<2x3x4xf32>)
  // CHECK: relay.reshape %{{.*}} {newshape = array<i64: 4, -1>} : (tensor<2x3x4xf32>) -> tensor<4x6xf32>
  %1 = relay.reshape %x {newshape = array<i64: 4, -1>} : (tensor<2x3x4xf32>)
  // CHECK: relay.reshape %{{.*}} {newshape = array<i64: 0, -1>} : (tensor<2x3x4xf32>) -> tensor<2x12xf32>
  %2 = relay.reshape %x {newshape = array<i64: 0, -1>} : (tensor<2x3x4xf32>)
  // 0 at position 1 copies 3, so -1 is 24 / 3 = 8.
  // CHECK: relay.reshape %{{.*}} {newshape = array<i64: -1, 0>} : (tensor<2x3x4xf32>) -> tensor<8x3xf32>
  %3 = relay.reshape %x {newshape = array<i64: -1, 0>} : (tensor<2x3x4xf32>)
  // CHECK: relay.reshape %{{.*}} {newshape = array<i64: 0, 0, 2, 2>} : (tensor<2x3x4xf32>) -> tensor<2x3x2x2xf32>
  %4 = relay.reshape %x {newshape = array<i64: 0, 0, 2, 2>} : (tensor<2x3x4xf32>)
  // CHECK: relay.reshape %{{.*}} {newshape = array<i64: 1, 24, 1>} : (tensor<2x3x4xf32>) -> tensor<1x24x1xf32>
  %5 = relay.reshape %x {newshape = array<i64: 1, 24, 1>} : (tensor<2x3x4xf32>)
  // A dynamic input: 0 copies the dynamic size, -1 cannot be resolved.
  // CHECK: relay.reshape %{{.*}} {newshape = array<i64: 0, 12>} : (tensor<?x3x4xf32>) -> tensor<?x12xf32>
  %6 = relay.reshape %d {newshape = array<i64: 0, 12>} : (tensor<?x3x4xf32>)
  // CHECK: relay.reshape %{{.*}} {newshape = array<i64: -1, 4>} : (tensor<?x3x4xf32>) -> tensor<?x4xf32>
  %7 = relay.reshape %d {newshape = array<i64: -1, 4>} : (tensor<?x3x4xf32>)
  return
}

// CHECK-LABEL: func.func @transpose
func.func @transpose(%x: tensor<2x3x4xf32>, %m: tensor<5x7xi8>) {
  // No axes: reverse them.
  // CHECK: relay.transpose %{{.*}} : (tensor<2x3x4xf32>) -> tensor<4x3x2xf32>
  %0 = relay.transpose %x : (tensor<2x3x4xf32>)
  // CHECK: relay.transpose %{{.*}} : (tensor<5x7xi8>) -> tensor<7x5xi8>
  %1 = relay.transpose %m : (tensor<5x7xi8>)
  // CHECK: relay.transpose %{{.*}} {axes = array<i64: 0, 2, 1>} : (tensor<2x3x4xf32>) -> tensor<2x4x3xf32>
  %2 = relay.transpose %x {axes = array<i64: 0, 2, 1>} : (tensor<2x3x4xf32>)
  // Negative axes: (-1, 0, 1) = (2, 0, 1).
  // CHECK: relay.transpose %{{.*}} {axes = array<i64: -1, 0, 1>} : (tensor<2x3x4xf32>) -> tensor<4x2x3xf32>
  %3 = relay.transpose %x {axes = array<i64: -1, 0, 1>} : (tensor<2x3x4xf32>)
  return
}

// CHECK-LABEL: func.func @expand_squeeze
func.func @expand_squeeze(%x: tensor<2x3x4xf32>, %s: tensor<1x2x1x3xf32>) {
  // CHECK: relay.expand_dims %{{.*}} {axis = 0 : i64} : (tensor<2x3x4xf32>) -> tensor<1x2x3x4xf32>
  %0 = relay.expand_dims %x {axis = 0 : i64} : (tensor<2x3x4xf32>)
  // axis = rank appends; -1 also means after the last axis.
  // CHECK: relay.expand_dims %{{.*}} {axis = 3 : i64} : (tensor<2x3x4xf32>) -> tensor<2x3x4x1xf32>
  %1 = relay.expand_dims %x {axis = 3 : i64} : (tensor<2x3x4xf32>)
  // CHECK: relay.expand_dims %{{.*}} {axis = -1 : i64, num_newaxis = 2 : i64} : (tensor<2x3x4xf32>) -> tensor<2x3x4x1x1xf32>
  %2 = relay.expand_dims %x {axis = -1 : i64, num_newaxis = 2 : i64} : (tensor<2x3x4xf32>)
  // -rank-1 = -4 prepends.
  // CHECK: relay.expand_dims %{{.*}} {axis = -4 : i64} : (tensor<2x3x4xf32>) -> tensor<1x2x3x4xf32>
  %3 = relay.expand_dims %x {axis = -4 : i64} : (tensor<2x3x4xf32>)
  // CHECK: relay.expand_dims %{{.*}} {axis = 1 : i64, num_newaxis = 0 : i64} : (tensor<2x3x4xf32>) -> tensor<2x3x4xf32>
  %4 = relay.expand_dims %x {axis = 1 : i64, num_newaxis = 0 : i64} : (tensor<2x3x4xf32>)
  // squeeze without axis drops every size-1 axis.
  // CHECK: relay.squeeze %{{.*}} : (tensor<1x2x1x3xf32>) -> tensor<2x3xf32>
  %5 = relay.squeeze %s : (tensor<1x2x1x3xf32>)
  // CHECK: relay.squeeze %{{.*}} {axis = array<i64: -2>} : (tensor<1x2x1x3xf32>) -> tensor<1x2x3xf32>
  %6 = relay.squeeze %s {axis = array<i64: -2>} : (tensor<1x2x1x3xf32>)
  // CHECK: relay.squeeze %{{.*}} {axis = array<i64: 0, 2>} : (tensor<1x2x1x3xf32>) -> tensor<2x3xf32>
  %7 = relay.squeeze %s {axis = array<i64: 0, 2>} : (tensor<1x2x1x3xf32>)
  return
}

// CHECK-LABEL: func.func @concatenate
func.func @concatenate(%a: tensor<2x3x4xf32>, %b: tensor<5x3x4xf32>,
                       %c: tensor<2x3x1xf32>, %d: tensor<?x3x4xf32>) {
  // CHECK: relay.concatenate %{{.*}}, %{{.*}} : (tensor<2x3x4xf32>, tensor<5x3x4xf32>) -> tensor<7x3x4xf32>
  %0 = relay.concatenate %a, %b : (tensor<2x3x4xf32>, tensor<5x3x4xf32>)
  // CHECK: relay.concatenate %{{.*}}, %{{.*}}, %{{.*}} {axis = -1 : i64} : (tensor<2x3x4xf32>, tensor<2x3x1xf32>, tensor<2x3x4xf32>) -> tensor<2x3x9xf32>
  %1 = relay.concatenate %a, %c, %a {axis = -1 : i64} : (tensor<2x3x4xf32>, tensor<2x3x1xf32>, tensor<2x3x4xf32>)
  // CHECK: relay.concatenate %{{.*}} {axis = 1 : i64} : (tensor<2x3x4xf32>) -> tensor<2x3x4xf32>
  %2 = relay.concatenate %a {axis = 1 : i64} : (tensor<2x3x4xf32>)
  // A dynamic size along the axis makes the result dynamic.
  // CHECK: relay.concatenate %{{.*}}, %{{.*}} : (tensor<2x3x4xf32>, tensor<?x3x4xf32>) -> tensor<?x3x4xf32>
  %3 = relay.concatenate %a, %d : (tensor<2x3x4xf32>, tensor<?x3x4xf32>)
  return
}

// CHECK-LABEL: func.func @split
func.func @split(%x: tensor<2x6xf32>, %y: tensor<2x3x7xi32>) {
  // CHECK: relay.split %{{.*}} {axis = 1 : i64, sections = 3 : i64} : (tensor<2x6xf32>) -> (tensor<2x2xf32>, tensor<2x2xf32>, tensor<2x2xf32>)
  %0:3 = relay.split %x {sections = 3 : i64, axis = 1 : i64} : (tensor<2x6xf32>)
  // CHECK: relay.split %{{.*}} {sections = 2 : i64} : (tensor<2x6xf32>) -> (tensor<1x6xf32>, tensor<1x6xf32>)
  %1:2 = relay.split %x {sections = 2 : i64} : (tensor<2x6xf32>)
  // CHECK: relay.split %{{.*}} {sections = 1 : i64} : (tensor<2x6xf32>) -> tensor<2x6xf32>
  %2 = relay.split %x {sections = 1 : i64} : (tensor<2x6xf32>)
  // Indices are split points: [0, 2), [2, 5), [5, 7).
  // CHECK: relay.split %{{.*}} {axis = -1 : i64, indices = array<i64: 2, 5>} : (tensor<2x3x7xi32>) -> (tensor<2x3x2xi32>, tensor<2x3x3xi32>, tensor<2x3x2xi32>)
  %3:3 = relay.split %y {indices = array<i64: 2, 5>, axis = -1 : i64} : (tensor<2x3x7xi32>)
  // CHECK: relay.split %{{.*}} {axis = 1 : i64, indices = array<i64: 1>} : (tensor<2x3x7xi32>) -> (tensor<2x1x7xi32>, tensor<2x2x7xi32>)
  %4:2 = relay.split %y {indices = array<i64: 1>, axis = 1 : i64} : (tensor<2x3x7xi32>)
  return
}

// strided_slice follows NumPy: negative indices wrap once then clamp,
// negative strides walk backwards, `axes` selects the sliced axes.
// CHECK-LABEL: func.func @strided_slice
func.func @strided_slice(%x: tensor<10x8x6xf32>) {
  // x[2:7]
  // CHECK: relay.strided_slice %{{.*}} {begin = array<i64: 2>, end = array<i64: 7>} : (tensor<10x8x6xf32>) -> tensor<5x8x6xf32>
  %0 = relay.strided_slice %x {begin = array<i64: 2>, end = array<i64: 7>} : (tensor<10x8x6xf32>)
  // x[-3:-1] = x[7:9]
  // CHECK: -> tensor<2x8x6xf32>
  %1 = relay.strided_slice %x {begin = array<i64: -3>, end = array<i64: -1>} : (tensor<10x8x6xf32>)
  // x[9:0:-1] has 9 elements.
  // CHECK: -> tensor<9x8x6xf32>
  %2 = relay.strided_slice %x {begin = array<i64: 9>, end = array<i64: 0>, strides = array<i64: -1>} : (tensor<10x8x6xf32>)
  // x[-1:-11:-1] reverses the whole axis (10 elements); with stride -2 it
  // takes 9, 7, 5, 3, 1.
  // CHECK: -> tensor<10x8x6xf32>
  %3 = relay.strided_slice %x {begin = array<i64: -1>, end = array<i64: -11>, strides = array<i64: -1>} : (tensor<10x8x6xf32>)
  // CHECK: -> tensor<5x8x6xf32>
  %4 = relay.strided_slice %x {begin = array<i64: 9>, end = array<i64: -11>, strides = array<i64: -2>} : (tensor<10x8x6xf32>)
  // x[:, 1:100:3]: the end clamps to 8, giving 1, 4, 7.
  // CHECK: -> tensor<10x3x6xf32>
  %5 = relay.strided_slice %x {begin = array<i64: 0, 1>, end = array<i64: 10, 100>, strides = array<i64: 1, 3>} : (tensor<10x8x6xf32>)
  // axes (-1, 0): x[1:4, :, 0:3]
  // CHECK: relay.strided_slice %{{.*}} {axes = array<i64: -1, 0>, begin = array<i64: 0, 1>, end = array<i64: 3, 4>} : (tensor<10x8x6xf32>) -> tensor<3x8x3xf32>
  %6 = relay.strided_slice %x {begin = array<i64: 0, 1>, end = array<i64: 3, 4>, axes = array<i64: -1, 0>} : (tensor<10x8x6xf32>)
  // begin after end with a positive stride is empty.
  // CHECK: -> tensor<0x8x6xf32>
  %7 = relay.strided_slice %x {begin = array<i64: 5>, end = array<i64: 2>} : (tensor<10x8x6xf32>)
  return
}

// take: data.shape[:axis] + indices.shape + data.shape[axis+1:]; without
// an axis the data is flattened.
// CHECK-LABEL: func.func @take
func.func @take(%x: tensor<5x6x7xf32>, %i: tensor<3x2xi32>, %s: tensor<i64>) {
  // CHECK: relay.take %{{.*}}, %{{.*}} {axis = 1 : i64} : (tensor<5x6x7xf32>, tensor<3x2xi32>) -> tensor<5x3x2x7xf32>
  %0 = relay.take %x, %i {axis = 1 : i64} : (tensor<5x6x7xf32>, tensor<3x2xi32>)
  // CHECK: relay.take %{{.*}}, %{{.*}} {axis = -1 : i64, mode = #relay.take_mode<fast>} : (tensor<5x6x7xf32>, tensor<3x2xi32>) -> tensor<5x6x3x2xf32>
  %1 = relay.take %x, %i {axis = -1 : i64, mode = #relay.take_mode<fast>} : (tensor<5x6x7xf32>, tensor<3x2xi32>)
  // CHECK: relay.take %{{.*}}, %{{.*}} : (tensor<5x6x7xf32>, tensor<3x2xi32>) -> tensor<3x2xf32>
  %2 = relay.take %x, %i : (tensor<5x6x7xf32>, tensor<3x2xi32>)
  // A scalar index removes the axis.
  // CHECK: relay.take %{{.*}}, %{{.*}} {axis = 0 : i64} : (tensor<5x6x7xf32>, tensor<i64>) -> tensor<6x7xf32>
  %3 = relay.take %x, %s {axis = 0 : i64} : (tensor<5x6x7xf32>, tensor<i64>)
  // CHECK: relay.take %{{.*}}, %{{.*}} {mode = #relay.take_mode<wrap>} : (tensor<5x6x7xf32>, tensor<i64>) -> tensor<f32>
  %4 = relay.take %x, %s {mode = #relay.take_mode<wrap>} : (tensor<5x6x7xf32>, tensor<i64>)
  return
}

// CHECK-LABEL: func.func @pad
func.func @pad(%x: tensor<2x3xf32>, %d: tensor<?x3xf32>) {
  // CHECK: relay.nn.pad %{{.*}} {pad_width = array<i64: 1, 1, 0, 2>} : (tensor<2x3xf32>) -> tensor<4x5xf32>
  %0 = relay.nn.pad %x {pad_width = array<i64: 1, 1, 0, 2>} : (tensor<2x3xf32>)
  // CHECK: relay.nn.pad %{{.*}} {pad_mode = #relay.pad_mode<reflect>, pad_width = array<i64: 1, 1, 2, 2>} : (tensor<2x3xf32>) -> tensor<4x7xf32>
  %1 = relay.nn.pad %x {pad_width = array<i64: 1, 1, 2, 2>, pad_mode = #relay.pad_mode<reflect>} : (tensor<2x3xf32>)
  // CHECK: relay.nn.pad %{{.*}} {pad_mode = #relay.pad_mode<edge>, pad_width = array<i64: 3, 0, 0, 5>} : (tensor<2x3xf32>) -> tensor<5x8xf32>
  // The default pad_value is elided.
  %2 = relay.nn.pad %x {pad_width = array<i64: 3, 0, 0, 5>, pad_mode = #relay.pad_mode<edge>, pad_value = 0.0 : f64} : (tensor<2x3xf32>)
  // CHECK: relay.nn.pad %{{.*}} {pad_width = array<i64: 1, 1, 1, 1>} : (tensor<?x3xf32>) -> tensor<?x5xf32>
  %3 = relay.nn.pad %d {pad_width = array<i64: 1, 1, 1, 1>} : (tensor<?x3xf32>)
  return
}

// CHECK-LABEL: func.func @broadcast_fill_cast
func.func @broadcast_fill_cast(%x: tensor<3x1xf32>, %s: tensor<i8>) {
  // CHECK: relay.broadcast_to %{{.*}} {shape = array<i64: 2, 3, 4>} : (tensor<3x1xf32>) -> tensor<2x3x4xf32>
  %0 = relay.broadcast_to %x {shape = array<i64: 2, 3, 4>} : (tensor<3x1xf32>)
  // CHECK: relay.broadcast_to %{{.*}} {shape = array<i64: 5>} : (tensor<i8>) -> tensor<5xi8>
  %1 = relay.broadcast_to %s {shape = array<i64: 5>} : (tensor<i8>)
  // CHECK: relay.zeros {dtype = f32, shape = array<i64>} : () -> tensor<f32>
  %2 = relay.zeros {shape = array<i64>, dtype = f32} : ()
  // CHECK: relay.zeros {dtype = bf16, shape = array<i64: 2, 0, 3>} : () -> tensor<2x0x3xbf16>
  %3 = relay.zeros {shape = array<i64: 2, 0, 3>, dtype = bf16} : ()
  // CHECK: relay.ones {dtype = i1, shape = array<i64: 4>} : () -> tensor<4xi1>
  %4 = relay.ones {shape = array<i64: 4>, dtype = i1} : ()
  // The operand list and its parentheses may be empty.
  // CHECK: relay.ones {dtype = i64, shape = array<i64: 1, 2>} : () -> tensor<1x2xi64>
  %5 = relay.ones {shape = array<i64: 1, 2>, dtype = i64}
  // CHECK: relay.cast %{{.*}} {dtype = bf16} : (tensor<3x1xf32>) -> tensor<3x1xbf16>
  %6 = relay.cast %x {dtype = bf16} : (tensor<3x1xf32>)
  // CHECK: relay.cast %{{.*}} {dtype = i8} : (tensor<3x1xf32>) -> tensor<3x1xi8>
  %7 = relay.cast %x {dtype = i8} : (tensor<3x1xf32>)
  // CHECK: relay.cast %{{.*}} {dtype = f32} : (tensor<i8>) -> tensor<f32>
  %8 = relay.cast %s {dtype = f32} : (tensor<i8>)
  return
}
