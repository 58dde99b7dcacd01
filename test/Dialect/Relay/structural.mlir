// RUN: raf-opt %s | raf-opt | FileCheck %s
// RUN: raf-opt %s --mlir-print-op-generic | raf-opt | FileCheck %s
// RUN: raf-opt %s --mlir-print-op-generic | FileCheck %s --check-prefix=GENERIC

// Round trip of the Relay language constructs (RelayStructuralOps.td):
// constants, tuples, relay.if with and without results, closures (capturing
// outer values, higher-order, multi-result, primitive), relay.call,
// relay.global_ref, relay.grad, references (!relay.ref) and relay.zero.

// The generic form spells out the types inferred for the custom form.
// GENERIC-LABEL: sym_name = "structural"
// GENERIC: "relay.tuple"() : () -> tuple<>
// GENERIC: "relay.tuple"(%{{.*}}, %{{.*}}) : (tensor<4xf32>, tensor<i32>) -> tuple<tensor<4xf32>, tensor<i32>>
// GENERIC: "relay.tuple_get"(%{{.*}}) {index = 0 : i64} : (tuple<tensor<4xf32>, tensor<i32>>) -> tensor<4xf32>
// GENERIC: "relay.grad"(%{{.*}}) : ((tensor<f32>) -> tensor<f32>) -> ((tensor<f32>) -> tuple<tensor<f32>, tuple<tensor<f32>>>)
// GENERIC: "relay.ref_new"(%{{.*}}) : (tensor<4xf32>) -> !relay.ref<tensor<4xf32>>
// GENERIC: "relay.ref_read"(%{{.*}}) : (!relay.ref<tensor<4xf32>>) -> tensor<4xf32>

// CHECK-LABEL: func.func @square
func.func @square(%x: tensor<f32>) -> tensor<f32> {
  // CHECK: relay.multiply %{{.*}}, %{{.*}} : (tensor<f32>, tensor<f32>) -> tensor<f32>
  %0 = relay.multiply %x, %x : (tensor<f32>, tensor<f32>)
  return %0 : tensor<f32>
}

// CHECK-LABEL: func.func @structural
func.func @structural(%a: tensor<4xf32>, %b: tensor<i32>, %c: tensor<i1>) -> tensor<4xf32> {
  // CHECK: relay.constant dense<[1.000000e+00, 2.000000e+00, 3.000000e+00, 4.000000e+00]> : tensor<4xf32>
  %k = relay.constant dense<[1.0, 2.0, 3.0, 4.0]> : tensor<4xf32>
  // CHECK: relay.constant dense<true> : tensor<i1>
  %s = relay.constant dense<true> : tensor<i1>
  // CHECK: relay.tuple()
  %unit = relay.tuple()
  // CHECK: relay.tuple(%{{.*}}, %{{.*}}) : tensor<4xf32>, tensor<i32>
  %t = relay.tuple(%a, %b) : tensor<4xf32>, tensor<i32>
  // CHECK: relay.tuple(%{{.*}}, %{{.*}}) : tuple<tensor<4xf32>, tensor<i32>>, tuple<>
  %nested = relay.tuple(%t, %unit) : tuple<tensor<4xf32>, tensor<i32>>, tuple<>
  // CHECK: relay.tuple_get %{{.*}}[0] : tuple<tensor<4xf32>, tensor<i32>>
  %x = relay.tuple_get %t[0] : tuple<tensor<4xf32>, tensor<i32>>
  // CHECK: relay.tuple_get %{{.*}}[0] : tuple<tuple<tensor<4xf32>, tensor<i32>>, tuple<>>
  %inner = relay.tuple_get %nested[0] : tuple<tuple<tensor<4xf32>, tensor<i32>>, tuple<>>
  // CHECK: relay.if %{{.*}} : tensor<i1> -> (tensor<4xf32>, tensor<i32>)
  %r:2 = relay.if %c : tensor<i1> -> (tensor<4xf32>, tensor<i32>) {
    // CHECK: relay.yield %{{.*}}, %{{.*}} : tensor<4xf32>, tensor<i32>
    relay.yield %k, %b : tensor<4xf32>, tensor<i32>
  } else {
    // CHECK: relay.negative %{{.*}} : (tensor<4xf32>) -> tensor<4xf32>
    %n = relay.negative %a : (tensor<4xf32>)
    // CHECK: relay.yield %{{.*}}, %{{.*}} : tensor<4xf32>, tensor<i32>
    relay.yield %n, %b : tensor<4xf32>, tensor<i32>
  }
  // CHECK: relay.if %{{.*}} : tensor<i1>
  relay.if %s : tensor<i1> {
    // CHECK: relay.yield
    relay.yield
  } else {
    // CHECK: relay.yield
    relay.yield
  }
  // CHECK: relay.fn(%{{.*}}: tensor<4xf32>) -> tensor<4xf32>
  %f = relay.fn(%y: tensor<4xf32>) -> tensor<4xf32> {
    // CHECK: relay.add %{{.*}}, %{{.*}} : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
    %z = relay.add %y, %k : (tensor<4xf32>, tensor<4xf32>)
    // CHECK: relay.return %{{.*}} : tensor<4xf32>
    relay.return %z : tensor<4xf32>
  }
  // CHECK: relay.fn(%{{.*}}: tensor<4xf32>) -> tensor<4xf32> attributes {primitive}
  %p = relay.fn(%y: tensor<4xf32>) -> tensor<4xf32> attributes {primitive} {
    // CHECK: relay.return %{{.*}} : tensor<4xf32>
    relay.return %y : tensor<4xf32>
  }
  // CHECK: relay.fn(%{{.*}}: (tensor<4xf32>) -> tensor<4xf32>) -> ((tensor<4xf32>) -> tensor<4xf32>)
  %hof = relay.fn(%g: (tensor<4xf32>) -> tensor<4xf32>) -> ((tensor<4xf32>) -> tensor<4xf32>) {
    // CHECK: relay.return %{{.*}} : (tensor<4xf32>) -> tensor<4xf32>
    relay.return %g : (tensor<4xf32>) -> tensor<4xf32>
  }
  // CHECK: relay.fn() -> (tensor<4xf32>, tensor<i32>)
  %pair = relay.fn() -> (tensor<4xf32>, tensor<i32>) {
    // CHECK: relay.return %{{.*}}, %{{.*}} : tensor<4xf32>, tensor<i32>
    relay.return %a, %b : tensor<4xf32>, tensor<i32>
  }
  // CHECK: relay.fn()
  %noresult = relay.fn() {
    // CHECK: relay.return
    relay.return
  }
  // CHECK: relay.call %{{.*}}(%{{.*}}) : (tensor<4xf32>) -> tensor<4xf32>
  %call = relay.call %f(%r#0) : (tensor<4xf32>) -> tensor<4xf32>
  // CHECK: relay.call %{{.*}}(%{{.*}}) : ((tensor<4xf32>) -> tensor<4xf32>) -> ((tensor<4xf32>) -> tensor<4xf32>)
  %g2 = relay.call %hof(%p) : ((tensor<4xf32>) -> tensor<4xf32>) -> ((tensor<4xf32>) -> tensor<4xf32>)
  // CHECK: relay.call %{{.*}}() : () -> (tensor<4xf32>, tensor<i32>)
  %call2:2 = relay.call %pair() : () -> (tensor<4xf32>, tensor<i32>)
  // CHECK: relay.call %{{.*}}() : () -> ()
  relay.call %noresult() : () -> ()
  // CHECK: relay.global_ref @square : (tensor<f32>) -> tensor<f32>
  %sq = relay.global_ref @square : (tensor<f32>) -> tensor<f32>
  // CHECK: relay.grad %{{.*}} : (tensor<f32>) -> tensor<f32>
  %grad = relay.grad %sq : (tensor<f32>) -> tensor<f32>
  // CHECK: relay.constant dense<1.000000e+00> : tensor<f32>
  %one = relay.constant dense<1.0> : tensor<f32>
  // CHECK: relay.call %{{.*}}(%{{.*}}) : (tensor<f32>) -> tuple<tensor<f32>, tuple<tensor<f32>>>
  %gr = relay.call %grad(%one) : (tensor<f32>) -> tuple<tensor<f32>, tuple<tensor<f32>>>
  // CHECK: relay.ref_new %{{.*}} : tensor<4xf32>
  %ref = relay.ref_new %a : tensor<4xf32>
  // CHECK: relay.ref_read %{{.*}} : !relay.ref<tensor<4xf32>>
  %v = relay.ref_read %ref : !relay.ref<tensor<4xf32>>
  // CHECK: relay.ref_write %{{.*}}, %{{.*}} : !relay.ref<tensor<4xf32>>
  relay.ref_write %ref, %call : !relay.ref<tensor<4xf32>>
  // CHECK: relay.ref_new %{{.*}} : tuple<tensor<4xf32>, tensor<i32>>
  %tref = relay.ref_new %t : tuple<tensor<4xf32>, tensor<i32>>
  // CHECK: relay.ref_new %{{.*}} : (tensor<4xf32>) -> tensor<4xf32>
  %fref = relay.ref_new %f : (tensor<4xf32>) -> tensor<4xf32>
  // CHECK: relay.ref_new %{{.*}} : !relay.ref<tensor<4xf32>>
  %rr = relay.ref_new %ref : !relay.ref<tensor<4xf32>>
  // CHECK: relay.zero : tensor<2x3xf32>
  %z0 = relay.zero : tensor<2x3xf32>
  // CHECK: relay.zero : tuple<tensor<2xf32>, tuple<tensor<i32>, tensor<3xf16>>>
  %z1 = relay.zero : tuple<tensor<2xf32>, tuple<tensor<i32>, tensor<3xf16>>>
  // CHECK: relay.constant {relay.backend = "cuda"} dense<0> : tensor<2xi32>
  %ann = relay.constant {relay.backend = "cuda"} dense<0> : tensor<2xi32>
  return %v : tensor<4xf32>
}
