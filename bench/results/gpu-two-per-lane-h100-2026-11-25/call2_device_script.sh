#!/usr/bin/env bash
# issue 18 step 2, call 2: where dev-tb time goes (ncu kernel durations), sm_90 SASS of dscan2
set -u
export PATH=/usr/local/cuda/bin:$PATH
O=$OUT; R=$PWD
make -j16 bin/mnw build/bench/bench_gpu build/tests-gpu/test_gpu > $O/build_new.txt 2>&1 || { tail -20 $O/build_new.txt; exit 1; }
cuobjdump -sass -arch sm_90 build/workers/gpu/gpu_kernels.o > /tmp/k90.sass 2>&1
grep -c "Function :" /tmp/k90.sass
for f in dscan2ILb0ELb1ELb1E dscan2ILb0ELb1ELb0E dscanILb0ELb0ELb1ELb1E; do echo "== $f"; python3 bench/sass_loops.py /tmp/k90.sass $f 2; done > $O/sass90.txt 2>&1
cat $O/sass90.txt
# the function body of dscan2<FE=0,TILED=1,DIRS=1>, for reading
awk '/Function : .*dscan2ILb0ELb1ELb1E/{p=1} p&&/Function : /&&!/dscan2ILb0ELb1ELb1E/{p=0} p' /tmp/k90.sass > $O/dscan2_tiled_dirs.sass
wc -l $O/dscan2_tiled_dirs.sass
A="devdata/16s-2k.fa.gz --pairs 100000 --gaps linear --cpu-pairs 10 --rodinia-pairs 0 --reps 1 --kernels tileddscan --lanes x2"
timeout 200 ncu --metrics gpu__time_duration.sum --print-summary per-kernel build/bench/bench_gpu $A --tb device > $O/ncu_devtb.txt 2>&1; echo "ncu rc=$?"
grep -E "dscan|trace|rscan|gpu__time_duration|invocations|^  [a-z_]" $O/ncu_devtb.txt | head -40
echo "== batch size effect (dev-tb, tileddscan x2)"
for mp in 5000 20000 65536; do timeout 60 build/bench/bench_gpu devdata/16s-2k.fa.gz --pairs 200000 --gaps linear --cpu-pairs 10 --rodinia-pairs 0 --reps 2 --kernels tileddscan --lanes x2 --tb device,score --max-pairs $mp | grep -v '^#' | tail -2 | sed "s/^/max-pairs $mp: /"; done
