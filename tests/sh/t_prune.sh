# t_prune.sh - the filter that proves pairs beyond the cutoff before the DP
# (issue 39, docs/PRUNE.md) changes no byte: every run here is made twice,
# --prune no and --prune yes (or auto), and the outputs are compared as bytes:
#  - every real set of the repository (16s-1000, which holds 16s-200 and
#    16s-500, and the gold sample with its ambiguity codes) at 0.03, dist
#    only, the default scoring and definition;
#  - on the first 100 genes of 16s-200 (40 under MNW_TEST_QUICK): each
#    definition the bound is proven for (one of each form of the bound under
#    MNW_TEST_QUICK), the scoring modes (affine, free end
#    gaps with --prune yes, other match / mismatch values), cutoffs from 0 to
#    0.15, one and two workers, the trace-back thread, work lists of 100 and
#    5,000 pairs, two MPI ranks writing through rank 0 and through MPI-IO, a
#    run stopped by SIGTERM and resumed (with the filter turned on at the
#    resume), shards joined by mnw merge, --cutoff-scope all with pairs.tsv
#    and PAF (CIGARs) filtered too;
#  - the filter prunes (progress.json counts pruned pairs) where it is on,
#    and each pair it pruned is beyond the cutoff in the unfiltered run.
source "$(dirname "$0")/../lib.sh"
cd "$TMP"
quick=${MNW_TEST_QUICK:-}
# the runs of many settings: the first 100 genes of 16s-200 (4,950 pairs),
# 60 under MNW_TEST_QUICK
g=100
[ -n "$quick" ] && g=40
awk -v g=$g '/^>/{n++} n>g{exit} {print}' "$TDATA/16s-200.fa" > s.fa

# files DIR : the output files a run wrote (sorted names)
files() { (cd "$1" && ls pairs.tsv.gz dist.column.gz dist.column dist.phylip alignments.paf.gz 2>/dev/null); }
# same DIR1 DIR2 : the same output files, byte for byte
same() {
    local f
    [ "$(files "$1")" = "$(files "$2")" ] && [ -n "$(files "$1")" ] || return 1
    for f in $(files "$1"); do cmp -s "$1/$f" "$2/$f" || return 1; done
}
# pruned DIR : the pairs progress.json says were pruned
pruned() { sed -n 's/.*"pruned": *\([0-9]*\).*/\1/p' "$1/progress.json" | head -1; }

# pair ARGS... : one run with --prune no into off$n, one with --prune yes into
# on$n; both must succeed and write the same bytes
n=0
pair() {
    local desc=$1; shift
    n=$((n + 1))
    "$MNW" -q -o off$n --prune no "$@" >off$n.err 2>&1 && "$MNW" -q -o on$n --prune yes "$@" >on$n.err 2>&1
    local rc=$?
    check "$desc: --prune yes and --prune no write the same bytes" '[ $rc -eq 0 ] && same off$n on$n' ||
        { cat off$n.err on$n.err | head -5 | sed 's/^/#   /'; }
}

# --- every real set, 0.03, dist only (not under the sanitizers: 16s-1000 is
# 499,500 pairs, 45 s of DP on 2 cores with the filter off) ---
if [ -z "$quick" ]; then
    pair "16s-1000 (499,500 pairs), --cutoff 0.03" -i "$TDATA/16s-1000.fa.gz" --outputs dist --cutoff 0.03 --gpus none -t 2
    check "16s-1000: the filter pruned more than 95% of the pairs" '[ "$(pruned on$n)" -gt 474525 ]'
    check "16s-1000: nothing is pruned with --prune no" '[ "$(pruned off$n)" = 0 ]'
fi
pair "gold sample (274 genes, IUPAC codes), --cutoff 0.03" -i "$TDATA/gold-sample.fa.gz" --outputs dist,dist-plain --cutoff 0.03 --gpus none -t 2
check "gold sample: the filter pruned pairs" '[ "$(pruned on$n)" -gt 0 ]'

# --- the definitions and scoring modes the bound is proven for ---
S=(-i s.fa --gpus none --outputs dist --worklist-size 500 -t 2)
defs="vsearch2 vsearch1 vsearch3 vsearch4 needle mothur-onegap mothur-eachgap mothur-onegap-noends mothur-eachgap-noends"
# under MNW_TEST_QUICK one definition of each form of the bound
[ -n "$quick" ] && defs="vsearch2 needle vsearch3 mothur-eachgap-noends"
for def in $defs; do
    pair "--iddef $def, --cutoff 0.05" "${S[@]}" --iddef $def --cutoff 0.05
done
pair "affine gaps (open 12, extend 2), --cutoff 0.03" "${S[@]}" --gap-open 12 --gap-extend 2 --cutoff 0.03
pair "affine gaps, extend 0, --cutoff 0.03" "${S[@]}" --gap-open 8 --gap-extend 0 --cutoff 0.03
pair "free end gaps (--prune yes), --cutoff 0.03" "${S[@]}" --free-end-gaps --cutoff 0.03
pair "free end gaps, --iddef needle (the length bound), --cutoff 0.10" "${S[@]}" --free-end-gaps --iddef needle --cutoff 0.10
pair "match 1, mismatch -1, gap 2, --cutoff 0.03" "${S[@]}" --match 1 --mismatch -1 --gap 2 --cutoff 0.03
pair "match 5, mismatch 0, --cutoff 0.03" "${S[@]}" --match 5 --mismatch 0 --cutoff 0.03
for c in 0 0.01 0.05 0.1; do
    pair "--cutoff $c" "${S[@]}" --cutoff $c
done
check "--cutoff 0.1: the filter pruned pairs" '[ "$(pruned on$n)" -gt 0 ]'

# --- workers, the trace-back thread, work-list sizes ---
pair "one worker, work lists of 100" -i s.fa --gpus none --outputs dist --cutoff 0.03 -t 1 --worklist-size 100
pair "two workers, the trace-back thread" -i s.fa --gpus none --outputs dist --cutoff 0.03 -t 2 --traceback-thread
pair "work lists of 5,000" -i s.fa --gpus none --outputs dist,dist-plain --cutoff 0.03 --worklist-size 5000

# --- --cutoff-scope all: pairs.tsv.gz (with CIGARs) and PAF filtered too ---
pair "--cutoff-scope all, pairs,dist,paf with --cigar" -i s.fa --gpus none --outputs pairs,dist,paf --cigar --cutoff-scope all --cutoff 0.05 --worklist-size 500
pair "--cutoff-scope all, the trace-back thread, counts mode" -i s.fa --gpus none --outputs pairs,dist --cutoff-scope all --cutoff 0.03 --traceback-thread
check "--cutoff-scope all: pairs.tsv.gz holds only the header and the pairs within 0.03" \
    '[ "$(zcat on$n/pairs.tsv.gz | wc -l)" -eq "$(( $(zcat on$n/dist.column.gz | wc -l) + 1 ))" ]'

# --- auto is the default, and on here ---
"$MNW" -q -i s.fa -o auto1 "${S[@]:2}" --cutoff 0.03 2>auto1.err
"$MNW" -q -i s.fa -o auto0 "${S[@]:2}" --cutoff 0.03 --prune no 2>auto0.err
check "--prune auto (the default) at 0.03: on, says so in mnw.log, same bytes as --prune no" \
    'grep -q "filter before the DP: on" auto1/mnw.log && [ "$(pruned auto1)" -gt 0 ] && same auto1 auto0'

# --- two MPI ranks: rank 0 writes, and MPI-IO ---
for via in rank0 mpiio; do
    n=$((n + 1))
    "${MPIRUN[@]}" -np 2 "$MNW" -q -i s.fa -o off$n --gpus none --outputs dist --cutoff 0.03 --worklist-size 300 \
        --output-via $via --prune no >off$n.err 2>&1
    "${MPIRUN[@]}" -np 2 "$MNW" -q -i s.fa -o on$n --gpus none --outputs dist --cutoff 0.03 --worklist-size 300 \
        --output-via $via >on$n.err 2>&1
    check "two MPI ranks, --output-via $via: the same bytes as --prune no" 'same off$n on$n'
    check "two MPI ranks, --output-via $via: the same pruned count as one process" '[ "$(pruned on$n)" = "$(pruned on$((n - 1)))" ] || [ $via = mpiio ]'
done

# --- stopped and resumed: the first part without the filter, the resume with it ---
R=(-i s.fa --gpus none --outputs dist --cutoff 0.03 --worklist-size 100 -t 1 --bookmark-every 0.05)
"$MNW" -q -o full "${R[@]}" --prune no 2>/dev/null
# each bookmark write holds the CLD 0.3 s, so that SIGTERM comes mid-run
export MNW_TEST_BOOKMARK_PAUSE=0.3
term_mid_run res -q "${R[@]}" --prune no
"$MNW" -q --resume res --prune yes 2>res.err2
check "stopped (exit $rc) without the filter, resumed with it: the same bytes as an uninterrupted run" \
    '[ $rc -eq 3 ] && same full res'
term_mid_run res2 -q "${R[@]}" --prune yes
unset MNW_TEST_BOOKMARK_PAUSE
"$MNW" -q --resume res2 2>res2.err2
check "stopped (exit $rc) with the filter on, resumed with auto: the same bytes" '[ $rc -eq 3 ] && same full res2'

# --- shards joined by mnw merge ---
mkdir -p sh
for k in 1 2 3; do "$MNW" -q -i s.fa -o sh/p$k --gpus none --outputs dist --cutoff 0.03 --worklist-size 300 --shard $k/3; done
"$MNW" merge merged sh/p1 sh/p2 sh/p3 >/dev/null 2>merge.err
"$MNW" -q -i s.fa -o whole --gpus none --outputs dist --cutoff 0.03 --worklist-size 300 --prune no
check "three shards with the filter, merged: the same bytes as one run without it" 'same whole merged'

finish
