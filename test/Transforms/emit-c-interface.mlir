// RUN: raf-opt --raf-emit-c-interface %s | FileCheck %s

// CHECK: func.func @public_fn() attributes {llvm.emit_c_interface}
func.func @public_fn() { return }
// CHECK: func.func private @private_fn() {
func.func private @private_fn() { return }
// CHECK: func.func private @external_fn()
// CHECK-NOT: emit_c_interface
func.func private @external_fn()
