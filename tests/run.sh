#!/usr/bin/env bash
# tests/run.sh - runs every C unit test (build/tests/test_*) and shell test
# (tests/sh/t_*.sh), or with MNW_TEST_SET=gpu those of tests/gpu (slurm:
# tests/slurm), counts their "ok"/"not ok" lines and ends with
# "N passed, N failed". A test program that exits non-zero without printing a
# failing line counts as one failure; one that runs past MNW_TEST_TIMEOUT
# seconds (default 1200) is stopped and fails. Usage: tests/run.sh [FILTER]
#
# Tests run MNW_TEST_JOBS at a time (default: the number of CPUs, at most 2;
# 1 runs them one after another), longest first (the order below), each with
# its own scratch folder (tests/lib.sh) and output file; each one's lines are
# printed when it ends. The tests never depend on one another or on timing
# beyond generous waits, so two at once only change how long the suite takes.
#
# MNW_BUILD=DIR runs the unit tests of DIR/tests (default build; the shell
# tests read it too, tests/lib.sh), MNW_TEST_SKIP="NAME ..." skips those
# tests (file names, e.g. "t_gpu_emu.sh test_gpu_emu"), and
# MNW_TEST_REPORTS=DIR names a directory where sanitizer reports land
# (tests/san/run.sh): each test gets its own folder DIR/NAME (the
# sanitizers' log_path is pointed there), and a report in it fails the test.
set -u
ROOT=$(cd "$(dirname "$0")/.." && pwd)
cd "$ROOT"
filter=${1:-}
pass=0; fail=0
out=$(mktemp -d "${TMPDIR:-/tmp}/mnw-run.XXXXXX")
trap 'rm -rf "$out"' EXIT
jobs=${MNW_TEST_JOBS:-$(nproc 2>/dev/null || echo 1)}
[ "$jobs" -gt 2 ] && [ -z "${MNW_TEST_JOBS:-}" ] && jobs=2
[ "$jobs" -ge 1 ] 2>/dev/null || jobs=1

# run_one NAME CMD... : runs one test into $out/NAME.log, then writes its
# result line to $out/NAME.res ("PASSED FAILED SECONDS")
run_one() {
    local name=$1; shift
    local log=$out/$name.log t0=$SECONDS rc p f r
    if [ -n "${MNW_TEST_REPORTS:-}" ]; then # this test's own report folder
        local rd=$MNW_TEST_REPORTS/$name
        mkdir -p "$rd"
        export ASAN_OPTIONS=${ASAN_OPTIONS:-}; ASAN_OPTIONS=${ASAN_OPTIONS//log_path=$MNW_TEST_REPORTS\//log_path=$rd/}
        export UBSAN_OPTIONS=${UBSAN_OPTIONS:-}; UBSAN_OPTIONS=${UBSAN_OPTIONS//log_path=$MNW_TEST_REPORTS\//log_path=$rd/}
        export TSAN_OPTIONS=${TSAN_OPTIONS:-}; TSAN_OPTIONS=${TSAN_OPTIONS//log_path=$MNW_TEST_REPORTS\//log_path=$rd/}
    fi
    timeout "${MNW_TEST_TIMEOUT:-1200}" "$@" >"$log" 2>&1
    rc=$?
    [ "$rc" -eq 124 ] && echo "not ok - $name timed out after ${MNW_TEST_TIMEOUT:-1200}s" >>"$log"
    if [ -n "${MNW_TEST_REPORTS:-}" ]; then
        for r in "$rd"/*; do
            [ -f "$r" ] || continue
            { echo "not ok - $name: sanitizer report $(basename "$r")"; head -40 "$r"; } >>"$log"
            mkdir -p "$MNW_TEST_REPORTS/seen" && mv "$r" "$MNW_TEST_REPORTS/seen/$name.$(basename "$r")"
        done
        rmdir "$rd" 2>/dev/null
    fi
    p=$(grep -c '^ok - ' "$log")
    f=$(grep -c '^not ok - ' "$log")
    if [ "$rc" -ne 0 ] && [ "$f" -eq 0 ]; then
        echo "not ok - $name exited with status $rc" >>"$log"
        f=1
    fi
    echo "$p $f $((SECONDS - t0))" >"$out/$name.res.tmp" && mv "$out/$name.res.tmp" "$out/$name.res"
}
# report NAME : prints a finished test's line (and its failures) and counts it
report() {
    local name=$1 p f s
    read -r p f s <"$out/$name.res"
    pass=$((pass + p)); fail=$((fail + f))
    printf '%-40s %4d passed %3d failed  (%ds)\n' "$name" "$p" "$f" "$s"
    if [ "$f" -ne 0 ]; then grep -v '^ok - ' "$out/$name.log" | head -60 | sed 's/^/    /'; fi
    rm -f "$out/$name.res"
}
# MNW_TEST_SET=gpu: the GPU tests (build/tests-gpu, tests/gpu; make test-gpu)
build=${MNW_BUILD:-build}
# MNW_TEST_SET=slurm: the tests on a real Slurm on this host (tests/slurm; make test-slurm)
case ${MNW_TEST_SET:-} in
gpu) # one at a time: each GPU test opens the device with 75% of its free
     # memory, so two at once can find too little (cudaMalloc out of memory)
     units=$build/tests-gpu shells=tests/gpu
     [ -z "${MNW_TEST_JOBS:-}" ] && jobs=1 ;;
slurm) units=/nonexistent shells=tests/slurm ;;
*) units=$build/tests shells=tests/sh ;;
esac
skipped() { case " ${MNW_TEST_SKIP:-} " in *" $1 "*) printf '%-40s skipped (MNW_TEST_SKIP)\n' "$1"; return 0 ;; esac; return 1; }
# the longest tests first (measured: docs/TESTING.md), so that two at a
# time end close together; the rest in name order
first="t_mpi.sh t_resume.sh t_e2e.sh test_gpu_emu t_prune.sh t_mpiio.sh test_tb t_gpu_emu.sh t_prune_opts.sh t_scale.sh"
names=() cmds=()
add() { # add PATH CMD... : the test at PATH, if FILTER matches its path
    case "$1" in *"$filter"*) ;; *) return ;; esac
    set -- "$(basename "$1")" "${@:2}"
    skipped "$1" && return
    names+=("$1")
    cmds+=("${*:2}")
}
list=()
for t in "$units"/test_* "$shells"/t_*.sh; do
    [ -e "$t" ] && list+=("$t")
done
ordered=()
for n in $first; do
    for t in "${list[@]}"; do [ "$(basename "$t")" = "$n" ] && ordered+=("$t"); done
done
for t in "${list[@]}"; do
    case " $first " in *" $(basename "$t") "*) ;; *) ordered+=("$t") ;; esac
done
for t in "${ordered[@]}"; do
    case $t in
    *.sh) add "$t" bash "$t" ;;
    *) [ -x "$t" ] && add "$t" "$t" ;;
    esac
done
running=() # names of the tests in flight
reap() {   # reports every test in flight that has ended
    local n keep=()
    for n in "${running[@]}"; do
        if [ -f "$out/$n.res" ]; then report "$n"; else keep+=("$n"); fi
    done
    running=("${keep[@]}")
}
for i in "${!names[@]}"; do
    while [ "${#running[@]}" -ge "$jobs" ]; do
        wait -n 2>/dev/null
        reap
    done
    # shellcheck disable=SC2086 # the command is a path and its arguments, no spaces
    run_one "${names[$i]}" ${cmds[$i]} &
    running+=("${names[$i]}")
done
wait
reap
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
