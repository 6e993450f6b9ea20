#!/usr/bin/env bash
# issue 18, session 30, call 1: the streamed direction layout (groups of 4 / 2 steps, one 16-byte store)
# against HEAD 9fc21d7 (bench/tmp/old): build, SASS loop counts, test_gpu, bench old vs new, ncu kernel times
set -u
export PATH=/usr/local/cuda/bin:$PATH
O=$OUT
cp bench/tmp/s30_call1.sh $O/device_script.sh
{ date -u; nvidia-smi -L; nvcc --version | tail -1; nproc; } > $O/info.txt
(cd bench/tmp/old && make -j5 build/bench/bench_gpu > $O/build_old.txt 2>&1) &
make -j11 bin/mnw build/bench/bench_gpu build/tests-gpu/test_gpu > $O/build_new.txt 2>&1 || { tail -20 $O/build_new.txt; exit 1; }
wait
for v in new old; do
  d=.; [ $v = old ] && d=bench/tmp/old
  cuobjdump -sass -arch sm_90 $d/build/workers/gpu/gpu_kernels.o > /tmp/k_$v.sass 2>&1
  for f in dscan2ILb0ELb0ELb1ELb1E dscan2ILb1ELb0ELb1ELb1E; do echo "== $v $f"; python3 bench/sass_loops.py /tmp/k_$v.sass $f 2; done
done > $O/sass90.txt 2>&1
cut -c1-260 $O/sass90.txt | head -30
timeout 240 build/tests-gpu/test_gpu > $O/test_gpu.txt 2>&1; echo "test_gpu rc=$? $(grep -c '^ok' $O/test_gpu.txt) ok $(grep -c '^not ok' $O/test_gpu.txt) not ok"; grep '^not ok' $O/test_gpu.txt | head -5
for g in linear affine; do
A="devdata/16s-2k.fa.gz --pairs 400000 --gaps $g --tb device,score --cpu-pairs 10 --rodinia-pairs 0 --reps 2 --kernels auto --lanes x2"
echo "== $g old (9fc21d7): bench_gpu $A"; timeout 100 bench/tmp/old/build/bench/bench_gpu $A 2>&1 | tee $O/bench_old_$g.txt | grep -v '^#'
echo "== $g new: bench_gpu $A"; timeout 100 build/bench/bench_gpu $A 2>&1 | tee $O/bench_new_$g.txt | grep -v '^#'
done
B="devdata/16s-2k.fa.gz --pairs 60000 --cpu-pairs 0 --rodinia-pairs 0 --reps 1 --kernels tileddscan --lanes x2 --tb device"
for v in new old; do for g in linear affine; do
  bin=build/bench/bench_gpu; [ $v = old ] && bin=bench/tmp/old/build/bench/bench_gpu
  timeout 60 ncu --kernel-name regex:'dscan2|trace' --launch-count 4 --metrics gpu__time_duration.sum,sm__inst_executed.sum,smsp__issue_active.avg.pct_of_peak_sustained_active,dram__bytes_write.sum,dram__bytes_read.sum,lts__t_sectors_op_write.sum $bin $B --gaps $g > $O/ncu_${v}_$g.txt 2>&1; echo "ncu $v $g rc=$?"
  grep -E "^  [a-z].*\(|gpu__time|inst_executed|issue_active|dram__bytes|lts__t_sectors" $O/ncu_${v}_$g.txt | sed 's/(const mnw_gpu_kpair.*//' | head -24
done; done
