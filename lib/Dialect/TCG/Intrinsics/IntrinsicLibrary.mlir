// The hardware intrinsics as tensor compute graphs (dissertation_spec.md
// §2.4, §2.9), compiled into RAFTCGIntrinsics and read with
// raf::tcg::lookupIntrinsic; `raf-opt --tcg-print-intrinsics` prints them.
//
// Each intrinsic is a function holding one named tcg.kernel. Iterators are
// named x, y, z after the axes of VTA's GEMM core: x the rows of the
// activation (BATCH), y the output channels (BLOCK_OUT), z the reduced
// input channels (BLOCK_IN); `gemm_axis` carries the same axis. All of them
// multiply int8 operands and accumulate in int32, as VTA's datapath does.
//
// An intrinsic that a target implements carries the `tcg.tensorize`
// attribute that --tcg-apply-strategy puts on the kernels it packs: the
// target and, for a GEMM core, the extents of x, y and z, from which the
// target's configuration follows. The others have no hardware lowering.

// VTA's GEMM core in the default configuration (BATCH = 1, BLOCK_IN =
// BLOCK_OUT = 16): c[x, y] = sum_z a[x, z] * b[y, z].
func.func @"vta.gemm.1x16x16"(%lhs: tensor<1x16xi8>, %rhs: tensor<16x16xi8>) -> tensor<1x16xi32> {
  %c = tcg.kernel "vta.gemm.1x16x16" (%a = %lhs : tensor<1x16xi8>, %b = %rhs : tensor<16x16xi8>)
      -> tensor<1x16xi32> attributes {arg_names = ["a", "b"], result_name = "c",
                                    tcg.tensorize = #tcg.tensorize<"vta.gemm.1x16x16", target = "vta", gemm = [1, 16, 16]>} {
    %0 = tcg.tensor %x in [0, 1) name "x" gemm_axis x -> tensor<1x16xi32> {
      %1 = tcg.tensor %y in [0, 16) name "y" gemm_axis y -> tensor<16xi32> {
        %2 = tcg.reduce add %z in [0, 16) name "z" gemm_axis z -> i32 {
          %3 = tcg.input %a[%x, %z] : tensor<1x16xi8>
          %4 = tcg.input %b[%y, %z] : tensor<16x16xi8>
          %5 = tcg.compute mul %3, %4 : (i8, i8) -> i32
          tcg.yield %5 : i32
        }
        tcg.yield %2 : i32
      }
      tcg.yield %1 : tensor<16xi32>
    }
    tcg.yield %0 : tensor<1x16xi32>
  }
  return %c : tensor<1x16xi32>
}

// VTA's 8x8x8 configuration (BATCH = BLOCK_IN = BLOCK_OUT = 8).
func.func @"vta.gemm.8x8x8"(%lhs: tensor<8x8xi8>, %rhs: tensor<8x8xi8>) -> tensor<8x8xi32> {
  %c = tcg.kernel "vta.gemm.8x8x8" (%a = %lhs : tensor<8x8xi8>, %b = %rhs : tensor<8x8xi8>)
      -> tensor<8x8xi32> attributes {arg_names = ["a", "b"], result_name = "c",
                                  tcg.tensorize = #tcg.tensorize<"vta.gemm.8x8x8", target = "vta", gemm = [8, 8, 8]>} {
    %0 = tcg.tensor %x in [0, 8) name "x" gemm_axis x -> tensor<8x8xi32> {
      %1 = tcg.tensor %y in [0, 8) name "y" gemm_axis y -> tensor<8xi32> {
        %2 = tcg.reduce add %z in [0, 8) name "z" gemm_axis z -> i32 {
          %3 = tcg.input %a[%x, %z] : tensor<8x8xi8>
          %4 = tcg.input %b[%y, %z] : tensor<8x8xi8>
          %5 = tcg.compute mul %3, %4 : (i8, i8) -> i32
          tcg.yield %5 : i32
        }
        tcg.yield %2 : i32
      }
      tcg.yield %1 : tensor<8xi32>
    }
    tcg.yield %0 : tensor<8x8xi32>
  }
  return %c : tensor<8x8xi32>
}

// Matrix-vector product (Tab. 3.1's Matrix-Vector with mul and add):
// c[y] = sum_z a[z] * b[y, z].
func.func @"gemv.16x16"(%lhs: tensor<16xi8>, %rhs: tensor<16x16xi8>) -> tensor<16xi32> {
  %c = tcg.kernel "gemv.16x16" (%a = %lhs : tensor<16xi8>, %b = %rhs : tensor<16x16xi8>)
      -> tensor<16xi32> attributes {arg_names = ["a", "b"], result_name = "c"} {
    %0 = tcg.tensor %y in [0, 16) name "y" gemm_axis y -> tensor<16xi32> {
      %1 = tcg.reduce add %z in [0, 16) name "z" gemm_axis z -> i32 {
        %2 = tcg.input %a[%z] : tensor<16xi8>
        %3 = tcg.input %b[%y, %z] : tensor<16x16xi8>
        %4 = tcg.compute mul %2, %3 : (i8, i8) -> i32
        tcg.yield %4 : i32
      }
      tcg.yield %1 : i32
    }
    tcg.yield %0 : tensor<16xi32>
  }
  return %c : tensor<16xi32>
}

// Dot product (Tab. 3.1's Dot with mul and add): c[x] = sum_z a[z] * b[z].
// The scalar result is a one-element tensor, the "loop of length one" that
// Fig. 3.2 wraps scalars in.
func.func @"dot.16"(%lhs: tensor<16xi8>, %rhs: tensor<16xi8>) -> tensor<1xi32> {
  %c = tcg.kernel "dot.16" (%a = %lhs : tensor<16xi8>, %b = %rhs : tensor<16xi8>)
      -> tensor<1xi32> attributes {arg_names = ["a", "b"], result_name = "c"} {
    %0 = tcg.tensor %x in [0, 1) name "x" gemm_axis x -> tensor<1xi32> {
      %1 = tcg.reduce add %z in [0, 16) name "z" gemm_axis z -> i32 {
        %2 = tcg.input %a[%z] : tensor<16xi8>
        %3 = tcg.input %b[%z] : tensor<16xi8>
        %4 = tcg.compute mul %2, %3 : (i8, i8) -> i32
        tcg.yield %4 : i32
      }
      tcg.yield %1 : i32
    }
    tcg.yield %0 : tensor<1xi32>
  }
  return %c : tensor<1xi32>
}
