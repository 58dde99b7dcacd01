// A C program with its own main that calls a relay function compiled by
// --raf-cpu-pipeline="entry-prefix=raf_" (test/Pipelines/cpu-entry-prefix.mlir):
// the module's @main is exported as raf_main / _mlir_ciface_raf_main.
#include <stdint.h>
#include <stdio.h>

// The descriptor of a rank-1 memref (MLIR's C interface).
typedef struct {
  float *allocated;
  float *aligned;
  int64_t offset;
  int64_t sizes[1];
  int64_t strides[1];
} MemRef1D;

// Arguments first, then the result as a caller-allocated out-parameter.
void _mlir_ciface_raf_main(MemRef1D *x, MemRef1D *result);

int main(void) {
  float x[4] = {1, 2, 3, 4}, y[4] = {0, 0, 0, 0};
  MemRef1D in = {x, x, 0, {4}, {1}}, out = {y, y, 0, {4}, {1}};
  _mlir_ciface_raf_main(&in, &out);
  printf("y = %g %g %g %g\n", y[0], y[1], y[2], y[3]);
  return 0;
}
