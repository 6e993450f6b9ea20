#!/usr/bin/env bash
# tests/fuzz/run.sh SECONDS TARGET... - runs each libFuzzer target
# build-fuzz/fuzz_TARGET (make fuzz) for SECONDS (-max_total_time),
# FUZZ_JOBS at a time (default: the number of CPUs; each target is one
# process on one CPU, so two at once on two CPUs make as many executions
# each as one after another), on a copy of its seed corpus tests/fuzz/corpus/TARGET (the
# committed corpus never grows by itself), with its dictionary
# tests/fuzz/TARGET.dict. Prints, per target, one "ok - " or "not ok - "
# line with the executions, executions per second, corpus files at the start
# and the end, and the crashes; a crash (a failed property, a sanitizer
# report, a leak, a timeout of 10 s on one input, more than 2 GB) fails the
# target, and its input is kept in build-fuzz/crashes/TARGET/ for
# `build-fuzz/fuzz_TARGET FILE`. Ends with "N passed, N failed".
set -u
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
cd "$ROOT"
secs=${1:?usage: tests/fuzz/run.sh SECONDS TARGET...}
shift
# in-memory scratch space where there is some (the bookmark target writes files)
if [ -z "${TMPDIR:-}" ] && [ -d /dev/shm ] && [ -w /dev/shm ]; then export TMPDIR=/dev/shm; fi
work=$(mktemp -d "${TMPDIR:-/tmp}/mnw-fuzz.XXXXXX")
trap 'rm -rf "$work"' EXIT
sym=$(command -v llvm-symbolizer || command -v llvm-symbolizer-14 || ls /usr/lib/llvm-14/bin/llvm-symbolizer 2>/dev/null)
[ -n "$sym" ] && export ASAN_SYMBOLIZER_PATH="$sym"
export ASAN_OPTIONS="detect_leaks=1:abort_on_error=0${ASAN_OPTIONS:+:$ASAN_OPTIONS}"
export UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=1${UBSAN_OPTIONS:+:$UBSAN_OPTIONS}"
# fuzz_one TARGET : fuzzes it; its lines in $work/TARGET.out, 0 or 1 in $work/TARGET.rc
fuzz_one() {
    local t=$1 bin="$ROOT/build-fuzz/fuzz_$1" d="$work/$1" seeds dict t0 rc el execs files crashes line
    mkdir -p "$d/corpus" "$d/crashes"
    if [ ! -x "$bin" ]; then
        echo "not ok - fuzz_$t: $bin is not built (make fuzz)"
        return 1
    fi
    cp tests/fuzz/corpus/"$t"/* "$d/corpus/"
    seeds=$(ls "$d/corpus" | wc -l)
    dict=()
    [ -f "tests/fuzz/$t.dict" ] && dict=(-dict="$ROOT/tests/fuzz/$t.dict")
    t0=$(date +%s)
    (cd "$d" && "$bin" -max_total_time="$secs" -max_len=16384 -timeout=10 -rss_limit_mb=2048 -print_final_stats=1 \
        -artifact_prefix="$d/crashes/" "${dict[@]}" corpus) >"$d/log" 2>&1
    rc=$?
    el=$(($(date +%s) - t0))
    execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$d/log" | tail -1)
    [ -z "$execs" ] && execs=$(sed -n 's/^#\([0-9]*\).*/\1/p' "$d/log" | tail -1) # no stats after a crash
    execs=${execs:-0}
    files=$(ls "$d/corpus" | wc -l)
    crashes=$(ls "$d/crashes" | wc -l)
    line="fuzz_$t: $execs executions in ${el} s ($((execs / (el > 0 ? el : 1)))/s), corpus $seeds -> $files files, $crashes crashes"
    if [ "$rc" -eq 0 ] && [ "$crashes" -eq 0 ]; then
        echo "ok - $line"
        return 0
    fi
    echo "not ok - $line (exit $rc)"
    grep -E 'ERROR|SUMMARY|property failed|^    #[0-9]' "$d/log" | head -30 | sed 's/^/#   /'
    mkdir -p "build-fuzz/crashes/$t"
    cp "$d/crashes/"* "build-fuzz/crashes/$t/" 2>/dev/null && echo "#   kept in build-fuzz/crashes/$t/: $(ls "$d/crashes" | tr '\n' ' ')"
    return 1
}
jobs=${FUZZ_JOBS:-$(nproc 2>/dev/null || echo 1)}
[ "$jobs" -ge 1 ] 2>/dev/null || jobs=1
running=0
for t in "$@"; do
    if [ "$running" -ge "$jobs" ]; then wait -n; running=$((running - 1)); fi
    { fuzz_one "$t" >"$work/$t.out" 2>&1; echo $? >"$work/$t.rc"; } &
    running=$((running + 1))
done
wait
pass=0
fail=0
for t in "$@"; do
    cat "$work/$t.out"
    if [ "$(cat "$work/$t.rc")" = 0 ]; then pass=$((pass + 1)); else fail=$((fail + 1)); fi
done
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
