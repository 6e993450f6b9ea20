#!/bin/bash
# issue 39 step 1: prune_proto on 16s-2k and gold-5181 (docs/PRUNE.md).
# Run from the repository root after `make bench-build`; one thread each,
# under nice (the machine was shared with a CI run for part of it).
# Writes one .txt per run here, each headed by its command, date, machine, commit.
set -u
R=bench/results/prune-proto-xeon-2c-2026-11-27
S=../shared/data/16s
run() { # run NAME ARGS...
    local name=$1; shift
    {
        echo "# command: build/bench/prune_proto $*"
        echo "# date: $(date -u '+%Y-%m-%d %H:%M:%S UTC')"
        echo "# machine: $(grep -m1 'model name' /proc/cpuinfo | sed 's/.*: //'), $(nproc) cores, $(uname -sr)"
        echo "# commit: $(git rev-parse HEAD)$(git diff --quiet HEAD -- bench/prune_proto.c || echo ' (prune_proto.c modified)')"
        /usr/bin/time -f "# wall %e s, max RSS %M KB" nice -n 19 build/bench/prune_proto "$@" 2>&1
        echo "# exit $?"
    } >"$R/$name.txt"
    tail -n +5 "$R/$name.txt" | grep -E "^(pairs|within|pruned|kept|prune|filter|dp|would|check|FAIL)"
}
for what in "$@"; do
    case $what in
    2k600)
        run 16s-2k-600-D0.03-q8 $S/16s-2k.fa.gz --genes 600 --cutoff 0.03 --q 8 --check
        run 16s-2k-600-D0.10-q8 $S/16s-2k.fa.gz --genes 600 --cutoff 0.10 --q 8 --check
        run 16s-2k-600-D0.10-q6-diag $S/16s-2k.fa.gz --genes 600 --cutoff 0.10 --q 6 --diag --check ;;
    2kall)
        run 16s-2k-all-D0.03-q8 $S/16s-2k.fa.gz --cutoff 0.03 --q 8
        run 16s-2k-all-D0.10-q8 $S/16s-2k.fa.gz --cutoff 0.10 --q 8 ;;
    w2)
        run 16s-2k-600-D0.03-q8-w2 $S/16s-2k.fa.gz --genes 600 --cutoff 0.03 --q 8 --w 2 --check ;;
    ed)
        run 16s-2k-600-D0.10-q8-ed $S/16s-2k.fa.gz --genes 600 --cutoff 0.10 --q 8 --ed --check ;;
    quiet)
        run 16s-2k-all-D0.03-q8-quiet $S/16s-2k.fa.gz --cutoff 0.03 --q 8 ;;
    gold600)
        run gold-5181-600-D0.03-q8 $S/gold-5181.fa.gz --genes 600 --cutoff 0.03 --q 8 --check
        run gold-5181-600-D0.10-q8 $S/gold-5181.fa.gz --genes 600 --cutoff 0.10 --q 8 --check ;;
    esac
done
