// Every transformation preserves the operator's values: each Inputs/run-*.mlir
// kernel is transformed, run on the CPU and compared with NumPy.
// RUN: %python %S/Inputs/oracle.py input %t.x.npy
// RUN: raf-opt %S/Inputs/run-compute-fission.mlir --tcg-topdown-transform=kind=compute-fission -o %t.cf.mlir
// RUN: raf-run %t.cf.mlir --entry=main --input=%t.x.npy --output=%t.cf.npy
// RUN: %python %S/Inputs/oracle.py check sigmoid %t.x.npy %t.cf.npy | FileCheck %s --check-prefix=SIGMOID
// RUN: raf-opt %S/Inputs/run-inline.mlir --tcg-topdown-transform=kind=inline -o %t.in.mlir
// RUN: raf-run %t.in.mlir --entry=main --input=%t.x.npy --output=%t.in.npy
// RUN: %python %S/Inputs/oracle.py check softmax %t.x.npy %t.in.npy | FileCheck %s --check-prefix=SOFTMAX
// RUN: raf-opt %S/Inputs/run-output-transpose.mlir --tcg-topdown-transform=kind=output-transpose -o %t.ot.mlir
// RUN: raf-run %t.ot.mlir --entry=main --input=%t.x.npy --output=%t.ot.npy
// RUN: %python %S/Inputs/oracle.py check softmax %t.x.npy %t.ot.npy | FileCheck %s --check-prefix=SOFTMAX
// RUN: raf-opt %S/Inputs/run-input-transpose.mlir --tcg-topdown-transform=kind=input-transpose -o %t.it.mlir
// RUN: raf-run %t.it.mlir --entry=main --input=%t.x.npy --output=%t.it.npy
// RUN: %python %S/Inputs/oracle.py check gram %t.x.npy %t.it.npy | FileCheck %s --check-prefix=GRAM
// RUN: raf-opt %S/Inputs/run-reduction-fission.mlir --tcg-topdown-transform=kind=reduction-fission -o %t.rf.mlir
// RUN: raf-run %t.rf.mlir --entry=main --input=%t.x.npy --output=%t.rf.npy
// RUN: %python %S/Inputs/oracle.py check gram %t.x.npy %t.rf.npy | FileCheck %s --check-prefix=GRAM
// Fused kernels split by unfuse-all (inverse fusion) run as written:
// RUN: %python %S/Inputs/oracle.py input %t.n.npy 4x3
// RUN: %python %S/Inputs/oracle.py input %t.m.npy 3x3
// RUN: raf-opt %S/Inputs/run-unfuse.mlir --tcg-topdown-transform=kind=unfuse-all -o %t.un.mlir
// RUN: raf-run %t.un.mlir --entry=pad --input=%t.n.npy --output=%t.unpad.npy
// RUN: %python %S/Inputs/oracle.py check shiftexp %t.n.npy %t.unpad.npy | FileCheck %s --check-prefix=SHIFTEXP
// RUN: raf-run %t.un.mlir --entry=red --input=%t.n.npy --input=%t.m.npy --output=%t.unred.npy
// RUN: %python %S/Inputs/oracle.py check expmm %t.n.npy %t.m.npy %t.unred.npy | FileCheck %s --check-prefix=EXPMM
// RUN: raf-opt %S/Inputs/run-inline.mlir --tcg-topdown-transform=kind=full-fission -o %t.ff.mlir
// RUN: raf-run %t.ff.mlir --entry=main --input=%t.x.npy --output=%t.ff.npy
// RUN: %python %S/Inputs/oracle.py check softmax %t.x.npy %t.ff.npy | FileCheck %s --check-prefix=SOFTMAX
// RUN: raf-opt %S/Inputs/run-input-transpose.mlir --tcg-topdown-transform=kind=full-fission -o %t.ffg.mlir
// RUN: raf-run %t.ffg.mlir --entry=main --input=%t.x.npy --output=%t.ffg.npy
// RUN: %python %S/Inputs/oracle.py check gram %t.x.npy %t.ffg.npy | FileCheck %s --check-prefix=GRAM
// RUN: raf-opt %S/Inputs/run-nested-reduction.mlir --tcg-topdown-transform=kind=full-fission -o %t.nr.mlir
// RUN: raf-run %t.nr.mlir --entry=main --input=%t.x.npy --output=%t.nr.npy
// RUN: %python %S/Inputs/oracle.py check squares %t.x.npy %t.nr.npy | FileCheck %s --check-prefix=SQUARES
// RUN: FileCheck %s --check-prefix=NESTED --input-file=%t.nr.mlir
// Fusion (the local row gets a marker), then inlining of the local row.
// RUN: raf-opt %S/Inputs/run-fusion.mlir --tcg-topdown-transform=kind=fusion -o %t.fu.mlir
// RUN: FileCheck %s --check-prefix=FUSED --input-file=%t.fu.mlir
// RUN: sed '/name "jt"/s/ {$/ attributes {topdown.target} {/' %t.fu.mlir | raf-opt --tcg-topdown-transform=kind=inline -o %t.fi.mlir
// RUN: raf-run %t.fi.mlir --entry=main --input=%t.x.npy --output=%t.fi.npy
// RUN: %python %S/Inputs/oracle.py check sigmoid %t.x.npy %t.fi.npy | FileCheck %s --check-prefix=SIGMOID
// The transformed kernels differ from the originals.
// RUN: FileCheck %s --check-prefix=CHANGED --input-file=%t.rf.mlir
// RUN: FileCheck %s --check-prefix=TRANSPOSED --input-file=%t.ot.mlir

// SIGMOID: sigmoid: ok
// FUSED:      tcg.tensor %i in [0, 2) name "i" -> tensor<2x8xf32> {
// FUSED-NEXT:   %[[ROW:.*]] = tcg.tensor %jt in [0, 8) name "jt" -> tensor<8xf32> {
// FUSED:        tcg.input %[[ROW]][%j] : tensor<8xf32>
// SOFTMAX: softmax: ok
// GRAM: gram: ok
// SQUARES: squares: ok
// Full fission of the nest: the squares, their sums over j, the sum over i.
// NESTED:      tcg.tensor %o in [0, 1) name "o" -> tensor<1x2x8xf32>
// NESTED:      tcg.compute mul
// NESTED:      tcg.tensor %o in [0, 1) name "o" -> tensor<1x2xf32>
// NESTED:        tcg.reduce add %j
// NESTED:      tcg.tensor %o in [0, 1) name "o" -> tensor<1xf32>
// NESTED:        tcg.reduce add %i
// CHANGED: tcg.tensor %k in [0, 8) name "k" -> tensor<8xf32>
// TRANSPOSED: tcg.tensor %j in [0, 8) name "j" -> tensor<8x2xf32>
// SHIFTEXP: shiftexp: ok
// EXPMM: expmm: ok
