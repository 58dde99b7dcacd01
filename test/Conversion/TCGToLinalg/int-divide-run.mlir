// Integer tcg.compute div cannot trap: x / 0 gives 0 and INT_MIN / -1 wraps
// to INT_MIN, as relay.divide lowers (LLVM's sdiv would raise SIGFPE).
// RUN: %python -c "import numpy as np; np.save('%t.a.npy', np.array([7, -7, 5, -2147483648, -2147483648, 9], np.int32)); np.save('%t.b.npy', np.array([2, 2, 0, -1, 1, -3], np.int32))"
// RUN: raf-run %s --entry=divide --target=cpu --input=%t.a.npy --input=%t.b.npy --output=%t.q.npy
// RUN: %python -c "import numpy as np; q = np.load('%t.q.npy'); assert q.tolist() == [3, -3, 0, -2147483648, -2147483648, -3], q"
func.func @divide(%a: tensor<6xi32>, %b: tensor<6xi32>) -> tensor<6xi32> {
  %r = tcg.kernel "divide" (%x = %a : tensor<6xi32>, %y = %b : tensor<6xi32>) -> tensor<6xi32> {
    %0 = tcg.tensor %i in [0, 6) name "i" -> tensor<6xi32> {
      %1 = tcg.input %x[%i] : tensor<6xi32>
      %2 = tcg.input %y[%i] : tensor<6xi32>
      %3 = tcg.compute div %1, %2 : (i32, i32) -> i32
      tcg.yield %3 : i32
    }
    tcg.yield %0 : tensor<6xi32>
  }
  return %r : tensor<6xi32>
}
