// RUN: raf-opt %s --tcg-topdown-transform=kind=full-fission | FileCheck %s
// RUN: raf-opt %s --tcg-topdown-transform=kind=full-fission --tcg-topdown-match -o /dev/null | FileCheck %s --check-prefix=MATCH

// Full fission (Rieber 2022, Alg. 2): reduction and compute fission until
// every operation has its own computation. GEMM becomes the products
// t[m, n, k] and their sum over k (Fig. 3.11), which the vector-vector
// product and the reduction of Tab. 3.1 then cover (search configuration 2
// of Tab. 3.4 on GEMM, without the matrix-vector intrinsic).
// CHECK-LABEL: func.func @gemm
// CHECK:       %[[T:.*]] = tcg.tensor %m in [0, 4) name "m" -> tensor<4x5x6xf32> {
// CHECK-NEXT:    tcg.tensor %n in [0, 5) name "n" -> tensor<5x6xf32> {
// CHECK-NEXT:      tcg.tensor %k in [0, 6) name "k" -> tensor<6xf32> {
// CHECK-NEXT:        tcg.input %a[%m, %k] : tensor<4x6xf32>
// CHECK-NEXT:        tcg.input %b[%n, %k] : tensor<5x6xf32>
// CHECK-NEXT:        tcg.compute mul
// CHECK:       tcg.tensor %m in [0, 4) name "m" -> tensor<4x5xf32> {
// CHECK-NEXT:    tcg.tensor %n in [0, 5) name "n" -> tensor<5xf32> {
// CHECK-NEXT:      tcg.reduce add %k in [0, 6) name "k" -> f32 {
// CHECK-NEXT:        tcg.input %[[T]][%m, %n, %k] : tensor<4x5x6xf32>
// MATCH-LABEL: topdown gemm: 18 nodes, 2 algebraic
// MATCH:         candidate vv.mul.16 at tensor "k" (node 3), masked a: 1, b: 1; covers 6
// MATCH:         candidate red.add.16 at tensor "n" (node 12), masked input node 14: 2; covers 4
// MATCH:         selection: covers 10 of 18 nodes, algebraic 2 of 2: solution

// a * b + c * d splits into three computations, one per operation.
// CHECK-LABEL: func.func @two_products
// CHECK-COUNT-3: tcg.compute
// CHECK-NOT:     tcg.compute
// MATCH-LABEL: topdown two_products:
// MATCH:         selection: {{.*}}algebraic 3 of 3: solution
// MATCH-NEXT:      vv.mul.16
// MATCH-NEXT:      vv.mul.16
// MATCH-NEXT:      vv.add.16
func.func @gemm(%ain: tensor<4x6xf32>, %bin: tensor<5x6xf32>) -> tensor<4x5xf32> {
  %r = tcg.kernel "gemm" (%a = %ain : tensor<4x6xf32>, %b = %bin : tensor<5x6xf32>) -> tensor<4x5xf32> attributes {arg_names = ["a", "b"]} {
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

func.func @two_products(%ain: tensor<16xf32>, %bin: tensor<16xf32>, %cin: tensor<16xf32>, %din: tensor<16xf32>) -> tensor<16xf32> {
  %r = tcg.kernel "two_products" (%a = %ain : tensor<16xf32>, %b = %bin : tensor<16xf32>, %c = %cin : tensor<16xf32>, %d = %din : tensor<16xf32>) -> tensor<16xf32> {
    %0 = tcg.tensor %i in [0, 16) name "i" -> tensor<16xf32> {
      %w = tcg.input %a[%i] : tensor<16xf32>
      %x = tcg.input %b[%i] : tensor<16xf32>
      %p = tcg.compute mul %w, %x : (f32, f32) -> f32
      %y = tcg.input %c[%i] : tensor<16xf32>
      %z = tcg.input %d[%i] : tensor<16xf32>
      %q = tcg.compute mul %y, %z : (f32, f32) -> f32
      %s = tcg.compute add %p, %q : (f32, f32) -> f32
      tcg.yield %s : f32
    }
    tcg.yield %0 : tensor<16xf32>
  }
  return %r : tensor<16xf32>
}
