#!/usr/bin/env bash
# Fuzzes every libFuzzer target of tests/fuzz/ (or those named) for SECONDS
# each, one after the other, and prints per target the executions, the
# coverage (edges, as libFuzzer's "cov") and the features reached.
#
#   tests/fuzz/run.sh [-b BUILDDIR] SECONDS [TARGET...]
#
# BUILDDIR (default build-fuzz) is configured with clang if it does not
# exist yet, and only the fuzz targets are built. New inputs go to
# BUILDDIR/fuzz-corpus/<target>/ (kept between runs, so that long local runs
# build on each other); the committed seeds in tests/fuzz/corpus/<target>/
# are read, never written. A crash, leak, sanitizer report, broken
# invariant or an input slower than 10 s (120 s for system_api) is a
# finding: it is saved under
# BUILDDIR/fuzz-artifacts/, shown, and the script exits 1.
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
root=$(cd "$here/../.." && pwd)
build=build-fuzz
if [ "${1:-}" = "-b" ]; then
    build=${2:?-b needs a build directory}
    shift 2
fi
seconds=${1:?usage: tests/fuzz/run.sh [-b BUILDDIR] SECONDS [TARGET...]}
shift
case $build in /*) ;; *) build="$root/$build" ;; esac

if [ $# -gt 0 ]; then
    targets=("$@")
else
    targets=()
    for f in "$here"/fuzz_*.c; do
        t=$(basename "$f" .c)
        targets+=("${t#fuzz_}")
    done
fi

# Quiet unless it fails; then the whole output says why.
quietly() {
    local out
    if ! out=$("$@" 2>&1); then
        printf '%s\n' "$out" >&2
        echo "fuzz/run.sh: failed: $*" >&2
        return 1
    fi
}
if [ ! -f "$build/build.ninja" ]; then
    CC=${FUZZ_CC:-clang} CXX=${FUZZ_CXX:-clang++} \
        quietly meson setup "$build" "$root" -Dexamples=disabled -Dwerror=true
fi
quietly ninja -C "$build" $(printf 'tests/fuzz/fuzz_%s ' "${targets[@]}")

export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-halt_on_error=1:print_stacktrace=1}
status=0
summary=()
for t in "${targets[@]}"; do
    exe="$build/tests/fuzz/fuzz_$t"
    work="$build/fuzz-corpus/$t"
    art="$build/fuzz-artifacts"
    log="$build/fuzz-$t.log"
    mkdir -p "$work" "$art"
    echo "--- fuzz_$t: $seconds s"
    rc=0
    # An input may take 10 s, or 120 s for system_api, whose inputs step
    # systems of up to 24 particles and 16 grounds up to 64 times (its RK45
    # steps stop at a watchdog's 10^5 evaluations per input; before it, one
    # step of RK45's documented 10^6 internal steps took 10 to 130 s under
    # the sanitizers on a loaded machine).
    case $t in system_api) limit=120 ;; *) limit=10 ;; esac
    "$exe" -max_total_time="$seconds" -timeout="$limit" -rss_limit_mb=2048 -print_final_stats=1 \
        -artifact_prefix="$art/$t-" "$work" "$here/corpus/$t" >"$log" 2>&1 || rc=$?
    execs=$(awk '/^stat::number_of_executed_units:/ {print $2}' "$log" | tail -n 1)
    cov=$(grep -oE 'cov: [0-9]+' "$log" | tail -n 1 | awk '{print $2}')
    ft=$(grep -oE 'ft: [0-9]+' "$log" | tail -n 1 | awk '{print $2}')
    corp=$(grep -oE 'corp: [0-9]+' "$log" | tail -n 1 | awk '{print $2}')
    line=$(printf 'fuzz_%-14s %10s executions in %s s, coverage %s edges, %s features, corpus %s' \
        "$t" "${execs:-?}" "$seconds" "${cov:-?}" "${ft:-?}" "${corp:-?}")
    if [ "$rc" -ne 0 ]; then
        status=1
        line="$line: FINDING (exit $rc)"
        tail -n 40 "$log"
        ls -1 "$art"/"$t"-* 2>/dev/null | sed 's/^/artifact: /' || true
    else
        line="$line: no finding"
    fi
    echo "$line"
    summary+=("$line")
done
echo "--- summary"
printf '%s\n' "${summary[@]}"
exit "$status"
