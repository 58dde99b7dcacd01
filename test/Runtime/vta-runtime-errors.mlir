// The VTA runtime cannot hand an error back to the compiled code that calls
// it: it records the first one, skips later launches, and raf-run reports it
// located at the entry function, with exit code 1. Here the host code calls
// the runtime directly with a binary that is not a VTA program.
// RUN: not raf-run %s --entry=main --target=vta-sim --no-compile-cache 2>&1 | FileCheck %s

// CHECK: error: cannot load the VTA program 'bad': {{.*}}
// CHECK-NOT: vta-sim: kernels=

memref.global "private" constant @bad_binary : memref<4xi8> = dense<[82, 65, 70, 45]>
memref.global "private" constant @bad_name : memref<3xi8> = dense<[98, 97, 100]>
func.func private @rafVTALaunch(memref<*xi8>, memref<*xi8>, memref<*xi8>, memref<*xi8>, memref<*xi32>, i64, i64, i64, i64, i64) attributes {llvm.emit_c_interface}

func.func @main(%x: tensor<16xi8>, %w: tensor<16xi8>) -> tensor<16xi32> {
  %binary = memref.get_global @bad_binary : memref<4xi8>
  %name = memref.get_global @bad_name : memref<3xi8>
  %b = memref.cast %binary : memref<4xi8> to memref<*xi8>
  %n = memref.cast %name : memref<3xi8> to memref<*xi8>
  %xb = bufferization.to_buffer %x read_only : tensor<16xi8> to memref<16xi8>
  %wb = bufferization.to_buffer %w read_only : tensor<16xi8> to memref<16xi8>
  %xu = memref.cast %xb : memref<16xi8> to memref<*xi8>
  %wu = memref.cast %wb : memref<16xi8> to memref<*xi8>
  %out = memref.alloc() : memref<16xi32>
  %ou = memref.cast %out : memref<16xi32> to memref<*xi32>
  %c0 = arith.constant 0 : i64
  %c4 = arith.constant 4 : i64
  %c64 = arith.constant 64 : i64
  call @rafVTALaunch(%b, %n, %xu, %wu, %ou, %c0, %c0, %c0, %c4, %c64) : (memref<*xi8>, memref<*xi8>, memref<*xi8>, memref<*xi8>, memref<*xi32>, i64, i64, i64, i64, i64) -> ()
  %r = bufferization.to_tensor %out restrict writable : memref<16xi32> to tensor<16xi32>
  return %r : tensor<16xi32>
}
