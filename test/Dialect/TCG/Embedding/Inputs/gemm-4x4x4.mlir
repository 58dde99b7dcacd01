// A user intrinsic library in the format of the built-in one
// (lib/Dialect/TCG/Intrinsics/IntrinsicLibrary.mlir): a 4x4x4 GEMM core,
// c[x, y] = sum_z a[x, z] * b[y, z], int8 operands accumulated in int32.
func.func @"user.gemm.4x4x4"(%lhs: tensor<4x4xi8>, %rhs: tensor<4x4xi8>) -> tensor<4x4xi32> {
  %c = tcg.kernel "user.gemm.4x4x4" (%a = %lhs : tensor<4x4xi8>, %b = %rhs : tensor<4x4xi8>)
      -> tensor<4x4xi32> attributes {arg_names = ["a", "b"], result_name = "c"} {
    %0 = tcg.tensor %x in [0, 4) name "x" gemm_axis x -> tensor<4x4xi32> {
      %1 = tcg.tensor %y in [0, 4) name "y" gemm_axis y -> tensor<4xi32> {
        %2 = tcg.reduce add %z in [0, 4) name "z" gemm_axis z -> i32 {
          %3 = tcg.input %a[%x, %z] : tensor<4x4xi8>
          %4 = tcg.input %b[%y, %z] : tensor<4x4xi8>
          %5 = tcg.compute mul %3, %4 : (i8, i8) -> i32
          tcg.yield %5 : i32
        }
        tcg.yield %2 : i32
      }
      tcg.yield %1 : tensor<4xi32>
    }
    tcg.yield %0 : tensor<4x4xi32>
  }
  return %c : tensor<4x4xi32>
}

