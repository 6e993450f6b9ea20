#!/usr/bin/env bash
# issue 19, session 31, call 5 (H100), at 132501 (level 5): where a short --cigar run's time goes.
# 1. the fixed cost of a run: 2 genes (1 pair), GPU default and --gpus none, twice each
# 2. 16s-2k --cigar with 14, 15, 16 finishing workers, alternately, twice
# 3. first 5,000 genes of 16s-25k, default outputs, 14 and 16 workers (the GPU-bound case)
set -u
export PATH=/usr/local/cuda/bin:$PATH
O=$OUT; R=$PWD; W=/tmp/c5; mkdir -p $W
cp bench/tmp/s31_call5.sh $W/device_script.sh
pack() { tar -C /tmp -czf $O/call5.tgz c5; }
{ date -u; nvidia-smi -L; nvcc --version | tail -1; git log --oneline -1; git diff --stat | tail -1; nproc; lscpu | grep -E "Model name|Thread|Core|Socket"; ompi_info 2>/dev/null | grep "Open MPI:" ; } > $W/info.txt
t0=$SECONDS; make -j16 bin/mnw > $W/build.txt 2>&1 || { tail -20 $W/build.txt; pack; exit 1; }
echo "build $((SECONDS-t0)) s"
zcat devdata/16s-2k.fa.gz | awk '/^>/{n++} n<=2' > /tmp/two.fa
TIMEFORMAT='    time: real %R s, user %U s, sys %S s'
for r in 1 2; do for g in default none; do
  rm -rf /tmp/t2; a=(); [ $g = none ] && a=(--gpus none)
  echo "2 genes, gpus $g:" >> $W/fixed.txt
  { time bin/mnw -q -i /tmp/two.fa -o /tmp/t2 "${a[@]}" ; } >> $W/fixed.txt 2>&1
  [ $r = 1 ] && cp /tmp/t2/mnw.log $W/fixed-$g.log
done; done; cat $W/fixed.txt; pack
run() { # run FILE DATA LABEL ARGS...
  local f=$1; shift
  { time timeout 200 bash bench/run_gpu_e2e.sh "$@" ; } >> $W/$f 2>&1
  tail -6 $W/$f | grep -E "pairs/s|time:" | sed 's/^/  /'
  cp bench/tmp/e2e-$3/mnw.log $W/mnw-$3.log 2>/dev/null
  rm -rf bench/tmp/e2e-*
}
for r in 1 2; do for t in 14 15 16; do run e2e-2k.txt devdata/16s-2k.fa.gz 2k-cigar-t$t-r$r -t $t --cigar; done; done; pack
for t in 14 16; do run e2e-5k.txt devdata/16s-5k.fa.gz 5k-default-t$t -t $t; done; pack
