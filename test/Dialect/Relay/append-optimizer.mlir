// RUN: rm -rf %t && split-file %s %t
// RUN: raf-opt %t/linear.mlir --raf-append-optimizer | FileCheck %s --check-prefixes=GRAD,SGD
// RUN: raf-opt %t/linear.mlir --raf-append-optimizer="kind=momentum lr=0.5 momentum=0.25 weight-decay=0.125" | FileCheck %s --check-prefixes=GRAD,MOM
// RUN: raf-opt %t/linear.mlir --raf-append-optimizer="kind=adam lr=0.5 beta1=0.5 beta2=0.75 eps=0.125" | FileCheck %s --check-prefixes=GRAD,ADAM
// RUN: raf-opt %t/mixed.mlir --raf-append-optimizer="entry=grad step-name=step kind=adam" | FileCheck %s --check-prefix=MIXED
// RUN: raf-opt %t/mixed.mlir --raf-append-optimizer="entry=grad step-name=step kind=momentum" | FileCheck %s --check-prefix=MIXMOM
// The step function runs: it lowers like any other function.
// RUN: raf-opt %t/linear.mlir --raf-append-optimizer=kind=adam --raf-cpu-pipeline -o /dev/null

// The gradient function stays as it was.
// GRAD-LABEL: func.func @main(
// GRAD-SAME:    attributes {raf.grad_params = array<i64: 2, 0>}
// GRAD-NEXT:    relay.multiply %arg0, %arg1
// GRAD:         return

// Parameters in raf.grad_params order (b, then w), then the other argument
// x with its attributes; %dy is gone, seeded with ones.
// SGD-LABEL: func.func @train_step(
// SGD-SAME:    %[[B:arg[0-9]+]]: tensor<4xf32> {raf.updatable}, %[[W:arg[0-9]+]]: tensor<4xf32> {raf.updatable}, %[[X:arg[0-9]+]]: tensor<4xf32> {raf.name = "x"})
// SGD-SAME:    -> (tensor<f32>, tensor<4xf32>, tensor<4xf32> {raf.updates_arg = 0 : i64}, tensor<4xf32> {raf.updates_arg = 1 : i64})
// SGD-SAME:    attributes {raf.num_aux = 1 : i64, raf.num_params = 2 : i64, raf.num_states = 0 : i64, raf.optimizer = "sgd"}
// SGD-NEXT:    %[[ONE:.*]] = relay.constant dense<1.000000e+00> : tensor<f32>
// SGD-NEXT:    %[[P:.*]] = relay.multiply %[[W]], %[[X]]
// SGD-NEXT:    %[[Q:.*]] = relay.add %[[P]], %[[B]]
// SGD-NEXT:    %[[LOSS:.*]] = relay.sum %[[Q]]
// SGD-NEXT:    %[[GB:.*]] = relay.broadcast_to %[[ONE]]
// SGD-NEXT:    %[[GW:.*]] = relay.multiply %[[GB]], %[[X]]
// w' = w - lr*g, with the default lr = 0.01.
// SGD-NEXT:    %[[LR:.*]] = relay.constant dense<0.00999999977> : tensor<f32>
// SGD-NEXT:    %[[SB:.*]] = relay.multiply %[[LR]], %[[GB]] : (tensor<f32>, tensor<4xf32>)
// SGD-NEXT:    %[[NB:.*]] = relay.subtract %[[B]], %[[SB]]
// SGD-NEXT:    %[[SW:.*]] = relay.multiply %[[LR]], %[[GW]]
// SGD-NEXT:    %[[NW:.*]] = relay.subtract %[[W]], %[[SW]]
// SGD-NEXT:    return %[[LOSS]], %[[Q]], %[[NB]], %[[NW]] : tensor<f32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>
// SGD-NEXT:  }
// SGD-NEXT: }

// States v_b, v_w follow the parameters.
// MOM-LABEL: func.func @train_step(
// MOM-SAME:    %[[B:arg[0-9]+]]: tensor<4xf32> {raf.updatable}, %[[W:arg[0-9]+]]: tensor<4xf32> {raf.updatable}, %[[VB:arg[0-9]+]]: tensor<4xf32> {raf.updatable}, %[[VW:arg[0-9]+]]: tensor<4xf32> {raf.updatable}, %[[X:arg[0-9]+]]: tensor<4xf32> {raf.name = "x"})
// MOM-SAME:    -> (tensor<f32>, tensor<4xf32>, tensor<4xf32> {raf.updates_arg = 0 : i64}, tensor<4xf32> {raf.updates_arg = 1 : i64}, tensor<4xf32> {raf.updates_arg = 2 : i64}, tensor<4xf32> {raf.updates_arg = 3 : i64})
// MOM-SAME:    attributes {raf.num_aux = 1 : i64, raf.num_params = 2 : i64, raf.num_states = 2 : i64, raf.optimizer = "momentum"}
// MOM:         %[[LOSS:.*]] = relay.sum
// MOM-NEXT:    %[[GB:.*]] = relay.broadcast_to
// MOM-NEXT:    %[[GW:.*]] = relay.multiply
// g += weight_decay*w
// MOM-NEXT:    %[[WD:.*]] = relay.constant dense<1.250000e-01> : tensor<f32>
// MOM-NEXT:    %[[DB:.*]] = relay.multiply %[[WD]], %[[B]]
// MOM-NEXT:    %[[GB2:.*]] = relay.add %[[GB]], %[[DB]]
// MOM-NEXT:    %[[DW:.*]] = relay.multiply %[[WD]], %[[W]]
// MOM-NEXT:    %[[GW2:.*]] = relay.add %[[GW]], %[[DW]]
// v' = momentum*v + g; w' = w - lr*v'
// MOM-NEXT:    %[[MU:.*]] = relay.constant dense<2.500000e-01> : tensor<f32>
// MOM-NEXT:    %[[MVB:.*]] = relay.multiply %[[MU]], %[[VB]]
// MOM-NEXT:    %[[NVB:.*]] = relay.add %[[MVB]], %[[GB2]]
// MOM-NEXT:    %[[LR:.*]] = relay.constant dense<5.000000e-01> : tensor<f32>
// MOM-NEXT:    %[[SB:.*]] = relay.multiply %[[LR]], %[[NVB]]
// MOM-NEXT:    %[[NB:.*]] = relay.subtract %[[B]], %[[SB]]
// MOM-NEXT:    %[[MVW:.*]] = relay.multiply %[[MU]], %[[VW]]
// MOM-NEXT:    %[[NVW:.*]] = relay.add %[[MVW]], %[[GW2]]
// MOM-NEXT:    %[[SW:.*]] = relay.multiply %[[LR]], %[[NVW]]
// MOM-NEXT:    %[[NW:.*]] = relay.subtract %[[W]], %[[SW]]
// MOM-NEXT:    return %[[LOSS]], %{{.*}}, %[[NB]], %[[NW]], %[[NVB]], %[[NVW]] :

// States m_b, m_w, v_b, v_w, then the step counter t.
// ADAM-LABEL: func.func @train_step(
// ADAM-SAME:    %[[B:arg[0-9]+]]: tensor<4xf32> {raf.updatable}, %[[W:arg[0-9]+]]: tensor<4xf32> {raf.updatable}, %[[MB:arg[0-9]+]]: tensor<4xf32> {raf.updatable}, %[[MW:arg[0-9]+]]: tensor<4xf32> {raf.updatable}, %[[VB:arg[0-9]+]]: tensor<4xf32> {raf.updatable}, %[[VW:arg[0-9]+]]: tensor<4xf32> {raf.updatable}, %[[T:arg[0-9]+]]: tensor<f32> {raf.updatable}, %[[X:arg[0-9]+]]: tensor<4xf32> {raf.name = "x"})
// ADAM-SAME:    -> (tensor<f32>, tensor<4xf32>, tensor<4xf32> {raf.updates_arg = 0 : i64}, tensor<4xf32> {raf.updates_arg = 1 : i64}, tensor<4xf32> {raf.updates_arg = 2 : i64}, tensor<4xf32> {raf.updates_arg = 3 : i64}, tensor<4xf32> {raf.updates_arg = 4 : i64}, tensor<4xf32> {raf.updates_arg = 5 : i64}, tensor<f32> {raf.updates_arg = 6 : i64})
// ADAM-SAME:    attributes {raf.num_aux = 1 : i64, raf.num_params = 2 : i64, raf.num_states = 5 : i64, raf.optimizer = "adam"}
// ADAM-NEXT:   %[[ONE:.*]] = relay.constant dense<1.000000e+00> : tensor<f32>
// ADAM:        %[[LOSS:.*]] = relay.sum
// ADAM-NEXT:   %[[GB:.*]] = relay.broadcast_to
// ADAM-NEXT:   %[[GW:.*]] = relay.multiply
// t' = t + 1; the bias corrections 1 - beta^t' in f64, rounded once.
// ADAM-NEXT:   %[[NT:.*]] = relay.add %[[T]], %[[ONE]] : (tensor<f32>, tensor<f32>)
// ADAM-NEXT:   %[[T64:.*]] = relay.cast %[[NT]] {dtype = f64}
// ADAM-NEXT:   %[[B1:.*]] = relay.constant dense<5.000000e-01> : tensor<f64>
// ADAM-NEXT:   %[[P1:.*]] = relay.power %[[B1]], %[[T64]]
// ADAM-NEXT:   %[[ONE64:.*]] = relay.constant dense<1.000000e+00> : tensor<f64>
// ADAM-NEXT:   %[[C1:.*]] = relay.subtract %[[ONE64]], %[[P1]]
// ADAM-NEXT:   %[[B2:.*]] = relay.constant dense<7.500000e-01> : tensor<f64>
// ADAM-NEXT:   %[[P2:.*]] = relay.power %[[B2]], %[[T64]]
// ADAM-NEXT:   %[[C2:.*]] = relay.subtract %[[ONE64]], %[[P2]]
// ADAM-NEXT:   %[[C1F:.*]] = relay.cast %[[C1]] {dtype = f32}
// ADAM-NEXT:   %[[C2F:.*]] = relay.cast %[[C2]] {dtype = f32}
// m' = b1*m + (1-b1)*g (both 0.5 here)
// ADAM-NEXT:   %[[HALF:.*]] = relay.constant dense<5.000000e-01> : tensor<f32>
// ADAM-NEXT:   %[[DMB:.*]] = relay.multiply %[[HALF]], %[[MB]]
// ADAM-NEXT:   %[[SGB:.*]] = relay.multiply %[[HALF]], %[[GB]]
// ADAM-NEXT:   %[[NMB:.*]] = relay.add %[[DMB]], %[[SGB]]
// v' = b2*v + (1-b2)*g*g
// ADAM-NEXT:   %[[B2F:.*]] = relay.constant dense<7.500000e-01> : tensor<f32>
// ADAM-NEXT:   %[[DVB:.*]] = relay.multiply %[[B2F]], %[[VB]]
// ADAM-NEXT:   %[[OMB2:.*]] = relay.constant dense<2.500000e-01> : tensor<f32>
// ADAM-NEXT:   %[[G1:.*]] = relay.multiply %[[OMB2]], %[[GB]]
// ADAM-NEXT:   %[[G2:.*]] = relay.multiply %[[G1]], %[[GB]]
// ADAM-NEXT:   %[[NVB:.*]] = relay.add %[[DVB]], %[[G2]]
// w' = w - lr*(m'/c1) / (sqrt(v'/c2) + eps)
// ADAM-NEXT:   %[[VH:.*]] = relay.divide %[[NVB]], %[[C2F]]
// ADAM-NEXT:   %[[SQ:.*]] = relay.sqrt %[[VH]]
// ADAM-NEXT:   %[[EPS:.*]] = relay.constant dense<1.250000e-01> : tensor<f32>
// ADAM-NEXT:   %[[DEN:.*]] = relay.add %[[SQ]], %[[EPS]]
// ADAM-NEXT:   %[[MH:.*]] = relay.divide %[[NMB]], %[[C1F]]
// ADAM-NEXT:   %[[ST:.*]] = relay.multiply %[[HALF]], %[[MH]]
// ADAM-NEXT:   %[[UP:.*]] = relay.divide %[[ST]], %[[DEN]]
// ADAM-NEXT:   %[[NB:.*]] = relay.subtract %[[B]], %[[UP]]
// The same for w, sharing constants and corrections.
// ADAM-NEXT:   relay.multiply %[[HALF]], %[[MW]]
// ADAM-NOT:    relay.constant
// ADAM-NOT:    relay.cast
// ADAM:        %[[NW:.*]] = relay.subtract %[[W]], %{{.*}}
// ADAM-NEXT:   return %[[LOSS]], %{{.*}}, %[[NB]], %[[NW]], %[[NMB]], %{{.*}}, %[[NVB]], %{{.*}}, %[[NT]] :

// f64 and f32 parameters: constants follow each parameter's element type;
// the f64 parameter uses the f64 corrections directly. The seed has the
// loss type, tensor<1xf64>.
// MIXED-LABEL: func.func @step(
// MIXED-SAME:    %[[A:arg[0-9]+]]: tensor<2xf64> {raf.updatable}, %[[C:arg[0-9]+]]: tensor<3xf32> {raf.updatable}, %{{.*}}: tensor<2xf64> {raf.updatable}, %{{.*}}: tensor<3xf32> {raf.updatable}, %{{.*}}: tensor<2xf64> {raf.updatable}, %{{.*}}: tensor<3xf32> {raf.updatable}, %{{.*}}: tensor<f32> {raf.updatable})
// MIXED-SAME:    -> (tensor<1xf64>, tensor<2xf64> {raf.updates_arg = 0 : i64}, tensor<3xf32> {raf.updates_arg = 1 : i64}, tensor<2xf64> {raf.updates_arg = 2 : i64}, tensor<3xf32> {raf.updates_arg = 3 : i64}, tensor<2xf64> {raf.updates_arg = 4 : i64}, tensor<3xf32> {raf.updates_arg = 5 : i64}, tensor<f32> {raf.updates_arg = 6 : i64})
// MIXED-SAME:    attributes {raf.num_aux = 0 : i64, raf.num_params = 2 : i64, raf.num_states = 5 : i64, raf.optimizer = "adam"}
// MIXED-NEXT:  %[[SEED:.*]] = relay.constant dense<1.000000e+00> : tensor<1xf64>
// MIXED:       %[[C1:.*]] = relay.subtract %{{.*}}, %{{.*}} : (tensor<f64>, tensor<f64>)
// MIXED:       %[[C2:.*]] = relay.subtract %{{.*}}, %{{.*}} : (tensor<f64>, tensor<f64>)
// MIXED-NOT:   relay.cast
// MIXED:       relay.divide %{{.*}}, %[[C2]] : (tensor<2xf64>, tensor<f64>)
// MIXED:       relay.constant dense<1.000000e-08> : tensor<f64>
// MIXED:       relay.divide %{{.*}}, %[[C1]] : (tensor<2xf64>, tensor<f64>)
// MIXED:       relay.subtract %[[A]]
// MIXED-NEXT:  relay.cast %[[C1]] {dtype = f32}
// MIXED-NEXT:  relay.cast %[[C2]] {dtype = f32}
// MIXED:       relay.constant dense<9.99999993E-9> : tensor<f32>
// MIXED:       relay.subtract %[[C]]
// MIXED-NEXT:  return

// MIXMOM-LABEL: func.func @step(
// MIXMOM:        relay.constant dense<9.000000e-01> : tensor<f64>
// MIXMOM:        relay.constant dense<1.000000e-02> : tensor<f64>
// MIXMOM:        relay.constant dense<0.899999976> : tensor<f32>
// MIXMOM:        relay.constant dense<0.00999999977> : tensor<f32>

//--- linear.mlir
// loss = sum(w * x + b), with b (argument 2) then w (argument 0) as the
// parameters and x * w + b as an auxiliary result.
func.func @main(%w: tensor<4xf32>, %x: tensor<4xf32> {raf.name = "x"},
                %b: tensor<4xf32>, %dy: tensor<f32>)
    -> (tensor<f32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>)
    attributes {raf.grad_params = array<i64: 2, 0>} {
  %p = relay.multiply %w, %x : (tensor<4xf32>, tensor<4xf32>)
  %q = relay.add %p, %b : (tensor<4xf32>, tensor<4xf32>)
  %loss = relay.sum %q : (tensor<4xf32>)
  %gb = relay.broadcast_to %dy {shape = array<i64: 4>} : (tensor<f32>)
  %gw = relay.multiply %gb, %x : (tensor<4xf32>, tensor<4xf32>)
  return %loss, %q, %gb, %gw
      : tensor<f32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>
}

//--- mixed.mlir
// A one-element loss of rank 1, an f64 and an f32 parameter, no auxiliary
// result and no other argument.
func.func @grad(%a: tensor<2xf64>, %c: tensor<3xf32>, %dy: tensor<1xf64>)
    -> (tensor<1xf64>, tensor<2xf64>, tensor<3xf32>)
    attributes {raf.grad_params = array<i64: 0, 1>} {
  %s = relay.sum %a {axis = array<i64: 0>, keepdims = true} : (tensor<2xf64>)
  %ga = relay.broadcast_to %dy {shape = array<i64: 2>} : (tensor<1xf64>)
  %gc = relay.zeros_like %c : (tensor<3xf32>)
  return %s, %ga, %gc : tensor<1xf64>, tensor<2xf64>, tensor<3xf32>
}
