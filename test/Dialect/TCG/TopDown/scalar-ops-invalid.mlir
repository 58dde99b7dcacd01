// RUN: raf-opt %s -split-input-file -verify-diagnostics

// The verifier rules of div, exp and tcg.constant.

func.func @exp_two_operands(%xin: tensor<4xf32>) -> tensor<4xf32> {
  %r = tcg.kernel (%x = %xin : tensor<4xf32>) -> tensor<4xf32> {
    %0 = tcg.tensor %i in [0, 4) -> tensor<4xf32> {
      %a = tcg.input %x[%i] : tensor<4xf32>
      // expected-error @+1 {{'tcg.compute' op 'exp' takes one operand}}
      %e = tcg.compute exp %a, %a : (f32, f32) -> f32
      tcg.yield %e : f32
    }
    tcg.yield %0 : tensor<4xf32>
  }
  return %r : tensor<4xf32>
}

// -----

func.func @div_one_operand(%xin: tensor<4xf32>) -> tensor<4xf32> {
  %r = tcg.kernel (%x = %xin : tensor<4xf32>) -> tensor<4xf32> {
    %0 = tcg.tensor %i in [0, 4) -> tensor<4xf32> {
      %a = tcg.input %x[%i] : tensor<4xf32>
      // expected-error @+1 {{'tcg.compute' op 'div' takes two operands}}
      %e = tcg.compute div %a : (f32) -> f32
      tcg.yield %e : f32
    }
    tcg.yield %0 : tensor<4xf32>
  }
  return %r : tensor<4xf32>
}

// -----

func.func @exp_integer(%xin: tensor<4xi32>) -> tensor<4xi32> {
  %r = tcg.kernel (%x = %xin : tensor<4xi32>) -> tensor<4xi32> {
    %0 = tcg.tensor %i in [0, 4) -> tensor<4xi32> {
      %a = tcg.input %x[%i] : tensor<4xi32>
      // expected-error @+1 {{'tcg.compute' op 'exp' needs a floating-point type, got 'i32'}}
      %e = tcg.compute exp %a : (i32) -> i32
      tcg.yield %e : i32
    }
    tcg.yield %0 : tensor<4xi32>
  }
  return %r : tensor<4xi32>
}

// -----

func.func @exp_narrowing(%xin: tensor<4xf32>) -> tensor<4xf16> {
  %r = tcg.kernel (%x = %xin : tensor<4xf32>) -> tensor<4xf16> {
    %0 = tcg.tensor %i in [0, 4) -> tensor<4xf16> {
      %a = tcg.input %x[%i] : tensor<4xf32>
      // expected-error @+1 {{'tcg.compute' op result type 'f16' is narrower than the operand type 'f32'}}
      %e = tcg.compute exp %a : (f32) -> f16
      tcg.yield %e : f16
    }
    tcg.yield %0 : tensor<4xf16>
  }
  return %r : tensor<4xf16>
}

// -----

func.func @reduce_div(%xin: tensor<4xf32>) -> tensor<1xf32> {
  %r = tcg.kernel (%x = %xin : tensor<4xf32>) -> tensor<1xf32> {
    %0 = tcg.tensor %i in [0, 1) -> tensor<1xf32> {
      // expected-error @+1 {{'tcg.reduce' op cannot reduce with 'div' (not associative); use add, mul, max or min}}
      %s = tcg.reduce div %k in [0, 4) -> f32 {
        %a = tcg.input %x[%k] : tensor<4xf32>
        tcg.yield %a : f32
      }
      tcg.yield %s : f32
    }
    tcg.yield %0 : tensor<1xf32>
  }
  return %r : tensor<1xf32>
}

// -----

func.func @reduce_exp(%xin: tensor<4xf32>) -> tensor<1xf32> {
  %r = tcg.kernel (%x = %xin : tensor<4xf32>) -> tensor<1xf32> {
    %0 = tcg.tensor %i in [0, 1) -> tensor<1xf32> {
      // expected-error @+1 {{'tcg.reduce' op cannot reduce with 'exp' (a unary operation); use add, mul, max or min}}
      %s = tcg.reduce exp %k in [0, 4) -> f32 {
        %a = tcg.input %x[%k] : tensor<4xf32>
        tcg.yield %a : f32
      }
      tcg.yield %s : f32
    }
    tcg.yield %0 : tensor<1xf32>
  }
  return %r : tensor<1xf32>
}

// -----

func.func @constant_not_scalar(%xin: tensor<4xf32>) -> tensor<4xf32> {
  %r = tcg.kernel (%x = %xin : tensor<4xf32>) -> tensor<4xf32> {
    %0 = tcg.tensor %i in [0, 4) -> tensor<4xf32> {
      // expected-error @+1 {{'tcg.constant' op result #0 must be signless integer or floating-point scalar, but got 'tensor<2xf32>'}}
      %c = tcg.constant dense<1.0> : tensor<2xf32>
      %a = tcg.input %x[%i] : tensor<4xf32>
      tcg.yield %a : f32
    }
    tcg.yield %0 : tensor<4xf32>
  }
  return %r : tensor<4xf32>
}

// -----

func.func @constant_type_mismatch(%xin: tensor<4xf32>) -> tensor<4xf32> {
  %r = tcg.kernel (%x = %xin : tensor<4xf32>) -> tensor<4xf32> {
    %0 = tcg.tensor %i in [0, 4) -> tensor<4xf32> {
      // expected-error @+1 {{'tcg.constant' op failed to verify that all of {value, result} have same type}}
      %c = "tcg.constant"() {value = 1.0 : f64} : () -> f32
      %a = tcg.input %x[%i] : tensor<4xf32>
      tcg.yield %a : f32
    }
    tcg.yield %0 : tensor<4xf32>
  }
  return %r : tensor<4xf32>
}

// -----

func.func @constant_outside(%xin: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{'tcg.constant' op expects parent op to be one of 'tcg.tensor, tcg.reduce'}}
  %c = tcg.constant 1.0 : f32
  return %xin : tensor<4xf32>
}
