# t_prune_opts.sh - the options of the filter before the DP (issue 39, step
# 2: --prune auto|yes|no, --cutoff-scope dist|all), with real runs of mnw on
# real 16S genes (tests/data/16s-200.fa) and on pairs built at the cutoff:
#  - --cutoff-scope all: pairs.tsv.gz and alignments.paf.gz hold exactly the
#    lines of the unfiltered run's files whose pair is within the cutoff (the
#    pairs of a --cutoff-scope dist run's dist.column.gz, mnw's own test
#    "not distance > cutoff"), for --iddef vsearch2 and needle, at cutoffs equal
#    to a built pair's distance (0.125 and 0.0625 exactly: 50 and 25
#    substitutions in 400 bases; the pair is kept, and dropped 1e-7 below)
#    and at 0.03 and 0.1 on 100 real genes; dist.column.gz and dist.column
#    are byte for byte the --cutoff-scope dist run's, whose pairs.tsv.gz and
#    PAF are the unfiltered run's;
#  - refusals, each exit 2 with its message and OUTDIR not created (or, an
#    earlier run's OUTDIR with --force, left as it was): --cutoff-scope all
#    without --cutoff, with dist.phylip (--phylip or --outputs), a bad value;
#    --prune yes with no cutoff, with pairs.tsv.gz or PAF unfiltered, with
#    dist.phylip, for vsearch0 and mothur-nogaps, at a cutoff where the
#    bound proves nothing; a bad --prune; the same from a config file;
#  - mnw.log's line "filter before the DP: on|off ... why" for on (auto,
#    dist or scope all; yes with free end gaps) and off (no cutoff, phylip,
#    pairs without scope all, vsearch0, --prune no, free end gaps under
#    auto, a cutoff where it cannot pay), and the outputs of every on run
#    byte for byte those of the same run with --prune no;
#  - the bookmark records cutoff-scope (never prune); a resume asking for
#    another scope is refused (exit 2, both named, OUTDIR unchanged); a
#    stopped run resumed with --prune yes ends byte-identical to the
#    uninterrupted run; a bookmark without the setting (an older mnw) is
#    resumed as dist, and its resume with --cutoff-scope all is refused;
#  - two MPI ranks (mpirun --oversubscribe -np 2, both aligning): --prune no
#    and auto write identical outputs, equal to the one-process run's, with
#    --cutoff-scope all (so the scope reaches the remote rank's work lists).
source "$(dirname "$0")/../lib.sh"
cd "$TMP" || exit 1
opts=(-q --bind no --gpus none -t 2)
awk '/^>/ { n++ } n <= 100' "$TDATA/16s-200.fa" > s100.fa
# built.fa: 20 real genes cut to 400 bases (0-19), and two copies of the first with
# every 8th (m8, 20) or 16th (m16, 21) base replaced: distance 50/400 = 0.125 and
# 25/400 = 0.0625 from it (and from each other), exact in binary
awk '/^>/ { if (s != "") print substr(s, 1, 400); if (++n > 20) exit; print; s = ""; next } { s = s $0 }
     END { if (n <= 20) print substr(s, 1, 400) }' "$TDATA/16s-200.fa" > built.fa
first=$(awk 'NR == 2' built.fa)
mutate() { # mutate STEP : the first gene with every STEP-th base replaced (A>C>G>T>A)
    awk -v s="$first" -v k="$1" 'BEGIN { n = split("ACGT", b, ""); for (i = 1; i <= n; i++) nx[b[i]] = b[i % n + 1]
        o = ""; for (i = 1; i <= length(s); i++) { c = substr(s, i, 1); o = o ((i % k == 0 && c in nx) ? nx[c] : c) }
        print o }'
}
{ echo ">m8"; mutate 8; echo ">m16"; mutate 16; } >> built.fa
id1=$(awk 'NR == 1 { print substr($1, 2) }' built.fa)
check "built.fa: 22 genes, the first 400 bases of ACGT only (its mutated copies differ in 50 and 25 bases)" \
    '[ "$(grep -c "^>" built.fa)" -eq 22 ] && [[ $first =~ ^[ACGT]{400}$ ]]'

# keep_ids DIST_DIR FILE.gz C1 C2 : the lines of FILE.gz (the first kept when
# C1 is 3: pairs.tsv's header) whose ids, columns C1 and C2, are a pair of
# DIST_DIR/dist.column.gz
keep_ids() {
    awk -v c1="$3" -v c2="$4" 'NR == FNR { keep[$1 " " $2] = 1; next } (c1 == 3 && FNR == 1) || (($c1 " " $c2) in keep)' \
        <(zcat "$1/dist.column.gz") <(zcat "$2")
}
nlines() { zcat "$1" | wc -l; }
# bm_core DIR : the bookmark's settings, watermark and outputs (not its
# version, pruned count or CRC: the pruned count differs with the filter)
bm_core() { grep -E '^(setting|watermark|output|blocks) ' "$1/mnw.bookmark"; }
# same_outs A B : every output file of A is in B with the same bytes, and the other way round
same_outs() {
    local f n=0
    for f in pairs.tsv.gz dist.column.gz dist.phylip alignments.paf.gz dist.column; do
        [ -e "$1/$f" ] || [ -e "$2/$f" ] || continue
        cmp -s "$1/$f" "$2/$f" || return 1
        n=$((n + 1))
    done
    [ "$n" -gt 0 ]
}

# 1. --cutoff-scope all against the unfiltered run
scope_case() { # scope_case SET IDDEF CUT
    local set=$1 iddef=$2 cut=$3 w=$1-$2-$3
    local wl=500
    [ "$set" = built ] && wl=40
    local o=("${opts[@]}" --worklist-size "$wl" --iddef "$iddef" --outputs "pairs,dist,paf,dist-plain")
    [ -d "full-$set-$iddef" ] || "$MNW" -i "$set.fa" -o "full-$set-$iddef" "${o[@]}"
    "$MNW" -i "$set.fa" -o "d-$w" "${o[@]}" --cutoff "$cut"
    "$MNW" -i "$set.fa" -o "a-$w" "${o[@]}" --cutoff "$cut" --cutoff-scope all
    local rc=$?
    check "$set $iddef --cutoff $cut: --cutoff-scope dist leaves pairs.tsv.gz and PAF whole (the unfiltered run's bytes)" \
        'cmp -s d-$w/pairs.tsv.gz full-$set-$iddef/pairs.tsv.gz && cmp -s d-$w/alignments.paf.gz full-$set-$iddef/alignments.paf.gz'
    check "$set $iddef --cutoff $cut --cutoff-scope all: exit 0; dist.column.gz and dist.column the scope dist run's bytes" \
        '[ $rc -eq 0 ] && cmp -s a-$w/dist.column.gz d-$w/dist.column.gz && cmp -s a-$w/dist.column d-$w/dist.column'
    check "$set $iddef --cutoff $cut --cutoff-scope all: pairs.tsv.gz = the unfiltered run's lines of the pairs within the cutoff ($(($(nlines "a-$w/pairs.tsv.gz") - 1)) of $(($(nlines "full-$set-$iddef/pairs.tsv.gz") - 1)))" \
        'cmp -s <(zcat a-$w/pairs.tsv.gz) <(keep_ids d-$w full-$set-$iddef/pairs.tsv.gz 3 4) &&
         [ "$(nlines a-$w/pairs.tsv.gz)" -eq $(($(nlines d-$w/dist.column.gz) + 1)) ] &&
         [ "$(nlines a-$w/pairs.tsv.gz)" -gt 1 ] && [ "$(nlines a-$w/pairs.tsv.gz)" -lt "$(nlines full-$set-$iddef/pairs.tsv.gz)" ]'
    check "$set $iddef --cutoff $cut --cutoff-scope all: alignments.paf.gz = the unfiltered run's lines of the pairs within the cutoff" \
        'cmp -s <(zcat a-$w/alignments.paf.gz) <(keep_ids d-$w full-$set-$iddef/alignments.paf.gz 1 6) &&
         [ "$(nlines a-$w/alignments.paf.gz)" -eq "$(nlines d-$w/dist.column.gz)" ]'
    check "$set $iddef --cutoff $cut --cutoff-scope all: the bookmark records cutoff-scope all, no prune; mnw verify ok" \
        'grep -qx "setting cutoff-scope all" a-$w/mnw.bookmark && grep -qx "setting cutoff-scope dist" d-$w/mnw.bookmark &&
         ! grep -q "^setting prune" a-$w/mnw.bookmark && "$MNW" verify a-$w >/dev/null'
}
for iddef in vsearch2 needle; do
    for cut in 0.125 0.0625; do scope_case built $iddef $cut; done
    check "built $iddef: the pairs at distance 0.125 / 0.0625 exactly are kept at cutoff 0.125 / 0.0625 (pairs.tsv.gz and PAF)" \
        'zcat a-built-$iddef-0.125/pairs.tsv.gz | grep -qP "^20\t0\t" && zcat a-built-$iddef-0.125/alignments.paf.gz | grep -q "^m8	400	.*de:f:0.125000	" &&
         zcat a-built-$iddef-0.0625/pairs.tsv.gz | grep -qP "^21\t0\t" && zcat a-built-$iddef-0.0625/pairs.tsv.gz | grep -qP "^21\t20\t" &&
         ! zcat a-built-$iddef-0.0625/pairs.tsv.gz | grep -qP "^20\t0\t" &&
         zcat d-built-$iddef-0.125/dist.column.gz | grep -qx "m8 $id1 0.125"'
    "$MNW" -i built.fa -o below-$iddef "${opts[@]}" --worklist-size 40 --iddef $iddef --outputs pairs,dist,paf --cutoff 0.1249999 --cutoff-scope all
    check "built $iddef --cutoff 0.1249999 --cutoff-scope all: the pair at 0.125 has no line in pairs.tsv.gz, PAF or dist" \
        '! zcat below-$iddef/pairs.tsv.gz | grep -qP "^20\t0\t" && zcat below-$iddef/pairs.tsv.gz | grep -qP "^21\t0\t" && ! zcat below-$iddef/alignments.paf.gz | grep -q "^m8	" &&
         ! zcat below-$iddef/dist.column.gz | grep -q "^m8 $id1 "'
    for cut in 0.03 0.1; do scope_case s100 $iddef $cut; done
done

# 2. refusals
refused() { # refused LABEL PATTERN ARGS... : exit 2, the message, no OUTDIR
    local label=$1 pat=$2
    shift 2
    rm -rf bad
    "$MNW" -i s100.fa -o bad "${opts[@]}" "$@" >bad.out 2>&1
    local rc=$?
    check "refused: $label (exit 2, named, OUTDIR not created)" \
        '[ $rc -eq 2 ] && grep -qF -- "$pat" bad.out && [ ! -e bad ]' || sed 's/^/#   /' bad.out | head -3
}
refused "--cutoff-scope all without --cutoff" \
    "mnw: --cutoff-scope all: it filters pairs.tsv.gz, alignments.paf.gz and userout.tsv.gz by --cutoff, and no --cutoff is given" --cutoff-scope all
refused "--cutoff-scope all --phylip" "mnw: --cutoff-scope all and dist.phylip: dist.phylip is a full matrix and needs every pair" \
    --cutoff 0.1 --cutoff-scope all --phylip
refused "--cutoff-scope all --outputs dist,phylip" "--cutoff-scope all drops the pairs beyond --cutoff 0.1 (leave phylip out" \
    --cutoff 0.1 --cutoff-scope all --outputs dist,phylip
refused "--cutoff-scope some" "command line: cutoff-scope takes dist or all, not 'some'" --cutoff 0.1 --cutoff-scope some
refused "--cutoff --outputs pairs (scope dist)" "give --cutoff-scope all to filter pairs.tsv.gz, alignments.paf.gz and userout.tsv.gz" \
    --cutoff 0.1 --outputs pairs
refused "--prune maybe" "command line: prune takes auto, yes or no, not 'maybe'" --prune maybe
refused "--prune yes without --cutoff" "mnw: error: --prune yes: the filter cannot be used: no --cutoff, so every pair is in the outputs" --prune yes
refused "--prune yes --cutoff 0.1 (pairs.tsv.gz unfiltered)" \
    "--prune yes: the filter cannot be used: pairs.tsv.gz (without --cutoff-scope all) needs every pair, not only those within --cutoff" --prune yes --cutoff 0.1
refused "--prune yes --cutoff 0.1 --outputs dist,paf" "--prune yes: the filter cannot be used: alignments.paf.gz (without --cutoff-scope all) needs every pair" \
    --prune yes --cutoff 0.1 --outputs dist,paf
refused "--prune yes --cutoff 0.1 --outputs dist,phylip" "--prune yes: the filter cannot be used: dist.phylip (a full matrix) needs every pair" \
    --prune yes --cutoff 0.1 --outputs dist,phylip
refused "--prune yes --iddef vsearch0" "--prune yes: the filter cannot be used: no bound is proven for --iddef vsearch0" --prune yes --cutoff 0.1 --outputs dist --iddef vsearch0
refused "--prune yes --iddef mothur-nogaps" "--prune yes: the filter cannot be used: no bound is proven for --iddef mothur-nogaps" \
    --prune yes --cutoff 0.1 --outputs dist --iddef mothur-nogaps
refused "--prune yes --cutoff 0.2 --iddef mothur-onegap (one error takes q q-grams; no edit-distance bound)" \
    "--prune yes: the filter cannot be used: at --cutoff 0.2 one error can take 8 q-grams (q = 8), so the q-gram bound proves nothing; the edit-distance bound is not proven for --iddef mothur-onegap" \
    --prune yes --cutoff 0.2 --outputs dist --iddef mothur-onegap
printf 'cutoff = 0.1\nprune = yes\n' > y.conf
refused "prune = yes in a config file (pairs.tsv.gz unfiltered)" "--prune yes: the filter cannot be used: pairs.tsv.gz (without --cutoff-scope all)" -c y.conf
printf 'cutoff = 0.1\n\nprune = sometimes\n' > bad.conf
refused "prune = sometimes in a config file" "bad.conf:3: prune takes auto, yes or no, not 'sometimes'" -c bad.conf
printf 'cutoff-scope = all\nphylip = yes\ncutoff = 0.1\n' > ph.conf
refused "cutoff-scope = all with phylip = yes in a config file" "--cutoff-scope all and dist.phylip" -c ph.conf
# --force over an earlier run: still nothing changed
"$MNW" -i s100.fa -o keep "${opts[@]}" --outputs dist --cutoff 0.1
snap() { (cd "$1" && for f in *; do echo "$f $(cksum < "$f")"; done); }
before=$(snap keep)
"$MNW" -i s100.fa -o keep "${opts[@]}" --force --prune yes --cutoff 0.1 >bad.out 2>&1
rc=$?
check "--force --prune yes where it is refused: exit 2, the earlier run's OUTDIR unchanged" \
    '[ $rc -eq 2 ] && grep -qF -- "--prune yes: the filter cannot be used: pairs.tsv.gz" bad.out && [ "$(snap keep)" = "$before" ]'

# 3. mnw.log's line, and the same bytes with the filter on as with --prune no
logline() { sed -n 's/.* INFO filter before the DP: //p' "$1/mnw.log"; }
onoff() { # onoff LABEL WANT ARGS... : the log line starts with WANT; with the filter on, the bytes of --prune no
    local label=$1 want=$2 n=$3
    shift 3
    rm -rf L Lno
    "$MNW" -i s100.fa -o L "${opts[@]}" --worklist-size 500 "$@"
    local rc=$? line
    line=$(logline L)
    check "mnw.log, $label: \"$line\"" '[ $rc -eq 0 ] && [[ $line == "$want"* ]] && [ "$(grep -c "filter before the DP" L/mnw.log)" -eq 1 ]'
    if [ "$n" = same ]; then
        "$MNW" -i s100.fa -o Lno "${opts[@]}" --worklist-size 500 "$@" --prune no
        check "$label: the outputs are byte for byte those of --prune no (whose log says off (--prune no))" \
            'same_outs L Lno && cmp -s <(bm_core L) <(bm_core Lno) && [ "$(logline Lno)" = "off (--prune no)" ]'
    fi
}
onoff "--outputs dist --cutoff 0.03 (auto)" "on (--prune auto): --iddef vsearch2, --cutoff 0.03, the q-gram bound (q 8, the band score bound, 9 diagonals), the edit-distance bound (the guided band's score)" same \
    --outputs dist --cutoff 0.03
onoff "--outputs pairs,dist,paf --cutoff 0.1 --cutoff-scope all (auto)" "on (--prune auto): --iddef vsearch2, --cutoff 0.1, the q-gram bound (q 8" same \
    --outputs pairs,dist,paf --cutoff 0.1 --cutoff-scope all
onoff "--iddef needle --outputs dist --cutoff 0.05 (auto)" "on (--prune auto): --iddef needle, --cutoff 0.05, the q-gram bound (q 8, the length bound), the edit-distance bound (the length of the shorter sequence)" same \
    --iddef needle --outputs dist --cutoff 0.05
onoff "--free-end-gaps --prune yes" "on (--prune yes): --iddef vsearch2, --cutoff 0.03" same --outputs dist --cutoff 0.03 --free-end-gaps --prune yes
onoff "no --cutoff" "off: no --cutoff, so every pair is in the outputs" - --outputs dist
onoff "--cutoff 0.1 (pairs.tsv.gz unfiltered)" "off: pairs.tsv.gz (without --cutoff-scope all) needs every pair" - --cutoff 0.1
onoff "--cutoff 0.1 --outputs dist,phylip" "off: dist.phylip (a full matrix) needs every pair" - --cutoff 0.1 --outputs dist,phylip
onoff "--iddef vsearch0" "off: no bound is proven for --iddef vsearch0" - --cutoff 0.03 --outputs dist --iddef vsearch0
onoff "--prune no" "off (--prune no)" - --cutoff 0.03 --outputs dist --prune no
onoff "--free-end-gaps (auto)" "off: with --free-end-gaps a long terminal gap costs nothing, so for --iddef vsearch2 the q-gram bound is weak; the edit-distance bound needs end gaps penalised" - \
    --cutoff 0.03 --outputs dist --free-end-gaps
onoff "--cutoff 0.11 --outputs dist (auto: the edit-distance bound alone)" "on (--prune auto): --iddef vsearch2, --cutoff 0.11, not the q-gram bound, the edit-distance bound (the guided band's score)" same \
    --cutoff 0.11 --outputs dist
onoff "--cutoff 0.2 --outputs dist (auto: neither bound pays)" "off: at --cutoff 0.2 one error can take 8 q-grams (q = 8), so the q-gram bound proves nothing; at --cutoff 0.2 (above 0.15) the edit-distance bound prunes too few pairs to pay" - \
    --cutoff 0.2 --outputs dist
onoff "--iddef mothur-onegap --cutoff 0.05 (auto: no edit-distance bound)" "on (--prune auto): --iddef mothur-onegap, --cutoff 0.05, the q-gram bound (q 8, the band score bound, 9 diagonals), not the edit-distance bound" same \
    --iddef mothur-onegap --cutoff 0.05 --outputs dist
printf 'outputs = pairs,paf\ncutoff = 0.03\ncutoff-scope = all\nprune = yes\n' > on.conf
onoff "from a config file (cutoff-scope = all, prune = yes)" "on (--prune yes): --iddef vsearch2, --cutoff 0.03" same -c on.conf
check "cutoff-scope = all from a config file: the bookmark records it" 'grep -qx "setting cutoff-scope all" L/mnw.bookmark'

# 4. resume: the scope is the run's, --prune is free
seal() { sed -i '/^end /d' "$1"; echo "end $(gzip -c < "$1" | tail -c 8 | head -c 4 | od -An -tx4 | tr -d ' \n')" >> "$1"; }
ro=(-i "$TDATA/16s-200.fa" -q --bind no --gpus none -t 1 --worklist-size 200 --outputs "pairs,dist,paf" --cutoff 0.03)
"$MNW" -o whole-all "${ro[@]}" --cutoff-scope all
"$MNW" -o whole-dist "${ro[@]}"
term_mid_run st-all "${ro[@]}" --cutoff-scope all --prune no # slow enough to stop mid-run; the resume turns the filter on
check "a --cutoff-scope all run stopped mid-run (exit 3; watermark $(sed -n 's/^watermark //p' st-all/mnw.bookmark) of 19900)" \
    '[ $rc -eq 3 ] && [ "$(sed -n "s/^watermark //p" st-all/mnw.bookmark)" -lt 19900 ]'
before=$(snap st-all)
"$MNW" -q --resume st-all --gpus none --cutoff-scope dist >res.out 2>&1
rc=$?
check "its resume with --cutoff-scope dist: refused (exit 2), both named, OUTDIR unchanged" \
    '[ $rc -eq 2 ] && grep -qF "the run was made with cutoff-scope all, and this command asks for cutoff-scope dist" res.out &&
     [ "$(snap st-all)" = "$before" ]' || sed 's/^/#   /' res.out | head -3
"$MNW" -q --resume st-all --gpus none -t 2 --prune yes --cutoff-scope all >res.out 2>&1
rc=$?
check "its resume with --prune yes (and the same scope again): exit 0, byte for byte the uninterrupted run, the log says on (--prune yes)" \
    '[ $rc -eq 0 ] && same_outs st-all whole-all && cmp -s <(bm_core st-all) <(bm_core whole-all) &&
     [[ "$(logline st-all | tail -1)" == "on (--prune yes)"* ]]' || sed 's/^/#   /' res.out | head -3
term_mid_run st-old "${ro[@]}" --prune no
check "a --cutoff-scope dist run stopped mid-run (exit 3)" '[ $rc -eq 3 ]'
sed -i '/^setting cutoff-scope /d' st-old/mnw.bookmark
seal st-old/mnw.bookmark
before=$(snap st-old)
"$MNW" -q --resume st-old --gpus none --cutoff-scope all >res.out 2>&1
rc=$?
check "a bookmark without cutoff-scope (an older mnw's), resumed with --cutoff-scope all: refused (exit 2, as dist), unchanged" \
    '[ $rc -eq 2 ] && grep -qF "the run was made with cutoff-scope dist, and this command asks for cutoff-scope all" res.out &&
     [ "$(snap st-old)" = "$before" ]' || sed 's/^/#   /' res.out | head -3
"$MNW" -q --resume st-old --gpus none -t 2 >res.out 2>&1
rc=$?
check "it resumes as dist (the filter turned on by auto, off before): exit 0, byte for byte the uninterrupted run; the new bookmark records cutoff-scope dist" \
    '[ $rc -eq 0 ] && same_outs st-old whole-dist && cmp -s <(bm_core st-old) <(bm_core whole-dist) &&
     grep -qx "setting cutoff-scope dist" st-old/mnw.bookmark' || sed 's/^/#   /' res.out | head -3

# 5. two MPI ranks, both aligning (work lists of 100 pairs)
mo=(-i s100.fa -q --bind no --gpus none -t 1 --worklist-size 100 --outputs "pairs,dist,paf" --cutoff 0.03 --cutoff-scope all)
"$MNW" -o one "${mo[@]}"
"${MPIRUN[@]}" -np 2 "$MNW" -o mpi-auto "${mo[@]}" > mpi.out 2>&1
rc1=$?
"${MPIRUN[@]}" -np 2 "$MNW" -o mpi-no "${mo[@]}" --prune no >> mpi.out 2>&1
rc2=$?
check "2 MPI ranks, --prune auto and no: exit 0, the log says on and off" \
    '[ $rc1 -eq 0 ] && [ $rc2 -eq 0 ] && [[ "$(logline mpi-auto)" == "on (--prune auto)"* ]] && [ "$(logline mpi-no)" = "off (--prune no)" ]' ||
    sed 's/^/#   /' mpi.out | head -5
check "2 MPI ranks: rank 1 aligned work lists too" 'grep -qE "INFO rank 1 \(.*workers\): [1-9][0-9]* work lists" mpi-auto/mnw.log' ||
    grep 'rank 1' mpi-auto/mnw.log | sed 's/^/#   /' | head -5
check "2 MPI ranks: --prune no and auto write the same bytes, those of one process (--cutoff-scope all on the remote rank too)" \
    'same_outs mpi-auto mpi-no && same_outs mpi-auto one'
finish
