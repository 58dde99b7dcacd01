// RUN: rm -rf %t && split-file %s %t
// RUN: raf-opt %t/missing.mlir -verify-diagnostics --raf-autocast
// RUN: raf-opt %t/no-gradients.mlir -verify-diagnostics --raf-autocast
// RUN: raf-opt %t/entry-no-gradients.mlir -verify-diagnostics --raf-autocast=entry=forward
// RUN: raf-opt %t/entry-missing.mlir -verify-diagnostics --raf-autocast=entry=step
// RUN: raf-opt %t/external.mlir -verify-diagnostics --raf-autocast
// RUN: raf-opt %t/updates-arg.mlir -verify-diagnostics --raf-autocast
// RUN: raf-opt %t/force-unknown.mlir -verify-diagnostics --raf-autocast=force-low=nn.softmx
// RUN: raf-opt %t/force-not-relay.mlir -verify-diagnostics --raf-autocast=force-f32=arith.addf
// RUN: raf-opt %t/force-cast.mlir -verify-diagnostics --raf-autocast=force-f32=cast
// RUN: raf-opt %t/force-both.mlir -verify-diagnostics --raf-autocast="force-low=exp force-f32=relay.exp"
// Unknown types are errors when the pass is created, naming the accepted
// values (no IR is read).
// RUN: not raf-opt %t/dtype.mlir --raf-autocast=dtype=f32 2>&1 | FileCheck %s --check-prefix=DTYPE-F32
// RUN: not raf-opt %t/dtype-unknown.mlir --raf-autocast=dtype=fp8 2>&1 | FileCheck %s --check-prefix=DTYPE-FP8
// RUN: not raf-opt %t/out-dtype.mlir --raf-autocast=out-dtype=f64 2>&1 | FileCheck %s --check-prefix=OUT-DTYPE
// DTYPE-F32: error: option 'dtype' of raf-autocast: unknown value 'f32'; expected one of f16, bf16
// DTYPE-FP8: error: option 'dtype' of raf-autocast: unknown value 'fp8'; expected one of f16, bf16
// OUT-DTYPE: error: option 'out-dtype' of raf-autocast: unknown value 'f64'; expected one of f16, bf16, f32
// Errors exit non-zero; inference=true accepts the function without
// gradients.
// RUN: not raf-opt %t/no-gradients.mlir --raf-autocast -o /dev/null 2>/dev/null
// RUN: not raf-opt %t/missing.mlir --raf-autocast -o /dev/null 2>/dev/null
// RUN: raf-opt %t/no-gradients.mlir --raf-autocast=inference=true | FileCheck %s --check-prefix=INFERENCE
// A bad option value is a parse error of the option; an enumerated one lists
// the accepted values.
// RUN: not raf-opt %t/no-gradients.mlir --raf-autocast=inference=maybe 2>&1 | FileCheck %s --check-prefix=PARSE
// RUN: not raf-opt %t/no-gradients.mlir --raf-training-pipeline=amp=fp8 2>&1 | FileCheck %s --check-prefix=AMP

// INFERENCE: relay.nn.dense {{.*}} -> tensor<2x2xf16>
// PARSE: for the --inference option: 'maybe' is invalid value for boolean argument
// AMP: option 'amp' of raf-training-pipeline: unknown value 'fp8'; expected one of none, f16, bf16

//--- missing.mlir
// Every operation without a casting rule is listed, in one error with a
// note at each; the module is not changed.
// expected-error @+1 {{AutoCast has no casting rule for 4 operations in '@main': 'func.call' (2), 'relay.if' (1), 'arith.constant' (1); it handles relay operators, constants and tuples (inline calls and lower closures and conditionals first)}}
func.func @main(%x: tensor<4xf32>, %c: tensor<i1>) -> tensor<4xf32>
    attributes {raf.grad_params = array<i64: 0>} {
  // expected-note @+1 {{'func.call' has no casting rule}}
  %a = func.call @square(%x) : (tensor<4xf32>) -> tensor<4xf32>
  %b = relay.nn.relu %a : (tensor<4xf32>)
  // expected-note @+1 {{'relay.if' has no casting rule}}
  %r = relay.if %c : tensor<i1> -> (tensor<4xf32>) {
    relay.yield %b : tensor<4xf32>
  } else {
    relay.yield %x : tensor<4xf32>
  }
  // expected-note @+1 {{'func.call' has no casting rule}}
  %s = func.call @square(%r) : (tensor<4xf32>) -> tensor<4xf32>
  // expected-note @+1 {{'arith.constant' has no casting rule}}
  %k = arith.constant dense<1.0> : tensor<4xf32>
  %t = relay.add %s, %k : (tensor<4xf32>, tensor<4xf32>)
  return %t : tensor<4xf32>
}

func.func private @square(%x: tensor<4xf32>) -> tensor<4xf32> {
  %y = relay.multiply %x, %x : (tensor<4xf32>, tensor<4xf32>)
  return %y : tensor<4xf32>
}

//--- no-gradients.mlir
// A forward function: nothing to convert without inference=true.
// expected-error @+1 {{no function has gradients (raf.grad_params or raf.optimizer): AutoCast converts training graphs: run --raf-autodiff (--raf-append-optimizer) or --raf-training-pipeline first, or set inference=true to convert a function without gradients}}
module {
  func.func @main(%x: tensor<2x2xf32>) -> tensor<2x2xf32> {
    %y = relay.nn.dense %x, %x : (tensor<2x2xf32>, tensor<2x2xf32>)
    return %y : tensor<2x2xf32>
  }
}

//--- entry-no-gradients.mlir
func.func @step(%x: tensor<2x2xf32>) -> tensor<2x2xf32> attributes {raf.optimizer = "sgd"} {
  return %x : tensor<2x2xf32>
}
// expected-error @+1 {{'@forward' has no gradients (neither raf.grad_params nor raf.optimizer): AutoCast converts training graphs}}
func.func @forward(%x: tensor<2x2xf32>) -> tensor<2x2xf32> {
  return %x : tensor<2x2xf32>
}

//--- entry-missing.mlir
// expected-error @+1 {{function '@step' not found (set the pass option entry=<name>)}}
module {
  func.func @main(%x: tensor<2x2xf32>) -> tensor<2x2xf32> attributes {raf.optimizer = "sgd"} {
    return %x : tensor<2x2xf32>
  }
}

//--- external.mlir
// expected-error @+1 {{AutoCast needs the body of '@main'}}
func.func private @main(%x: tensor<2x2xf32>) -> tensor<2x2xf32> attributes {raf.grad_params = array<i64: 0>}

//--- updates-arg.mlir
// expected-error @+1 {{result #0 has raf.updates_arg = 3, but there are 1 arguments}}
func.func @step(%x: tensor<2x2xf32>) -> (tensor<2x2xf32> {raf.updates_arg = 3 : i64})
    attributes {raf.optimizer = "sgd"} {
  return %x : tensor<2x2xf32>
}

//--- force-unknown.mlir
// expected-error @+1 {{unknown relay operator 'nn.softmx' in force-low (expected an operator name such as nn.softmax)}}
module {
  func.func @main(%x: tensor<2x2xf32>) -> tensor<2x2xf32> attributes {raf.optimizer = "sgd"} {
    return %x : tensor<2x2xf32>
  }
}

//--- force-not-relay.mlir
// expected-error @+1 {{unknown relay operator 'arith.addf' in force-f32}}
module {
  func.func @main(%x: tensor<2x2xf32>) -> tensor<2x2xf32> attributes {raf.optimizer = "sgd"} {
    return %x : tensor<2x2xf32>
  }
}

//--- force-cast.mlir
// expected-error @+1 {{force-f32 cannot name 'cast': it is what AutoCast inserts}}
module {
  func.func @main(%x: tensor<2x2xf32>) -> tensor<2x2xf32> attributes {raf.optimizer = "sgd"} {
    return %x : tensor<2x2xf32>
  }
}

//--- force-both.mlir
// expected-error @+1 {{'relay.exp' is in both force-low and force-f32}}
module {
  func.func @main(%x: tensor<2x2xf32>) -> tensor<2x2xf32> attributes {raf.optimizer = "sgd"} {
    return %x : tensor<2x2xf32>
  }
}

//--- dtype.mlir
module {
  func.func @main(%x: tensor<2x2xf32>) -> tensor<2x2xf32> attributes {raf.optimizer = "sgd"} {
    return %x : tensor<2x2xf32>
  }
}

//--- dtype-unknown.mlir
module {
  func.func @main(%x: tensor<2x2xf32>) -> tensor<2x2xf32> attributes {raf.optimizer = "sgd"} {
    return %x : tensor<2x2xf32>
  }
}

//--- out-dtype.mlir
module {
  func.func @main(%x: tensor<2x2xf32>) -> tensor<2x2xf32> attributes {raf.optimizer = "sgd"} {
    return %x : tensor<2x2xf32>
  }
}
