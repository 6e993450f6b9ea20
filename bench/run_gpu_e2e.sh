#!/usr/bin/env bash
# run_gpu_e2e.sh - one end-to-end mnw run (alignments computed, the default
# outputs written) timed from the outside, with the figures mnw logs.
# usage: bench/run_gpu_e2e.sh DATA LABEL [mnw options...]
# Prints one line: label, pairs, wall seconds, pairs/s, GCUPS (mnw's own,
# cells = len1 x len2), and the GPU lines of mnw.log. Output goes to
# bench/tmp/e2e-LABEL (replaced).
set -uo pipefail
. "$(dirname "$0")/lib.sh"
data=$1 label=$2; shift 2
out=bench/tmp/e2e-$label
rm -rf "$out"; mkdir -p bench/tmp
t0=$(date +%s.%N)
bin/mnw -q -i "$data" -o "$out" "$@" || { echo "$label: mnw failed"; tail -5 "$out/mnw.log"; exit 1; }
t1=$(date +%s.%N)
line=$(grep 'INFO done:' "$out/mnw.log" | tail -1)
pairs=$(sed -E 's/.*done: ([0-9]+) pairs.*/\1/' <<<"$line")
gcups=$(sed -E 's/.* ([0-9.]+) GCUPS.*/\1/' <<<"$line")
awk -v l="$label" -v p="$pairs" -v a="$t0" -v b="$t1" -v g="$gcups" -v o="$*" \
    'BEGIN { w = b - a; printf "%-28s pairs %10s  wall %8.2f s  %10.0f pairs/s  %8s GCUPS  (%s)\n", l, p, w, p / w, g, o }'
grep -E 'GPU [0-9]+: ' "$out/mnw.log" | sed 's/^[^]]*] /    /'
du -sh "$out" | sed 's/^/    outputs: /'
