#!/usr/bin/env bash
# issue 19, session 31, call 3 (H100): finishing at GPU speed, measured at HEAD (a6e354b: fmtnum, libdeflate,
# --outputs, PAF). Each run: bench/run_gpu_e2e.sh (wall, pairs/s, mnw's GPU lines) under bash `time`
# (real, user, sys of the whole mnw process: CPU cores busy = (user + sys) / real).
# 1. 16s-2k: default outputs and --cigar, 14 finishing workers (GPU only), twice each
# 2. the first 5,000 genes of 16s-25k (12.5 M pairs): default outputs with 14, 6, 4, 3, 2 workers; --cigar 14;
#    --cpu-align yes (14 workers aligning too) against GPU-only 14
# 3. 16s-25k, default outputs, GPU only, 14 workers (as session 30's call 4)
# 4. bench_finish on the 16 device cores (16s-1000, 1 and 14 threads), PAF rows included
set -u
export PATH=/usr/local/cuda/bin:$PATH
O=$OUT; R=$PWD; W=/tmp/c3; mkdir -p $W
cp bench/tmp/s31_call3.sh $W/device_script.sh
pack() { tar -C /tmp -czf $O/call3.tgz c3; }
{ date -u; nvidia-smi -L; nvcc --version | tail -1; git log --oneline -1; nproc; lscpu | grep -E "Model name"; } > $W/info.txt
t0=$SECONDS; make -j16 bin/mnw build/bench/bench_finish > $W/build.txt 2>&1 || { tail -20 $W/build.txt; pack; exit 1; }
echo "build $((SECONDS-t0)) s"
TIMEFORMAT='    time: real %R s, user %U s, sys %S s'
run() { # run FILE DATA LABEL ARGS...
  local f=$1; shift
  { time timeout 400 bash bench/run_gpu_e2e.sh "$@" ; } >> $W/$f 2>&1
  tail -6 $W/$f | grep -E "pairs/s|time:|GPU 0" | sed 's/^/  /'
  rm -rf bench/tmp/e2e-*
}
for r in 1 2; do
  run e2e-2k.txt devdata/16s-2k.fa.gz 2k-default-t14 -t 14
  run e2e-2k.txt devdata/16s-2k.fa.gz 2k-cigar-t14 -t 14 --cigar
done; pack
for t in 14 6 4 3 2; do run e2e-5k.txt devdata/16s-5k.fa.gz 5k-default-t$t -t $t; done
run e2e-5k.txt devdata/16s-5k.fa.gz 5k-cigar-t14 -t 14 --cigar
run e2e-5k.txt devdata/16s-5k.fa.gz 5k-cpualign-t14 -t 14 --cpu-align yes
run e2e-5k.txt devdata/16s-5k.fa.gz 5k-default-t14-again -t 14; pack
echo "before 25k: $SECONDS s"
if [ $SECONDS -lt 300 ]; then
  { time timeout 280 bash bench/run_gpu_e2e.sh devdata/16s-25k.fa.gz 25k-default-t14 -t 14; } >> $W/e2e-25k.txt 2>&1
  cp bench/tmp/e2e-25k-default-t14/mnw.log $W/mnw-25k.log 2>/dev/null; rm -rf bench/tmp/e2e-*
  tail -6 $W/e2e-25k.txt; pack
fi
left=$((585 - SECONDS)); echo "left for bench_finish: $left s"
[ $left -gt 30 ] && timeout $left build/bench/bench_finish tests/data/16s-1000.fa.gz --threads 1,14 --reps 2 > $W/finish.txt 2>&1; tail -3 $W/finish.txt; pack
