#!/usr/bin/env bash
# issue5.sh - issue 5's measurements on the device machine in one
# call: build, the MPI tests, worker scaling (1 2 4 8 14) and the CLD
# ceiling. Writes $OUT/{build,scaling,cld,t_mpi}.txt (OUT defaults to
# bench/tmp). Data: devdata/16s-2k.fa.gz (a copy of ../shared's, carried).
set -uo pipefail
. "$(dirname "$0")/../lib.sh"
bench_machine >"$OUT/build.txt"
bench_build "$OUT/build.txt" bin/mnw
MNW_BENCH_DATA=devdata/16s-2k.fa.gz bench/run_scaling.sh -n 1000 -w 1000 -r 2 1 2 4 8 14 2>&1 | tee "$OUT/scaling.txt"
bench/run_cld.sh -n 8000 -w 3 1 2 4 2>&1 | tee "$OUT/cld.txt"
bench/run_cld.sh -n 8000 -w 14 1 2>&1 | tail -2 | tee -a "$OUT/cld.txt"
bash tests/sh/t_mpi.sh >"$OUT/t_mpi.txt" 2>&1
echo "t_mpi: $(grep -c '^ok' "$OUT/t_mpi.txt") ok, $(grep -c '^not ok' "$OUT/t_mpi.txt") not ok"
grep '^not ok' "$OUT/t_mpi.txt" | head
