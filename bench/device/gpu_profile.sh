#!/usr/bin/env bash
# gpu_profile.sh - on a GPU machine: build, the DScan-mNW kernels'
# SASS (instruction counts of the linear kernel), an Nsight Compute profile
# of one DScan-mNW launch (linear and affine) on real 16S pairs, and the
# kernel benchmark. Writes $OUT/{sass_counts,ncu,bench_gpu}.txt.
set -uo pipefail
. "$(dirname "$0")/../lib.sh"
bench_cuda
make -j"$(nproc)" bin/mnw build/bench/bench_gpu >/dev/null 2>&1 || { make bin/mnw 2>&1 | tail -20; exit 1; }
cuobjdump -sass -arch sm_90 build/workers/gpu/gpu_kernels.o > bench/tmp/sass.txt 2>&1
awk '/Function : .*dscanILb0ELb0E/{on=1} /Function : .*dscanILb1/{on=0} on && /^ +\/\*[0-9a-f]+\*\//{ op=$2; if (op ~ /^@/) op=$3; sub(/\..*/,"",op); sub(/;$/,"",op); n[op]++; t++ }
     END { printf "dscan<linear>: %d instructions\n", t; for (o in n) printf "%6d %s\n", n[o], o | "sort -rn" }' bench/tmp/sass.txt > "$OUT/sass_counts.txt"
head -30 "$OUT/sass_counts.txt"
ncu --kernel-name regex:dscan --launch-count 2 --section SpeedOfLight --section ComputeWorkloadAnalysis \
    --section InstructionStats --section Occupancy --section MemoryWorkloadAnalysis --section WarpStateStats \
    build/bench/bench_gpu devdata/16s-2k.fa.gz --pairs 65536 --tb device --reps 1 --cpu-pairs 10 > "$OUT/ncu.txt" 2>&1
grep -E 'dscan|Throughput|Executed Ipc|Issue Slots|Achieved Occupancy|Registers|Warp Cycles Per Issued|Stall|SM Busy|Memory \[%\]|Duration' "$OUT/ncu.txt" | head -60
build/bench/bench_gpu devdata/16s-2k.fa.gz --pairs 300000 --cpu-pairs 1000 2>&1 | tee "$OUT/bench_gpu.txt"
