#!/usr/bin/env bash
# final device call for issue 18 step 1: old (bench/tmp/old) vs new, linear and affine, 3 reps; make test-gpu; compute-sanitizer
set -u
export PATH=/usr/local/cuda/bin:$PATH
O=$OUT; R=$PWD
{ date -u; nvidia-smi -L; nvcc --version | tail -1; } > $O/info.txt
(cd bench/tmp/old && make -j8 build/bench/bench_gpu > $O/build_old.txt 2>&1) &
make -j8 bin/mnw build/bench/bench_gpu build/tests-gpu/test_gpu > $O/build_new.txt 2>&1 || { tail -20 $O/build_new.txt; exit 1; }
wait
for v in old new; do
  B=$R/build/bench/bench_gpu; [ $v = old ] && B=$R/bench/tmp/old/build/bench/bench_gpu
  echo "== $v: bench_gpu devdata/16s-2k.fa.gz --pairs 200000 --gaps both --tb device,host,score --cpu-pairs 200 --rodinia-pairs 0 --reps 3"
  timeout 200 $B $R/devdata/16s-2k.fa.gz --pairs 200000 --gaps both --tb device,host,score --cpu-pairs 200 --rodinia-pairs 0 --reps 3 2>&1 | tee $O/bench_$v.txt | grep -v '^#'
done
timeout 300 make test-gpu > $O/test_gpu.txt 2>&1; echo "make test-gpu rc=$?"; tail -4 $O/test_gpu.txt
for tool in memcheck racecheck; do
  MNW_GPU_TEST_SMALL=1 timeout 100 compute-sanitizer --tool $tool --error-exitcode 9 build/tests-gpu/test_gpu > $O/san_$tool.txt 2>&1
  echo "compute-sanitizer $tool rc=$? $(grep -c '^ok' $O/san_$tool.txt) ok $(grep -c '^not ok' $O/san_$tool.txt) not ok"; grep -v '^ok' $O/san_$tool.txt | tail -3
done
