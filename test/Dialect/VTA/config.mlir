// RUN: raf-opt %s | raf-opt | FileCheck %s
// RUN: raf-opt %s --mlir-print-op-generic | raf-opt | FileCheck %s

// Presets print as their name; any other configuration prints all nine
// parameters; overrides of a preset and lists with missing keys (filled from
// the default configuration) normalise to one of the two.

// CHECK: vta.default = #vta.config<"1x16x16">
// CHECK-SAME: vta.eight = #vta.config<"8x8x8">
// CHECK-SAME: vta.explicit_default = #vta.config<"1x16x16">
// CHECK-SAME: vta.explicit_eight = #vta.config<"8x8x8">
// CHECK-SAME: vta.override = #vta.config<log_inp_width = 3, log_wgt_width = 3, log_acc_width = 5, log_batch = 0, log_block = 4, log_uop_buff_size = 15, log_inp_buff_size = 15, log_wgt_buff_size = 18, log_acc_buff_size = 16>
// CHECK-SAME: vta.override_to_preset = #vta.config<"8x8x8">
// CHECK-SAME: vta.partial = #vta.config<log_inp_width = 3, log_wgt_width = 3, log_acc_width = 5, log_batch = 1, log_block = 4, log_uop_buff_size = 15, log_inp_buff_size = 15, log_wgt_buff_size = 18, log_acc_buff_size = 17>
module attributes {
  vta.default = #vta.config<"1x16x16">,
  vta.eight = #vta.config<"8x8x8">,
  vta.explicit_default = #vta.config<log_inp_width = 3, log_wgt_width = 3,
      log_acc_width = 5, log_batch = 0, log_block = 4, log_uop_buff_size = 15,
      log_inp_buff_size = 15, log_wgt_buff_size = 18, log_acc_buff_size = 17>,
  vta.explicit_eight = #vta.config<log_block = 3, log_batch = 3>,
  vta.override = #vta.config<"1x16x16", log_acc_buff_size = 16>,
  vta.override_to_preset = #vta.config<"1x16x16", log_batch = 3, log_block = 3>,
  vta.partial = #vta.config<log_batch = 1>
} {
}
