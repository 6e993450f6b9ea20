#!/usr/bin/env bash
# bench/device/userout_gpu.sh - issue 41's userout.tsv.gz on one GPU: the
# whole 16s-25k with the default outputs and with --outputs dist,userout in
# the same call (pairs/s, each GPU's idle for finishers: do the finishers
# keep up with vsearch's table?), dist.column.gz byte-identical between the
# two; then userout.tsv.gz (and pairs.tsv.gz with --cigar) from the GPU
# against --gpus none on 16s-2k's first 400 genes, byte for byte.
#   bash bench/device/userout_gpu.sh        (prints and writes $OUT/userout.txt)
# Data: the git-ignored devdata/16s-25k.fa.gz and 16s-2k.fa.gz, carried.
set -uo pipefail
. "$(dirname "$0")/../lib.sh"
bench_setup userout.txt
res=$OUT/userout.txt
W=bench/tmp/uo
bench_fresh $W
run() { # run NAME ARGS...: a run into $W/NAME, its wall time and log lines
    local name=$1 d=$W/$1
    shift
    {
        echo "== $(date -u +%FT%TZ) $name: bin/mnw $*"
        /usr/bin/time -f "%e %U %S" -o "$d.time" bin/mnw -q -o "$d" "$@" 2>&1
        echo "   exit $?; wall, user, system: $(cat "$d.time")"
        grep -E "INFO (done|GPU [0-9]+: [0-9]+ pairs in|gzip levels|outputs:)" "$d/mnw.log" | sed "s/^[^]]*] /   /" | cut -c1-300
        echo "   sizes: $(cd "$d" && stat -c "%n %s" ./*.gz | tr "\n" " ")"
    } >>"$res"
}
run def -i devdata/16s-25k.fa.gz --gpus 0
run uo -i devdata/16s-25k.fa.gz --gpus 0 --outputs dist,userout
ratio=$(awk '/INFO done/ { match($0, /[0-9]+ pairs\/s/); r[++n] = substr($0, RSTART, RLENGTH - 8) } END { if (n == 2) printf "%.3f", r[2] / r[1] }' "$res")
echo "   dist,userout / default pairs/s: $ratio" >>"$res"
cmp -s $W/def/dist.column.gz $W/uo/dist.column.gz && echo "   dist.column.gz byte-identical between the two" >>"$res" || echo "   dist.column.gz DIFFERS" >>"$res"
rm -rf $W/def $W/uo
bench_genes 400 $W/s400.fa devdata/16s-2k.fa.gz
run cpu -i $W/s400.fa --gpus none --outputs pairs,userout --cigar
run gpu -i $W/s400.fa --gpus 0 --outputs pairs,userout --cigar
for f in userout.tsv.gz pairs.tsv.gz; do
    cmp -s $W/cpu/$f $W/gpu/$f && echo "   $f: GPU run byte-identical to --gpus none (79,800 pairs)" >>"$res" || echo "   $f: GPU run DIFFERS from --gpus none" >>"$res"
done
rm -rf $W
cat "$res"
