#!/usr/bin/env bash
# gpu_25k.sh - the whole 16s-25k set (312 M pairs, alignments
# computed, default outputs written) end to end on a GPU machine, in the
# background (it outlasts one 10-minute device command):
#   bench/device/gpu_25k.sh start [CONFIGS]  starts them one after the other
#                                           (setsid); CONFIGS: "cpu+gpu gpu-only"
#   bench/device/gpu_25k.sh wait SECONDS     waits up to SECONDS, then prints
#                                           what has finished (bench/tmp/e2e-25k.txt)
# Each run's outputs are deleted after it is measured (about 10 GB each).
set -uo pipefail
. "$(dirname "$0")/../lib.sh"
case ${1:-} in
start)
    configs=${2:-"cpu+gpu gpu-only"}
    : > bench/tmp/e2e-25k.txt
    setsid bash -c '
        for c in '"$configs"'; do
            case $c in gpu-only) opt="--cpu-align no" ;; *) opt="" ;; esac
            echo "== $(date -u +%FT%TZ) 25k-$c" >> bench/tmp/e2e-25k.txt
            bench/run_gpu_e2e.sh devdata/16s-25k.fa.gz 25k-$c $opt >> bench/tmp/e2e-25k.txt 2>&1
            cp bench/tmp/e2e-25k-$c/mnw.log bench/tmp/e2e-25k-$c.log 2>/dev/null
            rm -rf bench/tmp/e2e-25k-$c
        done
        echo "== all done" >> bench/tmp/e2e-25k.txt' </dev/null >/dev/null 2>&1 &
    echo "started: $configs" ;;
wait)
    end=$(( $(date +%s) + ${2:-500} ))
    while [ "$(date +%s)" -lt "$end" ] && ! grep -q '== all done' bench/tmp/e2e-25k.txt; do sleep 5; done
    cat bench/tmp/e2e-25k.txt
    for d in bench/tmp/e2e-25k-*/; do [ -d "$d" ] && { echo "running: $d"; du -sh "$d"; tail -2 "$d/mnw.log"; }; done
    [ -n "${OUT:-}" ] && cp bench/tmp/e2e-25k.txt bench/tmp/e2e-25k-*.log "$OUT/" 2>/dev/null
    true ;;
*) echo "usage: $0 start [CONFIGS] | wait SECONDS" >&2; exit 2 ;;
esac
