// RUN: raf-opt %s --raf-fuse | FileCheck %s
// Fusing the result again changes nothing: fused functions are skipped and
// what is left does not fuse.
// RUN: raf-opt %s --raf-fuse > %t.once && raf-opt %t.once --raf-fuse > %t.twice && diff %t.once %t.twice

// Blocks are fused independently: the bodies of relay.if and relay.fn are
// their own blocks, and nothing fuses across a region boundary. Outer
// blocks are numbered first. Constants stay outside and become arguments;
// a closure body's captured values too.

// CHECK-LABEL: func.func @regions(
// CHECK-NEXT:    %[[K:.*]] = relay.constant
// CHECK-NEXT:    %[[A:.*]] = relay.add %arg1, %[[K]] :
// CHECK-NEXT:    %[[R:.*]] = relay.if %arg0
// CHECK-NEXT:      %[[T:.*]] = func.call @regions_fused_1(%[[A]])
// CHECK-NEXT:      relay.yield %[[T]]
// CHECK-NEXT:    } else {
// CHECK-NEXT:      %[[M:.*]] = relay.multiply %[[A]], %arg2 :
// CHECK-NEXT:      relay.yield %[[M]]
// CHECK-NEXT:    }
// CHECK-NEXT:    %[[F:.*]] = relay.fn(%[[P:.*]]: tensor<4xf32>)
// CHECK-NEXT:      %[[B:.*]] = func.call @regions_fused_2(%[[P]], %[[A]])
// CHECK-NEXT:      relay.return %[[B]]
// CHECK-NEXT:    }
// CHECK-NEXT:    %[[O:.*]] = relay.call %[[F]](%[[R]])
// CHECK-NEXT:    %[[W:.*]] = call @regions_fused_0(%[[O]])
// CHECK-NEXT:    return %[[W]]
// CHECK-LABEL: func.func private @regions_fused_0(%arg0: tensor<4xf32>) -> tensor<4xf32>
// CHECK-NEXT:    relay.sqrt
// CHECK-NEXT:    relay.exp
// CHECK-NEXT:    return
// CHECK-LABEL: func.func private @regions_fused_1(%arg0: tensor<4xf32>) -> tensor<4xf32>
// CHECK-NEXT:    relay.negative
// CHECK-NEXT:    relay.exp
// CHECK-NEXT:    return
// CHECK-LABEL: func.func private @regions_fused_2(%arg0: tensor<4xf32>, %arg1: tensor<4xf32>) -> tensor<4xf32>
// CHECK-NEXT:    relay.subtract %arg0, %arg1
// CHECK-NEXT:    relay.tanh
// CHECK-NEXT:    return
func.func @regions(%c: tensor<i1>, %x: tensor<4xf32>, %y: tensor<4xf32>) -> tensor<4xf32> {
  %k = relay.constant dense<2.0> : tensor<4xf32>
  %a = relay.add %x, %k : (tensor<4xf32>, tensor<4xf32>)
  %r = relay.if %c : tensor<i1> -> (tensor<4xf32>) {
    %n = relay.negative %a : (tensor<4xf32>)
    %e = relay.exp %n : (tensor<4xf32>)
    relay.yield %e : tensor<4xf32>
  } else {
    %m = relay.multiply %a, %y : (tensor<4xf32>, tensor<4xf32>)
    relay.yield %m : tensor<4xf32>
  }
  %f = relay.fn(%p: tensor<4xf32>) -> tensor<4xf32> {
    %s = relay.subtract %p, %a : (tensor<4xf32>, tensor<4xf32>)
    %t = relay.tanh %s : (tensor<4xf32>)
    relay.return %t : tensor<4xf32>
  }
  %o = relay.call %f(%r) : (tensor<4xf32>) -> tensor<4xf32>
  %z = relay.sqrt %o : (tensor<4xf32>)
  %w = relay.exp %z : (tensor<4xf32>)
  return %w : tensor<4xf32>
}

// A constant is passed to the fused function, not moved into it.
// CHECK-LABEL: func.func @constant_input(
// CHECK-NEXT:    %[[K:.*]] = relay.constant
// CHECK-NEXT:    call @constant_input_fused_0(%arg0, %[[K]])
// CHECK-NEXT:    return
// CHECK-LABEL: func.func private @constant_input_fused_0
// CHECK-NOT:     relay.constant
// CHECK:         return
func.func @constant_input(%x: tensor<4xf32>) -> tensor<4xf32> {
  %k = relay.constant dense<2.0> : tensor<4xf32>
  %a = relay.add %x, %k : (tensor<4xf32>, tensor<4xf32>)
  %e = relay.exp %a : (tensor<4xf32>)
  return %e : tensor<4xf32>
}

// Fused-function names avoid existing symbols.
// CHECK-LABEL: func.func private @named_fused_0(tensor<4xf32>) -> tensor<4xf32>
// CHECK-LABEL: func.func @named(
// CHECK-NEXT:    %[[A:.*]] = call @named_fused_1(%arg0)
// CHECK-NEXT:    call @named_fused_0(%[[A]])
// CHECK-LABEL: func.func private @named_fused_1
// CHECK-NEXT:    relay.exp
// CHECK-NEXT:    relay.negative
func.func private @named_fused_0(%x: tensor<4xf32>) -> tensor<4xf32>
func.func @named(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = relay.exp %x : (tensor<4xf32>)
  %1 = relay.negative %0 : (tensor<4xf32>)
  %2 = call @named_fused_0(%1) : (tensor<4xf32>) -> tensor<4xf32>
  return %2 : tensor<4xf32>
}

// A function already marked relay.primitive is not fused again.
// CHECK-LABEL: func.func private @kernel(
// CHECK-NEXT:    relay.exp
// CHECK-NEXT:    relay.negative
// CHECK-NEXT:    return
// CHECK-NOT:   @kernel_fused
func.func private @kernel(%x: tensor<4xf32>) -> tensor<4xf32> attributes {relay.primitive, relay.backend = "linalg"} {
  %0 = relay.exp %x : (tensor<4xf32>)
  %1 = relay.negative %0 : (tensor<4xf32>)
  return %1 : tensor<4xf32>
}

// A use inside a region counts as a use by the region's op: exp -> relay.if
// -> add leaves {exp, add} and comes back, so it is not fused.
// CHECK-LABEL: func.func @region_user_not_convex(
// CHECK-NEXT:    relay.exp
// CHECK-NEXT:    relay.if
// CHECK:         relay.add
// CHECK-NEXT:    return
// CHECK-NOT:   @region_user_not_convex_fused
func.func @region_user_not_convex(%c: tensor<i1>, %x: tensor<4xf32>) -> tensor<4xf32> {
  %a = relay.exp %x : (tensor<4xf32>)
  %r = relay.if %c : tensor<i1> -> (tensor<4xf32>) {
    %n = relay.negative %a : (tensor<4xf32>)
    relay.yield %n : tensor<4xf32>
  } else {
    relay.yield %a : tensor<4xf32>
  }
  %b = relay.add %a, %r : (tensor<4xf32>, tensor<4xf32>)
  return %b : tensor<4xf32>
}

// When the relay.if does not feed the group, it moves behind the call
// (its branches are pure) and reads the fused exp result.
// CHECK-LABEL: func.func @region_user_moved(
// CHECK-NEXT:    %[[F:.*]]:2 = call @region_user_moved_fused_0(%arg1, %arg2)
// CHECK-NEXT:    %[[R:.*]] = relay.if %arg0
// CHECK-NEXT:      relay.negative %[[F]]#0
// CHECK:         return %[[F]]#1, %[[R]]
// CHECK-LABEL: func.func private @region_user_moved_fused_0
// CHECK-NEXT:    relay.exp
// CHECK-NEXT:    relay.add
// CHECK-NEXT:    return
func.func @region_user_moved(%c: tensor<i1>, %x: tensor<4xf32>, %y: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>) {
  %a = relay.exp %x : (tensor<4xf32>)
  %r = relay.if %c : tensor<i1> -> (tensor<4xf32>) {
    %n = relay.negative %a : (tensor<4xf32>)
    relay.yield %n : tensor<4xf32>
  } else {
    relay.yield %a : tensor<4xf32>
  }
  %b = relay.add %a, %y : (tensor<4xf32>, tensor<4xf32>)
  return %b, %r : tensor<4xf32>, tensor<4xf32>
}
