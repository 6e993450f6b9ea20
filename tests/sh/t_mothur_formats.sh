# t_mothur_formats.sh - mothur reads mnw's dist.phylip and dist.column (as
# written, only gunzipped) and clusters both into the same OTUs: the formats
# are mothur's own (docs/FORMATS.md). The plain column file (--outputs
# dist-plain: dist.column) is read by mothur's cluster as mnw wrote it, in
# OUTDIR, with no zcat, and gives the same OTUs; cluster.split reads a copy of
# it through its file= list (it deletes the files that list names).
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
# cluster.split takes a column file only through its file= list, and it
# DELETES the files the list names (its own split files, to it): it is given
# a copy of dist.column (byte for byte mnw's; docs/FORMATS.md says so)
mkdir w && cp o/dist.column w/dist.column && cp c.count_table w/c.count_table
printf 'none\ncount\nw/dist.column w/c.count_table\n' > split.files
mothur "#set.current(processors=1); cluster.split(file=split.files, method=average, cutoff=0.10)" > mothur-split.out 2>&1
check "mothur cluster.split reads a copy of dist.column as written (file= list): 120 sequences, the levels to 0.04 as cluster's" \
    '[ -s split.an.list ] && ! grep -qi "\[error\]" mothur-split.out && [ "$(awk -F"\t" "\$1==\"unique\"{print \$2}" split.an.list)" = 120 ] &&
     cmp -s <(awk -F"\t" "NR>1 && NR<=5 {print \$1, \$2}" split.an.list) <(awk -F"\t" "NR>1 && NR<=5 {print \$1, \$2}" c.an.list)' ||
    grep -i error mothur-split.out | head -3 | sed 's/^/#   /'
check "... and it deleted the copy it was given (why it gets a copy), OUTDIR's dist.column untouched" \
    '[ ! -e w/dist.column ] && cmp -s o/dist.column <(zcat o/dist.column.gz)'
check "clustering at 0.03-0.10 merged something (distances are real)" '[ "$(awk "NR>2{print \$2}" p.an.list | sort -n | head -1)" -lt 120 ]'
finish
