#!/usr/bin/env bash
# t_identity_tools.sh - checks each identity definition of lib/identity.c
# against the tool it is named after, on alignments made by those tools:
#   vsearch --allpairs_global (--iddef 0..4 via userfields id0..id4, ids),
#   EMBOSS needle ("Identity: n/len (pct%)"),
#   mothur dist.seqs (calc=onegap|eachgap|nogaps, countends=T|F).
# Each aligned row pair goes through `build/tests/test_identity --rows`,
# which converts it to ops + codes and prints mnw_identity() for every
# definition; the tool's own printed value is compared at its precision.
# Input: 25 real 16S genes (IUPAC-rich ones from gold-5181, some of
# 16s-200) + 5 variants of one gene with ambiguity codes at shared positions
# and terminal/internal gaps + hand-made edge-case rows (mothur only).
# vsearch, needle and mothur are required: a missing one is a failure.
# Also pins mothur's output=column and output=lt formats (docs/IDENTITY.md).
# MNW_TEST_IDENTITY=PATH runs another build of the helper.
source "$(dirname "$0")/../lib.sh"

HELPER=${MNW_TEST_IDENTITY:-$BUILD/tests/test_identity}
missing=0
for tool in vsearch needle mothur; do
    if command -v "$tool" >/dev/null 2>&1; then
        echo "ok - $tool is installed ($(command -v "$tool"))"
    else
        case $tool in needle) pkg=emboss ;; *) pkg=$tool ;; esac
        echo "not ok - $tool is not installed (Debian package $pkg; CI must install it)"
        missing=1
    fi
done
if [ ! -x "$HELPER" ]; then
    echo "not ok - $HELPER is not built (make build/tests/test_identity)"
    missing=1
fi
GOLD="$TDATA/gold-sample.fa.gz"   # 274 RDP gold genes, tests/data/README.md
S200="$TDATA/16s-200.fa"
if [ ! -f "$GOLD" ] || [ ! -f "$S200" ]; then
    echo "not ok - 16S data: $GOLD or $S200 missing"
    missing=1
fi
[ "$missing" -eq 0 ] || { T_FAILED=1; finish; }
W="$TMP"
cd "$W" || exit 1

# ---------------------------------------------------------------- input set
# gold genes with the most ambiguity codes (many kinds), 16s-200 records with
# N runs and plain ones; ids are replaced by X01.. (map in ids.tsv).
GOLD_IDS="S000123243 S000437418 S000128724 S000363188 S000364575 S000007314 S000136808 S000434429 S000004362 S000414464 S000002381 S000387095 S000544255 S000390061"
S200_IDS="gb|AY491632| gb|EF667905| gb|AY437651| gb|AY672084| gb|AY599680| gb|AF197024| gb|DQ303375| gb|EF540503| gb|DQ817637| gb|AF346542| gb|DQ057375|"
pick() { # pick "IDS": FASTA on stdin -> one "id<TAB>SEQ" line per wanted id, in list order
    awk -v want="$1" 'BEGIN { n = split(want, w, " "); for (i = 1; i <= n; i++) pos[w[i]] = i }
        /^>/ { id = substr($1, 2); next } (id in pos) { s[id] = s[id] toupper($0) }
        END { for (i = 1; i <= n; i++) if (w[i] in s) print w[i] "\t" s[w[i]] }'
}
{ zcat "$GOLD" | pick "$GOLD_IDS"; pick "$S200_IDS" <"$S200"; } >real.tsv
# variants of the first gold gene: every 37th base an ambiguity code, shared
# positions so that code/code columns (N/N, R/R, R/Y, ...) occur; one cut at
# both ends (terminal gaps), two with deletions/insertions (internal gaps)
awk -F'\t' 'NR == 1 { s = $2; L = length(s); codes = "RYSWKMBDHVN"
    v1 = v2 = v4 = v5 = ""
    for (i = 1; i <= L; i++) {
        c = substr(s, i, 1); k = int(i / 37)
        a = (i % 37 == 0) ? "N" : c
        b = (i % 37 == 0) ? substr(codes, k % 11 + 1, 1) : c
        d = (i % 37 == 0) ? substr(codes, (k + 3) % 11 + 1, 1) : c
        v1 = v1 a; v2 = v2 b
        if (i % 211 != 0) v4 = v4 d
        if (i > 15) v5 = v5 b
        if (i == 700) v5 = v5 "ACGTTGCAAC"
    }
    v3 = substr(v1, 31, L - 80)
    print "V1\t" v1; print "V2\t" v2; print "V3\t" v3; print "V4\t" v4; print "V5\t" v5 }' real.tsv >var.tsv
cat real.tsv var.tsv | awk -F'\t' '{ printf "X%02d\t%s\n", NR, $1; printf ">X%02d\n%s\n", NR, $2 > "all.fa" }' >ids.tsv
nseq=$(grep -c '>' all.fa)
check "input: $nseq sequences (25 real + 5 variants), every real one found" '[ "$nseq" -eq 30 ]'

# helper output columns: the input's leading fields, then na nb L, then
# vsearch0..4 needle mothur-onegap -eachgap -nogaps, the same -noends
# (identity, %.10f)

# ---------------------------------------------------------------- vsearch
vsearch --allpairs_global all.fa --acceptall --qmask none --threads 2 --quiet \
    --userout vs.tsv --userfields query+target+id0+id1+id2+id3+id4+ids+ql+tl+caln+qrow+trow \
    >vs.log 2>&1
check "vsearch --allpairs_global: $(wc -l <vs.tsv 2>/dev/null) pairs (want 435)" '[ "$(wc -l <vs.tsv)" -eq 435 ]'
# expand caln (M: both, D: query base vs gap, I: target base vs gap) into the
# full rows, terminal gaps included; qrow/trow are the rows without them
awk -F'\t' 'FNR == NR { if (/^>/) id = substr($0, 2); else seq[id] = $0; next }
    function rep(ch, k,   r) { r = ""; while (k-- > 0) r = r ch; return r }
    { q = seq[$1]; t = seq[$2]; qa = ta = ""; qi = ti = 1; n = ""; c = $11
      for (i = 1; i <= length(c); i++) {
          ch = substr(c, i, 1)
          if (ch ~ /[0-9]/) { n = n ch; continue }
          k = (n == "") ? 1 : n + 0; n = ""
          if (ch == "M") { qa = qa substr(q, qi, k); ta = ta substr(t, ti, k); qi += k; ti += k }
          else if (ch == "D") { qa = qa substr(q, qi, k); ta = ta rep("-", k); qi += k }
          else { qa = qa rep("-", k); ta = ta substr(t, ti, k); ti += k }
      }
      # strip the first and the last run if they are gap runs
      lo = 1; hi = length(qa)
      if (match(qa, /^-+/) || match(ta, /^-+/)) lo = RLENGTH + 1
      if ((match(qa, /-+$/) || match(ta, /-+$/)) && RSTART > lo) hi = RSTART - 1
      ok = (qi - 1 == length(q) && ti - 1 == length(t) && substr(qa, lo, hi - lo + 1) == $12 && substr(ta, lo, hi - lo + 1) == $13)
      if (!ok) bad++
      print $1 "\t" $2 "\t" $3 "\t" $4 "\t" $5 "\t" $6 "\t" $7 "\t" $8 "\t" $9 "\t" $10 "\t" qa "\t" ta > "vs.rows"
    } END { exit bad > 0 }' all.fa vs.tsv
rc=$?
check "vsearch: caln expands to rows that match its qrow/trow and lengths" '[ $rc -eq 0 ]'
"$HELPER" --rows <vs.rows >vs.out 2>vs.err
rc=$?
check "test_identity --rows reads the vsearch rows" '[ $rc -eq 0 ] && [ "$(wc -l <vs.out)" -eq 435 ]'
# fields: 1 query 2 target 3-7 id0..id4 8 ids 9 ql 10 tl 11 na 12 nb 13 L 14.. ours
for k in 0 1 2 3 4; do
    nbad=$(awk -F'\t' -v k=$k '{ v = 100 * $(14 + k); d = v - $(3 + k); if (d < 0) d = -d
        if (d > 0.05 + 1e-6) { bad++; if (bad <= 3) print "#  " $1, $2, "vsearch", $(3 + k), "ours", v > "/dev/stderr" } }
        END { print bad + 0 }' vs.out)
    check "vsearch id$k (--iddef $k) = vsearch$k at 0.1% on 435 real pairs ($nbad differ)" '[ "$nbad" -eq 0 ]'
done
nbad=$(awk -F'\t' '{ if ($11 != $9 || $12 != $10) bad++; m = $15 * $13; d = m - $8; if (d < 0) d = -d
    if (d > 1e-6) { bad++; if (bad <= 3) print "#  " $1, $2, "ids", $8, "ours", m > "/dev/stderr" } }
    END { print bad + 0 }' vs.out)
check "vsearch match counts (ids, IUPAC overlap rule) and lengths exact on 435 pairs ($nbad differ)" '[ "$nbad" -eq 0 ]'
namb=$(awk -F'\t' '$15 != $19 { n++ } END { print n + 0 }' vs.out)
check "ambiguity columns exercised: $namb pairs where vsearch and EMBOSS counts differ" '[ "$namb" -ge 20 ]'

# ---------------------------------------------------------------- needle
# V2 (codes) and V1 (N) against the others: code/code, code/base, N/N
# columns; needle's end gaps are free, so terminal gaps are common
awk '/^>/ { p = ($0 == ">X27") } p' all.fa >na.fa
awk '/^>/ { p = ($0 == ">X26") } p' all.fa >nb.fa
awk '/^>/ { p = ($0 ~ /^>X(01|02|03|04|15|16|26|28|29|30)$/) } p' all.fa >nrest.fa
awk '/^>/ { p = ($0 ~ /^>X(28|29|30|05)$/) } p' all.fa >nrest2.fa
needle_run() { # needle_run A B FORMAT OUT
    needle -asequence "$1" -bsequence "$2" -gapopen 10 -gapextend 0.5 -aformat3 "$3" -outfile "$4" -auto
}
{ needle_run na.fa nrest.fa pair n1.pair; needle_run nb.fa nrest2.fa pair n2.pair; } >n.log 2>&1 &
needle_run na.fa nrest.fa fasta n1.fasta >>n.log 2>&1
needle_run nb.fa nrest2.fa fasta n2.fasta >>n.log 2>&1
wait
# identity lines "n/len (pct%)" and fasta rows, in the same order
cat n1.pair n2.pair | awk '/^# Identity:/ { split($3, f, "/"); p = $4 $5; gsub(/[()%]/, "", p); print f[1] "\t" f[2] "\t" p }' >n.id
cat n1.fasta n2.fasta | awk '/^>/ { if (s != "") print s; s = ""; split(substr($0, 2), w, " "); printf "%s\t", w[1]; next }
    { s = s $0 } END { print s }' | paste - - | awk -F'\t' '{ print $1 "\t" $3 "\t" $2 "\t" $4 }' >n.rows2
paste n.id n.rows2 | awk -F'\t' '{ print $1 "\t" $2 "\t" $3 "\t" $4 "\t" $5 "\t" $6 "\t" $7 }' >n.rows
npairs=$(wc -l <n.id)
check "needle: $npairs pairs with an Identity line and rows (want 14)" '[ "$npairs" -eq 14 ] && [ "$(wc -l <n.rows2)" -eq 14 ]'
"$HELPER" --rows <n.rows >n.out 2>n.err
# fields: 1 num 2 len 3 pct 4 nameA 5 nameB 6 na 7 nb 8 L 9.. ours (needle = 9 + 5)
nbad=$(awk -F'\t' '{ m = $14 * $8; d = m - $1; if (d < 0) d = -d; e = 100 * $14 - $3; if (e < 0) e = -e
    if ($8 != $2 || d > 1e-6 || e > 0.05 + 1e-6) { bad++; print "#  " $4, $5, "needle", $1 "/" $2, "ours", m "/" $8 > "/dev/stderr" } }
    END { print bad + 0 }' n.out)
check "needle Identity (identical columns / length, incl. end gaps) = needle exactly on $npairs pairs ($nbad differ)" '[ "$nbad" -eq 0 ] && [ -s n.out ]'
nnn=$(awk -F'\t' '{ r1 = $6; r2 = $7; for (i = 1; i <= length(r1); i++) { a = substr(r1, i, 1); if (a ~ /[RYSWKMBDHVN]/ && a == substr(r2, i, 1)) { n++; break } } } END { print n + 0 }' n.rows)
check "needle pairs with identical ambiguity codes aligned (N/N, R/R, ...): $nnn" '[ "$nnn" -ge 4 ]'

# ---------------------------------------------------------------- mothur
# every vsearch and needle row pair, plus hand-made edge cases, as its own
# 2-sequence aligned FASTA with '-' for every gap, as pairwise.seqs hands its
# rows to the calculators: mothur itself (Sequence::setAligned) then marks a
# row's terminal gaps as missing ('.') only in a row that begins with a gap
cut -f1,2,11,12 vs.rows >m.rows
cut -f4-7 n.rows >>m.rows
cat >>m.rows <<'EOF'
h1	h1	--ACGTACGT---	TTACGTACGTGGG
h2	h2	TTACGTAC--	--ACGTACGG
h3	h3	ACGTA--CGTACG	ACG-ACCCGTACG
h4	h4	AC-GT	ACG-T
h5	h5	TTT--ACGT--GGG	---CCACGTCC---
h6	h6	ARRRNNBD	AARYANAA
h7	h7	NNNN-NNNN	NNNNANNNN
h8	h8	NNNN	ACGT
h9	h9	AAAACCCC	CCCCAAAA
h10	h10	AC--	--GT
h11	h11	ACGTACGTAC	ACGTTCGTAC
h12	h12	GA--CGTAC-GTA--	-ACTCG-ACAGTAGG
h13	h13	A-CGT	AT-GT
h14	h14	ACGTACGT	ACGTACGT
EOF
# 13 differences in 1280 columns: 0.01015625, which mothur prints 0.0101563
# (its quotient) and 1 - identity would print 0.0101562
awk 'BEGIN { a = b = ""; for (i = 0; i < 1280; i++) { a = a "A"; b = b ((i >= 600 && i < 613) ? "C" : "A") }
    printf "h15\th15\t%s\t%s\n", a, b }' >>m.rows
nm=$(wc -l <m.rows)
mkdir -p mo
awk -F'\t' '{ f = sprintf("mo/P%04d", NR); printf ">P%04dA\n%s\n>P%04dB\n%s\n", NR, $3, NR, $4 > (f ".fasta"); close(f ".fasta") }' m.rows
calcs="onegap:T onegap:F eachgap:T eachgap:F nogaps:T nogaps:F"
{
    for c in $calcs; do
        mkdir -p "mo/${c%:*}_${c#*:}"
        echo "set.dir(output=mo/${c%:*}_${c#*:})"
        for ((i = 1; i <= nm; i++)); do
            printf 'dist.seqs(fasta=mo/P%04d.fasta, calc=%s, countends=%s, output=column, processors=1)\n' "$i" "${c%:*}" "${c#*:}"
        done
    done
    # output formats (for mnw's dist.column and dist.phylip writers)
    echo "set.dir(output=fmt)"
    echo "dist.seqs(fasta=fmt/fmt.fasta, calc=onegap, output=column, processors=1)"
    echo "dist.seqs(fasta=fmt/fmt.fasta, calc=onegap, output=lt, processors=1)"
} >mothur.batch
mkdir -p fmt
# 4 aligned sequences of 12000 columns: distances 0, 1/12000, 1/3, 3999/12000
awk 'BEGIN { s = ""; for (i = 0; i < 12000; i++) s = s substr("ACGT", i % 4 + 1, 1)
    t = "C" substr(s, 2); u = ""; for (i = 0; i < 12000; i++) u = u ((i % 3 == 0) ? substr("CGTA", i % 4 + 1, 1) : substr(s, i + 1, 1))
    printf ">A1\n%s\n>LONGNAME_1234\n%s\n>s3\n%s\n>S4\n%s\n", s, t, u, s }' >fmt/fmt.fasta
(cd "$W" && mothur mothur.batch >mothur.log 2>&1)
nout=0
for c in $calcs; do
    d="mo/${c%:*}_${c#*:}"
    for ((i = 1; i <= nm; i++)); do
        printf -v f '%s/P%04d.dist' "$d" "$i"
        [ -s "$f" ] && nout=$((nout + 1))
    done
done
check "mothur dist.seqs: $nout of $((6 * nm)) distance files written (one batch)" '[ "$nout" -eq $((6 * nm)) ]'
"$HELPER" --rows <m.rows >m.out 2>m.err
rc=$?
check "test_identity --rows reads the mothur row pairs" '[ $rc -eq 0 ] && [ "$(wc -l <m.out)" -eq "$nm" ]'
# m.out fields: 1 nameA 2 nameB 3 na 4 nb 5 L 6.. ours; mothur columns:
# onegap 6+6, eachgap 6+7, nogaps 6+8, then -noends 6+9 .. 6+11
col=12
for c in $calcs; do
    case $c in onegap:T) col=12 ;; eachgap:T) col=13 ;; nogaps:T) col=14 ;;
               onegap:F) col=15 ;; eachgap:F) col=16 ;; nogaps:F) col=17 ;; esac
    d="mo/${c%:*}_${c#*:}"
    for ((i = 1; i <= nm; i++)); do printf '%s/P%04d.dist\n' "$d" "$i"; done | xargs cat >"$d.all" 2>/dev/null
    # mothur prints "P0001B P0001A %g" (6 significant digits); ours, as
    # dist.column.gz prints it, is 12 fields after the identity: the same
    # text, byte for byte (the quotient as mothur divides it, issue 41)
    nbad=$(paste "$d.all" m.out | awk -v col=$((col + 1 + 12)) '{
        split($0, f, "\t"); split(f[1], m, " "); ours = f[col]; want = sprintf("P%04d", NR)
        if (m[1] != want "B" || m[2] != want "A" || ours != m[3]) { bad++; if (bad <= 3) print "#  " f[2], f[3], "mothur", m[3], "ours", ours > "/dev/stderr" } }
        END { print bad + 0 }')
    check "mothur dist.seqs calc=${c%:*} countends=${c#*:} = mothur-${c%:*}$([ "${c#*:}" = F ] && echo -noends), printed the same, on $nm pairs ($nbad differ)" '[ "$nbad" -eq 0 ]'
done

# mothur's output formats, pinned: column = "later earlier %g" (space
# separated, the later sequence first); lt = count line, then each name padded
# with spaces to 10 characters (longer names kept whole) and its distances to
# the earlier sequences, each after a tab, as %.4g
printf 'LONGNAME_1234 A1 8.33333e-05\ns3 A1 0.333333\ns3 LONGNAME_1234 0.33325\nS4 A1 0\nS4 LONGNAME_1234 8.33333e-05\nS4 s3 0.333333\n' >fmt.col.want
printf '4\nA1        \nLONGNAME_1234\t8.333e-05\ns3        \t0.3333\t0.3332\nS4        \t0\t8.333e-05\t0.3333\n' >fmt.lt.want
ok "mothur output=column format: 'nameI nameJ %g', later sequence first" cmp fmt/fmt.dist fmt.col.want
ok "mothur output=lt format: count, names padded to 10, tab + %.4g lower triangle" cmp fmt/fmt.phylip.dist fmt.lt.want
finish
