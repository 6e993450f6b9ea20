#!/usr/bin/env bash
# issue 18 step 2: make test-gpu (test_gpu + mnw end to end vs the CPU) on the committed code, then the 25k set (GPU only) started in the background
set -u
export PATH=/usr/local/cuda/bin:$PATH
O=$OUT
{ date -u; nvidia-smi -L; git log --oneline -1 2>/dev/null; } > $O/info.txt
make -j16 bin/mnw build/bench/bench_gpu build/tests-gpu/test_gpu > $O/build.txt 2>&1 || { tail -20 $O/build.txt; exit 1; }
timeout 330 make test-gpu > $O/test_gpu_make.txt 2>&1; echo "make test-gpu rc=$?"; grep -E "passed|failed" $O/test_gpu_make.txt | tail -4
bash bench/device_gpu_25k.sh start gpu-only
bash bench/device_gpu_25k.sh wait 170
