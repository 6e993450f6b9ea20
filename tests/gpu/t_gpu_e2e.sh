# t_gpu_e2e.sh - bin/mnw with GPUs end to end (needs a CUDA device; run by
# `make test-gpu`): on real 16S genes (16s-200, and 80 RDP gold genes of
# which 40 carry IUPAC codes) the outputs (pairs.tsv.gz with CIGARs,
# dist.column.gz, dist.phylip, alignments.paf.gz) are byte for byte those of the CPU-only run,
# in every scoring mode, with each kernel forced and the automatic choice,
# with device and host trace-back, GPU only or with
# the CPU workers aligning too, tiny batches and work lists that straddle
# batches, counts mode (the figures counted on the device, no runs: the
# same bytes as a CPU run keeping runs), and two MPI ranks (one CPU-only,
# one with the GPU); the filter of issue 39 on the GPU (the bytes of the CPU
# run without it, the pruned count of the CPU run with it). Bad --gpus
# values are refused with a clear message.
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

# issue 39: the filter on the GPU. --outputs dist at 0.03 and 0.10 (--prune
# yes) on 16s-200 and gold80, GPU only or with the CPU workers aligning too,
# device or host trace-back, many small lists: dist.column.gz is the
# CPU-only run's with --prune no, the pruned count (progress.json) the
# CPU-only run's with the filter, and where the GPU took every list its
# filter line says it decided every pair
pj_pruned() { sed -nE 's/^  "pruned": ([0-9]+),$/\1/p' "$1/progress.json"; }
pvariants=("--cpu-align no" "--cpu-align no --traceback host" "--cpu-align yes --worklist-size 333"
           "--cpu-align no --gpu-batch 7 --worklist-size 50")
for f in s200 gold80; do
    npairs=$(($(grep -c '^>' $f.fa) * ($(grep -c '^>' $f.fa) - 1) / 2))
    for c in 0.03 0.10; do
        fp=(-q -i $f.fa --outputs dist --cutoff $c --prune yes)
        for wl in 5000 333 50; do
            [ -d pno-$f-$c-$wl ] || "$MNW" -o pno-$f-$c-$wl "${fp[@]}" --gpus none --prune no --worklist-size $wl
        done
        # the CPU-only run with the filter: the same plan as the GPU runs'
        # (both stages), so the same pairs pruned
        rm -rf pyes; "$MNW" -o pyes "${fp[@]}" --gpus none
        n_cpu=$(pj_pruned pyes)
        for v in "${pvariants[@]}"; do
            wl=$(sed -nE 's/.*--worklist-size ([0-9]+).*/\1/p' <<<"$v"); wl=${wl:-5000}
            rm -rf gpu
            # shellcheck disable=SC2086
            ok "$f $c: the GPU filter runs ($v)" "$MNW" -o gpu "${fp[@]}" $v
            n_gpu=$(pj_pruned gpu)
            check "$f $c ($v): dist.column.gz is the CPU run's with --prune no; pruned ${n_gpu:-none} = the CPU filter's ${n_cpu:-none}" \
                'cmp -s gpu/dist.column.gz pno-$f-$c-$wl/dist.column.gz && [ -n "$n_cpu" ] && [ "$n_gpu" = "$n_cpu" ]'
            if [[ $v == *"--cpu-align no"* ]]; then
                check "$f $c ($v): the GPU's filter decided all $npairs pairs, $n_cpu pruned" \
                    'grep -qE "INFO GPU 0: filter: $npairs pairs decided in [0-9]+ batches, $n_cpu pruned" gpu/mnw.log'
            fi
        done
    done
done

# bad settings
"$MNW" -q -i s200.fa -o bad --gpus 7 >bad.out 2>&1; rc=$?
check "--gpus 7 (no such device): exit 2 with a message naming it" '[ $rc -eq 2 ] && grep -q "GPU 7 asked for" bad.out && [ ! -e bad ]'
"$MNW" -q -i s200.fa -o bad --traceback sideways >bad.out 2>&1; rc=$?
check "--traceback sideways: exit 2" '[ $rc -eq 2 ] && grep -q "traceback takes device or host" bad.out'
finish
