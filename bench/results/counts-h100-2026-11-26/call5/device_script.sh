#!/usr/bin/env bash
# issue 20, session 32, call 5 (H100): after the review commit 272247e (the trace kernel writes the figures
# as mnw_pathfig's words through a union; the host copies them with one memcpy): counts mode with the GPU
# byte-identical to a CPU run keeping runs, on 16s-200 and 80 gold genes, four scoring modes, device and
# host trace-back; compute-sanitizer memcheck on one counts-mode run.
set -u
export PATH=/usr/local/cuda/bin:$PATH
O=$OUT; W=/tmp/c5; mkdir -p $W
cp bench/tmp/s32_call5.sh $W/device_script.sh
make -j16 bin/mnw > $W/build.txt 2>&1 || { tail -20 $W/build.txt; exit 1; }
source tests/lib.sh; cd "$TMP"
cp "$TDATA/16s-200.fa" s200.fa; gold80 gold80.fa
for f in s200 gold80; do for md in "lin:" "aff:--gap-open 16 --gap-extend 4" "fe:--free-end-gaps" "afe:--match 2 --mismatch -3 --gap-open 5 --gap-extend 2 --free-end-gaps"; do
  name=${md%%:*}; sc=${md#*:}
  "$MNW" -q -i $f.fa -o ref-$f-$name --outputs pairs,dist,phylip,dist-plain --gpus none --counts no $sc
  for v in "--traceback device" "--traceback host"; do
    rm -rf gpu; ok "$f $name: counts mode with the GPU ($v)" "$MNW" -q -i $f.fa -o gpu --outputs pairs,dist,phylip,dist-plain $sc $v
    check "$f $name: byte-identical to the CPU run keeping runs ($v)" 'same_bytes ref-$f-$name gpu && cmp -s ref-$f-$name/dist.column gpu/dist.column && grep -q "counts mode" gpu/mnw.log'
  done
done; done 2>&1 | tee $W/counts_e2e.txt | tail -3
echo "counts e2e: $(grep -c '^ok' $W/counts_e2e.txt) ok, $(grep -c '^not ok' $W/counts_e2e.txt) not ok"
rm -rf ms; compute-sanitizer --tool memcheck --error-exitcode 9 "$MNW" -q -i gold80.fa -o ms > $W/memcheck.txt 2>&1; echo "memcheck rc=$? $(grep 'ERROR SUMMARY' $W/memcheck.txt)"
tar -C /tmp -czf $O/call5.tgz c5
