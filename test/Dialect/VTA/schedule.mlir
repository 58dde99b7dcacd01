// RUN: raf-opt %s | FileCheck %s
// RUN: raf-opt %s | raf-opt | FileCheck %s

// CHECK: vta.a = #vta.schedule<tiles = [1, 2, 4], virtual_threads = 2>
// CHECK-SAME: vta.b = #vta.schedule<tiles = [], virtual_threads = 1>
// CHECK-SAME: vta.c = #vta.schedule<tiles = [2, 3, 1], virtual_threads = 1, loop_order = [1, 0, 2]>
// An empty loop order is the kernel order and prints as none.
// CHECK-SAME: vta.d = #vta.schedule<tiles = [2], virtual_threads = 2>
// The DMA placement prints unless it is the default (step).
// CHECK-SAME: vta.e = #vta.schedule<tiles = [2, 1], virtual_threads = 2, loop_order = [1, 0], dma = hoist_weight>
// CHECK-SAME: vta.f = #vta.schedule<tiles = [2], virtual_threads = 1, dma = hoist_weight>
// CHECK-SAME: vta.g = #vta.schedule<tiles = [2], virtual_threads = 1>}
module attributes {vta.e = #vta.schedule<tiles = [2, 1], virtual_threads = 2, loop_order = [1, 0], dma = hoist_weight>,
                   vta.f = #vta.schedule<tiles = [2], virtual_threads = 1, dma = hoist_weight>,
                   vta.g = #vta.schedule<tiles = [2], virtual_threads = 1, dma = step>,
                   vta.a = #vta.schedule<tiles = [1, 2, 4], virtual_threads = 2>,
                   vta.b = #vta.schedule<tiles = [], virtual_threads = 1>,
                   vta.c = #vta.schedule<tiles = [2, 3, 1], virtual_threads = 1, loop_order = [1, 0, 2]>,
                   vta.d = #vta.schedule<tiles = [2], virtual_threads = 2, loop_order = []>} {}
