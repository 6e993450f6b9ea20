#!/usr/bin/env bash
# run_report.sh - how long `mnw report` takes over a run's outputs: its one
# pass over pairs.tsv.gz with 1, 2, 4, ... threads, against a baseline
# mnw (an earlier build, e.g. the single-thread zlib reader of 6ee2028)
# timed in the same run on the same files.
# usage: bench/run_report.sh OUTDIR [BASELINE_MNW] [THREADS...]
#   THREADS default: 1 2 4 8 and nproc. Each timing is the best of REPS
#   (default 2) runs; the page cache is whatever the machine has (say so).
# Prints per row: pairs, seconds, pairs/s, MB/s of pairs.tsv.gz read,
# cell-equivalent GCUPS (the run's DP cells, from its mnw.log "done:" line,
# over the report's seconds: how fast the report reads what the run
# computed), and the ratio to the baseline's seconds.
set -uo pipefail
. "$(dirname "$0")/lib.sh"
dir=$1 base=${2:-}
shift $(($# > 1 ? 2 : 1))
threads=${*:-"1 2 4 8 $(nproc)"}
reps=${REPS:-2}
bytes=$(stat -c %s "$dir/pairs.tsv.gz")
pairs=$(awk '$1 == "watermark" {print $2}' "$dir/mnw.bookmark")
# cells = GCUPS x 1e9 x seconds of the run's (last) done line
cells=$(grep 'INFO done:' "$dir/mnw.log" | tail -1 | sed -E 's/.* in ([0-9.]+)s: .* ([0-9.]+) GCUPS.*/\1 \2/' |
    awk '{printf "%.0f", $1 * $2 * 1e9}')
echo "# $(bench_stamp)"
echo "# $dir: pairs.tsv.gz $bytes bytes, $pairs pairs, $cells cells (from mnw.log)"
best() { # best REPS CMD...: the lowest wall seconds of REPS runs
    local b=""
    for ((r = 0; r < reps; r++)); do
        local t0 t1
        t0=$(date +%s.%N)
        "$@" >/dev/null 2>"$OUT/report_err.txt" || { echo "failed: $* ($(cat "$OUT/report_err.txt"))" >&2; echo 0; return; }
        t1=$(date +%s.%N)
        b=$(awk -v a="$t0" -v z="$t1" -v b="$b" 'BEGIN { t = z - a; print (b == "" || t < b) ? t : b }')
    done
    echo "$b"
}
row() { # row LABEL SECONDS BASE_SECONDS
    awk -v l="$1" -v t="$2" -v bt="$3" -v p="$pairs" -v by="$bytes" -v c="$cells" 'BEGIN {
        printf "%-26s %11d pairs %8.2f s %12.0f pairs/s %8.1f MB/s %9.0f GCUPS-eq  %s\n", l, p, t, p / t, by / t / 1e6,
            c / t / 1e9, (bt > 0) ? sprintf("%.2fx the baseline", bt / t) : "" }'
}
bt=0
if [ -n "$base" ]; then
    bt=$(best "$base" report "$dir" -o "$OUT/report-base.html")
    row "baseline ($(basename "$(dirname "$(dirname "$base")")"))" "$bt" 0
fi
for t in $threads; do
    s=$(best bin/mnw report "$dir" -t "$t" -o "$OUT/report-t$t.html")
    row "mnw report -t $t" "$s" "$bt"
done
# the pages agree: the same figures whatever the thread count
for t in $threads; do
    sed -E 's/read in [0-9.]+ s by [0-9]+ threads?//' "$OUT/report-t$t.html" |
        cmp -s - <(sed -E 's/read in [0-9.]+ s by [0-9]+ threads?//' "$OUT/report-t1.html") ||
        echo "DIFFERENT: the page of -t $t differs from -t 1"
done
