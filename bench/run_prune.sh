#!/usr/bin/env bash
# run_prune.sh - issue 39's end-to-end measure: the same mnw run with the
# filter off (--prune no, the baseline) and on (--prune yes), alternating,
# in one invocation on one machine, outputs compared with cmp.
# usage: bench/run_prune.sh DATA CUTOFF REPS [mnw options...]
#   e.g. bench/run_prune.sh devdata/16s-2k.fa.gz 0.03 2 -t 2 --gpus none
# Every run: --outputs dist --cutoff CUTOFF plus the options given (a
# --shard I/N there measures one pair range of a large set: both runs align
# the same range). Prints one line a run (seconds, pairs, pruned, pairs/s,
# mnw's own GCUPS: cells = len1 x len2 of the pairs it aligned; with GPUs
# their log lines, the filter's among them), then the
# ratio of the median pairs/s, on over off. Outputs go to bench/tmp/prune-*
# (replaced, deleted at the end).
set -uo pipefail
. "$(dirname "$0")/lib.sh"
[ $# -ge 3 ] || { sed -n 2,13p "$0"; exit 2; }
data=$1 cutoff=$2 reps=$3
shift 3
echo "# $(bench_stamp)"
echo "# bin/mnw -i $data --outputs dist --cutoff $cutoff $* (--prune no | yes), $reps reps"
declare -a ron roff
one() { # one MODE REP: a run; its pairs/s appended to ron / roff
    local mode=$1 rep=$2 out=bench/tmp/prune-$1 t0 t1 line pairs pruned gcups rate
    shift 2
    rm -rf "$out"
    t0=$(date +%s.%N)
    bin/mnw -q -i "$data" -o "$out" --outputs dist --cutoff "$cutoff" --prune "$mode" "$@" ||
        { echo "mnw failed (--prune $mode)"; tail -5 "$out/mnw.log"; exit 1; }
    t1=$(date +%s.%N)
    line=$(grep 'INFO done:' "$out/mnw.log" | tail -1)
    pairs=$(sed -E 's/.*done: ([0-9]+) pairs.*/\1/' <<<"$line")
    gcups=$(sed -E 's/.* ([0-9.]+) GCUPS.*/\1/' <<<"$line")
    pruned=$(sed -n 's/.*"pruned": *\([0-9]*\).*/\1/p' "$out/progress.json" | head -1)
    rate=$(awk -v p="$pairs" -v a="$t0" -v b="$t1" 'BEGIN { printf "%.0f", p / (b - a) }')
    awk -v m="$mode" -v r="$rep" -v p="$pairs" -v x="${pruned:-0}" -v a="$t0" -v b="$t1" -v g="$gcups" \
        'BEGIN { printf "prune %-3s rep %d  %9.2f s  pairs %11d  pruned %11d (%6.2f%%)  %11.0f pairs/s  %8s GCUPS\n",
                        m, r, b - a, p, x, p ? 100 * x / p : 0, p / (b - a), g }'
    # the GPUs' lines (pairs aligned, and with the filter its figures)
    grep -E 'GPU [0-9]+: ([0-9]+ pairs in|filter:)' "$out/mnw.log" | sed 's/^[^]]*] /    /'
    if [ "$mode" = yes ]; then ron+=("$rate"); else roff+=("$rate"); fi
}
median() { printf '%s\n' "$@" | sort -n | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }
for r in $(seq 1 "$reps"); do
    one no "$r" "$@"
    one yes "$r" "$@"
    cmp bench/tmp/prune-no/dist.column.gz bench/tmp/prune-yes/dist.column.gz ||
        { echo "OUTPUTS DIFFER (rep $r)"; exit 1; }
done
mon=$(median "${ron[@]}") moff=$(median "${roff[@]}")
awk -v a="$mon" -v b="$moff" 'BEGIN { printf "median pairs/s: off %.0f, on %.0f, ratio on/off %.2fx; outputs cmp-identical in every rep\n", b, a, a / b }'
rm -rf bench/tmp/prune-no bench/tmp/prune-yes
