// relay.grad of a small dense layer with tensor arguments, lowered by
// --relay-grad-pipeline, run on the reference evaluator and compared with
// torch.autograd (Inputs/grad_layer.py).
//
// RUN: raf-opt --relay-grad-pipeline %s -o %t.mlir
// RUN: rm -rf %t.dir && mkdir -p %t.dir
// RUN: %python %S/Inputs/grad_layer.py generate %t.dir
// RUN: raf-run %t.mlir --entry=main --target=interp --input=%t.dir/x.npy --input=%t.dir/w.npy --input=%t.dir/b.npy --output=%t.dir/y.npy --output=%t.dir/gx.npy --output=%t.dir/gw.npy --output=%t.dir/gb.npy
// RUN: %python %S/Inputs/grad_layer.py check %t.dir %t.dir/y.npy %t.dir/gx.npy %t.dir/gw.npy %t.dir/gb.npy | FileCheck %s

// CHECK: y: max abs error {{[0-9.e-]+}} ok
// CHECK: gx: max abs error {{[0-9.e-]+}} ok
// CHECK: gw: max abs error {{[0-9.e-]+}} ok
// CHECK: gb: max abs error {{[0-9.e-]+}} ok

func.func @layer(%x: tensor<2x3xf32>, %w: tensor<4x3xf32>, %b: tensor<4xf32>) -> tensor<f32> {
  %h = relay.nn.dense %x, %w : (tensor<2x3xf32>, tensor<4x3xf32>)
  %hb = relay.add %h, %b : (tensor<2x4xf32>, tensor<4xf32>)
  %a = relay.tanh %hb : (tensor<2x4xf32>)
  %s = relay.sigmoid %h : (tensor<2x4xf32>)
  %p = relay.multiply %a, %s : (tensor<2x4xf32>, tensor<2x4xf32>)
  %y = relay.sum %p : (tensor<2x4xf32>)
  return %y : tensor<f32>
}

!grads = tuple<tensor<2x3xf32>, tensor<4x3xf32>, tensor<4xf32>>
func.func @main(%x: tensor<2x3xf32>, %w: tensor<4x3xf32>, %b: tensor<4xf32>) -> tuple<tensor<f32>, !grads> {
  %f = relay.global_ref @layer : (tensor<2x3xf32>, tensor<4x3xf32>, tensor<4xf32>) -> tensor<f32>
  %g = relay.grad %f : (tensor<2x3xf32>, tensor<4x3xf32>, tensor<4xf32>) -> tensor<f32>
  %r = relay.call %g(%x, %w, %b) : (tensor<2x3xf32>, tensor<4x3xf32>, tensor<4xf32>) -> tuple<tensor<f32>, !grads>
  return %r : tuple<tensor<f32>, !grads>
}
