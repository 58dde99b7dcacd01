func.func @broken(%lhs: tensor<4xi8>) -> tensor<1xi32> {
  %c = tcg.kernel "user.broken" (%a = %lhs : tensor<4xi8>) -> tensor<1xi32> {
    %0 = tcg.tensor %x in [0, 1 -> tensor<1xi32> {
