// RUN: raf-opt %s | FileCheck %s
// RUN: raf-opt %s | raf-opt | FileCheck %s

// CHECK: vta.a = #vta.schedule<tiles = [1, 2, 4], virtual_threads = 2>
// CHECK-SAME: vta.b = #vta.schedule<tiles = [], virtual_threads = 1>
module attributes {vta.a = #vta.schedule<tiles = [1, 2, 4], virtual_threads = 2>,
                   vta.b = #vta.schedule<tiles = [], virtual_threads = 1>} {}
