#!/usr/bin/env bash
# resume.sh - on a GPU machine: resume across GPUs, CPUs and rank
# counts (issue 7, docs/RESUME.md). Builds bin/mnw, makes an uninterrupted
# GPU reference run of the first 5,000 genes of devdata/16s-25k.fa.gz
# (12,497,500 pairs), then one run that is cut four times and resumed with
# a different worker mix each time:
#   1. GPU (CPU workers finishing)          -> kill -9 after 6 s
#   2. CPU only (--gpus none)               -> kill -9 after 6 s
#   3. 2 ranks: rank 0 GPU, rank 1 CPU only -> SIGTERM to rank 0 after 6 s
#      (exit 3; seconds from the signal to the exit are printed)
#   4. GPU, host trace-back                 -> runs to the end
# and compares the outputs with the reference byte for byte (cmp). Prints
# progress.json's per-device counts and `mnw status` of the finished run.
# Writes $OUT/resume.txt.
set -uo pipefail
. "$(dirname "$0")/../lib.sh"
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_btl_vader_single_copy_mechanism=none
bench_setup resume.txt
W=bench/tmp/resume
bench_fresh $W
bench_genes 5000 $W/s5000.fa
M=bin/mnw
rank_pid() { # rank_pid RANK: the mnw rank of the running job
    local p
    for p in $(pgrep -f "bin/mnw .*resume $W/cut"); do
        tr '\0' '\n' <"/proc/$p/environ" 2>/dev/null | grep -qx "OMPI_COMM_WORLD_RANK=$1" && { echo "$p"; return; }
    done
}
t0=$(date +%s%N)
$M -q -i $W/s5000.fa -o $W/ref >>"$log" 2>&1
say "reference (GPU, uninterrupted): exit $? in $(( ($(date +%s%N) - t0) / 1000000 )) ms"

$M -q -i $W/s5000.fa -o $W/cut >>"$log" 2>&1 &
sleep 6; kill -9 $!; wait $! 2>/dev/null
say "1. GPU run killed (-9) at 6 s: watermark $(sed -n 's/^watermark //p' $W/cut/mnw.bookmark)"

$M -q --resume $W/cut --gpus none >>"$log" 2>&1 &
sleep 6; kill -9 $!; wait $! 2>/dev/null
say "2. CPU-only resume killed (-9) at 6 s: watermark $(sed -n 's/^watermark //p' $W/cut/mnw.bookmark)"

mpirun --oversubscribe --bind-to none -np 1 $M -q --resume $W/cut -t 7 : -np 1 $M -q --resume $W/cut -t 7 --gpus none >>"$log" 2>&1 &
job=$!
sleep 6
p0=$(rank_pid 0)
ts=$(date +%s%N); kill -TERM "$p0"; wait $job; rc=$?
say "3. 2-rank resume (GPU + CPU-only rank), SIGTERM to rank 0 at 6 s: exit $rc after $(( ($(date +%s%N) - ts) / 1000000 )) ms; watermark $(sed -n 's/^watermark //p' $W/cut/mnw.bookmark)"

$M -q --resume $W/cut --traceback host >>"$log" 2>&1
say "4. GPU resume (host trace-back) to the end: exit $?"
for f in pairs.tsv.gz dist.column.gz; do
    cmp $W/ref/$f $W/cut/$f && say "$f: byte-identical to the uninterrupted run"
done
say "progress.json devices:"; grep -E '"(name|pairs|resumes|state)"' $W/cut/progress.json | tee -a "$log"
$M status $W/cut | tee -a "$log"
grep -E "resuming|stopped|dropping|GPUs:" $W/cut/mnw.log | cut -c1-200 | tee -a "$log"
