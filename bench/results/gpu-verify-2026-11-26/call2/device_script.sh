#!/usr/bin/env bash
# issue 18, session 31, call 2 (H100): the rest of call 1 at HEAD (2253652): compute-sanitizer racecheck on
# test_gpu (MNW_GPU_TEST_SMALL=1) to its end, and t_gpu_e2e.sh (make test-gpu's shell test). Tarball after each step.
set -u
export PATH=/usr/local/cuda/bin:$PATH
O=$OUT; R=$PWD; W=/tmp/c2; mkdir -p $W
cp bench/tmp/s31_call2.sh $W/device_script.sh
pack() { tar -C /tmp -czf $O/call2.tgz c2; }
{ date -u; nvidia-smi -L; nvcc --version | tail -1; git log --oneline -1; } > $W/info.txt
make -j16 bin/mnw build/tests-gpu/test_gpu > $W/build.txt 2>&1 || { tail -20 $W/build.txt; pack; exit 1; }
t0=$SECONDS; MNW_GPU_TEST_SMALL=1 timeout 260 compute-sanitizer --tool racecheck --error-exitcode 9 build/tests-gpu/test_gpu > $W/san_racecheck.txt 2>&1
echo "compute-sanitizer racecheck rc=$? $((SECONDS-t0)) s $(grep -c '^ok' $W/san_racecheck.txt) ok $(grep -c '^not ok' $W/san_racecheck.txt) not ok"; grep -E "ERROR SUMMARY|RACECHECK SUMMARY" $W/san_racecheck.txt | tail -1; pack
t0=$SECONDS; MNW_TEST_SET=gpu timeout $((575-SECONDS)) bash tests/run.sh t_gpu_e2e > $W/t_gpu_e2e.txt 2>&1; echo "t_gpu_e2e rc=$? $((SECONDS-t0)) s"; tail -3 $W/t_gpu_e2e.txt; pack
