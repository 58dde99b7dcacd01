// raf-run --target=vta-sim checks each packed kernel's DRAM image against the
// simulated-DRAM limit (--max-dram-bytes, docs/resource-limits.md) before
// allocating it, as raf-vta-sim does.
// RUN: raf-opt %s --convert-relay-to-tcg --tcg-dataflow-embed=mode=strict --tcg-apply-strategy -o %t.mlir
// RUN: raf-run %t.mlir --entry=dense --target=vta-sim --max-dram-bytes=1664 | FileCheck %s --check-prefix=FITS
// RUN: not raf-run %t.mlir --entry=dense --target=vta-sim --max-dram-bytes=1K 2>&1 | FileCheck %s --check-prefix=LIMIT

// FITS: vta-sim: kernels=1
// LIMIT: error: cannot simulate the launch's DRAM image: 1664 bytes exceed the simulated DRAM limit of 1024 bytes (--max-dram-bytes)

func.func @dense(%x: tensor<3x20xi8>, %w: tensor<24x20xi8>) -> tensor<3x24xi32> {
  %0 = relay.nn.dense %x, %w {out_dtype = i32} : (tensor<3x20xi8>, tensor<24x20xi8>) -> tensor<3x24xi32>
  return %0 : tensor<3x24xi32>
}
