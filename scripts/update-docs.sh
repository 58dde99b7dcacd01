#!/usr/bin/env bash
# Regenerates the dialect, interface and pass reference with mlir-tblgen
# (`ninja raf-docs`) and copies it into docs/generated, and writes the pass
# pipelines' reference (raf-pipeline-doc) to docs/generated/Pipelines.md; the
# lit test test/docs-up-to-date.test checks both stay in step with the
# sources.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build="${RAF_BUILD_DIR:-$root/build}"
"$root/scripts/build.sh" raf-docs raf-pipeline-doc
rm -rf "$root/docs/generated"
mkdir -p "$root/docs/generated"
for kind in Dialects Interfaces Passes; do
  cp -r "$build/docs/$kind" "$root/docs/generated/"
done
"$build/bin/raf-pipeline-doc" > "$root/docs/generated/Pipelines.md"
echo "docs/generated updated from $build/docs"
