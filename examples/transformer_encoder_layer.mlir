// One transformer encoder layer, BERT-base sizes (Devlin et al. 2019;
// HuggingFace BertLayer = BertAttention + BertIntermediate + BertOutput):
// post-layer-norm, hidden 768, 12 heads of 64, FFN 3072 with exact (erf)
// GELU, dropout 0.1 (hidden and attention-probability dropout), layer-norm
// epsilon 1e-12, f32.
//
// Input: x 1x128x768 (batch 1, sequence length 128, hidden 768 — the
// bert-base-uncased config: hidden_size 768, num_attention_heads 12,
// intermediate_size 3072). No attention mask (every position attends to
// every other, as with a full-length unpadded sequence).
//
// Dataflow (shapes):
//   q/k/v = dense(x, W) + b                 1x128x768 each
//   split heads: reshape 1x128x12x64, transpose [0,2,1,3] -> 1x12x128x64,
//                reshape 12x128x64 (batch * heads folded into the batch)
//   scores = batch_matmul(q, k) (transpose_b = true: q . k^T) * (1/sqrt(64))
//                                           12x128x128
//   probs  = dropout(softmax(scores, axis -1), rate 0.1, seed 1)
//   ctx    = batch_matmul(probs, v, transpose_b = false)   12x128x64
//   merge heads: reshape 1x12x128x64, transpose [0,2,1,3], reshape 1x128x768
//   attn   = layer_norm(dropout(dense(ctx) + b, seed 2) + x)
//   ffn    = dense(gelu(dense(attn) + b1)) + b2     1x128x3072 -> 1x128x768
//   out    = layer_norm(dropout(ffn, seed 3) + attn)        1x128x768
// Weights use nn.Linear's [out, in] layout, which is what nn.dense takes.
// Each dropout has its own explicit seed so its mask can be recomputed.

func.func @encoder_layer(%x: tensor<1x128x768xf32>,
    %wq: tensor<768x768xf32>, %bq: tensor<768xf32>,
    %wk: tensor<768x768xf32>, %bk: tensor<768xf32>,
    %wv: tensor<768x768xf32>, %bv: tensor<768xf32>,
    %wo: tensor<768x768xf32>, %bo: tensor<768xf32>,
    %ln1_gamma: tensor<768xf32>, %ln1_beta: tensor<768xf32>,
    %w1: tensor<3072x768xf32>, %b1: tensor<3072xf32>,
    %w2: tensor<768x3072xf32>, %b2: tensor<768xf32>,
    %ln2_gamma: tensor<768xf32>, %ln2_beta: tensor<768xf32>)
    -> tensor<1x128x768xf32> {
  // Q, K, V projections.
  %q0 = relay.nn.dense %x, %wq : (tensor<1x128x768xf32>, tensor<768x768xf32>)
  %q1 = relay.nn.bias_add %q0, %bq {axis = -1 : i64} : (tensor<1x128x768xf32>, tensor<768xf32>)
  %k0 = relay.nn.dense %x, %wk : (tensor<1x128x768xf32>, tensor<768x768xf32>)
  %k1 = relay.nn.bias_add %k0, %bk {axis = -1 : i64} : (tensor<1x128x768xf32>, tensor<768xf32>)
  %v0 = relay.nn.dense %x, %wv : (tensor<1x128x768xf32>, tensor<768x768xf32>)
  %v1 = relay.nn.bias_add %v0, %bv {axis = -1 : i64} : (tensor<1x128x768xf32>, tensor<768xf32>)

  // Split into 12 heads of 64: [1,128,768] -> [1,128,12,64] -> [1,12,128,64]
  // -> [12,128,64].
  %q2 = relay.reshape %q1 {newshape = array<i64: 1, 128, 12, 64>} : (tensor<1x128x768xf32>)
  %q3 = relay.transpose %q2 {axes = array<i64: 0, 2, 1, 3>} : (tensor<1x128x12x64xf32>)
  %q = relay.reshape %q3 {newshape = array<i64: 12, 128, 64>} : (tensor<1x12x128x64xf32>)
  %k2 = relay.reshape %k1 {newshape = array<i64: 1, 128, 12, 64>} : (tensor<1x128x768xf32>)
  %k3 = relay.transpose %k2 {axes = array<i64: 0, 2, 1, 3>} : (tensor<1x128x12x64xf32>)
  %k = relay.reshape %k3 {newshape = array<i64: 12, 128, 64>} : (tensor<1x12x128x64xf32>)
  %v2 = relay.reshape %v1 {newshape = array<i64: 1, 128, 12, 64>} : (tensor<1x128x768xf32>)
  %v3 = relay.transpose %v2 {axes = array<i64: 0, 2, 1, 3>} : (tensor<1x128x12x64xf32>)
  %v = relay.reshape %v3 {newshape = array<i64: 12, 128, 64>} : (tensor<1x12x128x64xf32>)

  // Scaled dot-product attention. k is [B, N, K], so the default
  // transpose_b = true gives q . k^T.
  %scores0 = relay.nn.batch_matmul %q, %k : (tensor<12x128x64xf32>, tensor<12x128x64xf32>)
  %scale = relay.constant dense<0.125> : tensor<f32>
  %scores = relay.multiply %scores0, %scale : (tensor<12x128x128xf32>, tensor<f32>)
  %probs0 = relay.nn.softmax %scores {axis = -1 : i64} : (tensor<12x128x128xf32>)
  %probs = relay.nn.dropout %probs0 {rate = 0.1 : f64, seed = 1 : i64} : (tensor<12x128x128xf32>)
  // v is [B, K, N] already: transpose_b = false.
  %ctx0 = relay.nn.batch_matmul %probs, %v {transpose_b = false} : (tensor<12x128x128xf32>, tensor<12x128x64xf32>)

  // Merge heads: [12,128,64] -> [1,12,128,64] -> [1,128,12,64] -> [1,128,768].
  %ctx1 = relay.reshape %ctx0 {newshape = array<i64: 1, 12, 128, 64>} : (tensor<12x128x64xf32>)
  %ctx2 = relay.transpose %ctx1 {axes = array<i64: 0, 2, 1, 3>} : (tensor<1x12x128x64xf32>)
  %ctx = relay.reshape %ctx2 {newshape = array<i64: 1, 128, 768>} : (tensor<1x128x12x64xf32>)

  // Attention output projection, dropout, residual, layer norm.
  %o0 = relay.nn.dense %ctx, %wo : (tensor<1x128x768xf32>, tensor<768x768xf32>)
  %o1 = relay.nn.bias_add %o0, %bo {axis = -1 : i64} : (tensor<1x128x768xf32>, tensor<768xf32>)
  %o2 = relay.nn.dropout %o1 {rate = 0.1 : f64, seed = 2 : i64} : (tensor<1x128x768xf32>)
  %res1 = relay.add %o2, %x : (tensor<1x128x768xf32>, tensor<1x128x768xf32>)
  %attn = relay.nn.layer_norm %res1, %ln1_gamma, %ln1_beta {axis = -1 : i64, epsilon = 1.0e-12 : f64} : (tensor<1x128x768xf32>, tensor<768xf32>, tensor<768xf32>)

  // Feed-forward network 768 -> 3072 -> 768.
  %h0 = relay.nn.dense %attn, %w1 : (tensor<1x128x768xf32>, tensor<3072x768xf32>)
  %h1 = relay.nn.bias_add %h0, %b1 {axis = -1 : i64} : (tensor<1x128x3072xf32>, tensor<3072xf32>)
  %h2 = relay.nn.gelu %h1 {approximate = #relay.gelu_approximation<none>} : (tensor<1x128x3072xf32>)
  %f0 = relay.nn.dense %h2, %w2 : (tensor<1x128x3072xf32>, tensor<768x3072xf32>)
  %f1 = relay.nn.bias_add %f0, %b2 {axis = -1 : i64} : (tensor<1x128x768xf32>, tensor<768xf32>)
  %f2 = relay.nn.dropout %f1 {rate = 0.1 : f64, seed = 3 : i64} : (tensor<1x128x768xf32>)
  %res2 = relay.add %f2, %attn : (tensor<1x128x768xf32>, tensor<1x128x768xf32>)
  %out = relay.nn.layer_norm %res2, %ln2_gamma, %ln2_beta {axis = -1 : i64, epsilon = 1.0e-12 : f64} : (tensor<1x128x768xf32>, tensor<768xf32>, tensor<768xf32>)
  return %out : tensor<1x128x768xf32>
}
