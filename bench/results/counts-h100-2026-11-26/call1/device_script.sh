#!/usr/bin/env bash
# issue 20, session 32, call 1 (H100): counts mode verified on a real GPU at 7c223da: build, tests/gpu/t_gpu_e2e.sh
# (every output byte-identical to the CPU-only run, runs and counts mode, every scoring mode and kernel),
# compute-sanitizer memcheck on bin/mnw in counts mode (device trace kernel writing figures).
set -u
export PATH=/usr/local/cuda/bin:$PATH
O=$OUT; W=/tmp/c1; mkdir -p $W
cp bench/tmp/s32_call1.sh $W/device_script.sh
pack() { tar -C /tmp -czf $O/call1.tgz c1; }
{ date -u; nvidia-smi -L; nvcc --version | tail -1; nproc; } > $W/info.txt
t0=$SECONDS; make -j16 bin/mnw build/bench/bench_gpu > $W/build.txt 2>&1 || { tail -20 $W/build.txt; pack; exit 1; }
echo "build $((SECONDS-t0)) s"
t0=$SECONDS; timeout 420 bash tests/gpu/t_gpu_e2e.sh > $W/t_gpu_e2e.txt 2>&1; echo "t_gpu_e2e rc=$? $((SECONDS-t0)) s: $(grep -c '^ok' $W/t_gpu_e2e.txt) ok, $(grep -c '^not ok' $W/t_gpu_e2e.txt) not ok"
grep "^not ok" $W/t_gpu_e2e.txt | head; pack
awk '/^>/{n++} n<=30' tests/data/16s-200.fa > /tmp/s30.fa
for tb in device host; do
  t0=$SECONDS; rm -rf /tmp/ms; timeout 100 compute-sanitizer --tool memcheck --error-exitcode 9 bin/mnw -q -i /tmp/s30.fa -o /tmp/ms --traceback $tb -t 2 > $W/memcheck_$tb.txt 2>&1
  echo "memcheck counts mode --traceback $tb rc=$? $((SECONDS-t0)) s; $(grep -E 'ERROR SUMMARY' $W/memcheck_$tb.txt | tail -1); log: $(grep -o 'counts mode[^;]*' /tmp/ms/mnw.log | head -1)"
done; pack
