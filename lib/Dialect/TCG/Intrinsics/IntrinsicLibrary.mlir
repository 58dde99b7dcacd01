// The hardware intrinsics as tensor compute graphs (Rieber 2022, §3.1.2,
// Tab. 3.1), compiled into RAFTCGIntrinsics and read with
// raf::tcg::lookupIntrinsic; `raf-opt --tcg-print-intrinsics` prints them.
//
// Each intrinsic is a function holding one named tcg.kernel. Iterators are
// named x, y, z after the axes of VTA's GEMM core: x the rows of the
// activation (BATCH), y the output channels (BLOCK_OUT), z the reduced
// input channels (BLOCK_IN); `gemm_axis` carries the same axis. All of them
// multiply int8 operands and accumulate in int32, as VTA's datapath does.
//
// An intrinsic that a target implements carries the `tcg.tensorize`
// attribute that --tcg-apply-strategy puts on the kernels it packs: the
// target and, for a GEMM core, the extents of x, y and z, from which the
// target's configuration follows. The others have no hardware lowering.

// VTA's GEMM core in the default configuration (BATCH = 1, BLOCK_IN =
// BLOCK_OUT = 16): c[x, y] = sum_z a[x, z] * b[y, z].
func.func @"vta.gemm.1x16x16"(%lhs: tensor<1x16xi8>, %rhs: tensor<16x16xi8>) -> tensor<1x16xi32> {
  %c = tcg.kernel "vta.gemm.1x16x16" (%a = %lhs : tensor<1x16xi8>, %b = %rhs : tensor<16x16xi8>)
      -> tensor<1x16xi32> attributes {arg_names = ["a", "b"], result_name = "c",
                                    tcg.tensorize = #tcg.tensorize<"vta.gemm.1x16x16", target = "vta", gemm = [1, 16, 16]>} {
    %0 = tcg.tensor %x in [0, 1) name "x" gemm_axis x -> tensor<1x16xi32> {
      %1 = tcg.tensor %y in [0, 16) name "y" gemm_axis y -> tensor<16xi32> {
        %2 = tcg.reduce add %z in [0, 16) name "z" gemm_axis z -> i32 {
          %3 = tcg.input %a[%x, %z] : tensor<1x16xi8>
          %4 = tcg.input %b[%y, %z] : tensor<16x16xi8>
          %5 = tcg.compute mul %3, %4 : (i8, i8) -> i32
          tcg.yield %5 : i32
        }
        tcg.yield %2 : i32
      }
      tcg.yield %1 : tensor<16xi32>
    }
    tcg.yield %0 : tensor<1x16xi32>
  }
  return %c : tensor<1x16xi32>
}

// VTA's 8x8x8 configuration (BATCH = BLOCK_IN = BLOCK_OUT = 8).
func.func @"vta.gemm.8x8x8"(%lhs: tensor<8x8xi8>, %rhs: tensor<8x8xi8>) -> tensor<8x8xi32> {
  %c = tcg.kernel "vta.gemm.8x8x8" (%a = %lhs : tensor<8x8xi8>, %b = %rhs : tensor<8x8xi8>)
      -> tensor<8x8xi32> attributes {arg_names = ["a", "b"], result_name = "c",
                                  tcg.tensorize = #tcg.tensorize<"vta.gemm.8x8x8", target = "vta", gemm = [8, 8, 8]>} {
    %0 = tcg.tensor %x in [0, 8) name "x" gemm_axis x -> tensor<8x8xi32> {
      %1 = tcg.tensor %y in [0, 8) name "y" gemm_axis y -> tensor<8xi32> {
        %2 = tcg.reduce add %z in [0, 8) name "z" gemm_axis z -> i32 {
          %3 = tcg.input %a[%x, %z] : tensor<8x8xi8>
          %4 = tcg.input %b[%y, %z] : tensor<8x8xi8>
          %5 = tcg.compute mul %3, %4 : (i8, i8) -> i32
          tcg.yield %5 : i32
        }
        tcg.yield %2 : i32
      }
      tcg.yield %1 : tensor<8xi32>
    }
    tcg.yield %0 : tensor<8x8xi32>
  }
  return %c : tensor<8x8xi32>
}

// Matrix-vector product (Tab. 3.1's Matrix-Vector with mul and add):
// c[y] = sum_z a[z] * b[y, z].
func.func @"gemv.16x16"(%lhs: tensor<16xi8>, %rhs: tensor<16x16xi8>) -> tensor<16xi32> {
  %c = tcg.kernel "gemv.16x16" (%a = %lhs : tensor<16xi8>, %b = %rhs : tensor<16x16xi8>)
      -> tensor<16xi32> attributes {arg_names = ["a", "b"], result_name = "c"} {
    %0 = tcg.tensor %y in [0, 16) name "y" gemm_axis y -> tensor<16xi32> {
      %1 = tcg.reduce add %z in [0, 16) name "z" gemm_axis z -> i32 {
        %2 = tcg.input %a[%z] : tensor<16xi8>
        %3 = tcg.input %b[%y, %z] : tensor<16x16xi8>
        %4 = tcg.compute mul %2, %3 : (i8, i8) -> i32
        tcg.yield %4 : i32
      }
      tcg.yield %1 : i32
    }
    tcg.yield %0 : tensor<16xi32>
  }
  return %c : tensor<16xi32>
}

// Dot product (Tab. 3.1's Dot with mul and add): c[x] = sum_z a[z] * b[z].
// The scalar result is a one-element tensor, the "loop of length one" that
// Fig. 3.2 wraps scalars in.
func.func @"dot.16"(%lhs: tensor<16xi8>, %rhs: tensor<16xi8>) -> tensor<1xi32> {
  %c = tcg.kernel "dot.16" (%a = %lhs : tensor<16xi8>, %b = %rhs : tensor<16xi8>)
      -> tensor<1xi32> attributes {arg_names = ["a", "b"], result_name = "c"} {
    %0 = tcg.tensor %x in [0, 1) name "x" gemm_axis x -> tensor<1xi32> {
      %1 = tcg.reduce add %z in [0, 16) name "z" gemm_axis z -> i32 {
        %2 = tcg.input %a[%z] : tensor<16xi8>
        %3 = tcg.input %b[%z] : tensor<16xi8>
        %4 = tcg.compute mul %2, %3 : (i8, i8) -> i32
        tcg.yield %4 : i32
      }
      tcg.yield %1 : i32
    }
    tcg.yield %0 : tensor<1xi32>
  }
  return %c : tensor<1xi32>
}

// The instruction set of Rieber 2022, Tab. 3.1 (modelled after VIP and
// Cambricon), in float32 at one size, 16 (sizes are not searched: padding
// and tiling are applied after selection, §3.3.2): vector-scalar (vs.*),
// vector-vector (vv.*), reduction (red.*), dot (dot.<element>.<reduction>)
// and matrix-vector (mv.<element>.<reduction>). No target implements them.
// A scalar is a one-element tensor. `exp` is unary: vv.exp stands for both
// element-wise rows, and dot/mv with exp read one operand.

// Vector-scalar add (Tab. 3.1): c[x] = v[x] + s[0].
func.func @"vs.add.16"(%v_in: tensor<16xf32>, %s_in: tensor<1xf32>) -> tensor<16xf32> {
  %c = tcg.kernel "vs.add.16" (%v = %v_in : tensor<16xf32>, %s = %s_in : tensor<1xf32>)
      -> tensor<16xf32> attributes {arg_names = ["v", "s"], result_name = "c"} {
    %0 = tcg.tensor %x in [0, 16) name "x" -> tensor<16xf32> {
      %a = tcg.input %v[%x] : tensor<16xf32>
      %r = tcg.input %s[0] : tensor<1xf32>
      %e = tcg.compute add %a, %r : (f32, f32) -> f32
      tcg.yield %e : f32
    }
    tcg.yield %0 : tensor<16xf32>
  }
  return %c : tensor<16xf32>
}

// Vector-scalar mul (Tab. 3.1): c[x] = v[x] * s[0].
func.func @"vs.mul.16"(%v_in: tensor<16xf32>, %s_in: tensor<1xf32>) -> tensor<16xf32> {
  %c = tcg.kernel "vs.mul.16" (%v = %v_in : tensor<16xf32>, %s = %s_in : tensor<1xf32>)
      -> tensor<16xf32> attributes {arg_names = ["v", "s"], result_name = "c"} {
    %0 = tcg.tensor %x in [0, 16) name "x" -> tensor<16xf32> {
      %a = tcg.input %v[%x] : tensor<16xf32>
      %r = tcg.input %s[0] : tensor<1xf32>
      %e = tcg.compute mul %a, %r : (f32, f32) -> f32
      tcg.yield %e : f32
    }
    tcg.yield %0 : tensor<16xf32>
  }
  return %c : tensor<16xf32>
}

// Vector-scalar sub (Tab. 3.1): c[x] = v[x] - s[0].
func.func @"vs.sub.16"(%v_in: tensor<16xf32>, %s_in: tensor<1xf32>) -> tensor<16xf32> {
  %c = tcg.kernel "vs.sub.16" (%v = %v_in : tensor<16xf32>, %s = %s_in : tensor<1xf32>)
      -> tensor<16xf32> attributes {arg_names = ["v", "s"], result_name = "c"} {
    %0 = tcg.tensor %x in [0, 16) name "x" -> tensor<16xf32> {
      %a = tcg.input %v[%x] : tensor<16xf32>
      %r = tcg.input %s[0] : tensor<1xf32>
      %e = tcg.compute sub %a, %r : (f32, f32) -> f32
      tcg.yield %e : f32
    }
    tcg.yield %0 : tensor<16xf32>
  }
  return %c : tensor<16xf32>
}

// Vector-scalar div (Tab. 3.1): c[x] = v[x] / s[0].
func.func @"vs.div.16"(%v_in: tensor<16xf32>, %s_in: tensor<1xf32>) -> tensor<16xf32> {
  %c = tcg.kernel "vs.div.16" (%v = %v_in : tensor<16xf32>, %s = %s_in : tensor<1xf32>)
      -> tensor<16xf32> attributes {arg_names = ["v", "s"], result_name = "c"} {
    %0 = tcg.tensor %x in [0, 16) name "x" -> tensor<16xf32> {
      %a = tcg.input %v[%x] : tensor<16xf32>
      %r = tcg.input %s[0] : tensor<1xf32>
      %e = tcg.compute div %a, %r : (f32, f32) -> f32
      tcg.yield %e : f32
    }
    tcg.yield %0 : tensor<16xf32>
  }
  return %c : tensor<16xf32>
}

// Vector-scalar max (Tab. 3.1): c[x] = max(v[x], s[0]).
func.func @"vs.max.16"(%v_in: tensor<16xf32>, %s_in: tensor<1xf32>) -> tensor<16xf32> {
  %c = tcg.kernel "vs.max.16" (%v = %v_in : tensor<16xf32>, %s = %s_in : tensor<1xf32>)
      -> tensor<16xf32> attributes {arg_names = ["v", "s"], result_name = "c"} {
    %0 = tcg.tensor %x in [0, 16) name "x" -> tensor<16xf32> {
      %a = tcg.input %v[%x] : tensor<16xf32>
      %r = tcg.input %s[0] : tensor<1xf32>
      %e = tcg.compute max %a, %r : (f32, f32) -> f32
      tcg.yield %e : f32
    }
    tcg.yield %0 : tensor<16xf32>
  }
  return %c : tensor<16xf32>
}

// Vector-vector add (Tab. 3.1): c[x] = a[x] + b[x].
func.func @"vv.add.16"(%a_in: tensor<16xf32>, %b_in: tensor<16xf32>) -> tensor<16xf32> {
  %c = tcg.kernel "vv.add.16" (%a = %a_in : tensor<16xf32>, %b = %b_in : tensor<16xf32>)
      -> tensor<16xf32> attributes {arg_names = ["a", "b"], result_name = "c"} {
    %0 = tcg.tensor %x in [0, 16) name "x" -> tensor<16xf32> {
      %va = tcg.input %a[%x] : tensor<16xf32>
      %vb = tcg.input %b[%x] : tensor<16xf32>
      %e = tcg.compute add %va, %vb : (f32, f32) -> f32
      tcg.yield %e : f32
    }
    tcg.yield %0 : tensor<16xf32>
  }
  return %c : tensor<16xf32>
}

// Vector-vector mul (Tab. 3.1): c[x] = a[x] * b[x].
func.func @"vv.mul.16"(%a_in: tensor<16xf32>, %b_in: tensor<16xf32>) -> tensor<16xf32> {
  %c = tcg.kernel "vv.mul.16" (%a = %a_in : tensor<16xf32>, %b = %b_in : tensor<16xf32>)
      -> tensor<16xf32> attributes {arg_names = ["a", "b"], result_name = "c"} {
    %0 = tcg.tensor %x in [0, 16) name "x" -> tensor<16xf32> {
      %va = tcg.input %a[%x] : tensor<16xf32>
      %vb = tcg.input %b[%x] : tensor<16xf32>
      %e = tcg.compute mul %va, %vb : (f32, f32) -> f32
      tcg.yield %e : f32
    }
    tcg.yield %0 : tensor<16xf32>
  }
  return %c : tensor<16xf32>
}

// Vector-vector sub (Tab. 3.1): c[x] = a[x] - b[x].
func.func @"vv.sub.16"(%a_in: tensor<16xf32>, %b_in: tensor<16xf32>) -> tensor<16xf32> {
  %c = tcg.kernel "vv.sub.16" (%a = %a_in : tensor<16xf32>, %b = %b_in : tensor<16xf32>)
      -> tensor<16xf32> attributes {arg_names = ["a", "b"], result_name = "c"} {
    %0 = tcg.tensor %x in [0, 16) name "x" -> tensor<16xf32> {
      %va = tcg.input %a[%x] : tensor<16xf32>
      %vb = tcg.input %b[%x] : tensor<16xf32>
      %e = tcg.compute sub %va, %vb : (f32, f32) -> f32
      tcg.yield %e : f32
    }
    tcg.yield %0 : tensor<16xf32>
  }
  return %c : tensor<16xf32>
}

// Vector-vector div (Tab. 3.1): c[x] = a[x] / b[x].
func.func @"vv.div.16"(%a_in: tensor<16xf32>, %b_in: tensor<16xf32>) -> tensor<16xf32> {
  %c = tcg.kernel "vv.div.16" (%a = %a_in : tensor<16xf32>, %b = %b_in : tensor<16xf32>)
      -> tensor<16xf32> attributes {arg_names = ["a", "b"], result_name = "c"} {
    %0 = tcg.tensor %x in [0, 16) name "x" -> tensor<16xf32> {
      %va = tcg.input %a[%x] : tensor<16xf32>
      %vb = tcg.input %b[%x] : tensor<16xf32>
      %e = tcg.compute div %va, %vb : (f32, f32) -> f32
      tcg.yield %e : f32
    }
    tcg.yield %0 : tensor<16xf32>
  }
  return %c : tensor<16xf32>
}

// Vector-vector max (Tab. 3.1): c[x] = max(a[x], b[x]).
func.func @"vv.max.16"(%a_in: tensor<16xf32>, %b_in: tensor<16xf32>) -> tensor<16xf32> {
  %c = tcg.kernel "vv.max.16" (%a = %a_in : tensor<16xf32>, %b = %b_in : tensor<16xf32>)
      -> tensor<16xf32> attributes {arg_names = ["a", "b"], result_name = "c"} {
    %0 = tcg.tensor %x in [0, 16) name "x" -> tensor<16xf32> {
      %va = tcg.input %a[%x] : tensor<16xf32>
      %vb = tcg.input %b[%x] : tensor<16xf32>
      %e = tcg.compute max %va, %vb : (f32, f32) -> f32
      tcg.yield %e : f32
    }
    tcg.yield %0 : tensor<16xf32>
  }
  return %c : tensor<16xf32>
}

// Vector-vector exp (Tab. 3.1): c[x] = exp(a[x]). The one unary operation; it stands for Tab. 3.1's vector-scalar exp too.
func.func @"vv.exp.16"(%a_in: tensor<16xf32>) -> tensor<16xf32> {
  %c = tcg.kernel "vv.exp.16" (%a = %a_in : tensor<16xf32>)
      -> tensor<16xf32> attributes {arg_names = ["a"], result_name = "c"} {
    %0 = tcg.tensor %x in [0, 16) name "x" -> tensor<16xf32> {
      %va = tcg.input %a[%x] : tensor<16xf32>
      %e = tcg.compute exp %va : (f32) -> f32
      tcg.yield %e : f32
    }
    tcg.yield %0 : tensor<16xf32>
  }
  return %c : tensor<16xf32>
}

// Reduction add (Tab. 3.1): c[0] = add_z a[z].
func.func @"red.add.16"(%a_in: tensor<16xf32>) -> tensor<1xf32> {
  %c = tcg.kernel "red.add.16" (%a = %a_in : tensor<16xf32>)
      -> tensor<1xf32> attributes {arg_names = ["a"], result_name = "c"} {
    %0 = tcg.tensor %x in [0, 1) name "x" -> tensor<1xf32> {
      %1 = tcg.reduce add %z in [0, 16) name "z" -> f32 {
        %va = tcg.input %a[%z] : tensor<16xf32>
        tcg.yield %va : f32
      }
      tcg.yield %1 : f32
    }
    tcg.yield %0 : tensor<1xf32>
  }
  return %c : tensor<1xf32>
}

// Reduction mul (Tab. 3.1): c[0] = mul_z a[z].
func.func @"red.mul.16"(%a_in: tensor<16xf32>) -> tensor<1xf32> {
  %c = tcg.kernel "red.mul.16" (%a = %a_in : tensor<16xf32>)
      -> tensor<1xf32> attributes {arg_names = ["a"], result_name = "c"} {
    %0 = tcg.tensor %x in [0, 1) name "x" -> tensor<1xf32> {
      %1 = tcg.reduce mul %z in [0, 16) name "z" -> f32 {
        %va = tcg.input %a[%z] : tensor<16xf32>
        tcg.yield %va : f32
      }
      tcg.yield %1 : f32
    }
    tcg.yield %0 : tensor<1xf32>
  }
  return %c : tensor<1xf32>
}

// Reduction max (Tab. 3.1): c[0] = max_z a[z].
func.func @"red.max.16"(%a_in: tensor<16xf32>) -> tensor<1xf32> {
  %c = tcg.kernel "red.max.16" (%a = %a_in : tensor<16xf32>)
      -> tensor<1xf32> attributes {arg_names = ["a"], result_name = "c"} {
    %0 = tcg.tensor %x in [0, 1) name "x" -> tensor<1xf32> {
      %1 = tcg.reduce max %z in [0, 16) name "z" -> f32 {
        %va = tcg.input %a[%z] : tensor<16xf32>
        tcg.yield %va : f32
      }
      tcg.yield %1 : f32
    }
    tcg.yield %0 : tensor<1xf32>
  }
  return %c : tensor<1xf32>
}

// Dot add/add (Tab. 3.1): c[0] = add_z a[z] + b[z].
func.func @"dot.add.add.16"(%a_in: tensor<16xf32>, %b_in: tensor<16xf32>) -> tensor<1xf32> {
  %c = tcg.kernel "dot.add.add.16" (%a = %a_in : tensor<16xf32>, %b = %b_in : tensor<16xf32>)
      -> tensor<1xf32> attributes {arg_names = ["a", "b"], result_name = "c"} {
    %0 = tcg.tensor %x in [0, 1) name "x" -> tensor<1xf32> {
      %1 = tcg.reduce add %z in [0, 16) name "z" -> f32 {
        %va = tcg.input %a[%z] : tensor<16xf32>
        %vb = tcg.input %b[%z] : tensor<16xf32>
        %e = tcg.compute add %va, %vb : (f32, f32) -> f32
        tcg.yield %e : f32
      }
      tcg.yield %1 : f32
    }
    tcg.yield %0 : tensor<1xf32>
  }
  return %c : tensor<1xf32>
}

// Dot add/mul (Tab. 3.1): c[0] = mul_z a[z] + b[z].
func.func @"dot.add.mul.16"(%a_in: tensor<16xf32>, %b_in: tensor<16xf32>) -> tensor<1xf32> {
  %c = tcg.kernel "dot.add.mul.16" (%a = %a_in : tensor<16xf32>, %b = %b_in : tensor<16xf32>)
      -> tensor<1xf32> attributes {arg_names = ["a", "b"], result_name = "c"} {
    %0 = tcg.tensor %x in [0, 1) name "x" -> tensor<1xf32> {
      %1 = tcg.reduce mul %z in [0, 16) name "z" -> f32 {
        %va = tcg.input %a[%z] : tensor<16xf32>
        %vb = tcg.input %b[%z] : tensor<16xf32>
        %e = tcg.compute add %va, %vb : (f32, f32) -> f32
        tcg.yield %e : f32
      }
      tcg.yield %1 : f32
    }
    tcg.yield %0 : tensor<1xf32>
  }
  return %c : tensor<1xf32>
}

// Dot add/max (Tab. 3.1): c[0] = max_z a[z] + b[z].
func.func @"dot.add.max.16"(%a_in: tensor<16xf32>, %b_in: tensor<16xf32>) -> tensor<1xf32> {
  %c = tcg.kernel "dot.add.max.16" (%a = %a_in : tensor<16xf32>, %b = %b_in : tensor<16xf32>)
      -> tensor<1xf32> attributes {arg_names = ["a", "b"], result_name = "c"} {
    %0 = tcg.tensor %x in [0, 1) name "x" -> tensor<1xf32> {
      %1 = tcg.reduce max %z in [0, 16) name "z" -> f32 {
        %va = tcg.input %a[%z] : tensor<16xf32>
        %vb = tcg.input %b[%z] : tensor<16xf32>
        %e = tcg.compute add %va, %vb : (f32, f32) -> f32
        tcg.yield %e : f32
      }
      tcg.yield %1 : f32
    }
    tcg.yield %0 : tensor<1xf32>
  }
  return %c : tensor<1xf32>
}

// Dot mul/add (Tab. 3.1): c[0] = add_z a[z] * b[z].
func.func @"dot.mul.add.16"(%a_in: tensor<16xf32>, %b_in: tensor<16xf32>) -> tensor<1xf32> {
  %c = tcg.kernel "dot.mul.add.16" (%a = %a_in : tensor<16xf32>, %b = %b_in : tensor<16xf32>)
      -> tensor<1xf32> attributes {arg_names = ["a", "b"], result_name = "c"} {
    %0 = tcg.tensor %x in [0, 1) name "x" -> tensor<1xf32> {
      %1 = tcg.reduce add %z in [0, 16) name "z" -> f32 {
        %va = tcg.input %a[%z] : tensor<16xf32>
        %vb = tcg.input %b[%z] : tensor<16xf32>
        %e = tcg.compute mul %va, %vb : (f32, f32) -> f32
        tcg.yield %e : f32
      }
      tcg.yield %1 : f32
    }
    tcg.yield %0 : tensor<1xf32>
  }
  return %c : tensor<1xf32>
}

// Dot mul/mul (Tab. 3.1): c[0] = mul_z a[z] * b[z].
func.func @"dot.mul.mul.16"(%a_in: tensor<16xf32>, %b_in: tensor<16xf32>) -> tensor<1xf32> {
  %c = tcg.kernel "dot.mul.mul.16" (%a = %a_in : tensor<16xf32>, %b = %b_in : tensor<16xf32>)
      -> tensor<1xf32> attributes {arg_names = ["a", "b"], result_name = "c"} {
    %0 = tcg.tensor %x in [0, 1) name "x" -> tensor<1xf32> {
      %1 = tcg.reduce mul %z in [0, 16) name "z" -> f32 {
        %va = tcg.input %a[%z] : tensor<16xf32>
        %vb = tcg.input %b[%z] : tensor<16xf32>
        %e = tcg.compute mul %va, %vb : (f32, f32) -> f32
        tcg.yield %e : f32
      }
      tcg.yield %1 : f32
    }
    tcg.yield %0 : tensor<1xf32>
  }
  return %c : tensor<1xf32>
}

// Dot mul/max (Tab. 3.1): c[0] = max_z a[z] * b[z].
func.func @"dot.mul.max.16"(%a_in: tensor<16xf32>, %b_in: tensor<16xf32>) -> tensor<1xf32> {
  %c = tcg.kernel "dot.mul.max.16" (%a = %a_in : tensor<16xf32>, %b = %b_in : tensor<16xf32>)
      -> tensor<1xf32> attributes {arg_names = ["a", "b"], result_name = "c"} {
    %0 = tcg.tensor %x in [0, 1) name "x" -> tensor<1xf32> {
      %1 = tcg.reduce max %z in [0, 16) name "z" -> f32 {
        %va = tcg.input %a[%z] : tensor<16xf32>
        %vb = tcg.input %b[%z] : tensor<16xf32>
        %e = tcg.compute mul %va, %vb : (f32, f32) -> f32
        tcg.yield %e : f32
      }
      tcg.yield %1 : f32
    }
    tcg.yield %0 : tensor<1xf32>
  }
  return %c : tensor<1xf32>
}

// Dot sub/add (Tab. 3.1): c[0] = add_z a[z] - b[z].
func.func @"dot.sub.add.16"(%a_in: tensor<16xf32>, %b_in: tensor<16xf32>) -> tensor<1xf32> {
  %c = tcg.kernel "dot.sub.add.16" (%a = %a_in : tensor<16xf32>, %b = %b_in : tensor<16xf32>)
      -> tensor<1xf32> attributes {arg_names = ["a", "b"], result_name = "c"} {
    %0 = tcg.tensor %x in [0, 1) name "x" -> tensor<1xf32> {
      %1 = tcg.reduce add %z in [0, 16) name "z" -> f32 {
        %va = tcg.input %a[%z] : tensor<16xf32>
        %vb = tcg.input %b[%z] : tensor<16xf32>
        %e = tcg.compute sub %va, %vb : (f32, f32) -> f32
        tcg.yield %e : f32
      }
      tcg.yield %1 : f32
    }
    tcg.yield %0 : tensor<1xf32>
  }
  return %c : tensor<1xf32>
}

// Dot sub/mul (Tab. 3.1): c[0] = mul_z a[z] - b[z].
func.func @"dot.sub.mul.16"(%a_in: tensor<16xf32>, %b_in: tensor<16xf32>) -> tensor<1xf32> {
  %c = tcg.kernel "dot.sub.mul.16" (%a = %a_in : tensor<16xf32>, %b = %b_in : tensor<16xf32>)
      -> tensor<1xf32> attributes {arg_names = ["a", "b"], result_name = "c"} {
    %0 = tcg.tensor %x in [0, 1) name "x" -> tensor<1xf32> {
      %1 = tcg.reduce mul %z in [0, 16) name "z" -> f32 {
        %va = tcg.input %a[%z] : tensor<16xf32>
        %vb = tcg.input %b[%z] : tensor<16xf32>
        %e = tcg.compute sub %va, %vb : (f32, f32) -> f32
        tcg.yield %e : f32
      }
      tcg.yield %1 : f32
    }
    tcg.yield %0 : tensor<1xf32>
  }
  return %c : tensor<1xf32>
}

// Dot sub/max (Tab. 3.1): c[0] = max_z a[z] - b[z].
func.func @"dot.sub.max.16"(%a_in: tensor<16xf32>, %b_in: tensor<16xf32>) -> tensor<1xf32> {
  %c = tcg.kernel "dot.sub.max.16" (%a = %a_in : tensor<16xf32>, %b = %b_in : tensor<16xf32>)
      -> tensor<1xf32> attributes {arg_names = ["a", "b"], result_name = "c"} {
    %0 = tcg.tensor %x in [0, 1) name "x" -> tensor<1xf32> {
      %1 = tcg.reduce max %z in [0, 16) name "z" -> f32 {
        %va = tcg.input %a[%z] : tensor<16xf32>
        %vb = tcg.input %b[%z] : tensor<16xf32>
        %e = tcg.compute sub %va, %vb : (f32, f32) -> f32
        tcg.yield %e : f32
      }
      tcg.yield %1 : f32
    }
    tcg.yield %0 : tensor<1xf32>
  }
  return %c : tensor<1xf32>
}

// Dot div/add (Tab. 3.1): c[0] = add_z a[z] / b[z].
func.func @"dot.div.add.16"(%a_in: tensor<16xf32>, %b_in: tensor<16xf32>) -> tensor<1xf32> {
  %c = tcg.kernel "dot.div.add.16" (%a = %a_in : tensor<16xf32>, %b = %b_in : tensor<16xf32>)
      -> tensor<1xf32> attributes {arg_names = ["a", "b"], result_name = "c"} {
    %0 = tcg.tensor %x in [0, 1) name "x" -> tensor<1xf32> {
      %1 = tcg.reduce add %z in [0, 16) name "z" -> f32 {
        %va = tcg.input %a[%z] : tensor<16xf32>
        %vb = tcg.input %b[%z] : tensor<16xf32>
        %e = tcg.compute div %va, %vb : (f32, f32) -> f32
        tcg.yield %e : f32
      }
      tcg.yield %1 : f32
    }
    tcg.yield %0 : tensor<1xf32>
  }
  return %c : tensor<1xf32>
}

// Dot div/mul (Tab. 3.1): c[0] = mul_z a[z] / b[z].
func.func @"dot.div.mul.16"(%a_in: tensor<16xf32>, %b_in: tensor<16xf32>) -> tensor<1xf32> {
  %c = tcg.kernel "dot.div.mul.16" (%a = %a_in : tensor<16xf32>, %b = %b_in : tensor<16xf32>)
      -> tensor<1xf32> attributes {arg_names = ["a", "b"], result_name = "c"} {
    %0 = tcg.tensor %x in [0, 1) name "x" -> tensor<1xf32> {
      %1 = tcg.reduce mul %z in [0, 16) name "z" -> f32 {
        %va = tcg.input %a[%z] : tensor<16xf32>
        %vb = tcg.input %b[%z] : tensor<16xf32>
        %e = tcg.compute div %va, %vb : (f32, f32) -> f32
        tcg.yield %e : f32
      }
      tcg.yield %1 : f32
    }
    tcg.yield %0 : tensor<1xf32>
  }
  return %c : tensor<1xf32>
}

// Dot div/max (Tab. 3.1): c[0] = max_z a[z] / b[z].
func.func @"dot.div.max.16"(%a_in: tensor<16xf32>, %b_in: tensor<16xf32>) -> tensor<1xf32> {
  %c = tcg.kernel "dot.div.max.16" (%a = %a_in : tensor<16xf32>, %b = %b_in : tensor<16xf32>)
      -> tensor<1xf32> attributes {arg_names = ["a", "b"], result_name = "c"} {
    %0 = tcg.tensor %x in [0, 1) name "x" -> tensor<1xf32> {
      %1 = tcg.reduce max %z in [0, 16) name "z" -> f32 {
        %va = tcg.input %a[%z] : tensor<16xf32>
        %vb = tcg.input %b[%z] : tensor<16xf32>
        %e = tcg.compute div %va, %vb : (f32, f32) -> f32
        tcg.yield %e : f32
      }
      tcg.yield %1 : f32
    }
    tcg.yield %0 : tensor<1xf32>
  }
  return %c : tensor<1xf32>
}

// Dot max/add (Tab. 3.1): c[0] = add_z max(a[z], b[z]).
func.func @"dot.max.add.16"(%a_in: tensor<16xf32>, %b_in: tensor<16xf32>) -> tensor<1xf32> {
  %c = tcg.kernel "dot.max.add.16" (%a = %a_in : tensor<16xf32>, %b = %b_in : tensor<16xf32>)
      -> tensor<1xf32> attributes {arg_names = ["a", "b"], result_name = "c"} {
    %0 = tcg.tensor %x in [0, 1) name "x" -> tensor<1xf32> {
      %1 = tcg.reduce add %z in [0, 16) name "z" -> f32 {
        %va = tcg.input %a[%z] : tensor<16xf32>
        %vb = tcg.input %b[%z] : tensor<16xf32>
        %e = tcg.compute max %va, %vb : (f32, f32) -> f32
        tcg.yield %e : f32
      }
      tcg.yield %1 : f32
    }
    tcg.yield %0 : tensor<1xf32>
  }
  return %c : tensor<1xf32>
}

// Dot max/mul (Tab. 3.1): c[0] = mul_z max(a[z], b[z]).
func.func @"dot.max.mul.16"(%a_in: tensor<16xf32>, %b_in: tensor<16xf32>) -> tensor<1xf32> {
  %c = tcg.kernel "dot.max.mul.16" (%a = %a_in : tensor<16xf32>, %b = %b_in : tensor<16xf32>)
      -> tensor<1xf32> attributes {arg_names = ["a", "b"], result_name = "c"} {
    %0 = tcg.tensor %x in [0, 1) name "x" -> tensor<1xf32> {
      %1 = tcg.reduce mul %z in [0, 16) name "z" -> f32 {
        %va = tcg.input %a[%z] : tensor<16xf32>
        %vb = tcg.input %b[%z] : tensor<16xf32>
        %e = tcg.compute max %va, %vb : (f32, f32) -> f32
        tcg.yield %e : f32
      }
      tcg.yield %1 : f32
    }
    tcg.yield %0 : tensor<1xf32>
  }
  return %c : tensor<1xf32>
}

// Dot max/max (Tab. 3.1): c[0] = max_z max(a[z], b[z]).
func.func @"dot.max.max.16"(%a_in: tensor<16xf32>, %b_in: tensor<16xf32>) -> tensor<1xf32> {
  %c = tcg.kernel "dot.max.max.16" (%a = %a_in : tensor<16xf32>, %b = %b_in : tensor<16xf32>)
      -> tensor<1xf32> attributes {arg_names = ["a", "b"], result_name = "c"} {
    %0 = tcg.tensor %x in [0, 1) name "x" -> tensor<1xf32> {
      %1 = tcg.reduce max %z in [0, 16) name "z" -> f32 {
        %va = tcg.input %a[%z] : tensor<16xf32>
        %vb = tcg.input %b[%z] : tensor<16xf32>
        %e = tcg.compute max %va, %vb : (f32, f32) -> f32
        tcg.yield %e : f32
      }
      tcg.yield %1 : f32
    }
    tcg.yield %0 : tensor<1xf32>
  }
  return %c : tensor<1xf32>
}

// Dot exp/add (Tab. 3.1): c[0] = add_z exp(a[z]).
func.func @"dot.exp.add.16"(%a_in: tensor<16xf32>) -> tensor<1xf32> {
  %c = tcg.kernel "dot.exp.add.16" (%a = %a_in : tensor<16xf32>)
      -> tensor<1xf32> attributes {arg_names = ["a"], result_name = "c"} {
    %0 = tcg.tensor %x in [0, 1) name "x" -> tensor<1xf32> {
      %1 = tcg.reduce add %z in [0, 16) name "z" -> f32 {
        %va = tcg.input %a[%z] : tensor<16xf32>
        %e = tcg.compute exp %va : (f32) -> f32
        tcg.yield %e : f32
      }
      tcg.yield %1 : f32
    }
    tcg.yield %0 : tensor<1xf32>
  }
  return %c : tensor<1xf32>
}

// Dot exp/mul (Tab. 3.1): c[0] = mul_z exp(a[z]).
func.func @"dot.exp.mul.16"(%a_in: tensor<16xf32>) -> tensor<1xf32> {
  %c = tcg.kernel "dot.exp.mul.16" (%a = %a_in : tensor<16xf32>)
      -> tensor<1xf32> attributes {arg_names = ["a"], result_name = "c"} {
    %0 = tcg.tensor %x in [0, 1) name "x" -> tensor<1xf32> {
      %1 = tcg.reduce mul %z in [0, 16) name "z" -> f32 {
        %va = tcg.input %a[%z] : tensor<16xf32>
        %e = tcg.compute exp %va : (f32) -> f32
        tcg.yield %e : f32
      }
      tcg.yield %1 : f32
    }
    tcg.yield %0 : tensor<1xf32>
  }
  return %c : tensor<1xf32>
}

// Dot exp/max (Tab. 3.1): c[0] = max_z exp(a[z]).
func.func @"dot.exp.max.16"(%a_in: tensor<16xf32>) -> tensor<1xf32> {
  %c = tcg.kernel "dot.exp.max.16" (%a = %a_in : tensor<16xf32>)
      -> tensor<1xf32> attributes {arg_names = ["a"], result_name = "c"} {
    %0 = tcg.tensor %x in [0, 1) name "x" -> tensor<1xf32> {
      %1 = tcg.reduce max %z in [0, 16) name "z" -> f32 {
        %va = tcg.input %a[%z] : tensor<16xf32>
        %e = tcg.compute exp %va : (f32) -> f32
        tcg.yield %e : f32
      }
      tcg.yield %1 : f32
    }
    tcg.yield %0 : tensor<1xf32>
  }
  return %c : tensor<1xf32>
}

// Matrix-vector add/add (Tab. 3.1): c[y] = add_z a[z] + b[y, z].
func.func @"mv.add.add.16x16"(%a_in: tensor<16xf32>, %b_in: tensor<16x16xf32>) -> tensor<16xf32> {
  %c = tcg.kernel "mv.add.add.16x16" (%a = %a_in : tensor<16xf32>, %b = %b_in : tensor<16x16xf32>)
      -> tensor<16xf32> attributes {arg_names = ["a", "b"], result_name = "c"} {
    %0 = tcg.tensor %y in [0, 16) name "y" -> tensor<16xf32> {
      %1 = tcg.reduce add %z in [0, 16) name "z" -> f32 {
        %va = tcg.input %a[%z] : tensor<16xf32>
        %vb = tcg.input %b[%y, %z] : tensor<16x16xf32>
        %e = tcg.compute add %va, %vb : (f32, f32) -> f32
        tcg.yield %e : f32
      }
      tcg.yield %1 : f32
    }
    tcg.yield %0 : tensor<16xf32>
  }
  return %c : tensor<16xf32>
}

// Matrix-vector add/mul (Tab. 3.1): c[y] = mul_z a[z] + b[y, z].
func.func @"mv.add.mul.16x16"(%a_in: tensor<16xf32>, %b_in: tensor<16x16xf32>) -> tensor<16xf32> {
  %c = tcg.kernel "mv.add.mul.16x16" (%a = %a_in : tensor<16xf32>, %b = %b_in : tensor<16x16xf32>)
      -> tensor<16xf32> attributes {arg_names = ["a", "b"], result_name = "c"} {
    %0 = tcg.tensor %y in [0, 16) name "y" -> tensor<16xf32> {
      %1 = tcg.reduce mul %z in [0, 16) name "z" -> f32 {
        %va = tcg.input %a[%z] : tensor<16xf32>
        %vb = tcg.input %b[%y, %z] : tensor<16x16xf32>
        %e = tcg.compute add %va, %vb : (f32, f32) -> f32
        tcg.yield %e : f32
      }
      tcg.yield %1 : f32
    }
    tcg.yield %0 : tensor<16xf32>
  }
  return %c : tensor<16xf32>
}

// Matrix-vector add/max (Tab. 3.1): c[y] = max_z a[z] + b[y, z].
func.func @"mv.add.max.16x16"(%a_in: tensor<16xf32>, %b_in: tensor<16x16xf32>) -> tensor<16xf32> {
  %c = tcg.kernel "mv.add.max.16x16" (%a = %a_in : tensor<16xf32>, %b = %b_in : tensor<16x16xf32>)
      -> tensor<16xf32> attributes {arg_names = ["a", "b"], result_name = "c"} {
    %0 = tcg.tensor %y in [0, 16) name "y" -> tensor<16xf32> {
      %1 = tcg.reduce max %z in [0, 16) name "z" -> f32 {
        %va = tcg.input %a[%z] : tensor<16xf32>
        %vb = tcg.input %b[%y, %z] : tensor<16x16xf32>
        %e = tcg.compute add %va, %vb : (f32, f32) -> f32
        tcg.yield %e : f32
      }
      tcg.yield %1 : f32
    }
    tcg.yield %0 : tensor<16xf32>
  }
  return %c : tensor<16xf32>
}

// Matrix-vector mul/add (Tab. 3.1): c[y] = add_z a[z] * b[y, z].
func.func @"mv.mul.add.16x16"(%a_in: tensor<16xf32>, %b_in: tensor<16x16xf32>) -> tensor<16xf32> {
  %c = tcg.kernel "mv.mul.add.16x16" (%a = %a_in : tensor<16xf32>, %b = %b_in : tensor<16x16xf32>)
      -> tensor<16xf32> attributes {arg_names = ["a", "b"], result_name = "c"} {
    %0 = tcg.tensor %y in [0, 16) name "y" -> tensor<16xf32> {
      %1 = tcg.reduce add %z in [0, 16) name "z" -> f32 {
        %va = tcg.input %a[%z] : tensor<16xf32>
        %vb = tcg.input %b[%y, %z] : tensor<16x16xf32>
        %e = tcg.compute mul %va, %vb : (f32, f32) -> f32
        tcg.yield %e : f32
      }
      tcg.yield %1 : f32
    }
    tcg.yield %0 : tensor<16xf32>
  }
  return %c : tensor<16xf32>
}

// Matrix-vector mul/mul (Tab. 3.1): c[y] = mul_z a[z] * b[y, z].
func.func @"mv.mul.mul.16x16"(%a_in: tensor<16xf32>, %b_in: tensor<16x16xf32>) -> tensor<16xf32> {
  %c = tcg.kernel "mv.mul.mul.16x16" (%a = %a_in : tensor<16xf32>, %b = %b_in : tensor<16x16xf32>)
      -> tensor<16xf32> attributes {arg_names = ["a", "b"], result_name = "c"} {
    %0 = tcg.tensor %y in [0, 16) name "y" -> tensor<16xf32> {
      %1 = tcg.reduce mul %z in [0, 16) name "z" -> f32 {
        %va = tcg.input %a[%z] : tensor<16xf32>
        %vb = tcg.input %b[%y, %z] : tensor<16x16xf32>
        %e = tcg.compute mul %va, %vb : (f32, f32) -> f32
        tcg.yield %e : f32
      }
      tcg.yield %1 : f32
    }
    tcg.yield %0 : tensor<16xf32>
  }
  return %c : tensor<16xf32>
}

// Matrix-vector mul/max (Tab. 3.1): c[y] = max_z a[z] * b[y, z].
func.func @"mv.mul.max.16x16"(%a_in: tensor<16xf32>, %b_in: tensor<16x16xf32>) -> tensor<16xf32> {
  %c = tcg.kernel "mv.mul.max.16x16" (%a = %a_in : tensor<16xf32>, %b = %b_in : tensor<16x16xf32>)
      -> tensor<16xf32> attributes {arg_names = ["a", "b"], result_name = "c"} {
    %0 = tcg.tensor %y in [0, 16) name "y" -> tensor<16xf32> {
      %1 = tcg.reduce max %z in [0, 16) name "z" -> f32 {
        %va = tcg.input %a[%z] : tensor<16xf32>
        %vb = tcg.input %b[%y, %z] : tensor<16x16xf32>
        %e = tcg.compute mul %va, %vb : (f32, f32) -> f32
        tcg.yield %e : f32
      }
      tcg.yield %1 : f32
    }
    tcg.yield %0 : tensor<16xf32>
  }
  return %c : tensor<16xf32>
}

// Matrix-vector sub/add (Tab. 3.1): c[y] = add_z a[z] - b[y, z].
func.func @"mv.sub.add.16x16"(%a_in: tensor<16xf32>, %b_in: tensor<16x16xf32>) -> tensor<16xf32> {
  %c = tcg.kernel "mv.sub.add.16x16" (%a = %a_in : tensor<16xf32>, %b = %b_in : tensor<16x16xf32>)
      -> tensor<16xf32> attributes {arg_names = ["a", "b"], result_name = "c"} {
    %0 = tcg.tensor %y in [0, 16) name "y" -> tensor<16xf32> {
      %1 = tcg.reduce add %z in [0, 16) name "z" -> f32 {
        %va = tcg.input %a[%z] : tensor<16xf32>
        %vb = tcg.input %b[%y, %z] : tensor<16x16xf32>
        %e = tcg.compute sub %va, %vb : (f32, f32) -> f32
        tcg.yield %e : f32
      }
      tcg.yield %1 : f32
    }
    tcg.yield %0 : tensor<16xf32>
  }
  return %c : tensor<16xf32>
}

// Matrix-vector sub/mul (Tab. 3.1): c[y] = mul_z a[z] - b[y, z].
func.func @"mv.sub.mul.16x16"(%a_in: tensor<16xf32>, %b_in: tensor<16x16xf32>) -> tensor<16xf32> {
  %c = tcg.kernel "mv.sub.mul.16x16" (%a = %a_in : tensor<16xf32>, %b = %b_in : tensor<16x16xf32>)
      -> tensor<16xf32> attributes {arg_names = ["a", "b"], result_name = "c"} {
    %0 = tcg.tensor %y in [0, 16) name "y" -> tensor<16xf32> {
      %1 = tcg.reduce mul %z in [0, 16) name "z" -> f32 {
        %va = tcg.input %a[%z] : tensor<16xf32>
        %vb = tcg.input %b[%y, %z] : tensor<16x16xf32>
        %e = tcg.compute sub %va, %vb : (f32, f32) -> f32
        tcg.yield %e : f32
      }
      tcg.yield %1 : f32
    }
    tcg.yield %0 : tensor<16xf32>
  }
  return %c : tensor<16xf32>
}

// Matrix-vector sub/max (Tab. 3.1): c[y] = max_z a[z] - b[y, z].
func.func @"mv.sub.max.16x16"(%a_in: tensor<16xf32>, %b_in: tensor<16x16xf32>) -> tensor<16xf32> {
  %c = tcg.kernel "mv.sub.max.16x16" (%a = %a_in : tensor<16xf32>, %b = %b_in : tensor<16x16xf32>)
      -> tensor<16xf32> attributes {arg_names = ["a", "b"], result_name = "c"} {
    %0 = tcg.tensor %y in [0, 16) name "y" -> tensor<16xf32> {
      %1 = tcg.reduce max %z in [0, 16) name "z" -> f32 {
        %va = tcg.input %a[%z] : tensor<16xf32>
        %vb = tcg.input %b[%y, %z] : tensor<16x16xf32>
        %e = tcg.compute sub %va, %vb : (f32, f32) -> f32
        tcg.yield %e : f32
      }
      tcg.yield %1 : f32
    }
    tcg.yield %0 : tensor<16xf32>
  }
  return %c : tensor<16xf32>
}

// Matrix-vector div/add (Tab. 3.1): c[y] = add_z a[z] / b[y, z].
func.func @"mv.div.add.16x16"(%a_in: tensor<16xf32>, %b_in: tensor<16x16xf32>) -> tensor<16xf32> {
  %c = tcg.kernel "mv.div.add.16x16" (%a = %a_in : tensor<16xf32>, %b = %b_in : tensor<16x16xf32>)
      -> tensor<16xf32> attributes {arg_names = ["a", "b"], result_name = "c"} {
    %0 = tcg.tensor %y in [0, 16) name "y" -> tensor<16xf32> {
      %1 = tcg.reduce add %z in [0, 16) name "z" -> f32 {
        %va = tcg.input %a[%z] : tensor<16xf32>
        %vb = tcg.input %b[%y, %z] : tensor<16x16xf32>
        %e = tcg.compute div %va, %vb : (f32, f32) -> f32
        tcg.yield %e : f32
      }
      tcg.yield %1 : f32
    }
    tcg.yield %0 : tensor<16xf32>
  }
  return %c : tensor<16xf32>
}

// Matrix-vector div/mul (Tab. 3.1): c[y] = mul_z a[z] / b[y, z].
func.func @"mv.div.mul.16x16"(%a_in: tensor<16xf32>, %b_in: tensor<16x16xf32>) -> tensor<16xf32> {
  %c = tcg.kernel "mv.div.mul.16x16" (%a = %a_in : tensor<16xf32>, %b = %b_in : tensor<16x16xf32>)
      -> tensor<16xf32> attributes {arg_names = ["a", "b"], result_name = "c"} {
    %0 = tcg.tensor %y in [0, 16) name "y" -> tensor<16xf32> {
      %1 = tcg.reduce mul %z in [0, 16) name "z" -> f32 {
        %va = tcg.input %a[%z] : tensor<16xf32>
        %vb = tcg.input %b[%y, %z] : tensor<16x16xf32>
        %e = tcg.compute div %va, %vb : (f32, f32) -> f32
        tcg.yield %e : f32
      }
      tcg.yield %1 : f32
    }
    tcg.yield %0 : tensor<16xf32>
  }
  return %c : tensor<16xf32>
}

// Matrix-vector div/max (Tab. 3.1): c[y] = max_z a[z] / b[y, z].
func.func @"mv.div.max.16x16"(%a_in: tensor<16xf32>, %b_in: tensor<16x16xf32>) -> tensor<16xf32> {
  %c = tcg.kernel "mv.div.max.16x16" (%a = %a_in : tensor<16xf32>, %b = %b_in : tensor<16x16xf32>)
      -> tensor<16xf32> attributes {arg_names = ["a", "b"], result_name = "c"} {
    %0 = tcg.tensor %y in [0, 16) name "y" -> tensor<16xf32> {
      %1 = tcg.reduce max %z in [0, 16) name "z" -> f32 {
        %va = tcg.input %a[%z] : tensor<16xf32>
        %vb = tcg.input %b[%y, %z] : tensor<16x16xf32>
        %e = tcg.compute div %va, %vb : (f32, f32) -> f32
        tcg.yield %e : f32
      }
      tcg.yield %1 : f32
    }
    tcg.yield %0 : tensor<16xf32>
  }
  return %c : tensor<16xf32>
}

// Matrix-vector max/add (Tab. 3.1): c[y] = add_z max(a[z], b[y, z]).
func.func @"mv.max.add.16x16"(%a_in: tensor<16xf32>, %b_in: tensor<16x16xf32>) -> tensor<16xf32> {
  %c = tcg.kernel "mv.max.add.16x16" (%a = %a_in : tensor<16xf32>, %b = %b_in : tensor<16x16xf32>)
      -> tensor<16xf32> attributes {arg_names = ["a", "b"], result_name = "c"} {
    %0 = tcg.tensor %y in [0, 16) name "y" -> tensor<16xf32> {
      %1 = tcg.reduce add %z in [0, 16) name "z" -> f32 {
        %va = tcg.input %a[%z] : tensor<16xf32>
        %vb = tcg.input %b[%y, %z] : tensor<16x16xf32>
        %e = tcg.compute max %va, %vb : (f32, f32) -> f32
        tcg.yield %e : f32
      }
      tcg.yield %1 : f32
    }
    tcg.yield %0 : tensor<16xf32>
  }
  return %c : tensor<16xf32>
}

// Matrix-vector max/mul (Tab. 3.1): c[y] = mul_z max(a[z], b[y, z]).
func.func @"mv.max.mul.16x16"(%a_in: tensor<16xf32>, %b_in: tensor<16x16xf32>) -> tensor<16xf32> {
  %c = tcg.kernel "mv.max.mul.16x16" (%a = %a_in : tensor<16xf32>, %b = %b_in : tensor<16x16xf32>)
      -> tensor<16xf32> attributes {arg_names = ["a", "b"], result_name = "c"} {
    %0 = tcg.tensor %y in [0, 16) name "y" -> tensor<16xf32> {
      %1 = tcg.reduce mul %z in [0, 16) name "z" -> f32 {
        %va = tcg.input %a[%z] : tensor<16xf32>
        %vb = tcg.input %b[%y, %z] : tensor<16x16xf32>
        %e = tcg.compute max %va, %vb : (f32, f32) -> f32
        tcg.yield %e : f32
      }
      tcg.yield %1 : f32
    }
    tcg.yield %0 : tensor<16xf32>
  }
  return %c : tensor<16xf32>
}

// Matrix-vector max/max (Tab. 3.1): c[y] = max_z max(a[z], b[y, z]).
func.func @"mv.max.max.16x16"(%a_in: tensor<16xf32>, %b_in: tensor<16x16xf32>) -> tensor<16xf32> {
  %c = tcg.kernel "mv.max.max.16x16" (%a = %a_in : tensor<16xf32>, %b = %b_in : tensor<16x16xf32>)
      -> tensor<16xf32> attributes {arg_names = ["a", "b"], result_name = "c"} {
    %0 = tcg.tensor %y in [0, 16) name "y" -> tensor<16xf32> {
      %1 = tcg.reduce max %z in [0, 16) name "z" -> f32 {
        %va = tcg.input %a[%z] : tensor<16xf32>
        %vb = tcg.input %b[%y, %z] : tensor<16x16xf32>
        %e = tcg.compute max %va, %vb : (f32, f32) -> f32
        tcg.yield %e : f32
      }
      tcg.yield %1 : f32
    }
    tcg.yield %0 : tensor<16xf32>
  }
  return %c : tensor<16xf32>
}

// Matrix-vector exp/add (Tab. 3.1): c[y] = add_z exp(b[y, z]).
func.func @"mv.exp.add.16x16"(%b_in: tensor<16x16xf32>) -> tensor<16xf32> {
  %c = tcg.kernel "mv.exp.add.16x16" (%b = %b_in : tensor<16x16xf32>)
      -> tensor<16xf32> attributes {arg_names = ["b"], result_name = "c"} {
    %0 = tcg.tensor %y in [0, 16) name "y" -> tensor<16xf32> {
      %1 = tcg.reduce add %z in [0, 16) name "z" -> f32 {
        %vb = tcg.input %b[%y, %z] : tensor<16x16xf32>
        %e = tcg.compute exp %vb : (f32) -> f32
        tcg.yield %e : f32
      }
      tcg.yield %1 : f32
    }
    tcg.yield %0 : tensor<16xf32>
  }
  return %c : tensor<16xf32>
}

// Matrix-vector exp/mul (Tab. 3.1): c[y] = mul_z exp(b[y, z]).
func.func @"mv.exp.mul.16x16"(%b_in: tensor<16x16xf32>) -> tensor<16xf32> {
  %c = tcg.kernel "mv.exp.mul.16x16" (%b = %b_in : tensor<16x16xf32>)
      -> tensor<16xf32> attributes {arg_names = ["b"], result_name = "c"} {
    %0 = tcg.tensor %y in [0, 16) name "y" -> tensor<16xf32> {
      %1 = tcg.reduce mul %z in [0, 16) name "z" -> f32 {
        %vb = tcg.input %b[%y, %z] : tensor<16x16xf32>
        %e = tcg.compute exp %vb : (f32) -> f32
        tcg.yield %e : f32
      }
      tcg.yield %1 : f32
    }
    tcg.yield %0 : tensor<16xf32>
  }
  return %c : tensor<16xf32>
}

// Matrix-vector exp/max (Tab. 3.1): c[y] = max_z exp(b[y, z]).
func.func @"mv.exp.max.16x16"(%b_in: tensor<16x16xf32>) -> tensor<16xf32> {
  %c = tcg.kernel "mv.exp.max.16x16" (%b = %b_in : tensor<16x16xf32>)
      -> tensor<16xf32> attributes {arg_names = ["b"], result_name = "c"} {
    %0 = tcg.tensor %y in [0, 16) name "y" -> tensor<16xf32> {
      %1 = tcg.reduce max %z in [0, 16) name "z" -> f32 {
        %vb = tcg.input %b[%y, %z] : tensor<16x16xf32>
        %e = tcg.compute exp %vb : (f32) -> f32
        tcg.yield %e : f32
      }
      tcg.yield %1 : f32
    }
    tcg.yield %0 : tensor<16xf32>
  }
  return %c : tensor<16xf32>
}
