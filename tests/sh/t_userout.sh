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
finish
