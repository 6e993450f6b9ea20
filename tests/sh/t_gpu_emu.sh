# t_gpu_emu.sh - mnw with its GPU code on the host emulation (tests/emu;
# build/tools/mnw-emu: the real gpu_dev.cu, kernels and GPU dispatcher
# thread, the CUDA runtime and the warps emulated), so CI, which has no GPU,
# runs the whole GPU path: on 20 real 16S genes, whole and cut to 100 and
# 300 bases (so every kernel gets pairs), the outputs (pairs.tsv.gz with
# CIGARs, dist.column.gz, dist.phylip, alignments.paf.gz) are byte for byte those of the
# CPU-only run, for the automatic kernel choice and each kernel forced,
# device and host trace-back, CPU workers aligning too with tiny batches,
# three scoring modes, counts mode (the figures counted on the device or by
# the finishers' walk, no runs: byte-identical to a CPU run keeping runs),
# and two MPI ranks (one CPU-only, one with the emulated GPU); the filter
# of issue 39 on the device: the bytes of the CPU run without it, the
# pruned count of the CPU run with it (five settings of the dispatcher);
# a GPU lost mid-run (an ECC error the emulator reports): a clear error,
# the bookmark consistent, the resume byte-identical.
# The real-GPU version is tests/gpu/t_gpu_e2e.sh.
source "$(dirname "$0")/../lib.sh"
cd "$TMP"
EMU="$BUILD/tools/mnw-emu"
awk '/^>/{n++} n<=20' "$TDATA/16s-200.fa" > s20.fa
for L in 100 300; do
    awk -v L=$L '/^>/{if (s != "") print substr(s, 1, L); print; s = ""; next} {s = s $0} END {print substr(s, 1, L)}' s20.fa > c$L.fa
done

# the kernel each automatic run should give its 190 pairs to: by the rows
# of its input (c100: 100, c300: 300, s20: over 512) against the RScan limit
# the device measured when it opened, which the log states (linear gaps:
# DScan and TiledDScan pairs two per lane)
declare -A rows=([c100]=100 [c300]=300 [s20]=1000)
took_of() { # took_of INPUT LIMIT
    local r=${rows[$1]}
    if [ "$r" -le "$2" ]; then echo "rscan 190, dscan 0, tileddscan 0; two per lane 0"
    elif [ "$r" -le 512 ]; then echo "rscan 0, dscan 190, tileddscan 0; two per lane 190"
    else echo "rscan 0, dscan 0, tileddscan 190; two per lane 190"; fi
}
runs=("c100:lin::auto" "c100:aff:--gap-open 16 --gap-extend 4:--gpu-kernel dscan"
      "c300:lin::auto" "c300:afe:--match 2 --mismatch -3 --gap-open 5 --gap-extend 2 --free-end-gaps:--gpu-kernel rscan --traceback host"
      "s20:lin::auto" "s20:fe:--free-end-gaps:--gpu-kernel rscan" "s20:aff:--gap-open 16 --gap-extend 4:--traceback host"
      "s20:lin::--cpu-align yes --gpu-batch 7 --worklist-size 5")
for r in "${runs[@]}"; do
    IFS=: read -r f name sc v <<<"$r"
    [ "$v" = auto ] && v=""
    wl=$(sed -nE 's/.*--worklist-size ([0-9]+).*/\1/p' <<<"$v"); wl=${wl:-5000}
    ref=cpu-$f-$name-$wl
    cpu_ref "$ref" $f.fa "$wl" $sc
    rm -rf gpu
    ok "$f $name: mnw-emu runs (${v:-auto})" "$EMU" -q -i $f.fa -o gpu "${ALL_OUTPUTS[@]}" $sc $v
    check "$f $name: byte-identical to the CPU run (${v:-auto})" 'same_bytes $ref gpu'
    if [ -z "$v" ]; then
        lim=$(sed -nE 's/.*GPU 0: emulated GPU.*kernel rscan for rows <= ([0-9]+) \(measured; rscan \/ dscan time per cell at rows 32: [0-9.]+.*/\1/p' gpu/mnw.log | head -1)
        check "$f auto: the log names the emulated GPU and the RScan limit it measured (${lim:-none})" '[ -n "$lim" ]'
        took=$(took_of $f "${lim:-0}")
        check "$f auto: the pairs went to the kernel of their rows ($took)" \
            'grep -q "GPU 0: 190 pairs in .*($took)" gpu/mnw.log'
    fi
done

# counts mode (issue 20, the default where no output needs a CIGAR): the
# device's trace kernel counts each pair's figures (with --traceback host
# the finishers' walk does), byte-identical to a CPU run that keeps runs
for r in "s20:lin::" "c100:aff:--gap-open 16 --gap-extend 4:--gpu-kernel dscan" \
         "c300:afe:--match 2 --mismatch -3 --gap-open 5 --gap-extend 2 --free-end-gaps:--gpu-kernel rscan --traceback host"; do
    IFS=: read -r f name sc v <<<"$r"
    rm -rf cn gn
    "$MNW" -q -i $f.fa -o cn --outputs pairs,dist,phylip,dist-plain --gpus none --counts no $sc
    ok "$f $name: mnw-emu in counts mode (${v:-auto})" "$EMU" -q -i $f.fa -o gn --outputs pairs,dist,phylip,dist-plain $sc $v
    check "$f $name: counts mode on the GPU path == the CPU run keeping runs, byte for byte" \
        'same_bytes cn gn && cmp -s cn/dist.column gn/dist.column && grep -q "counts mode" gn/mnw.log'
done

# GPU memory taken by another process between the count and the allocation
# (ranks of one host sharing a GPU): the batch arenas halve until they fit
# (here at most 1 GiB an allocation of the 8 GiB the emulator reports
# free), or the run stops with a clear error when not even two batches fit
rm -rf shared
MNW_EMU_MALLOC_MAX=$((1 << 30)) "$EMU" -q -i c300.fa -o shared "${ALL_OUTPUTS[@]}" --worklist-size 20 2>shared.err
rc=$?
cpu_ref cpu-c300-lin-20 c300.fa 20
check "GPU memory taken meanwhile: the arenas shrink (log says so), byte-identical to the CPU run" \
    '[ $rc -eq 0 ] && grep -q "batch memory 2 x 768 MiB, not 3072: another process on this GPU holds the rest" shared/mnw.log &&
     same_bytes cpu-c300-lin-20 shared' || sed 's/^/#   /' shared.err
rm -rf tight
MNW_EMU_MALLOC_MAX=$((1 << 20)) "$EMU" -q -i c300.fa -o tight "${ALL_OUTPUTS[@]}" --worklist-size 20 --gpus 0 >tight.out 2>&1
rc=$?
check "not even two batches fit: exit 1, 'too little for two batches'" \
    '[ $rc -ne 0 ] && grep -q "too little for two batches" tight.out' || sed 's/^/#   /' tight.out

# a GPU lost in the middle of a run (issue 40): the emulated device reports
# an uncorrectable ECC error from its 150th event query on (the open takes
# about 90; lists of 2 pairs and batches of 2 put the rest of the run
# after it): exit 1, a message naming the GPU and the host, the lists
# finished before in the bookmark; the resume ends byte-identical
rm -rf lost
MNW_EMU_FAIL_EVENT=150 "$EMU" -q -i s20.fa -o lost "${ALL_OUTPUTS[@]}" --threads 2 --worklist-size 2 --gpu-batch 2 \
    >lost.out 2>&1
rc=$?
done_at=$(sed -nE 's/^  "pairs_done": ([0-9]+),$/\1/p' lost/progress.json)
check "a GPU fails mid-run (ECC): exit 1, the GPU and host named, $done_at of 190 pairs done and bookmarked" \
    '[ $rc -eq 1 ] && grep -q "GPU 0 of host $(hostname) failed (emulated GPU (tests/emu), .*bus 0000:00:00.0): .*uncorrectable ECC error encountered (GPU 0); this node stops" lost.out &&
     [ "${done_at:-0}" -gt 0 ] && [ "$done_at" -lt 190 ] && "$MNW" status lost | grep -q "$done_at of 190 pairs"' ||
    sed 's/^/#   /' lost.out
cpu_ref cpu-s20-lin-2 s20.fa 2
ok "... resumed (the device healthy again)" "$EMU" -q --resume lost --threads 2
check "... the resumed run is byte-identical to the CPU run, and mnw verify passes" \
    'same_bytes cpu-s20-lin-2 lost && "$MNW" verify lost >/dev/null'

# a heterogeneous cluster on one host: rank 0 CPU-only, rank 1 with the (emulated) GPU
rm -rf mpi
ok "2 MPI ranks, rank 0 --gpus none, rank 1 with the emulated GPU" mpmd -np 1 "$MNW" -q -i c300.fa -o mpi "${ALL_OUTPUTS[@]}" --gpus none --threads 1 --worklist-size 20 : \
    -np 1 "$EMU" -q -i c300.fa -o mpi "${ALL_OUTPUTS[@]}" --threads 1 --worklist-size 20
cpu_ref cpu-c300-lin-20 c300.fa 20
check "2 ranks: byte-identical to the CPU run" 'same_bytes cpu-c300-lin-20 mpi'
check "2 ranks: rank 1 has the emulated GPU and did work lists" \
    'grep -q "rank 1 (.*; 1 GPU" mpi/mnw.log && grep -q "rank 1 (.*): [1-9][0-9]* work lists" mpi/mnw.log'
# issue 40: three devices in one process (MNW_EMU_DEVICES), opened at once
# (a thread each; the emulation runs one launch at a time), lists of 5 in
# batches of 7 spread over them: the CPU run's bytes
rm -rf dev3
ok "three emulated GPUs in one process" env MNW_EMU_DEVICES=3 "$EMU" -q -i s20.fa -o dev3 "${ALL_OUTPUTS[@]}" --threads 2 \
    --worklist-size 5 --gpu-batch 7
cpu_ref cpu-s20-lin-5 s20.fa 5
check "three GPUs: byte-identical to the CPU run; each opened beside the others; two or more aligned pairs" \
    'same_bytes cpu-s20-lin-5 dev3 && [ "$(grep -c "GPU [0-2]: emulated GPU.*opened in [0-9.]*s, beside the others)" dev3/mnw.log)" = 3 ] &&
     [ "$(grep -cE "GPU [0-2]: [1-9][0-9]* pairs in" dev3/mnw.log)" -ge 2 ]'
# each device's finishing workers (nld/finplan.h): the 2 workers, one each
# for GPUs 0 and 1 (worker k: GPU k mod 3); the emulated devices are not in
# hwloc's topology, and the log says so
check "three GPUs: the workers' homes logged, 1 + 1 + 0, each GPU's place unknown to hwloc" \
    '[ "$(grep -oE "GPU [0-2]: its results finished first by [0-9]+ CPU workers?" dev3/mnw.log | grep -oE "by [0-9]+" | tr -d "by \n")" = 110 ] &&
     [ "$(grep -c "where it sits is unknown: hwloc found no GPU at bus 0000:00:0[0-2].0" dev3/mnw.log)" = 3 ]'
# two ranks of one host, both with the (emulated) GPU: each takes half of
# its memory, the outputs are the CPU run's
rm -rf mpi2
ok "2 MPI ranks of one host, both with the emulated GPU" mpmd -np 2 "$EMU" -q -i c300.fa -o mpi2 "${ALL_OUTPUTS[@]}" --threads 1 --worklist-size 20
check "2 GPU ranks on one host: each takes 1/2 of a GPU's free memory (38%), byte-identical to the CPU run" \
    'grep -q "GPU memory: 2 ranks of this host drive GPUs and may share them: each takes 1/2 of what a GPU has free (38%)" mpi2/mnw.log &&
     same_bytes cpu-c300-lin-20 mpi2'
# issue 40: two ranks of one host that see the same four devices share them
# out (nld/gpushare.h): two each, in rank order, no memory split; the bytes
# are the CPU run's
rm -rf mpi4
check "2 MPI ranks of one host seeing 4 emulated GPUs" \
    'env MNW_EMU_DEVICES=4 "${MPIRUN[@]}" -np 2 "$EMU" -i c300.fa -o mpi4 "${ALL_OUTPUTS[@]}" --threads 1 \
        --worklist-size 20 --gpu-batch 7 >mpi4.out 2>&1' || sed 's/^/#   /' mpi4.out | tail -20
check "2 ranks over 4 GPUs: devices 0-1 and 2-3, one rank each, no memory split, byte-identical to the CPU run" \
    'grep -q "^[^ ]* [^ ]* \[0/.*GPUs: 2 (.*devices 0-1 of the 4 that 2 ranks of this host see (--gpus auto shares them out))" mpi4.out &&
     grep -q "^[^ ]* [^ ]* \[1/.*GPUs: 2 (.*devices 2-3 of the 4 that 2 ranks of this host see (--gpus auto shares them out))" mpi4.out &&
     ! grep -q "GPU memory: 2 ranks" mpi4.out && grep -q "rank 1 (.*; 2 GPUs" mpi4/mnw.log && same_bytes cpu-c300-lin-20 mpi4'
# issue 39: the GPU filter. With the plan on, the lists the GPU takes are
# filtered on the device (gpu_prune_int.cuh) before the DP: the outputs
# (pairs.tsv.gz and PAF filtered by --cutoff-scope all) are the CPU run's
# with the filter off, and the log gives the device's filter figures
pr=(-q -i s20.fa --outputs pairs,dist,paf --cutoff 0.1 --cutoff-scope all)
gpu_filter="INFO GPU 0: filter before the DP on the device"
"$MNW" -o prune-cpu "${pr[@]}" --gpus none --prune no
"$EMU" -o prune-gpu "${pr[@]}"
rc=$?
check "--prune auto --cutoff 0.1 --cutoff-scope all on the emulated GPU: exit 0, the plan on, the device filters, the CPU run's bytes with --prune no" \
    '[ $rc -eq 0 ] && grep -q "INFO filter before the DP: on (--prune auto)" prune-gpu/mnw.log &&
     [ "$(grep -c "$gpu_filter" prune-gpu/mnw.log)" -eq 1 ] && ! grep -q "aligned in full" prune-gpu/mnw.log &&
     cmp -s prune-gpu/pairs.tsv.gz prune-cpu/pairs.tsv.gz &&
     cmp -s prune-gpu/dist.column.gz prune-cpu/dist.column.gz && cmp -s prune-gpu/alignments.paf.gz prune-cpu/alignments.paf.gz'
"$EMU" -o prune-gpu-no "${pr[@]}" --prune no
check "the same with --prune no: the device does not filter, the same bytes" \
    '! grep -q "$gpu_filter" prune-gpu-no/mnw.log && cmp -s prune-gpu-no/alignments.paf.gz prune-cpu/alignments.paf.gz'

# --outputs dist --cutoff 0.03 (the issue's case): 20 genes and 4 copies of
# them with 1-2% substitutions (so that some pairs are within the cutoff and
# the GPU aligns them), CPU workers aligning too or not, trace-back on the
# device or the host, one list or many: the emulated GPU's dist.column.gz is
# the CPU-only run's with --prune no, and its pruned count (progress.json)
# is the CPU-only run's with the filter (a function of the pairs), which the
# device's filter line gives too when the GPU decided every pair
pj_pruned() { sed -nE 's/^  "pruned": ([0-9]+),$/\1/p' "$1/progress.json"; }
awk -v seed=39 'BEGIN {srand(seed)} /^>/{if (s != "") out(); id = $0; s = ""; next} {s = s $0}
    END {out()} function out() {print id; print s; if (++n <= 4) {t = s; for (k = 0; k < length(s) / 60; k++) {
    p = 1 + int(rand() * length(s)); c = substr(t, p, 1); b = (c == "A") ? "C" : "A"; t = substr(t, 1, p - 1) b substr(t, p + 1)}
    print ">mut" n "_" substr(id, 2); print t}}' s20.fa > m24.fa
fp=(-q -i m24.fa --outputs dist --cutoff 0.03)
# (the plan has both stages whichever workers run: the GPU filter runs the
# edit-distance bound too, gpu_prune_ed_int.cuh)
for wl in 5000 7; do
    "$MNW" -o f-no-$wl "${fp[@]}" --gpus none --prune no --worklist-size $wl
    "$MNW" -o f-yes-$wl "${fp[@]}" --gpus none --worklist-size $wl
done
check "the CPU-only runs' plan has both stages (the q-gram and the edit-distance bound)" \
    'grep -q "INFO filter before the DP: on (--prune auto): .*, the edit-distance bound" f-yes-5000/mnw.log &&
     grep -q "INFO filter before the DP: on (--prune auto): .*, the edit-distance bound" f-yes-7/mnw.log'
n_cpu=$(pj_pruned f-yes-5000)
n_lines=$(zcat f-no-5000/dist.column.gz | wc -l)
check "the CPU-only filter prunes pairs at 0.03 (${n_cpu:-none} of 276) and pairs are within it (${n_lines} dist lines)" \
    '[ -n "$n_cpu" ] && [ "$n_cpu" -gt 0 ] && [ "$n_lines" -gt 0 ] && [ "$(pj_pruned f-yes-7)" = "$n_cpu" ]'
for v in "--cpu-align no" "--cpu-align no --traceback host" "--cpu-align no --worklist-size 7 --gpu-batch 2" \
         "--cpu-align yes --worklist-size 7 --gpu-batch 3" \
         "--cpu-align yes --traceback host --worklist-size 7"; do
    wl=$(sed -nE 's/.*--worklist-size ([0-9]+).*/\1/p' <<<"$v"); wl=${wl:-5000}
    rm -rf f-gpu
    # shellcheck disable=SC2086
    ok "filter on the emulated GPU: mnw-emu runs ($v)" "$EMU" -o f-gpu "${fp[@]}" $v
    n_gpu=$(pj_pruned f-gpu)
    check "filter on the emulated GPU ($v): dist.column.gz is the CPU run's with --prune no; pruned ${n_gpu:-none} = the CPU filter's $n_cpu" \
        'cmp -s f-gpu/dist.column.gz f-no-$wl/dist.column.gz && [ "$n_gpu" = "$n_cpu" ]'
    if [[ $v == *"--cpu-align no"* ]]; then
        check "the GPU decided every pair ($v): its filter line says 276 pairs, $n_cpu pruned" \
            'grep -qE "INFO GPU 0: filter: 276 pairs decided in [0-9]+ batches, $n_cpu pruned \([0-9.]+%; [0-9]+ of them by the edit-distance bound\)" f-gpu/mnw.log'
    fi
done
# filter batches of 5 pairs (MNW_TEST_FILTER_BATCH, a test knob): a list's
# run of pairs is cut at every batch's end and lists share batches, the
# alignment batches of 2 fill mid-list: the same bytes, the same count
rm -rf f-gpu5
MNW_TEST_FILTER_BATCH=5 "$EMU" -o f-gpu5 "${fp[@]}" --cpu-align no --worklist-size 7 --gpu-batch 2
# (at least 56 batches: a batch is launched before it is full when the
# FIFO's limit, 4 batches' pairs, stops the filling, which timing decides)
nfb=$(sed -nE 's/.*INFO GPU 0: filter: 276 pairs decided in ([0-9]+) batches, '"$n_cpu"' pruned.*/\1/p' f-gpu5/mnw.log)
check "filter batches of 5 pairs on the emulated GPU (lists of 7, alignment batches of 2): the bytes of --prune no, pruned $(pj_pruned f-gpu5) = $n_cpu, 276 pairs in ${nfb:-?} filter batches (>= 56)" \
    'cmp -s f-gpu5/dist.column.gz f-no-7/dist.column.gz && [ "$(pj_pruned f-gpu5)" = "$n_cpu" ] && [ "${nfb:-0}" -ge 56 ]'
# at 0.10 the edit-distance bound (stage 2) prunes most of what the q-gram
# bound leaves: on the device as on the CPU, the same pairs
fp10=(-q -i m24.fa --outputs dist --cutoff 0.10)
"$MNW" -o f10-no "${fp10[@]}" --gpus none --prune no
"$MNW" -o f10-cpu "${fp10[@]}" --gpus none
"$EMU" -o f10-gpu "${fp10[@]}" --cpu-align no
n10=$(pj_pruned f10-cpu)
check "0.10 on the emulated GPU (--cpu-align no): the bytes of --prune no, pruned $(pj_pruned f10-gpu) = the CPU filter's $n10, stage 2 pruned some on the device" \
    'cmp -s f10-gpu/dist.column.gz f10-no/dist.column.gz && [ -n "$n10" ] && [ "$(pj_pruned f10-gpu)" = "$n10" ] &&
     grep -qE "INFO GPU 0: filter: 276 pairs decided in [0-9]+ batches, $n10 pruned \([0-9.]+%; [1-9][0-9]* of them by the edit-distance bound\)" f10-gpu/mnw.log'
# bench_gpu_prune (the filter's benchmark) on the emulated GPU: a row per
# cutoff, its decisions equal to the CPU filter's on every pair (else exit 1)
"$BUILD/tests/bench_gpu_prune_emu" m24.fa --pairs 276 --cutoffs 0.03,0.10 --reps 1 --batch 50 --cpu-pairs 276 >bp.out 2>&1
rc=$?
check "bench_gpu_prune on the emulated GPU: exit 0, a row per cutoff, 0 decisions differ from the CPU filter's" \
    '[ $rc -eq 0 ] && [ "$(grep -cE "^0\.(030|100) +276 +[0-9]+ +[0-9.]+% .* 276 +[0-9]+ +0$" bp.out)" -eq 2 ]' || sed 's/^/#   /' bp.out
finish
