#!/usr/bin/env bash
# issue 18, session 31, call 1 (H100): verification of d1b4ff6 at HEAD (2253652): full make test-gpu,
# compute-sanitizer memcheck + racecheck on test_gpu (MNW_GPU_TEST_SMALL=1). Tarball after each step.
set -u
export PATH=/usr/local/cuda/bin:$PATH
O=$OUT; R=$PWD; W=/tmp/c1; mkdir -p $W
cp bench/tmp/s31_call1.sh $W/device_script.sh
pack() { tar -C /tmp -czf $O/call1.tgz c1; }
{ date -u; nvidia-smi -L; nvcc --version | tail -1; git log --oneline -1; } > $W/info.txt
make -j16 bin/mnw build/tests-gpu/test_gpu build/bench/bench_gpu > $W/build.txt 2>&1 || { tail -20 $W/build.txt; pack; exit 1; }
t0=$SECONDS; timeout 330 make test-gpu > $W/test_gpu.txt 2>&1; echo "make test-gpu rc=$? $((SECONDS-t0)) s"; tail -4 $W/test_gpu.txt; pack
for tool in racecheck memcheck; do
  t0=$SECONDS; MNW_GPU_TEST_SMALL=1 timeout 110 compute-sanitizer --tool $tool --error-exitcode 9 build/tests-gpu/test_gpu > $W/san_$tool.txt 2>&1
  echo "compute-sanitizer $tool rc=$? $((SECONDS-t0)) s $(grep -c '^ok' $W/san_$tool.txt) ok $(grep -c '^not ok' $W/san_$tool.txt) not ok"; grep -E "ERROR SUMMARY|RACECHECK SUMMARY" $W/san_$tool.txt | tail -1; pack
done
