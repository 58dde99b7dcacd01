// RUN: raf-opt %s --raf-inplace-update -verify-diagnostics -o /dev/null

// The argument updated in place is also returned unchanged: writing it
// would change that result.
// expected-error @+1 {{argument #0 is updated in place by result #0 but is also returned unchanged as result #1}}
func.func @returned_too(%w: tensor<4xf32> {raf.updatable})
    -> (tensor<4xf32> {raf.updates_arg = 0 : i64}, tensor<4xf32>) {
  %n = tensor.empty() : tensor<4xf32>
  return %n, %w : tensor<4xf32>, tensor<4xf32>
}
