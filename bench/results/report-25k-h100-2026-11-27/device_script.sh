#!/usr/bin/env bash
# report_25k.sh - issue 24: how long `mnw report` takes on the 16s-25k
# outputs (312 M pairs). In the background (it outlasts one device call):
#   bench/device/report_25k.sh start    builds bin/mnw and the baseline
#       (bench/tmp/old: the tree of 6ee2028, its single-thread zlib reader,
#       carried), runs 16s-25k on the GPU (default outputs), reports it once
#       while it runs (a run in progress), then bench/run_report.sh on the
#       finished outputs
#   bench/device/report_25k.sh wait SECONDS   waits, then prints the log
set -uo pipefail
. "$(dirname "$0")/../lib.sh"
log=bench/tmp/report-25k.txt
case ${1:-} in
start)
    bench_cuda
    bench_machine >"$log"
    setsid bash -c '
        . bench/lib.sh; log='"$log"'
        bench_build bench/tmp/build.txt bin/mnw
        (cd bench/tmp/old && make -j"$(nproc)" LIBDEFLATE_DIR="$PWD/../../../.deps/usr" bin/mnw >../build-old.txt 2>&1) ||
            { say "old build failed"; tail -20 bench/tmp/build-old.txt >>"$log"; }
        say "== $(date -u +%FT%TZ) 16s-25k on the GPU, default outputs"
        rm -rf /tmp/r25k
        bin/mnw -q -i devdata/16s-25k.fa.gz -o /tmp/r25k &
        pid=$!
        sleep 100
        t0=$(date +%s.%N)
        bin/mnw report /tmp/r25k -o bench/tmp/report-inprogress.html >>"$log" 2>&1
        say "report of the run in progress, while it runs (100 s in): rc $?, $(awk -v a="$t0" -v z="$(date +%s.%N)" "BEGIN{printf \"%.1f s\", z-a}")"
        wait $pid
        say "run rc $?"
        grep "INFO done:" /tmp/r25k/mnw.log >>"$log"
        ls -l /tmp/r25k >>"$log"
        say "== $(date -u +%FT%TZ) the report over the finished run (page cache warm: the run just wrote it)"
        REPS=1 OUT=bench/tmp bench/run_report.sh /tmp/r25k bench/tmp/old/bin/mnw 1 2 4 8 16 >>"$log" 2>&1
        cp /tmp/r25k/mnw.log /tmp/r25k/progress.json /tmp/r25k/mnw.bookmark bench/tmp/ 2>/dev/null
        say "== all done $(date -u +%FT%TZ)"' </dev/null >/dev/null 2>&1 &
    echo started ;;
wait)
    end=$(( $(date +%s) + ${2:-500} ))
    while [ "$(date +%s)" -lt "$end" ] && ! grep -q '== all done' "$log"; do sleep 5; done
    cat "$log"
    [ -n "${OUT:-}" ] && [ "$OUT" != bench/tmp ] && cp "$log" bench/tmp/report-inprogress.html bench/tmp/report-t16.html bench/tmp/mnw.log bench/tmp/progress.json bench/tmp/mnw.bookmark "$OUT/" 2>/dev/null
    true ;;
*) echo "usage: $0 start | wait SECONDS" >&2; exit 2 ;;
esac
