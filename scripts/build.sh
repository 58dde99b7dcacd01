#!/usr/bin/env bash
# Configures (once) and builds RAF-MLIR into ${RAF_BUILD_DIR:-build}.
# Usage: scripts/build.sh [ninja targets...]   (default: everything)
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build="${RAF_BUILD_DIR:-$root/build}"
jobs="${RAF_JOBS:-$(nproc)}"

if [ ! -f "$build/build.ninja" ]; then
  cmake -G Ninja -S "$root" -B "$build" -DCMAKE_BUILD_TYPE=Release
fi
ninja -C "$build" -j "$jobs" "$@"
