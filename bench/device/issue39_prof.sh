#!/usr/bin/env bash
# bench/device/issue39_prof.sh - issue 39: where the GPU filter's time goes.
# usage: issue39_prof.sh [CUTOFF [RUNS]]
# Builds with line info (sm_90 only), then into $OUT/prof39.txt:
#   1. the SASS instruction counts of the filter kernels (cuobjdump);
#   2. Nsight Compute on one 262,144-pair batch of 16s-25k at CUTOFF (default
#      0.10): every filter kernel's duration, occupancy, warp states,
#      divergence and the source lines that stall most;
#   3. 16s-25k whole with the filter on at each cutoff of RUNS (default "0.03 0.10"; GPU path,
#      --outputs dist): the run's own log lines (filter rate, the devices'
#      idle time, the dispatcher thread's CPU time).
# Data: the git-ignored devdata/ (16s-25k.fa.gz), carried.
set -uo pipefail
. "$(dirname "$0")/../lib.sh"
cut=${1:-0.10}
runs=${2:-0.03 0.10} # the whole-set runs ("none": the profile only)
bench_setup prof39.txt bin/mnw build/bench/bench_gpu_prune NVFLAGS_EXTRA=-lineinfo \
    GPU_ARCH="-gencode arch=compute_90,code=sm_90"
{
    echo "== SASS of the filter kernels"
    cuobjdump -sass build/workers/gpu/gpu_kernels.o >bench/tmp/sass39.txt 2>&1
    awk '/Function : /{f=$3} /^ +\/\*[0-9a-f]+\*\//{n[f]++} END{for (k in n) printf "%7d %s\n", n[k], k}' \
        bench/tmp/sass39.txt | grep -E 'mnw_ge|mnw_gp' | sort -rn
} >>"$log" 2>&1
zcat devdata/16s-25k.fa.gz >bench/tmp/16s-25k.fa
{
    echo "== ncu ($(command -v ncu || echo 'not on PATH')), one batch of 262,144 pairs, cutoff $cut"
    ncu --kernel-name regex:'^(bands|compact|eds_reg|eds_wide|prune)$' --launch-skip 15 --launch-count 6 \
        --section SpeedOfLight --section Occupancy --section LaunchStats --section WarpStateStats \
        --section InstructionStats --section SchedulerStats --section SourceCounters \
        build/bench/bench_gpu_prune bench/tmp/16s-25k.fa --pairs 262144 --batch 262144 --cutoffs "$cut" \
        --reps 1 --cpu-pairs 100 >"$OUT/ncu39.txt" 2>&1
    echo "ncu exit $?"
    grep -E 'mnw_g|Duration|Registers Per|Achieved Occ|Theoretical Occ|Avg. Active Threads|Avg. Not Pred|Branch Eff|Divergent|Warp Cycles Per Issued|Issued Ipc|Executed Ipc|Compute \(SM\)|Memory Thr|Local|Stall|stall|Block Size|Grid Size|Uncoalesced' \
        "$OUT/ncu39.txt" | head -300
} >>"$log" 2>&1
for c in $runs; do
    [ "$c" = none ] && break
    say "== $(date -u +%FT%TZ) 16s-25k whole, cutoff $c, filter on, GPU"
    bench_fresh bench/tmp/p39
    /usr/bin/time -f "%e s wall, %U s user, %S s sys, %R minor faults, %c involuntary and %w voluntary context switches" bin/mnw -q -i devdata/16s-25k.fa.gz -o bench/tmp/p39/o \
        --outputs dist --cutoff "$c" --prune yes >>"$log" 2>&1
    grep -E 'filter|GPU|dispatcher|tables|finished|pairs/s' bench/tmp/p39/o/mnw.log | cut -c1-300 >>"$log"
done
rm -rf bench/tmp/16s-25k.fa bench/tmp/p39
echo "== done" >>"$log"
cat "$log"
