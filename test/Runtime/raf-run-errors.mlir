// Bad input to raf-run: every case is a diagnostic and exit code 1.
// RUN: rm -rf %t && mkdir -p %t
// RUN: %python -c "import numpy as np; np.save('%t/x23.npy', np.ones((2, 3), np.float32)); np.save('%t/x32.npy', np.ones((3, 2), np.float32)); np.save('%t/i23.npy', np.ones((2, 3), np.int32))"
// RUN: printf 'PK\003\004 not numpy' > %t/corrupt.npy
// RUN: %python -c "h = str({'descr': '<f4', 'fortran_order': False, 'shape': (1 << 40, 1 << 22)}).encode(); h += b' ' * (117 - len(h)) + b'\n'; open('%t/huge.npy', 'wb').write(b'\x93NUMPY\x01\x00' + bytes([len(h), 0]) + h)"
// RUN: %python -c "import numpy as np; np.save('%t/b.npy', np.array([2, 0, 1, 255], np.uint8).view(np.bool_)); np.save('%t/x4.npy', np.arange(4, dtype=np.float32)); np.save('%t/y4.npy', -np.arange(4, dtype=np.float32))"
// RUN: %python -c "open('%t/short.npy', 'wb').write(open('%t/x23.npy', 'rb').read()[:-4])"

// A missing function lists the functions that exist.
// RUN: not raf-run %s --entry=nope 2>&1 | FileCheck %s --check-prefix=MISSING
// MISSING: raf-run-errors.mlir:0:0: error: no function @nope in '{{.*}}raf-run-errors.mlir' (functions: @add, @tuple_result, @closure, @private_fn, @huge, @select, @empty_dense)

// Wrong number of inputs.
// RUN: not raf-run %s --entry=add --input=%t/x23.npy 2>&1 | FileCheck %s --check-prefix=COUNT
// COUNT: error: @add takes 2 argument(s) but 1 --input file(s) were given

// Wrong shape, wrong dtype (both types are printed).
// RUN: not raf-run %s --entry=add --input=%t/x23.npy --input=%t/x32.npy 2>&1 | FileCheck %s --check-prefix=SHAPE
// SHAPE: error: argument #1 from '{{.*}}x32.npy' is tensor<3x2xf32> but @add expects 'tensor<2x3xf32>'
// RUN: not raf-run %s --entry=add --target=interp --input=%t/i23.npy --input=%t/x23.npy 2>&1 | FileCheck %s --check-prefix=DTYPE
// DTYPE: error: argument #0 from '{{.*}}i23.npy' is tensor<2x3xi32> but @add expects 'tensor<2x3xf32>'

// Corrupt and truncated .npy files.
// RUN: not raf-run %s --entry=add --input=%t/corrupt.npy --input=%t/x23.npy 2>&1 | FileCheck %s --check-prefix=CORRUPT
// CORRUPT: error: cannot read argument #0: {{.*}}corrupt.npy: not a .npy file (missing the \x93NUMPY magic)
// RUN: not raf-run %s --entry=add --input=%t/short.npy --input=%t/x23.npy 2>&1 | FileCheck %s --check-prefix=SHORT
// SHORT: error: cannot read argument #0: {{.*}}short.npy: data is 20 bytes but shape and type tensor<2x3xf32> need 24
// RUN: not raf-run %s --entry=add --input=%t/missing.npy --input=%t/x23.npy 2>&1 | FileCheck %s --check-prefix=NOFILE
// NOFILE: error: cannot read argument #0: {{.*}}missing.npy: cannot open

// A header may claim any size: checked against the data before allocating.
// RUN: not raf-run %s --entry=add --input=%t/huge.npy --input=%t/x23.npy 2>&1 | FileCheck %s --check-prefix=HUGE
// HUGE: error: cannot read argument #0: {{.*}}huge.npy: data is 0 bytes but shape and type tensor<1099511627776x4194304xf32> need more than 2^63
// RUN: not raf-run %s --entry=huge 2>&1 | FileCheck %s --check-prefix=HUGE-RANDOM
// HUGE-RANDOM: error: cannot create argument #0: tensor<1099511627776x1024xf32>: 4503599627370496 bytes exceed the allocation limit of {{[0-9]+}} bytes (this machine's physical memory)

// --random-range only for random arguments, with finite bounds.
// RUN: not raf-run %s --entry=add --random-range=0,1 --input=%t/x23.npy --input=%t/x23.npy 2>&1 | FileCheck %s --check-prefix=RANGE-INPUT
// RANGE-INPUT: error: --random-range applies to random arguments; it cannot be combined with --input
// RUN: not raf-run %s --entry=add --random-range=0,inf 2>&1 | FileCheck %s --check-prefix=RANGE-INF
// RANGE-INF: error: --random-range bounds must be finite numbers

// Booleans: any non-zero byte is true, on both targets.
// RUN: raf-run %s --entry=select --target=cpu --input=%t/b.npy --input=%t/x4.npy --input=%t/y4.npy | FileCheck %s --check-prefix=BOOL
// RUN: raf-run %s --entry=select --target=interp --input=%t/b.npy --input=%t/x4.npy --input=%t/y4.npy | FileCheck %s --check-prefix=BOOL
// BOOL: [0, -1, 2, 3]

// Empty tensors run (and the tiling leaves empty products alone).
// RUN: raf-run %s --entry=empty_dense --target=cpu | FileCheck %s --check-prefix=EMPTY
// RUN: raf-run %s --entry=empty_dense --target=interp | FileCheck %s --check-prefix=EMPTY
// EMPTY: result #0: tensor<0x8xf32>
// EMPTY-NEXT: []

// More --output files than results.
// RUN: not raf-run %s --entry=add --output=%t/a.npy --output=%t/b.npy 2>&1 | FileCheck %s --check-prefix=OUTPUTS
// OUTPUTS: error: 2 --output file(s) given but @add has 1 result tensor(s)

// A tuple result is returned as its elements on the CPU target too
// (--raf-flatten-tuples); a reference does not lower.
// RUN: raf-run %s --entry=tuple_result --target=cpu --input=%t/x23.npy | FileCheck %s --check-prefix=TUPLE
// TUPLE: result #0: tensor<2x3xf32>
// TUPLE: result #1: tensor<2x3xf32>
// Closures compile once defunctionalised, but not one kept in a reference.
// RUN: not raf-run %s --entry=closure --target=cpu 2>&1 | FileCheck %s --check-prefix=CLOSURE
// CLOSURE: raf-run-errors.mlir:[[# @LINE + 36]]:11: error: 'relay.ref_new' op takes a function value (operand #0 of type '(tensor<2x3xf32>) -> tensor<2x3xf32>'); --relay-defunctionalize follows function values through calls, relay.if and tuples only; --target=interp runs this program
// CLOSURE: error: compiling for the CPU failed
// RUN: raf-run %s --entry=closure --target=interp --input=%t/x23.npy | FileCheck %s --check-prefix=CLOSURE-INTERP
// CLOSURE-INTERP: {{\[\[}}-1, -1, -1],
// RUN: not raf-run %s --entry=private_fn --target=cpu 2>&1 | FileCheck %s --check-prefix=PRIVATE
// PRIVATE: error: @private_fn is private; only public functions can be called

// Bad pipeline options and random ranges.
// RUN: not raf-run %s --entry=add --pipeline-options="bogus=1" 2>&1 | FileCheck %s --check-prefix=OPTIONS
// OPTIONS: error: invalid --pipeline-options 'bogus=1'
// RUN: not raf-run %s --entry=add --random-range=1,0 2>&1 | FileCheck %s --check-prefix=RANGE
// RANGE: error: --random-range takes two numbers low,high with low < high

// The same program runs on both targets when the input is right.
// RUN: raf-run %s --entry=add --target=cpu --input=%t/x23.npy --input=%t/x23.npy --print-results | FileCheck %s --check-prefix=OK
// RUN: raf-run %s --entry=add --target=interp --input=%t/x23.npy --input=%t/x23.npy --print-results | FileCheck %s --check-prefix=OK
// OK: result #0: tensor<2x3xf32>
// OK-NEXT: {{\[\[}}2, 2, 2],
// OK-NEXT: [2, 2, 2]]

func.func @add(%x: tensor<2x3xf32>, %y: tensor<2x3xf32>) -> tensor<2x3xf32> {
  %r = relay.add %x, %y : (tensor<2x3xf32>, tensor<2x3xf32>)
  return %r : tensor<2x3xf32>
}

func.func @tuple_result(%x: tensor<2x3xf32>)
    -> tuple<tensor<2x3xf32>, tensor<2x3xf32>> {
  %t = relay.tuple(%x, %x) : tensor<2x3xf32>, tensor<2x3xf32>
  return %t : tuple<tensor<2x3xf32>, tensor<2x3xf32>>
}

func.func @closure(%x: tensor<2x3xf32>) -> tensor<2x3xf32> {
  %f = relay.fn(%a: tensor<2x3xf32>) -> tensor<2x3xf32> {
    %n = relay.negative %a : (tensor<2x3xf32>)
    relay.return %n : tensor<2x3xf32>
  }
  %cell = relay.ref_new %f : (tensor<2x3xf32>) -> tensor<2x3xf32>
  %g = relay.ref_read %cell : !relay.ref<(tensor<2x3xf32>) -> tensor<2x3xf32>>
  %r = relay.call %g(%x) : (tensor<2x3xf32>) -> tensor<2x3xf32>
  return %r : tensor<2x3xf32>
}

func.func private @private_fn(%x: tensor<2x3xf32>) -> tensor<2x3xf32> {
  return %x : tensor<2x3xf32>
}

func.func @huge(%x: tensor<1099511627776x1024xf32>) -> tensor<1099511627776x1024xf32> {
  return %x : tensor<1099511627776x1024xf32>
}

func.func @select(%c: tensor<4xi1>, %x: tensor<4xf32>, %y: tensor<4xf32>) -> tensor<4xf32> {
  %r = relay.where %c, %x, %y : (tensor<4xi1>, tensor<4xf32>, tensor<4xf32>)
  return %r : tensor<4xf32>
}

func.func @empty_dense(%x: tensor<0x4xf32>, %w: tensor<8x4xf32>) -> tensor<0x8xf32> {
  %r = relay.nn.dense %x, %w : (tensor<0x4xf32>, tensor<8x4xf32>)
  return %r : tensor<0x8xf32>
}
