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
bench_test_gpu "$res" 7 1 3
bench_memcheck "$res" 7
cat "$res"
