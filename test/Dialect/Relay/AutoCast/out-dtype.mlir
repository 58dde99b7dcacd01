// RUN: raf-opt %s --raf-autocast | FileCheck %s --check-prefix=F16
// RUN: raf-opt %s --raf-autocast=out-dtype=f32 | FileCheck %s --check-prefix=F32
// RUN: raf-opt %s --raf-autocast=out-dtype=bf16 | FileCheck %s --check-prefix=BF16

// Function results in the AMP type are cast to out-dtype (default: the AMP
// type itself); results in another type (f32 losses and statistics, i32)
// are left alone. Tuple results are cast field by field.

// The loss (sum, never-cast) reads an f32 copy of the product; that cast
// is shared, so out-dtype=f32 reuses it for the results.
// F16-LABEL: func.func @outputs(
// F16-SAME: -> (tensor<2x2xf16>, tensor<f32>, tensor<2xi32>, tuple<tensor<2x2xf16>, tensor<2x2xf32>>)
// F16:        %[[P:.*]] = relay.nn.matmul
// F16-NEXT:   %[[PF:.*]] = relay.cast %[[P]] {dtype = f32}
// F16-NEXT:   %[[L:.*]] = relay.sum %[[PF]]
// F16-NEXT:   %[[T:.*]] = relay.tuple(%[[P]], %{{.*}}) : tensor<2x2xf16>, tensor<2x2xf32>
// F16-NEXT:   return %[[P]], %[[L]], %{{.*}}, %[[T]] :

// F32-LABEL: func.func @outputs(
// F32-SAME: -> (tensor<2x2xf32>, tensor<f32>, tensor<2xi32>, tuple<tensor<2x2xf32>, tensor<2x2xf32>>)
// F32:        %[[P:.*]] = relay.nn.matmul {{.*}} -> tensor<2x2xf16>
// F32-NEXT:   %[[PF:.*]] = relay.cast %[[P]] {dtype = f32}
// F32-NEXT:   %[[L:.*]] = relay.sum %[[PF]]
// F32-NEXT:   %[[T:.*]] = relay.tuple(%[[PF]], %{{.*}}) : tensor<2x2xf32>, tensor<2x2xf32>
// F32-NEXT:   return %[[PF]], %[[L]], %{{.*}}, %[[T]] : tensor<2x2xf32>, tensor<f32>, tensor<2xi32>, tuple<tensor<2x2xf32>, tensor<2x2xf32>>

// BF16-LABEL: func.func @outputs(
// BF16-SAME: -> (tensor<2x2xbf16>, tensor<f32>, tensor<2xi32>, tuple<tensor<2x2xbf16>, tensor<2x2xf32>>)
// BF16:        %[[P:.*]] = relay.nn.matmul {{.*}} -> tensor<2x2xf16>
// BF16:        %[[L:.*]] = relay.sum
// BF16-NEXT:   %[[PB:.*]] = relay.cast %[[P]] {dtype = bf16} : (tensor<2x2xf16>) -> tensor<2x2xbf16>
// BF16-NEXT:   %[[T:.*]] = relay.tuple(%[[PB]], %{{.*}}) : tensor<2x2xbf16>, tensor<2x2xf32>
// BF16-NEXT:   return %[[PB]], %[[L]], %{{.*}}, %[[T]]
func.func @outputs(%x: tensor<2x2xf32>, %i: tensor<2xi32>)
    -> (tensor<2x2xf32>, tensor<f32>, tensor<2xi32>, tuple<tensor<2x2xf32>, tensor<2x2xf32>>)
    attributes {raf.grad_params = array<i64: 0>} {
  %p = relay.nn.matmul %x, %x : (tensor<2x2xf32>, tensor<2x2xf32>)
  %l = relay.sum %p : (tensor<2x2xf32>)
  %t = relay.tuple(%p, %x) : tensor<2x2xf32>, tensor<2x2xf32>
  return %p, %l, %i, %t : tensor<2x2xf32>, tensor<f32>, tensor<2xi32>, tuple<tensor<2x2xf32>, tensor<2x2xf32>>
}

// A function that is called keeps its signature, so that its callers stay
// valid: its f16 result is cast back to the declared f32.
// F16-LABEL: func.func @called(
// F16-SAME: -> tensor<2x2xf32>
// F16:        %[[P:.*]] = relay.nn.matmul
// F16-NEXT:   %[[PF:.*]] = relay.cast %[[P]] {dtype = f32}
// F16-NEXT:   return %[[PF]] : tensor<2x2xf32>
// F16-LABEL: func.func @caller(
// F16-NEXT:   call @called(%arg0) : (tensor<2x2xf32>) -> tensor<2x2xf32>
func.func @called(%x: tensor<2x2xf32>) -> tensor<2x2xf32> attributes {raf.grad_params = array<i64: 0>} {
  %p = relay.nn.matmul %x, %x : (tensor<2x2xf32>, tensor<2x2xf32>)
  return %p : tensor<2x2xf32>
}

// Not a training graph: not converted.
func.func @caller(%x: tensor<2x2xf32>) -> tensor<2x2xf32> {
  %r = func.call @called(%x) : (tensor<2x2xf32>) -> tensor<2x2xf32>
  return %r : tensor<2x2xf32>
}
