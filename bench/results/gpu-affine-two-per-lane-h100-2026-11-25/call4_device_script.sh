#!/usr/bin/env bash
# issue 18: the cell's chain shortened (diag + S against left first) and the base loaded a step ahead, against 1e60e2e in the same call
set -u
export PATH=/usr/local/cuda/bin:$PATH
O=$OUT
cp bench/tmp/s29_call4.sh $O/device_script.sh
{ date -u; nvidia-smi -L; nvcc --version | tail -1; git log --oneline -1; git status --short | head; } > $O/info.txt
(cd bench/tmp/old && make -j4 build/bench/bench_gpu > $O/build_old.txt 2>&1) &
make -j12 build/bench/bench_gpu build/tests-gpu/test_gpu > $O/build_new.txt 2>&1 || { tail -20 $O/build_new.txt; exit 1; }
wait
for g in linear affine; do
A="devdata/16s-2k.fa.gz --pairs 200000 --gaps $g --tb device,score --cpu-pairs 10 --rodinia-pairs 0 --reps 3 --kernels auto,tileddscan --lanes x2 --finishers 8"
echo "== $g old (1e60e2e): bench_gpu $A"; timeout 100 bench/tmp/old/build/bench/bench_gpu $A 2>&1 | tee $O/bench_${g}_old.txt | grep -v '^#'
echo "== $g new: bench_gpu $A"; timeout 100 build/bench/bench_gpu $A 2>&1 | tee $O/bench_${g}_new.txt | grep -v '^#'
done
timeout 300 build/tests-gpu/test_gpu > $O/test_gpu.txt 2>&1; echo "test_gpu rc=$? $(grep -c '^ok' $O/test_gpu.txt) ok $(grep -c '^not ok' $O/test_gpu.txt) not ok"; grep -A3 '^not ok' $O/test_gpu.txt | head -12
