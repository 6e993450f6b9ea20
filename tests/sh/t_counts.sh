# t_counts.sh - counts mode (issue 20): where no output needs a CIGAR the
# workers count each pair's figures along its path and keep no alignment
# runs (--counts auto, the default); --counts no keeps the runs (the
# trace-back path, the check). Checked here with the real mnw:
#  - every output (pairs.tsv.gz, dist.column.gz, dist.column, dist.phylip)
#    is byte for byte the same in both modes, for the 12 identity
#    definitions (three in each of four scoring modes) on real genes with
#    IUPAC codes (gold) and 16S genes, with the trace-back thread, and with
#    two MPI ranks (tests/unit/test_pathfig.c checks every definition in
#    every mode, figure by figure; t_gpu_emu.sh the GPU path);
#  - the log says which mode ran, and --cigar or PAF keep the runs;
#  - --cutoff: with --outputs dist the run writes what a full run writes
#    into dist.column.gz (filtered there), no line beyond the cutoff, every
#    pair of the full run's list within it; and on a stop and resume;
#    --cutoff 0 (no pair kept, issue 38): dist.column.gz is still gzip (an
#    empty member per work list), alone, in 2 shards merged (the whole
#    run's bytes) and through MPI-IO;
#  - refusals, nothing written: --counts yes with --cigar or PAF, a bad
#    --counts value, a cutoff outside [0, 1], a cutoff with no output it
#    filters (--outputs pairs,phylip).
# MNW_TEST_QUICK=1 (the sanitizer runs, where counts mode is every other
# shell test's default path too): one scoring mode (affine, free end gaps,
# the three -noends definitions), no trace-back thread or MPI runs.
source "$(dirname "$0")/../lib.sh"
cd "$TMP"
zcat "$TDATA/gold-sample.fa.gz" | awk '/^>/ { n++ } n <= 40' > g40.fa
awk '/^>/ { n++ } n <= 60' "$TDATA/16s-200.fa" > s60.fa
opts=(-q --bind no --gpus none -t 2 --worklist-size 300)
outs=(--outputs pairs,dist,phylip,dist-plain)
same4() { for f in pairs.tsv.gz dist.column.gz dist.phylip dist.column; do cmp -s "$1/$f" "$2/$f" || return 1; done; }

# 1. byte for byte, counts against runs
modes=("lin:vsearch0 vsearch1 vsearch2:" "aff:vsearch3 vsearch4 needle:--gap-open 12 --gap-extend 3"
       "fe:mothur-onegap mothur-eachgap mothur-nogaps:--free-end-gaps"
       "afe:mothur-onegap-noends mothur-eachgap-noends mothur-nogaps-noends:--free-end-gaps --gap-open 12 --gap-extend 3")
quick=${MNW_TEST_QUICK:-0}; [ "$quick" = 0 ] || modes=("${modes[3]}")
for m in "${modes[@]}"; do
    IFS=: read -r name ids sc <<<"$m"
    bad=()
    for id in $ids; do
        rm -rf c r
        "$MNW" -i g40.fa -o c "${opts[@]}" "${outs[@]}" --iddef "$id" $sc
        "$MNW" -i g40.fa -o r "${opts[@]}" "${outs[@]}" --iddef "$id" $sc --counts no
        same4 c r || bad+=("$id")
    done
    check "gold 40 genes, $name: counts mode == runs, byte for byte, in every output, for $ids (differ: ${bad[*]:-none})" \
        '[ ${#bad[@]} -eq 0 ]'
done
grep -q "counts mode: the figures counted along each path, no runs kept" c/mnw.log &&
    grep -q "alignments kept as runs (--counts no)" r/mnw.log
check "the log says which mode ran (auto: counts mode; --counts no: runs)" '[ $? -eq 0 ]'

if [ "$quick" = 0 ]; then
rm -rf c r t
"$MNW" -i s60.fa -o c "${opts[@]}" "${outs[@]}"
"$MNW" -i s60.fa -o r "${opts[@]}" "${outs[@]}" --counts no
"$MNW" -i s60.fa -o t "${opts[@]}" "${outs[@]}" --counts yes --traceback-thread
check "16S 60 genes: counts mode == runs, and with the trace-back thread" 'same4 c r && same4 t r'
rm -rf mp
ok "2 MPI ranks in counts mode" "${MPIRUN[@]}" -np 2 "$MNW" -i s60.fa -o mp "${opts[@]}" "${outs[@]}" -t 1 --worklist-size 50
rm -rf r50
"$MNW" -i s60.fa -o r50 "${opts[@]}" "${outs[@]}" --counts no --worklist-size 50
check "2 MPI ranks in counts mode == one rank keeping runs" 'same4 mp r50'
fi

rm -rf cg pf
"$MNW" -i s60.fa -o cg "${opts[@]}" --cigar
"$MNW" -i s60.fa -o pf "${opts[@]}" --outputs paf
check "--cigar and --outputs paf keep the runs (auto)" \
    'grep -q "alignments kept as runs (an output needs the CIGAR)" cg/mnw.log && grep -q "alignments kept as runs (an output needs the CIGAR)" pf/mnw.log'

# 2. the cutoff where the pair is computed
rm -rf full cut
"$MNW" -i s60.fa -o full "${opts[@]}" --outputs dist,pairs --cutoff 0.10 --counts no
"$MNW" -i s60.fa -o cut "${opts[@]}" --outputs dist --cutoff 0.10
check "--outputs dist --cutoff 0.10: dist.column.gz == the full run's (filtered there), and it is a real filter" \
    'cmp -s full/dist.column.gz cut/dist.column.gz && [ $(zcat cut/dist.column.gz | wc -l) -gt 0 ] && [ $(zcat cut/dist.column.gz | wc -l) -lt 1770 ]'
# against the distances of the unfiltered pairs.tsv (identity to 6 places)
within=$(zcat full/pairs.tsv.gz | awk -F'\t' 'NR > 1 && 1 - $11 <= 0.10 - 1e-6' | wc -l)
near=$(zcat full/pairs.tsv.gz | awk -F'\t' 'NR > 1 && 1 - $11 <= 0.10 + 1e-6' | wc -l)
kept=$(zcat cut/dist.column.gz | wc -l)
over=$(zcat cut/dist.column.gz | awk '$3 > 0.10 + 1e-6' | wc -l)
check "the kept pairs are those the full run's pairs.tsv puts within 0.10 ($within <= $kept <= $near), none beyond ($over)" \
    '[ "$within" -le "$kept" ] && [ "$kept" -le "$near" ] && [ "$over" -eq 0 ]'
rm -rf cutsr
term_mid_run cutsr -i s60.fa "${opts[@]}" --outputs dist --cutoff 0.10 --worklist-size 20 -t 1
check "--cutoff run stopped mid-run (exit 3)" '[ "$rc" -eq 3 ]'
ok "... and resumed" "$MNW" -q --resume cutsr
rm -rf full20
"$MNW" -i s60.fa -o full20 "${opts[@]}" --outputs dist --cutoff 0.10 --worklist-size 20 -t 1 --counts no
check "... to the same dist.column.gz as a run that did not stop" 'cmp -s full20/dist.column.gz cutsr/dist.column.gz'

# 3. refusals: a clear message, exit status 1, nothing written
refused() { # refused DESC PATTERN ARGS...
    local desc=$1 pat=$2; shift 2
    rm -rf no
    "$MNW" -i s60.fa -o no -q --gpus none "$@" > no.out 2>&1
    local rc=$?
    check "$desc: refused (exit $rc), names it, OUTDIR not made" \
        '[ $rc -ne 0 ] && grep -q -- "$pat" no.out && [ ! -e no ]'
}
refused "--counts yes --cigar" "counts mode keeps no alignment, and --cigar needs one" --counts yes --cigar
refused "--counts yes --outputs paf" "and the PAF output (alignments.paf.gz) needs one" --counts yes --outputs paf
refused "--counts sometimes" "counts takes auto, yes or no, not 'sometimes'" --counts sometimes
refused "--cutoff 1.5" "cutoff must be a distance from 0 to 1, not '1.5'" --cutoff 1.5
refused "--cutoff -0.1" "cutoff must be a distance from 0 to 1, not '-0.1'" --cutoff -0.1
refused "--cutoff 0.1 --outputs pairs,phylip" "--cutoff 0.1: it filters dist.column.gz and dist.column only" \
    --cutoff 0.1 --outputs pairs,phylip
check "--cutoff 0 and 1 and --cutoff none are accepted" \
    '"$MNW" -i s60.fa -o z0 "${opts[@]}" --cutoff 0 && "$MNW" -i s60.fa -o z1 "${opts[@]}" --cutoff 1 && [ $(zcat z1/dist.column.gz | wc -l) -eq 1770 ]'
# --cutoff 0 keeps no pair of s60 (issue 38): dist.column.gz is still gzip
# (an empty member per work list), alone, in 2 shards joined by mnw merge
# (byte for byte the whole run's), and through MPI-IO on 2 ranks
check "--cutoff 0 (no pair kept): dist.column.gz is a gzip file of no line, and mnw verify says ok" \
    '[ -s z0/dist.column.gz ] && gzip -t z0/dist.column.gz && [ -z "$(zcat z0/dist.column.gz)" ] && "$MNW" verify z0 >/dev/null'
"$MNW" -i s60.fa -o z0s1 "${opts[@]}" --cutoff 0 --shard 1/2 && "$MNW" -i s60.fa -o z0s2 "${opts[@]}" --cutoff 0 --shard 2/2
check "--cutoff 0 in 2 shards: each shard's dist.column.gz is gzip; mnw merge gives the whole run's bytes" \
    'gzip -t z0s1/dist.column.gz && gzip -t z0s2/dist.column.gz && "$MNW" merge z0m z0s1 z0s2 >/dev/null &&
     cmp -s z0m/dist.column.gz z0/dist.column.gz && cmp -s z0m/pairs.tsv.gz z0/pairs.tsv.gz'
if [ "$quick" = 0 ]; then
    "${MPIRUN[@]}" -np 2 "$MNW" -i s60.fa -o z0mpi "${opts[@]}" --cutoff 0 -t 1 --output-via mpiio >z0mpi.log 2>&1
    zrc=$?
    check "--cutoff 0 through MPI-IO on 2 ranks: the same bytes" \
        '[ $zrc -eq 0 ] && cmp -s z0/dist.column.gz z0mpi/dist.column.gz && cmp -s z0/pairs.tsv.gz z0mpi/pairs.tsv.gz' ||
        sed 's/^/#   /' z0mpi.log | tail -5
fi
# a resumed CIGAR run refuses --counts yes and is left as it was
rm -rf rc1
term_mid_run rc1 -i s60.fa "${opts[@]}" --cigar --worklist-size 20 -t 1
before=$(cd rc1 && cksum mnw.bookmark pairs.tsv.gz)
"$MNW" -q --resume rc1 --counts yes > rc1.out 2>&1
rrc=$?
check "--resume of a --cigar run with --counts yes: refused, the run untouched" \
    '[ $rrc -ne 0 ] && grep -q "counts mode keeps no alignment" rc1.out && [ "$before" = "$(cd rc1 && cksum mnw.bookmark pairs.tsv.gz)" ]'
finish
