// div, exp and constants lowered by --convert-tcg-to-linalg and run on the
// CPU, checked against NumPy (Inputs/oracle.py).
// RUN: %python %S/Inputs/oracle.py input %t.x.npy
// RUN: raf-run %s --entry=sigmoid --input=%t.x.npy --output=%t.sigmoid.npy
// RUN: %python %S/Inputs/oracle.py check sigmoid %t.x.npy %t.sigmoid.npy | FileCheck %s --check-prefix=SIGMOID
// RUN: raf-run %s --entry=softmax --input=%t.x.npy --output=%t.softmax.npy
// RUN: %python %S/Inputs/oracle.py check softmax %t.x.npy %t.softmax.npy | FileCheck %s --check-prefix=SOFTMAX
// RUN: raf-opt %s --convert-tcg-to-linalg | FileCheck %s --check-prefix=LINALG

// SIGMOID: sigmoid: ok
// LINALG-LABEL: func.func @sigmoid
// LINALG-DAG:   %[[ONE:.*]] = arith.constant 1.000000e+00 : f32
// LINALG-DAG:   %[[ZERO:.*]] = arith.constant 0.000000e+00 : f32
// LINALG:       %[[N:.*]] = arith.subf %[[ZERO]], %{{.*}} : f32
// LINALG-NEXT:  %[[E:.*]] = math.exp %[[N]] : f32
// LINALG-NEXT:  %[[D:.*]] = arith.addf %[[E]], %[[ONE]] : f32
// LINALG-NEXT:  arith.divf %[[ONE]], %[[D]] : f32
func.func @sigmoid(%xin: tensor<2x8xf32>) -> tensor<2x8xf32> {
  %r = tcg.kernel "sigmoid" (%x = %xin : tensor<2x8xf32>) -> tensor<2x8xf32> {
    %0 = tcg.tensor %i in [0, 2) name "i" -> tensor<2x8xf32> {
      %1 = tcg.tensor %j in [0, 8) name "j" -> tensor<8xf32> {
        %v = tcg.input %x[%i, %j] : tensor<2x8xf32>
        %zero = tcg.constant 0.0 : f32
        %one = tcg.constant 1.0 : f32
        %n = tcg.compute sub %zero, %v : (f32, f32) -> f32
        %e = tcg.compute exp %n : (f32) -> f32
        %d = tcg.compute add %e, %one : (f32, f32) -> f32
        %s = tcg.compute div %one, %d : (f32, f32) -> f32
        tcg.yield %s : f32
      }
      tcg.yield %1 : tensor<8xf32>
    }
    tcg.yield %0 : tensor<2x8xf32>
  }
  return %r : tensor<2x8xf32>
}

// Softmax over rows as four computations (max, exp of the difference, sum,
// quotient).
// SOFTMAX: softmax: ok
// LINALG-LABEL: func.func @softmax
// LINALG:       arith.maximumf
// LINALG:       math.exp
// LINALG:       arith.addf
// LINALG:       arith.divf
func.func @softmax(%xin: tensor<2x8xf32>) -> tensor<2x8xf32> {
  %r = tcg.kernel "softmax" (%x = %xin : tensor<2x8xf32>) -> tensor<2x8xf32> {
    %m = tcg.tensor %i in [0, 2) name "i" -> tensor<2xf32> {
      %1 = tcg.reduce max %j in [0, 8) name "j" -> f32 {
        %v = tcg.input %x[%i, %j] : tensor<2x8xf32>
        tcg.yield %v : f32
      }
      tcg.yield %1 : f32
    }
    %e = tcg.tensor %i in [0, 2) name "i" -> tensor<2x8xf32> {
      %1 = tcg.tensor %j in [0, 8) name "j" -> tensor<8xf32> {
        %v = tcg.input %x[%i, %j] : tensor<2x8xf32>
        %w = tcg.input %m[%i] : tensor<2xf32>
        %d = tcg.compute sub %v, %w : (f32, f32) -> f32
        %ex = tcg.compute exp %d : (f32) -> f32
        tcg.yield %ex : f32
      }
      tcg.yield %1 : tensor<8xf32>
    }
    %s = tcg.tensor %i in [0, 2) name "i" -> tensor<2xf32> {
      %1 = tcg.reduce add %j in [0, 8) name "j" -> f32 {
        %v = tcg.input %e[%i, %j] : tensor<2x8xf32>
        tcg.yield %v : f32
      }
      tcg.yield %1 : f32
    }
    %y = tcg.tensor %i in [0, 2) name "i" -> tensor<2x8xf32> {
      %1 = tcg.tensor %j in [0, 8) name "j" -> tensor<8xf32> {
        %v = tcg.input %e[%i, %j] : tensor<2x8xf32>
        %w = tcg.input %s[%i] : tensor<2xf32>
        %q = tcg.compute div %v, %w : (f32, f32) -> f32
        tcg.yield %q : f32
      }
      tcg.yield %1 : tensor<8xf32>
    }
    tcg.yield %y : tensor<2x8xf32>
  }
  return %r : tensor<2x8xf32>
}
