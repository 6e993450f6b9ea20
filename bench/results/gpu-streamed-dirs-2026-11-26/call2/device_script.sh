#!/usr/bin/env bash
# issue 18, session 30, call 2 (same warm machine as call 1): the baseline HEAD 9fc21d7 built (LIBDEFLATE_DIR),
# bench old vs new in one call, ncu kernel times old vs new; outputs in one tarball
set -u
export PATH=/usr/local/cuda/bin:$PATH
O=$OUT; R=$PWD; W=/tmp/c2; mkdir -p $W
cp bench/tmp/s30_call2.sh $W/device_script.sh
{ date -u; nvidia-smi -L; nvcc --version | tail -1; } > $W/info.txt
(cd bench/tmp/old && make -j12 LIBDEFLATE_DIR=$R/.deps/usr build/bench/bench_gpu > $W/build_old.txt 2>&1) || { tail -5 $W/build_old.txt; exit 1; }
make -j12 build/bench/bench_gpu > $W/build_new.txt 2>&1 || { tail -5 $W/build_new.txt; exit 1; }
for v in new old; do
  d=.; [ $v = old ] && d=bench/tmp/old
  cuobjdump -sass -arch sm_90 $d/build/workers/gpu/gpu_kernels.o > /tmp/k_$v.sass 2>&1
  for f in dscan2ILb0ELb0ELb1ELb1E dscan2ILb1ELb0ELb1ELb1E dscan2ILb0ELb0ELb1ELb0E; do echo "== $v $f"; python3 bench/sass_loops.py /tmp/k_$v.sass $f 2; done
done > $W/sass90.txt 2>&1
cut -c1-250 $W/sass90.txt
for g in linear affine; do
A="devdata/16s-2k.fa.gz --pairs 400000 --gaps $g --tb device,score --cpu-pairs 10 --rodinia-pairs 0 --reps 3 --kernels auto --lanes x2"
echo "== $g old (9fc21d7): bench_gpu $A"; timeout 100 bench/tmp/old/build/bench/bench_gpu $A 2>&1 | tee $W/bench_old_$g.txt | grep -v '^#'
echo "== $g new: bench_gpu $A"; timeout 100 build/bench/bench_gpu $A 2>&1 | tee $W/bench_new_$g.txt | grep -v '^#'
done
B="devdata/16s-2k.fa.gz --pairs 60000 --cpu-pairs 0 --rodinia-pairs 0 --reps 1 --kernels tileddscan --lanes x2 --tb device"
for v in old new; do for g in linear affine; do
  bin=build/bench/bench_gpu; [ $v = old ] && bin=bench/tmp/old/build/bench/bench_gpu
  timeout 60 ncu --kernel-name regex:'dscan2|trace' --launch-count 2 --metrics gpu__time_duration.sum,sm__inst_executed.sum,smsp__issue_active.avg.pct_of_peak_sustained_active,dram__bytes_write.sum,dram__bytes_read.sum,lts__t_sectors_op_write.sum $bin $B --gaps $g > $W/ncu_${v}_$g.txt 2>&1; echo "ncu $v $g rc=$?"
  grep -E "^  [a-z].*\(|gpu__time|inst_executed|issue_active|dram__bytes|lts__t_sectors" $W/ncu_${v}_$g.txt | sed 's/(const mnw_gpu_kpair.*//' | head -14
done; done
tar -C /tmp -czf $O/call2.tgz c2
