#!/usr/bin/env bash
# The fuzzing and sanitizer build (docs/fuzzing.md).
#
#   scripts/fuzz.sh TARGET SECONDS   fuzz one target (fuzz/) for SECONDS with
#                                    libFuzzer; prints executions, execs/s,
#                                    coverage and what it found
#   scripts/fuzz.sh --build [NINJA TARGETS...]
#                                    configure and build the build only
#                                    (default: everything)
#   scripts/fuzz.sh --list           the targets
#   scripts/fuzz.sh --env            the sanitizer options of the runs, as
#                                    shell exports (scripts/test.sh
#                                    --sanitize uses them too)
#
# The build (${RAF_SANITIZE_BUILD_DIR:-build-sanitize}) compiles all of the
# project's code with clang 22, AddressSanitizer, UndefinedBehaviorSanitizer
# and libFuzzer's coverage instrumentation (-fsanitize=fuzzer-no-link), and
# links the fuzz targets with libFuzzer (RAF_ENABLE_FUZZING); `scripts/test.sh
# --sanitize` runs the test suite on the same build. It is configured on first
# use; clang 22 comes from `scripts/install-deps.sh --fuzz`. Compiling and
# fuzzing run niced, on ${RAF_JOBS:-2} jobs.
#
# A run keeps its corpus in <build>/fuzz/corpus/TARGET (it grows from run to
# run), reads the seeds fuzz/seeds.py takes from the tests, writes what it
# finds to <build>/fuzz/artifacts/TARGET/ and its log to <build>/fuzz/logs/,
# and appends one line per run to <build>/fuzz/campaign.tsv. Environment:
# RAF_FUZZ_TIMEOUT (seconds per input, default 10), RAF_FUZZ_ARGS (more
# libFuzzer flags), RAF_FUZZ_NO_BUILD=1 (run the target as built, e.g. while
# another ninja works in the build).
set -uo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build="${RAF_SANITIZE_BUILD_DIR:-$root/build-sanitize}"
jobs="${RAF_JOBS:-2}"
targets=(mlir-parse relay-import relay-export vta-binary vta-sim npy pass-pipeline)

usage() {
  echo "usage: $0 TARGET SECONDS | --build [ninja targets...] | --list" >&2
  echo "targets: ${targets[*]}" >&2
  exit 2
}

configure() {
  [ -f "$build/build.ninja" ] && return 0
  "$root/scripts/install-deps.sh" --fuzz || return 1
  # LLVM's own switches (HandleLLVMOptions): ASan + UBSan and coverage for
  # libFuzzer on all of our code; -O1 and line tables for usable reports.
  # UBSan's vptr and function checks need RTTI on both sides of a call into
  # libMLIR, which is built without the sanitizers.
  cmake -G Ninja -S "$root" -B "$build" \
    -DCMAKE_BUILD_TYPE=Release \
    -DCMAKE_C_COMPILER=clang-22 -DCMAKE_CXX_COMPILER=clang++-22 \
    "-DCMAKE_C_FLAGS_RELEASE=-O1 -DNDEBUG" \
    "-DCMAKE_CXX_FLAGS_RELEASE=-O1 -DNDEBUG" \
    "-DLLVM_USE_SANITIZER=Address;Undefined" \
    "-DLLVM_UBSAN_FLAGS=-fsanitize=undefined -fno-sanitize=vptr,function" \
    -DLLVM_USE_SANITIZE_COVERAGE=ON -DLLVM_USE_LINKER=lld \
    -DRAF_ENABLE_FUZZING=ON
}

build_targets() {
  configure || return 1
  # Paths relative to the source tree let ccache share objects between
  # checkouts of the same sources.
  CCACHE_BASEDIR="$root" nice -n 15 ninja -C "$build" -j "$jobs" "$@"
}

# The sanitizer options of every run (scripts/test.sh --sanitize too):
# UBSan reports stop the process like ASan's, with a stack; leaks are
# reported (the tools free what they allocate); a failed allocation returns
# null as it would without ASan (the tools check it). libMLIR and libLLVM
# are not instrumented, so ASan cannot follow what they do with memory our
# instrumented copies of LLVM's inline code annotate: the std::vector
# annotations of containers they resize (container-overflow) and the
# poisoning of BumpPtrAllocator slabs they allocate from (use-after-poison);
# both kinds of report would be false, so both are off.
export ASAN_OPTIONS="${ASAN_OPTIONS:-detect_container_overflow=0:allow_user_poisoning=0:abort_on_error=1:allocator_may_return_null=1}"
export UBSAN_OPTIONS="${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}"

case "${1:-}" in
  --list) printf '%s\n' "${targets[@]}"; exit 0 ;;
  --env)
    printf 'export ASAN_OPTIONS=%q\nexport UBSAN_OPTIONS=%q\n' \
      "$ASAN_OPTIONS" "$UBSAN_OPTIONS"
    exit 0 ;;
  --build) shift; build_targets "$@"; exit $? ;;
  ""|-*) usage ;;
esac
[ $# -eq 2 ] || usage
target="$1"
seconds="$2"
[[ " ${targets[*]} " == *" $target "* ]] || usage
[[ "$seconds" =~ ^[0-9]+$ ]] || usage

if [ "${RAF_FUZZ_NO_BUILD:-0}" != 1 ]; then
  build_targets "raf-fuzz-$target" raf-translate raf-opt || exit 1
fi
work="$build/fuzz"
corpus="$work/corpus/$target"
seeds="$work/seeds/$target"
artifacts="$work/artifacts/$target"
mkdir -p "$corpus" "$seeds" "$artifacts" "$work/logs"
/usr/bin/python3 "$root/fuzz/seeds.py" "$target" "$seeds" "$build/bin" || exit 1
log="$work/logs/$target-$(date -u +%Y%m%dT%H%M%SZ).log"
before=$(ls "$artifacts" | wc -l)

echo "fuzz: $target for $seconds s (log: $log)"
# shellcheck disable=SC2086
nice -n 15 "$build/bin/raf-fuzz-$target" \
  -max_total_time="$seconds" -timeout="${RAF_FUZZ_TIMEOUT:-10}" \
  -rss_limit_mb=2048 -print_final_stats=1 \
  -artifact_prefix="$artifacts/" ${RAF_FUZZ_ARGS:-} \
  "$corpus" "$seeds" > "$log" 2>&1
status=$?

stat() { grep -m1 "^stat::$1:" "$log" | awk '{print $2}'; }
execs=$(stat number_of_executed_units)
rate=$(stat average_exec_per_sec)
counters=$(grep -m1 -oE "[0-9]+ inline 8-bit counters" "$log" | cut -d' ' -f1)
last=$(grep -E "#[0-9]+.*cov: " "$log" | tail -1)
cov=$(sed -nE 's/.*cov: ([0-9]+).*/\1/p' <<< "$last")
ft=$(sed -nE 's/.*ft: ([0-9]+).*/\1/p' <<< "$last")
files=$(ls "$corpus" | wc -l)
found=$(( $(ls "$artifacts" | wc -l) - before ))
result=ok
[ "$status" -ne 0 ] && result="stopped (exit $status)"
[ "$found" -gt 0 ] && result="found $found: $(ls -t "$artifacts" | head -"$found" | tr '\n' ' ')"

echo "fuzz: $target: ${execs:-0} executions, ${rate:-0} execs/s, coverage" \
     "${cov:-0} of ${counters:-?} edges (${ft:-0} features), corpus $files files"
echo "fuzz: $target: $result"
[ -f "$work/campaign.tsv" ] ||
  printf 'date\ttarget\tseconds\texecutions\texecs_per_s\tcov\tedges\tfeatures\tcorpus\tresult\n' \
    > "$work/campaign.tsv"
printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' \
  "$(date -u +%Y-%m-%dT%H:%M:%SZ)" "$target" "$seconds" "${execs:-0}" \
  "${rate:-0}" "${cov:-0}" "${counters:-?}" "${ft:-0}" "$files" "$result" \
  >> "$work/campaign.tsv"
[ "$found" -eq 0 ] && [ "$status" -eq 0 ]
