#!/usr/bin/env bash
# tests/san/run.sh asan|tsan [FILTER] - runs tests/run.sh on a sanitizer
# build (`make asan` / `make tsan` build it first: build-asan + bin-asan,
# build-tsan + bin-tsan) and ends, like it, with "N passed, N failed".
#
# Any sanitizer report fails the test that produced it: every instrumented
# process (mnw, its MPI ranks, the unit tests, the test tools) writes its
# reports to files in a report directory (log_path), which tests/run.sh
# checks after each test (MNW_TEST_REPORTS), so a report counts even where a
# test expects mnw to fail or ignores its exit status. Errors also stop the
# process (halt_on_error, UBSan built with -fno-sanitize-recover) with exit
# status 66.
#
# Suppressions (tests/san/*.supp, each entry explained there) name only Open
# MPI, PMIx, hwloc and libc internals, never mnw code.
#
# What each one skips or scales down (docs/TESTING.md, "Sanitizers and
# fuzzing"): both skip the GPU emulation (t_gpu_emu.sh; test_gpu_emu and
# mnw-emu are not built: their hand-written context switch moves stacks under
# the sanitizers' feet), and t_e2e.sh does not also compare scores with
# parasail (MNW_SAN). Under tsan, test_nw is skipped (it starts no thread),
# and t_e2e.sh (the same threads as t_mpi.sh and t_resume.sh, 8 minutes
# under TSan), and test_tb runs one scoring mode (MNW_TEST_TB_QUICK).
# MNW_SAN_SKIP="NAME ..." skips more.
set -u
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
cd "$ROOT"
san=${1:-}
shift || true
case $san in
    asan | tsan) ;;
    *) echo "usage: tests/san/run.sh asan|tsan [FILTER]" >&2; exit 2 ;;
esac
[ -x "bin-$san/mnw" ] || { echo "bin-$san/mnw is not built (make $san)"; echo "0 passed, 1 failed"; exit 1; }
reports=$(mktemp -d "${TMPDIR:-/tmp}/mnw-$san.XXXXXX")
export MNW_SAN=$san MNW_BUILD="build-$san" MNW_BIN="bin-$san/mnw" MNW_TEST_REPORTS="$reports"
skip="t_gpu_emu.sh"
common="halt_on_error=1:exitcode=66:log_path=$reports/$san"
if [ "$san" = asan ]; then
    # fast_unwind_on_malloc=0: exact allocation stacks through Open MPI's
    # libraries (built without frame pointers), so that the leak
    # suppressions can name where a leak was allocated (costs nothing
    # measurable here: mnw allocates little per pair)
    export ASAN_OPTIONS="$common:detect_leaks=1:fast_unwind_on_malloc=0:check_initialization_order=1:strict_init_order=1"
    export UBSAN_OPTIONS="halt_on_error=1:exitcode=66:print_stacktrace=1:log_path=$reports/ubsan"
    export LSAN_OPTIONS="suppressions=$ROOT/tests/san/lsan.supp:print_suppressions=0"
else
    export TSAN_OPTIONS="$common:second_deadlock_stack=1:suppressions=$ROOT/tests/san/tsan.supp:print_suppressions=0"
    export MNW_TEST_TB_QUICK=1 # test_tb: one scoring mode (tests/unit/test_tb.c)
    skip="$skip test_nw"       # starts no thread: nothing for TSan to see (asan runs it)
    skip="$skip t_e2e.sh"      # outputs against parasail and the formats: 8 min under TSan, and its
                               # threads (workers, trace-back, writer) run in t_mpi and t_resume too
fi
export MNW_TEST_SKIP="$skip ${MNW_SAN_SKIP:-}"
echo "$san: build-$san, bin-$san/mnw; reports in $reports; skipped: $MNW_TEST_SKIP"
bash tests/run.sh "$@"
rc=$?
# reports stay for a failed run (tests/run.sh printed their first lines)
[ "$rc" -eq 0 ] && rm -rf "$reports"
exit "$rc"
