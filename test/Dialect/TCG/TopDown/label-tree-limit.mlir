// A chain of squares doubles the label tree at every step (each use of a
// value is expanded): 2^20 nodes are refused, quickly and with a located
// error, instead of exhausting memory.
// RUN: %python %S/Inputs/squares.py 20 > %t.mlir
// RUN: not raf-opt %t.mlir --tcg-topdown-match -o /dev/null 2>&1 | FileCheck %s
// CHECK: error: the kernel's label tree exceeds 10000 nodes (values used several times are expanded once per use); the top-down matcher does not take kernels this large
