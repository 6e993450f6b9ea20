#!/usr/bin/env bash
# bench/device/affine_dbi.sh - the affine GPU kernels under the D-before-I
# rule (mothur's and vsearch's, issue 41: E^ and F^ swap their tags in the
# EXT kernels) on one GPU, in one call: test_gpu's mode 7 (affine 2/-3/5/2,
# free end gaps, D before I, mothur's ambiguity rule) and modes 1 and 3
# (mnw's affine defaults): every kernel's pairs the CPU's; compute-sanitizer
# memcheck on mode 7's small set.
#   bash bench/device/affine_dbi.sh     (writes $OUT/affine_dbi.txt)
set -uo pipefail
. "$(dirname "$0")/../lib.sh"
bench_cuda
res=$OUT/affine_dbi.txt
bench_machine >"$res"
bench_build "$OUT/build.txt" build/tests-gpu/test_gpu
for m in 7 1 3; do
    echo "== test_gpu MNW_GPU_TEST_MODE=$m" >>"$res"
    MNW_GPU_TEST_MODE=$m build/tests-gpu/test_gpu >"$OUT/test_gpu_$m.txt" 2>&1
    echo "   exit $?: $(grep -c '^ok' "$OUT/test_gpu_$m.txt") ok, $(grep -c '^not ok' "$OUT/test_gpu_$m.txt") not ok" >>"$res"
    grep '^not ok' "$OUT/test_gpu_$m.txt" | head -5 >>"$res"
done
{
    echo "== compute-sanitizer memcheck, MNW_GPU_TEST_SMALL=1 MNW_GPU_TEST_MODE=7"
    MNW_GPU_TEST_SMALL=1 MNW_GPU_TEST_MODE=7 compute-sanitizer --tool memcheck --error-exitcode 9 \
        build/tests-gpu/test_gpu 2>&1 | grep -v '^ok - ' | tail -6
    echo "   exit status: ${PIPESTATUS[0]}"
} >>"$res"
cat "$res"
