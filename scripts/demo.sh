#!/usr/bin/env bash
# The main job: sets up, builds raf-opt, and runs it over the example models,
# showing the result types relay infers for every operator and the cost facts
# the operator interfaces report.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build="${RAF_BUILD_DIR:-$root/build}"

"$root/scripts/install-deps.sh"
"$root/scripts/build.sh" raf-opt

for model in "$root"/examples/*.mlir; do
  echo "=== $(basename "$model"): inferred types ==="
  "$build/bin/raf-opt" "$model"
  echo "=== $(basename "$model"): operator totals ==="
  "$build/bin/raf-opt" --relay-print-op-properties=totals=1 \
      --mlir-print-op-on-diagnostic=false -o /dev/null "$model" 2>&1 |
    grep -E "remark: @" || true
  echo
done
