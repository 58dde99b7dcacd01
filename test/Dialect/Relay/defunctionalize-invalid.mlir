// RUN: raf-opt --relay-lambda-lift --relay-defunctionalize %s -split-input-file -verify-diagnostics

// Every function value the defunctionalisation cannot follow is an error at
// the op that holds it, naming what is not supported and --target=interp,
// which runs the program as it is.

// A function value kept in a reference cell: which closure a read returns
// is only known at run time.
func.func @ref_new(%x: tensor<f32>) -> tensor<f32> {
  %f = relay.fn(%y: tensor<f32>) -> tensor<f32> {
    %n = relay.negative %y : (tensor<f32>)
    relay.return %n : tensor<f32>
  }
  // expected-error @+1 {{'relay.ref_new' op takes a function value (operand #0 of type '(tensor<f32>) -> tensor<f32>'); --relay-defunctionalize follows function values through calls, relay.if and tuples only; --target=interp runs this program}}
  %cell = relay.ref_new %f : (tensor<f32>) -> tensor<f32>
  %g = relay.ref_read %cell : !relay.ref<(tensor<f32>) -> tensor<f32>>
  %r = relay.call %g(%x) : (tensor<f32>) -> tensor<f32>
  return %r : tensor<f32>
}

// -----

// A function value read from a reference passed in.
func.func @ref_read(%cell: !relay.ref<(tensor<f32>) -> tensor<f32>>, %x: tensor<f32>) -> tensor<f32> {
  // expected-error @+1 {{'relay.ref_read' op produces a function value (result #0 of type '(tensor<f32>) -> tensor<f32>') whose closure is only known at run time; --target=interp runs this program}}
  %g = relay.ref_read %cell : !relay.ref<(tensor<f32>) -> tensor<f32>>
  %r = relay.call %g(%x) : (tensor<f32>) -> tensor<f32>
  return %r : tensor<f32>
}

// -----

// relay.grad is lowered by --relay-grad-pipeline into references and
// closures for the evaluator, not compiled.
func.func @grad(%x: tensor<f32>) -> tuple<tensor<f32>, tuple<tensor<f32>>> {
  %f = relay.fn(%y: tensor<f32>) -> tensor<f32> {
    %n = relay.multiply %y, %y : (tensor<f32>, tensor<f32>)
    relay.return %n : tensor<f32>
  }
  // expected-error @+1 {{'relay.grad' op differentiates a function value, which compiled code cannot do; lower relay.grad with --relay-grad-pipeline and run the result on --target=interp}}
  %g = relay.grad %f : (tensor<f32>) -> tensor<f32>
  %r = relay.call %g(%x) : (tensor<f32>) -> tuple<tensor<f32>, tuple<tensor<f32>>>
  return %r : tuple<tensor<f32>, tuple<tensor<f32>>>
}

// -----

// A recursive function returning closures: the shape of what the
// recursive call returns is what is being computed.
func.func private @make(%n: tensor<i32>) -> ((tensor<f32>) -> tensor<f32>) {
  %zero = relay.constant dense<0> : tensor<i32>
  %done = relay.less_equal %n, %zero : (tensor<i32>, tensor<i32>)
  %f = relay.if %done : tensor<i1> -> ((tensor<f32>) -> tensor<f32>) {
    %id = relay.fn(%y: tensor<f32>) -> tensor<f32> {
      relay.return %y : tensor<f32>
    }
    relay.yield %id : (tensor<f32>) -> tensor<f32>
  } else {
    %one = relay.constant dense<1> : tensor<i32>
    %m = relay.subtract %n, %one : (tensor<i32>, tensor<i32>)
    // expected-error @+1 {{'func.call' op calls @make recursively, and @make returns a function value: which closure the call returns is only known once @make is defunctionalised; --target=interp runs this program}}
    %g = func.call @make(%m) : (tensor<i32>) -> ((tensor<f32>) -> tensor<f32>)
    relay.yield %g : (tensor<f32>) -> tensor<f32>
  }
  return %f : (tensor<f32>) -> tensor<f32>
}
func.func @recursive_closure(%n: tensor<i32>, %x: tensor<f32>) -> tensor<f32> {
  %f = func.call @make(%n) : (tensor<i32>) -> ((tensor<f32>) -> tensor<f32>)
  %r = relay.call %f(%x) : (tensor<f32>) -> tensor<f32>
  return %r : tensor<f32>
}

// -----

// Each recursion wraps the closure in a new one (f, twice f, twice (twice
// f), ...): the specialisations never end, and the limit stops them.
func.func private @grow(%n: tensor<i32>, %x: tensor<f32>, %f: (tensor<f32>) -> tensor<f32>) -> tensor<f32> {
  %zero = relay.constant dense<0> : tensor<i32>
  %done = relay.less_equal %n, %zero : (tensor<i32>, tensor<i32>)
  %r = relay.if %done : tensor<i1> -> (tensor<f32>) {
    %a = relay.call %f(%x) : (tensor<f32>) -> tensor<f32>
    relay.yield %a : tensor<f32>
  } else {
    %twice = relay.fn(%y: tensor<f32>) -> tensor<f32> {
      %a = relay.call %f(%y) : (tensor<f32>) -> tensor<f32>
      %b = relay.call %f(%a) : (tensor<f32>) -> tensor<f32>
      relay.return %b : tensor<f32>
    }
    %one = relay.constant dense<1> : tensor<i32>
    %m = relay.subtract %n, %one : (tensor<i32>, tensor<i32>)
    // expected-error @+1 {{'func.call' op would need more than 64 specialisations of @grow: the closures passed to it change with every call}}
    %b = func.call @grow(%m, %x, %twice) : (tensor<i32>, tensor<f32>, (tensor<f32>) -> tensor<f32>) -> tensor<f32>
    relay.yield %b : tensor<f32>
  }
  return %r : tensor<f32>
}
func.func @growing(%n: tensor<i32>, %x: tensor<f32>) -> tensor<f32> {
  %neg = relay.fn(%y: tensor<f32>) -> tensor<f32> {
    %a = relay.negative %y : (tensor<f32>)
    relay.return %a : tensor<f32>
  }
  %r = func.call @grow(%n, %x, %neg) : (tensor<i32>, tensor<f32>, (tensor<f32>) -> tensor<f32>) -> tensor<f32>
  return %r : tensor<f32>
}

// -----

// Choosing between closures needs a placeholder for the captured values of
// the closure not chosen; a reference has none.
func.func @captured_reference(%x: tensor<f32>, %c: tensor<i1>) -> tensor<f32> {
  %cell = relay.ref_new %x : tensor<f32>
  // expected-error @+1 {{'relay.if' op chooses between closures, one of which captures a value of type '!relay.ref<tensor<f32>>'; the tagged representation needs a placeholder value of every captured type for the closures not chosen}}
  %f = relay.if %c : tensor<i1> -> ((tensor<f32>) -> tensor<f32>) {
    %g = relay.fn(%y: tensor<f32>) -> tensor<f32> {
      %v = relay.ref_read %cell : !relay.ref<tensor<f32>>
      %s = relay.add %v, %y : (tensor<f32>, tensor<f32>)
      relay.return %s : tensor<f32>
    }
    relay.yield %g : (tensor<f32>) -> tensor<f32>
  } else {
    %h = relay.fn(%y: tensor<f32>) -> tensor<f32> {
      %n = relay.negative %y : (tensor<f32>)
      relay.return %n : tensor<f32>
    }
    relay.yield %h : (tensor<f32>) -> tensor<f32>
  }
  %r = relay.call %f(%x) : (tensor<f32>) -> tensor<f32>
  return %r : tensor<f32>
}

// -----

// A declaration cannot be specialised.
func.func private @external(%f: (tensor<f32>) -> tensor<f32>, %x: tensor<f32>) -> tensor<f32>
func.func @no_body(%x: tensor<f32>) -> tensor<f32> {
  %neg = relay.fn(%y: tensor<f32>) -> tensor<f32> {
    %a = relay.negative %y : (tensor<f32>)
    relay.return %a : tensor<f32>
  }
  // expected-error @+1 {{'func.call' op passes or expects function values of @external, which has no body to specialise for them}}
  %r = func.call @external(%neg, %x) : ((tensor<f32>) -> tensor<f32>, tensor<f32>) -> tensor<f32>
  return %r : tensor<f32>
}

// -----

// The rewrite follows single-block bodies only.
func.func @negate(%y: tensor<f32>) -> tensor<f32> {
  %a = relay.negative %y : (tensor<f32>)
  return %a : tensor<f32>
}
// expected-error @+1 {{'func.func' op has 2 blocks; --relay-defunctionalize follows function values through single-block functions (relay programs) only}}
func.func @blocks(%x: tensor<f32>) -> tensor<f32> {
  %f = relay.global_ref @negate : (tensor<f32>) -> tensor<f32>
  cf.br ^next
^next:
  %r = relay.call %f(%x) : (tensor<f32>) -> tensor<f32>
  return %r : tensor<f32>
}
