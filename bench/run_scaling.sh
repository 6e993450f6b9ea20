#!/usr/bin/env bash
# run_scaling.sh - CPU worker scaling of bin/mnw on one node: pairs/s and
# GCUPS for each worker count, speed-up and parallel efficiency against the
# 1-worker run of the same invocation (the baseline), plus the same total
# workers split over MPI ranks on this host.
#   bench/run_scaling.sh [-d FASTA] [-n NSEQ] [-w WORKLIST] [-r RANKS] [-k REPEATS] [WORKERS...]
# Defaults: the first 1000 genes of ../shared/data/16s/16s-2k.fa.gz (or
# $MNW_BENCH_DATA), work lists of 1000 pairs (500 lists: the last round of
# lists costs little at 14 workers), workers 1 2 4 8 14, ranks 2, 1 repeat.
# With -k K every configuration runs K times, the rounds interleaved (each
# round visits the worker counts in turn, alternately forwards and
# backwards, so a slow spell of a shared machine hits all of them), and the
# table shows the fastest run of each. MNW_BENCH_ARGS adds mnw options.
set -euo pipefail
. "$(dirname "$0")/lib.sh"
data=${MNW_BENCH_DATA:-../shared/data/16s/16s-2k.fa.gz}
nseq=1000 wl=1000 ranks=2 reps=1
while getopts d:n:w:r:k: o; do
    case $o in d) data=$OPTARG ;; n) nseq=$OPTARG ;; w) wl=$OPTARG ;; r) ranks=$OPTARG ;; k) reps=$OPTARG ;; *) exit 2 ;; esac
done
shift $((OPTIND - 1))
workers=${*:-1 2 4 8 14}
[ -x bin/mnw ] || make -s bin/mnw
tmp=$(mktemp -d "${TMPDIR:-/tmp}/mnw-bench.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
{ zcat -f "$data" || true; } | awk -v n="$nseq" '/^>/{k++} k>n{exit} {print}' > "$tmp/in.fa"
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_btl_vader_single_copy_mechanism=none

echo "# mnw CPU worker scaling: $(bench_stamp)"
echo "# cpu: $(grep -m1 '^model name' /proc/cpuinfo | sed 's/.*: *//'), $(nproc) CPUs"
echo "# data: first $nseq sequences of $data; work lists of $wl pairs; cells = len_i x len_j"
echo "# mnw options added: ${MNW_BENCH_ARGS:-none}"
echo "# command: bench/run_scaling.sh -d $data -n $nseq -w $wl -r $ranks -k $reps $workers"
# one KEY CMD...: runs it, appends "KEY seconds pairs/s GCUPS" to $tmp/runs
one() {
    local key=$1; shift
    rm -rf "$tmp/out"
    "$@" >"$tmp/run.log" 2>&1 || { cat "$tmp/run.log"; exit 1; }
    grep 'INFO done:' "$tmp/out/mnw.log" |
        sed -E "s/.* pairs in ([0-9.]+)s: ([0-9]+) pairs\/s, ([0-9.]+) GCUPS.*/$key \1 \2 \3/" >>"$tmp/runs"
}
last=${workers##* }
mpi=0
[ "$ranks" -gt 1 ] && [ $((last % ranks)) -eq 0 ] && mpi=1
order=$workers
for k in $(seq 1 "$reps"); do
    for w in $order; do
        one "w$w" bin/mnw -q -i "$tmp/in.fa" -o "$tmp/out" -t "$w" --worklist-size "$wl" ${MNW_BENCH_ARGS:-}
    done
    [ $mpi -eq 1 ] && one "mpi" mpirun --oversubscribe --bind-to none -np "$ranks" \
        bin/mnw -q -i "$tmp/in.fa" -o "$tmp/out" -t $((last / ranks)) --worklist-size "$wl" ${MNW_BENCH_ARGS:-}
    order=$(echo $order | tr ' ' '\n' | tac | tr '\n' ' ')
done
printf '%-22s %8s %10s %8s %8s %10s %s\n' run seconds pairs/s GCUPS speedup efficiency "all runs (pairs/s)"
best() { awk -v k="$1" '$1 == k { if ($3 > b) { b = $3; s = $2; g = $4 } a = a " " $3 } END { print s, b, g, a }' "$tmp/runs"; }
base=$(best w1 | awk '{print $2}')
[ -n "$base" ] || base=$(best "w${workers%% *}" | awk '{print $2}')
row() { # row LABEL KEY WORKERS
    best "$2" | awk -v l="$1" -v b="$base" -v w="$3" '{ all = ""; for (i = 4; i <= NF; i++) all = all " " $i
        printf "%-22s %8.2f %10d %8.2f %7.2fx %9.1f%% %s\n", l, $1, $2, $3, $2 / b, 100 * $2 / b / w, all }'
}
for w in $workers; do row "1 rank, $w workers" "w$w" "$w"; done
[ $mpi -eq 1 ] && row "$ranks ranks x $((last / ranks)) workers" mpi "$last"
echo "# best of $reps per row; speedup and efficiency: pairs/s against the 1-worker row"
