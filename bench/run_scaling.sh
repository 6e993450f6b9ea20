#!/usr/bin/env bash
# run_scaling.sh - CPU worker scaling of bin/mnw on one node: pairs/s and
# GCUPS for each worker count, speed-up and parallel efficiency against the
# 1-worker run of the same invocation (the baseline), plus the same total
# workers split over MPI ranks on this host.
#   bench/run_scaling.sh [-d FASTA] [-n NSEQ] [-w WORKLIST] [-r RANKS] [WORKERS...]
# Defaults: the first 1000 genes of ../shared/data/16s/16s-2k.fa.gz (or
# $MNW_BENCH_DATA), work lists of 1000 pairs (500 lists: the last round of
# lists costs little at 14 workers), workers 1 2 4 8 14, ranks 2.
set -euo pipefail
cd "$(dirname "$0")/.."
data=${MNW_BENCH_DATA:-../shared/data/16s/16s-2k.fa.gz}
nseq=1000 wl=1000 ranks=2
while getopts d:n:w:r: o; do
    case $o in d) data=$OPTARG ;; n) nseq=$OPTARG ;; w) wl=$OPTARG ;; r) ranks=$OPTARG ;; *) exit 2 ;; esac
done
shift $((OPTIND - 1))
workers=${*:-1 2 4 8 14}
[ -x bin/mnw ] || make -s bin/mnw
tmp=$(mktemp -d "${TMPDIR:-/tmp}/mnw-bench.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
{ zcat -f "$data" || true; } | awk -v n="$nseq" '/^>/{k++} k>n{exit} {print}' > "$tmp/in.fa"
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_btl_vader_single_copy_mechanism=none

echo "# mnw CPU worker scaling: $(date -u +%Y-%m-%dT%H:%MZ), host $(hostname -s), $(git rev-parse --short HEAD 2>/dev/null || echo '?')"
echo "# cpu: $(grep -m1 '^model name' /proc/cpuinfo | sed 's/.*: *//'), $(nproc) CPUs"
echo "# data: first $nseq sequences of $data; work lists of $wl pairs; cells = len_i x len_j"
echo "# command: bench/run_scaling.sh -d $data -n $nseq -w $wl -r $ranks $workers"
printf '%-22s %8s %10s %8s %8s %10s\n' run seconds pairs/s GCUPS speedup efficiency
base=""
one() { # one LABEL WORKERS CMD...
    local label=$1 w=$2; shift 2
    rm -rf "$tmp/out"
    "$@" >"$tmp/run.log" 2>&1 || { cat "$tmp/run.log"; exit 1; }
    local line; line=$(grep 'INFO done:' "$tmp/out/mnw.log")
    local secs pps gc
    secs=$(echo "$line" | sed -E 's/.* pairs in ([0-9.]+)s.*/\1/')
    pps=$(echo "$line" | sed -E 's/.*: ([0-9]+) pairs\/s.*/\1/')
    gc=$(echo "$line" | sed -E 's/.* ([0-9.]+) GCUPS.*/\1/')
    [ -z "$base" ] && base=$pps
    awk -v l="$label" -v s="$secs" -v p="$pps" -v g="$gc" -v b="$base" -v w="$w" \
        'BEGIN { printf "%-22s %8.2f %10d %8.2f %7.2fx %9.1f%%\n", l, s, p, g, p / b, 100 * p / b / w }'
}
for w in $workers; do
    one "1 rank, $w workers" "$w" bin/mnw -q -i "$tmp/in.fa" -o "$tmp/out" -t "$w" --worklist-size "$wl"
done
last=${workers##* }
if [ "$ranks" -gt 1 ] && [ $((last % ranks)) -eq 0 ]; then
    one "$ranks ranks x $((last / ranks)) workers" "$last" mpirun --oversubscribe --bind-to none -np "$ranks" \
        bin/mnw -q -i "$tmp/in.fa" -o "$tmp/out" -t $((last / ranks)) --worklist-size "$wl"
fi
echo "# speedup and efficiency: pairs/s against the first run (1 worker) above"
