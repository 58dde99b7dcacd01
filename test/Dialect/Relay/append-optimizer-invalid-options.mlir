// RUN: rm -rf %t && split-file %s %t
// An unknown kind is an error when the pass is created, naming the accepted
// values (no IR is read).
// RUN: not raf-opt %t/kind.mlir --raf-append-optimizer=kind=lamb 2>&1 | FileCheck %s --check-prefix=KIND
// KIND: error: option 'kind' of raf-append-optimizer: unknown value 'lamb'; expected one of sgd, momentum, adam
// RUN: raf-opt %t/lr.mlir -verify-diagnostics --raf-append-optimizer=lr=0
// RUN: raf-opt %t/lr-negative.mlir -verify-diagnostics --raf-append-optimizer=lr=-0.5
// RUN: raf-opt %t/lr-infinite.mlir -verify-diagnostics --raf-append-optimizer=lr=inf
// RUN: raf-opt %t/eps.mlir -verify-diagnostics --raf-append-optimizer="kind=adam eps=0"
// RUN: raf-opt %t/beta1.mlir -verify-diagnostics --raf-append-optimizer="kind=adam beta1=1"
// RUN: raf-opt %t/beta2.mlir -verify-diagnostics --raf-append-optimizer="kind=adam beta2=-0.1"
// RUN: raf-opt %t/momentum.mlir -verify-diagnostics --raf-append-optimizer="kind=momentum momentum=-0.9"
// RUN: raf-opt %t/weight-decay.mlir -verify-diagnostics --raf-append-optimizer=weight-decay=-1e-4
// RUN: raf-opt %t/weight-decay-nan.mlir -verify-diagnostics --raf-append-optimizer=weight-decay=nan
// An option the chosen kind does not use is checked too.
// RUN: raf-opt %t/beta1.mlir -verify-diagnostics --raf-append-optimizer="kind=sgd beta1=1"
// RUN: raf-opt %t/entry.mlir -verify-diagnostics --raf-append-optimizer=entry=grad
// RUN: raf-opt %t/step-name.mlir -verify-diagnostics --raf-append-optimizer=step-name=
// RUN: not raf-opt %t/kind.mlir --raf-append-optimizer=kind=lamb -o /dev/null 2>/dev/null

// Bad options and a missing entry function are errors at the module.

//--- kind.mlir
module {
  func.func @main(%w: tensor<4xf32>, %dy: tensor<f32>)
      -> (tensor<f32>, tensor<4xf32>) attributes {raf.grad_params = array<i64: 0>} {
    %l = relay.sum %w : (tensor<4xf32>)
    return %l, %w : tensor<f32>, tensor<4xf32>
  }
}

//--- lr.mlir
// expected-error @+1 {{optimizer option lr=0 is invalid: expected a finite value > 0}}
module {
  func.func @main(%w: tensor<4xf32>, %dy: tensor<f32>)
      -> (tensor<f32>, tensor<4xf32>) attributes {raf.grad_params = array<i64: 0>} {
    %l = relay.sum %w : (tensor<4xf32>)
    return %l, %w : tensor<f32>, tensor<4xf32>
  }
}

//--- lr-negative.mlir
// expected-error @+1 {{optimizer option lr=-0.5 is invalid: expected a finite value > 0}}
module {
  func.func @main(%w: tensor<4xf32>, %dy: tensor<f32>)
      -> (tensor<f32>, tensor<4xf32>) attributes {raf.grad_params = array<i64: 0>} {
    %l = relay.sum %w : (tensor<4xf32>)
    return %l, %w : tensor<f32>, tensor<4xf32>
  }
}

//--- lr-infinite.mlir
// expected-error @+1 {{optimizer option lr=inf is invalid: expected a finite value > 0}}
module {
  func.func @main(%w: tensor<4xf32>, %dy: tensor<f32>)
      -> (tensor<f32>, tensor<4xf32>) attributes {raf.grad_params = array<i64: 0>} {
    %l = relay.sum %w : (tensor<4xf32>)
    return %l, %w : tensor<f32>, tensor<4xf32>
  }
}

//--- eps.mlir
// expected-error @+1 {{optimizer option eps=0 is invalid: expected a finite value > 0}}
module {
  func.func @main(%w: tensor<4xf32>, %dy: tensor<f32>)
      -> (tensor<f32>, tensor<4xf32>) attributes {raf.grad_params = array<i64: 0>} {
    %l = relay.sum %w : (tensor<4xf32>)
    return %l, %w : tensor<f32>, tensor<4xf32>
  }
}

//--- beta1.mlir
// expected-error @+1 {{optimizer option beta1=1 is invalid: expected a value in [0, 1)}}
module {
  func.func @main(%w: tensor<4xf32>, %dy: tensor<f32>)
      -> (tensor<f32>, tensor<4xf32>) attributes {raf.grad_params = array<i64: 0>} {
    %l = relay.sum %w : (tensor<4xf32>)
    return %l, %w : tensor<f32>, tensor<4xf32>
  }
}

//--- beta2.mlir
// expected-error @+1 {{optimizer option beta2=-0.1 is invalid: expected a value in [0, 1)}}
module {
  func.func @main(%w: tensor<4xf32>, %dy: tensor<f32>)
      -> (tensor<f32>, tensor<4xf32>) attributes {raf.grad_params = array<i64: 0>} {
    %l = relay.sum %w : (tensor<4xf32>)
    return %l, %w : tensor<f32>, tensor<4xf32>
  }
}

//--- momentum.mlir
// expected-error @+1 {{optimizer option momentum=-0.9 is invalid: expected a finite value >= 0}}
module {
  func.func @main(%w: tensor<4xf32>, %dy: tensor<f32>)
      -> (tensor<f32>, tensor<4xf32>) attributes {raf.grad_params = array<i64: 0>} {
    %l = relay.sum %w : (tensor<4xf32>)
    return %l, %w : tensor<f32>, tensor<4xf32>
  }
}

//--- weight-decay.mlir
// expected-error @+1 {{optimizer option weight-decay=-0.0001 is invalid: expected a finite value >= 0}}
module {
  func.func @main(%w: tensor<4xf32>, %dy: tensor<f32>)
      -> (tensor<f32>, tensor<4xf32>) attributes {raf.grad_params = array<i64: 0>} {
    %l = relay.sum %w : (tensor<4xf32>)
    return %l, %w : tensor<f32>, tensor<4xf32>
  }
}

//--- weight-decay-nan.mlir
// expected-error @+1 {{optimizer option weight-decay=nan is invalid: expected a finite value >= 0}}
module {
  func.func @main(%w: tensor<4xf32>, %dy: tensor<f32>)
      -> (tensor<f32>, tensor<4xf32>) attributes {raf.grad_params = array<i64: 0>} {
    %l = relay.sum %w : (tensor<4xf32>)
    return %l, %w : tensor<f32>, tensor<4xf32>
  }
}

//--- entry.mlir
// expected-error @+1 {{gradient function '@grad' not found (set the pass option entry=<name>)}}
module {
  func.func @main(%w: tensor<4xf32>, %dy: tensor<f32>)
      -> (tensor<f32>, tensor<4xf32>) attributes {raf.grad_params = array<i64: 0>} {
    %l = relay.sum %w : (tensor<4xf32>)
    return %l, %w : tensor<f32>, tensor<4xf32>
  }
}

//--- step-name.mlir
// expected-error @+1 {{the step function needs a name (step-name is empty)}}
module {
  func.func @main(%w: tensor<4xf32>, %dy: tensor<f32>)
      -> (tensor<f32>, tensor<4xf32>) attributes {raf.grad_params = array<i64: 0>} {
    %l = relay.sum %w : (tensor<4xf32>)
    return %l, %w : tensor<f32>, tensor<4xf32>
  }
}
