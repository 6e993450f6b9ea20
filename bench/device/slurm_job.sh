#!/usr/bin/env bash
# slurm_job.sh - on a GPU machine (no Slurm there): slurm/mnw-job, the
# batch-side runner of the Slurm templates (docs/slurm.md), on a GPU node as
# a requeued job sees it. With the environment Slurm gives a one-node job
# (SLURM_JOB_ID, SLURM_CPUS_PER_TASK=8 of the 16 cores, CUDA_VISIBLE_DEVICES=0,
# SLURM_RESTART_COUNT), on the first 6,000 genes of devdata/16s-25k.fa.gz
# (17,997,000 pairs):
#   1. an uninterrupted GPU run (the reference);
#   2. mnw-job starts the run; SIGUSR1 to mnw-job after 10 s (what
#      --signal=B:USR1@S does): it passes the signal on, mnw stops with its
#      bookmark (exit 3), and the requeue fails (no scontrol here), which
#      mnw-job reports; the seconds from the signal to the exit are printed;
#   3. mnw-job again with SLURM_RESTART_COUNT=1, as the requeued job would:
#      it resumes from the bookmark to the end;
# then compares the outputs with the reference byte for byte (cmp) and
# prints mnw-job's lines, mnw's Slurm and GPU log lines and `mnw status`.
# Writes $OUT/slurm-job.txt.
set -uo pipefail
. "$(dirname "$0")/../lib.sh"
bench_setup slurm-job.txt
W=bench/tmp/sjob
bench_fresh $W
bench_genes 6000 $W/s6000.fa
ms() { echo $(( ($(date +%s%N) - $1) / 1000000 )); }

t0=$(date +%s%N)
bin/mnw -q -i $W/s6000.fa -o $W/ref >>"$log" 2>&1
say "1. reference (GPU, uninterrupted, all 16 cores): exit $? in $(ms $t0) ms"

export SLURM_JOB_ID=4242 SLURM_CPUS_PER_TASK=8 CUDA_VISIBLE_DEVICES=0 SLURM_RESTART_COUNT=0
job=(slurm/mnw-job --mnw "$PWD/bin/mnw" --outdir "$PWD/$W/job" --input "$PWD/$W/s6000.fa" --launcher none --)
t0=$(date +%s%N)
"${job[@]}" >$W/job1.out 2>&1 & # mnw-job itself in the background: $! is its pid
pid=$!
sleep 10
ts=$(date +%s%N)
kill -USR1 $pid
wait $pid
rc=$?
say "2. mnw-job, SIGUSR1 at 10 s: exit $rc $(ms $ts) ms after the signal; bookmark at pair $(sed -n 's/^watermark //p' $W/job/mnw.bookmark)"
export SLURM_RESTART_COUNT=1
t0=$(date +%s%N)
"${job[@]}" >$W/job2.out 2>&1
say "3. mnw-job as the requeued job (SLURM_RESTART_COUNT=1): exit $? in $(ms $t0) ms"
for f in pairs.tsv.gz dist.column.gz; do
    cmp $W/ref/$f $W/job/$f && say "$f: byte-identical to the uninterrupted run"
done
say "mnw-job lines:"; grep -h "^mnw-job:" $W/job1.out $W/job2.out | tee -a "$log"
say "mnw's Slurm, GPU and rate lines:"
grep -hE "INFO (Slurm:|GPUs:|topology:|done:)" $W/job/mnw.log | cut -c1-220 | tee -a "$log"
grep -E '"(slurm_job|slurm_restarts|slurm_jobs|resumes|state)"' $W/job/progress.json | tee -a "$log"
bin/mnw status $W/job | tee -a "$log"
