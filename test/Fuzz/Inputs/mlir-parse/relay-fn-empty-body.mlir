
func.func @fn_return_type() {
  %f = relay.fn(%x: tensor<f32>) -> tensor<i32> {
    // expected-erroeturn %x : tensor<f32>
  }
  return
}

