#!/usr/bin/env bash
# gpu_scaling.sh - on a machine with several GPUs: the whole mnw
# (alignments, trace-back, default outputs written) on 1, 2, ... GPUs of one
# node, for issue 9 (vertical scaling). Builds bin/mnw, takes the first
# N genes (default 10,000: 49,995,000 pairs) of devdata/16s-25k.fa.gz, runs
# `mnw --gpus 0`, `--gpus 0,1`, ... up to every GPU, and prints per run:
# wall time, pairs/s and GCUPS (mnw's own "done:" line), speed-up and
# efficiency against one GPU, the process's CPU time (user + system, from
# /usr/bin/time) and the log's per-GPU lines; then checks that every run's
# outputs are byte-identical to the one-GPU run (cmp). FROM=G starts at G
# GPUs (no speed-up and no byte comparison then: they need the 1-GPU run).
# Writes $OUT/gpu-scaling.txt.
set -uo pipefail
. "$(dirname "$0")/../lib.sh"
N=${N:-10000}
FROM=${FROM:-1}
bench_setup gpu-scaling.txt
W=bench/tmp/scaling
bench_fresh $W
bench_genes "$N" $W/s.fa
ng=$(nvidia-smi -L | grep -c '^GPU ')
say "first $N genes of 16s-25k ($((N * (N - 1) / 2)) pairs), $ng GPUs, $(nproc) cores; default settings"
list=0
base=
for ((g = 1; g <= ng; g++)); do
    [ $g -gt 1 ] && list="$list,$((g - 1))"
    [ $g -lt "$FROM" ] && continue
    d=$W/g$g
    /usr/bin/time -f "%e %U %S" -o $W/time$g bin/mnw -q -i $W/s.fa -o $d --gpus "$list" >>"$log" 2>&1
    rc=$?
    read -r wall user sys <$W/time$g
    rate=$(sed -n 's/.*INFO done: [0-9]* pairs in [0-9.]*s: \([0-9]*\) pairs\/s.*/\1/p' $d/mnw.log)
    [ $g -eq 1 ] && base=$rate
    say "$g GPU(s) (--gpus $list): exit $rc, wall ${wall} s, $(grep -o 'done: .*' $d/mnw.log)"
    su="no 1-GPU run here (FROM=$FROM): no speed-up"
    [ -n "$base" ] && su="speed-up $(awk -v r="$rate" -v b="$base" -v g=$g 'BEGIN{printf "%.2fx, efficiency %.0f%%", r/b, 100*r/b/g}')"
    say "   $su; CPU user ${user} s + system ${sys} s = $(awk -v u="$user" -v s="$sys" -v w="$wall" 'BEGIN{printf "%.1f cores busy on average", (u+s)/w}')"
    grep -E "INFO (GPU [0-9]+|GPUs:|rank 0 \(|gpu)" $d/mnw.log | cut -c1-230 | sed 's/^/   /' | tee -a "$log"
    if [ $g -gt 1 ] && [ -d $W/g1 ]; then
        for f in pairs.tsv.gz dist.column.gz; do
            cmp -s $W/g1/$f $d/$f && say "   $f byte-identical to the 1-GPU run" || say "   $f DIFFERS from the 1-GPU run"
        done
    fi
done
