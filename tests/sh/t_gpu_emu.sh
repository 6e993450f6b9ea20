# t_gpu_emu.sh - mnw with its GPU code on the host emulation (tests/emu;
# build/tools/mnw-emu: the real gpu_dev.cu, kernels and GPU dispatcher
# thread, the CUDA runtime and the warps emulated), so CI, which has no GPU,
# runs the whole GPU path: on 20 real 16S genes, whole and cut to 100 and
# 300 bases (so every kernel gets pairs), the outputs (pairs.tsv.gz with
# CIGARs, dist.column.gz, dist.phylip) are byte for byte those of the
# CPU-only run, for the automatic kernel choice and each kernel forced,
# device and host trace-back, CPU workers aligning too with tiny batches,
# three scoring modes, and two MPI ranks (one CPU-only, one with the
# emulated GPU). The real-GPU version is tests/gpu/t_gpu_e2e.sh.
source "$(dirname "$0")/../lib.sh"
cd "$TMP"
EMU="$ROOT/build/tools/mnw-emu"
awk '/^>/{n++} n<=20' "$TDATA/16s-200.fa" > s20.fa
for L in 100 300; do
    awk -v L=$L '/^>/{if (s != "") print substr(s, 1, L); print; s = ""; next} {s = s $0} END {print substr(s, 1, L)}' s20.fa > c$L.fa
done
same_bytes() { cmp -s "$1/pairs.tsv.gz" "$2/pairs.tsv.gz" && cmp -s "$1/dist.column.gz" "$2/dist.column.gz" &&
               cmp -s "$1/dist.phylip" "$2/dist.phylip"; }

ok "mnw-emu runs and finds the emulated GPU" "$EMU" -q -i c100.fa -o probe --cigar
check "the log names the emulated GPU and the kernel rule" 'grep -q "GPU 0: emulated GPU.*kernel rscan for rows <= " probe/mnw.log'
check "auto on 100-base genes: RScan-mNW took the pairs" 'grep -q "GPU 0: 190 pairs in .*(rscan 190, dscan 0, tileddscan 0)" probe/mnw.log'

runs=("c100:lin::auto" "c100:aff:--gap-open 16 --gap-extend 4:--gpu-kernel dscan"
      "c300:lin::auto" "c300:afe:--match 2 --mismatch -3 --gap-open 5 --gap-extend 2 --free-end-gaps:--gpu-kernel rscan --traceback host"
      "s20:lin::auto" "s20:fe:--free-end-gaps:--gpu-kernel rscan" "s20:aff:--gap-open 16 --gap-extend 4:--traceback host"
      "s20:lin::--cpu-align yes --gpu-batch 7 --worklist-size 5")
for r in "${runs[@]}"; do
    IFS=: read -r f name sc v <<<"$r"
    [ "$v" = auto ] && v=""
    wl=$(sed -nE 's/.*--worklist-size ([0-9]+).*/\1/p' <<<"$v"); wl=${wl:-5000}
    ref=cpu-$f-$name-$wl
    [ -d "$ref" ] || "$MNW" -q -i $f.fa -o "$ref" --cigar --phylip --gpus none --worklist-size "$wl" $sc
    rm -rf gpu
    ok "$f $name: mnw-emu runs (${v:-auto})" "$EMU" -q -i $f.fa -o gpu --cigar --phylip $sc $v
    check "$f $name: byte-identical to the CPU run (${v:-auto})" 'same_bytes $ref gpu'
done
rm -rf gpu
ok "c300 auto again" "$EMU" -q -i c300.fa -o gpu --cigar --phylip
check "c300 auto: DScan-mNW took the pairs (300 rows <= 512)" 'grep -q "(rscan 0, dscan 190, tileddscan 0)" gpu/mnw.log'

# a heterogeneous cluster on one host: rank 0 CPU-only, rank 1 with the (emulated) GPU
rm -rf mpi
ok "2 MPI ranks, rank 0 --gpus none, rank 1 with the emulated GPU" "${MPIRUN[@]}" -np 1 "$MNW" -q -i c300.fa -o mpi --cigar --phylip --gpus none --threads 1 --worklist-size 20 : \
    -np 1 "$EMU" -q -i c300.fa -o mpi --cigar --phylip --threads 1 --worklist-size 20
[ -d cpu-c300-lin-20 ] || "$MNW" -q -i c300.fa -o cpu-c300-lin-20 --cigar --phylip --gpus none --worklist-size 20
check "2 ranks: byte-identical to the CPU run" 'same_bytes cpu-c300-lin-20 mpi'
check "2 ranks: rank 1 has the emulated GPU and did work lists" \
    'grep -q "rank 1 (.*; 1 GPU" mpi/mnw.log && grep -q "rank 1 (.*): [1-9][0-9]* work lists" mpi/mnw.log'
finish
