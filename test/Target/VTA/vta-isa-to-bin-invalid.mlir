// RUN: raf-translate --vta-isa-to-bin %s -split-input-file -verify-diagnostics -o /dev/null

// The module must hold exactly one program (a binary is one program).

// expected-error @+1 {{expected one vta_isa.program in the module, found 0}}
module {
}

// -----

// expected-error @+1 {{expected one vta_isa.program in the module, found 2}}
module {
  vta_isa.program #vta.config<"1x16x16"> uops {
  } instructions {
    vta_isa.finish
  }
  vta_isa.program #vta.config<"8x8x8"> uops {
  } instructions {
    vta_isa.finish
  }
}

// -----

// Programs are verified before they are encoded.
vta_isa.program #vta.config<"1x16x16"> uops {
} instructions {
  // expected-error @+1 {{'vta_isa.load' op sram_base = 2048 is outside the inp buffer (2048 rows)}}
  vta_isa.load inp sram_base = 2048, dram_base = 0, y_size = 1, x_size = 1, x_stride = 1, y_pad_0 = 0, y_pad_1 = 0, x_pad_0 = 0, x_pad_1 = 0
  vta_isa.finish
}
