#!/usr/bin/env bash
# issue 19, session 31, call 4 (H100): gzip level 5 (the new default) against 6, end to end, same machine, alternately:
# 1. 16s-2k --cigar, 14 workers, GPU only: levels 5, 6, 5, 6
# 2. first 5,000 genes of 16s-25k, default outputs: 3 and 4 workers at 5 and 6; --cigar 14 workers at 5
# 3. 16s-25k, default outputs (level 5), 14 workers
# 4. bench_finish (16s-1000, 1 and 14 threads) at level 5 and 6
set -u
export PATH=/usr/local/cuda/bin:$PATH
O=$OUT; R=$PWD; W=/tmp/c4; mkdir -p $W
cp bench/tmp/s31_call4.sh $W/device_script.sh
pack() { tar -C /tmp -czf $O/call4.tgz c4; }
{ date -u; nvidia-smi -L; nvcc --version | tail -1; git log --oneline -1; git diff --stat | tail -1; nproc; lscpu | grep -E "Model name"; } > $W/info.txt
t0=$SECONDS; make -j16 bin/mnw build/bench/bench_finish > $W/build.txt 2>&1 || { tail -20 $W/build.txt; pack; exit 1; }
echo "build $((SECONDS-t0)) s"
TIMEFORMAT='    time: real %R s, user %U s, sys %S s'
run() { # run FILE DATA LABEL ARGS...
  local f=$1; shift
  { time timeout 300 bash bench/run_gpu_e2e.sh "$@" ; } >> $W/$f 2>&1
  tail -6 $W/$f | grep -E "pairs/s|time:|outputs:" | sed 's/^/  /'
  rm -rf bench/tmp/e2e-*
}
for r in 1 2; do for L in 5 6; do run e2e-2k.txt devdata/16s-2k.fa.gz 2k-cigar-t14-L$L -t 14 --cigar --gzip-level $L; done; done; pack
for t in 3 4; do for L in 5 6; do run e2e-5k.txt devdata/16s-5k.fa.gz 5k-default-t$t-L$L -t $t --gzip-level $L; done; done
run e2e-5k.txt devdata/16s-5k.fa.gz 5k-cigar-t14-L5 -t 14 --cigar --gzip-level 5; pack
echo "before 25k: $SECONDS s"
if [ $SECONDS -lt 330 ]; then
  { time timeout 240 bash bench/run_gpu_e2e.sh devdata/16s-25k.fa.gz 25k-default-t14-L5 -t 14; } >> $W/e2e-25k.txt 2>&1
  cp bench/tmp/e2e-25k-default-t14-L5/mnw.log $W/mnw-25k.log 2>/dev/null; rm -rf bench/tmp/e2e-*
  tail -6 $W/e2e-25k.txt; pack
fi
for L in 5 6; do
  left=$((580 - SECONDS)); [ $left -gt 20 ] || break
  timeout $left build/bench/bench_finish tests/data/16s-1000.fa.gz --threads 1,14 --reps 2 --level $L > $W/finish-L$L.txt 2>&1; tail -2 $W/finish-L$L.txt; pack
done
