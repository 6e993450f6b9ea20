#!/usr/bin/env bash
# the committed build: the whole test_gpu on the device (call 5 ran out of its 150 s on a slow host)
set -u
export PATH=/usr/local/cuda/bin:$PATH
O=$OUT
{ date -u; nvidia-smi -L; } > $O/info.txt
make -j16 build/tests-gpu/test_gpu > $O/build.txt 2>&1 || { tail -20 $O/build.txt; exit 1; }
timeout 420 build/tests-gpu/test_gpu > $O/test_gpu.txt 2>&1; echo "test_gpu rc=$? $(grep -c '^ok' $O/test_gpu.txt) ok $(grep -c '^not ok' $O/test_gpu.txt) not ok"; grep '^not ok' $O/test_gpu.txt | head -5
