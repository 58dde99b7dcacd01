// Kernels compiled by --raf-cpu-pipeline (which runs --convert-tcg-to-linalg)
// and run on the CPU; expected values computed by hand.
// RUN: raf-run %s --entry=window | FileCheck %s --check-prefix=WINDOW
// RUN: raf-run %s --entry=transposed | FileCheck %s --check-prefix=TRANSPOSED
// RUN: raf-run %s --entry=sequence | FileCheck %s --check-prefix=SEQUENCE
// RUN: raf-run %s --entry=maximum | FileCheck %s --check-prefix=MAXIMUM

// A 2-tap window, i8 products accumulated in i32 (300 and 400 overflow i8):
// [1*100 - 2*50, -2*100 + 3*50, 3*100 + 4*50].
// WINDOW: [0, -50, 500]
func.func @window() -> tensor<3xi32> {
  %x = arith.constant dense<[1, -2, 3, 4]> : tensor<4xi8>
  %w = arith.constant dense<[100, 50]> : tensor<2xi8>
  %r = tcg.kernel (%a = %x : tensor<4xi8>, %b = %w : tensor<2xi8>) -> tensor<3xi32> {
    %0 = tcg.tensor %i in [0, 3) -> tensor<3xi32> {
      %1 = tcg.reduce add %k in [0, 2) -> i32 {
        %2 = tcg.input %a[%i + %k] : tensor<4xi8>
        %3 = tcg.input %b[%k] : tensor<2xi8>
        %4 = tcg.compute mul %2, %3 : (i8, i8) -> i32
        tcg.yield %4 : i32
      }
      tcg.yield %1 : i32
    }
    tcg.yield %0 : tensor<3xi32>
  }
  return %r : tensor<3xi32>
}

// A 1-D transposed convolution, stride 2, kernel [1, 2, 3]: each input
// scatters x * [1, 2, 3] at 2 * i. The view is [0, 0, 1, 0, 10, 0, 0] and the
// flipped kernel [3, 2, 1] slides over it.
// TRANSPOSED: [1, 2, 13, 20, 30]
func.func @transposed() -> tensor<5xf32> {
  %x = arith.constant dense<[1.0, 10.0]> : tensor<2xf32>
  %w = arith.constant dense<[1.0, 2.0, 3.0]> : tensor<3xf32>
  %r = tcg.kernel (%a = %x : tensor<2xf32>, %b = %w : tensor<3xf32>) -> tensor<5xf32> {
    %0 = tcg.tensor %i in [0, 5) -> tensor<5xf32> {
      %1 = tcg.reduce add %k in [0, 3) -> f32 {
        %2 = tcg.input %a[%i + %k] pad_low [2] pad_high [2] dilation [2] : tensor<2xf32>
        %3 = tcg.input %b[2 - %k] : tensor<3xf32>
        %4 = tcg.compute mul %2, %3 : (f32, f32) -> f32
        tcg.yield %4 : f32
      }
      tcg.yield %1 : f32
    }
    tcg.yield %0 : tensor<5xf32>
  }
  return %r : tensor<5xf32>
}

// Two computations: t = x[i + 1] - x[i] (padded with a zero after), which
// is [2, 3, 10, -16], then t * x.
// SEQUENCE: [2, 9, 60, -256]
func.func @sequence() -> tensor<4xf32> {
  %x = arith.constant dense<[1.0, 3.0, 6.0, 16.0]> : tensor<4xf32>
  %r = tcg.kernel (%a = %x : tensor<4xf32>) -> tensor<4xf32> {
    %t = tcg.tensor %i in [0, 4) -> tensor<4xf32> {
      %0 = tcg.input %a[%i + 1] pad_high [1] : tensor<4xf32>
      %1 = tcg.input %a[%i] pad_high [1] : tensor<4xf32>
      %2 = tcg.compute sub %0, %1 : (f32, f32) -> f32
      tcg.yield %2 : f32
    }
    %u = tcg.tensor %i in [0, 4) -> tensor<4xf32> {
      %0 = tcg.input %t[%i] : tensor<4xf32>
      %1 = tcg.input %a[%i] : tensor<4xf32>
      %2 = tcg.compute mul %0, %1 : (f32, f32) -> f32
      tcg.yield %2 : f32
    }
    tcg.yield %u : tensor<4xf32>
  }
  return %r : tensor<4xf32>
}

// Column maxima of a 3x2 matrix of negative numbers (the initial value
// must be -inf, not 0).
// MAXIMUM: [-1, -2]
func.func @maximum() -> tensor<2xf32> {
  %x = arith.constant dense<[[-5.0, -2.0], [-1.0, -7.0], [-3.0, -4.0]]> : tensor<3x2xf32>
  %r = tcg.kernel (%a = %x : tensor<3x2xf32>) -> tensor<2xf32> {
    %0 = tcg.tensor %j in [0, 2) -> tensor<2xf32> {
      %1 = tcg.reduce max %i in [0, 3) -> f32 {
        %2 = tcg.input %a[%i, %j] : tensor<3x2xf32>
        tcg.yield %2 : f32
      }
      tcg.yield %1 : f32
    }
    tcg.yield %0 : tensor<2xf32>
  }
  return %r : tensor<2xf32>
}
