// RUN: raf-opt --raf-parallelize-loops="min-work=64" %s | FileCheck %s

// A marked tile loop becomes the nest's parallel loop; the marked loop inside
// it stays sequential.
// CHECK-LABEL: func.func @marked
// CHECK: scf.parallel (%{{.*}}) = (%{{.*}}) to (%{{.*}}) step (%{{.*}}) {
// CHECK: scf.for
// CHECK: scf.reduce
// CHECK-NOT: raf.parallel
func.func @marked(%out: memref<64x64xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  %c64 = arith.constant 64 : index
  %zero = arith.constant 0.0 : f32
  scf.for %i = %c0 to %c64 step %c8 {
    scf.for %j = %c0 to %c64 step %c1 {
      memref.store %zero, %out[%i, %j] : memref<64x64xf32>
    } {raf.parallel}
  } {raf.parallel}
  return
}

// A marked loop of one iteration has nothing to share: the next one inside
// is taken.
// CHECK-LABEL: func.func @single_trip
// CHECK: scf.for %{{.*}} = %c0 to %c1 step %c1 {
// CHECK-NEXT: scf.parallel
func.func @single_trip(%out: memref<1x64xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c64 = arith.constant 64 : index
  %zero = arith.constant 0.0 : f32
  scf.for %i = %c0 to %c1 step %c1 {
    scf.for %j = %c0 to %c64 step %c1 {
      memref.store %zero, %out[%i, %j] : memref<1x64xf32>
    } {raf.parallel}
  } {raf.parallel}
  return
}

// Nested parallel loops: only the outermost stays parallel.
// CHECK-LABEL: func.func @nested
// CHECK: scf.parallel
// CHECK-NOT: scf.parallel
// CHECK: scf.for
func.func @nested(%out: memref<64x64xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c64 = arith.constant 64 : index
  %zero = arith.constant 0.0 : f32
  scf.parallel (%i) = (%c0) to (%c64) step (%c1) {
    scf.parallel (%j) = (%c0) to (%c64) step (%c1) {
      memref.store %zero, %out[%i, %j] : memref<64x64xf32>
    }
  }
  return
}

// Too little work (4 x 4 < min-work): sequential.
// CHECK-LABEL: func.func @small
// CHECK-NOT: scf.parallel
// CHECK: scf.for
// CHECK: scf.for
func.func @small(%out: memref<4x4xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %zero = arith.constant 0.0 : f32
  scf.parallel (%i, %j) = (%c0, %c0) to (%c4, %c4) step (%c1, %c1) {
    memref.store %zero, %out[%i, %j] : memref<4x4xf32>
  }
  return
}

// A parallel loop over several dimensions stays parallel over the shortest
// prefix with 16 iterations (1 x 64); the innermost dimension becomes a
// sequential loop inside, which LLVM can vectorise.
// CHECK-LABEL: func.func @leading_dimensions
// CHECK: scf.parallel (%[[N:.*]], %[[C:.*]]) = (%c0, %c0) to (%c1, %c64) step (%c1, %c1) {
// CHECK-NEXT: scf.for %[[P:.*]] = %c0 to %c3136 step %c1 {
// CHECK-NEXT: memref.store %{{.*}}, %{{.*}}[%[[N]], %[[C]], %[[P]]]
func.func @leading_dimensions(%out: memref<1x64x3136xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c64 = arith.constant 64 : index
  %c3136 = arith.constant 3136 : index
  %zero = arith.constant 0.0 : f32
  scf.parallel (%n, %c, %p) = (%c0, %c0, %c0) to (%c1, %c64, %c3136) step (%c1, %c1, %c1) {
    memref.store %zero, %out[%n, %c, %p] : memref<1x64x3136xf32>
  }
  return
}
