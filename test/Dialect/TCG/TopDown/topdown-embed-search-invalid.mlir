// RUN: raf-opt %s -split-input-file --tcg-topdown-embed=search=true -verify-diagnostics

// What --tcg-topdown-embed=search=true refuses: a kernel the search finds
// no solution for (min has no Tab. 3.1 instruction); the kernel is kept.
func.func @minimum(%ain: tensor<16xf32>, %bin: tensor<16xf32>) -> tensor<16xf32> {
  // expected-error @+1 {{--tcg-topdown-embed: the search (config 4) found 0 solution(s), none of which the typed attribute can hold}}
  %r = tcg.kernel "minimum" (%a = %ain : tensor<16xf32>, %b = %bin : tensor<16xf32>) -> tensor<16xf32> {
    %0 = tcg.tensor %i in [0, 16) -> tensor<16xf32> {
      %x = tcg.input %a[%i] : tensor<16xf32>
      %y = tcg.input %b[%i] : tensor<16xf32>
      %m = tcg.compute min %x, %y : (f32, f32) -> f32
      tcg.yield %m : f32
    }
    tcg.yield %0 : tensor<16xf32>
  }
  return %r : tensor<16xf32>
}

// -----

// An int8 product: the float Tab. 3.1 instructions do not match it (element
// types are checked), so there is no solution either.
func.func @int8(%ain: tensor<16xi8>, %bin: tensor<16xi8>) -> tensor<16xi32> {
  // expected-error @+1 {{--tcg-topdown-embed: the search (config 4) found 0 solution(s), none of which the typed attribute can hold}}
  %r = tcg.kernel "int8" (%a = %ain : tensor<16xi8>, %b = %bin : tensor<16xi8>) -> tensor<16xi32> {
    %0 = tcg.tensor %i in [0, 16) -> tensor<16xi32> {
      %x = tcg.input %a[%i] : tensor<16xi8>
      %y = tcg.input %b[%i] : tensor<16xi8>
      %m = tcg.compute mul %x, %y : (i8, i8) -> i32
      tcg.yield %m : i32
    }
    tcg.yield %0 : tensor<16xi32>
  }
  return %r : tensor<16xi32>
}
