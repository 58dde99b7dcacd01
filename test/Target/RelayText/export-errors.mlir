// Constructs without a Relay text form are errors located at the op
// (split-input-file makes the line numbers relative to each split).
// RUN: not raf-translate --export-relay --split-input-file %s 2>&1 | FileCheck %s

func.func @f(%x: tensor<2x4xf32>, %m: tensor<4xf32>, %v: tensor<4xf32>) -> tensor<2x4xf32> {
  // CHECK: {{.*}}:{{[0-9]+}}:{{[0-9]+}}: error: nn.batch_norm with a non-default 'training' has no Relay text form
  %y, %mm, %vv = relay.nn.batch_norm %x, %m, %v, %m, %v {training = true} : (tensor<2x4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>) -> (tensor<2x4xf32>, tensor<4xf32>, tensor<4xf32>)
  %r = relay.zeros {shape = array<i64: 2, 4>, dtype = f32}
  return %r : tensor<2x4xf32>
}

// -----

func.func @g(%x: tensor<f32>) -> tensor<f32> {
  // CHECK: {{.*}}:{{[0-9]+}}:{{[0-9]+}}: error: 'relay.ref_new' has no Relay text form in this exporter
  %r = relay.ref_new %x : tensor<f32>
  %v = relay.ref_read %r : !relay.ref<tensor<f32>>
  return %v : tensor<f32>
}

// -----

func.func @h(%x: tensor<4xf32>) -> tensor<4xf32> {
  // CHECK: {{.*}}:{{[0-9]+}}:{{[0-9]+}}: error: nn.dropout with a non-default 'seed' has no Relay text form
  %0 = relay.nn.dropout %x {rate = 0.5 : f64, seed = 7 : i64} : (tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

// CHECK: {{.*}}:{{[0-9]+}}:{{[0-9]+}}: error: function declarations have no Relay text form
func.func private @external(tensor<4xf32>) -> tensor<4xf32>

// -----

func.func @nonfinite_int_pad(%x: tensor<2xi32>) -> tensor<4xi32> {
  // CHECK: {{.*}}:{{[0-9]+}}:{{[0-9]+}}: error: nn.pad with the non-finite pad value -INF on a tensor of 'i32' has no Relay text form
  %0 = relay.nn.pad %x {pad_value = 0xFFF0000000000000 : f64, pad_width = array<i64: 1, 1>} : (tensor<2xi32>) -> tensor<4xi32>
  return %0 : tensor<4xi32>
}
