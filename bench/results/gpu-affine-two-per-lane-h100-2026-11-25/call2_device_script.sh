#!/usr/bin/env bash
# issue 18: affine x2 vs x1 in one run; ncu stall reasons of the stored (DIRS) two-per-lane kernels, linear and affine
set -u
export PATH=/usr/local/cuda/bin:$PATH
O=$OUT
cp bench/tmp/s29_call2.sh $O/device_script.sh
{ date -u; nvidia-smi -L; nvcc --version | tail -1; git log --oneline -1; } > $O/info.txt
make -j14 bin/mnw build/bench/bench_gpu > $O/build_new.txt 2>&1 || { tail -20 $O/build_new.txt; exit 1; }
A="devdata/16s-2k.fa.gz --pairs 200000 --gaps affine --tb device,score --cpu-pairs 10 --rodinia-pairs 0 --reps 3"
echo "== affine: bench_gpu $A --kernels auto,dscan,tileddscan --lanes x2,x1 --finishers 8"; timeout 150 build/bench/bench_gpu $A --kernels auto,dscan,tileddscan --lanes x2,x1 --finishers 8 2>&1 | tee $O/bench_affine.txt | grep -v '^#'
for g in linear affine; do
B="devdata/16s-2k.fa.gz --pairs 60000 --gaps $g --cpu-pairs 10 --rodinia-pairs 0 --reps 1 --kernels tileddscan --lanes x2 --tb device"
timeout 200 ncu --kernel-name regex:dscan2 --launch-count 1 --section WarpStateStats --section SchedulerStats --section Occupancy --section MemoryWorkloadAnalysis --section SpeedOfLight --section InstructionStats --section SourceCounters build/bench/bench_gpu $B > $O/ncu_$g.txt 2>&1; echo "ncu $g rc=$?"
grep -E "Stall|Warp Cycles|Issued Warp|Eligible|No Eligible|Achieved Occupancy|Memory Throughput|DRAM Throughput|Duration|Executed Ipc|Issue Slots" $O/ncu_$g.txt | head -30
done
