#!/usr/bin/env bash
# bench/device/like_cpu.sh - issue 41's --like modes on the CPU workers
# against the default in the same call: the first 1,000 genes of 16s-2k
# (499,500 pairs), --gpus none, all cores, alternately twice (pairs/s and
# GCUPS from the log's done line). MODE: mothur, vsearch, needle, or
# needle-scoring (needle's scoring with mnw's rule: what needle's rule
# itself costs).
#   bash bench/device/like_cpu.sh [MODE...]   (default: mothur; writes $OUT/like_cpu.txt)
set -uo pipefail
. "$(dirname "$0")/../lib.sh"
res=$OUT/like_cpu.txt
bench_machine >"$res"
bench_build "$OUT/build.txt" bin/mnw
W=bench/tmp/likecpu
bench_fresh $W
bench_genes 1000 $W/s1k.fa devdata/16s-2k.fa.gz
modes=("${@:-mothur}")
for rep in 1 2; do
    for mode in def "${modes[@]}"; do
        case $mode in
        def) args=() ;;
        needle-scoring) args=(--match 5 --mismatch -4 --gap-open 10 --gap-extend 0.5 --free-end-gaps --ambiguity ednafull) ;;
        *) args=(--like "$mode") ;;
        esac
        rm -rf "${W:?}/$mode"
        bin/mnw -q -i $W/s1k.fa -o "$W/$mode" --gpus none "${args[@]}"
        echo "$mode rep $rep: $(grep -E 'INFO done' "$W/$mode/mnw.log" | sed 's/^[^]]*] //')" >>"$res"
    done
done
for mode in "${modes[@]}"; do
    grep -E "INFO (scoring|CPU|workers)" "$W/$mode/mnw.log" | sed 's/^[^]]*] //' | head -3 >>"$res"
done
rm -rf $W
cat "$res"
