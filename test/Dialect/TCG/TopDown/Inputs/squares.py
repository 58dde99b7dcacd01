"""Prints a tcg kernel computing x^(2^n) by n squarings of one value."""
import sys

n = int(sys.argv[1])
lines = [
    'func.func @squares(%xin: tensor<4xf32>) -> tensor<4xf32> {',
    '  %r = tcg.kernel "squares" (%x = %xin : tensor<4xf32>) -> tensor<4xf32> {',
    '    %t = tcg.tensor %i in [0, 4) name "i" -> tensor<4xf32> {',
    '      %v0 = tcg.input %x[%i] : tensor<4xf32>',
]
for k in range(n):
    lines.append(f'      %v{k + 1} = tcg.compute mul %v{k}, %v{k} : (f32, f32) -> f32')
lines += [
    f'      tcg.yield %v{n} : f32',
    '    }',
    '    tcg.yield %t : tensor<4xf32>',
    '  }',
    '  return %r : tensor<4xf32>',
    '}',
]
print("\n".join(lines))
