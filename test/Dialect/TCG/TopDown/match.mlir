// RUN: raf-opt %s --tcg-topdown-match="print-paths=true ignore-element-types=true" -o /dev/null | FileCheck %s
// RUN: raf-opt %s --tcg-topdown-transform=kind=compute-fission --tcg-topdown-match=ignore-element-types=true -o /dev/null | FileCheck %s --check-prefix=FISSION
// RUN: not raf-opt %s --tcg-topdown-match=intrinsics=vv.add.16,vta.gemm.2x2x2 -o /dev/null 2>&1 | FileCheck %s --check-prefix=UNKNOWN
// RUN: raf-opt %s --tcg-topdown-match="config=1 ignore-element-types=true" -o /dev/null | FileCheck %s --check-prefix=CONFIG1
// RUN: raf-opt %s --tcg-topdown-match="config=2 ignore-element-types=true" -o /dev/null | FileCheck %s --check-prefix=CONFIG2
// RUN: not raf-opt %s --tcg-topdown-match=config=3 -o /dev/null 2>&1 | FileCheck %s --check-prefix=CONFIG3
// RUN: raf-opt %s --tcg-topdown-match="max-maskings=1 ignore-element-types=true" -o /dev/null 2>&1 >/dev/null | FileCheck %s --check-prefix=LIMIT
// LIMIT: warning: stopped after 1 maskings; matches under the others are missing

// Configurations of Tab. 3.4 (on a copy of each kernel): 1 (swap to the
// canonical form, masking) solves GEMM only; 2 (and full fission) also
// solves a * b + c and softmax. a[i] + b[i, i] has no solution in either.
// CONFIG1:      topdown gemm: 11 nodes
// CONFIG1:        selection: {{.*}}: solution
// CONFIG1:      topdown fma:
// CONFIG1:        selection: {{.*}}: no solution
// CONFIG1:      topdown diag:
// CONFIG1:        selection: {{.*}}: no solution
// CONFIG1:      topdown softmax:
// CONFIG1:        selection: {{.*}}: no solution
// CONFIG2:      topdown gemm: 18 nodes, 2 algebraic, 2 candidates
// CONFIG2:        selection: covers 10 of 18 nodes, algebraic 2 of 2: solution
// CONFIG2:      topdown fma: 13 nodes, 2 algebraic, 2 candidates
// CONFIG2:        selection: covers 12 of 13 nodes, algebraic 2 of 2: solution
// CONFIG2:      topdown diag:
// CONFIG2:        selection: {{.*}}: no solution
// CONFIG2:      topdown softmax: 33 nodes, 5 algebraic, 5 candidates
// CONFIG2:        selection: covers 22 of 33 nodes, algebraic 5 of 5: solution
// CONFIG3: error: --tcg-topdown-match: configuration 3 of Tab. 3.4 enumerates fusion and inlining combinations (Alg. 3), many graphs: use --tcg-topdown-search=config=3 (this pass takes 0, 1 or 2)

// Top-down matching and selection (Rieber 2022, §3.2) on small trees: the
// label strings (§3.2.1), full matches with masked outer dimensions, partial
// matches that fail condition (1) or (2) (§3.2.2), and the selection of
// Alg. 1 with its coverage (Eq. 3.4).

// GEMM has 11 nodes (Tab. 3.3): the kernel, two tensors, the reduction,
// the product, two inputs and four access leaves. Iterators are parent-move
// distances (a[m, k]: m is 4 moves up, k 2).
// CHECK-LABEL: topdown gemm: 11 nodes, 2 algebraic, 6 candidates
// CHECK-NEXT:    path T r T r R.add r C.mul 0 I d1 a:d4
// CHECK-NEXT:    path T r T r R.add r C.mul 0 I d0 a:d2
// CHECK-NEXT:    path T r T r R.add r C.mul 1 I d1 a:d3
// CHECK-NEXT:    path T r T r R.add r C.mul 1 I d0 a:d2
// VTA's GEMM cores match the whole computation; the matrix-vector products
// match at n with a's outer dimension (m, a loop around them) masked; the
// dot products at n also mask b's n, which the dot's one-element x covers.
// CHECK-NEXT:    candidate vta.gemm.1x16x16 at tensor "m" (node 1); covers 10
// CHECK-NEXT:    candidate vta.gemm.8x8x8 at tensor "m" (node 1); covers 10
// CHECK-NEXT:    candidate gemv.16x16 at tensor "n" (node 2), masked a: 1; covers 8
// CHECK-NEXT:    candidate mv.mul.add.16x16 at tensor "n" (node 2), masked a: 1; covers 8
// CHECK-NEXT:    candidate dot.16 at tensor "n" (node 2), masked a: 1, b: 1; covers 7
// CHECK-NEXT:    candidate dot.mul.add.16 at tensor "n" (node 2), masked a: 1, b: 1; covers 7
// CHECK-NEXT:    selection: covers 10 of 11 nodes, algebraic 2 of 2: solution
// CHECK-NEXT:      vta.gemm.1x16x16 at tensor "m" (node 1)
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

// a * b + c: vv.add.16's path through its second operand matches at i, the
// one through the first does not (the product is in the way), so condition
// (1) fails and nothing covers the kernel. After compute fission of the
// product (FISSION), vv.mul.16 and vv.add.16 cover it.
// CHECK-LABEL: topdown fma: 10 nodes, 2 algebraic, 0 candidates
// CHECK:         selection: covers 0 of 10 nodes, algebraic 0 of 2: no solution
// FISSION-LABEL: topdown fma:
// FISSION:         selection: covers {{[0-9]+}} of {{[0-9]+}} nodes, algebraic 2 of 2: solution
// FISSION-NEXT:      vv.mul.16 at tensor "i"
// FISSION-NEXT:      vv.add.16 at tensor "i"
func.func @fma(%ain: tensor<16xf32>, %bin: tensor<16xf32>, %cin: tensor<16xf32>) -> tensor<16xf32> {
  %r = tcg.kernel "fma" (%a = %ain : tensor<16xf32>, %b = %bin : tensor<16xf32>, %c = %cin : tensor<16xf32>) -> tensor<16xf32> attributes {arg_names = ["a", "b", "c"]} {
    %0 = tcg.tensor %i in [0, 16) name "i" -> tensor<16xf32> {
      %x = tcg.input %a[%i] : tensor<16xf32>
      %y = tcg.input %b[%i] : tensor<16xf32>
      %p = tcg.compute mul %x, %y {topdown.target} : (f32, f32) -> f32
      %z = tcg.input %c[%i] : tensor<16xf32>
      %s = tcg.compute add %p, %z : (f32, f32) -> f32
      tcg.yield %s : f32
    }
    tcg.yield %0 : tensor<16xf32>
  }
  return %r : tensor<16xf32>
}

// a[i] + b[i, i]: every path of vv.add.16 matches at i, but b's outer leaf
// does not, so condition (2) fails; masking it is invalid because it uses
// i, which the intrinsic's x (extent 16) covers.
// CHECK-LABEL: topdown diag: 8 nodes, 1 algebraic, 0 candidates
// CHECK:         selection: covers 0 of 8 nodes, algebraic 0 of 1: no solution
func.func @diag(%ain: tensor<16xf32>, %bin: tensor<16x16xf32>) -> tensor<16xf32> {
  %r = tcg.kernel "diag" (%a = %ain : tensor<16xf32>, %b = %bin : tensor<16x16xf32>) -> tensor<16xf32> attributes {arg_names = ["a", "b"]} {
    %0 = tcg.tensor %i in [0, 16) name "i" -> tensor<16xf32> {
      %x = tcg.input %a[%i] : tensor<16xf32>
      %y = tcg.input %b[%i, %i] : tensor<16x16xf32>
      %s = tcg.compute add %x, %y : (f32, f32) -> f32
      tcg.yield %s : f32
    }
    tcg.yield %0 : tensor<16xf32>
  }
  return %r : tensor<16xf32>
}

// Softmax as four computations. The row maximum and sum match the
// reductions (x's row i masked: the reduction's one-element x covers it),
// the quotient a vector-scalar division with s[i] fully masked (a scalar
// per row); exp(x - m) matches nothing until the difference is split off
// (FISSION), which then is a vector-scalar subtraction and the rest
// vv.exp.16: a solution.
// CHECK-LABEL: topdown softmax: 28 nodes, 5 algebraic, 3 candidates
// CHECK-NEXT:    path T r R.max r I d1 a:d2
// CHECK:         candidate red.max.16 at tensor "i" (node 1), masked x: 1; covers 4
// CHECK-NEXT:    candidate red.add.16 at tensor "i" (node 15), masked input node 17: 1; covers 4
// CHECK-NEXT:    candidate vs.div.16 at tensor "j" (node 21), masked input node 23: 1, input node 26: 1; covers 5
// CHECK-NEXT:    selection: covers 13 of 28 nodes, algebraic 3 of 5: no solution
// FISSION-LABEL: topdown softmax:
// FISSION:         selection: covers {{[0-9]+}} of {{[0-9]+}} nodes, algebraic 5 of 5: solution
// FISSION-NEXT:      red.max.16 at tensor "i"
// FISSION-NEXT:      vs.sub.16 at tensor "j"
// FISSION-NEXT:      vv.exp.16 at tensor "j"
// FISSION-NEXT:      red.add.16 at tensor "i"
// FISSION-NEXT:      vs.div.16 at tensor "j"
func.func @softmax(%xin: tensor<2x8xf32>) -> tensor<2x8xf32> {
  %r = tcg.kernel "softmax" (%x = %xin : tensor<2x8xf32>) -> tensor<2x8xf32> attributes {arg_names = ["x"]} {
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
        %d = tcg.compute sub %v, %w {topdown.target} : (f32, f32) -> f32
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

// UNKNOWN: error: unknown intrinsic 'vta.gemm.2x2x2'; known intrinsics:
