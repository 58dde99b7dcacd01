// RUN: raf-opt %s -split-input-file -verify-diagnostics

// One case per diagnostic of #vta.config: the parser's and every rule of
// raf::vta::Config::validate().

// expected-error @+1 {{unknown VTA configuration preset "2x2x2"; expected one of: 1x16x16, 8x8x8}}
module attributes {vta.c = #vta.config<"2x2x2">} {}

// -----

// expected-error @+1 {{unknown VTA configuration parameter 'batch'; expected one of: log_inp_width, log_wgt_width, log_acc_width, log_batch, log_block, log_uop_buff_size, log_inp_buff_size, log_wgt_buff_size, log_acc_buff_size}}
module attributes {vta.c = #vta.config<batch = 1>} {}

// -----

// expected-error @+1 {{VTA configuration parameter 'log_batch' given twice}}
module attributes {vta.c = #vta.config<log_batch = 1, log_batch = 2>} {}

// -----

// expected-error @+1 {{expected integer value}}
module attributes {vta.c = #vta.config<log_batch = x>} {}

// -----

// expected-error @+1 {{invalid VTA configuration: log_inp_width must be 3 (8-bit inputs), got 4}}
module attributes {vta.c = #vta.config<log_inp_width = 4>} {}

// -----

// expected-error @+1 {{invalid VTA configuration: log_wgt_width must be 3 (8-bit weights), got 2}}
module attributes {vta.c = #vta.config<log_wgt_width = 2>} {}

// -----

// expected-error @+1 {{invalid VTA configuration: log_acc_width must be 5 (32-bit accumulators), got 4}}
module attributes {vta.c = #vta.config<log_acc_width = 4>} {}

// -----

// expected-error @+1 {{invalid VTA configuration: log_batch must be at most 8, got 9; log_block must be at most 8, got 12}}
module attributes {vta.c = #vta.config<log_batch = 9, log_block = 12>} {}

// -----

// expected-error @+1 {{invalid VTA configuration: log_acc_buff_size must be at most 32, got 40}}
module attributes {vta.c = #vta.config<log_acc_buff_size = 40>} {}

// -----

// expected-error @+1 {{invalid VTA configuration: the uop buffer holds less than one row: log_uop_buff_size = 1 but a row takes 2^2 bytes}}
module attributes {vta.c = #vta.config<log_uop_buff_size = 1>} {}

// -----

// expected-error @+1 {{invalid VTA configuration: the acc buffer has 2^17 rows, more than 16-bit SRAM addresses reach}}
module attributes {vta.c = #vta.config<log_acc_buff_size = 23>} {}

// -----

// A 64 KiB uop buffer makes uop_bgn/uop_end one bit wider each, which pushes
// the GEMM factor fields past bit 127.
// expected-error @+1 {{invalid VTA configuration: GEMM field wgt_factor_out (10 bits) ends at bit 137, beyond the 128-bit word}}
module attributes {vta.c = #vta.config<log_uop_buff_size = 16>} {}

// -----

// 2^11 accumulator rows, 2^10 input rows and 2^11 weight rows fit the GEMM
// and ALU words but need 11 + 11 + 11 micro-op bits.
// expected-error @+1 {{invalid VTA configuration: micro-op field wgt_idx (11 bits) ends at bit 42, beyond the 32-bit word}}
module attributes {vta.c = #vta.config<log_inp_buff_size = 14, log_wgt_buff_size = 19>} {}
