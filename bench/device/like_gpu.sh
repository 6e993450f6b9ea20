#!/usr/bin/env bash
# bench/device/like_gpu.sh - issue 41's --like mothur on one GPU, in one call:
#   1. the GPU tests (build/tests-gpu/test_gpu) of the two mothur-rule modes
#      (5: --like mothur, 1/-1/2, free end gaps, its ambiguity rule; 6: mothur's rule at
#      4/-5/10) and of the default (0): every pair the CPU's, every kernel;
#      compute-sanitizer memcheck on mode 5's small set;
#   2. bench_gpu on 200,000 pairs of 16s-2k: linear (mnw's default) and
#      mothur in the same run, device trace-back and score-only, GCUPS;
#   3. 16s-25k's first 10,000 genes (about 50 M pairs) end to end, the
#      default and --like mothur in the same call (pairs/s), and the
#      --like mothur outputs of 16s-2k's first 400 genes against --gpus none,
#      byte for byte.
#   bash bench/device/like_gpu.sh        (prints and writes $OUT/like.txt)
# Data: the git-ignored devdata/16s-25k.fa.gz and 16s-2k.fa.gz, carried.
set -uo pipefail
. "$(dirname "$0")/../lib.sh"
bench_cuda
res=$OUT/like.txt
bench_machine >"$res"
bench_build "$OUT/build.txt" bin/mnw build/bench/bench_gpu build/tests-gpu/test_gpu
bench_test_gpu "$res" 5 6 0
bench_memcheck "$res" 5
echo "== bench_gpu devdata/16s-2k.fa.gz --pairs 200000 --gaps linear,mothur --tb device,score --kernels auto" >>"$res"
build/bench/bench_gpu devdata/16s-2k.fa.gz --pairs 200000 --gaps linear,mothur --tb device,score --kernels auto \
    --cpu-pairs 2000 --rodinia-pairs 0 --reps 2 >>"$res" 2>&1
W=bench/tmp/like
bench_fresh $W
bench_genes 10000 $W/s10k.fa
run() { # run NAME ARGS...: a run into $W/NAME, its wall time and log lines
    local name=$1 d=$W/$1
    shift
    {
        echo "== $(date -u +%FT%TZ) $name: bin/mnw $*"
        /usr/bin/time -f "%e %U %S" -o "$d.time" bin/mnw -q -o "$d" "$@" 2>&1
        echo "   exit $?; wall, user, system: $(cat "$d.time")"
        grep -E "INFO (done|GPU [0-9]+: [0-9]+ pairs in|scoring:)" "$d/mnw.log" | sed "s/^[^]]*] /   /" | cut -c1-300
    } >>"$res"
}
run def -i $W/s10k.fa --gpus 0
run mo -i $W/s10k.fa --gpus 0 --like mothur
ratio=$(awk '/INFO done/ { match($0, /[0-9]+ pairs\/s/); r[++n] = substr($0, RSTART, RLENGTH - 8) } END { if (n == 2) printf "%.3f", r[2] / r[1] }' "$res")
echo "   --like mothur / default pairs/s: $ratio" >>"$res"
rm -rf $W/def $W/mo
bench_genes 400 $W/s400.fa devdata/16s-2k.fa.gz
run cpu -i $W/s400.fa --gpus none --like mothur --cigar --outputs pairs,dist,paf
run gpu -i $W/s400.fa --gpus 0 --like mothur --cigar --outputs pairs,dist,paf
for f in pairs.tsv.gz dist.column.gz alignments.paf.gz; do
    cmp -s $W/cpu/$f $W/gpu/$f && echo "   $f: GPU run byte-identical to --gpus none (79,800 pairs)" >>"$res" || echo "   $f: GPU run DIFFERS from --gpus none" >>"$res"
done
run gpuc -i $W/s400.fa --gpus 0 --like mothur --iddef mothur-eachgap-noends --outputs dist
run cpuc -i $W/s400.fa --gpus none --like mothur --iddef mothur-eachgap-noends --outputs dist --counts no
cmp -s $W/cpuc/dist.column.gz $W/gpuc/dist.column.gz && echo "   counts mode (GPU walk) dist.column.gz = CPU keeping runs" >>"$res" || echo "   counts mode dist.column.gz DIFFERS" >>"$res"
rm -rf $W
cat "$res"
