// Option errors of --tcg-topdown-transform: an unknown kind is an error when
// the pass is created, with the accepted kinds (no IR is read); a module
// without a marked op is an error at the module, which is not printed.
// RUN: not raf-opt %s --tcg-topdown-transform=kind=bogus 2>&1 | FileCheck %s --check-prefix=KIND
// RUN: not raf-opt %s --tcg-topdown-transform=kind=swap 2>&1 | FileCheck %s --check-prefix=UNMARKED

// KIND: error: option 'kind' of tcg-topdown-transform: unknown value 'bogus'; expected one of swap, canonicalize, output-transpose, input-transpose, compute-fission, reduction-fission, reduction-out, inline, fusion, unfuse, unfuse-all, full-fission
// UNMARKED: error: --tcg-topdown-transform: no op is marked with
// UNMARKED-NOT: see current operation
func.func @f(%x: tensor<4xf32>) -> tensor<4xf32> {
  return %x : tensor<4xf32>
}
