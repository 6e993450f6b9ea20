#!/usr/bin/env bash
# bench/device/issue39_s8b.sh - issue 39, step 8: how far the GPU filter may
# run ahead of the alignment batches (the FIFO's bound, MNW_X_FIFO filter
# batches a device), in the background:
#   bash bench/device/issue39_s8b.sh start            builds bin/mnw, starts (setsid)
#   bash bench/device/issue39_s8b.sh wait SECONDS     waits, prints bench/tmp/s8b.txt (a copy in $OUT)
# Into bench/tmp/s8b.txt: 16s-25k whole at 0.10, filter on, GPU path,
# --outputs dist, for each bound of BOUNDS (default "4 16 64"): wall time
# and the run's log lines; then bench/run_prune.sh at 0.10 (filter off and
# on, outputs compared) at each cutoff of CUTS (default 0.10), with the
# bound FINAL (default 16).
# Data: the git-ignored devdata/ (16s-25k), carried.
set -uo pipefail
. "$(dirname "$0")/../lib.sh"
s8b=bench/tmp/s8b.txt
case ${1:-} in
start)
    bench_setup s8b-build.txt bin/mnw
    bench_machine >"$s8b"
    # shellcheck disable=SC2016 # the commands run in the setsid shell
    setsid bash -c '
        log='"$s8b"'
        bounds="'"${BOUNDS:-4 16 64}"'"
        final='"${FINAL:-16}"'
        for b in $bounds; do
            echo "== $(date -u +%FT%TZ) 16s-25k whole, cutoff 0.10, filter on, GPU, MNW_X_FIFO=$b" >>"$log"
            rm -rf bench/tmp/s8b-o
            MNW_X_FIFO=$b /usr/bin/time -f "%e s wall, %U s user, %S s sys" bin/mnw -q -i devdata/16s-25k.fa.gz \
                -o bench/tmp/s8b-o --outputs dist --cutoff 0.10 --prune yes >>"$log" 2>&1
            grep -E "INFO (done|GPU)" bench/tmp/s8b-o/mnw.log | grep -v "GPUs:" | sed "s/^[^]]*] /    /" |
                cut -c1-260 >>"$log"
        done
        rm -rf bench/tmp/s8b-o
        for c in '"${CUTS:-0.10}"'; do
            echo "== $(date -u +%FT%TZ) run_prune.sh 16s-25k whole, cutoff $c, GPU, MNW_X_FIFO=$final" >>"$log"
            MNW_X_FIFO=$final bench/run_prune.sh devdata/16s-25k.fa.gz $c 1 >>"$log" 2>&1
        done
        echo "== all done" >>"$log"' </dev/null >/dev/null 2>&1 &
    echo "started" ;;
wait)
    end=$(($(date +%s) + ${2:-500}))
    while [ "$(date +%s)" -lt "$end" ] && ! grep -q '== all done' "$s8b"; do sleep 5; done
    cat "$s8b"
    cp "$s8b" "$OUT/" ;;
*) sed -n 2,12p "$0"; exit 2 ;;
esac
