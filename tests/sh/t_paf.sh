# t_paf.sh - alignments.paf.gz (--outputs ... paf; docs/FORMATS.md, "alignments.paf.gz")
# on real 16S genes, read back by a strict PAF reader that shares no code
# with mnw (tests/tools/paf_check.py: every column and tag of its type, pair
# order, names and lengths of the FASTA, both sequences whole, every CIGAR
# consumed and re-scored to AS:i:, matches / block length / NM:i: from it,
# de:f: = 1 - the identity of pairs.tsv and of vsearch2 computed there):
#  - the first 100 genes of 16s-200 in the default scoring; 80 RDP gold genes
#    (40 with IUPAC codes) with affine gaps, free end gaps and mothur-onegap
#    (under MNW_TEST_QUICK, the sanitizer runs: 50 and 50 genes, the stop and
#    resume on 100 instead of 200);
#  - the reader itself refuses a file with one score and one strand wrong;
#  - zcat and Python's gzip read it whole (one gzip member per work list);
#  - --outputs paf alone writes it alone, byte for byte the run with every
#    output, and the log and bookmark name it;
#  - two MPI ranks, the trace-back thread, and a run stopped by SIGTERM and
#    resumed write the same bytes; mnw verify checks it.
source "$(dirname "$0")/../lib.sh"
cd "$TMP"
# the sanitizer runs (MNW_TEST_QUICK): the same checks on fewer genes
nm=100 ns=200 ng=80
[ -n "${MNW_TEST_QUICK:-}" ] && nm=50 ns=100 ng=50
pm=$((nm * (nm - 1) / 2)) ps=$((ns * (ns - 1) / 2))
awk -v k=$nm '/^>/ { n++ } n <= k' "$TDATA/16s-200.fa" > s100.fa
awk -v k=$ns '/^>/ { n++ } n <= k' "$TDATA/16s-200.fa" > s200.fa
gold80 g.fa
awk -v k=$ng '/^>/ { n++ } n <= k' g.fa > gold80.fa
PAF_CHECK=(python3 "$ROOT/tests/tools/paf_check.py")
opts=(-q --bind no --gpus none -t 2 --worklist-size 500)
setting() { sed -n "s/^setting $2 //p" "$1/mnw.bookmark"; }

# paf_ok LABEL DIR FASTA SCORING... : the reader's checks of DIR's PAF, each an ok line
paf_ok() {
    local label=$1 dir=$2 fa=$3 line
    shift 3
    while IFS= read -r line; do
        case $line in
        "ok - "*) check "$label: ${line#ok - }" true ;;
        "not ok - "*) check "$label: ${line#not ok - }" false ;;
        *) echo "#   $line" ;;
        esac
    done < <("${PAF_CHECK[@]}" "$fa" "$dir/alignments.paf.gz" "$@" --pairs "$dir/pairs.tsv.gz" 2>&1)
}

"$MNW" -i s100.fa -o all "${opts[@]}" --outputs pairs,dist,phylip,paf --cigar
check "pairs,dist,phylip,paf: the four files; the log and the bookmark name them" \
    '[ -s all/alignments.paf.gz ] && [ -s all/pairs.tsv.gz ] && [ -s all/dist.column.gz ] && [ -s all/dist.phylip ] &&
     grep -q "INFO outputs: pairs.tsv.gz, dist.column.gz, dist.phylip, alignments.paf.gz" all/mnw.log &&
     [ "$(setting all outputs)" = "pairs,dist,phylip,paf" ]'
paf_ok "16s, default scoring" all s100.fa 4 -5 10 10 0 --iddef vsearch2
check "zcat reads every member: one line a pair ($pm), 16 columns each" \
    '[ "$(zcat all/alignments.paf.gz | awk -F"\t" "NF == 16" | wc -l)" -eq $pm ] && [ "$(zcat all/alignments.paf.gz | wc -l)" -eq $pm ]'
check "the CIGARs are pairs.tsv's, line for line" \
    'cmp -s <(zcat all/alignments.paf.gz | sed "s/.*\tcg:Z://") <(zcat all/pairs.tsv.gz | tail -n +2 | cut -f12)'

# the reader fails where it should: one score off by one, one strand '*'
zcat all/alignments.paf.gz | awk -F'\t' -v OFS='\t' 'NR == 7 { sub(/^AS:i:/, "", $14); $14 = "AS:i:" ($14 + 1) } NR == 9 { $5 = "*" } 1' |
    gzip > bad.paf.gz
out=$("${PAF_CHECK[@]}" s100.fa bad.paf.gz 4 -5 10 10 0 2>&1)
rc=$?
check "the reader refuses a PAF with a score off by one and a strand '*', naming both lines" \
    '[ $rc -eq 1 ] && [[ $out == *"line 7 (pair 4, 0): the CIGAR re-scores to"* ]] && [[ $out == *"line 9 (pair 4, 2): strand"* ]]' ||
    echo "$out" | sed 's/^/#   /' | head -5

"$MNW" -i s100.fa -o only "${opts[@]}" --outputs paf
check "--outputs paf: alignments.paf.gz alone, byte for byte the run with every output" \
    '[ "$(cd only && ls *.gz dist.phylip 2>/dev/null)" = "alignments.paf.gz" ] && cmp -s only/alignments.paf.gz all/alignments.paf.gz'
check "--outputs paf: the log and the bookmark name it" \
    'grep -q "INFO outputs: alignments.paf.gz; alignments kept as runs" only/mnw.log && [ "$(setting only outputs)" = "paf" ]'
out=$("$MNW" verify only 2>&1)
rc=$?
check "mnw verify of a --outputs paf run: exit 0, alignments.paf.gz ok" '[ $rc -eq 0 ] && [[ $out == *"only/alignments.paf.gz: ok"* ]]'

"$MNW" -i gold80.fa -o gold "${opts[@]}" --outputs pairs,paf --gap-open 16 --gap-extend 4 --free-end-gaps --iddef mothur-onegap
paf_ok "IUPAC genes, affine 16/4, free end gaps, mothur-onegap" gold gold80.fa 4 -5 16 4 1

"${MPIRUN[@]}" -np 2 "$MNW" -i s100.fa -o mpi "${opts[@]}" -t 1 --outputs pairs,dist,phylip,paf --cigar
check "two MPI ranks: the same PAF bytes" 'cmp -s mpi/alignments.paf.gz all/alignments.paf.gz'
"$MNW" -i s100.fa -o tbt "${opts[@]}" --outputs paf --traceback-thread
check "the trace-back thread: the same PAF bytes" 'cmp -s tbt/alignments.paf.gz all/alignments.paf.gz'

# stopped and resumed (lists of 100 pairs, one worker, so the stop lands mid-run)
"$MNW" -i s200.fa -o full "${opts[@]}" --outputs paf --worklist-size 100
term_mid_run st -i s200.fa "${opts[@]}" --outputs paf --worklist-size 100 -t 1
check "--outputs paf stopped by SIGTERM: exit 3, the bookmark short of the end" \
    '[ $rc -eq 3 ] && [ "$(sed -n "s/^watermark //p" st/mnw.bookmark)" -lt $ps ]'
"$MNW" -q --resume st -t 2 --gpus none
rc=$?
check "the resume: exit 0, alignments.paf.gz identical to the uninterrupted run" \
    '[ $rc -eq 0 ] && cmp -s st/alignments.paf.gz full/alignments.paf.gz'
finish
