#!/usr/bin/env bash
# issue 20, session 32, call 3 (H100): 16s-25k end to end, GPU only, 14 workers, --outputs dist with
# --cutoff 0.10 and 0.03 (counts mode, the default): pairs/s and the size of the output.
set -u
export PATH=/usr/local/cuda/bin:$PATH
O=$OUT; W=/tmp/c3; mkdir -p $W
cp bench/tmp/s32_call3.sh $W/device_script.sh
pack() { tar -C /tmp -czf $O/call3.tgz c3; }
{ date -u; nvidia-smi -L; nproc; } > $W/info.txt
t0=$SECONDS; make -j16 bin/mnw > $W/build.txt 2>&1 || { tail -20 $W/build.txt; pack; exit 1; }
echo "build $((SECONDS-t0)) s"
TIMEFORMAT='    time: real %R s, user %U s, sys %S s'
for c in 0.10 0.03; do
  { time timeout 270 bash bench/run_gpu_e2e.sh devdata/16s-25k.fa.gz 25k-dist-cutoff$c -t 14 --outputs dist --cutoff $c; } >> $W/e2e-25k-cutoff.txt 2>&1
  ls -l bench/tmp/e2e-25k-dist-cutoff$c/ >> $W/e2e-25k-cutoff.txt
  zcat bench/tmp/e2e-25k-dist-cutoff$c/dist.column.gz | wc -l | sed 's/^/    dist.column lines: /' >> $W/e2e-25k-cutoff.txt
  cp bench/tmp/e2e-25k-dist-cutoff$c/mnw.log $W/mnw-25k-cutoff$c.log 2>/dev/null; rm -rf bench/tmp/e2e-*
  tail -10 $W/e2e-25k-cutoff.txt; pack
done
