#!/usr/bin/env bash
# issue 20, session 32, call 2 (H100): 16s-25k end to end, default outputs, GPU only, 14 finishing workers:
# counts mode (the default) and the trace-back path (--counts no) in the same call, each under bash `time`.
set -u
export PATH=/usr/local/cuda/bin:$PATH
O=$OUT; W=/tmp/c2; mkdir -p $W
cp bench/tmp/s32_call2.sh $W/device_script.sh
pack() { tar -C /tmp -czf $O/call2.tgz c2; }
{ date -u; nvidia-smi -L; nproc; } > $W/info.txt
t0=$SECONDS; make -j16 bin/mnw > $W/build.txt 2>&1 || { tail -20 $W/build.txt; pack; exit 1; }
echo "build $((SECONDS-t0)) s"
TIMEFORMAT='    time: real %R s, user %U s, sys %S s'
for m in counts runs; do
  a=(); [ $m = runs ] && a=(--counts no)
  { time timeout 270 bash bench/run_gpu_e2e.sh devdata/16s-25k.fa.gz 25k-$m-t14 -t 14 "${a[@]}"; } >> $W/e2e-25k.txt 2>&1
  cp bench/tmp/e2e-25k-$m-t14/mnw.log $W/mnw-25k-$m.log 2>/dev/null; rm -rf bench/tmp/e2e-*
  tail -8 $W/e2e-25k.txt; pack
done
