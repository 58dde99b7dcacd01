// RUN: timeout 10 raf-opt %s -split-input-file -verify-diagnostics --convert-relay-to-tcg --tcg-dataflow-embed -o /dev/null
// RUN: %python %S/../../../Tools/Inputs/bounded.py 1 300 raf-opt %s -split-input-file --convert-relay-to-tcg --tcg-dataflow-embed -o /dev/null | FileCheck %s --check-prefix=BOUNDED
// RUN: not raf-opt %s -split-input-file --convert-relay-to-tcg --tcg-dataflow-embed --max-embedding-extent=63 -o /dev/null 2>&1 | FileCheck %s --check-prefix=EXTENT
// RUN: not raf-opt %s -split-input-file --convert-relay-to-tcg --tcg-dataflow-embed --max-embedding-extent=4294967296 --max-iteration-points=1000 -o /dev/null 2>&1 | FileCheck %s --check-prefix=POINTS
// RUN: not raf-opt %s -split-input-file --convert-relay-to-tcg --tcg-dataflow-embed --tcg-print-embeddings -o /dev/null --max-embedding-extent=64 --max-iteration-points=1024 2>&1 | FileCheck %s --check-prefix=RAISED

// Operators whose iteration domain exceeds the resource limits
// (docs/resource-limits.md) are refused before their dataflow graph or
// constraint problem is built: the model's work grows with every extent (a
// 2^31-long reduction took minutes and 17 GB). The error names the limit and
// its option, within a second and 300 MB (the whole file: both refusals and
// the ordinary layer's embedding).

func.func @huge_reduction(%x: tensor<1x2147483648xi8>, %w: tensor<16x2147483648xi8>) -> tensor<1x16xi32> {
  // expected-error @+1 {{cannot embed 'vta.gemm.1x16x16': iterator 'k': 2147483648 points exceed the embedding extent limit of 1048576 points (the default); raise it with --max-embedding-extent}}
  %0 = relay.nn.dense %x, %w {out_dtype = i32} : (tensor<1x2147483648xi8>, tensor<16x2147483648xi8>) -> tensor<1x16xi32>
  return %0 : tensor<1x16xi32>
}

// -----

// Every extent within its limit, but 2^41 points in all.
func.func @wide(%x: tensor<2048x1048576xi8>, %w: tensor<1024x1048576xi8>) -> tensor<2048x1024xi32> {
  // expected-error @+1 {{cannot embed 'vta.gemm.1x16x16': the iteration domain: 2199023255552 points exceed the iteration domain limit of 1099511627776 points (the default); raise it with --max-iteration-points}}
  %0 = relay.nn.dense %x, %w {out_dtype = i32} : (tensor<2048x1048576xi8>, tensor<1024x1048576xi8>) -> tensor<2048x1024xi32>
  return %0 : tensor<2048x1024xi32>
}

// -----

// A layer of ordinary size still embeds.
func.func @dense(%x: tensor<1x64xi8>, %w: tensor<16x64xi8>) -> tensor<1x16xi32> {
  %0 = relay.nn.dense %x, %w {out_dtype = i32} : (tensor<1x64xi8>, tensor<16x64xi8>) -> tensor<1x16xi32>
  return %0 : tensor<1x16xi32>
}

// BOUNDED: exit 1
// BOUNDED-NEXT: within 1 s
// BOUNDED-NEXT: within 300 MB
// BOUNDED: error: cannot embed 'vta.gemm.1x16x16': iterator 'k': 2147483648 points exceed

// EXTENT: error: cannot embed 'vta.gemm.1x16x16': iterator 'k': 2147483648 points exceed the embedding extent limit of 63 points (--max-embedding-extent)
// EXTENT: error: cannot embed 'vta.gemm.1x16x16': iterator 'm': 2048 points exceed the embedding extent limit of 63 points (--max-embedding-extent)
// EXTENT: error: cannot embed 'vta.gemm.1x16x16': iterator 'k': 64 points exceed the embedding extent limit of 63 points (--max-embedding-extent)

// POINTS: error: cannot embed 'vta.gemm.1x16x16': the iteration domain: 34359738368 points exceed the iteration domain limit of 1000 points (--max-iteration-points)
// POINTS: error: cannot embed 'vta.gemm.1x16x16': the iteration domain: 2199023255552 points exceed the iteration domain limit of 1000 points (--max-iteration-points)
// POINTS: error: cannot embed 'vta.gemm.1x16x16': the iteration domain: 1024 points exceed the iteration domain limit of 1000 points (--max-iteration-points)

// RAISED: exceed the embedding extent limit of 64 points (--max-embedding-extent)
// RAISED: exceed the embedding extent limit of 64 points (--max-embedding-extent)
// RAISED: embedding of vta.gemm.1x16x16 (relaxed) into nn.dense
// RAISED: search: optimal
