// RUN: raf-opt %s --convert-relay-to-tcg | FileCheck %s --check-prefix=ALL
// RUN: raf-opt %s --convert-relay-to-tcg=ops=nn.dense | FileCheck %s --check-prefix=DENSE
// RUN: raf-opt %s --convert-relay-to-tcg="ops=relay.nn.conv2d,nn.dense" | FileCheck %s --check-prefix=ALL
// RUN: not raf-opt %s --convert-relay-to-tcg=ops=nn.dense,nn.relu 2>&1 | FileCheck %s --check-prefix=NOFORM
// RUN: not raf-opt %s --convert-relay-to-tcg=ops=nn.conv3d 2>&1 | FileCheck %s --check-prefix=UNKNOWN

// `ops` selects the operators to convert; the others (and operators without
// a tensor-expression form, such as nn.relu) are left alone.

// ALL-LABEL: func.func @model
// ALL:         tcg.kernel "nn.conv2d"
// ALL:         relay.nn.relu
// ALL:         tcg.kernel "nn.dense"
// ALL-NOT:     relay.nn.conv2d
// ALL-NOT:     relay.nn.dense

// DENSE-LABEL: func.func @model
// DENSE:         relay.nn.conv2d
// DENSE:         relay.nn.relu
// DENSE:         tcg.kernel "nn.dense"
// DENSE-NOT:     relay.nn.dense

// NOFORM: error: --convert-relay-to-tcg: 'relay.nn.relu' has no tensor-expression form (TensorExprOpInterface); operators with one: relay.nn.batch_matmul, relay.nn.conv2d, relay.nn.conv2d_transpose, relay.nn.dense, relay.nn.matmul

// UNKNOWN: error: --convert-relay-to-tcg: unknown operator 'nn.conv3d'
func.func @model(%x: tensor<1x3x6x6xf32>, %w: tensor<2x3x3x3xf32>, %v: tensor<4x32xf32>) -> tensor<1x4xf32> {
  %0 = relay.nn.conv2d %x, %w : (tensor<1x3x6x6xf32>, tensor<2x3x3x3xf32>)
  %1 = relay.nn.relu %0 : (tensor<1x2x4x4xf32>)
  %2 = relay.reshape %1 {newshape = array<i64: 1, 32>} : (tensor<1x2x4x4xf32>)
  %3 = relay.nn.dense %2, %v : (tensor<1x32xf32>, tensor<4x32xf32>)
  return %3 : tensor<1x4xf32>
}
