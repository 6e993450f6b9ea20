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
# Two depths (docs/TESTING.md, "Sanitizers and fuzzing"):
#  - quick (the default; `make asan`, `make tsan`, CI): every unit test and
#    every shell test but t_bench.sh runs, so every code path (MPI ranks, resume, stop
#    signals, the GPU emulation, the formats, the errors) runs instrumented,
#    but the tests repeat the same path fewer times (MNW_TEST_QUICK: 3 of
#    t_mpi's 12 rank x list-size runs, 4 of t_resume's 9 kills, fewer
#    t_e2e variants on fewer genes, one test_tb scoring mode,
#    MNW_GPU_TEST_SMALL's pairs in test_gpu_emu, t_paf on fewer genes), and
#    t_bench.sh (the benchmark programs) is skipped;
#  - full (`make asan-full`, `make tsan-full`): every repetition, as in
#    `make test`.
# Both: t_e2e.sh does not also compare scores with parasail (MNW_SAN:
# parasail is not instrumented; `make test` compares them). The emulated GPU
# kernels are not instrumented (Makefile: their lanes are coroutines on
# stacks switched by hand); the host side of the GPU code is.
# MNW_SAN_SKIP="NAME ..." skips those tests instead of the default (set and
# empty: none skipped).
set -u
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
cd "$ROOT"
san=${1:-}
shift || true
depth=quick
[ "${1:-}" = full ] && { depth=full; shift; }
case $san in
    asan | tsan) ;;
    *) echo "usage: tests/san/run.sh asan|tsan [full] [FILTER]" >&2; exit 2 ;;
esac
[ -x "bin-$san/mnw" ] || { echo "bin-$san/mnw is not built (make $san)"; echo "0 passed, 1 failed"; exit 1; }
reports=$(mktemp -d "${TMPDIR:-/tmp}/mnw-$san.XXXXXX")
export MNW_SAN=$san MNW_BUILD="build-$san" MNW_BIN="bin-$san/mnw" MNW_TEST_REPORTS="$reports"
if [ "$depth" = quick ]; then
    export MNW_TEST_QUICK=1 MNW_TEST_TB_QUICK=1 MNW_GPU_TEST_SMALL=1
fi
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
fi
# quick depth: t_bench.sh is left to `make test` and the full depth (it runs
# the benchmark programs, whose production code the other tests run
# instrumented; under the sanitizers it took 72-76 s of CI's 2 cores)
# t_scale.sh is left to `make test` at every depth: three ranks of 225 MB
# of sequences each, instrumented, on CI's 2 cores and its memory; the same
# code (MPI-IO output, resume, status) runs here in t_mpi, t_mpiio, t_resume
# t_layers.sh reads the sources (scripts/layers.py): nothing of mnw runs in it
# t_submit_props.sh and t_shellcheck.sh run the shell scripts (slurm/), not mnw
skip_default="t_scale.sh t_layers.sh t_submit_props.sh t_shellcheck.sh"
# and t_report.sh (mnw report on the bundled sample, stopped and resumed, then
# headless Chromium: about a minute instrumented, for code the full depth runs)
[ "$depth" = quick ] && skip_default="$skip_default t_bench.sh t_report.sh"
# quick depth under TSan: only the tests whose threads meet (t_like: 309 s
# under TSan in the fresh-clone CI at 4948827, for scoring options over the
# same worker threads). The tests left
# out run one thread (the unit tests below) or vary formats, files and
# options over the same threads (workers, writer, comm thread) that t_e2e,
# t_mpi (both output modes), t_resume, test_tb and the GPU emulation tests run in every setup
# they have; ASan runs all of them (docs/TESTING.md, CI time, 2026-11-26:
# fresh-clone CI: 328 s of the tsan part's 951 s of test time)
[ "$depth" = quick ] && [ "$san" = tsan ] &&
    skip_default="$skip_default test_bookmark test_cld test_fmtnum test_identity test_nw test_pathfig test_progress
        test_shard t_biopython.sh t_counts.sh t_errors.sh t_gpu_none.sh t_identity_tools.sh t_install.sh
        t_mothur_formats.sh t_mpiio.sh t_outdir.sh t_outputs.sh t_paf.sh t_shard.sh t_shardset.sh t_submit.sh t_topo.sh
        t_verify.sh test_safeio test_util t_plant.sh t_readsafe.sh test_prune t_prune.sh t_prune_opts.sh t_prune_count.sh
        t_like.sh t_needle.sh"
skip_default=$(echo $skip_default)
export MNW_TEST_SKIP="${MNW_SAN_SKIP-$skip_default}"
echo "$san ($depth): build-$san, bin-$san/mnw; reports in $reports${MNW_TEST_SKIP:+; skipped: $MNW_TEST_SKIP}"
bash tests/run.sh "$@"
rc=$?
# reports stay for a failed run (tests/run.sh printed their first lines)
[ "$rc" -eq 0 ] && rm -rf "$reports"
exit "$rc"
