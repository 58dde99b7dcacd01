#!/usr/bin/env bash
# Installs the Debian packages RAF-MLIR needs (README.md). Idempotent: packages
# already present are skipped, so a second run does nothing and needs no network.
# --fuzz also installs clang 22 and its sanitizer and libFuzzer runtimes, which
# only the fuzzing and sanitizer builds use (scripts/fuzz.sh, scripts/test.sh
# --sanitize, docs/fuzzing.md); the normal install does not need them.
set -euo pipefail
fuzz=0
for arg in "$@"; do
  case "$arg" in
    --fuzz) fuzz=1 ;;
    *) echo "usage: $0 [--fuzz]" >&2; exit 2 ;;
  esac
done

packages=(
  # Build tools.
  cmake ninja-build ccache g++ git
  # MLIR/LLVM 22 (lit and FileCheck come with llvm-22-tools).
  libmlir-22-dev mlir-22-tools llvm-22-dev llvm-22-tools libzstd-dev
  # Solvers and learners used by the embedding and tuning passes.
  libgecode-dev libisl-dev libxgboost-dev xgboost
  # OpenMP runtime of the compiled code (raf-run --threads).
  libomp-22-dev
  # BLAS contractions of the CPU pipeline (blas=auto|on, docs/lowering.md).
  # Debian then also points libblas.so.3 (numpy, PyTorch) at OpenBLAS through
  # update-alternatives; bench/cpu reports which BLAS PyTorch uses.
  libopenblas-dev
  # Unit tests.
  libgtest-dev
  # MPI runtime of data-parallel training (docs/data-parallel.md); as root,
  # mpirun needs --allow-run-as-root.
  openmpi-bin libopenmpi-dev
  # Python side (run with /usr/bin/python3): frontends, oracles, plots.
  python3 python3-numpy python3-pytest python3-torch python3-torchvision
  python3-onnx python3-matplotlib
  # The Python module raf_mlir_ir (docs/ecosystem.md).
  pybind11-dev python3-dev
)
if [ "$fuzz" -eq 1 ]; then
  # clang 22 matches the LLVM/MLIR 22 the project builds against; compiler-rt
  # brings libFuzzer, ASan and UBSan.
  packages+=(clang-22 libclang-rt-22-dev)
fi

missing=()
for p in "${packages[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
    missing+=("$p")
  fi
done

if [ ${#missing[@]} -eq 0 ]; then
  echo "install-deps: all ${#packages[@]} packages present"
  exit 0
fi

echo "install-deps: installing ${missing[*]}"
SUDO=""
if [ "$(id -u)" -ne 0 ]; then SUDO="sudo"; fi
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq
$SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}"
