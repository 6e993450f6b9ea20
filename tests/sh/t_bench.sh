# t_bench.sh - the benchmarks still build and run (issue 16: bench-cpu once
# stopped compiling and nothing noticed). `make test-build` builds every
# bench program this machine can build (the Makefile's BENCH_BIN: bench_cpu,
# clockprobe, and bench_gpu where nvcc is); here each one that was built is
# checked to be there, and bench_cpu runs on a few real 16S genes: every
# timed tool's scores must agree with mnw's (its own verification line).
source "$(dirname "$0")/../lib.sh"
cd "$TMP"
check "bench_cpu was built by make test-build" '[ -x "$BUILD/bench/bench_cpu" ]'
check "clockprobe was built by make test-build" '[ -x "$BUILD/bench/clockprobe" ]'
if [ -e "$BUILD/workers/gpu/gpu_dev.o" ]; then
    check "bench_gpu was built by make test-build (nvcc found)" '[ -x "$BUILD/bench/bench_gpu" ]'
fi
awk '/^>/{n++} n>12{exit} {print}' "$TDATA/16s-200.fa" > s12.fa
"$BUILD/bench/bench_cpu" s12.fa --budget 0.05 --rounds 1 --ref-pairs 3 >bench.txt 2>&1
rc=$?
check "bench_cpu runs on 12 real genes: exit 0" '[ $rc -eq 0 ]' || sed 's/^/#   /' bench.txt | tail -5
check "bench_cpu: mnw, parasail, vsearch and the reference rows are there" \
    'grep -q "^mnw CPU worker" bench.txt && grep -q "parasail best nw_trace" bench.txt && grep -q "^vsearch --allpairs_global" bench.txt && grep -q "^ref_nw" bench.txt'
check "bench_cpu: every tool's scores agree with mnw's" 'grep -q "^verification: all scores agree with mnw on every timed pair" bench.txt'
finish
