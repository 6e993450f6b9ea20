# t_gpu_e2e.sh - bin/mnw with GPUs end to end (needs a CUDA device; run by
# `make test-gpu`): on real 16S genes (16s-200, and 80 RDP gold genes of
# which 40 carry IUPAC codes) the outputs (pairs.tsv.gz with CIGARs,
# dist.column.gz, dist.phylip, alignments.paf.gz) are byte for byte those of the CPU-only run,
# in every scoring mode, with each kernel forced and the automatic choice,
# with device and host trace-back, GPU only or with
# the CPU workers aligning too, tiny batches and work lists that straddle
# batches, counts mode (the figures counted on the device, no runs: the
# same bytes as a CPU run keeping runs), and two MPI ranks (one CPU-only,
# one with the GPU). Bad --gpus values are refused with a clear message.
source "$(dirname "$0")/../lib.sh"
cd "$TMP"
cp "$TDATA/16s-200.fa" s200.fa
gold80 gold80.fa


ok "mnw sees a GPU (log names it)" "$MNW" -q -i gold80.fa -o probe --cigar
check "the log names the GPU and the kernel" 'grep -q "GPU 0: .*kernel" probe/mnw.log'

# the gzip files are compared as bytes: one gzip member per work list, so a
# variant with another --worklist-size is compared with a CPU run of that size
modes=("lin:" "aff:--gap-open 16 --gap-extend 4" "fe:--free-end-gaps" "afe:--match 2 --mismatch -3 --gap-open 5 --gap-extend 2 --free-end-gaps")
variants=("--traceback device" "--traceback host" "--cpu-align yes" "--cpu-align yes --gpu-batch 7 --worklist-size 5"
          "--traceback host --gpu-batch 1000 --worklist-size 333"
          "--gpu-kernel rscan" "--gpu-kernel dscan --traceback host" "--gpu-kernel tileddscan")
for f in s200 gold80; do
    for md in "${modes[@]}"; do
        name=${md%%:*}; sc=${md#*:}
        for v in "${variants[@]}"; do
            wl=$(sed -nE 's/.*--worklist-size ([0-9]+).*/\1/p' <<<"$v"); wl=${wl:-5000}
            ref=cpu-$f-$name-$wl
            cpu_ref "$ref" $f.fa "$wl" $sc
            rm -rf gpu
            ok "$f $name: mnw runs with the GPU ($v)" "$MNW" -q -i $f.fa -o gpu "${ALL_OUTPUTS[@]}" $sc $v
            check "$f $name: byte-identical to the CPU run ($v)" 'same_bytes $ref gpu'
        done
    done
done
check "the GPU did the pairs (log)" 'grep -q "GPU 0: [0-9]* pairs in" gpu/mnw.log'
check "forced tileddscan: the log says so and it took every pair" \
    'grep -q "kernel tileddscan (forced)" gpu/mnw.log && grep -q "rscan 0, dscan 0, tileddscan [1-9]" gpu/mnw.log'

# counts mode (issue 20): the device's trace kernel (or, --traceback host,
# the finishers' walk) counts the figures; every output byte for byte a
# CPU run's that keeps runs, in every scoring mode, on both sets
cvariants=("--traceback device" "--traceback host" "--cpu-align yes --gpu-batch 7 --worklist-size 5" "--gpu-kernel rscan")
for f in s200 gold80; do
    for md in "${modes[@]}"; do
        name=${md%%:*}; sc=${md#*:}
        for v in "${cvariants[@]}"; do
            wl=$(sed -nE 's/.*--worklist-size ([0-9]+).*/\1/p' <<<"$v"); wl=${wl:-5000}
            ref=cnt-$f-$name-$wl
            [ -d $ref ] || "$MNW" -q -i $f.fa -o $ref --outputs pairs,dist,phylip,dist-plain --gpus none --counts no \
                --worklist-size $wl $sc
            rm -rf gpu
            ok "$f $name: counts mode with the GPU ($v)" "$MNW" -q -i $f.fa -o gpu --outputs pairs,dist,phylip,dist-plain $sc $v
            check "$f $name: counts mode byte-identical to the CPU run keeping runs ($v)" \
                'same_bytes $ref gpu && cmp -s $ref/dist.column gpu/dist.column && grep -q "counts mode" gpu/mnw.log'
        done
    done
done

# a heterogeneous cluster on one host: rank 0 CPU-only, rank 1 with the GPU
rm -rf mpi
ok "2 MPI ranks, rank 0 --gpus none, rank 1 with the GPU" mpmd -np 1 "$MNW" -q -i s200.fa -o mpi "${ALL_OUTPUTS[@]}" --gpus none --threads 2 : \
    -np 1 "$MNW" -q -i s200.fa -o mpi "${ALL_OUTPUTS[@]}" --threads 2
check "2 ranks: byte-identical to the CPU run" 'same_bytes cpu-s200-lin-5000 mpi'

# bad settings
"$MNW" -q -i s200.fa -o bad --gpus 7 >bad.out 2>&1; rc=$?
check "--gpus 7 (no such device): exit 2 with a message naming it" '[ $rc -eq 2 ] && grep -q "GPU 7 asked for" bad.out && [ ! -e bad ]'
"$MNW" -q -i s200.fa -o bad --traceback sideways >bad.out 2>&1; rc=$?
check "--traceback sideways: exit 2" '[ $rc -eq 2 ] && grep -q "traceback takes device or host" bad.out'
finish
