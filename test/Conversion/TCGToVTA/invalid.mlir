// RUN: raf-opt %s --split-input-file --verify-diagnostics --convert-tcg-to-vta=keep-kernels=true

// A kernel that was never packed (no --tcg-apply-strategy).
func.func @not_packed(%a: tensor<1x16xi8>, %b: tensor<16x16xi8>) -> tensor<1x16xi32> {
  // expected-error @+1 {{cannot lower this kernel to VTA: it has no 'tcg.tensorize' attribute}}
  %0 = tcg.kernel "nn.dense" (%x = %a : tensor<1x16xi8>, %w = %b : tensor<16x16xi8>) -> tensor<1x16xi32> {
    %1 = tcg.tensor %m in [0, 1) name "m" gemm_axis x -> tensor<1x16xi32> {
      %2 = tcg.tensor %n in [0, 16) name "n" gemm_axis y -> tensor<16xi32> {
        %3 = tcg.reduce add %k in [0, 16) name "k" gemm_axis z -> i32 {
          %4 = tcg.input %x[%m, %k] : tensor<1x16xi8>
          %5 = tcg.input %w[%n, %k] : tensor<16x16xi8>
          %6 = tcg.compute mul %4, %5 : (i8, i8) -> i32
          tcg.yield %6 : i32
        }
        tcg.yield %3 : i32
      }
      tcg.yield %2 : tensor<16xi32>
    }
    tcg.yield %1 : tensor<1x16xi32>
  }
  return %0 : tensor<1x16xi32>
}

// -----

// Tensorized for another intrinsic.
func.func @dot(%a: tensor<1x16xi8>, %b: tensor<16x16xi8>) -> tensor<1x16xi32> {
  // expected-error @+1 {{cannot lower this kernel to VTA: it is tensorized with 'dot.16', which is not an instruction of VTA}}
  %0 = tcg.kernel "nn.dense" (%x = %a : tensor<1x16xi8>, %w = %b : tensor<16x16xi8>) -> tensor<1x16xi32> attributes {tcg.tensorize = #tcg.tensorize<"dot.16">} {
    %1 = tcg.tensor %m in [0, 1) name "m" gemm_axis x -> tensor<1x16xi32> {
      %2 = tcg.tensor %n in [0, 16) name "n" gemm_axis y -> tensor<16xi32> {
        %3 = tcg.reduce add %k in [0, 16) name "k" gemm_axis z -> i32 {
          %4 = tcg.input %x[%m, %k] : tensor<1x16xi8>
          %5 = tcg.input %w[%n, %k] : tensor<16x16xi8>
          %6 = tcg.compute mul %4, %5 : (i8, i8) -> i32
          tcg.yield %6 : i32
        }
        tcg.yield %3 : i32
      }
      tcg.yield %2 : tensor<16xi32>
    }
    tcg.yield %1 : tensor<1x16xi32>
  }
  return %0 : tensor<1x16xi32>
}

// -----

// int16 operands: the GEMM core multiplies int8 values.
func.func @int16(%a: tensor<1x1x16xi16>, %b: tensor<1x16x16xi16>) -> tensor<1x16xi32> {
  // expected-error @+1 {{cannot lower this kernel to VTA: operand 'x' has element type 'i16'; the VTA GEMM reads int8}}
  %0 = tcg.kernel "nn.dense" (%x = %a : tensor<1x1x16xi16>, %w = %b : tensor<1x16x16xi16>) -> tensor<1x16xi32> attributes {arg_names = ["x", "w"], tcg.tensorize = #tcg.tensorize<"vta.gemm.1x16x16", target = "vta", gemm = [1, 16, 16]>} {
    %1 = tcg.tensor %m in [0, 1) name "x" gemm_axis x -> tensor<1x16xi32> {
      %2 = tcg.tensor %n in [0, 16) name "y" gemm_axis y -> tensor<16xi32> {
        %3 = tcg.reduce add %k in [0, 16) name "z" gemm_axis z -> i32 {
          %4 = tcg.input %x[0, %m, %k] : tensor<1x1x16xi16>
          %5 = tcg.input %w[0, %n, %k] : tensor<1x16x16xi16>
          %6 = tcg.compute mul %4, %5 : (i16, i16) -> i32
          tcg.yield %6 : i32
        }
        tcg.yield %3 : i32
      }
      tcg.yield %2 : tensor<16xi32>
    }
    tcg.yield %1 : tensor<1x16xi32>
  }
  return %0 : tensor<1x16xi32>
}

// -----

// A float kernel.
func.func @float(%a: tensor<1x1x16xf32>, %b: tensor<1x16x16xf32>) -> tensor<1x16xf32> {
  // expected-error @+1 {{cannot lower this kernel to VTA: operand 'x' has element type 'f32'; the VTA GEMM reads int8}}
  %0 = tcg.kernel "nn.dense" (%x = %a : tensor<1x1x16xf32>, %w = %b : tensor<1x16x16xf32>) -> tensor<1x16xf32> attributes {arg_names = ["x", "w"], tcg.tensorize = #tcg.tensorize<"vta.gemm.1x16x16", target = "vta", gemm = [1, 16, 16]>} {
    %1 = tcg.tensor %m in [0, 1) name "x" gemm_axis x -> tensor<1x16xf32> {
      %2 = tcg.tensor %n in [0, 16) name "y" gemm_axis y -> tensor<16xf32> {
        %3 = tcg.reduce add %k in [0, 16) name "z" gemm_axis z -> f32 {
          %4 = tcg.input %x[0, %m, %k] : tensor<1x1x16xf32>
          %5 = tcg.input %w[0, %n, %k] : tensor<1x16x16xf32>
          %6 = tcg.compute mul %4, %5 : (f32, f32) -> f32
          tcg.yield %6 : f32
        }
        tcg.yield %3 : f32
      }
      tcg.yield %2 : tensor<16xf32>
    }
    tcg.yield %1 : tensor<1x16xf32>
  }
  return %0 : tensor<1x16xf32>
}

// -----

// The GEMM axes must match the intrinsic's shape: 8x8x8 needs x = 8 (the
// tcg.tensorize attribute's verifier already says so).
func.func @wrong_extents(%a: tensor<1x1x16xi8>, %b: tensor<1x16x16xi8>) -> tensor<1x16xi32> {
  // expected-error @+2 {{GEMM axis x has extent 1, but the kernel is tensorized with 'vta.gemm.8x8x8' whose axis has extent 8}}
  %0 = tcg.kernel "nn.dense" (%x = %a : tensor<1x1x16xi8>, %w = %b : tensor<1x16x16xi8>) -> tensor<1x16xi32> attributes {tcg.tensorize = #tcg.tensorize<"vta.gemm.8x8x8", target = "vta", gemm = [8, 8, 8]>} {
    %1 = tcg.tensor %m in [0, 1) name "x" gemm_axis x -> tensor<1x16xi32> {
      %2 = tcg.tensor %n in [0, 16) name "y" gemm_axis y -> tensor<16xi32> {
        %3 = tcg.reduce add %k in [0, 16) name "z" gemm_axis z -> i32 {
          %4 = tcg.input %x[0, %m, %k] : tensor<1x1x16xi8>
          %5 = tcg.input %w[0, %n, %k] : tensor<1x16x16xi8>
          %6 = tcg.compute mul %4, %5 : (i8, i8) -> i32
          tcg.yield %6 : i32
        }
        tcg.yield %3 : i32
      }
      tcg.yield %2 : tensor<16xi32>
    }
    tcg.yield %1 : tensor<1x16xi32>
  }
  return %0 : tensor<1x16xi32>
}

// -----

// GEMM extents VTA cannot be configured with: not powers of two, and
// powers of two whose buffers would be empty.
func.func @not_a_core(%a: tensor<1x1x12xi8>, %b: tensor<1x12x12xi8>) -> tensor<1x12xi32> {
  // expected-error @+1 {{cannot lower this kernel to VTA: 'vta.gemm.custom' is not a VTA GEMM core (x, y, z extents must be powers of two with y = z)}}
  %0 = tcg.kernel "nn.dense" (%x = %a : tensor<1x1x12xi8>, %w = %b : tensor<1x12x12xi8>) -> tensor<1x12xi32> attributes {tcg.tensorize = #tcg.tensorize<"vta.gemm.custom", target = "vta", gemm = [1, 12, 12]>} {
    %1 = tcg.tensor %m in [0, 1) name "x" gemm_axis x -> tensor<1x12xi32> {
      %2 = tcg.tensor %n in [0, 12) name "y" gemm_axis y -> tensor<12xi32> {
        %3 = tcg.reduce add %k in [0, 12) name "z" gemm_axis z -> i32 {
          %4 = tcg.input %x[0, %m, %k] : tensor<1x1x12xi8>
          %5 = tcg.input %w[0, %n, %k] : tensor<1x12x12xi8>
          %6 = tcg.compute mul %4, %5 : (i8, i8) -> i32
          tcg.yield %6 : i32
        }
        tcg.yield %3 : i32
      }
      tcg.yield %2 : tensor<12xi32>
    }
    tcg.yield %1 : tensor<1x12xi32>
  }
  return %0 : tensor<1x12xi32>
}

// -----

func.func @huge_batch(%a: tensor<1x4096x16xi8>, %b: tensor<1x16x16xi8>) -> tensor<4096x16xi32> {
  // expected-error @+1 {{cannot lower this kernel to VTA: 'vta.gemm.huge' (GEMM 4096x16x16) gives an invalid VTA configuration:}}
  %0 = tcg.kernel "nn.dense" (%x = %a : tensor<1x4096x16xi8>, %w = %b : tensor<1x16x16xi8>) -> tensor<4096x16xi32> attributes {tcg.tensorize = #tcg.tensorize<"vta.gemm.huge", target = "vta", gemm = [4096, 16, 16]>} {
    %1 = tcg.tensor %m in [0, 4096) name "x" gemm_axis x -> tensor<4096x16xi32> {
      %2 = tcg.tensor %n in [0, 16) name "y" gemm_axis y -> tensor<16xi32> {
        %3 = tcg.reduce add %k in [0, 16) name "z" gemm_axis z -> i32 {
          %4 = tcg.input %x[0, %m, %k] : tensor<1x4096x16xi8>
          %5 = tcg.input %w[0, %n, %k] : tensor<1x16x16xi8>
          %6 = tcg.compute mul %4, %5 : (i8, i8) -> i32
          tcg.yield %6 : i32
        }
        tcg.yield %3 : i32
      }
      tcg.yield %2 : tensor<16xi32>
    }
    tcg.yield %1 : tensor<4096x16xi32>
  }
  return %0 : tensor<4096x16xi32>
}

// -----

// An int16 result: the accumulators are int32.
func.func @result_i16(%a: tensor<1x1x16xi8>, %b: tensor<1x16x16xi8>) -> tensor<1x16xi16> {
  // expected-error @+1 {{cannot lower this kernel to VTA: its result has element type 'i16'; the VTA GEMM accumulates in int32}}
  %0 = tcg.kernel "nn.dense" (%x = %a : tensor<1x1x16xi8>, %w = %b : tensor<1x16x16xi8>) -> tensor<1x16xi16> attributes {arg_names = ["x", "w"], tcg.tensorize = #tcg.tensorize<"vta.gemm.1x16x16", target = "vta", gemm = [1, 16, 16]>} {
    %1 = tcg.tensor %m in [0, 1) name "x" gemm_axis x -> tensor<1x16xi16> {
      %2 = tcg.tensor %n in [0, 16) name "y" gemm_axis y -> tensor<16xi16> {
        %3 = tcg.reduce add %k in [0, 16) name "z" gemm_axis z -> i16 {
          %4 = tcg.input %x[0, %m, %k] : tensor<1x1x16xi8>
          %5 = tcg.input %w[0, %n, %k] : tensor<1x16x16xi8>
          %6 = tcg.compute mul %4, %5 : (i8, i8) -> i16
          tcg.yield %6 : i16
        }
        tcg.yield %3 : i16
      }
      tcg.yield %2 : tensor<16xi16>
    }
    tcg.yield %1 : tensor<1x16xi16>
  }
  return %0 : tensor<1x16xi16>
}

// -----

// A max-reduction is not a GEMM.
func.func @max_reduction(%a: tensor<1x1x16xi8>, %b: tensor<1x16x16xi8>) -> tensor<1x16xi32> {
  // expected-error @+1 {{cannot lower this kernel to VTA: its reductions must add}}
  %0 = tcg.kernel "nn.dense" (%x = %a : tensor<1x1x16xi8>, %w = %b : tensor<1x16x16xi8>) -> tensor<1x16xi32> attributes {arg_names = ["x", "w"], tcg.tensorize = #tcg.tensorize<"vta.gemm.1x16x16", target = "vta", gemm = [1, 16, 16]>} {
    %1 = tcg.tensor %m in [0, 1) name "x" gemm_axis x -> tensor<1x16xi32> {
      %2 = tcg.tensor %n in [0, 16) name "y" gemm_axis y -> tensor<16xi32> {
        %3 = tcg.reduce max %k in [0, 16) name "z" gemm_axis z -> i32 {
          %4 = tcg.input %x[0, %m, %k] : tensor<1x1x16xi8>
          %5 = tcg.input %w[0, %n, %k] : tensor<1x16x16xi8>
          %6 = tcg.compute mul %4, %5 : (i8, i8) -> i32
          tcg.yield %6 : i32
        }
        tcg.yield %3 : i32
      }
      tcg.yield %2 : tensor<16xi32>
    }
    tcg.yield %1 : tensor<1x16xi32>
  }
  return %0 : tensor<1x16xi32>
}

// -----

// A sum of sums is not a GEMM.
func.func @sum_of_sums(%a: tensor<1x1x16xi8>, %b: tensor<1x16x16xi8>) -> tensor<1x16xi32> {
  // expected-error @+1 {{cannot lower this kernel to VTA: its reduction body must be the product of two reads}}
  %0 = tcg.kernel "nn.dense" (%x = %a : tensor<1x1x16xi8>, %w = %b : tensor<1x16x16xi8>) -> tensor<1x16xi32> attributes {arg_names = ["x", "w"], tcg.tensorize = #tcg.tensorize<"vta.gemm.1x16x16", target = "vta", gemm = [1, 16, 16]>} {
    %1 = tcg.tensor %m in [0, 1) name "x" gemm_axis x -> tensor<1x16xi32> {
      %2 = tcg.tensor %n in [0, 16) name "y" gemm_axis y -> tensor<16xi32> {
        %3 = tcg.reduce add %k in [0, 16) name "z" gemm_axis z -> i32 {
          %4 = tcg.input %x[0, %m, %k] : tensor<1x1x16xi8>
          %5 = tcg.input %w[0, %n, %k] : tensor<1x16x16xi8>
          %6 = tcg.compute add %4, %5 : (i8, i8) -> i32
          tcg.yield %6 : i32
        }
        tcg.yield %3 : i32
      }
      tcg.yield %2 : tensor<16xi32>
    }
    tcg.yield %1 : tensor<1x16xi32>
  }
  return %0 : tensor<1x16xi32>
}
