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
