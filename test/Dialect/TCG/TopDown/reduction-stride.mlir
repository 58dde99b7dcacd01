// Reduction strides (Rieber 2022, §3.1.1, Fig. 3.2's reduction.stride): an
// intrinsic's tcg.reduce with `topdown.stride = s` steps its iterator by s
// (Inputs/strided-intrinsics.mlir: red.add.s2 sums every second element).
// In the label tree the iterator counts steps, so red.add.s2's read a[z] is
// the leaf `a:d1 * 2`, the leaf of an operator's strided sum a[m, 2 * k]:
// the strided intrinsic matches the strided sum and not the unit-stride one,
// and the unit-stride red.add.16 the other way round.
// RUN: raf-opt %s --tcg-topdown-match="intrinsics-file=%S/Inputs/strided-intrinsics.mlir intrinsics=red.add.s2,red.add.16" -o /dev/null | FileCheck %s --check-prefix=MATCH
// The embedding maps the step z onto k (16 points, stride 1 in iterator
// space; the operand's reads 2 apart), and the strategy derivation packs
// the strided sum for the intrinsic instantiated as c = sum_z a[2 z]; the
// unit-stride sum gets red.add.16. Both packed kernels run on raf-run and
// match NumPy.
// RUN: raf-opt %s --tcg-topdown-embed="intrinsics-file=%S/Inputs/strided-intrinsics.mlir intrinsics=red.add.s2,red.add.16" -o %t.emb.mlir
// RUN: FileCheck %s --input-file=%t.emb.mlir
// RUN: raf-opt %t.emb.mlir --tcg-print-embeddings="intrinsics=%S/Inputs/strided-intrinsics.mlir" -o /dev/null | FileCheck %s --check-prefix=REPORT
// RUN: raf-opt %t.emb.mlir --tcg-apply-strategy="intrinsics=%S/Inputs/strided-intrinsics.mlir" -o %t.applied.mlir
// RUN: FileCheck %s --check-prefix=PACKED --input-file=%t.applied.mlir
// RUN: %python %S/Inputs/oracle.py input %t.a.npy 4x32
// RUN: raf-run %t.applied.mlir --entry=even_sum --input=%t.a.npy --output=%t.even.npy
// RUN: %python %S/Inputs/oracle.py check evensum %t.a.npy %t.even.npy | FileCheck %s --check-prefix=OK-EVEN
// RUN: raf-run %t.applied.mlir --entry=unit_sum --input=%t.a.npy --output=%t.unit.npy
// RUN: %python %S/Inputs/oracle.py check rowsum %t.a.npy %t.unit.npy | FileCheck %s --check-prefix=OK-UNIT
// Refusals: a stride on an operator's reduction (operators write a scaled
// access), a stride below 1 and a stride on a tensor dimension.
// RUN: not raf-opt %S/Inputs/strided-intrinsics.mlir --tcg-topdown-match -o /dev/null 2>&1 | FileCheck %s --check-prefix=OPERATOR
// RUN: not raf-opt %s --tcg-topdown-match="intrinsics-file=%S/Inputs/strided-intrinsics-invalid.mlir intrinsics=bad.zero" -o /dev/null 2>&1 | FileCheck %s --check-prefix=ZERO
// RUN: not raf-opt %s --tcg-topdown-search="intrinsics-file=%S/Inputs/strided-intrinsics-invalid.mlir intrinsics=bad.tensor" -o /dev/null 2>&1 | FileCheck %s --check-prefix=TENSOR
// A stride of a signed or unsigned type (the stride is a signless integer),
// and a strided iterator inside an index expression, which matches but has
// no strided operand layout (the embedding pass refuses the candidate).
// RUN: not raf-opt %s --tcg-topdown-match="intrinsics-file=%S/Inputs/strided-intrinsics-invalid.mlir intrinsics=bad.si64" -o /dev/null 2>&1 | FileCheck %s --check-prefix=SIGNED
// RUN: not raf-opt %s --tcg-topdown-match="intrinsics-file=%S/Inputs/strided-intrinsics-invalid.mlir intrinsics=bad.ui64" -o /dev/null 2>&1 | FileCheck %s --check-prefix=UNSIGNED
// RUN: raf-opt %S/Inputs/strided-odd-sum.mlir --tcg-topdown-match="intrinsics-file=%S/Inputs/strided-intrinsics-invalid.mlir intrinsics=bad.expr" -o /dev/null | FileCheck %s --check-prefix=EXPR-MATCH
// RUN: not raf-opt %S/Inputs/strided-odd-sum.mlir --tcg-topdown-embed="intrinsics-file=%S/Inputs/strided-intrinsics-invalid.mlir intrinsics=bad.expr" -o /dev/null 2>&1 | FileCheck %s --check-prefix=EXPR
// A stride with sizes (multi-interval, in points): the 4-point instance of
// red.add.s2.sized for a 4-point strided sum, on raf-run vs NumPy.
// RUN: raf-opt %S/Inputs/strided-sum4.mlir --tcg-topdown-embed="intrinsics-file=%S/Inputs/strided-intrinsics.mlir intrinsics=red.add.s2.sized" -o %t.sized.mlir
// RUN: raf-opt %t.sized.mlir --tcg-print-embeddings="intrinsics=%S/Inputs/strided-intrinsics.mlir" -o /dev/null | FileCheck %s --check-prefix=SIZED
// RUN: raf-opt %t.sized.mlir --tcg-apply-strategy="intrinsics=%S/Inputs/strided-intrinsics.mlir" -o %t.sized.applied.mlir
// RUN: raf-run %t.sized.applied.mlir --entry=even_sum4 --input=%t.a.npy --output=%t.even4.npy
// RUN: %python %S/Inputs/oracle.py check evensum4 %t.a.npy %t.even4.npy | FileCheck %s --check-prefix=OK-EVEN4
// The dataflow embedding reads an intrinsic as its loop nest, which does not
// show the stride: refused.
// RUN: not raf-opt %s --tcg-dataflow-embed="intrinsic=red.add.s2 intrinsics=%S/Inputs/strided-intrinsics.mlir" -o /dev/null 2>&1 | FileCheck %s --check-prefix=DATAFLOW
// The search (configuration 4) finds the same: red.add.s2 for the strided
// sum, red.add.16 for the other.
// RUN: raf-opt %s --tcg-topdown-search="intrinsics-file=%S/Inputs/strided-intrinsics.mlir intrinsics=red.add.s2,red.add.16" -o /dev/null | FileCheck %s --check-prefix=SEARCH

// MATCH-LABEL: topdown even_sum: 6 nodes, 1 algebraic, 1 candidates
// MATCH-NEXT:    candidate red.add.s2 at tensor "m" (node 1), masked a: 1; covers 4
// MATCH-NEXT:    selection: covers 4 of 6 nodes, algebraic 1 of 1: solution
// MATCH-LABEL: topdown unit_sum: 6 nodes, 1 algebraic, 1 candidates
// MATCH-NEXT:    candidate red.add.16 at tensor "m" (node 1), masked a: 1; covers 4
// MATCH-NEXT:    selection: covers 4 of 6 nodes, algebraic 1 of 1: solution

// CHECK-LABEL: func.func @even_sum
// CHECK: #tcg.embedding<"red.add.s2", topdown, {{.*}}iterators = {{\[\[\(0, 1, 1\)\], \[\(1, 16, 1\)\]\]}}, operands = {{\[\[\[\(1, 16, 2\)\]\]}}
// CHECK-LABEL: func.func @unit_sum
// CHECK: #tcg.embedding<"red.add.16", topdown

// REPORT:      embedding of red.add.s2 (topdown) into even_sum
// REPORT-NEXT:   x: m 1
// REPORT-NEXT:   z: k 16

// PACKED-LABEL: func.func @even_sum
// PACKED: tcg.tensorize = #tcg.tensorize<"red.add.s2">
// PACKED-LABEL: func.func @unit_sum
// PACKED: tcg.tensorize = #tcg.tensorize<"red.add.16">

// OK-EVEN: evensum: ok
// OK-UNIT: rowsum: ok

// OPERATOR: error: 'tcg.reduce' op has a reduction stride ('topdown.stride'), which only intrinsics take; an operator writes a strided reduction as a scaled access, e.g. a[2 * k]
// DATAFLOW: error: intrinsic 'red.add.s2' has a reduction stride ('topdown.stride'), which only the top-down passes read
// SEARCH-LABEL: topdown-search even_sum:
// SEARCH-NEXT:    best: {{.*}}: red.add.s2
// SEARCH-LABEL: topdown-search unit_sum:
// SEARCH-NEXT:    best: {{.*}}: red.add.16
// ZERO: error: 'topdown.stride' must be a signless integer >= 1, e.g. 2 : i64
// SIGNED: strided-intrinsics-invalid.mlir:39:12: error: 'topdown.stride' must be a signless integer >= 1, e.g. 2 : i64
// UNSIGNED: strided-intrinsics-invalid.mlir:54:12: error: 'topdown.stride' must be a signless integer >= 1, e.g. 2 : i64
// EXPR-MATCH: candidate bad.expr at tensor "m"
// EXPR: strided-odd-sum.mlir:3:8: error: --tcg-topdown-embed: the typed attribute cannot hold any instruction that covers the kernel
// EXPR: strided-odd-sum.mlir:3:8: note: bad.expr: 'bad.expr' reads operand 'a' at an expression of its strided reduction z; a strided iterator must index a dimension by itself
// SIZED:      embedding of red.add.s2.sized (topdown) into even_sum4
// SIZED-NEXT:   x: m 1
// SIZED-NEXT:   z: k 4
// SIZED-NEXT:   a -> a: [d1 4 (stride 2)]
// SIZED:        padding: none
// OK-EVEN4: evensum4: ok
// TENSOR: error: 'topdown.stride' belongs to a tcg.reduce (a reduction stride, Rieber 2022, §3.1.1)

// o[m] = sum_k a[m, 2 k]: a reduction stepping with stride 2.
func.func @even_sum(%a_in: tensor<4x32xf32>) -> tensor<4xf32> {
  %r = tcg.kernel "even_sum" (%a = %a_in : tensor<4x32xf32>) -> tensor<4xf32> attributes {arg_names = ["a"]} {
    %0 = tcg.tensor %m in [0, 4) name "m" -> tensor<4xf32> {
      %1 = tcg.reduce add %k in [0, 16) name "k" -> f32 {
        %v = tcg.input %a[%m, %k * 2] : tensor<4x32xf32>
        tcg.yield %v : f32
      }
      tcg.yield %1 : f32
    }
    tcg.yield %0 : tensor<4xf32>
  }
  return %r : tensor<4xf32>
}

// o[m] = sum_k a[m, k]: unit stride.
func.func @unit_sum(%a_in: tensor<4x32xf32>) -> tensor<4xf32> {
  %r = tcg.kernel "unit_sum" (%a = %a_in : tensor<4x32xf32>) -> tensor<4xf32> attributes {arg_names = ["a"]} {
    %0 = tcg.tensor %m in [0, 4) name "m" -> tensor<4xf32> {
      %1 = tcg.reduce add %k in [0, 32) name "k" -> f32 {
        %v = tcg.input %a[%m, %k] : tensor<4x32xf32>
        tcg.yield %v : f32
      }
      tcg.yield %1 : f32
    }
    tcg.yield %0 : tensor<4xf32>
  }
  return %r : tensor<4xf32>
}
