// The broadcast rule of the strategy derivation for an intrinsic operand
// read at a constant index: the built-in vs.add.16 reads s[0] of a
// one-element operand; the user's wide.vs.add reads s[3] of eight, so the
// operator's scalar (a row value b[m]) gets a unit dimension padded to
// eight with the value at 3. Both packed kernels run on raf-run against
// NumPy.
// RUN: raf-opt %s --tcg-topdown-embed="intrinsics=vs.add.16" -o %t.builtin.mlir
// RUN: raf-opt %t.builtin.mlir --tcg-print-embeddings -o /dev/null | FileCheck %s --check-prefix=BUILTIN
// RUN: raf-opt %t.builtin.mlir --tcg-apply-strategy -o %t.builtin.applied.mlir
// RUN: raf-opt %s --tcg-topdown-embed="intrinsics-file=%S/Inputs/wide-scalar.mlir intrinsics=wide.vs.add" -o %t.wide.mlir
// RUN: raf-opt %t.wide.mlir --tcg-print-embeddings="intrinsics=%S/Inputs/wide-scalar.mlir" -o /dev/null | FileCheck %s --check-prefix=WIDE
// RUN: raf-opt %t.wide.mlir --tcg-apply-strategy="intrinsics=%S/Inputs/wide-scalar.mlir" -o %t.wide.applied.mlir
// RUN: FileCheck %s --check-prefix=PACKED --input-file=%t.wide.applied.mlir
// RUN: %python %S/Inputs/oracle.py input %t.a.npy 4x6
// RUN: %python %S/Inputs/oracle.py input %t.b.npy 4
// RUN: raf-run %t.builtin.applied.mlir --entry=rowadd --input=%t.a.npy --input=%t.b.npy --output=%t.builtin.npy
// RUN: raf-run %t.wide.applied.mlir --entry=rowadd --input=%t.a.npy --input=%t.b.npy --output=%t.wide.npy
// RUN: %python %S/Inputs/oracle.py check rowadd %t.a.npy %t.b.npy %t.builtin.npy | FileCheck %s --check-prefix=OK
// RUN: %python %S/Inputs/oracle.py check rowadd %t.a.npy %t.b.npy %t.wide.npy | FileCheck %s --check-prefix=OK

// BUILTIN:      embedding of vs.add.16 (topdown) into rowadd
// BUILTIN:        s -> b: [-]
// BUILTIN:        strategy: b: fuse s[0] broadcast
// WIDE:         embedding of wide.vs.add (topdown) into rowadd
// WIDE:           s -> b: [-]
// WIDE:           strategy: b: fuse s[3] broadcast
// PACKED:       relay.nn.pad {{.*}}pad_width = array<i64: 0, 0, 3, 4>{{.*}} -> tensor<4x8xf32>
// PACKED:       tcg.input %b[%m, 3] : tensor<4x8xf32>
// OK: rowadd: ok

func.func @rowadd(%x: tensor<4x6xf32>, %y: tensor<4xf32>) -> tensor<4x6xf32> {
  %r = tcg.kernel "rowadd" (%a = %x : tensor<4x6xf32>, %b = %y : tensor<4xf32>) -> tensor<4x6xf32> attributes {arg_names = ["a", "b"]} {
    %0 = tcg.tensor %m in [0, 4) name "m" -> tensor<4x6xf32> {
      %1 = tcg.tensor %n in [0, 6) name "n" -> tensor<6xf32> {
        %va = tcg.input %a[%m, %n] : tensor<4x6xf32>
        %vb = tcg.input %b[%m] : tensor<4xf32>
        %s = tcg.compute add %va, %vb : (f32, f32) -> f32
        tcg.yield %s : f32
      }
      tcg.yield %1 : tensor<6xf32>
    }
    tcg.yield %0 : tensor<4x6xf32>
  }
  return %r : tensor<4x6xf32>
}
