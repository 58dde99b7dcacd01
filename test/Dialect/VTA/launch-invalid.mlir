// RUN: raf-opt %s -split-input-file -verify-diagnostics

// One case per diagnostic of vta.launch and #vta.dram_layout.

vta_isa.program @p #vta.config<"1x16x16"> dram #vta.dram_layout<input_operand = 0, input_offset = 0, weight_operand = 1, weight_offset = 16, result_offset = 272, result_rows = 1, result_row_bytes = 16, result_planes = 4, size = 336> uops {
  vta_isa.uop dst_idx = 0, src_idx = 0, wgt_idx = 0
} instructions {
  vta_isa.finish
}
func.func @operand_count(%a: tensor<1x16xi8>) -> tensor<1x16xi32> {
  // expected-error @+1 {{'vta.launch' op takes the GEMM's input and weight (and a bias), got 1 operand(s)}}
  %r = vta.launch @p(%a) : (tensor<1x16xi8>) -> tensor<1x16xi32>
  return %r : tensor<1x16xi32>
}

// -----

vta_isa.program @p #vta.config<"1x16x16"> dram #vta.dram_layout<input_operand = 0, input_offset = 0, weight_operand = 1, weight_offset = 16, result_offset = 272, result_rows = 1, result_row_bytes = 16, result_planes = 4, size = 336> uops {
  vta_isa.uop dst_idx = 0, src_idx = 0, wgt_idx = 0
} instructions {
  vta_isa.finish
}
func.func @operand_type(%a: tensor<1x16xi8>, %b: tensor<16x16xi32>) -> tensor<1x16xi32> {
  // expected-error @+1 {{'vta.launch' op operands must be static int8 tensors, got 'tensor<16x16xi32>'}}
  %r = vta.launch @p(%a, %b) : (tensor<1x16xi8>, tensor<16x16xi32>) -> tensor<1x16xi32>
  return %r : tensor<1x16xi32>
}

// -----

vta_isa.program @p #vta.config<"1x16x16"> dram #vta.dram_layout<input_operand = 0, input_offset = 0, weight_operand = 1, weight_offset = 16, result_offset = 272, result_rows = 1, result_row_bytes = 16, result_planes = 4, size = 336> uops {
  vta_isa.uop dst_idx = 0, src_idx = 0, wgt_idx = 0
} instructions {
  vta_isa.finish
}
func.func @result_type(%a: tensor<1x16xi8>, %b: tensor<16x16xi8>) -> tensor<1x16xi8> {
  // expected-error @+1 {{'vta.launch' op result must be a static int32 tensor, got 'tensor<1x16xi8>'}}
  %r = vta.launch @p(%a, %b) : (tensor<1x16xi8>, tensor<16x16xi8>) -> tensor<1x16xi8>
  return %r : tensor<1x16xi8>
}

// -----

func.func @no_program(%a: tensor<1x16xi8>, %b: tensor<16x16xi8>) -> tensor<1x16xi32> {
  // expected-error @+1 {{'vta.launch' op 'q' does not name a vta.program or vta_isa.program}}
  %r = vta.launch @q(%a, %b) : (tensor<1x16xi8>, tensor<16x16xi8>) -> tensor<1x16xi32>
  return %r : tensor<1x16xi32>
}

// -----

vta_isa.program @p #vta.config<"1x16x16"> uops {
  vta_isa.uop dst_idx = 0, src_idx = 0, wgt_idx = 0
} instructions {
  vta_isa.finish
}
func.func @no_layout(%a: tensor<1x16xi8>, %b: tensor<16x16xi8>) -> tensor<1x16xi32> {
  // expected-error @+1 {{'vta.launch' op program 'p' has no dram layout to launch it with}}
  %r = vta.launch @p(%a, %b) : (tensor<1x16xi8>, tensor<16x16xi8>) -> tensor<1x16xi32>
  return %r : tensor<1x16xi32>
}

// -----

vta_isa.program @p #vta.config<"1x16x16"> dram #vta.dram_layout<input_operand = 0, input_offset = 0, weight_operand = 1, weight_offset = 16, result_offset = 272, result_rows = 1, result_row_bytes = 16, result_planes = 4, size = 336> uops {
  vta_isa.uop dst_idx = 0, src_idx = 0, wgt_idx = 0
} instructions {
  vta_isa.finish
}
func.func @result_size(%a: tensor<1x16xi8>, %b: tensor<16x16xi8>) -> tensor<2x16xi32> {
  // expected-error @+1 {{'vta.launch' op result has 32 elements but program 'p' writes 1 rows of 16 elements}}
  %r = vta.launch @p(%a, %b) : (tensor<1x16xi8>, tensor<16x16xi8>) -> tensor<2x16xi32>
  return %r : tensor<2x16xi32>
}

// -----

vta_isa.program @p #vta.config<"1x16x16"> dram #vta.dram_layout<input_operand = 0, input_offset = 0, weight_operand = 1, weight_offset = 16, result_offset = 272, result_rows = 1, result_row_bytes = 16, result_planes = 4, size = 336> uops {
  vta_isa.uop dst_idx = 0, src_idx = 0, wgt_idx = 0
} instructions {
  vta_isa.finish
}
func.func @operand_size(%a: tensor<1x16xi8>, %b: tensor<32x16xi8>) -> tensor<1x16xi32> {
  // expected-error @+1 {{'vta.launch' op operands do not fit the 336-byte DRAM image of program 'p'}}
  %r = vta.launch @p(%a, %b) : (tensor<1x16xi8>, tensor<32x16xi8>) -> tensor<1x16xi32>
  return %r : tensor<1x16xi32>
}

// -----

// expected-error @+1 {{input_operand and weight_operand must be 0 and 1 in some order, got 0 and 0}}
module attributes {vta.d = #vta.dram_layout<input_operand = 0, input_offset = 0, weight_operand = 0, weight_offset = 16, result_offset = 272, result_rows = 1, result_row_bytes = 16, result_planes = 4, size = 336>} {}

// -----

// expected-error @+1 {{DRAM offsets must not be negative}}
module attributes {vta.d = #vta.dram_layout<input_operand = 0, input_offset = -16, weight_operand = 1, weight_offset = 16, result_offset = 272, result_rows = 1, result_row_bytes = 16, result_planes = 4, size = 336>} {}

// -----

// expected-error @+1 {{the result needs at least one row of one byte}}
module attributes {vta.d = #vta.dram_layout<input_operand = 0, input_offset = 0, weight_operand = 1, weight_offset = 16, result_offset = 272, result_rows = 0, result_row_bytes = 16, result_planes = 4, size = 336>} {}

// -----

// expected-error @+1 {{result_planes must be 4 (exact int32) or 1 (requantised int8), got 2}}
module attributes {vta.d = #vta.dram_layout<input_operand = 0, input_offset = 0, weight_operand = 1, weight_offset = 16, result_offset = 272, result_rows = 1, result_row_bytes = 16, result_planes = 2, size = 336>} {}

// -----

// expected-error @+1 {{size 300 ends before the result (336 bytes)}}
module attributes {vta.d = #vta.dram_layout<input_operand = 0, input_offset = 0, weight_operand = 1, weight_offset = 16, result_offset = 272, result_rows = 1, result_row_bytes = 16, result_planes = 4, size = 300>} {}

// -----

// expected-error @+1 {{the result's extent overflows 64 bits}}
module attributes {vta.d = #vta.dram_layout<input_operand = 0, input_offset = 0, weight_operand = 1, weight_offset = 16, result_offset = 9223372036854775800, result_rows = 1, result_row_bytes = 16, result_planes = 4, size = 336>} {}

// -----

// expected-error @+1 {{an operand offset lies beyond the 336-byte image}}
module attributes {vta.d = #vta.dram_layout<input_operand = 0, input_offset = 9223372036854775800, weight_operand = 1, weight_offset = 16, result_offset = 272, result_rows = 1, result_row_bytes = 16, result_planes = 4, size = 336>} {}

// -----

vta_isa.program @p #vta.config<"1x16x16"> dram #vta.dram_layout<input_operand = 0, input_offset = 0, weight_operand = 1, weight_offset = 16, result_offset = 272, result_rows = 1, result_row_bytes = 16, result_planes = 4, size = 336> uops {
  vta_isa.uop dst_idx = 0, src_idx = 0, wgt_idx = 0
} instructions {
  vta_isa.finish
}
func.func @dynamic_operand(%a: tensor<?x16xi8>, %b: tensor<16x16xi8>) -> tensor<1x16xi32> {
  // expected-error @+1 {{'vta.launch' op operands must be static int8 tensors, got 'tensor<?x16xi8>'}}
  %r = vta.launch @p(%a, %b) : (tensor<?x16xi8>, tensor<16x16xi8>) -> tensor<1x16xi32>
  return %r : tensor<1x16xi32>
}

// -----

// A fused bias (bias_offset, bias_rows): the launch's third operand.
vta_isa.program @p #vta.config<"1x16x16"> dram #vta.dram_layout<input_operand = 0, input_offset = 0, weight_operand = 1, weight_offset = 16, result_offset = 384, result_rows = 1, result_row_bytes = 16, result_planes = 4, size = 448, bias_offset = 320, bias_rows = 1> uops {
  vta_isa.uop dst_idx = 0, src_idx = 0, wgt_idx = 0
} instructions {
  vta_isa.finish
}
func.func @bias_type(%a: tensor<1x16xi8>, %b: tensor<16x16xi8>, %c: tensor<1x16xi8>) -> tensor<1x16xi32> {
  // expected-error @+1 {{'vta.launch' op the bias (third operand) must be a static int32 tensor, got 'tensor<1x16xi8>'}}
  %r = vta.launch @p(%a, %b, %c) : (tensor<1x16xi8>, tensor<16x16xi8>, tensor<1x16xi8>) -> tensor<1x16xi32>
  return %r : tensor<1x16xi32>
}

// -----

vta_isa.program @p #vta.config<"1x16x16"> dram #vta.dram_layout<input_operand = 0, input_offset = 0, weight_operand = 1, weight_offset = 16, result_offset = 384, result_rows = 1, result_row_bytes = 16, result_planes = 4, size = 448, bias_offset = 320, bias_rows = 1> uops {
  vta_isa.uop dst_idx = 0, src_idx = 0, wgt_idx = 0
} instructions {
  vta_isa.finish
}
func.func @bias_missing(%a: tensor<1x16xi8>, %b: tensor<16x16xi8>) -> tensor<1x16xi32> {
  // expected-error @+1 {{'vta.launch' op program 'p' adds a bias, which the launch must pass as a third operand}}
  %r = vta.launch @p(%a, %b) : (tensor<1x16xi8>, tensor<16x16xi8>) -> tensor<1x16xi32>
  return %r : tensor<1x16xi32>
}

// -----

vta_isa.program @p #vta.config<"1x16x16"> dram #vta.dram_layout<input_operand = 0, input_offset = 0, weight_operand = 1, weight_offset = 16, result_offset = 272, result_rows = 1, result_row_bytes = 16, result_planes = 4, size = 336> uops {
  vta_isa.uop dst_idx = 0, src_idx = 0, wgt_idx = 0
} instructions {
  vta_isa.finish
}
func.func @bias_unexpected(%a: tensor<1x16xi8>, %b: tensor<16x16xi8>, %c: tensor<1x16xi32>) -> tensor<1x16xi32> {
  // expected-error @+1 {{'vta.launch' op program 'p' adds no bias, but the launch passes a third operand}}
  %r = vta.launch @p(%a, %b, %c) : (tensor<1x16xi8>, tensor<16x16xi8>, tensor<1x16xi32>) -> tensor<1x16xi32>
  return %r : tensor<1x16xi32>
}

// -----

vta_isa.program @p #vta.config<"1x16x16"> dram #vta.dram_layout<input_operand = 0, input_offset = 0, weight_operand = 1, weight_offset = 16, result_offset = 384, result_rows = 1, result_row_bytes = 16, result_planes = 4, size = 448, bias_offset = 320, bias_rows = 1> uops {
  vta_isa.uop dst_idx = 0, src_idx = 0, wgt_idx = 0
} instructions {
  vta_isa.finish
}
func.func @bias_shape(%a: tensor<1x16xi8>, %b: tensor<16x16xi8>, %c: tensor<2x16xi32>) -> tensor<1x16xi32> {
  // expected-error @+1 {{'vta.launch' op bias has 32 elements but program 'p' reads 1 rows of 16 int32 elements}}
  %r = vta.launch @p(%a, %b, %c) : (tensor<1x16xi8>, tensor<16x16xi8>, tensor<2x16xi32>) -> tensor<1x16xi32>
  return %r : tensor<1x16xi32>
}

// -----

// expected-error @+1 {{bias_offset and bias_rows must be given together}}
module attributes {vta.d = #vta.dram_layout<input_operand = 0, input_offset = 0, weight_operand = 1, weight_offset = 16, result_offset = 384, result_rows = 1, result_row_bytes = 16, result_planes = 4, size = 448, bias_offset = 320>} {}

// -----

// expected-error @+1 {{the bias needs a non-negative offset and at least one row, got bias_offset = -64 and bias_rows = 1}}
module attributes {vta.d = #vta.dram_layout<input_operand = 0, input_offset = 0, weight_operand = 1, weight_offset = 16, result_offset = 384, result_rows = 1, result_row_bytes = 16, result_planes = 4, size = 448, bias_offset = -64, bias_rows = 1>} {}

// -----

// expected-error @+1 {{the bias (3 rows of 16 int32 from byte 320) does not fit the 448-byte image}}
module attributes {vta.d = #vta.dram_layout<input_operand = 0, input_offset = 0, weight_operand = 1, weight_offset = 16, result_offset = 384, result_rows = 1, result_row_bytes = 16, result_planes = 4, size = 448, bias_offset = 320, bias_rows = 3>} {}
