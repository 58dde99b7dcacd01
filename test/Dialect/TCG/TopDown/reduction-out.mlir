// RUN: raf-opt %s --tcg-topdown-transform=kind=reduction-out --split-input-file -verify-diagnostics | FileCheck %s

// A reduction combined with other values (FC + bias: sum_k x w + b) moves
// whole into a computation of its own, read where it was (Rieber 2022,
// Fig. 3.11 on the reduction node); full fission uses it after the products
// have moved out.
// CHECK-LABEL: func.func @fc_bias
// CHECK:       %[[S:.*]] = tcg.tensor %m in [0, 2) name "m" -> tensor<2x3xf32> {
// CHECK-NEXT:    tcg.tensor %n in [0, 3) name "n" -> tensor<3xf32> {
// CHECK-NEXT:      %[[R:.*]] = tcg.reduce add %k in [0, 4) name "k" -> f32 {
// CHECK:           tcg.compute mul
// CHECK:         tcg.yield %[[R]] : f32
// CHECK:       tcg.tensor %m in [0, 2) name "m" -> tensor<2x3xf32> {
// CHECK-NEXT:    tcg.tensor %n in [0, 3) name "n" -> tensor<3xf32> {
// CHECK-NEXT:      %[[V:.*]] = tcg.input %[[S]][%m, %n] : tensor<2x3xf32>
// CHECK-NEXT:      %[[B:.*]] = tcg.input %b[%n] : tensor<3xf32>
// CHECK-NEXT:      tcg.compute add %[[V]], %[[B]] : (f32, f32) -> f32
func.func @fc_bias(%xin: tensor<2x4xf32>, %win: tensor<3x4xf32>, %bin: tensor<3xf32>) -> tensor<2x3xf32> {
  %r = tcg.kernel (%x = %xin : tensor<2x4xf32>, %w = %win : tensor<3x4xf32>, %b = %bin : tensor<3xf32>) -> tensor<2x3xf32> attributes {arg_names = ["x", "w", "b"]} {
    %0 = tcg.tensor %m in [0, 2) name "m" -> tensor<2x3xf32> {
      %1 = tcg.tensor %n in [0, 3) name "n" -> tensor<3xf32> {
        %s = tcg.reduce add %k in [0, 4) name "k" -> f32 attributes {topdown.target} {
          %a = tcg.input %x[%m, %k] : tensor<2x4xf32>
          %c = tcg.input %w[%n, %k] : tensor<3x4xf32>
          %p = tcg.compute mul %a, %c : (f32, f32) -> f32
          tcg.yield %p : f32
        }
        %bias = tcg.input %b[%n] : tensor<3xf32>
        %y = tcg.compute add %s, %bias : (f32, f32) -> f32
        tcg.yield %y : f32
      }
      tcg.yield %1 : tensor<3xf32>
    }
    tcg.yield %0 : tensor<2x3xf32>
  }
  return %r : tensor<2x3xf32>
}

// -----

func.func @alone(%xin: tensor<2x4xf32>) -> tensor<2xf32> {
  %r = tcg.kernel (%x = %xin : tensor<2x4xf32>) -> tensor<2xf32> {
    %0 = tcg.tensor %m in [0, 2) -> tensor<2xf32> {
      // expected-error @+1 {{'tcg.reduce' op is not combined with other values; it already forms its computation's element}}
      %s = tcg.reduce add %k in [0, 4) -> f32 attributes {topdown.target} {
        %a = tcg.input %x[%m, %k] : tensor<2x4xf32>
        tcg.yield %a : f32
      }
      tcg.yield %s : f32
    }
    tcg.yield %0 : tensor<2xf32>
  }
  return %r : tensor<2xf32>
}

// -----

// The reduction reads a value its computation computes (the product p).
func.func @uses_local(%xin: tensor<2x4xf32>) -> tensor<2xf32> {
  %r = tcg.kernel (%x = %xin : tensor<2x4xf32>) -> tensor<2xf32> {
    %0 = tcg.tensor %m in [0, 2) -> tensor<2xf32> {
      %v = tcg.input %x[%m, 0] : tensor<2x4xf32>
      %p = tcg.compute mul %v, %v : (f32, f32) -> f32
      // expected-error @+1 {{'tcg.reduce' op uses a value its enclosing computation computes; it cannot move into a computation of its own}}
      %s = tcg.reduce add %k in [0, 4) -> f32 attributes {topdown.target} {
        %a = tcg.input %x[%m, %k] : tensor<2x4xf32>
        %q = tcg.compute mul %a, %p : (f32, f32) -> f32
        tcg.yield %q : f32
      }
      %y = tcg.compute add %s, %p : (f32, f32) -> f32
      tcg.yield %y : f32
    }
    tcg.yield %0 : tensor<2xf32>
  }
  return %r : tensor<2xf32>
}
