// RUN: raf-opt %s --tcg-topdown-match=intrinsics=vta.gemm.1x16x16,mv.mul.add.16x16 -o /dev/null | FileCheck %s
// RUN: raf-opt %s --tcg-topdown-match="intrinsics=vta.gemm.1x16x16,mv.mul.add.16x16 ignore-element-types=true" -o /dev/null | FileCheck %s --check-prefix=ANY

// Element types in matching: VTA's GEMM core reads int8 and accumulates in
// int32, the Tab. 3.1 matrix-vector product computes in float32. By default
// an intrinsic matches only an operator of its own element types;
// ignore-element-types=true matches the trees alone.

// CHECK-LABEL: topdown gemm_f32: 11 nodes, 2 algebraic, 1 candidates
// CHECK-NEXT:    candidate mv.mul.add.16x16 at tensor "n" (node 2), masked a: 1; covers 8
// CHECK-NOT:     candidate
// CHECK-LABEL: topdown gemm_i8: 11 nodes, 2 algebraic, 1 candidates
// CHECK-NEXT:    candidate vta.gemm.1x16x16 at tensor "m" (node 1); covers 10
// CHECK-NOT:     candidate
// CHECK:         selection: covers 10 of 11 nodes, algebraic 2 of 2: solution

// ANY-LABEL: topdown gemm_f32: 11 nodes, 2 algebraic, 2 candidates
// ANY-LABEL: topdown gemm_i8: 11 nodes, 2 algebraic, 2 candidates

func.func @gemm_f32(%ain: tensor<4x6xf32>, %bin: tensor<5x6xf32>) -> tensor<4x5xf32> {
  %r = tcg.kernel "gemm_f32" (%a = %ain : tensor<4x6xf32>, %b = %bin : tensor<5x6xf32>) -> tensor<4x5xf32> attributes {arg_names = ["a", "b"]} {
    %0 = tcg.tensor %m in [0, 4) name "m" -> tensor<4x5xf32> {
      %1 = tcg.tensor %n in [0, 5) name "n" -> tensor<5xf32> {
        %2 = tcg.reduce add %k in [0, 6) name "k" -> f32 {
          %x = tcg.input %a[%m, %k] : tensor<4x6xf32>
          %y = tcg.input %b[%n, %k] : tensor<5x6xf32>
          %p = tcg.compute mul %x, %y : (f32, f32) -> f32
          tcg.yield %p : f32
        }
        tcg.yield %2 : f32
      }
      tcg.yield %1 : tensor<5xf32>
    }
    tcg.yield %0 : tensor<4x5xf32>
  }
  return %r : tensor<4x5xf32>
}

func.func @gemm_i8(%ain: tensor<4x6xi8>, %bin: tensor<5x6xi8>) -> tensor<4x5xi32> {
  %r = tcg.kernel "gemm_i8" (%a = %ain : tensor<4x6xi8>, %b = %bin : tensor<5x6xi8>) -> tensor<4x5xi32> attributes {arg_names = ["a", "b"]} {
    %0 = tcg.tensor %m in [0, 4) name "m" -> tensor<4x5xi32> {
      %1 = tcg.tensor %n in [0, 5) name "n" -> tensor<5xi32> {
        %2 = tcg.reduce add %k in [0, 6) name "k" -> i32 {
          %x = tcg.input %a[%m, %k] : tensor<4x6xi8>
          %y = tcg.input %b[%n, %k] : tensor<5x6xi8>
          %p = tcg.compute mul %x, %y : (i8, i8) -> i32
          tcg.yield %p : i32
        }
        tcg.yield %2 : i32
      }
      tcg.yield %1 : tensor<5xi32>
    }
    tcg.yield %0 : tensor<4x5xi32>
  }
  return %r : tensor<4x5xi32>
}
