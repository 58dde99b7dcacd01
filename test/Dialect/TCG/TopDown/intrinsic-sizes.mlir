// Multi-interval and variable-size intrinsics (Rieber 2022, §3.1.2) in a
// user's intrinsic library (Inputs/sized-intrinsics.mlir): `multi.add`
// exists in sizes 4, 8 and 16 (topdown.sizes), `var.sum` sums 2 to 32
// elements (topdown.size_range). The matcher ignores sizes (§3.3.2); the
// embedding takes the size that pads least, the larger one on a tie, and
// the strategy derivation instantiates the intrinsic at that size.
// RUN: raf-opt %s --tcg-topdown-embed="intrinsics-file=%S/Inputs/sized-intrinsics.mlir intrinsics=multi.add,var.sum" -o %t.emb.mlir
// RUN: FileCheck %s --input-file=%t.emb.mlir
// RUN: raf-opt %t.emb.mlir --tcg-print-embeddings="intrinsics=%S/Inputs/sized-intrinsics.mlir" -o /dev/null | FileCheck %s --check-prefix=REPORT
// RUN: raf-opt %t.emb.mlir --tcg-apply-strategy="intrinsics=%S/Inputs/sized-intrinsics.mlir" -o %t.applied.mlir
// RUN: FileCheck %s --check-prefix=PACKED --input-file=%t.applied.mlir
// RUN: %python %S/Inputs/oracle.py input %t.a.npy 4x6
// RUN: %python %S/Inputs/oracle.py input %t.b.npy 6x4
// RUN: %python %S/Inputs/oracle.py input %t.c.npy 4x20
// RUN: %python %S/Inputs/oracle.py input %t.d.npy 4x40
// RUN: %python -c "import numpy as np; np.save('%t.bt.npy', np.load('%t.b.npy').reshape(4, 6))"
// RUN: raf-run %t.applied.mlir --entry=add --input=%t.a.npy --input=%t.bt.npy --output=%t.add.npy
// RUN: %python %S/Inputs/oracle.py check add %t.a.npy %t.bt.npy %t.add.npy | FileCheck %s --check-prefix=OK-ADD
// RUN: raf-run %t.applied.mlir --entry=rowsum --input=%t.c.npy --output=%t.rowsum.npy
// RUN: %python %S/Inputs/oracle.py check rowsum %t.c.npy %t.rowsum.npy | FileCheck %s --check-prefix=OK-SUM
// RUN: raf-run %t.applied.mlir --entry=rowsum40 --input=%t.d.npy --output=%t.rowsum40.npy
// RUN: %python %S/Inputs/oracle.py check rowsum %t.d.npy %t.rowsum40.npy | FileCheck %s --check-prefix=OK-SUM

// Refusals: malformed size attributes are errors at the intrinsic.
// RUN: not raf-opt %s --tcg-topdown-embed="intrinsics-file=%S/Inputs/sized-intrinsics-invalid.mlir intrinsics=bad.order" -o /dev/null 2>&1 | FileCheck %s --check-prefix=ORDER
// RUN: not raf-opt %s --tcg-topdown-embed="intrinsics-file=%S/Inputs/sized-intrinsics-invalid.mlir intrinsics=bad.written" -o /dev/null 2>&1 | FileCheck %s --check-prefix=WRITTEN
// RUN: not raf-opt %s --tcg-topdown-search="intrinsics-file=%S/Inputs/sized-intrinsics-invalid.mlir intrinsics=bad.both" -o /dev/null 2>&1 | FileCheck %s --check-prefix=BOTH
// RUN: not raf-opt %s --tcg-topdown-match="intrinsics-file=%S/Inputs/sized-intrinsics-invalid.mlir intrinsics=bad.range" -o /dev/null 2>&1 | FileCheck %s --check-prefix=RANGE
// RUN: not raf-opt %s --tcg-topdown-embed="intrinsics-file=%S/Inputs/sized-intrinsics-invalid.mlir intrinsics=bad.type" -o /dev/null 2>&1 | FileCheck %s --check-prefix=TYPE
// A candidate at a size the intrinsic does not exist in is refused.
// RUN: sed 's/iterators = \[\[(1, 8, 1)\]\], operands = \[\[\[(1, 8, 1)\]\], \[\[(1, 8, 1)\]\], \[\[(1, 8, 1)\]\]\]/iterators = [[(1, 6, 1)]], operands = [[[(1, 6, 1)]], [[(1, 6, 1)]], [[(1, 6, 1)]]]/' %t.emb.mlir > %t.six.mlir
// RUN: not raf-opt %t.six.mlir --tcg-apply-strategy="intrinsics=%S/Inputs/sized-intrinsics.mlir" -o /dev/null 2>&1 | FileCheck %s --check-prefix=SIX

// n has 6 points: sizes 4 and 8 both execute 8, so 8 (one instruction).
// CHECK-LABEL: func.func @add
// CHECK: #tcg.embedding<"multi.add", topdown, {{.*}}iterators = {{\[\[\(1, 8, 1\)\]\]}}{{.*}}executed = [4, 8]
// k has 20 points, within [2, 32]: one sum of 20.
// CHECK-LABEL: func.func @rowsum
// CHECK: #tcg.embedding<"var.sum", topdown, {{.*}}iterators = {{\[\[\(0, 1, 1\)\], \[\(1, 20, 1\)\]\]}}{{.*}}executed = [4, 20]
// k has 40 points, above 32: two sums of 20 (no padding).
// CHECK-LABEL: func.func @rowsum40
// CHECK: #tcg.embedding<"var.sum", topdown, {{.*}}iterators = {{\[\[\(0, 1, 1\)\], \[\(1, 20, 1\)\]\]}}{{.*}}executed = [4, 40]

// REPORT:      embedding of multi.add (topdown) into add
// REPORT-NEXT:   x: n 8
// REPORT:        padding: n 6 -> 8
// REPORT:        strategy: a: pad n 6->8, split n -> [1, 8]
// REPORT:      embedding of var.sum (topdown) into rowsum
// REPORT-NEXT:   x: m 1
// REPORT-NEXT:   z: k 20
// REPORT:        padding: none
// REPORT:      embedding of var.sum (topdown) into rowsum40
// REPORT:        z: k 20
// REPORT:        padding: none

// PACKED-LABEL: func.func @add
// PACKED:         tcg.tensor %x in [0, 8) name "x"
// PACKED-LABEL: func.func @rowsum
// PACKED:         tcg.reduce add %z in [0, 20) name "z"
// PACKED-LABEL: func.func @rowsum40
// PACKED:         tcg.reduce add %k.o in [0, 2) name "k.o"
// PACKED:         tcg.reduce add %z in [0, 20) name "z"

// OK-ADD: add: ok
// OK-SUM: rowsum: ok

// ORDER: sized-intrinsics-invalid.mlir:6:10: error: 'topdown.sizes' must list positive sizes in ascending order
// WRITTEN: sized-intrinsics-invalid.mlir:18:10: error: the written extent 16 is not one of the iterator's sizes
// BOTH: sized-intrinsics-invalid.mlir:30:10: error: an intrinsic iterator has either 'topdown.sizes' (several sizes) or 'topdown.size_range' (a variable size)
// RANGE: sized-intrinsics-invalid.mlir:42:10: error: 'topdown.size_range' must be [lower, upper] with 1 <= lower <= upper
// TYPE: sized-intrinsics-invalid.mlir:54:10: error: 'topdown.sizes' must be an array<i64: ...>
// SIX: error: candidate 0 of the embedding of 'multi.add' does not fit the kernel: 'multi.add' has no instance with x of size 6

func.func @add(%x: tensor<4x6xf32>, %y: tensor<4x6xf32>) -> tensor<4x6xf32> {
  %r = tcg.kernel "add" (%a = %x : tensor<4x6xf32>, %b = %y : tensor<4x6xf32>) -> tensor<4x6xf32> attributes {arg_names = ["a", "b"]} {
    %0 = tcg.tensor %m in [0, 4) name "m" -> tensor<4x6xf32> {
      %1 = tcg.tensor %n in [0, 6) name "n" -> tensor<6xf32> {
        %va = tcg.input %a[%m, %n] : tensor<4x6xf32>
        %vb = tcg.input %b[%m, %n] : tensor<4x6xf32>
        %s = tcg.compute add %va, %vb : (f32, f32) -> f32
        tcg.yield %s : f32
      }
      tcg.yield %1 : tensor<6xf32>
    }
    tcg.yield %0 : tensor<4x6xf32>
  }
  return %r : tensor<4x6xf32>
}

func.func @rowsum(%x: tensor<4x20xf32>) -> tensor<4xf32> {
  %r = tcg.kernel "rowsum" (%a = %x : tensor<4x20xf32>) -> tensor<4xf32> attributes {arg_names = ["a"]} {
    %0 = tcg.tensor %m in [0, 4) name "m" -> tensor<4xf32> {
      %1 = tcg.reduce add %k in [0, 20) name "k" -> f32 {
        %va = tcg.input %a[%m, %k] : tensor<4x20xf32>
        tcg.yield %va : f32
      }
      tcg.yield %1 : f32
    }
    tcg.yield %0 : tensor<4xf32>
  }
  return %r : tensor<4xf32>
}

func.func @rowsum40(%x: tensor<4x40xf32>) -> tensor<4xf32> {
  %r = tcg.kernel "rowsum40" (%a = %x : tensor<4x40xf32>) -> tensor<4xf32> attributes {arg_names = ["a"]} {
    %0 = tcg.tensor %m in [0, 4) name "m" -> tensor<4xf32> {
      %1 = tcg.reduce add %k in [0, 40) name "k" -> f32 {
        %va = tcg.input %a[%m, %k] : tensor<4x40xf32>
        tcg.yield %va : f32
      }
      tcg.yield %1 : f32
    }
    tcg.yield %0 : tensor<4xf32>
  }
  return %r : tensor<4xf32>
}
