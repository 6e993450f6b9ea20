#!/usr/bin/env bash
# bench/device/issue39_prune.sh - issue 39 on the GPU machine's host: the
# CPU-only path (14 workers, --gpus none), filter off against on, in the
# background (it outlasts one 10-minute device command):
#   bash bench/device/issue39_prune.sh start [THREADS]   builds, starts (setsid)
#   bash bench/device/issue39_prune.sh wait SECONDS      waits, prints bench/tmp/prune.txt (a copy in $OUT)
# Runs (bench/run_prune.sh, outputs cmp-identical on and off in each):
#   16s-25k, the 32nd of 64 pair ranges (--shard 32/64: 4,882,617 pairs of
#   the middle rows), at --cutoff 0.03 and 0.10;
#   gold-5181, the 2nd of 4 pair ranges, at 0.03 and 0.10;
#   then (unless WHOLE=0) the whole 16s-25k with the filter on at 0.03 (one
#   run, no baseline: its absolute rate).
# Data: the git-ignored devdata/ (16s-25k.fa.gz, gold-5181.fa.gz, copies of
# ../shared/data/16s), carried.
set -uo pipefail
. "$(dirname "$0")/../lib.sh"
case ${1:-} in
start)
    t=${2:-14}
    bench_setup prune-build.txt bin/mnw
    log=bench/tmp/prune.txt
    bench_machine >"$log"
    # shellcheck disable=SC2016 # the loop runs in the setsid shell
    setsid bash -c '
        t='"$t"' log='"$log"' WHOLE='"${WHOLE:-1}"'
        for c in 0.03 0.10; do
            echo "== $(date -u +%FT%TZ) 16s-25k --shard 32/64, cutoff $c, -t $t" >>"$log"
            bench/run_prune.sh devdata/16s-25k.fa.gz $c 1 -t $t --gpus none --shard 32/64 >>"$log" 2>&1
        done
        for c in 0.03 0.10; do
            echo "== $(date -u +%FT%TZ) gold-5181 --shard 2/4, cutoff $c, -t $t" >>"$log"
            bench/run_prune.sh devdata/gold-5181.fa.gz $c 1 -t $t --gpus none --shard 2/4 >>"$log" 2>&1
        done
        [ "${WHOLE:-1}" = 1 ] || { echo "== all done" >>"$log"; exit 0; }
        echo "== $(date -u +%FT%TZ) 16s-25k whole, cutoff 0.03, filter on, -t $t" >>"$log"
        bench/run_gpu_e2e.sh devdata/16s-25k.fa.gz prune25k --outputs dist --cutoff 0.03 --prune yes -t $t --gpus none >>"$log" 2>&1
        sed -n "s/.*\"pruned\": *\([0-9]*\).*/    pruned \1/p" bench/tmp/e2e-prune25k/progress.json | head -1 >>"$log"
        rm -rf bench/tmp/e2e-prune25k
        echo "== all done" >>"$log"' </dev/null >/dev/null 2>&1 &
    echo "started" ;;
wait)
    log=bench/tmp/prune.txt
    end=$(($(date +%s) + ${2:-500}))
    while [ "$(date +%s)" -lt "$end" ] && ! grep -q '== all done' "$log"; do sleep 5; done
    cat "$log"
    cp "$log" "$OUT/" ;;
*) sed -n 2,14p "$0"; exit 2 ;;
esac
