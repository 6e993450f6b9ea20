# t_gpu_none.sh - bin/mnw where no GPU can be used (CI: built with or without
# nvcc, no device): it runs on the CPU and its log says why there is no GPU;
# naming a GPU that is not there is refused with exit 2 and a message; the
# GPU options are checked; with GPUs switched off the outputs are those of
# the default run. On a machine with a GPU the first two checks are skipped
# (tests/gpu covers it).
source "$(dirname "$0")/../lib.sh"
cd "$TMP"
awk '/^>/{n++} n>40{exit} {print}' "$TDATA/16s-200.fa" > s40.fa
ok "mnw runs (GPUs as found)" "$MNW" -q -i s40.fa -o a
if grep -q "GPUs: none" a/mnw.log; then
    check "the log says why no GPU is used" 'grep -Eq "GPUs: none \((mnw was built without CUDA|.*[Cc][Uu][Dd][Aa]|.*device|.*driver)" a/mnw.log'
    "$MNW" -q -i s40.fa -o b --gpus 0 >b.out 2>&1; rc=$?
    check "--gpus 0 without a GPU: exit 2, message names GPU 0, no OUTDIR" '[ $rc -eq 2 ] && grep -q "GPU 0 asked for" b.out && [ ! -e b ]'
fi
ok "mnw runs with --gpus none" "$MNW" -q -i s40.fa -o c --gpus none
check "--gpus none: outputs equal the default run" 'cmp -s a/pairs.tsv.gz c/pairs.tsv.gz && cmp -s a/dist.column.gz c/dist.column.gz'
check "--gpus none: the log says so" 'grep -q "GPUs: none (--gpus none)" c/mnw.log'
for bad in "--gpus 0,x" "--gpus ,," "--traceback both" "--gpu-kernel fast" "--gpu-batch 0" "--cpu-align maybe"; do
    "$MNW" -q -i s40.fa -o d $bad >d.out 2>&1; rc=$?
    check "$bad: exit 2 with a message" '[ $rc -eq 2 ] && [ -s d.out ] && [ ! -e d ]'
done
ok "--gpu-kernel rscan|dscan|tileddscan are accepted (no GPU: CPU workers)" \
    bash -c '"$0" -q -i s40.fa -o k1 --gpu-kernel rscan && "$0" -q -i s40.fa -o k2 --gpu-kernel dscan && "$0" -q -i s40.fa -o k3 --gpu-kernel tileddscan' "$MNW"
"$MNW" -q -i s40.fa -o d --gpu-kernel warp >d.out 2>&1; rc=$?
check "--gpu-kernel warp: exit 2 naming the kernels" '[ $rc -eq 2 ] && grep -q "auto, rscan, dscan or tileddscan" d.out'
printf '[host *]\ngpus = none\ntraceback = host\n' > h.conf
ok "GPU keys in a [host *] section are accepted" "$MNW" -q -i s40.fa -o e -c h.conf
finish
