// RUN: raf-opt %s -split-input-file -verify-diagnostics

// One case per diagnostic of the tcg verifiers (lib/Dialect/TCG/IR/TCGOps.cpp)
// and of the custom parsers. Cases that the custom syntax cannot express use
// the generic form.

//===----------------------------------------------------------------------===//
// tcg.kernel
//===----------------------------------------------------------------------===//

func.func @kernel_block_arguments(%x: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{'tcg.kernel' op body must have one argument per input, of the input's type}}
  %r = "tcg.kernel"(%x) ({
  ^bb0(%a: tensor<5xf32>):
    %t = tcg.tensor %i in [0, 4) -> tensor<4xf32> {
      %v = tcg.input %a[%i] : tensor<5xf32>
      tcg.yield %v : f32
    }
    tcg.yield %t : tensor<4xf32>
  }) : (tensor<4xf32>) -> tensor<4xf32>
  return %r : tensor<4xf32>
}

// -----

func.func @kernel_arg_names(%x: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{'tcg.kernel' op has 2 arg_names for 1 inputs}}
  %r = tcg.kernel (%a = %x : tensor<4xf32>) -> tensor<4xf32>
      attributes {arg_names = ["a", "b"]} {
    %t = tcg.tensor %i in [0, 4) -> tensor<4xf32> {
      %v = tcg.input %a[%i] : tensor<4xf32>
      tcg.yield %v : f32
    }
    tcg.yield %t : tensor<4xf32>
  }
  return %r : tensor<4xf32>
}

// -----

// No branches, loops or other computation inside a kernel.
func.func @kernel_foreign_op(%x: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{'tcg.kernel' op may only contain tcg operations other than tcg.kernel (no branches, loops or other computation), found 'arith.constant'}}
  %r = tcg.kernel (%a = %x : tensor<4xf32>) -> tensor<4xf32> {
    %t = tcg.tensor %i in [0, 4) -> tensor<4xf32> {
      // expected-note @+1 {{found here}}
      %c = arith.constant 1.0 : f32
      tcg.yield %c : f32
    }
    tcg.yield %t : tensor<4xf32>
  }
  return %r : tensor<4xf32>
}

// -----

func.func @kernel_nested_kernel(%x: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{found 'tcg.kernel'}}
  %r = tcg.kernel (%a = %x : tensor<4xf32>) -> tensor<4xf32> {
    // expected-note @+1 {{found here}}
    %inner = tcg.kernel (%b = %a : tensor<4xf32>) -> tensor<4xf32> {
      %t = tcg.tensor %i in [0, 4) -> tensor<4xf32> {
        %v = tcg.input %b[%i] : tensor<4xf32>
        tcg.yield %v : f32
      }
      tcg.yield %t : tensor<4xf32>
    }
    tcg.yield %inner : tensor<4xf32>
  }
  return %r : tensor<4xf32>
}

// -----

func.func @kernel_yields_argument(%x: tensor<4xf32>) -> tensor<4xf32> {
  %r = tcg.kernel (%a = %x : tensor<4xf32>) -> tensor<4xf32> {
    // expected-error @+1 {{'tcg.yield' op of a kernel must yield the result of one of the kernel's tcg.tensor computations}}
    tcg.yield %a : tensor<4xf32>
  }
  return %r : tensor<4xf32>
}

// -----

func.func @kernel_result_type(%x: tensor<4xf32>) -> tensor<4xf16> {
  // expected-error @+1 {{'tcg.kernel' op result type 'tensor<4xf16>' differs from the yielded 'tensor<4xf32>'}}
  %r = tcg.kernel (%a = %x : tensor<4xf32>) -> tensor<4xf16> {
    %t = tcg.tensor %i in [0, 4) -> tensor<4xf32> {
      %v = tcg.input %a[%i] : tensor<4xf32>
      tcg.yield %v : f32
    }
    tcg.yield %t : tensor<4xf32>
  }
  return %r : tensor<4xf16>
}

// -----

func.func @kernel_dynamic_operand(%x: tensor<?xf32>) {
  // expected-error @+1 {{'tcg.kernel' op operand #0 must be variadic of statically shaped tensor of any type values}}
  %r = tcg.kernel (%a = %x : tensor<?xf32>) -> tensor<4xf32> {
    %t = tcg.tensor %i in [0, 4) -> tensor<4xf32> {
      %v = tcg.input %a[%i] : tensor<?xf32>
      tcg.yield %v : f32
    }
    tcg.yield %t : tensor<4xf32>
  }
  return
}

// -----

//===----------------------------------------------------------------------===//
// tcg.tensor
//===----------------------------------------------------------------------===//

func.func @tensor_lower_bound(%x: tensor<4xf32>) -> tensor<3xf32> {
  %r = tcg.kernel (%a = %x : tensor<4xf32>) -> tensor<3xf32> {
    // expected-error @+1 {{'tcg.tensor' op lower bound must be 0, got 1}}
    %t = tcg.tensor %i in [1, 4) -> tensor<3xf32> {
      %v = tcg.input %a[%i] : tensor<4xf32>
      tcg.yield %v : f32
    }
    tcg.yield %t : tensor<3xf32>
  }
  return %r : tensor<3xf32>
}

// -----

func.func @tensor_empty_interval(%x: tensor<4xf32>) -> tensor<0xf32> {
  %r = tcg.kernel (%a = %x : tensor<4xf32>) -> tensor<0xf32> {
    // expected-error @+1 {{'tcg.tensor' op interval [0, 0) is empty}}
    %t = tcg.tensor %i in [0, 0) -> tensor<0xf32> {
      %v = tcg.input %a[%i] : tensor<4xf32>
      tcg.yield %v : f32
    }
    tcg.yield %t : tensor<0xf32>
  }
  return %r : tensor<0xf32>
}

// -----

func.func @tensor_gemm_axis(%x: tensor<4xf32>) -> tensor<4xf32> {
  %r = tcg.kernel (%a = %x : tensor<4xf32>) -> tensor<4xf32> {
    // expected-error @+1 {{gemm_axis must be x, y or z, got 'w'}}
    %t = tcg.tensor %i in [0, 4) gemm_axis w -> tensor<4xf32> {
      %v = tcg.input %a[%i] : tensor<4xf32>
      tcg.yield %v : f32
    }
    tcg.yield %t : tensor<4xf32>
  }
  return %r : tensor<4xf32>
}

// -----

func.func @tensor_iterator_argument(%x: tensor<4xf32>) -> tensor<4xf32> {
  %r = tcg.kernel (%a = %x : tensor<4xf32>) -> tensor<4xf32> {
    // expected-error @+1 {{'tcg.tensor' op body must have exactly one argument, the `index` iterator}}
    %t = "tcg.tensor"() <{lower = 0 : i64, upper = 4 : i64}> ({
    ^bb0(%i: index, %j: index):
      %v = tcg.input %a[%i] : tensor<4xf32>
      tcg.yield %v : f32
    }) : () -> tensor<4xf32>
    tcg.yield %t : tensor<4xf32>
  }
  return %r : tensor<4xf32>
}

// -----

func.func @tensor_extent(%x: tensor<4xf32>) -> tensor<3xf32> {
  %r = tcg.kernel (%a = %x : tensor<4xf32>) -> tensor<3xf32> {
    // expected-error @+1 {{'tcg.tensor' op result type 'tensor<3xf32>' must have the interval's size 4 as its first dimension}}
    %t = tcg.tensor %i in [0, 4) -> tensor<3xf32> {
      %v = tcg.input %a[%i] : tensor<4xf32>
      tcg.yield %v : f32
    }
    tcg.yield %t : tensor<3xf32>
  }
  return %r : tensor<3xf32>
}

// -----

func.func @tensor_body_with_nested_tensor(%x: tensor<4x4xf32>) -> tensor<4x4xf32> {
  %r = tcg.kernel (%a = %x : tensor<4x4xf32>) -> tensor<4x4xf32> {
    // expected-error @+1 {{'tcg.tensor' op body yielding a tensor must consist of one nested tcg.tensor and the yield of its result}}
    %t = tcg.tensor %i in [0, 4) -> tensor<4x4xf32> {
      %s = tcg.input %a[%i, %i] : tensor<4x4xf32>
      %u = tcg.tensor %j in [0, 4) -> tensor<4xf32> {
        %v = tcg.input %a[%i, %j] : tensor<4x4xf32>
        tcg.yield %v : f32
      }
      tcg.yield %u : tensor<4xf32>
    }
    tcg.yield %t : tensor<4x4xf32>
  }
  return %r : tensor<4x4xf32>
}

// -----

func.func @tensor_nested_shape(%x: tensor<4x4xf32>) -> tensor<4x5xf32> {
  %r = tcg.kernel (%a = %x : tensor<4x4xf32>) -> tensor<4x5xf32> {
    // expected-error @+1 {{'tcg.tensor' op result type 'tensor<4x5xf32>' must be the interval's size followed by the nested dimensions 'tensor<4xf32>'}}
    %t = tcg.tensor %i in [0, 4) -> tensor<4x5xf32> {
      %u = tcg.tensor %j in [0, 4) -> tensor<4xf32> {
        %v = tcg.input %a[%i, %j] : tensor<4x4xf32>
        tcg.yield %v : f32
      }
      tcg.yield %u : tensor<4xf32>
    }
    tcg.yield %t : tensor<4x5xf32>
  }
  return %r : tensor<4x5xf32>
}

// -----

func.func @tensor_yields_index(%x: tensor<4xf32>) -> tensor<4xindex> {
  %r = tcg.kernel (%a = %x : tensor<4xf32>) -> tensor<4xindex> {
    %t = tcg.tensor %i in [0, 4) -> tensor<4xindex> {
      // expected-error @+1 {{'tcg.yield' op of a tcg.tensor must yield a tensor or a scalar, got 'index'}}
      tcg.yield %i : index
    }
    tcg.yield %t : tensor<4xindex>
  }
  return %r : tensor<4xindex>
}

// -----

// Only a tensor whose body is the nested tensor may contain a tensor.
func.func @tensor_in_scalar_body(%x: tensor<4xf32>) -> tensor<4xf32> {
  %r = tcg.kernel (%a = %x : tensor<4xf32>) -> tensor<4xf32> {
    %t = tcg.tensor %i in [0, 4) -> tensor<4xf32> {
      // expected-error @+1 {{'tcg.tensor' op may only be nested in a tcg.tensor whose body yields it (only tensors contain tensors)}}
      %u = tcg.tensor %j in [0, 4) -> tensor<4xf32> {
        %w = tcg.input %a[%j] : tensor<4xf32>
        tcg.yield %w : f32
      }
      %v = tcg.input %a[%i] : tensor<4xf32>
      tcg.yield %v : f32
    }
    tcg.yield %t : tensor<4xf32>
  }
  return %r : tensor<4xf32>
}

// -----

func.func @tensor_scalar_result_type(%x: tensor<4xf32>) -> tensor<4xf64> {
  %r = tcg.kernel (%a = %x : tensor<4xf32>) -> tensor<4xf64> {
    // expected-error @+1 {{'tcg.tensor' op yields scalars of type 'f32', so its result type must be 'tensor<4xf32>', got 'tensor<4xf64>'}}
    %t = tcg.tensor %i in [0, 4) -> tensor<4xf64> {
      %v = tcg.input %a[%i] : tensor<4xf32>
      tcg.yield %v : f32
    }
    tcg.yield %t : tensor<4xf64>
  }
  return %r : tensor<4xf64>
}

// -----

func.func @tensor_outside_kernel() {
  // expected-error @+1 {{'tcg.tensor' op expects parent op to be one of 'tcg.kernel, tcg.tensor'}}
  %t = tcg.tensor %i in [0, 4) -> tensor<4xindex> {
    tcg.yield %i : index
  }
  return
}

// -----

// Only tensors contain tensors: not a reduce.
func.func @tensor_in_reduce(%x: tensor<4xf32>) -> tensor<4xf32> {
  %r = tcg.kernel (%a = %x : tensor<4xf32>) -> tensor<4xf32> {
    %t = tcg.tensor %i in [0, 4) -> tensor<4xf32> {
      %s = tcg.reduce add %k in [0, 4) -> f32 {
        // expected-error @+1 {{'tcg.tensor' op expects parent op to be one of 'tcg.kernel, tcg.tensor'}}
        %u = tcg.tensor %j in [0, 4) -> tensor<4xf32> {
          %w = tcg.input %a[%j] : tensor<4xf32>
          tcg.yield %w : f32
        }
        %v = tcg.input %a[%k] : tensor<4xf32>
        tcg.yield %v : f32
      }
      tcg.yield %s : f32
    }
    tcg.yield %t : tensor<4xf32>
  }
  return %r : tensor<4xf32>
}

// -----

func.func @tensor_unknown_keyword(%x: tensor<4xf32>) {
  %r = tcg.kernel (%a = %x : tensor<4xf32>) -> tensor<4xf32> {
    // expected-error @+1 {{expected '->'}}
    %t = tcg.tensor %i in [0, 4) named "i" -> tensor<4xf32> {
      %v = tcg.input %a[%i] : tensor<4xf32>
      tcg.yield %v : f32
    }
    tcg.yield %t : tensor<4xf32>
  }
  return
}

// -----

//===----------------------------------------------------------------------===//
// tcg.reduce
//===----------------------------------------------------------------------===//

func.func @reduce_sub(%x: tensor<4xf32>) -> tensor<1xf32> {
  %r = tcg.kernel (%a = %x : tensor<4xf32>) -> tensor<1xf32> {
    %t = tcg.tensor %i in [0, 1) -> tensor<1xf32> {
      // expected-error @+1 {{'tcg.reduce' op cannot reduce with 'sub' (not associative); use add, mul, max or min}}
      %s = tcg.reduce sub %k in [0, 4) -> f32 {
        %v = tcg.input %a[%k] : tensor<4xf32>
        tcg.yield %v : f32
      }
      tcg.yield %s : f32
    }
    tcg.yield %t : tensor<1xf32>
  }
  return %r : tensor<1xf32>
}

// -----

func.func @reduce_unknown_kind(%x: tensor<4xf32>) {
  %r = tcg.kernel (%a = %x : tensor<4xf32>) -> tensor<1xf32> {
    %t = tcg.tensor %i in [0, 1) -> tensor<1xf32> {
      // expected-error @+1 {{unknown reduction 'sum'}}
      %s = tcg.reduce sum %k in [0, 4) -> f32 {
        %v = tcg.input %a[%k] : tensor<4xf32>
        tcg.yield %v : f32
      }
      tcg.yield %s : f32
    }
    tcg.yield %t : tensor<1xf32>
  }
  return
}

// -----

func.func @reduce_interval(%x: tensor<4xf32>) -> tensor<1xf32> {
  %r = tcg.kernel (%a = %x : tensor<4xf32>) -> tensor<1xf32> {
    %t = tcg.tensor %i in [0, 1) -> tensor<1xf32> {
      // expected-error @+1 {{'tcg.reduce' op interval [0, -1) is empty}}
      %s = tcg.reduce max %k in [0, -1) -> f32 {
        %v = tcg.input %a[%k] : tensor<4xf32>
        tcg.yield %v : f32
      }
      tcg.yield %s : f32
    }
    tcg.yield %t : tensor<1xf32>
  }
  return %r : tensor<1xf32>
}

// -----

func.func @reduce_yield_type(%x: tensor<4xf32>) -> tensor<1xf64> {
  %r = tcg.kernel (%a = %x : tensor<4xf32>) -> tensor<1xf64> {
    %t = tcg.tensor %i in [0, 1) -> tensor<1xf64> {
      %s = tcg.reduce add %k in [0, 4) -> f64 {
        %v = tcg.input %a[%k] : tensor<4xf32>
        // expected-error @+1 {{'tcg.yield' op yields 'f32' but the reduction produces 'f64'}}
        tcg.yield %v : f32
      }
      tcg.yield %s : f64
    }
    tcg.yield %t : tensor<1xf64>
  }
  return %r : tensor<1xf64>
}

// -----

func.func @reduce_in_kernel(%x: tensor<4xf32>) {
  %r = tcg.kernel (%a = %x : tensor<4xf32>) -> tensor<1xf32> {
    // expected-error @+1 {{'tcg.reduce' op expects parent op to be one of 'tcg.tensor, tcg.reduce'}}
    %s = tcg.reduce add %k in [0, 4) -> f32 {
      %v = tcg.input %a[%k] : tensor<4xf32>
      tcg.yield %v : f32
    }
    %t = tcg.tensor %i in [0, 1) -> tensor<1xf32> {
      %v = tcg.input %a[%i] : tensor<4xf32>
      tcg.yield %v : f32
    }
    tcg.yield %t : tensor<1xf32>
  }
  return
}

// -----

//===----------------------------------------------------------------------===//
// tcg.compute
//===----------------------------------------------------------------------===//

func.func @compute_mixed_kinds(%x: tensor<4xf32>, %y: tensor<4xi32>) -> tensor<4xf32> {
  %r = tcg.kernel (%a = %x : tensor<4xf32>, %b = %y : tensor<4xi32>) -> tensor<4xf32> {
    %t = tcg.tensor %i in [0, 4) -> tensor<4xf32> {
      %u = tcg.input %a[%i] : tensor<4xf32>
      %v = tcg.input %b[%i] : tensor<4xi32>
      // expected-error @+1 {{'tcg.compute' op operands and result must all be integers or all floats, got 'i32' and 'f32'}}
      %w = tcg.compute add %u, %v : (f32, i32) -> f32
      tcg.yield %w : f32
    }
    tcg.yield %t : tensor<4xf32>
  }
  return %r : tensor<4xf32>
}

// -----

func.func @compute_narrowing(%x: tensor<4xi32>) -> tensor<4xi8> {
  %r = tcg.kernel (%a = %x : tensor<4xi32>) -> tensor<4xi8> {
    %t = tcg.tensor %i in [0, 4) -> tensor<4xi8> {
      %u = tcg.input %a[%i] : tensor<4xi32>
      // expected-error @+1 {{'tcg.compute' op result type 'i8' is narrower than the operand type 'i32'}}
      %w = tcg.compute mul %u, %u : (i32, i32) -> i8
      tcg.yield %w : i8
    }
    tcg.yield %t : tensor<4xi8>
  }
  return %r : tensor<4xi8>
}

// -----

func.func @compute_same_width(%x: tensor<4xf16>) -> tensor<4xbf16> {
  %r = tcg.kernel (%a = %x : tensor<4xf16>) -> tensor<4xbf16> {
    %t = tcg.tensor %i in [0, 4) -> tensor<4xbf16> {
      %u = tcg.input %a[%i] : tensor<4xf16>
      // expected-error @+1 {{'tcg.compute' op operand type 'f16' and result type 'bf16' have the same width but differ}}
      %w = tcg.compute max %u, %u : (f16, f16) -> bf16
      tcg.yield %w : bf16
    }
    tcg.yield %t : tensor<4xbf16>
  }
  return %r : tensor<4xbf16>
}

// -----

func.func @compute_index_operand(%x: tensor<4xf32>) {
  %r = tcg.kernel (%a = %x : tensor<4xf32>) -> tensor<4xindex> {
    %t = tcg.tensor %i in [0, 4) -> tensor<4xindex> {
      // expected-error @+1 {{'tcg.compute' op operand #0 must be signless integer or floating-point scalar, but got 'index'}}
      %w = tcg.compute add %i, %i : (index, index) -> index
      tcg.yield %w : index
    }
    tcg.yield %t : tensor<4xindex>
  }
  return
}

// -----

//===----------------------------------------------------------------------===//
// tcg.input
//===----------------------------------------------------------------------===//

func.func @input_symbols(%x: tensor<4xf32>) -> tensor<4xf32> {
  %r = tcg.kernel (%a = %x : tensor<4xf32>) -> tensor<4xf32> {
    %t = tcg.tensor %i in [0, 4) -> tensor<4xf32> {
      // expected-error @+1 {{'tcg.input' op access map must not have symbols}}
      %v = "tcg.input"(%a, %i, %i) <{map = affine_map<(d0)[s0] -> (d0)>}> : (tensor<4xf32>, index, index) -> f32
      tcg.yield %v : f32
    }
    tcg.yield %t : tensor<4xf32>
  }
  return %r : tensor<4xf32>
}

// -----

func.func @input_map_arity(%x: tensor<4xf32>) -> tensor<4xf32> {
  %r = tcg.kernel (%a = %x : tensor<4xf32>) -> tensor<4xf32> {
    %t = tcg.tensor %i in [0, 4) -> tensor<4xf32> {
      // expected-error @+1 {{'tcg.input' op access map has 2 dimensions but there are 1 iterator operands}}
      %v = "tcg.input"(%a, %i) <{map = affine_map<(d0, d1) -> (d0 + d1)>}> : (tensor<4xf32>, index) -> f32
      tcg.yield %v : f32
    }
    tcg.yield %t : tensor<4xf32>
  }
  return %r : tensor<4xf32>
}

// -----

func.func @input_map_rank(%x: tensor<4x4xf32>) -> tensor<4xf32> {
  %r = tcg.kernel (%a = %x : tensor<4x4xf32>) -> tensor<4xf32> {
    %t = tcg.tensor %i in [0, 4) -> tensor<4xf32> {
      // expected-error @+1 {{'tcg.input' op access map has 1 results for a source of rank 2}}
      %v = tcg.input %a[%i] : tensor<4x4xf32>
      tcg.yield %v : f32
    }
    tcg.yield %t : tensor<4xf32>
  }
  return %r : tensor<4xf32>
}

// -----

func.func @input_unused_iterator(%x: tensor<4xf32>) -> tensor<4x4xf32> {
  %r = tcg.kernel (%a = %x : tensor<4xf32>) -> tensor<4x4xf32> {
    %t = tcg.tensor %i in [0, 4) -> tensor<4x4xf32> {
      %u = tcg.tensor %j in [0, 4) -> tensor<4xf32> {
        // expected-error @+1 {{'tcg.input' op iterator operand #1 is not used by the access map}}
        %v = "tcg.input"(%a, %i, %j) <{map = affine_map<(d0, d1) -> (d0)>}> : (tensor<4xf32>, index, index) -> f32
        tcg.yield %v : f32
      }
      tcg.yield %u : tensor<4xf32>
    }
    tcg.yield %t : tensor<4x4xf32>
  }
  return %r : tensor<4x4xf32>
}

// -----

func.func @input_repeated_iterator(%x: tensor<8xf32>) -> tensor<4xf32> {
  %r = tcg.kernel (%a = %x : tensor<8xf32>) -> tensor<4xf32> {
    %t = tcg.tensor %i in [0, 4) -> tensor<4xf32> {
      // expected-error @+1 {{'tcg.input' op iterator operands #0 and #1 are the same value}}
      %v = "tcg.input"(%a, %i, %i) <{map = affine_map<(d0, d1) -> (d0 + d1)>}> : (tensor<8xf32>, index, index) -> f32
      tcg.yield %v : f32
    }
    tcg.yield %t : tensor<4xf32>
  }
  return %r : tensor<4xf32>
}

// -----

func.func @input_not_quasi_affine(%x: tensor<4xf32>) -> tensor<4xf32> {
  %r = tcg.kernel (%a = %x : tensor<4xf32>) -> tensor<4xf32> {
    %t = tcg.tensor %i in [0, 4) -> tensor<4xf32> {
      // expected-error @+1 {{'tcg.input' op access 'affine_map<(d0) -> (d0 floordiv -2)>' is not quasi-affine (products and divisions need a constant, divisors must be positive)}}
      %v = "tcg.input"(%a, %i) <{map = affine_map<(d0) -> (d0 floordiv -2)>}> : (tensor<4xf32>, index) -> f32
      tcg.yield %v : f32
    }
    tcg.yield %t : tensor<4xf32>
  }
  return %r : tensor<4xf32>
}

// -----

func.func @input_view_rank(%x: tensor<4xf32>) -> tensor<4xf32> {
  %r = tcg.kernel (%a = %x : tensor<4xf32>) -> tensor<4xf32> {
    %t = tcg.tensor %i in [0, 4) -> tensor<4xf32> {
      // expected-error @+1 {{'tcg.input' op pad_high has 2 values for a source of rank 1}}
      %v = tcg.input %a[%i] pad_high [1, 1] : tensor<4xf32>
      tcg.yield %v : f32
    }
    tcg.yield %t : tensor<4xf32>
  }
  return %r : tensor<4xf32>
}

// -----

func.func @input_negative_padding(%x: tensor<4xf32>) -> tensor<4xf32> {
  %r = tcg.kernel (%a = %x : tensor<4xf32>) -> tensor<4xf32> {
    %t = tcg.tensor %i in [0, 4) -> tensor<4xf32> {
      // expected-error @+1 {{'tcg.input' op pad_low values must be >= 0}}
      %v = tcg.input %a[%i] pad_low [-1] : tensor<4xf32>
      tcg.yield %v : f32
    }
    tcg.yield %t : tensor<4xf32>
  }
  return %r : tensor<4xf32>
}

// -----

func.func @input_zero_dilation(%x: tensor<4xf32>) -> tensor<4xf32> {
  %r = tcg.kernel (%a = %x : tensor<4xf32>) -> tensor<4xf32> {
    %t = tcg.tensor %i in [0, 4) -> tensor<4xf32> {
      // expected-error @+1 {{'tcg.input' op dilation values must be >= 1}}
      %v = tcg.input %a[%i] dilation [0] : tensor<4xf32>
      tcg.yield %v : f32
    }
    tcg.yield %t : tensor<4xf32>
  }
  return %r : tensor<4xf32>
}

// -----

// A 3-wide window over 8 elements needs padding on both sides.
func.func @input_out_of_range(%x: tensor<8xf32>) -> tensor<8xf32> {
  %r = tcg.kernel (%a = %x : tensor<8xf32>) -> tensor<8xf32> {
    %t = tcg.tensor %i in [0, 8) -> tensor<8xf32> {
      %s = tcg.reduce add %k in [0, 3) -> f32 {
        // expected-error @+1 {{'tcg.input' op index 0 ranges over [0, 9], outside the source dimension [0, 8)}}
        %v = tcg.input %a[%i + %k] : tensor<8xf32>
        tcg.yield %v : f32
      }
      tcg.yield %s : f32
    }
    tcg.yield %t : tensor<8xf32>
  }
  return %r : tensor<8xf32>
}

// -----

func.func @input_out_of_padded_view(%x: tensor<8xf32>) -> tensor<8xf32> {
  %r = tcg.kernel (%a = %x : tensor<8xf32>) -> tensor<8xf32> {
    %t = tcg.tensor %i in [0, 8) -> tensor<8xf32> {
      %s = tcg.reduce add %k in [0, 3) -> f32 {
        // expected-error @+1 {{'tcg.input' op index 0 ranges over [-1, 8], outside the view dimension [0, 9)}}
        %v = tcg.input %a[%i + %k - 1] pad_low [1] : tensor<8xf32>
        tcg.yield %v : f32
      }
      tcg.yield %s : f32
    }
    tcg.yield %t : tensor<8xf32>
  }
  return %r : tensor<8xf32>
}

// -----

func.func @input_overflow(%x: tensor<8xf32>) -> tensor<8xf32> {
  %r = tcg.kernel (%a = %x : tensor<8xf32>) -> tensor<8xf32> {
    %t = tcg.tensor %i in [0, 8) -> tensor<8xf32> {
      // expected-error @+1 {{'tcg.input' op the range of index 0 overflows}}
      %v = tcg.input %a[%i * 4611686018427387904] : tensor<8xf32>
      tcg.yield %v : f32
    }
    tcg.yield %t : tensor<8xf32>
  }
  return %r : tensor<8xf32>
}

// -----

func.func @input_result_type(%x: tensor<4xf32>) -> tensor<4xf16> {
  %r = tcg.kernel (%a = %x : tensor<4xf32>) -> tensor<4xf16> {
    %t = tcg.tensor %i in [0, 4) -> tensor<4xf16> {
      // expected-error @+1 {{'tcg.input' op failed to verify that result is the element type of the source}}
      %v = "tcg.input"(%a, %i) <{map = affine_map<(d0) -> (d0)>}> : (tensor<4xf32>, index) -> f16
      tcg.yield %v : f16
    }
    tcg.yield %t : tensor<4xf16>
  }
  return %r : tensor<4xf16>
}

// -----

func.func @input_source_type(%x: tensor<4xf32>) {
  %r = tcg.kernel (%a = %x : tensor<4xf32>) -> tensor<4xf32> {
    %t = tcg.tensor %i in [0, 4) -> tensor<4xf32> {
      // expected-error @+1 {{expected a tensor type for the source, got 'f32'}}
      %v = tcg.input %a[%i] : f32
      tcg.yield %v : f32
    }
    tcg.yield %t : tensor<4xf32>
  }
  return
}

// -----

//===----------------------------------------------------------------------===//
// tcg.yield
//===----------------------------------------------------------------------===//

func.func @yield_outside() {
  %c = arith.constant 0.0 : f32
  // expected-error @+1 {{'tcg.yield' op expects parent op to be one of 'tcg.kernel, tcg.tensor, tcg.reduce'}}
  tcg.yield %c : f32
}
