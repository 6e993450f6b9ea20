#!/usr/bin/env bash
# t_like.sh - `--like mothur` and `--like vsearch` (issue 41, src/like.h): mothur 1.48's
# pairwise.seqs on 40 real 16S genes (the first 40 of 16s-200; 6 of them
# with ambiguity codes, some with several kinds), each of its three
# calculators with countends T and F, against mnw --like mothur with the
# matching --iddef: every distance the same text. mothur runs with
# kmercutoff=10 so that it aligns every pair (its k-mer prefilter, on by
# default, skips pairs it guesses are far: docs/SCORING.md). Then the
# settings --like sets (the log line), an explicit option overriding one,
# the contradictions refused naming both (OUTDIR not created), the
# alignments against the reference aligner and parasail under mothur's rule
# and ambiguity rule, 20 genes rich in ambiguity codes against mothur, the GPU path on the host emulation, two MPI ranks, and a
# stopped run resumed from its bookmark keeping the mode. mothur is
# required: a missing one is a failure. Under the sanitizers (MNW_SAN) the
# tools themselves are not run (they are not instrumented and took most of
# the test's time there): mnw's runs are, and their checks.
source "$(dirname "$0")/../lib.sh"

if ! command -v mothur >/dev/null 2>&1; then
    echo "not ok - mothur is not installed (Debian package mothur; CI must install it)"
    T_FAILED=1
    finish
fi
cd "$TMP" || exit 1
awk '/^>/ { n++ } n <= 40' "$TDATA/16s-200.fa" >s40.fa
check "40 genes, 6 with ambiguity codes, 3 with several kinds" \
    '[ "$(grep -c ">" s40.fa)" -eq 40 ] && [ "$(awk "/^>/{if (s ~ /[^ACGT]/) n++; s = \"\"; next} {s = s toupper(\$0)} END {if (s ~ /[^ACGT]/) n++; print n}" s40.fa)" -eq 6 ]'

# 20 genes rich in ambiguity codes: the 14 gold genes chosen for their many
# kinds (tests/data/README.md) and the 6 of s40 that have some; mothur reads
# every ambiguity letter as N (two of them a match, R against Y too)
awk '/^>/ { if (id != "") print id "\n" s; id = $0; s = ""; next } { s = s $0 } END { print id "\n" s }' s40.fa |
    paste - - | awk -F'\t' 'toupper($2) ~ /[^ACGT]/' | tr '\t' '\n' >amb6.fa
{ zcat "$TDATA/gold-sample.fa.gz" | awk '/^>/ { n++ } n > 214 { exit } n > 200'; cat amb6.fa; } >a20.fa
check "20 genes rich in ambiguity codes (14 gold, 6 of the 40)" '[ "$(grep -c ">" a20.fa)" -eq 20 ]'

modes="onegap:T onegap:F eachgap:T eachgap:F nogaps:T nogaps:F"
{
    for c in $modes; do
        echo "set.dir(output=mo_${c%:*}_${c#*:})"
        echo "pairwise.seqs(fasta=s40.fa, calc=${c%:*}, countends=${c#*:}, output=column, kmercutoff=10, processors=2)"
    done
    echo "set.dir(output=mo_amb)"
    echo "pairwise.seqs(fasta=a20.fa, calc=onegap, countends=T, output=column, kmercutoff=10, processors=2)"
} >mothur.batch
for c in $modes; do mkdir -p "mo_${c%:*}_${c#*:}"; done
mkdir -p mo_amb
[ -z "${MNW_SAN:-}" ] && mothur mothur.batch >mothur.log 2>&1
for c in $modes; do
    calc=${c%:*} ce=${c#*:}
    def=mothur-$calc
    [ "$ce" = F ] && def=$def-noends
    f=mo_${calc}_$ce/s40.dist
    ok "mnw --like mothur --iddef $def" "$MNW" -q -i s40.fa -o "r_$def" --like mothur --iddef "$def" --outputs dist -t 2
    if [ -n "${MNW_SAN:-}" ]; then
        check "calc=$calc countends=$ce: 780 distances (mothur not run under $MNW_SAN)" \
            '[ "$(zcat "r_$def/dist.column.gz" | wc -l)" -eq 780 ]'
        continue
    fi
    check "mothur pairwise.seqs calc=$calc countends=$ce: 780 distances" '[ "$(wc -l <"$f" 2>/dev/null)" -eq 780 ]'
    # mothur: "later earlier %g"; mnw's dist.column.gz the same columns
    read -r n nd < <(awk 'NR == FNR { k[$1 " " $2] = $3; next } { key = $1 " " $2; if (key in k) { n++; if (k[key] != $3) { d++; if (d <= 3) print "#  " key ": mothur " $3 ", mnw " k[key] > "/dev/stderr" } } }
        END { print n + 0, d + 0 }' <(zcat "r_$def/dist.column.gz") "$f")
    check "calc=$calc countends=$ce: every pair of mothur's in mnw's file ($n of 780), every distance the same text ($nd differ)" \
        '[ "$n" -eq 780 ] && [ "$nd" -eq 0 ]'
done

ok "mnw --like mothur on the 20 genes rich in ambiguity codes" "$MNW" -q -i a20.fa -o r_amb --like mothur --outputs dist -t 2
if [ -z "${MNW_SAN:-}" ]; then
    read -r n nd < <(awk 'NR == FNR { k[$1 " " $2] = $3; next } { key = $1 " " $2; if (key in k) { n++; if (k[key] != $3) { d++; if (d <= 3) print "#  " key ": mothur " $3 ", mnw " k[key] > "/dev/stderr" } } }
        END { print n + 0, d + 0 }' <(zcat r_amb/dist.column.gz) mo_amb/a20.dist)
    check "the 20 genes rich in ambiguity codes, onegap: all 190 of mothur's distances the same text ($nd differ; R against Y is a match to mothur)" \
        '[ "$n" -eq 190 ] && [ "$nd" -eq 0 ]'
fi

# what --like mothur sets, and an explicit option over it
grep -F "scoring:" r_mothur-onegap/mnw.log >log.txt
check "the log: 1/-1/2 linear, free end gaps, mothur's ambiguity rule, mothur's tie rule, mothur-onegap" \
    'grep -q "match 1 mismatch -1 gap-open 2 gap-extend 2 (linear), free end gaps, ambiguity codes as mothur.s N .two match., tie rule D before I (mothur.s, vsearch.s); identity mothur-onegap; --like mothur" log.txt'
ok "--like mothur --match 2 --gap 3" "$MNW" -q -i s40.fa -o over --like mothur --match 2 --gap 3 --outputs dist -t 2
check "an explicit option wins: match 2, gap 3, the rest mothur's" \
    'grep -q "match 2 mismatch -1 gap-open 3 gap-extend 3 (linear), free end gaps, ambiguity codes as mothur.s N .two match., tie rule D before I (mothur.s, vsearch.s); identity mothur-onegap" over/mnw.log'
check "the bookmark records like, tie-rule and ambiguity" \
    'grep -qx "setting like mothur" over/mnw.bookmark && grep -qx "setting tie-rule mothur" over/mnw.bookmark && grep -qx "setting ambiguity mothur" over/mnw.bookmark'

# contradictions: refused, naming both, OUTDIR not created
refuse() { refuse_run s40.fa "$@"; } # tests/lib.sh
refuse "--like mothur with affine gaps" "--like mothur and --gap-open 5 --gap-extend 1" --like mothur --gap-open 5 --gap-extend 1
refuse "--like mothur --iddef vsearch2" "--like mothur and --iddef vsearch2" --like mothur --iddef vsearch2
refuse "--like mothur --tie-rule mnw" "--like mothur and --tie-rule mnw" --like mothur --tie-rule mnw
refuse "--like mothur --free-end-gaps=no" "--like mothur and --free-end-gaps no" --like mothur --free-end-gaps=no
refuse "--like mothur --ambiguity zero" "--like mothur and --ambiguity zero" --like mothur --ambiguity zero
refuse "--like mothur --end-gap-open 1" "--like mothur and --end-gap-open 1 --end-gap-extend 1" --like mothur --end-gap-open 1
refuse "--end-gap-open with --free-end-gaps" "--end-gap-open/--end-gap-extend and --free-end-gaps" --end-gap-open 2 --free-end-gaps
refuse "--end-gap-extend above --end-gap-open" "--end-gap-extend must not exceed --end-gap-open" --end-gap-open 2 --end-gap-extend 5
refuse "--like vsearch --free-end-gaps" "--like vsearch and --free-end-gaps" --like vsearch --free-end-gaps
refuse "--like vsearch --iddef mothur-onegap" "--like vsearch and --iddef mothur-onegap" --like vsearch --iddef mothur-onegap
refuse "--like vsearch --ambiguity mothur" "--like vsearch and --ambiguity mothur" --like vsearch --ambiguity mothur
refuse "--like vsearch --tie-rule mnw" "--like vsearch and --tie-rule mnw" --like vsearch --tie-rule mnw
refuse "--like an unknown tool" "like takes mnw, mothur, vsearch or needle, not 'blast'" --like blast
refuse "--tie-rule an unknown rule" "tie-rule takes mnw, mothur, vsearch or needle, not 'left'" --tie-rule left

# the alignments: the reference aligner's under mothur's tie and ambiguity
# rules (every pair), each an optimal one (parasail's score, mothur's
# ambiguity rule as its matrix); vsearch2 identities, so check_output recomputes them
SC=(--match 1 --mismatch -1 --gap 2 --free-end-gaps --tie-rule mothur --ambiguity mothur)
ok "mnw with mothur's settings, --cigar" "$MNW" -q -i s40.fa -o ref --cigar "${SC[@]}" -t 2
"$BUILD/tools/check_output" s40.fa ref/pairs.tsv.gz 1 -1 2 2 1 --parasail --ref 780 --tie mothur --ambiguity mothur >co.txt
check "check_output: every pair the reference aligner's (mothur's rules), optimal by parasail" \
    '! grep -q "^not ok" co.txt && [ "$(grep -c "^ok" co.txt)" -ge 3 ]'
grep "^not ok" co.txt | head -3
ok "mnw with mnw's rule (same scoring otherwise)" "$MNW" -q -i s40.fa -o mnwrule --cigar --match 1 --mismatch -1 --gap 2 --free-end-gaps --ambiguity mothur -t 2
ndiff=$(cmp -l <(zcat ref/pairs.tsv.gz) <(zcat mnwrule/pairs.tsv.gz) 2>/dev/null | wc -l)
check "the rule changes some alignments, not the scores" \
    '[ "$ndiff" -gt 0 ] && cmp -s <(zcat ref/pairs.tsv.gz | cut -f1-4) <(zcat mnwrule/pairs.tsv.gz | cut -f1-4)'

# the GPU path (host emulation) and two MPI ranks: the same bytes
# (the 20 genes rich in ambiguity codes; warps are emulated lane by lane)
if [ -x "$BUILD/tools/mnw-emu" ]; then
    ok "mnw-emu --like mothur" "$BUILD/tools/mnw-emu" -q -i a20.fa -o emu --like mothur "${ALL_OUTPUTS[@]}" --worklist-size 50
    ok "CPU --like mothur" "$MNW" -q -i a20.fa -o cpu --like mothur "${ALL_OUTPUTS[@]}" --gpus none --worklist-size 50 -t 2
    check "the emulated GPU's outputs are the CPU's, byte for byte" 'same_bytes cpu emu && grep -q "GPU 0: 190 pairs" emu/mnw.log'
    ok "mnw-emu --like mothur, counts mode" "$BUILD/tools/mnw-emu" -q -i a20.fa -o emuc --like mothur --outputs dist --worklist-size 50
    check "counts mode on the GPU: the CPU's distances" 'cmp -s <(zcat emuc/dist.column.gz) <(zcat cpu/dist.column.gz)'
fi
ok "two MPI ranks --like mothur" "${MPIRUN[@]}" -np 2 "$MNW" -q -i s40.fa -o mpi --like mothur --outputs dist -t 1 --worklist-size 50
check "two ranks: the one-process distances" 'cmp -s <(zcat mpi/dist.column.gz) <(zcat r_mothur-onegap/dist.column.gz)'

# --like vsearch: vsearch 2.22's --allpairs_global with its own defaults
# (20I/2E, 2I/1E, +2/-4) on the 40 genes and 20 gold genes (many kinds of
# ambiguity codes): every pair's every field (caln, id0-id4, raw...) the
# same text. The GPU kernels lack terminal penalties yet: a GPU stays idle
# (the log says so) and the outputs are the CPU's.
if [ -n "${MNW_SAN:-}" ]; then
    ok "mnw --like vsearch (vsearch not run under $MNW_SAN)" "$MNW" -q -i a20.fa -o lv --like vsearch --outputs userout -t 2
elif ! command -v vsearch >/dev/null 2>&1; then
    echo "not ok - vsearch is not installed (Debian package vsearch; CI must install it)"
    T_FAILED=1
else
    zcat "$TDATA/gold-sample.fa.gz" | awk '/^>/ { n++ } n <= 20' | cat s40.fa - >t60.fa
    F=query+target+id0+id1+id2+id3+id4+alnlen+mism+opens+gaps+raw+caln
    vsearch --allpairs_global t60.fa --acceptall --qmask none --threads 1 --quiet --userout vs.tsv --userfields $F
    ok "mnw --like vsearch --outputs userout" "$MNW" -q -i t60.fa -o lv --like vsearch --outputs userout --userfields $F -t 2
    check "the log: vsearch's scoring, end gaps 2/1, tie rule D before I, vsearch2" \
        'grep -q "match 2 mismatch -4 gap-open 20 gap-extend 2 (affine), end gaps open 2 extend 1, ambiguity codes 0, tie rule D before I (mothur.s, vsearch.s); identity vsearch2; --like vsearch" lv/mnw.log'
    read -r nv nsame < <(join -t "$(printf '\t')" <(awk -F'\t' '{ print $1 "|" $2 "\t" $0 }' vs.tsv | sort -t "$(printf '\t')" -k1,1) \
        <(zcat lv/userout.tsv.gz | awk -F'\t' '{ print $1 "|" $2 "\t" $0 }' | sort -t "$(printf '\t')" -k1,1) |
        awk -F'\t' '{ n++; d = 0; for (k = 2; k <= 14; k++) if ($k != $(k + 13)) d = 1; if (!d) same++; else if (++bad <= 3) print "#  " $0 > "/dev/stderr" }
            END { print n + 0, same + 0 }')
    check "--like vsearch: every field of every pair vsearch's own text ($nsame of $nv pairs, 1770 expected)" \
        '[ "$nv" -eq 1770 ] && [ "$nsame" -eq 1770 ]'
    check "the bookmark records the end gaps (2, 1) and the rule; a run without them records none" \
        'grep -qx "setting end-gap-open 2" lv/mnw.bookmark && grep -qx "setting end-gap-extend 1" lv/mnw.bookmark &&
         grep -qx "setting like vsearch" lv/mnw.bookmark && grep -qx "setting end-gap-open none" over/mnw.bookmark'
    "$MNW" report lv -o lv.html
    check "mnw report's scoring row names the end gaps, the rule and the mode" \
        'grep -q "free end gaps no, end gaps open 2 extend 1, ambiguity codes zero, tie rule mothur; --like vsearch" lv.html'
    "$MNW" -q --resume lv --end-gap-open 3 2>res2.err
    rc=$?
    check "resumed with another --end-gap-open: refused (rc $rc), naming the run's" \
        '[ $rc -ne 0 ] && grep -q "the run was made with end-gap-open 2" res2.err'
    if [ -x "$BUILD/tools/mnw-emu" ]; then
        ok "mnw-emu --like vsearch" "$BUILD/tools/mnw-emu" -q -i a20.fa -o emuv --like vsearch --cigar --worklist-size 50
        ok "CPU --like vsearch" "$MNW" -q -i a20.fa -o cpuv --like vsearch --cigar --gpus none --worklist-size 50 -t 2
        check "a node's GPU stays idle under terminal penalties (the log says why); the CPU's bytes" \
            'grep -q "terminal gap penalties (--end-gap-open/--end-gap-extend): the GPU kernels do not have it yet" emuv/mnw.log && cmp -s emuv/pairs.tsv.gz cpuv/pairs.tsv.gz && cmp -s emuv/dist.column.gz cpuv/dist.column.gz'
    fi
fi

# a resume keeps the mode
awk '/^>/ { n++ } n <= 80' "$TDATA/16s-200.fa" >s80.fa
"$MNW" -q -i s80.fa -o whole --like mothur --iddef mothur-eachgap --cigar --worklist-size 20 -t 2
term_mid_run part -q -i s80.fa --like mothur --iddef mothur-eachgap --cigar --worklist-size 20 -t 1
check "a --like mothur run stopped mid-run (rc $rc)" '[ $rc -eq 3 ]'
"$MNW" -q --resume part --tie-rule mnw 2>res.err
rc=$?
check "resumed with --tie-rule mnw: refused (rc $rc), naming the run's" '[ $rc -ne 0 ] && grep -q "the run was made with tie-rule mothur" res.err'
ok "resumed without options" "$MNW" -q --resume part -t 2
check "the resumed run's outputs are the uninterrupted run's" 'same_outputs whole part'
finish
