func.func @first(%lhs: tensor<4xi8>, %rhs: tensor<4xi8>) -> tensor<1xi32> {
  %c = tcg.kernel "user.dot.4" (%a = %lhs : tensor<4xi8>, %b = %rhs : tensor<4xi8>) -> tensor<1xi32> {
    %0 = tcg.tensor %x in [0, 1) -> tensor<1xi32> {
      %1 = tcg.reduce add %z in [0, 4) -> i32 {
        %2 = tcg.input %a[%z] : tensor<4xi8>
        %3 = tcg.input %b[%z] : tensor<4xi8>
        %4 = tcg.compute mul %2, %3 : (i8, i8) -> i32
        tcg.yield %4 : i32
      }
      tcg.yield %1 : i32
    }
    tcg.yield %0 : tensor<1xi32>
  }
  return %c : tensor<1xi32>
}
func.func @second(%lhs: tensor<4xi8>, %rhs: tensor<4xi8>) -> tensor<1xi32> {
  %c = tcg.kernel "user.dot.4" (%a = %lhs : tensor<4xi8>, %b = %rhs : tensor<4xi8>) -> tensor<1xi32> {
    %0 = tcg.tensor %x in [0, 1) -> tensor<1xi32> {
      %1 = tcg.reduce add %z in [0, 4) -> i32 {
        %2 = tcg.input %a[%z] : tensor<4xi8>
        %3 = tcg.input %b[%z] : tensor<4xi8>
        %4 = tcg.compute mul %2, %3 : (i8, i8) -> i32
        tcg.yield %4 : i32
      }
      tcg.yield %1 : i32
    }
    tcg.yield %0 : tensor<1xi32>
  }
  return %c : tensor<1xi32>
}
