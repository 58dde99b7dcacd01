// The seven operators of Rieber 2022, Tab. 3.3 as tcg kernels (float32),
// written as the dissertation describes them: FC + bias, FC + bias +
// sigmoid, GEMM, attention as Eqs. 3.2 + 3.3, NHWC conv2d (HWIO weights),
// conv2d + ReLU, and one iteration of capsule routing (Sabour et al. 2017:
// softmax of the logits, weighted sum of the predictions, squash).
// Deviations: sigmoid is written e / (e + 1) with e = exp(x), which equals
// 1 / (1 + exp(-x)) and uses only the Tab. 3.1 operations in the operand
// order they take (a reciprocal 1 / d has no instruction); the squash is
// s * |s|^2 / (1 + |s|^2) without the division by |s| (tcg has no square
// root).

func.func @fc_bias(%xin: tensor<4x8xf32>, %win: tensor<6x8xf32>, %bin: tensor<6xf32>) -> tensor<4x6xf32> {
  %r = tcg.kernel "fc_bias" (%x = %xin : tensor<4x8xf32>, %w = %win : tensor<6x8xf32>, %b = %bin : tensor<6xf32>) -> tensor<4x6xf32> attributes {arg_names = ["x", "w", "b"]} {
    %0 = tcg.tensor %m in [0, 4) name "m" -> tensor<4x6xf32> {
      %1 = tcg.tensor %n in [0, 6) name "n" -> tensor<6xf32> {
        %s = tcg.reduce add %k in [0, 8) name "k" -> f32 {
          %a = tcg.input %x[%m, %k] : tensor<4x8xf32>
          %c = tcg.input %w[%n, %k] : tensor<6x8xf32>
          %p = tcg.compute mul %a, %c : (f32, f32) -> f32
          tcg.yield %p : f32
        }
        %bias = tcg.input %b[%n] : tensor<6xf32>
        %y = tcg.compute add %s, %bias : (f32, f32) -> f32
        tcg.yield %y : f32
      }
      tcg.yield %1 : tensor<6xf32>
    }
    tcg.yield %0 : tensor<4x6xf32>
  }
  return %r : tensor<4x6xf32>
}

func.func @fc_bias_sigmoid(%xin: tensor<4x8xf32>, %win: tensor<6x8xf32>, %bin: tensor<6xf32>) -> tensor<4x6xf32> {
  %r = tcg.kernel "fc_bias_sigmoid" (%x = %xin : tensor<4x8xf32>, %w = %win : tensor<6x8xf32>, %b = %bin : tensor<6xf32>) -> tensor<4x6xf32> attributes {arg_names = ["x", "w", "b"]} {
    %0 = tcg.tensor %m in [0, 4) name "m" -> tensor<4x6xf32> {
      %1 = tcg.tensor %n in [0, 6) name "n" -> tensor<6xf32> {
        %s = tcg.reduce add %k in [0, 8) name "k" -> f32 {
          %a = tcg.input %x[%m, %k] : tensor<4x8xf32>
          %c = tcg.input %w[%n, %k] : tensor<6x8xf32>
          %p = tcg.compute mul %a, %c : (f32, f32) -> f32
          tcg.yield %p : f32
        }
        %bias = tcg.input %b[%n] : tensor<6xf32>
        %f = tcg.compute add %s, %bias : (f32, f32) -> f32
        %e = tcg.compute exp %f : (f32) -> f32
        %one = tcg.constant 1.000000e+00 : f32
        %d = tcg.compute add %e, %one : (f32, f32) -> f32
        %y = tcg.compute div %e, %d : (f32, f32) -> f32
        tcg.yield %y : f32
      }
      tcg.yield %1 : tensor<6xf32>
    }
    tcg.yield %0 : tensor<4x6xf32>
  }
  return %r : tensor<4x6xf32>
}

func.func @gemm(%ain: tensor<4x8xf32>, %bin: tensor<6x8xf32>) -> tensor<4x6xf32> {
  %r = tcg.kernel "gemm" (%a = %ain : tensor<4x8xf32>, %b = %bin : tensor<6x8xf32>) -> tensor<4x6xf32> attributes {arg_names = ["a", "b"]} {
    %0 = tcg.tensor %m in [0, 4) name "m" -> tensor<4x6xf32> {
      %1 = tcg.tensor %n in [0, 6) name "n" -> tensor<6xf32> {
        %s = tcg.reduce add %k in [0, 8) name "k" -> f32 {
          %x = tcg.input %a[%m, %k] : tensor<4x8xf32>
          %y = tcg.input %b[%n, %k] : tensor<6x8xf32>
          %p = tcg.compute mul %x, %y : (f32, f32) -> f32
          tcg.yield %p : f32
        }
        tcg.yield %s : f32
      }
      tcg.yield %1 : tensor<6xf32>
    }
    tcg.yield %0 : tensor<4x6xf32>
  }
  return %r : tensor<4x6xf32>
}

// Eq. 3.2: t[i, j] = sum_l q[i, l] * k[j, l]; Eq. 3.3: r[i, j] = s * t[i, j].
func.func @attention(%qin: tensor<4x8xf32>, %kin: tensor<6x8xf32>, %sin: tensor<1xf32>) -> tensor<4x6xf32> {
  %r = tcg.kernel "attention" (%q = %qin : tensor<4x8xf32>, %k = %kin : tensor<6x8xf32>, %s = %sin : tensor<1xf32>) -> tensor<4x6xf32> attributes {arg_names = ["q", "k", "s"]} {
    %t = tcg.tensor %i in [0, 4) name "i" -> tensor<4x6xf32> {
      %1 = tcg.tensor %j in [0, 6) name "j" -> tensor<6xf32> {
        %d = tcg.reduce add %l in [0, 8) name "l" -> f32 {
          %x = tcg.input %q[%i, %l] : tensor<4x8xf32>
          %y = tcg.input %k[%j, %l] : tensor<6x8xf32>
          %p = tcg.compute mul %x, %y : (f32, f32) -> f32
          tcg.yield %p : f32
        }
        tcg.yield %d : f32
      }
      tcg.yield %1 : tensor<6xf32>
    }
    %o = tcg.tensor %i in [0, 4) name "i" -> tensor<4x6xf32> {
      %1 = tcg.tensor %j in [0, 6) name "j" -> tensor<6xf32> {
        %v = tcg.input %t[%i, %j] : tensor<4x6xf32>
        %c = tcg.input %s[0] : tensor<1xf32>
        %p = tcg.compute mul %c, %v : (f32, f32) -> f32
        tcg.yield %p : f32
      }
      tcg.yield %1 : tensor<6xf32>
    }
    tcg.yield %o : tensor<4x6xf32>
  }
  return %r : tensor<4x6xf32>
}

// out[n, oh, ow, oc] = sum_{kh, kw, ic} data[n, oh + kh, ow + kw, ic] * w[kh, kw, ic, oc]
func.func @conv2d_nhwc(%din: tensor<1x6x6x4xf32>, %win: tensor<3x3x4x8xf32>) -> tensor<1x4x4x8xf32> {
  %r = tcg.kernel "conv2d_nhwc" (%data = %din : tensor<1x6x6x4xf32>, %w = %win : tensor<3x3x4x8xf32>) -> tensor<1x4x4x8xf32> attributes {arg_names = ["data", "w"]} {
    %0 = tcg.tensor %n in [0, 1) name "n" -> tensor<1x4x4x8xf32> {
      %1 = tcg.tensor %oh in [0, 4) name "oh" -> tensor<4x4x8xf32> {
        %2 = tcg.tensor %ow in [0, 4) name "ow" -> tensor<4x8xf32> {
          %3 = tcg.tensor %oc in [0, 8) name "oc" -> tensor<8xf32> {
            %4 = tcg.reduce add %kh in [0, 3) name "kh" -> f32 {
              %5 = tcg.reduce add %kw in [0, 3) name "kw" -> f32 {
                %6 = tcg.reduce add %ic in [0, 4) name "ic" -> f32 {
                  %x = tcg.input %data[%n, %oh + %kh, %ow + %kw, %ic] : tensor<1x6x6x4xf32>
                  %y = tcg.input %w[%kh, %kw, %ic, %oc] : tensor<3x3x4x8xf32>
                  %p = tcg.compute mul %x, %y : (f32, f32) -> f32
                  tcg.yield %p : f32
                }
                tcg.yield %6 : f32
              }
              tcg.yield %5 : f32
            }
            tcg.yield %4 : f32
          }
          tcg.yield %3 : tensor<8xf32>
        }
        tcg.yield %2 : tensor<4x8xf32>
      }
      tcg.yield %1 : tensor<4x4x8xf32>
    }
    tcg.yield %0 : tensor<1x4x4x8xf32>
  }
  return %r : tensor<1x4x4x8xf32>
}

func.func @conv2d_relu_nhwc(%din: tensor<1x6x6x4xf32>, %win: tensor<3x3x4x8xf32>) -> tensor<1x4x4x8xf32> {
  %r = tcg.kernel "conv2d_relu_nhwc" (%data = %din : tensor<1x6x6x4xf32>, %w = %win : tensor<3x3x4x8xf32>) -> tensor<1x4x4x8xf32> attributes {arg_names = ["data", "w"]} {
    %c = tcg.tensor %n in [0, 1) name "n" -> tensor<1x4x4x8xf32> {
      %1 = tcg.tensor %oh in [0, 4) name "oh" -> tensor<4x4x8xf32> {
        %2 = tcg.tensor %ow in [0, 4) name "ow" -> tensor<4x8xf32> {
          %3 = tcg.tensor %oc in [0, 8) name "oc" -> tensor<8xf32> {
            %4 = tcg.reduce add %kh in [0, 3) name "kh" -> f32 {
              %5 = tcg.reduce add %kw in [0, 3) name "kw" -> f32 {
                %6 = tcg.reduce add %ic in [0, 4) name "ic" -> f32 {
                  %x = tcg.input %data[%n, %oh + %kh, %ow + %kw, %ic] : tensor<1x6x6x4xf32>
                  %y = tcg.input %w[%kh, %kw, %ic, %oc] : tensor<3x3x4x8xf32>
                  %p = tcg.compute mul %x, %y : (f32, f32) -> f32
                  tcg.yield %p : f32
                }
                tcg.yield %6 : f32
              }
              tcg.yield %5 : f32
            }
            tcg.yield %4 : f32
          }
          tcg.yield %3 : tensor<8xf32>
        }
        tcg.yield %2 : tensor<4x8xf32>
      }
      tcg.yield %1 : tensor<4x4x8xf32>
    }
    %o = tcg.tensor %n in [0, 1) name "n" -> tensor<1x4x4x8xf32> {
      %1 = tcg.tensor %oh in [0, 4) name "oh" -> tensor<4x4x8xf32> {
        %2 = tcg.tensor %ow in [0, 4) name "ow" -> tensor<4x8xf32> {
          %3 = tcg.tensor %oc in [0, 8) name "oc" -> tensor<8xf32> {
            %v = tcg.input %c[%n, %oh, %ow, %oc] : tensor<1x4x4x8xf32>
            %zero = tcg.constant 0.000000e+00 : f32
            %y = tcg.compute max %v, %zero : (f32, f32) -> f32
            tcg.yield %y : f32
          }
          tcg.yield %3 : tensor<8xf32>
        }
        tcg.yield %2 : tensor<4x8xf32>
      }
      tcg.yield %1 : tensor<4x4x8xf32>
    }
    tcg.yield %o : tensor<1x4x4x8xf32>
  }
  return %r : tensor<1x4x4x8xf32>
}

// One routing iteration: c = softmax_j(b), s[j, d] = sum_i c[i, j] u[i, j, d],
// v[j, d] = s[j, d] * f[j] with the squash factor f[j] = |s_j|^2 / (1 + |s_j|^2)
// computed once per capsule j (written inside the d loop, 1 + |s_j|^2 would
// be a scalar operation repeated along d, which no vector instruction of
// Tab. 3.1 computes).
func.func @capsule_routing(%bin: tensor<8x4xf32>, %uin: tensor<8x4x4xf32>) -> tensor<4x4xf32> {
  %r = tcg.kernel "capsule_routing" (%b = %bin : tensor<8x4xf32>, %u = %uin : tensor<8x4x4xf32>) -> tensor<4x4xf32> attributes {arg_names = ["b", "u"]} {
    %m = tcg.tensor %i in [0, 8) name "i" -> tensor<8xf32> {
      %1 = tcg.reduce max %j in [0, 4) name "j" -> f32 {
        %v = tcg.input %b[%i, %j] : tensor<8x4xf32>
        tcg.yield %v : f32
      }
      tcg.yield %1 : f32
    }
    %e = tcg.tensor %i in [0, 8) name "i" -> tensor<8x4xf32> {
      %1 = tcg.tensor %j in [0, 4) name "j" -> tensor<4xf32> {
        %v = tcg.input %b[%i, %j] : tensor<8x4xf32>
        %w = tcg.input %m[%i] : tensor<8xf32>
        %d = tcg.compute sub %v, %w : (f32, f32) -> f32
        %x = tcg.compute exp %d : (f32) -> f32
        tcg.yield %x : f32
      }
      tcg.yield %1 : tensor<4xf32>
    }
    %z = tcg.tensor %i in [0, 8) name "i" -> tensor<8xf32> {
      %1 = tcg.reduce add %j in [0, 4) name "j" -> f32 {
        %v = tcg.input %e[%i, %j] : tensor<8x4xf32>
        tcg.yield %v : f32
      }
      tcg.yield %1 : f32
    }
    %c = tcg.tensor %i in [0, 8) name "i" -> tensor<8x4xf32> {
      %1 = tcg.tensor %j in [0, 4) name "j" -> tensor<4xf32> {
        %v = tcg.input %e[%i, %j] : tensor<8x4xf32>
        %w = tcg.input %z[%i] : tensor<8xf32>
        %q = tcg.compute div %v, %w : (f32, f32) -> f32
        tcg.yield %q : f32
      }
      tcg.yield %1 : tensor<4xf32>
    }
    %s = tcg.tensor %j in [0, 4) name "j" -> tensor<4x4xf32> {
      %1 = tcg.tensor %d in [0, 4) name "d" -> tensor<4xf32> {
        %2 = tcg.reduce add %i in [0, 8) name "i" -> f32 {
          %v = tcg.input %c[%i, %j] : tensor<8x4xf32>
          %w = tcg.input %u[%i, %j, %d] : tensor<8x4x4xf32>
          %p = tcg.compute mul %v, %w : (f32, f32) -> f32
          tcg.yield %p : f32
        }
        tcg.yield %2 : f32
      }
      tcg.yield %1 : tensor<4xf32>
    }
    %n = tcg.tensor %j in [0, 4) name "j" -> tensor<4xf32> {
      %1 = tcg.reduce add %d in [0, 4) name "d" -> f32 {
        %v = tcg.input %s[%j, %d] : tensor<4x4xf32>
        %p = tcg.compute mul %v, %v : (f32, f32) -> f32
        tcg.yield %p : f32
      }
      tcg.yield %1 : f32
    }
    %f = tcg.tensor %j in [0, 4) name "j" -> tensor<4xf32> {
      %w = tcg.input %n[%j] : tensor<4xf32>
      %one = tcg.constant 1.000000e+00 : f32
      %a = tcg.compute add %w, %one : (f32, f32) -> f32
      %q = tcg.compute div %w, %a : (f32, f32) -> f32
      tcg.yield %q : f32
    }
    %o = tcg.tensor %j in [0, 4) name "j" -> tensor<4x4xf32> {
      %1 = tcg.tensor %d in [0, 4) name "d" -> tensor<4xf32> {
        %v = tcg.input %s[%j, %d] : tensor<4x4xf32>
        %w = tcg.input %f[%j] : tensor<4xf32>
        %p = tcg.compute mul %v, %w : (f32, f32) -> f32
        tcg.yield %p : f32
      }
      tcg.yield %1 : tensor<4xf32>
    }
    tcg.yield %o : tensor<4x4xf32>
  }
  return %r : tensor<4x4xf32>
}
