#!/usr/bin/env bash
# t_userout.sh - userout.tsv.gz (--outputs userout, lib/userout.h) against
# vsearch 2.22's own --userout of the same pairs: 50 real 16S genes (the 14
# gold genes with the most kinds of ambiguity codes, as t_identity_tools
# picks them, and the first 36 of 16s-200, some with N runs), vsearch's
# scoring with free terminal gaps (--match 2 --mismatch -4 --gapopen 20I/0E
# --gapext 2I/0E: mnw --gap-open 20 --gap-extend 2 --free-end-gaps, the same
# cost for every gap). Where the two alignments are the same (the same
# caln; the others are co-optimal paths that the two tie rules choose
# differently, issue 41's --like vsearch), every field must be the same text:
# query and target, id0-id4, alnlen, mism, opens, gaps, raw and caln. Then
# the output's rules: one line a pair, kept under --cutoff unless
# --cutoff-scope all, counts mode refused, the same bytes from other
# worker setups. vsearch is required: a missing one is a failure.
source "$(dirname "$0")/../lib.sh"

if ! command -v vsearch >/dev/null 2>&1; then
    echo "not ok - vsearch is not installed (Debian package vsearch; CI must install it)"
    T_FAILED=1
    finish
fi
cd "$TMP" || exit 1
GOLD_IDS="S000123243 S000437418 S000128724 S000363188 S000364575 S000007314 S000136808 S000434429 S000004362 S000414464 S000002381 S000387095 S000544255 S000390061"
zcat "$TDATA/gold-sample.fa.gz" | awk -v want="$GOLD_IDS" 'BEGIN { n = split(want, w, " "); for (i = 1; i <= n; i++) keep[w[i]] = 1 }
    /^>/ { p = (substr($1, 2) in keep) } p' >in.fa
awk '/^>/ { n++ } n <= 36' "$TDATA/16s-200.fa" >>in.fa
check "50 genes, some with ambiguity codes" '[ "$(grep -c ">" in.fa)" -eq 50 ] && [ "$(grep -v ">" in.fa | tr a-z A-Z | grep -c "[RYSWKMBDHV]")" -ge 10 ]'
FIELDS=query+target+id0+id1+id2+id3+id4+alnlen+mism+opens+gaps+raw+caln
vsearch --allpairs_global in.fa --acceptall --qmask none --threads 1 --quiet --match 2 --mismatch -4 \
    --gapopen 20I/0E --gapext 2I/0E --userout vs.tsv --userfields $FIELDS
check "vsearch wrote 1225 lines" '[ "$(wc -l <vs.tsv)" -eq 1225 ]'
ok "mnw --outputs userout" "$MNW" -q -i in.fa -o u -t 2 --match 2 --mismatch -4 --gap-open 20 --gap-extend 2 --free-end-gaps --outputs userout
check "userout.tsv.gz: 1225 lines of 13 fields, no header" '[ "$(zcat u/userout.tsv.gz | awk -F"\t" "NF == 13" | wc -l)" -eq 1225 ] && [ "$(zcat u/userout.tsv.gz | wc -l)" -eq 1225 ]'
# query = the earlier sequence (vsearch's allpairs query), target the later one
check "query is the earlier gene, target the later (vsearch's allpairs order)" \
    '[ "$(zcat u/userout.tsv.gz | head -1 | cut -f1,2)" = "$(grep ">" in.fa | head -2 | cut -c2- | cut -d" " -f1 | paste -sd "\t")" ]'
sort vs.tsv >vs.s
zcat u/userout.tsv.gz | sort >mnw.s
key() { awk -F'\t' '{ print $1 "|" $2 "\t" $0 }' "$1" | sort -t "$(printf '\t')" -k1,1; }
join -t "$(printf '\t')" <(key vs.s) <(key mnw.s) >joined
check "every vsearch pair has an mnw line" '[ "$(wc -l <joined)" -eq 1225 ]'
# fields 2-14 vsearch's, 15-27 mnw's; 14 and 27 the caln
awk -F'\t' '$14 == $27 { same++; d = 0; for (k = 2; k <= 14; k++) if ($k != $(k + 13)) d = 1; if (d) { bad++; if (bad <= 3) print "#  " $0 > "/dev/stderr" } }
    END { print same + 0, bad + 0 }' joined >cmp.txt
read -r same bad <cmp.txt
echo "# the same alignment (caln) on $same of 1225 pairs"
check "the same alignment on at least 95% of the pairs ($same of 1225)" '[ "$same" -ge 1164 ]'
check "where the alignment is vsearch's, every field is vsearch's text ($bad of $same differ)" '[ "$bad" -eq 0 ]'
namb=$(awk -F'\t' '$14 == $27 && ($2 ~ /^S0/ || $3 ~ /^S0/)' joined | wc -l)
check "compared pairs with a gold gene (ambiguity codes): $namb of the 595" '[ "$namb" -ge 500 ]'
# every field mnw offers (vsearch's but aln, qrow, trow), in another order, caln first
ALL=caln+query+target+evalue+id+pctpv+pctgaps+pairs+gaps+qlo+qhi+tlo+thi+pv+ql+tl+qs+ts+alnlen+opens+exts+raw+bits+qstrand+tstrand+qframe+tframe+mism+ids+qcov+tcov+id0+id1+id2+id3+id4+qilo+qihi+tilo+tihi
vsearch --allpairs_global in.fa --acceptall --qmask none --threads 1 --quiet --match 2 --mismatch -4 \
    --gapopen 20I/0E --gapext 2I/0E --userout vsall.tsv --userfields $ALL
ok "mnw --userfields with all 40 fields" "$MNW" -q -i in.fa -o all -t 2 --match 2 --mismatch -4 --gap-open 20 --gap-extend 2 --free-end-gaps --outputs userout --userfields $ALL
nall=$(join -t "$(printf '\t')" <(awk -F'\t' '{ print $2 "|" $3 "\t" $0 }' vsall.tsv | sort -t "$(printf '\t')" -k1,1) \
    <(zcat all/userout.tsv.gz | awk -F'\t' '{ print $2 "|" $3 "\t" $0 }' | sort -t "$(printf '\t')" -k1,1) |
    awk -F'\t' '$2 == $42 { same++; for (k = 2; k <= 41; k++) if ($k != $(k + 40)) { bad++; if (bad <= 3) print "#  field " k - 1 ": " $k " / " $(k + 40) > "/dev/stderr"; break } }
        END { print same + 0, bad + 0 }')
read -r sameall badall <<<"$nall"
check "all 40 fields: every one vsearch's text where the alignment is ($badall of $sameall pairs differ)" '[ "$sameall" -eq "$same" ] && [ "$badall" -eq 0 ]'
ok "mnw --userfields id+id0 --iddef vsearch0" "$MNW" -q -i in.fa -o id0 -t 2 --outputs userout --userfields id+id0 --iddef vsearch0
check "id is the identity of the run's --iddef (vsearch0: id0's column)" '[ "$(zcat id0/userout.tsv.gz | awk -F"\t" "\$1 != \$2" | wc -l)" -eq 0 ] && [ "$(zcat id0/userout.tsv.gz | wc -l)" -eq 1225 ]'
refused() { # refused DESC TEXT ARGS...: exit 2, TEXT in the message, OUTDIR not created
    local desc=$1 text=$2 rc
    shift 2
    rm -rf r
    "$MNW" -q -i in.fa -o r "$@" >r.out 2>&1
    rc=$?
    check "refused: $desc (exit $rc)" '[ $rc -eq 2 ] && grep -qF -- "$text" r.out && [ ! -e r ]' || sed 's/^/#   /' r.out | head -3
}
refused "an unknown field, named" "unknown field 'idd'" --outputs userout --userfields query+idd
refused "an empty field name" "an empty field name" --outputs userout --userfields query++target
refused "--userfields without userout in --outputs" "does not name userout" --userfields query+target
refused "the field id with a mothur --iddef" "--iddef mothur-onegap" --outputs userout --userfields query+id --iddef mothur-onegap
# a resumed run keeps its fields: a resume asking for others is refused
term_mid_run rs -q -i in.fa -t 1 --worklist-size 20 --outputs userout --userfields query+target+id
check "the run with --userfields query+target+id stopped by SIGTERM mid-run (exit $rc)" \
    '[ $rc -eq 3 ] && [ "$(sed -n "s/^watermark //p" rs/mnw.bookmark)" -lt 1225 ]'
"$MNW" --resume rs -q --userfields query+caln >rs.out 2>&1
rc=$?
check "--resume with other --userfields is refused (exit $rc), naming both lists" '[ $rc -ne 0 ] && grep -q "userfields query+target+id" rs.out && grep -q "query+caln" rs.out'
ok "--resume without --userfields completes the run" "$MNW" --resume rs -q
check "the resumed run's file: the recorded fields on every line" '[ "$(zcat rs/userout.tsv.gz | awk -F"\t" "NF == 3" | wc -l)" -eq 1225 ] && grep -q "^setting userfields query+target+id$" rs/mnw.bookmark'
# caln's form: M runs, a length of 1 left out
check "caln: runs of M, I and D, no length of 1" '! zcat u/userout.tsv.gz | cut -f13 | grep -q "[^0-9MID]" && ! zcat u/userout.tsv.gz | cut -f13 | grep -qE "(^|[MID])1[MID]"'

# the output's rules
ok "mnw --outputs dist,userout --cutoff 0.03 (userout unfiltered)" "$MNW" -q -i in.fa -o c -t 2 --outputs dist,userout --cutoff 0.03
check "--cutoff without --cutoff-scope all keeps every userout line" '[ "$(zcat c/userout.tsv.gz | wc -l)" -eq 1225 ]'
ok "mnw --outputs dist,userout --cutoff 0.10 --cutoff-scope all" "$MNW" -q -i in.fa -o a -t 2 --outputs dist,userout --cutoff 0.10 --cutoff-scope all
check "--cutoff-scope all keeps exactly the pairs of dist.column.gz" \
    '[ "$(zcat a/userout.tsv.gz | wc -l)" -eq "$(zcat a/dist.column.gz | wc -l)" ] && [ "$(zcat a/userout.tsv.gz | wc -l)" -lt 1225 ] && [ "$(zcat a/userout.tsv.gz | wc -l)" -gt 0 ]'
"$MNW" -q -i in.fa -o k -t 2 --outputs userout --counts yes >k.out 2>&1
rc=$?
check "--counts yes with userout is refused, naming it (exit $rc)" '[ $rc -ne 0 ] && grep -q "userout" k.out && [ ! -e k ]'
ok "mnw --outputs userout, other workers and lists" "$MNW" -q -i in.fa -o w -t 3 --worklist-size 7 --match 2 --mismatch -4 --gap-open 20 --gap-extend 2 --free-end-gaps --outputs userout
check "the same text from 3 workers and lists of 7" 'cmp -s <(zcat u/userout.tsv.gz) <(zcat w/userout.tsv.gz)'
check "mnw.log lists userout.tsv.gz" 'grep -q "userout.tsv.gz" u/mnw.log'
"${MPIRUN[@]}" -np 2 "$MNW" -q -i in.fa -o mpi -t 1 --worklist-size 50 --match 2 --mismatch -4 --gap-open 20 --gap-extend 2 --free-end-gaps --outputs userout,dist --output-via mpiio >mpi.out 2>&1
check "two MPI ranks writing through MPI-IO: the same text" 'cmp -s <(zcat u/userout.tsv.gz) <(zcat mpi/userout.tsv.gz)' || sed 's/^/#   /' mpi.out | head -5
finish
