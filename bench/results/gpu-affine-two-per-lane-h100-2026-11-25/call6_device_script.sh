#!/usr/bin/env bash
# issue 18: the code to commit (affine two per lane, chain reorder, bench finishing in tasks): test_gpu, compute-sanitizer, bench linear+affine x2/x1, RScan vs DScan on trimmed genes
set -u
export PATH=/usr/local/cuda/bin:$PATH
O=$OUT
cp bench/tmp/s29_call6.sh $O/device_script.sh
{ date -u; nvidia-smi -L; nvcc --version | tail -1; git log --oneline -1; git status --short | head; } > $O/info.txt
make -j14 bin/mnw build/bench/bench_gpu build/tests-gpu/test_gpu > $O/build.txt 2>&1 || { tail -20 $O/build.txt; exit 1; }
A="devdata/16s-2k.fa.gz --pairs 200000 --gaps both --tb device,score --cpu-pairs 10 --rodinia-pairs 100 --reps 3 --kernels auto,rscan,dscan,tileddscan --lanes x2,x1 --finishers 8"
echo "== bench_gpu $A"; timeout 200 build/bench/bench_gpu $A 2>&1 | tee $O/bench.txt | grep -v '^# [bG]'
for L in 64 128 192 256; do
B="devdata/16s-2k.fa.gz --trim $L --pairs 1000000 --gaps linear --kernels rscan,dscan --lanes x2 --tb device,score --cpu-pairs 100 --rodinia-pairs 0 --reps 2 --finishers 8"
echo "== bench_gpu $B"; timeout 60 build/bench/bench_gpu $B 2>&1 | tee $O/bench_trim$L.txt | grep -v '^# [bG]' | grep -v 'cpu1\|^gaps'
done
for tool in memcheck racecheck; do
  (MNW_GPU_TEST_SMALL=1 timeout 200 compute-sanitizer --tool $tool --error-exitcode 9 build/tests-gpu/test_gpu > $O/san_$tool.txt 2>&1; echo "rc=$?" >> $O/san_$tool.txt) &
done
timeout 300 build/tests-gpu/test_gpu > $O/test_gpu.txt 2>&1; echo "test_gpu rc=$? $(grep -c '^ok' $O/test_gpu.txt) ok $(grep -c '^not ok' $O/test_gpu.txt) not ok"; grep -A3 '^not ok' $O/test_gpu.txt | head -12
wait
for tool in memcheck racecheck; do echo "compute-sanitizer $tool: $(tail -1 $O/san_$tool.txt) $(grep -c '^ok' $O/san_$tool.txt) ok $(grep -c '^not ok' $O/san_$tool.txt) not ok; $(grep 'ERROR SUMMARY\|RACECHECK SUMMARY' $O/san_$tool.txt | tail -1)"; done
mkdir -p $O/keep; mv $O/san_*.txt $O/test_gpu.txt $O/build.txt $O/keep/ 2>/dev/null; (cd $O/keep && tar czf ../logs.tgz . ) && rm -rf $O/keep
