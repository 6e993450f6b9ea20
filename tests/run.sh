#!/usr/bin/env bash
# tests/run.sh - runs every C unit test (build/tests/test_*) and shell test
# (tests/sh/t_*.sh), or with MNW_TEST_SET=gpu those of tests/gpu (slurm:
# tests/slurm), counts their "ok"/"not ok" lines and ends with
# "N passed, N failed". A test program that exits non-zero without printing a
# failing line counts as one failure; one that runs past MNW_TEST_TIMEOUT
# seconds (default 1200) is stopped and fails. Usage: tests/run.sh [FILTER]
# MNW_BUILD=DIR runs the unit tests of DIR/tests (default build; the shell
# tests read it too, tests/lib.sh), MNW_TEST_SKIP="NAME ..." skips those
# tests (file names, e.g. "t_gpu_emu.sh test_gpu_emu"), and
# MNW_TEST_REPORTS=DIR names a directory where sanitizer reports land
# (tests/san/run.sh): a report there after a test fails that test.
set -u
ROOT=$(cd "$(dirname "$0")/.." && pwd)
cd "$ROOT"
filter=${1:-}
pass=0; fail=0
log=$(mktemp)
run_one() {
    local name=$1; shift
    local t0=$(date +%s)
    timeout "${MNW_TEST_TIMEOUT:-1200}" "$@" >"$log" 2>&1
    local rc=$?
    [ "$rc" -eq 124 ] && echo "not ok - $name timed out after ${MNW_TEST_TIMEOUT:-1200}s" >>"$log"
    local p f r
    if [ -n "${MNW_TEST_REPORTS:-}" ]; then
        for r in "$MNW_TEST_REPORTS"/*; do
            [ -f "$r" ] || continue
            { echo "not ok - $name: sanitizer report $(basename "$r")"; head -40 "$r"; } >>"$log"
            mkdir -p "$MNW_TEST_REPORTS/seen" && mv "$r" "$MNW_TEST_REPORTS/seen/$name.$(basename "$r")"
        done
    fi
    p=$(grep -c '^ok - ' "$log")
    f=$(grep -c '^not ok - ' "$log")
    if [ "$rc" -ne 0 ] && [ "$f" -eq 0 ]; then
        echo "not ok - $name exited with status $rc" >>"$log"
        f=1
    fi
    pass=$((pass + p)); fail=$((fail + f))
    printf '%-40s %4d passed %3d failed  (%ds)\n' "$name" "$p" "$f" $(( $(date +%s) - t0 ))
    if [ "$f" -ne 0 ]; then grep -v '^ok - ' "$log" | head -60 | sed 's/^/    /'; fi
}
# MNW_TEST_SET=gpu: the GPU tests (build/tests-gpu, tests/gpu; make test-gpu)
build=${MNW_BUILD:-build}
# MNW_TEST_SET=slurm: the tests on a real Slurm on this host (tests/slurm; make test-slurm)
case ${MNW_TEST_SET:-} in
gpu) units=$build/tests-gpu shells=tests/gpu ;;
slurm) units=/nonexistent shells=tests/slurm ;;
*) units=$build/tests shells=tests/sh ;;
esac
skipped() { case " ${MNW_TEST_SKIP:-} " in *" $1 "*) printf '%-40s skipped (MNW_TEST_SKIP)\n' "$1"; return 0 ;; esac; return 1; }
for t in "$units"/test_*; do
    [ -x "$t" ] || continue
    case "$t" in *"$filter"*) ;; *) continue ;; esac
    skipped "$(basename "$t")" && continue
    run_one "$(basename "$t")" "$t"
done
for t in "$shells"/t_*.sh; do
    [ -f "$t" ] || continue
    case "$t" in *"$filter"*) ;; *) continue ;; esac
    skipped "$(basename "$t")" && continue
    run_one "$(basename "$t")" bash "$t"
done
rm -f "$log"
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
