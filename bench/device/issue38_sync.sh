#!/usr/bin/env bash
# bench/device/issue38_sync.sh - what issue 38's checks at each MPI-IO sync
# (each rank: stat of the path, the 8-byte tails of its lists read back;
# rank 0: SEEK_HOLE below the durable bytes at each bookmark) cost: the same
# MPI-IO runs with the build before them (BASE, a source tree, default
# bench/tmp/base: `git archive b2a3d46`) and with this tree, alternating,
# REPS times each, in one run on one host; outputs compared with cmp.
#   bash bench/device/issue38_sync.sh [REPS [genes]]   (results in $OUT;
#   "genes": only the 16s-1000 runs)
# Runs: 4 ranks x 2 CPU workers (--gpus none) through MPI-IO on (a) 16-base
# windows of real genes (6,000: 17,997,000 pairs; the run is bound by
# formatting, writing and syncs, the worst case for a per-sync cost) with
# work lists of 5,000 and 500 pairs, and (b) tests/data/16s-1000.fa.gz
# (499,500 real pairs, default outputs).
set -euo pipefail
. "$(dirname "$0")/../lib.sh"
reps=${1:-3} only=${2:-}
base=${BASE:-bench/tmp/base}
bench_setup sync.txt bin/mnw
[ -d "$base/.deps" ] || cp -a .deps "$base/" 2>/dev/null || true
make -C "$base" -j"$(nproc)" bin/mnw >>"$OUT/build.txt" 2>&1 || { tail -20 "$OUT/build.txt"; exit 1; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
zcat data/16s-500.fa.gz | awk -v n=6000 '
    /^>/ { if (s != "") g[k++] = s; s = ""; next } { s = s $0 } END { if (s != "") g[k++] = s
        for (i = 0; i < n; i++) { x = g[i % k]; o = 1 + 16 * int(i / k); printf ">w%d\n%s\n", i, substr(x, o, 16) } }' \
    >"$tmp/short.fa"
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_btl_vader_single_copy_mechanism=none
# one NAME BIN INPUT PAIRS ARGS...: one run, its seconds and pairs/s on a line of $log
one() {
    local name=$1 bin=$2 in=$3 pairs=$4 t0 t1
    shift 4
    rm -rf "${tmp:?}/$name"
    t0=$(date +%s.%N)
    mpirun --oversubscribe --bind-to none -np 4 "$bin" -q -i "$in" -o "$tmp/$name" -t 2 --gpus none \
        --output-via mpiio "$@"
    t1=$(date +%s.%N)
    say "$(awk -v n="$name" -v a="$t0" -v b="$t1" -v p="$pairs" 'BEGIN { printf "%-28s %8.3f s %12.0f pairs/s", n, b - a, p / (b - a) }')"
}
say "issue 38 sync checks: base $base (before) against this tree (after), $reps reps, alternating"
for r in $(seq 1 "$reps"); do
    for wl in 5000 500; do
        [ "$only" = genes ] && break
        one "short-wl$wl-before-$r" "$base/bin/mnw" "$tmp/short.fa" 17997000 --worklist-size "$wl"
        one "short-wl$wl-after-$r" bin/mnw "$tmp/short.fa" 17997000 --worklist-size "$wl"
        cmp "$tmp/short-wl$wl-before-$r/pairs.tsv.gz" "$tmp/short-wl$wl-after-$r/pairs.tsv.gz"
    done
    one "genes1000-before-$r" "$base/bin/mnw" tests/data/16s-1000.fa.gz 499500
    one "genes1000-after-$r" bin/mnw tests/data/16s-1000.fa.gz 499500
    cmp "$tmp/genes1000-before-$r/pairs.tsv.gz" "$tmp/genes1000-after-$r/pairs.tsv.gz"
done
say "outputs: every after run cmp-identical to its before run"
