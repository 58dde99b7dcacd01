// RUN: raf-opt --raf-check-allocations="max-bytes=4096" --verify-diagnostics --split-input-file %s

func.func @too_large() {
  // expected-error @below {{cannot allocate a buffer of type 'memref<1025xf32>': it exceeds max-bytes=4096}}
  %a = memref.alloc() : memref<1025xf32>
  memref.dealloc %a : memref<1025xf32>
  return
}

// -----

func.func @stack_too_large() {
  // expected-error @below {{cannot allocate a buffer of type 'memref<65x64xi8>': it exceeds max-bytes=4096}}
  %a = memref.alloca() : memref<65x64xi8>
  return
}

// -----

// At the limit, and dynamic sizes (checked when the code runs), pass.
func.func @fits(%n: index) {
  %a = memref.alloc() : memref<1024xf32>
  %b = memref.alloc(%n) : memref<?xf32>
  memref.dealloc %a : memref<1024xf32>
  memref.dealloc %b : memref<?xf32>
  return
}
