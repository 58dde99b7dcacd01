// The intrinsics of Rieber 2022, Tab. 3.1 in the intrinsic library, as
// --tcg-print-intrinsics prints them (their tensor expressions), and the
// printed library parses again.
// RUN: raf-opt %s --tcg-print-intrinsics -o /dev/null | FileCheck %s
// RUN: raf-opt %s --tcg-print-intrinsics -o /dev/null | raf-opt -o /dev/null
// RUN: raf-opt %s --tcg-print-intrinsics="names=vv.exp.16,mv.div.max.16x16" -o /dev/null | FileCheck %s --check-prefix=SELECTED
// The dataflow embedding refuses a unary operation with an error.
// RUN: not raf-opt %s --tcg-dataflow-embed="intrinsic=vv.exp.16" -o /dev/null 2>&1 | FileCheck %s --check-prefix=DATAFLOW

// CHECK: // vs.add.16: c[x] = v[x] + s[0]
// CHECK: // vs.mul.16: c[x] = v[x] * s[0]
// CHECK: // vs.sub.16: c[x] = v[x] - s[0]
// CHECK: // vs.div.16: c[x] = v[x] / s[0]
// CHECK: // vs.max.16: c[x] = max(v[x], s[0])
// CHECK: // vv.add.16: c[x] = a[x] + b[x]
// CHECK: // vv.mul.16: c[x] = a[x] * b[x]
// CHECK: // vv.sub.16: c[x] = a[x] - b[x]
// CHECK: // vv.div.16: c[x] = a[x] / b[x]
// CHECK: // vv.max.16: c[x] = max(a[x], b[x])
// CHECK: // vv.exp.16: c[x] = exp(a[x])
// CHECK: // red.add.16: c[x] = add_{z} a[z]
// CHECK: // red.mul.16: c[x] = mul_{z} a[z]
// CHECK: // red.max.16: c[x] = max_{z} a[z]
// CHECK: // dot.add.add.16: c[x] = add_{z} (a[z] + b[z])
// CHECK: // dot.add.mul.16: c[x] = mul_{z} (a[z] + b[z])
// CHECK: // dot.add.max.16: c[x] = max_{z} (a[z] + b[z])
// CHECK: // dot.mul.add.16: c[x] = add_{z} (a[z] * b[z])
// CHECK: // dot.mul.mul.16: c[x] = mul_{z} (a[z] * b[z])
// CHECK: // dot.mul.max.16: c[x] = max_{z} (a[z] * b[z])
// CHECK: // dot.sub.add.16: c[x] = add_{z} (a[z] - b[z])
// CHECK: // dot.sub.mul.16: c[x] = mul_{z} (a[z] - b[z])
// CHECK: // dot.sub.max.16: c[x] = max_{z} (a[z] - b[z])
// CHECK: // dot.div.add.16: c[x] = add_{z} (a[z] / b[z])
// CHECK: // dot.div.mul.16: c[x] = mul_{z} (a[z] / b[z])
// CHECK: // dot.div.max.16: c[x] = max_{z} (a[z] / b[z])
// CHECK: // dot.max.add.16: c[x] = add_{z} max(a[z], b[z])
// CHECK: // dot.max.mul.16: c[x] = mul_{z} max(a[z], b[z])
// CHECK: // dot.max.max.16: c[x] = max_{z} max(a[z], b[z])
// CHECK: // dot.exp.add.16: c[x] = add_{z} exp(a[z])
// CHECK: // dot.exp.mul.16: c[x] = mul_{z} exp(a[z])
// CHECK: // dot.exp.max.16: c[x] = max_{z} exp(a[z])
// CHECK: // mv.add.add.16x16: c[y] = add_{z} (a[z] + b[y, z])
// CHECK: // mv.add.mul.16x16: c[y] = mul_{z} (a[z] + b[y, z])
// CHECK: // mv.add.max.16x16: c[y] = max_{z} (a[z] + b[y, z])
// CHECK: // mv.mul.add.16x16: c[y] = add_{z} (a[z] * b[y, z])
// CHECK: // mv.mul.mul.16x16: c[y] = mul_{z} (a[z] * b[y, z])
// CHECK: // mv.mul.max.16x16: c[y] = max_{z} (a[z] * b[y, z])
// CHECK: // mv.sub.add.16x16: c[y] = add_{z} (a[z] - b[y, z])
// CHECK: // mv.sub.mul.16x16: c[y] = mul_{z} (a[z] - b[y, z])
// CHECK: // mv.sub.max.16x16: c[y] = max_{z} (a[z] - b[y, z])
// CHECK: // mv.div.add.16x16: c[y] = add_{z} (a[z] / b[y, z])
// CHECK: // mv.div.mul.16x16: c[y] = mul_{z} (a[z] / b[y, z])
// CHECK: // mv.div.max.16x16: c[y] = max_{z} (a[z] / b[y, z])
// CHECK: // mv.max.add.16x16: c[y] = add_{z} max(a[z], b[y, z])
// CHECK: // mv.max.mul.16x16: c[y] = mul_{z} max(a[z], b[y, z])
// CHECK: // mv.max.max.16x16: c[y] = max_{z} max(a[z], b[y, z])
// CHECK: // mv.exp.add.16x16: c[y] = add_{z} exp(b[y, z])
// CHECK: // mv.exp.mul.16x16: c[y] = mul_{z} exp(b[y, z])
// CHECK: // mv.exp.max.16x16: c[y] = max_{z} exp(b[y, z])

// SELECTED:      // vv.exp.16: c[x] = exp(a[x])
// SELECTED-NEXT: //   x: [0, 16)
// SELECTED-NEXT: //   a: tensor<16xf32>
// SELECTED-NEXT: //   c: tensor<16xf32>
// SELECTED-NEXT: func.func @vv.exp.16(
// SELECTED:        tcg.compute exp %{{.*}} : (f32) -> f32
// SELECTED:      // mv.div.max.16x16: c[y] = max_{z} (a[z] / b[y, z])
// SELECTED:        tcg.reduce max %z in [0, 16) name "z" -> f32 {
// SELECTED:        tcg.compute div %{{.*}}, %{{.*}} : (f32, f32) -> f32

// DATAFLOW: error: intrinsic 'vv.exp.16': tensor expression 'vv.exp.16' applies 'exp', a unary operation; the dataflow embedding models two-operand statements only
func.func @exp(%xin: tensor<32xf32>) -> tensor<32xf32> {
  %r = tcg.kernel "exp" (%x = %xin : tensor<32xf32>) -> tensor<32xf32> {
    %0 = tcg.tensor %i in [0, 32) name "i" -> tensor<32xf32> {
      %v = tcg.input %x[%i] : tensor<32xf32>
      %e = tcg.compute exp %v : (f32) -> f32
      tcg.yield %e : f32
    }
    tcg.yield %0 : tensor<32xf32>
  }
  return %r : tensor<32xf32>
}
