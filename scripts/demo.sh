#!/usr/bin/env bash
# The main job: sets up, builds the tools, and runs the pipeline on real
# inputs:
#   1. the example models (examples/*.mlir): inferred types, operator costs,
#      fusion into kernels, then every function run twice, compiled for the
#      CPU (--raf-cpu-pipeline + LLVM JIT) and on the reference evaluator,
#      with the two results compared;
#   2. torchvision's ResNet-18 imported through the torch.fx frontend, run
#      compiled on the CPU and compared with PyTorch on the same weights and
#      input;
#   3. MobileNetV2 exported to ONNX by PyTorch, imported, run and compared;
#   4. a model exported to TVM's Relay text format and imported back;
#   5. dataflow embedding of the VTA GEMM into DeepBench convolutions in
#      TVM's mapping (strict) and the solver's (relaxed);
#   6. a convolution's strategy applied and its packed kernel run on the VTA
#      simulator (cycles), compared bit for bit with the CPU; the same
#      convolution compiled by --raf-vta-pipeline to a vta_isa program and
#      compiled host code, whose cycles raf-vta-sim reproduces on the binary.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build="${RAF_BUILD_DIR:-$root/build}"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

"$root/scripts/install-deps.sh"
"$root/scripts/build.sh" raf-opt raf-run raf-translate

compare() { # compare <a.npy> <b.npy>: prints the largest absolute difference
  /usr/bin/python3 -c "import numpy as np, sys
a, b = np.load(sys.argv[1]), np.load(sys.argv[2])
d = np.abs(a.astype(float) - b.astype(float))
print(f'max |difference| = {d.max():.3g}, relative to max |value| {np.abs(b).max():.3g}, over {a.size} values')" "$1" "$2"
}

for model in "$root"/examples/*.mlir; do
  name="$(basename "$model")"
  echo "=== $name: inferred types ==="
  "$build/bin/raf-opt" "$model"
  echo "=== $name: operator totals ==="
  "$build/bin/raf-opt" --relay-print-op-properties=totals=1 \
      --mlir-print-op-on-diagnostic=false -o /dev/null "$model" 2>&1 |
    grep -E "remark: @" || true
  echo "=== $name: fused kernels (--raf-fuse) ==="
  "$build/bin/raf-opt" --raf-fuse "$model" | grep -E "^  func.func" || true
  for fn in $(grep -oE '^func.func @[A-Za-z0-9_]+' "$model" | cut -d@ -f2); do
    echo "=== $name @$fn: compiled (cpu) vs reference evaluator (interp) ==="
    # Positive random data (0.1 to 1) keeps batch-norm variances valid.
    "$build/bin/raf-run" "$model" --entry="$fn" --target=cpu --seed=1 \
        --random-range=0.1,1 --output="$work/cpu.npy" --repeat=3 |
      grep timing || true
    "$build/bin/raf-run" "$model" --entry="$fn" --target=interp --seed=1 \
        --random-range=0.1,1 --output="$work/interp.npy"
    compare "$work/cpu.npy" "$work/interp.npy"
  done
  echo
done

echo "=== torchvision ResNet-18: import (torch.fx), compile, run, compare with PyTorch ==="
PYTHONPATH="$root/python" /usr/bin/python3 -m raf_mlir.torch torchvision:resnet18 \
    --input-shape 1,3,224,224 --seed 0 --output-dir "$work/resnet18"
inputs=()
for npy in "$work"/resnet18/[0-9]*.npy; do inputs+=("--input=$npy"); done
"$build/bin/raf-run" "$work/resnet18/forward.mlir" --entry=forward \
    --target=cpu "${inputs[@]}" --output="$work/resnet18/ours.npy" --repeat=5
compare "$work/resnet18/ours.npy" "$work/resnet18/expected_0.npy"
/usr/bin/python3 -c "import numpy as np, sys
ours, ref = np.load(sys.argv[1])[0], np.load(sys.argv[2])[0]
print('top-5 classes, ours   :', list(np.argsort(-ours)[:5]))
print('top-5 classes, PyTorch:', list(np.argsort(-ref)[:5]))" \
    "$work/resnet18/ours.npy" "$work/resnet18/expected_0.npy"

echo
echo "=== torchvision MobileNetV2 through ONNX: torch.onnx.export, import, compile, run, compare ==="
/usr/bin/python3 -c "import sys, numpy as np, torch, torchvision
torch.manual_seed(0)
model = torchvision.models.mobilenet_v2().eval()
x = torch.randn(1, 3, 224, 224)
torch.onnx.export(model, x, sys.argv[1] + '/mobilenet_v2.onnx', opset_version=13)
np.save(sys.argv[1] + '/x.npy', x.numpy())
np.save(sys.argv[1] + '/expected.npy', model(x).detach().numpy())" "$work"
PYTHONPATH="$root/python" /usr/bin/python3 -m raf_mlir.onnx "$work/mobilenet_v2.onnx" \
    --output-dir "$work/mobilenet_v2"
inputs=("--input=$work/x.npy")
for npy in $(ls "$work"/mobilenet_v2/[0-9]*.npy | tail -n +2); do inputs+=("--input=$npy"); done
"$build/bin/raf-run" "$work/mobilenet_v2/forward.mlir" --entry=forward \
    --target=cpu "${inputs[@]}" --output="$work/mobilenet_v2/ours.npy" --repeat=5
compare "$work/mobilenet_v2/ours.npy" "$work/expected.npy"

echo
echo "=== Relay text: export the ResNet-18 basic block in TVM's format, import it back ==="
"$build/bin/raf-translate" --export-relay "$root/examples/resnet18_basic_block.mlir" \
    -o "$work/basic_block.relay"
head -12 "$work/basic_block.relay"
"$build/bin/raf-translate" --import-relay "$work/basic_block.relay" |
  "$build/bin/raf-translate" --export-relay | diff -q - "$work/basic_block.relay" &&
  echo "export -> import -> export reproduces the text"

echo
echo "=== Dataflow embedding: the VTA GEMM (1x16x16) in DeepBench convolutions ==="
# Layer 0 has one input channel: TVM's mapping (strict) pads it to 16, the
# solver (relaxed) covers the GEMM's reduction with kernel rows and columns.
cat > "$work/deepbench0.mlir" <<'MLIR'
func.func @layer0(%x: tensor<1x1x161x700xi8>, %w: tensor<32x1x5x20xi8>) -> tensor<1x32x79x341xi32> {
  %0 = relay.nn.conv2d %x, %w {strides = array<i64: 2, 2>, out_dtype = i32} : (tensor<1x1x161x700xi8>, tensor<32x1x5x20xi8>) -> tensor<1x32x79x341xi32>
  return %0 : tensor<1x32x79x341xi32>
}
MLIR
for mode in strict relaxed; do
  "$build/bin/raf-opt" "$work/deepbench0.mlir" --convert-relay-to-tcg \
      --tcg-dataflow-embed="mode=$mode max-candidates=3 report-time=true" \
      --tcg-print-embeddings -o /dev/null
done
echo "--- every 9th DeepBench layer, both modes (bench/embedding/run.py --quick) ---"
/usr/bin/python3 "$root/bench/embedding/run.py" --quick --out "$work/embedding.md" \
    2>/dev/null | sed -n '/^## VTA GEMM 1x16x16/,/^## VTA GEMM 8x8x8/p' | head -n -1

echo
echo "=== VTA: strategy applied, packed kernel run on the simulator, compared with the CPU ==="
# A three-channel convolution: strict mode pads the channels to 16, relaxed
# mode packs kernel columns with them; both run bit-exactly on the simulator.
cat > "$work/conv_ic3.mlir" <<'MLIR'
func.func @conv(%x: tensor<1x3x16x16xi8>, %w: tensor<16x3x3x3xi8>) -> tensor<1x16x14x14xi32> {
  %0 = relay.nn.conv2d %x, %w {out_dtype = i32} : (tensor<1x3x16x16xi8>, tensor<16x3x3x3xi8>) -> tensor<1x16x14x14xi32>
  return %0 : tensor<1x16x14x14xi32>
}
MLIR
"$build/bin/raf-run" "$work/conv_ic3.mlir" --entry=conv --target=cpu --seed=1 \
    --output="$work/conv_cpu.npy" > /dev/null
for mode in strict relaxed; do
  echo "--- $mode ---"
  "$build/bin/raf-opt" "$work/conv_ic3.mlir" --convert-relay-to-tcg \
      --tcg-dataflow-embed="mode=$mode max-candidates=1" --tcg-print-embeddings \
      --tcg-apply-strategy -o "$work/conv_$mode.mlir" | grep -E "^  (y|z|padding|cost)"
  "$build/bin/raf-run" "$work/conv_$mode.mlir" --entry=conv --target=vta-sim \
      --seed=1 --output="$work/conv_$mode.npy" | grep "vta-sim"
  /usr/bin/python3 -c "import numpy as np, sys
print('bit-exact with the CPU:', np.array_equal(np.load(sys.argv[1]), np.load(sys.argv[2])))" \
      "$work/conv_$mode.npy" "$work/conv_cpu.npy"
done

echo
echo "=== VTA: one compiler - relay to vta_isa plus compiled host code; raf-run and raf-vta-sim agree ==="
# --raf-vta-pipeline goes from the relay convolution to a function that
# launches a vta_isa program (relay -> tcg -> embedding -> packed kernel ->
# --vta-schedule -> --convert-tcg-to-vta -> --convert-vta-to-vta-isa).
# raf-run compiles the host code around the launch with the CPU pipeline and
# each launch calls the VTA runtime (nothing is lowered or searched at run
# time); the binary of the same program gives the same cycles.
"$build/bin/raf-opt" "$work/conv_ic3.mlir" --raf-vta-pipeline="mode=relaxed" \
    -o "$work/conv_compiled.mlir"
grep -oE "vta.launch @[a-z_0-9]+|vta_isa.program @[a-z_0-9]+" \
    "$work/conv_compiled.mlir" | sort -u
"$build/bin/raf-run" "$work/conv_compiled.mlir" --entry=conv --target=vta-sim \
    --seed=1 --output="$work/conv_compiled.npy" | grep -oE "vta-sim: kernels=[0-9]+ cycles=[0-9]+ instructions=[0-9]+"
"$build/bin/raf-translate" --vta-isa-to-bin --vta-kernel=conv_kernel0 \
    "$work/conv_compiled.mlir" -o "$work/conv.bin"
"$build/bin/raf-vta-sim" "$work/conv.bin" --timing-only | head -1
/usr/bin/python3 -c "import numpy as np, sys
print('bit-exact with the CPU:', np.array_equal(np.load(sys.argv[1]), np.load(sys.argv[2])))" \
    "$work/conv_compiled.npy" "$work/conv_cpu.npy"
