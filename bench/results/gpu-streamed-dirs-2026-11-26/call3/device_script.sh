#!/usr/bin/env bash
# issue 18, session 30, call 3 (H100): bench/tmp/new = git archive of 648811f; build, test_gpu, compute-sanitizer,
# bench_gpu old (9fc21d7) vs new in one call, free end gaps rows; outputs in one tarball
set -u
export PATH=/usr/local/cuda/bin:$PATH
O=$OUT; R=$PWD; W=/tmp/c3; mkdir -p $W
cp bench/tmp/s30_call3.sh $W/device_script.sh
{ date -u; nvidia-smi -L; nvcc --version | tail -1; nproc; lscpu | grep -E "Model name|MHz" ; } > $W/info.txt
(cd bench/tmp/old && make -j4 LIBDEFLATE_DIR=$R/.deps/usr build/bench/bench_gpu > $W/build_old.txt 2>&1) &
(cd bench/tmp/new && make -j12 LIBDEFLATE_DIR=$R/.deps/usr bin/mnw build/bench/bench_gpu build/tests-gpu/test_gpu build/bench/bench_finish > $W/build_new.txt 2>&1) || { tail -20 $W/build_new.txt; exit 1; }
wait
cd bench/tmp/new
ln -s $R/devdata devdata
timeout 240 build/tests-gpu/test_gpu > $W/test_gpu.txt 2>&1; echo "test_gpu rc=$? $(grep -c '^ok' $W/test_gpu.txt) ok $(grep -c '^not ok' $W/test_gpu.txt) not ok"; grep '^not ok' $W/test_gpu.txt | head -5
for tool in memcheck racecheck; do
  MNW_GPU_TEST_SMALL=1 timeout 150 compute-sanitizer --tool $tool --error-exitcode 9 build/tests-gpu/test_gpu > $W/san_$tool.txt 2>&1
  echo "compute-sanitizer $tool rc=$? $(grep -c '^ok' $W/san_$tool.txt) ok $(grep -c '^not ok' $W/san_$tool.txt) not ok"; grep -E "ERROR SUMMARY|RACECHECK SUMMARY" $W/san_$tool.txt | tail -2
done
for g in linear affine; do
A="devdata/16s-2k.fa.gz --pairs 400000 --gaps $g --tb device,score --cpu-pairs 10 --rodinia-pairs 0 --reps 3 --kernels auto --lanes x2"
echo "== $g old (9fc21d7): bench_gpu $A"; timeout 100 $R/bench/tmp/old/build/bench/bench_gpu $A 2>&1 | tee $W/bench_old_$g.txt | grep -v '^#'
echo "== $g new: bench_gpu $A"; timeout 100 build/bench/bench_gpu $A 2>&1 | tee $W/bench_new_$g.txt | grep -v '^#'
done
A="devdata/16s-2k.fa.gz --pairs 400000 --gaps both --tb device --cpu-pairs 10 --rodinia-pairs 0 --reps 2 --kernels auto --lanes x2 --free-ends 1"
echo "== new, free end gaps: bench_gpu $A"; timeout 100 build/bench/bench_gpu $A 2>&1 | tee $W/bench_new_fe.txt | grep -v '^#'
tar -C /tmp -czf $O/call3.tgz c3
