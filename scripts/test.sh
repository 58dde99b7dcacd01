#!/usr/bin/env bash
# Sets up and runs every test: installs dependencies, builds, then runs the lit
# suite (IR tests and, through lit's GoogleTest format, all unit tests) and
# the Python tests. Ends with "N passed, N failed"; exits non-zero on failure.
# --zoo also runs the full model zoo (every torchvision classifier through both
# frontends on both targets, python/tests/test_zoo.py; hours, a nightly job).
# --sanitize runs the same suite on the sanitizer build instead (AddressSanitizer
# and UndefinedBehaviorSanitizer, clang 22; ${RAF_SANITIZE_BUILD_DIR:-
# build-sanitize}, configured and built by scripts/fuzz.sh --build,
# docs/fuzzing.md): any sanitizer report stops the tool and fails its test.
set -uo pipefail
sanitize=0
for arg in "$@"; do
  case "$arg" in
    --zoo) export RAF_ZOO=1 ;;
    --sanitize) sanitize=1 ;;
    *) echo "usage: $0 [--zoo] [--sanitize]" >&2; exit 2 ;;
  esac
done
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build="${RAF_BUILD_DIR:-$root/build}"
pytest_cmd=(/usr/bin/python3 -m pytest)

"$root/scripts/install-deps.sh" || exit 1
if [ "$sanitize" -eq 1 ]; then
  build="${RAF_SANITIZE_BUILD_DIR:-$root/build-sanitize}"
  RAF_SANITIZE_BUILD_DIR="$build" "$root/scripts/fuzz.sh" --build all raf-docs ||
    { echo "0 passed, 1 failed (build)"; exit 1; }
  # Reports stop the tool (its test fails) with a stack (scripts/fuzz.sh).
  eval "$("$root/scripts/fuzz.sh" --env)"
  # pytest imports the instrumented Python module raf_mlir_ir into Debian's
  # interpreter, which is not instrumented: ASan's runtime (of the build's
  # compiler) must be loaded first. The tools the tests start link their own
  # runtime, so the preload stays in the interpreter, and so does its leak
  # check being off (Python does not free everything at exit).
  cxx=$(sed -n 's/^CMAKE_CXX_COMPILER:[A-Z]*=//p' "$build/CMakeCache.txt")
  # Clang's name without and with per-target runtime directories, GCC's.
  for name in libclang_rt.asan-x86_64.so libclang_rt.asan.so libasan.so; do
    asan_runtime=$("$cxx" -print-file-name=$name)
    [ -f "$asan_runtime" ] && break
  done
  [ -f "$asan_runtime" ] ||
    { echo "0 passed, 1 failed (no ASan runtime for $cxx)"; exit 1; }
  # The tools run several times slower instrumented: the tests' subprocess
  # timeouts (meant to catch hangs) are scaled (python/tests/conftest.py).
  export RAF_TEST_TIMEOUT_SCALE="${RAF_TEST_TIMEOUT_SCALE:-5}"
  pytest_cmd=(env "LD_PRELOAD=$asan_runtime"
    "ASAN_OPTIONS=$ASAN_OPTIONS:detect_leaks=0"
    "RAF_TOOLS_ASAN_OPTIONS=$ASAN_OPTIONS" /usr/bin/python3 -c
    'import os, sys, pytest
del os.environ["LD_PRELOAD"]
os.environ["ASAN_OPTIONS"] = os.environ.pop("RAF_TOOLS_ASAN_OPTIONS")
sys.exit(pytest.main(sys.argv[1:]))')
else
  "$root/scripts/build.sh" all raf-docs || { echo "0 passed, 1 failed (build)"; exit 1; }
fi

passed=0
failed=0

# lit runs tests side by side on every core: compiled code runs single
# threaded unless a test asks for threads (raf-run --threads=N).
export OMP_NUM_THREADS=1

# lit: IR tests + unit tests. The summary lines look like "  Passed: 12", or
# "  Passed     : 12" when several kinds are listed (aligned colons).
lit_log="$build/lit-results.txt"
"${LIT:-/usr/lib/llvm-22/bin/lit}" -sv "$build/test" "$build/test/Unit" 2>&1 |
  tee "$lit_log"
count() {
  awk -v key="$1" '{ line = $0; sub(/^ +/, "", line); sub(/ +:/, ":", line) }
    index(line, key ":") == 1 { split(line, f, ":"); s += f[2] + 0 }
    END { print s + 0 }' "$lit_log"
}
passed=$((passed + $(count Passed) + $(count "Expectedly Failed")))
failed=$((failed + $(count Failed) + $(count Unresolved) + $(count "Timed Out") \
          + $(count "Unexpectedly Passed")))
if [ "$(count Passed)" -eq 0 ]; then
  echo "lit ran no tests"
  failed=$((failed + 1))
fi

# Python tests (frontends, numeric oracles), run by Debian's interpreter.
if compgen -G "$root/python/tests/test_*.py" > /dev/null; then
  py_log="$build/pytest-results.txt"
  (cd "$root/python" && RAF_BUILD_DIR="$build" "${pytest_cmd[@]}" -q \
      tests 2>&1) | tee "$py_log"
  py_passed=$(grep -oE '[0-9]+ passed' "$py_log" | tail -1 | cut -d' ' -f1)
  py_failed=$(grep -oE '[0-9]+ (failed|error)' "$py_log" | awk '{s += $1} END {print s + 0}')
  passed=$((passed + ${py_passed:-0}))
  failed=$((failed + py_failed))
fi

echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
