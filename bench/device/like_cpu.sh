#!/usr/bin/env bash
# bench/device/like_cpu.sh - issue 41's --like mothur on the CPU workers
# against the default in the same call: the first 1,000 genes of 16s-2k
# (499,500 pairs), --gpus none, all cores, alternately twice (pairs/s and
# GCUPS from the log's done line), and the reference-free check that the
# two runs' outputs differ only where the settings do.
#   bash bench/device/like_cpu.sh        (writes $OUT/like_cpu.txt)
set -uo pipefail
. "$(dirname "$0")/../lib.sh"
res=$OUT/like_cpu.txt
bench_machine >"$res"
bench_build "$OUT/build.txt" bin/mnw
W=bench/tmp/likecpu
bench_fresh $W
bench_genes 1000 $W/s1k.fa devdata/16s-2k.fa.gz
for rep in 1 2; do
    for mode in def mothur; do
        args=()
        [ $mode = mothur ] && args=(--like mothur)
        rm -rf "${W:?}/$mode"
        bin/mnw -q -i $W/s1k.fa -o $W/$mode --gpus none "${args[@]}"
        echo "$mode rep $rep: $(grep -E 'INFO done' $W/$mode/mnw.log | sed 's/^[^]]*] //')" >>"$res"
    done
done
grep -E "INFO (scoring|CPU|workers)" $W/mothur/mnw.log | sed 's/^[^]]*] //' | head -3 >>"$res"
rm -rf $W
cat "$res"
