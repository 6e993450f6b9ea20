#!/usr/bin/env bash
# t_needle.sh - `--like needle` (issue 41, src/like.c): EMBOSS needle 6.6
# (Debian's emboss, its defaults: EDNAFULL, -gapopen 10 -gapextend 0.5, end
# gaps free) on real 16S genes against mnw --like needle: every pair's
# Score and Identity line the same (20 genes of 16s-200 and 20 genes rich in
# ambiguity codes: the 14 gold genes chosen for their many kinds and the 6
# of the first 40 of 16s-200 that have some). needle runs once per row
# sequence against the earlier ones. Then the alignments against the
# reference aligner under needle's rule (check_output), the log, half points
# without --like needle (--gap-extend 0.5), the refusals, the bookmark and a
# resume, the GPU path on the host emulation (the kernels lack needle's rule:
# the GPU stays idle, the CPU's bytes) and two MPI ranks. needle is
# required: a missing one is a failure. Under the sanitizers (MNW_SAN)
# needle itself is not run.
source "$(dirname "$0")/../lib.sh"

if ! command -v needle >/dev/null 2>&1; then
    echo "not ok - needle is not installed (Debian package emboss; CI must install it)"
    T_FAILED=1
    finish
fi
cd "$TMP" || exit 1
PY=/usr/bin/python3
onerec() { awk '/^>/ { if (id != "") print id "\n" s; id = $0; s = ""; next } { s = s $0 } END { print id "\n" s }' "$@"; }
awk '/^>/ { n++ } n <= 40' "$TDATA/16s-200.fa" | onerec >s40.fa
awk '/^>/ { n++ } n <= 20' s40.fa >s20.fa
{ zcat "$TDATA/gold-sample.fa.gz" | awk '/^>/ { n++ } n > 214 { exit } n > 200' | onerec
    paste - - <s40.fa | awk -F'\t' 'toupper($2) ~ /[^ACGT]/' | tr '\t' '\n'; } >a20.fa
check "20 genes and 20 rich in ambiguity codes" '[ "$(grep -c ">" s20.fa)" -eq 20 ] && [ "$(grep -c ">" a20.fa)" -eq 20 ]'

# needle on every pair (i, j), i the asequence (mnw's rows), j < i: tests/tools/needle_pairs.py
needle_all() { $PY "$ROOT/tests/tools/needle_pairs.py" "$@"; }
for set in s20 a20; do
    ok "mnw --like needle on $set" "$MNW" -q -i $set.fa -o n_$set --like needle --cigar --outputs pairs,dist -t 2
    if [ -z "${MNW_SAN:-}" ]; then
        read -r n bs bi < <(needle_all $set.fa n_$set/pairs.tsv.gz)
        check "$set: needle's Score and Identity on every pair ($n of 190; $bs scores and $bi identities differ)" \
            '[ "$n" -eq 190 ] && [ "$bs" -eq 0 ] && [ "$bi" -eq 0 ]'
    fi
    "$BUILD/tools/check_output" $set.fa n_$set/pairs.tsv.gz 10 -8 20 1 1 --ref 190 --tie needle --ambiguity ednafull \
        --half --iddef needle >co_$set.txt
    check "$set: every pair the reference aligner's under needle's rule, its counts and identity the CIGAR's" \
        '! grep -q "^not ok" co_$set.txt && [ "$(grep -c "^ok" co_$set.txt)" -ge 5 ]'
    grep "^not ok" co_$set.txt | head -3
done
check "the log: needle's scoring in its units, EDNAFULL, its rule and identity" \
    'grep -q "match 5.0 mismatch -4.0 gap-open 10.0 gap-extend 0.5 (affine), free end gaps, ambiguity codes by EDNAFULL, tie rule needle.s; identity needle; --like needle" n_a20/mnw.log'
check "scores as needle prints them (one decimal), some ending in .5" \
    'zcat n_s20/pairs.tsv.gz | awk -F"\t" "NR > 1 && \$5 !~ /^-?[0-9]+\\.[05]\$/ { bad++ } NR > 1 && \$5 ~ /\\.5\$/ { h++ } END { exit !(bad == 0 && h > 0) }"'
check "the bookmark records needle's settings in its units" \
    'grep -qx "setting like needle" n_s20/mnw.bookmark && grep -qx "setting gap-extend 0.5" n_s20/mnw.bookmark &&
     grep -qx "setting match 5" n_s20/mnw.bookmark && grep -qx "setting tie-rule needle" n_s20/mnw.bookmark &&
     grep -qx "setting ambiguity ednafull" n_s20/mnw.bookmark'

# half points without --like needle: the default scoring with --gap-extend 0.5
ok "mnw --gap-open 12 --gap-extend 0.5 (half points, mnw's rule)" "$MNW" -q -i s20.fa -o half --gap-open 12 --gap-extend 0.5 --cigar -t 2
check "the log: gap-extend 0.5, the rest in whole points with .0" 'grep -q "match 4.0 mismatch -5.0 gap-open 12.0 gap-extend 0.5 (affine)" half/mnw.log'
"$BUILD/tools/check_output" s20.fa half/pairs.tsv.gz 8 -10 24 1 0 --ref 190 --half >co_half.txt
check "half points: every pair the reference aligner's at 8/-10/24/1" \
    '! grep -q "^not ok" co_half.txt && [ "$(grep -c "^ok" co_half.txt)" -ge 5 ]'

# contradictions: refused, naming both, OUTDIR not created
refuse() { refuse_run s20.fa "$@"; } # tests/lib.sh
refuse "--like needle --free-end-gaps=no" "--like needle and --free-end-gaps no" --like needle --free-end-gaps=no
refuse "--like needle --end-gap-open 1" "--like needle and --end-gap-open" --like needle --end-gap-open 1
refuse "--like needle --tie-rule mnw" "--like needle and --tie-rule mnw" --like needle --tie-rule mnw
refuse "--like needle --ambiguity zero" "--like needle and --ambiguity zero" --like needle --ambiguity zero
refuse "--like needle --iddef vsearch2" "--like needle and --iddef vsearch2" --like needle --iddef vsearch2
refuse "--like mothur --gap 2.5" "--like mothur and a scoring value ending in .5" --like mothur --gap 2.5
refuse "--like vsearch --gap-extend 1.5" "--like vsearch and a scoring value ending in .5" --like vsearch --gap-extend 1.5
refuse "--tie-rule needle without free end gaps" "--tie-rule needle without --free-end-gaps" --tie-rule needle
refuse "--gap-extend 0.25" "gap-extend must be a number from 0 to 1000 (whole, or ending in .5), not '0.25'" --gap-extend 0.25

# the GPU path (host emulation): the kernels lack needle's rule and
# EDNAFULL, so a node's GPU stays idle and says why; the CPU's bytes
if [ -x "$BUILD/tools/mnw-emu" ]; then
    ok "mnw-emu --like needle" "$BUILD/tools/mnw-emu" -q -i a20.fa -o emu --like needle --cigar --outputs pairs,dist --worklist-size 50
    check "the GPU stays idle under needle's rule (the log says why); the CPU's bytes" \
        'grep -q "needle.s tie rule" emu/mnw.log && cmp -s <(zcat emu/pairs.tsv.gz) <(zcat n_a20/pairs.tsv.gz) &&
         cmp -s <(zcat emu/dist.column.gz) <(zcat n_a20/dist.column.gz)'
fi
ok "two MPI ranks --like needle" "${MPIRUN[@]}" -np 2 "$MNW" -q -i a20.fa -o mpi --like needle --cigar --outputs pairs,dist -t 1 --worklist-size 50
check "two ranks: the one-process bytes" 'cmp -s <(zcat mpi/pairs.tsv.gz) <(zcat n_a20/pairs.tsv.gz)'

# a resume keeps the mode and its half points
awk '/^>/ { n++ } n <= 80' "$TDATA/16s-200.fa" >s80.fa
"$MNW" -q -i s80.fa -o whole --like needle --gap-extend 1.5 --cigar --worklist-size 20 -t 2
term_mid_run part -q -i s80.fa --like needle --gap-extend 1.5 --cigar --worklist-size 20 -t 1
check "a --like needle run stopped mid-run (rc $rc)" '[ $rc -eq 3 ]'
"$MNW" -q --resume part --gap-extend 0.5 2>res.err
rc=$?
check "resumed with another --gap-extend: refused (rc $rc), naming the run's 1.5" \
    '[ $rc -ne 0 ] && grep -q "the run was made with gap-extend 1.5" res.err'
ok "resumed without options" "$MNW" -q --resume part -t 2
check "the resumed run's outputs are the uninterrupted run's" 'same_outputs whole part'
finish
