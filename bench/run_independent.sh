#!/usr/bin/env bash
# run_independent.sh - separates the machine's own scaling from mnw's: the
# same work run by 1 worker alone, by W independent 1-worker processes at
# once (one per core, nothing shared but the hardware: their summed pairs/s
# is what W cores deliver when all are busy), and by one process of W
# workers. mnw's runtime efficiency = W-worker process / W independent
# processes; the hardware's = W independent / (W x 1 alone).
#   bench/run_independent.sh [-d FASTA] [-n NSEQ] [-w WORKLIST] [-k REPEATS] [W]
set -euo pipefail
. "$(dirname "$0")/lib.sh"
data=${MNW_BENCH_DATA:-../shared/data/16s/16s-2k.fa.gz}
nseq=300 wl=100 reps=2
while getopts d:n:w:k: o; do
    case $o in d) data=$OPTARG ;; n) nseq=$OPTARG ;; w) wl=$OPTARG ;; k) reps=$OPTARG ;; *) exit 2 ;; esac
done
shift $((OPTIND - 1))
W=${1:-14}
[ -x bin/mnw ] || make -s bin/mnw
tmp=$(mktemp -d "${TMPDIR:-/tmp}/mnw-bench.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
{ zcat -f "$data" || true; } | awk -v n="$nseq" '/^>/{k++} k>n{exit} {print}' > "$tmp/in.fa"
echo "# mnw runtime vs hardware scaling: $(bench_stamp)"
echo "# cpu: $(grep -m1 '^model name' /proc/cpuinfo | sed 's/.*: *//'), $(nproc) CPUs"
echo "# data: first $nseq sequences of $data; work lists of $wl; W = $W"
echo "# command: bench/run_independent.sh -d $data -n $nseq -w $wl -k $reps $W"
pps() { grep 'INFO done:' "$1/mnw.log" | sed -E 's/.*: ([0-9]+) pairs\/s.*/\1/'; }
printf '%-40s %s\n' run "pairs/s (each repeat)"
alone="" indep="" proc=""
for k in $(seq 1 "$reps"); do
    rm -rf "$tmp"/o*
    taskset -c 0 bin/mnw -q -i "$tmp/in.fa" -o "$tmp/o1" -t 1 --worklist-size "$wl"
    alone="$alone $(pps "$tmp/o1")"
    rm -rf "$tmp"/o*
    for c in $(seq 0 $((W - 1))); do
        taskset -c "$c" bin/mnw -q -i "$tmp/in.fa" -o "$tmp/o$c" -t 1 --worklist-size "$wl" &
    done
    wait
    indep="$indep $(for c in $(seq 0 $((W - 1))); do pps "$tmp/o$c"; done | awk '{s += $1} END {print s}')"
    rm -rf "$tmp"/o*
    bin/mnw -q -i "$tmp/in.fa" -o "$tmp/oW" -t "$W" --worklist-size "$wl"
    proc="$proc $(pps "$tmp/oW")"
done
printf '%-40s %s\n' "1 worker alone (cpu 0)" "$alone" "$W independent 1-worker processes (sum)" "$indep" \
    "1 process, $W workers" "$proc"
best() { echo "$1" | tr ' ' '\n' | sort -n | tail -1; }
awk -v a="$(best "$alone")" -v i="$(best "$indep")" -v p="$(best "$proc")" -v w="$W" 'BEGIN {
    printf "# best: alone %d, independent %d, process %d pairs/s\n", a, i, p
    printf "# hardware scaling (independent / (W x alone)): %.1f%%\n", 100 * i / (w * a)
    printf "# mnw runtime efficiency (process / independent): %.1f%%\n", 100 * p / i
    printf "# parallel efficiency (process / (W x alone)): %.1f%%\n", 100 * p / (w * a) }'
