// RUN: raf-opt %s -split-input-file -verify-diagnostics

// One case per diagnostic of #vta.schedule's parser and verifier.

// expected-error @+1 {{tile size 0 of tile iterator 1 is not positive}}
module attributes {vta.s = #vta.schedule<tiles = [2, 0], virtual_threads = 1>} {}

// -----

// expected-error @+1 {{virtual_threads must be 1 or 2, got 3}}
module attributes {vta.s = #vta.schedule<tiles = [2], virtual_threads = 3>} {}

// -----

// expected-error @+1 {{expected 'virtual_threads'}}
module attributes {vta.s = #vta.schedule<tiles = [2], threads = 2>} {}

// -----

// expected-error @+1 {{'vta.schedule' must be a #vta.schedule, got [1, 2]}}
module attributes {vta.schedule = [1, 2]} {}

// -----

// expected-error @+1 {{loop_order has 2 loops; tiles has 3 tile iterators}}
module attributes {vta.s = #vta.schedule<tiles = [2, 1, 1], virtual_threads = 1, loop_order = [1, 0]>} {}

// -----

// expected-error @+1 {{loop_order names tile iterator 3, not one of 0 to 2}}
module attributes {vta.s = #vta.schedule<tiles = [2, 1, 1], virtual_threads = 1, loop_order = [1, 0, 3]>} {}

// -----

// expected-error @+1 {{loop_order names tile iterator 0 twice}}
module attributes {vta.s = #vta.schedule<tiles = [2, 1, 1], virtual_threads = 1, loop_order = [0, 2, 0]>} {}

// -----

// expected-error @+1 {{expected 'loop_order'}}
module attributes {vta.s = #vta.schedule<tiles = [2], virtual_threads = 1, order = [0]>} {}

// -----

// expected-error @+1 {{unknown DMA placement 'resident' (step or hoist_weight)}}
module attributes {vta.s = #vta.schedule<tiles = [2], virtual_threads = 1, dma = resident>} {}

// -----

// expected-error @+1 {{expected 'loop_order' or 'dma' (once each, in that order) after virtual_threads, got 'loop_order'}}
module attributes {vta.s = #vta.schedule<tiles = [2], virtual_threads = 1, dma = step, loop_order = [0]>} {}

// -----

// expected-error @+1 {{expected 'loop_order' or 'dma' (once each, in that order) after virtual_threads, got 'dma'}}
module attributes {vta.s = #vta.schedule<tiles = [2], virtual_threads = 1, dma = step, dma = hoist_weight>} {}
