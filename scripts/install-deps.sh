#!/usr/bin/env bash
# Installs the Debian packages RAF-MLIR needs (README.md). Idempotent: packages
# already present are skipped, so a second run does nothing and needs no network.
set -euo pipefail

packages=(
  # Build tools.
  cmake ninja-build ccache g++ git
  # MLIR/LLVM 22 (lit and FileCheck come with llvm-22-tools).
  libmlir-22-dev mlir-22-tools llvm-22-dev llvm-22-tools libzstd-dev
  # Solvers and learners used by the embedding and tuning passes.
  libgecode-dev libisl-dev libxgboost-dev xgboost
  # OpenMP runtime of the compiled code (raf-run --threads).
  libomp-22-dev
  # Unit tests.
  libgtest-dev
  # MPI runtime of data-parallel training (docs/data-parallel.md); as root,
  # mpirun needs --allow-run-as-root.
  openmpi-bin libopenmpi-dev
  # Python side (run with /usr/bin/python3): frontends, oracles, plots.
  python3 python3-numpy python3-pytest python3-torch python3-torchvision
  python3-onnx python3-matplotlib
)

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
