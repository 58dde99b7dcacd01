// RUN: raf-opt %s --tcg-topdown-transform=kind=compute-fission --split-input-file | FileCheck %s --check-prefix=COMPUTE

// Compute fission (Rieber 2022, Fig. 3.10): the negation of a sigmoid moves
// into its own computation, which the rest reads.
// COMPUTE-LABEL: func.func @sigmoid
// COMPUTE:       %[[N:.*]] = tcg.tensor %i in [0, 8) name "i" -> tensor<8xf32> {
// COMPUTE-NEXT:    %[[X:.*]] = tcg.input %x[%i] : tensor<8xf32>
// COMPUTE-NEXT:    %[[Z:.*]] = tcg.constant 0.000000e+00 : f32
// COMPUTE-NEXT:    %[[S:.*]] = tcg.compute sub %[[Z]], %[[X]] : (f32, f32) -> f32
// COMPUTE-NEXT:    tcg.yield %[[S]] : f32
// COMPUTE-NEXT:  }
// COMPUTE-NEXT:  tcg.tensor %i in [0, 8) name "i" -> tensor<8xf32> {
// COMPUTE-NEXT:    %[[ONE:.*]] = tcg.constant 1.000000e+00 : f32
// COMPUTE-NEXT:    %[[R:.*]] = tcg.input %[[N]][%i] : tensor<8xf32>
// COMPUTE-NEXT:    tcg.compute exp %[[R]] : (f32) -> f32
// COMPUTE-NOT:     tcg.input %x
func.func @sigmoid(%xin: tensor<8xf32>) -> tensor<8xf32> {
  %r = tcg.kernel "sigmoid" (%x = %xin : tensor<8xf32>) -> tensor<8xf32> attributes {arg_names = ["x"]} {
    %0 = tcg.tensor %i in [0, 8) name "i" -> tensor<8xf32> {
      %a = tcg.input %x[%i] : tensor<8xf32>
      %zero = tcg.constant 0.0 : f32
      %one = tcg.constant 1.0 : f32
      %n = tcg.compute sub %zero, %a {topdown.target} : (f32, f32) -> f32
      %e = tcg.compute exp %n : (f32) -> f32
      %d = tcg.compute add %e, %one : (f32, f32) -> f32
      %s = tcg.compute div %one, %d : (f32, f32) -> f32
      tcg.yield %s : f32
    }
    tcg.yield %0 : tensor<8xf32>
  }
  return %r : tensor<8xf32>
}

// -----

// Inside a reduction the new computation has a dimension per enclosing
// iterator, the reduced one included (the product of a matrix-vector
// product).
// COMPUTE-LABEL: func.func @gemv
// COMPUTE:       %[[P:.*]] = tcg.tensor %i in [0, 4) name "i" -> tensor<4x6xf32> {
// COMPUTE-NEXT:    tcg.tensor %k in [0, 6) name "k" -> tensor<6xf32> {
// COMPUTE-NEXT:      tcg.input %a[%i, %k] : tensor<4x6xf32>
// COMPUTE-NEXT:      tcg.input %b[%k] : tensor<6xf32>
// COMPUTE-NEXT:      tcg.compute mul
// COMPUTE:       tcg.reduce add %k in [0, 6) name "k" -> f32 {
// COMPUTE-NEXT:    %[[R:.*]] = tcg.input %[[P]][%i, %k] : tensor<4x6xf32>
// COMPUTE-NEXT:    tcg.yield %[[R]] : f32

func.func @gemv(%ain: tensor<4x6xf32>, %bin: tensor<6xf32>) -> tensor<4xf32> {
  %r = tcg.kernel "gemv" (%a = %ain : tensor<4x6xf32>, %b = %bin : tensor<6xf32>) -> tensor<4xf32> attributes {arg_names = ["a", "b"]} {
    %0 = tcg.tensor %i in [0, 4) name "i" -> tensor<4xf32> {
      %1 = tcg.reduce add %k in [0, 6) name "k" -> f32 {
        %x = tcg.input %a[%i, %k] : tensor<4x6xf32>
        %y = tcg.input %b[%k] : tensor<6xf32>
        %p = tcg.compute mul %x, %y {topdown.target} : (f32, f32) -> f32
        tcg.yield %p : f32
      }
      tcg.yield %1 : f32
    }
    tcg.yield %0 : tensor<4xf32>
  }
  return %r : tensor<4xf32>
}
