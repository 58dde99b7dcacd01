// The intrinsic library: its source parses and verifies, --tcg-print-intrinsics
// prints it as valid input (checked by parsing the output again), and an
// unknown name is an error listing the known ones.
//
// RUN: raf-opt %raf_src_root/lib/Dialect/TCG/Intrinsics/IntrinsicLibrary.mlir --tcg-print-tensor-exprs -o /dev/null | FileCheck %s --check-prefix=EXPR
// RUN: raf-opt %s --tcg-print-intrinsics -o /dev/null | FileCheck %s
// RUN: raf-opt %s --tcg-print-intrinsics -o /dev/null | raf-opt --tcg-print-tensor-exprs -o /dev/null | FileCheck %s --check-prefix=EXPR
// RUN: raf-opt %s --tcg-print-intrinsics="names=dot.16,gemv.16x16" -o /dev/null | FileCheck %s --check-prefix=SELECTED
// RUN: not raf-opt %s --tcg-print-intrinsics="names=gemv.16x16,vta.gemm.2x2x2" -o /dev/null 2>&1 | FileCheck %s --check-prefix=UNKNOWN

// CHECK:      // The intrinsic library (raf::tcg::lookupIntrinsic).
// CHECK:      // vta.gemm.1x16x16: c[x, y] = add_{z} (a[x, z] * b[y, z])
// CHECK-NEXT: //   x: [0, 1) gemm x
// CHECK-NEXT: //   y: [0, 16) gemm y
// CHECK-NEXT: //   z: [0, 16) reduction gemm z
// CHECK-NEXT: //   a: tensor<1x16xi8>
// CHECK-NEXT: //   b: tensor<16x16xi8>
// CHECK-NEXT: //   c: tensor<1x16xi32>
// CHECK-NEXT: func.func @vta.gemm.1x16x16(
// CHECK:        tcg.kernel "vta.gemm.1x16x16"
// CHECK:      // vta.gemm.8x8x8: c[x, y] = add_{z} (a[x, z] * b[y, z])
// CHECK:        tcg.kernel "vta.gemm.8x8x8"
// CHECK:      // gemv.16x16: c[y] = add_{z} (a[z] * b[y, z])
// CHECK:        tcg.kernel "gemv.16x16"
// CHECK:      // dot.16: c[x] = add_{z} (a[z] * b[z])
// CHECK:        tcg.kernel "dot.16"

// EXPR:      vta.gemm.1x16x16: c[x, y] = add_{z} (a[x, z] * b[y, z])
// EXPR-NEXT:   x: [0, 1) gemm x
// EXPR-NEXT:   y: [0, 16) gemm y
// EXPR-NEXT:   z: [0, 16) reduction gemm z
// EXPR-NEXT:   a: tensor<1x16xi8>
// EXPR-NEXT:   b: tensor<16x16xi8>
// EXPR-NEXT:   c: tensor<1x16xi32>
// EXPR-NEXT: vta.gemm.8x8x8: c[x, y] = add_{z} (a[x, z] * b[y, z])
// EXPR-NEXT:   x: [0, 8) gemm x
// EXPR-NEXT:   y: [0, 8) gemm y
// EXPR-NEXT:   z: [0, 8) reduction gemm z
// EXPR-NEXT:   a: tensor<8x8xi8>
// EXPR-NEXT:   b: tensor<8x8xi8>
// EXPR-NEXT:   c: tensor<8x8xi32>
// EXPR-NEXT: gemv.16x16: c[y] = add_{z} (a[z] * b[y, z])
// EXPR-NEXT:   y: [0, 16) gemm y
// EXPR-NEXT:   z: [0, 16) reduction gemm z
// EXPR-NEXT:   a: tensor<16xi8>
// EXPR-NEXT:   b: tensor<16x16xi8>
// EXPR-NEXT:   c: tensor<16xi32>
// EXPR-NEXT: dot.16: c[x] = add_{z} (a[z] * b[z])
// EXPR-NEXT:   x: [0, 1) gemm x
// EXPR-NEXT:   z: [0, 16) reduction gemm z
// EXPR-NEXT:   a: tensor<16xi8>
// EXPR-NEXT:   b: tensor<16xi8>
// EXPR-NEXT:   c: tensor<1xi32>
// EXPR-NEXT: vs.add.16: c[x] = v[x] + s[0]
// The rest of Tab. 3.1 is checked in TopDown/intrinsics-tab31.mlir.

// SELECTED-NOT: vta.gemm
// SELECTED:     // dot.16:
// SELECTED:     func.func @dot.16(
// SELECTED:     // gemv.16x16:
// SELECTED:     func.func @gemv.16x16(
// SELECTED-NOT: vta.gemm

// UNKNOWN: error: unknown intrinsic 'vta.gemm.2x2x2'; known intrinsics: vta.gemm.1x16x16, vta.gemm.8x8x8, gemv.16x16, dot.16, vs.add.16, {{.*}}, mv.exp.max.16x16{{$}}
// UNKNOWN-NOT: func.func
