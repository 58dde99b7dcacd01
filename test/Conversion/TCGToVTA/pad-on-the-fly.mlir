// Padding on the fly: a packed 3x3 convolution reads its unpadded input
// through a zero-padded view (pad 1 on the image rows and columns), and the
// loads write the border with VTA's x/y pad fields instead of the host
// storing a padded copy. The results equal the CPU path's and numpy's
// padded convolution bit for bit, for the searched schedule and for given
// ones with remainder tiles, loop orders and kernel tiles of 1 (boxes
// entirely in the padding, zero-filled by loads of no DRAM rows); raf-run
// and raf-vta-sim agree on cycles and instructions.
// RUN: rm -rf %t && split-file %s %t
// RUN: %python -c "import numpy as np; r = np.random.default_rng(3); np.save('%t/x.npy', r.integers(-128, 128, (1, 1, 4, 5, 1, 16), dtype=np.int8)); np.save('%t/w.npy', r.integers(-128, 128, (2, 1, 3, 3, 16, 16), dtype=np.int8))"
// RUN: %python -c "import numpy as np; x = np.pad(np.load('%t/x.npy').astype(np.int64), ((0, 0), (0, 0), (1, 1), (1, 1), (0, 0), (0, 0))); w = np.load('%t/w.npy').astype(np.int64); o = np.zeros((1, 2, 4, 5, 1, 16), np.int64); [o.__setitem__((slice(None), oc, oh, ow), o[:, oc, oh, ow] + np.einsum('nikxz,ikyz->nxy', x[:, :, oh + kh, ow:ow + 3], w[oc, :, kh])) for oc in range(2) for oh in range(4) for ow in range(5) for kh in range(3)]; np.save('%t/ref.npy', o.astype(np.int32))"

// The loads pad: the first input tile starts in the top-left corner.
// RUN: raf-opt %t/conv.mlir --convert-tcg-to-vta="tile-sizes=1,2,4,3,1,3,3" --convert-vta-to-vta-isa | FileCheck %s --check-prefix=PAD
// PAD: vta_isa.load inp {{.*}} y_pad_0 = 1, y_pad_1 = 1, x_pad_0 = 1, x_pad_1 = 0

// RUN: raf-run %t/conv.mlir --entry=conv --target=cpu --input=%t/x.npy --input=%t/w.npy --output=%t/cpu.npy
// RUN: %python -c "import numpy as np; assert (np.load('%t/cpu.npy') == np.load('%t/ref.npy')).all()"
// RUN: raf-run %t/conv.mlir --entry=conv --target=vta-sim --input=%t/x.npy --input=%t/w.npy --output=%t/vta.npy
// RUN: %python -c "import numpy as np; assert (np.load('%t/vta.npy') == np.load('%t/ref.npy')).all()"

// Given schedules: remainder tiles (oh 4 in 3 + 1, ow 5 in 2 + 2 + 1), a
// loop order, and kernel tiles of 1.
// RUN: sed 's/attributes {/attributes {vta.schedule = #vta.schedule<tiles = [1, 1, 3, 2, 1, 3, 3], virtual_threads = 2, loop_order = [0, 3, 2, 1, 4, 5, 6]>, /' %t/conv.mlir > %t/remainder.mlir
// RUN: raf-run %t/remainder.mlir --entry=conv --target=vta-sim --input=%t/x.npy --input=%t/w.npy --output=%t/vta1.npy | sed -n 's/^vta-sim: kernels=1 cycles=\([0-9]*\) instructions=\([0-9]*\) .*/cycles: \1 instructions: \2/p' > %t/run.txt
// RUN: %python -c "import numpy as np; assert (np.load('%t/vta1.npy') == np.load('%t/ref.npy')).all()"
// RUN: raf-opt %t/remainder.mlir --convert-tcg-to-vta --convert-vta-to-vta-isa | raf-translate --vta-isa-to-bin --vta-kernel=conv_kernel0 -o %t/conv.bin
// RUN: raf-vta-sim %t/conv.bin --timing-only | awk '/^cycles:/ { c = $2 } / instructions,/ { n += $2 } END { print "cycles: " c " instructions: " n }' > %t/sim.txt
// RUN: diff %t/run.txt %t/sim.txt
// RUN: sed 's/attributes {/attributes {vta.schedule = #vta.schedule<tiles = [1, 2, 1, 1, 1, 1, 1], virtual_threads = 1>, /' %t/conv.mlir > %t/ones.mlir
// RUN: raf-opt %t/ones.mlir --convert-tcg-to-vta --convert-vta-to-vta-isa | FileCheck %s --check-prefix=FILL
// FILL: vta_isa.load inp {{.*}} y_size = 0, {{.*}} y_pad_0 = 1
// RUN: raf-run %t/ones.mlir --entry=conv --target=vta-sim --input=%t/x.npy --input=%t/w.npy --output=%t/vta2.npy
// RUN: %python -c "import numpy as np; assert (np.load('%t/vta2.npy') == np.load('%t/ref.npy')).all()"

// What a load cannot pad is a located error.
// RUN: raf-opt %t/limits.mlir --convert-tcg-to-vta --convert-vta-to-vta-isa --verify-diagnostics -o /dev/null

//--- conv.mlir
func.func @conv(%a: tensor<1x1x4x5x1x16xi8>, %b: tensor<2x1x3x3x16x16xi8>) -> tensor<1x2x4x5x1x16xi32> {
  %0 = tcg.kernel "nn.conv2d" (%data = %a : tensor<1x1x4x5x1x16xi8>, %weight = %b : tensor<2x1x3x3x16x16xi8>) -> tensor<1x2x4x5x1x16xi32> attributes {tcg.tensorize = #tcg.tensorize<"vta.gemm.1x16x16", target = "vta", gemm = [1, 16, 16]>} {
    %1 = tcg.tensor %n in [0, 1) name "n" -> tensor<1x2x4x5x1x16xi32> {
      %2 = tcg.tensor %oc in [0, 2) name "oc.o" -> tensor<2x4x5x1x16xi32> {
        %3 = tcg.tensor %oh in [0, 4) name "oh" -> tensor<4x5x1x16xi32> {
          %4 = tcg.tensor %ow in [0, 5) name "ow" -> tensor<5x1x16xi32> {
            %5 = tcg.tensor %x in [0, 1) name "x" gemm_axis x -> tensor<1x16xi32> {
              %6 = tcg.tensor %y in [0, 16) name "y" gemm_axis y -> tensor<16xi32> {
                %7 = tcg.reduce add %ic in [0, 1) name "ic.o" -> i32 {
                  %8 = tcg.reduce add %kh in [0, 3) name "kh" -> i32 {
                    %9 = tcg.reduce add %kw in [0, 3) name "kw" -> i32 {
                      %10 = tcg.reduce add %z in [0, 16) name "z" gemm_axis z -> i32 {
                        %11 = tcg.input %data[%n, %ic, %oh + %kh, %ow + %kw, %x, %z] pad_low [0, 0, 1, 1, 0, 0] pad_high [0, 0, 1, 1, 0, 0] : tensor<1x1x4x5x1x16xi8>
                        %12 = tcg.input %weight[%oc, %ic, %kh, %kw, %y, %z] : tensor<2x1x3x3x16x16xi8>
                        %13 = tcg.compute mul %11, %12 : (i8, i8) -> i32
                        tcg.yield %13 : i32
                      }
                      tcg.yield %10 : i32
                    }
                    tcg.yield %9 : i32
                  }
                  tcg.yield %8 : i32
                }
                tcg.yield %7 : i32
              }
              tcg.yield %6 : tensor<16xi32>
            }
            tcg.yield %5 : tensor<1x16xi32>
          }
          tcg.yield %4 : tensor<5x1x16xi32>
        }
        tcg.yield %3 : tensor<4x5x1x16xi32>
      }
      tcg.yield %2 : tensor<2x4x5x1x16xi32>
    }
    tcg.yield %1 : tensor<1x2x4x5x1x16xi32>
  }
  return %0 : tensor<1x2x4x5x1x16xi32>
}

//--- limits.mlir
func.func @pad_channels(%a: tensor<2x1x4x1x16xi8>, %b: tensor<2x16x16xi8>) -> tensor<4x1x16xi32> {
  // expected-error @+2 {{cannot lower this kernel to VTA: no schedule fits VTA: even with tiles of 1, the input is padded along row dimension 0 of 3; loads pad only the two innermost (y and x)}}
  // expected-note @+1 {{tile iterators (parallel first): m = 4, k.o = 2}}
  %0 = tcg.kernel "nn.dense" (%x = %a : tensor<2x1x4x1x16xi8>, %w = %b : tensor<2x16x16xi8>) -> tensor<4x1x16xi32> attributes {tcg.tensorize = #tcg.tensorize<"vta.gemm.1x16x16", target = "vta", gemm = [1, 16, 16]>} {
    %1 = tcg.tensor %m in [0, 4) name "m" -> tensor<4x1x16xi32> {
      %2 = tcg.tensor %i in [0, 1) name "x" gemm_axis x -> tensor<1x16xi32> {
        %3 = tcg.tensor %n in [0, 16) name "y" gemm_axis y -> tensor<16xi32> {
          %4 = tcg.reduce add %k.o in [0, 2) name "k.o" -> i32 {
            %5 = tcg.reduce add %k in [0, 16) name "z" gemm_axis z -> i32 {
              %6 = tcg.input %x[%k.o + 1, 0, %m, %i, %k] pad_low [1, 0, 0, 0, 0] pad_high [1, 0, 0, 0, 0] : tensor<2x1x4x1x16xi8>
              %7 = tcg.input %w[%k.o, %n, %k] : tensor<2x16x16xi8>
              %8 = tcg.compute mul %6, %7 : (i8, i8) -> i32
              tcg.yield %8 : i32
            }
            tcg.yield %5 : i32
          }
          tcg.yield %4 : i32
        }
        tcg.yield %3 : tensor<16xi32>
      }
      tcg.yield %2 : tensor<1x16xi32>
    }
    tcg.yield %1 : tensor<4x1x16xi32>
  }
  return %0 : tensor<4x1x16xi32>
}

func.func @dilated(%a: tensor<3x1x16xi8>, %b: tensor<1x16x16xi8>) -> tensor<1x16xi32> {
  // expected-error @+1 {{cannot lower this kernel to VTA: operand 'in0' is read through a dilated view; pack it with relay layout rewrites first}}
  %0 = tcg.kernel "nn.dense" (%x = %a : tensor<3x1x16xi8>, %w = %b : tensor<1x16x16xi8>) -> tensor<1x16xi32> attributes {tcg.tensorize = #tcg.tensorize<"vta.gemm.1x16x16", target = "vta", gemm = [1, 16, 16]>} {
    %1 = tcg.tensor %i in [0, 1) name "x" gemm_axis x -> tensor<1x16xi32> {
      %2 = tcg.tensor %n in [0, 16) name "y" gemm_axis y -> tensor<16xi32> {
        %3 = tcg.reduce add %k.o in [0, 5) name "k.o" -> i32 {
          %4 = tcg.reduce add %k in [0, 16) name "z" gemm_axis z -> i32 {
            %5 = tcg.input %x[%k.o, %i, %k] dilation [2, 1, 1] : tensor<3x1x16xi8>
            %6 = tcg.input %w[0, %n, %k] : tensor<1x16x16xi8>
            %7 = tcg.compute mul %5, %6 : (i8, i8) -> i32
            tcg.yield %7 : i32
          }
          tcg.yield %4 : i32
        }
        tcg.yield %3 : i32
      }
      tcg.yield %2 : tensor<16xi32>
    }
    tcg.yield %1 : tensor<1x16xi32>
  }
  return %0 : tensor<1x16xi32>
}
