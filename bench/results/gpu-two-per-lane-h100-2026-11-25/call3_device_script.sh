#!/usr/bin/env bash
# issue 18 step 2, call 3: the leaner two-per-lane loop: test_gpu, sanitizer, SASS, bench old/x1/x2, ncu kernel times
set -u
export PATH=/usr/local/cuda/bin:$PATH
O=$OUT; R=$PWD
{ date -u; nvidia-smi -L; nvcc --version | tail -1; git log --oneline -1 2>/dev/null; } > $O/info.txt
(cd bench/tmp/old && make -j4 build/bench/bench_gpu > $O/build_old.txt 2>&1) &
make -j12 bin/mnw build/bench/bench_gpu build/tests-gpu/test_gpu > $O/build_new.txt 2>&1 || { tail -20 $O/build_new.txt; exit 1; }
wait
cuobjdump -sass -arch sm_90 build/workers/gpu/gpu_kernels.o > /tmp/k90.sass 2>&1
for f in dscan2ILb0ELb1ELb1E dscan2ILb0ELb1ELb0E dscan2ILb1ELb1ELb1E dscanILb0ELb0ELb1ELb1E; do echo "== $f"; python3 bench/sass_loops.py /tmp/k90.sass $f 2; done > $O/sass90.txt 2>&1
awk '/Function : .*dscan2ILb0ELb1ELb1E/{p=1} p&&/Function : /&&!/dscan2ILb0ELb1ELb1E/{p=0} p' /tmp/k90.sass > $O/dscan2_tiled_dirs.sass
cat $O/sass90.txt
timeout 200 build/tests-gpu/test_gpu > $O/test_gpu.txt 2>&1; echo "test_gpu rc=$? $(grep -c '^ok' $O/test_gpu.txt) ok $(grep -c '^not ok' $O/test_gpu.txt) not ok"; grep '^not ok' $O/test_gpu.txt | head -5
A="devdata/16s-2k.fa.gz --pairs 200000 --gaps linear --tb device,score --cpu-pairs 100 --rodinia-pairs 0 --reps 3"
echo "== old (a5cb0a3): bench_gpu $A --kernels auto,tileddscan"; timeout 100 bench/tmp/old/build/bench/bench_gpu $A --kernels auto,tileddscan 2>&1 | tee $O/bench_old.txt | grep -v '^#'
echo "== new: bench_gpu $A --lanes x2,x1"; timeout 150 build/bench/bench_gpu $A --lanes x2,x1 2>&1 | tee $O/bench_new.txt | grep -v '^#'
B="devdata/16s-2k.fa.gz --pairs 100000 --gaps linear --cpu-pairs 10 --rodinia-pairs 0 --reps 1 --kernels tileddscan --lanes x2,x1"
timeout 120 ncu --metrics gpu__time_duration.sum,sm__inst_executed.sum,smsp__issue_active.avg.pct_of_peak_sustained_active --print-summary per-kernel build/bench/bench_gpu $B --tb device,score > $O/ncu.txt 2>&1; echo "ncu rc=$?"
grep -E "^  [a-z].*\(|gpu__time|inst_executed|issue_active" $O/ncu.txt | sed 's/(const mnw_gpu_kpair.*kend \*)//' | head -40
for tool in memcheck racecheck; do
  MNW_GPU_TEST_SMALL=1 timeout 100 compute-sanitizer --tool $tool --error-exitcode 9 build/tests-gpu/test_gpu > $O/san_$tool.txt 2>&1
  echo "compute-sanitizer $tool rc=$? $(grep -c '^ok' $O/san_$tool.txt) ok $(grep -c '^not ok' $O/san_$tool.txt) not ok"; grep -v '^ok' $O/san_$tool.txt | tail -3
done
