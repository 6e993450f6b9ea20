# t_mothur_formats.sh - mothur reads mnw's dist.phylip and dist.column (as
# written, only gunzipped) and clusters both into the same OTUs: the formats
# are mothur's own (docs/FORMATS.md). The plain column file (--outputs
# dist-plain: dist.column) is read by mothur's cluster as mnw wrote it, in
# OUTDIR, with no zcat, and gives the same OTUs.
source "$(dirname "$0")/../lib.sh"
cd "$TMP"
command -v mothur >/dev/null || { echo "not ok - mothur is not installed (Debian package mothur)"; exit 1; }
zcat "$ROOT/data/16s-500.fa.gz" | awk '/^>/{n++} n>120{exit} {print}' > s.fa
ok "mnw writes dist.phylip, dist.column.gz and dist.column" "$MNW" -q -i s.fa -o o --outputs dist,phylip,dist-plain
check "dist.column is dist.column.gz's text" 'cmp -s o/dist.column <(zcat o/dist.column.gz)'
cp o/dist.phylip p.phylip
zcat o/dist.column.gz > c.column
{ printf 'Representative_Sequence\ttotal\n'; grep '>' s.fa | sed 's/^>//; s/[ \t].*//; s/$/\t1/'; } > c.count_table
mothur "#set.current(processors=1); cluster(phylip=p.phylip, method=average, cutoff=0.10); cluster(column=c.column, count=c.count_table, method=average, cutoff=0.10)" > mothur.out 2>&1
check "mothur clusters the PHYLIP lower triangle without complaint" '[ -s p.an.list ] && ! grep -qi "\[error\]" mothur.out'
check "mothur clusters the column file without complaint" '[ -s c.an.list ]'
check "both give the same OTUs at every level" 'cmp -s <(tail -n +2 p.an.list | cut -f1,2) <(tail -n +2 c.an.list | cut -f1,2) && [ "$(wc -l < p.an.list)" -ge 3 ]'
# dist.column as mnw wrote it, read in OUTDIR by cluster
cp c.count_table o/
mothur "#set.current(processors=1); cluster(column=o/dist.column, count=o/c.count_table, method=average, cutoff=0.10)" > mothur-plain.out 2>&1
check "mothur cluster reads OUTDIR/dist.column as written: the same OTUs" \
    '[ -s o/dist.an.list ] && ! grep -qi "\[error\]" mothur-plain.out && cmp -s <(tail -n +2 o/dist.an.list | cut -f1,2) <(tail -n +2 c.an.list | cut -f1,2)' ||
    grep -i error mothur-plain.out | head -3 | sed 's/^/#   /'
check "clustering at 0.03-0.10 merged something (distances are real)" '[ "$(awk "NR>2{print \$2}" p.an.list | sort -n | head -1)" -lt 120 ]'
finish
