#!/usr/bin/env bash
# issue 20, session 32, call 4 (H100): finishing cores per GPU, counts mode against the trace-back path
# (--counts no): the first 5,000 genes of 16s-25k (12.5 M pairs), default outputs, GPU only, 4, 3 and 2
# finishing workers, each under bash `time`; then make test-gpu's test_gpu (the device unit tests).
set -u
export PATH=/usr/local/cuda/bin:$PATH
O=$OUT; W=/tmp/c4; mkdir -p $W
cp bench/tmp/s32_call4.sh $W/device_script.sh
pack() { tar -C /tmp -czf $O/call4.tgz c4; }
make -j16 bin/mnw build/tests-gpu/test_gpu > $W/build.txt 2>&1 || { tail -20 $W/build.txt; pack; exit 1; }
TIMEFORMAT='    time: real %R s, user %U s, sys %S s'
for t in 4 3 2; do for m in counts runs; do
  a=(); [ $m = runs ] && a=(--counts no)
  { time timeout 120 bash bench/run_gpu_e2e.sh devdata/16s-5k.fa.gz 5k-$m-t$t -t $t "${a[@]}"; } >> $W/e2e-5k.txt 2>&1
  rm -rf bench/tmp/e2e-*
done; done
grep -E "pairs/s|time:|busy" $W/e2e-5k.txt; pack
t0=$SECONDS; timeout 330 build/tests-gpu/test_gpu > $W/test_gpu.txt 2>&1; echo "test_gpu rc=$? $((SECONDS-t0)) s: $(grep -c '^ok' $W/test_gpu.txt) ok, $(grep -c '^not ok' $W/test_gpu.txt) not ok"; pack
