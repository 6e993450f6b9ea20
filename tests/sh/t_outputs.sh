# t_outputs.sh - --outputs LIST (docs/FORMATS.md, "Which outputs"), with real
# runs on real 16S genes (the first 100 of 16s-200; the stop and resume on all
# 200):
#  - --outputs dist writes dist.column.gz alone, byte for byte the default
#    run's; pairs,phylip (named in any order) writes pairs.tsv.gz and
#    dist.phylip, the same bytes as a default run's and a --phylip run's;
#    --phylip is pairs,dist,phylip; the log and the bookmark name the list
#    (canonical order);
#  - dist-plain writes dist.column, dist.column.gz's text; --cutoff filters
#    it as it filters dist.column.gz;
#  - an empty list, an empty name, an unknown name, a name twice, on the
#    command line or in a config file: exit 2, the message names the item
#    (and the file and line), OUTDIR not created;
#  - --cigar with outputs none of which holds a CIGAR (dist, phylip,
#    dist-plain): exit 2 naming both options, OUTDIR not created, also from
#    a config file; --outputs paf --cigar is accepted;
#  - a run stopped by SIGTERM with --outputs dist: the resume (its outputs
#    taken from the bookmark) ends byte-identical to the uninterrupted run;
#    a resume asking for other outputs is refused (exit 2) with both lists
#    named, nothing changed in OUTDIR; the same list again is accepted;
#  - mnw verify checks exactly the outputs the run writes;
#  - a bookmark of an mnw from before --outputs ("setting phylip no"): verify
#    and --resume read it as pairs,dist.
source "$(dirname "$0")/../lib.sh"
cd "$TMP"
cp "$TDATA/16s-200.fa" s200.fa
awk '/^>/ { n++ } n <= 100' s200.fa > s100.fa
opts=(-q --bind no --gpus none -t 2 --worklist-size 500)
# outs DIR : the output files of DIR, sorted, on one line
outs() { (cd "$1" && ls pairs.tsv.gz dist.column.gz dist.phylip alignments.paf.gz dist.column 2>/dev/null | sort | tr '\n' ' '); }
setting() { sed -n "s/^setting $2 //p" "$1/mnw.bookmark"; }
snap() { (cd "$1" && for f in *; do echo "$f $(cksum < "$f")"; done); }
crc_hex() { gzip -c < "$1" | tail -c 8 | head -c 4 | od -An -tx4 | tr -d ' \n'; }
seal() { sed -i '/^end /d' "$1"; echo "end $(crc_hex "$1")" >> "$1"; }

"$MNW" -i s100.fa -o ref "${opts[@]}"
"$MNW" -i s100.fa -o refph "${opts[@]}" --phylip
check "the default run writes pairs.tsv.gz and dist.column.gz; its bookmark says outputs pairs,dist" \
    '[ "$(outs ref)" = "dist.column.gz pairs.tsv.gz " ] && [ "$(setting ref outputs)" = "pairs,dist" ]'
check "--phylip: pairs,dist,phylip (the three files, the bookmark's list)" \
    '[ "$(outs refph)" = "dist.column.gz dist.phylip pairs.tsv.gz " ] && [ "$(setting refph outputs)" = "pairs,dist,phylip" ]'

"$MNW" -i s100.fa -o d "${opts[@]}" --outputs dist
rc=$?
check "--outputs dist: exit 0, dist.column.gz alone" '[ $rc -eq 0 ] && [ "$(outs d)" = "dist.column.gz " ]'
check "--outputs dist: dist.column.gz byte for byte the default run's" 'cmp -s d/dist.column.gz ref/dist.column.gz'
check "--outputs dist: the log and the bookmark name the list" \
    'grep -q "INFO outputs: dist.column.gz; counts mode" d/mnw.log && [ "$(setting d outputs)" = "dist" ]'

"$MNW" -i s100.fa -o pp "${opts[@]}" --outputs phylip,pairs
check "--outputs phylip,pairs: pairs.tsv.gz and dist.phylip, no dist.column.gz" \
    '[ "$(outs pp)" = "dist.phylip pairs.tsv.gz " ]'
check "--outputs phylip,pairs: the same bytes as the default and --phylip runs" \
    'cmp -s pp/pairs.tsv.gz ref/pairs.tsv.gz && cmp -s pp/dist.phylip refph/dist.phylip'
check "--outputs phylip,pairs: the bookmark spells it pairs,phylip" '[ "$(setting pp outputs)" = "pairs,phylip" ]'
"$MNW" -i s100.fa -o plain "${opts[@]}" --outputs dist-plain
check "--outputs dist-plain: dist.column alone, the text of the default run's dist.column.gz" \
    '[ "$(outs plain)" = "dist.column " ] && cmp -s plain/dist.column <(zcat ref/dist.column.gz)'
"$MNW" -i s100.fa -o plaincut "${opts[@]}" --outputs dist,dist-plain --cutoff 0.2
check "--outputs dist,dist-plain --cutoff 0.2: both filtered alike, the distances <= 0.2 of the full run" \
    'cmp -s plaincut/dist.column <(zcat plaincut/dist.column.gz) && cmp -s plaincut/dist.column <(zcat ref/dist.column.gz | awk "\$3 <= 0.2") &&
     [ -s plaincut/dist.column ] && [ "$(wc -l < plaincut/dist.column)" -lt 4950 ]'
"$MNW" -i s100.fa -o cfg "${opts[@]}" -c <(printf 'outputs = dist\n')
check "outputs = dist in a config file: dist.column.gz alone, the same bytes" \
    '[ "$(outs cfg)" = "dist.column.gz " ] && cmp -s cfg/dist.column.gz ref/dist.column.gz'

# refused LABEL PATTERN ARGS... : exit 2, the message matches, no OUTDIR
refused() {
    local label=$1 pat=$2
    shift 2
    rm -rf bad
    "$MNW" -i s100.fa -o bad "${opts[@]}" "$@" >bad.out 2>&1
    local rc=$?
    check "refused: $label (exit 2, named, OUTDIR not created)" \
        '[ $rc -eq 2 ] && grep -q -- "$pat" bad.out && [ ! -e bad ]' || sed 's/^/#   /' bad.out | head -3
}
refused "an empty list on the command line" "option 'outputs' needs a value" --outputs ''
printf 'outputs =\n' > empty.conf
refused "an empty list in a config file" "empty.conf:1: option 'outputs' needs a value" -c empty.conf
refused "an empty name" "outputs 'pairs,,dist': an empty name" --outputs pairs,,dist
refused "a trailing comma" "outputs 'dist,': an empty name" --outputs dist,
refused "an unknown name" "unknown output 'paff' (outputs: pairs, dist, phylip, paf, dist-plain, userout)" --outputs pairs,paff
refused "a name twice" "outputs 'dist,pairs,dist': dist named twice" --outputs dist,pairs,dist
printf '# outputs\n\noutputs = pairs;dist\n' > bad.conf
refused "a bad list in a config file, named with its line" "bad.conf:3: outputs 'pairs;dist': unknown output" -c bad.conf
# --cigar where no output holds a CIGAR (issue 38: it exited 0, silently)
refused "--outputs dist --cigar" "--cigar: it adds each alignment's CIGAR to pairs.tsv.gz, and --outputs dist writes no output that holds a CIGAR" --outputs dist --cigar
refused "--outputs dist,phylip,dist-plain --cigar" "--outputs dist,phylip,dist-plain writes no output that holds a CIGAR (add pairs" --outputs dist,phylip,dist-plain --cigar
printf 'cigar = yes\noutputs = dist\n' > cig.conf
refused "cigar = yes with outputs = dist in a config file" "--outputs dist writes no output that holds a CIGAR" -c cig.conf
"$MNW" -i s100.fa -o cigpaf "${opts[@]}" --outputs paf --cigar >cig.out 2>&1
rc=$?
check "--outputs paf --cigar is accepted (PAF holds the CIGAR): exit 0 ($rc), alignments.paf.gz alone" \
    '[ $rc -eq 0 ] && [ "$(outs cigpaf)" = "alignments.paf.gz " ]'

# --- stopped and resumed ---
"$MNW" -i s200.fa -o full "${opts[@]}" --outputs dist --worklist-size 100
term_mid_run st -i s200.fa "${opts[@]}" --outputs dist --worklist-size 100 -t 1
check "--outputs dist stopped by SIGTERM: exit 3, the bookmark short of the end" \
    '[ $rc -eq 3 ] && [ "$(sed -n "s/^watermark //p" st/mnw.bookmark)" -lt 19900 ]'
before=$(snap st)
"$MNW" -q --resume st --outputs pairs,dist >res.out 2>&1
rc=$?
check "a resume asking for other outputs: exit 2, both lists named" \
    '[ $rc -eq 2 ] && grep -q "made with outputs dist, and this command asks for outputs pairs,dist" res.out' ||
    sed 's/^/#   /' res.out | head -3
"$MNW" -q --resume st --phylip >res.out 2>&1
rc=$?
check "a resume adding --phylip (the default outputs and phylip): exit 2, named" \
    '[ $rc -eq 2 ] && grep -q "made with outputs dist, and this command asks for outputs pairs,dist,phylip" res.out'
check "the refused resumes changed nothing in OUTDIR" '[ "$(snap st)" = "$before" ]'
"$MNW" -q --resume st --outputs dist -t 2 --gpus none
rc=$?
check "the resume with the same list: exit 0, dist.column.gz alone, identical to the uninterrupted run" \
    '[ $rc -eq 0 ] && [ "$(outs st)" = "dist.column.gz " ] && cmp -s st/dist.column.gz full/dist.column.gz'

out=$("$MNW" verify d 2>&1)
rc=$?
check "mnw verify of a --outputs dist run: exit 0, dist.column.gz ok, no other output asked for" \
    '[ $rc -eq 0 ] && [[ $out == *"d/dist.column.gz: ok"* ]] && [[ $out != *pairs.tsv.gz* ]]'

# --- a bookmark from before --outputs ---
cp -r ref old
sed -i 's/^setting outputs pairs,dist$/setting phylip no/' old/mnw.bookmark
seal old/mnw.bookmark
out=$("$MNW" verify old 2>&1)
rc=$?
check "verify of a bookmark with 'setting phylip no' (before --outputs): exit 0, both outputs ok" \
    '[ $rc -eq 0 ] && grep -q "^setting phylip no$" old/mnw.bookmark && [[ $out == *"old/pairs.tsv.gz: ok"* ]] && [[ $out == *"old/dist.column.gz: ok"* ]]'
"$MNW" -q --resume old --gpus none >res.out 2>&1
rc=$?
check "--resume of it: exit 0, the run complete, nothing rewritten" \
    '[ $rc -eq 0 ] && cmp -s old/pairs.tsv.gz ref/pairs.tsv.gz && cmp -s old/dist.column.gz ref/dist.column.gz'
"$MNW" -q --resume old --outputs dist --gpus none >res.out 2>&1
rc=$?
check "--resume of it with --outputs dist: refused (pairs,dist from phylip no)" \
    '[ $rc -eq 2 ] && grep -q "made with outputs pairs,dist, and this command asks for outputs dist" res.out'
finish
