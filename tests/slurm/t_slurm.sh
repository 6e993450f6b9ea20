#!/usr/bin/env bash
# t_slurm.sh - mnw under a real Slurm: munge, slurmctld and three slurmd
# (cpu1, cpu2: CPU-only; gpu1: a GPU gres) on this host (cluster.sh), jobs
# submitted with slurm/mnw-submit as a user would:
#   - one node; two nodes with srun; two nodes with mpirun; a heterogeneous
#     job (CPU partition + GPU partition) as one MPI job; a job array;
#   - a job cut by its time limit (--signal=B:USR1): it stops with its
#     bookmark, requeues itself and resumes;
#   - scancel in the middle, then mnw-submit --resume;
#   - one run as 3 shard tasks and a merge job (mnw-submit --shards): a task
#     cancelled midway, the merge stuck, mnw-submit --resume, merged;
# every result byte-identical to an uninterrupted run outside Slurm, and
# `mnw status` showing the job, its state and its requeues. The jobs run at
# the same time (about 2 minutes in all on 2 cores; the time limit, a whole
# minute, sets the pace). `make test-slurm`; docs/slurm.md, docs/TESTING.md.
. "$(dirname "$0")/../lib.sh"
cd "$TMP"
chmod a+x "$TMP" # munged wants every folder above its socket searchable by all
SUB=$ROOT/slurm/mnw-submit
CL=$TMP/cluster
down() { bash "$ROOT/tests/slurm/cluster.sh" down "$CL" >cluster-down.log 2>&1; }
trap 'down; rm -rf "$TMP"' EXIT
cp /etc/hosts hosts.before # cluster.sh adds the nodes' names and restores it
t0=$SECONDS
if ! bash "$ROOT/tests/slurm/cluster.sh" up "$CL" >cluster-up.log 2>&1; then
    echo "not ok - the Slurm cluster comes up"
    sed 's/^/#   /' cluster-up.log | tail -30
    exit 1
fi
echo "ok - the Slurm cluster comes up: munged, slurmctld, slurmd cpu1 cpu2 gpu1 ($((SECONDS - t0)) s)"
. "$CL/env"
# the jobs' own mpirun (multi-node, mpirun launcher) runs as root too
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_btl_vader_single_copy_mechanism=none

cp "$TDATA/16s-200.fa" s200.fa
zcat "$TDATA/gold-sample.fa.gz" >gold.fa
zcat "$ROOT/data/16s-500.fa.gz" >s500.fa

# submit NAME ARGS... : mnw-submit; the job id in $NAME (its last line)
submit() {
    local n=$1
    shift
    "$SUB" --mnw "$MNW" -J "$n" "$@" >"sub-$n.log" 2>&1
    local rc=$? id
    id=$(tail -1 "sub-$n.log")
    if [ $rc -ne 0 ] || ! [[ $id =~ ^[0-9]+$ ]]; then
        echo "not ok - submit $n: mnw-submit exit $rc"
        sed 's/^/#   /' "sub-$n.log"
        T_FAILED=1
        id=0
    fi
    printf -v "$n" '%s' "$id"
}
# field JOB KEY : KEY= of the job (its first component)
field() { scontrol show job -o "$1" 2>/dev/null | head -1 | tr ' ' '\n' | sed -n "s/^$2=//p"; }
# wait_end JOB [S] : until the job is finished (at most S s); its state in $state
wait_end() {
    local k
    for ((k = 0; k < ${2:-300}; k++)); do
        state=$(field "$1" JobState)
        case $state in COMPLETED | FAILED | CANCELLED | TIMEOUT | NODE_FAIL | OUT_OF_MEMORY | BOOT_FAIL | DEADLINE) return 0 ;; esac
        sleep 1
    done
    state="still $state after ${2:-300} s"
    return 1
}
# show_log FILE : the last lines of a job's output, for a failure
show_log() { tail -15 "$1" 2>/dev/null | sed 's/^/#   /'; }
opts=(--cigar --phylip --worklist-size 500 --gpus none)

# --- every job goes in at once; the references are made while they run ---
submit one -c 1 -i s200.fa -o one -- "${opts[@]}" -t 1
submit multi_srun -N 2 -p cpu -c 1 -i s200.fa -o msrun -- "${opts[@]}" -t 1
submit multi_mpirun -N 2 -p cpu -c 1 --launcher mpirun -i s200.fa -o mmpi -- "${opts[@]}" -t 1
submit het --cpu-partition cpu --gpu-partition gpu --cpu-cpus 1 --gpu-cpus 1 -G 1 -i s200.fa -o het -- "${opts[@]}" -t 1
submit arr --array -o arr -c 1 s200.fa gold.fa -- "${opts[@]}" -t 1
# cut by its time limit: one minute; SIGUSR1 when at most 50 s are left
# (slurmctld looks periodically: it came 10-17 s into a start here)
submit tlim -c 1 -t 1 --signal-lead 50 -i s500.fa -o tlim -- "${opts[@]}" -t 1 --bookmark-every 1
submit canc -c 1 -i s500.fa -o canc -- "${opts[@]}" -t 1 --bookmark-every 1
# one run as 3 shard tasks and a merge job; shard 2 is cancelled midway below
submit shd --shards 3 -c 1 -i gold.fa -o shd -- "${opts[@]}" -t 1 --bookmark-every 1
shd_arr=$(sed -n 's/^job shards \([0-9]*\) .*/\1/p' shd/mnw.shards)

# --- scancel in the middle, then mnw-submit --resume ---
for ((k = 0; k < 120; k++)); do
    w=$(sed -n 's/^watermark //p' canc/mnw.bookmark 2>/dev/null)
    [ -n "$w" ] && [ "$w" -gt 0 ] && break
    sleep 0.5
done
check "scancel job: running, a bookmark past pair 0 (at $w)" '[ -n "$w" ] && [ "$w" -gt 0 ] && [ "$w" -lt 124750 ]'
scancel "$canc"
wait_end "$canc" 60
check "scancel: the job ends CANCELLED ($state)" '[ "$state" = CANCELLED ]'
check "scancel: mnw stopped with its bookmark (mnw-job: mnw exited with status 3)" \
    'grep -q "mnw exited with status 3" canc.slurm-$canc.out' || show_log canc.slurm-$canc.out
check "scancel: the job did not requeue itself (a SIGTERM stop)" '! grep -q "requeueing" canc.slurm-$canc.out'
check "scancel: progress.json says stopped" 'grep -q "\"state\": \"stopped\"" canc/progress.json'
"$MNW" status canc >canc-status.txt 2>&1
check "mnw status of the cancelled run: job $canc CANCELLED, resume it" \
    'grep -q "Slurm job  $canc: CANCELLED" canc-status.txt && grep -q "mnw --resume canc" canc-status.txt' ||
    sed 's/^/#   /' canc-status.txt
submit canc2 --resume canc -c 1 -- -t 1

# --- shards: a task cancelled midway, the merge never starts; --resume ---
check "shards: an array job of 3 tasks and a merge job ($shd_arr, $shd)" \
    '[ -n "$shd_arr" ] && grep -qx "job shards $shd_arr 1-3" shd/mnw.shards && grep -qx "job merge $shd" shd/mnw.shards &&
     [ "$(field "$shd" JobState)" = PENDING ]'
for ((k = 0; k < 240; k++)); do
    w=$(sed -n 's/^watermark //p' shd/shard-2/mnw.bookmark 2>/dev/null)
    k0=$(sed -n 's/^setting shard-range \([0-9]*\) .*/\1/p' shd/shard-2/mnw.bookmark 2>/dev/null)
    [ -n "$w" ] && [ "$w" -gt "$k0" ] && break
    sleep 0.5
done
scancel "${shd_arr}_2"
wait_end "${shd_arr}_2" 60
check "shards: task 2 cancelled midway, stopped with its bookmark ($state)" \
    '[ "$state" = CANCELLED ] && grep -q "\"state\": \"stopped\"" shd/shard-2/progress.json'
"$MNW" status shd >shd-status.txt 2>&1
check "shards: mnw status while the others work: shard 2 stopped, shards 1 and 3 with their tasks" \
    'grep -qE "^  2/3 +stopped " shd-status.txt &&
     grep -qE "^  1/3 +(starting|running|queued|done) .* ${shd_arr}_1( |$)" shd-status.txt &&
     grep -qE "^  3/3 +(starting|running|queued|done) .* ${shd_arr}_3( |$)" shd-status.txt' || sed 's/^/#   /' shd-status.txt

# --- the time limit: SIGUSR1, stop, requeue, resume ---
for ((k = 0; k < 150; k++)); do
    r=$(field "$tlim" Restarts)
    [ -n "$r" ] && [ "$r" -ge 1 ] && break
    sleep 1
done
check "time limit: the job requeued itself (Restarts=$r after $k s)" '[ -n "$r" ] && [ "$r" -ge 1 ]' ||
    show_log tlim.slurm-$tlim.out
check "time limit: SIGUSR1 came before the limit, mnw stopped with status 3, the job requeued" \
    'grep -q "got SIGUSR1" tlim.slurm-$tlim.out && grep -q "mnw exited with status 3" tlim.slurm-$tlim.out &&
     grep -q "requeueing job $tlim" tlim.slurm-$tlim.out'
"$MNW" status tlim >tlim-status.txt 2>&1
check "mnw status while requeued: the job, its state and 'requeued 1 time'" \
    'grep -qE "Slurm job  $tlim: [A-Z_]+.*requeued [1-9] time" tlim-status.txt' || sed 's/^/#   /' tlim-status.txt
# the rest at once: a longer limit (what a user would ask with --time)
scontrol update JobId="$tlim" TimeLimit=10 >/dev/null 2>&1

# --- shards, continued: the other tasks ended meanwhile ---
wait_end "${shd_arr}_1" 300
wait_end "${shd_arr}_3" 300
# afterok on the array can no longer be met: Slurm says so (its scheduler
# looks every few seconds)
for ((k = 0; k < 60; k++)); do
    reason=$(field "$shd" Reason)
    [ "$reason" = DependencyNeverSatisfied ] && break
    sleep 1
done
"$MNW" status shd >shd-status.txt 2>&1
check "shards: mnw status: 2 done, shard 2 stopped (task ${shd_arr}_2), the merge can no longer start" \
    'grep -q "2 done, 0 running, 0 queued, 1 stopped or not started" shd-status.txt &&
     grep -qE "^  2/3 +stopped .* ${shd_arr}_2" shd-status.txt &&
     grep -q "^Shard 2 is neither complete nor running nor queued: continue it and the merge with mnw-submit --resume shd" shd-status.txt &&
     grep -q "Merge job $shd can no longer start" shd-status.txt' || sed 's/^/#   /' shd-status.txt
submit shd2 --resume shd -c 1
check "shards: --resume cancels the stuck merge job, queues shard 2 alone and a merge after it" \
    'grep -q "cancelled merge job(s) $shd" sub-shd2.log && grep -q "shards 2 of 3" sub-shd2.log &&
     [ "$(grep -c "^job " shd/mnw.shards)" = 4 ]' || sed 's/^/#   /' sub-shd2.log

# the references, outside Slurm, while the jobs run
"$MNW" -q -i s200.fa -o ref200 "${opts[@]}" -t 2
"$MNW" -q -i gold.fa -o refgold "${opts[@]}" -t 2

# --- results ---
same() { # same DESC OUTDIR REF LOG
    local d=$2 r=$3
    if [ "$state" = COMPLETED ] && same_bytes "$d" "$r"; then
        echo "ok - $1: completed, byte-identical to the run outside Slurm"
    else
        echo "not ok - $1: completed, byte-identical to the run outside Slurm (state $state)"
        show_log "$4"
        echo "#   $d/mnw.log:"
        show_log "$d/mnw.log"
        squeue -a -o "%i %T %M %R" 2>/dev/null | sed 's/^/#   /'
        T_FAILED=1
    fi
}
wait_end "$one"
same "one node" one ref200 one.slurm-$one.out
check "one node: progress.json names the job" 'grep -q "\"slurm_job\": \"$one\"" one/progress.json'
"$MNW" status one >one-status.txt 2>&1
check "mnw status: 'Slurm job  $one: COMPLETED ... requeued 0 times'" 'grep -q "Slurm job  $one: COMPLETED.*requeued 0 times" one-status.txt' ||
    sed 's/^/#   /' one-status.txt
wait_end "$multi_srun"
same "two nodes with srun" msrun ref200 msrun.slurm-$multi_srun.out
check "two nodes with srun: 2 ranks, on cpu1 and cpu2" \
    'grep -q "2 ranks" msrun/mnw.log && grep -q "rank 0 (cpu[12])" msrun/mnw.log && grep -q "rank 1 (cpu[12])" msrun/mnw.log'
check "two nodes with srun: each node wrote its own results through MPI-IO (the default), rank 0 metadata only" \
    'grep -q "every rank writes its own results into .* through MPI-IO" msrun/mnw.log &&
     grep -qE "cld: .*result bytes received: [0-9]+ \(0\.[0-9]+ per pair; metadata only" msrun/mnw.log &&
     grep -qE "\[1/cpu[12]/main\] INFO output through MPI-IO: [1-9][0-9]* work lists" msrun.slurm-$multi_srun.out'
wait_end "$multi_mpirun"
same "two nodes with mpirun" mmpi ref200 mmpi.slurm-$multi_mpirun.out
check "two nodes with mpirun: 2 ranks, on cpu1 and cpu2" \
    'grep -q "2 ranks" mmpi/mnw.log && grep -q "rank 0 (cpu[12])" mmpi/mnw.log && grep -q "rank 1 (cpu[12])" mmpi/mnw.log'
wait_end "$het"
same "heterogeneous job (CPU + GPU partition)" het ref200 het.slurm-$het.out
check "heterogeneous job: one MPI job, rank 0 on a CPU node, rank 1 on the GPU node" \
    'grep -q "2 ranks" het/mnw.log && grep -q "rank 0 (cpu[12])" het/mnw.log && grep -q "rank 1 (gpu1)" het/mnw.log'
check "heterogeneous job: the ranks wrote through MPI-IO (the default with more than one rank)" \
    'grep -q "every rank writes its own results into .* through MPI-IO" het/mnw.log'
check "heterogeneous job: the GPU rank saw its gres (CUDA_VISIBLE_DEVICES=0), the CPU rank none" \
    'grep -q "\[1/gpu1/main\] INFO GPUs: .*CUDA_VISIBLE_DEVICES=0" het.slurm-$het.out && ! grep -q "\[0/.*CUDA_VISIBLE_DEVICES" het/mnw.log'
check "heterogeneous job: each rank took its component's CPUs per task (SLURM_CPUS_PER_TASK 1 on both)" \
    '[ "$(grep -c "/main\] INFO Slurm: 1 CPUs per task" het.slurm-$het.out)" -eq 2 ]'
wait_end "$arr"
a1=$(field "${arr}_0" JobState) a2=$(field "${arr}_1" JobState)
check "array: both tasks COMPLETED ($a1, $a2)" '[ "$a1" = COMPLETED ] && [ "$a2" = COMPLETED ]'
check "array: each input's run is byte-identical to its run outside Slurm" 'same_bytes arr/s200 ref200 && same_bytes arr/gold refgold'
check "array: progress.json names the task (${arr}_1)" 'grep -q "\"slurm_job\": \"${arr}_1\"" arr/gold/progress.json'
"$MNW" -q -i s500.fa -o ref500 "${opts[@]}" -t 2
wait_end "$canc2"
same "scancel, then mnw-submit --resume" canc ref500 canc.slurm-$canc2.out
check "resumed by a second job: progress.json lists both jobs ($canc,$canc2)" \
    'grep -q "\"slurm_jobs\": \"$canc,$canc2\"" canc/progress.json'

wait_end "$shd2" 300
same "shards: 3 tasks, one cancelled and resumed, merged" shd/merged refgold shd/slurm-merge-$shd2.out
shd_arr2=$(sed -n 's/^job shards \([0-9]*\) .*/\1/p' shd/mnw.shards | tail -1)
check "shards: shard 2's progress.json lists both of its tasks (${shd_arr}_2,${shd_arr2}_2)" \
    'grep -q "\"slurm_jobs\": \"${shd_arr}_2,${shd_arr2}_2\"" shd/shard-2/progress.json'
"$MNW" status shd >shd-status.txt 2>&1
check "shards: mnw status: 3 done, the run complete in shd/merged" \
    'grep -q "3 done, 0 running" shd-status.txt && grep -q "^The run is complete: its 3 shards are merged into shd/merged" shd-status.txt' ||
    sed 's/^/#   /' shd-status.txt
wait_end "$tlim" 400
same "time limit, requeue, resume" tlim ref500 tlim.slurm-$tlim.out
check "time limit: the run resumed (progress.json resumes >= 1), one job id" \
    'grep -qE "\"resumes\": [1-9]" tlim/progress.json && grep -q "\"slurm_jobs\": \"$tlim\"" tlim/progress.json'
echo "# all jobs done $((SECONDS - t0)) s after the cluster started"
down
left=$(pgrep -f "$CL/etc/slurm.conf|$CL/munge" | tr '\n' ' ')
check "the cluster goes down: no daemon of it left (${left:-none}), no namespace, bridge or /etc/hosts line" \
    '[ -z "$left" ] && ! ip netns list | grep -q "^mnwsl-" && ! ip link show mnwsl0 >/dev/null 2>&1 &&
     cmp -s /etc/hosts hosts.before' || sed 's/^/#   /' cluster-down.log
finish
