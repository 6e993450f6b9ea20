#!/usr/bin/env bash
# issue 18, session 30, call 4 (H100): 16s-25k end to end with the streamed kernels (648811f, bench/tmp/new),
# default outputs, GPU + 14 finishing CPU workers; then the 2k set GPU-only vs --cpu-align yes; then bench_finish
set -u
export PATH=/usr/local/cuda/bin:$PATH
O=$OUT; R=$PWD; W=/tmp/c4; mkdir -p $W
cp bench/tmp/s30_call4.sh $W/device_script.sh
{ date -u; nvidia-smi -L; nvcc --version | tail -1; nproc; lscpu | grep -E "Model name|Thread|Core" ; } > $W/info.txt
cd bench/tmp/new
make -j16 LIBDEFLATE_DIR=$R/.deps/usr bin/mnw build/bench/bench_finish > $W/build_new.txt 2>&1 || { tail -20 $W/build_new.txt; exit 1; }
ln -s $R/devdata devdata
timeout 430 bash bench/run_gpu_e2e.sh devdata/16s-25k.fa.gz 25k-gpu-only --cpu-align no 2>&1 | tee $W/e2e-25k.txt
cp bench/tmp/e2e-25k-gpu-only/mnw.log $W/mnw-25k.log 2>/dev/null; cp bench/tmp/e2e-25k-gpu-only/progress.json $W/ 2>/dev/null
rm -rf bench/tmp/e2e-25k-gpu-only
for a in no yes; do timeout 40 bash bench/run_gpu_e2e.sh devdata/16s-2k.fa.gz 2k-cpu-align-$a --cpu-align $a 2>&1 | tee -a $W/e2e-2k.txt; done
tar -C /tmp -czf $O/call4.tgz c4
timeout 60 build/bench/bench_finish tests/data/16s-1000.fa.gz --threads 1,14 --reps 2 > $W/finish.txt 2>&1; tail -3 $W/finish.txt
tar -C /tmp -czf $O/call4.tgz c4
