# t_biopython.sh - scores of mnw equal those of Biopython's PairwiseAligner
# (an independent implementation) on real 16S pairs, in affine, linear and
# free-end-gap modes, and with terminal gap penalties apart from interior
# ones (--end-gap-open/--end-gap-extend: Biopython's end gap scores), with
# mnw's substitution rule for IUPAC codes (and mothur's: every ambiguity code is N).
source "$(dirname "$0")/../lib.sh"
cd "$TMP"
PY=/usr/bin/python3
$PY -c 'import Bio.Align' 2>/dev/null || { echo "not ok - Biopython missing (Debian package python3-biopython)"; exit 1; }
zcat "$TDATA/gold-sample.fa.gz" | awk '/^>/{n++} n>14{exit} {print}' > s.fa
# the 14 gold genes chosen for their many kinds of ambiguity codes (tests/data/README.md)
zcat "$TDATA/gold-sample.fa.gz" | awk '/^>/{n++} n>214{exit} n>200' > amb.fa
FA=s.fa
run_mode() { # DESC ARGS for mnw; then python args: match mismatch open extend free [end-open end-extend [mothur]]
    local desc=$1 margs=$2; shift 2
    rm -rf o
    "$MNW" -q -i "$FA" -o o $margs || { echo "not ok - $desc: mnw failed"; T_FAILED=1; return; }
    if FA=$FA $PY - "$@" <<'PY' > py.out 2>&1
import gzip, os, sys
from Bio.Align import PairwiseAligner, substitution_matrices
match, mismatch, go, ge, free = map(int, sys.argv[1:6])
eo, ee = (int(sys.argv[6]), int(sys.argv[7])) if len(sys.argv) > 7 else (None, None)
amb_n = len(sys.argv) > 8 and sys.argv[8] == "mothur"
seqs, name = [], None
for line in open(os.environ["FA"]):
    line = line.strip()
    if line.startswith(">"):
        seqs.append([line[1:].split()[0], ""])
    elif line:
        seqs[-1][1] += line.upper().replace("U", "T")
alpha = "ACGTRYSWKMBDHVN"
m = substitution_matrices.Array(alphabet=alpha, dims=2)
for a in alpha:
    for b in alpha:
        if amb_n:  # mothur reads every ambiguity letter as N
            na, nb = a not in "ACGT", b not in "ACGT"
            m[a, b] = match if (na and nb) or a == b else mismatch
        else:
            m[a, b] = 0 if (a not in "ACGT" or b not in "ACGT") else (match if a == b else mismatch)
al = PairwiseAligner()
al.mode = "global"
al.substitution_matrix = m
al.open_gap_score = -go
al.extend_gap_score = -ge
if free:
    al.end_gap_score = 0
if eo is not None:
    al.end_open_gap_score = -eo
    al.end_extend_gap_score = -ee
bad = n = 0
rows = [l.rstrip("\n").split("\t") for l in gzip.open("o/pairs.tsv.gz", "rt")][1:]
for r in rows:
    i, j, score = int(r[0]), int(r[1]), int(r[4])
    ref = al.score(seqs[i][1], seqs[j][1])
    n += 1
    if int(ref) != score:
        bad += 1
        print("pair", i, j, "mnw", score, "biopython", ref)
print(n, "pairs,", bad, "differ")
sys.exit(1 if bad or n != len(seqs) * (len(seqs) - 1) // 2 else 0)
PY
    then echo "ok - $desc: $(tail -1 py.out)"
    else echo "not ok - $desc: $(tail -3 py.out | tr '\n' ' ')"; T_FAILED=1; fi
}
run_mode "Biopython agrees, default linear +4/-5/10" "" 4 -5 10 10 0
run_mode "Biopython agrees, affine open 16 extend 4" "--gap-open 16 --gap-extend 4" 4 -5 16 4 0
run_mode "Biopython agrees, EMBOSS-like affine 5/-4 open 10 extend 1, free end gaps" "--match 5 --mismatch -4 --gap-open 10 --gap-extend 1 --free-end-gaps" 5 -4 10 1 1
run_mode "Biopython agrees, vsearch's penalties: interior 20/2, end gaps 2/1" "--match 2 --mismatch -4 --gap-open 20 --gap-extend 2 --end-gap-open 2 --end-gap-extend 1" 2 -4 20 2 0 2 1
run_mode "Biopython agrees, linear 10 inside, end gaps linear 3" "--end-gap-open 3" 4 -5 10 10 0 3 3
run_mode "Biopython agrees, end gaps that cost nothing (0/0) under linear 10" "--end-gap-open 0 --end-gap-extend 0" 4 -5 10 10 0 0 0
run_mode "Biopython agrees, --like mothur's scoring (its ambiguity rule)" "--like mothur --iddef mothur-onegap" 1 -1 2 2 1 0 0 mothur
FA=amb.fa
check "14 gold genes with many kinds of ambiguity codes" '[ "$(grep -c ">" amb.fa)" -eq 14 ]'
run_mode "Biopython agrees, --like mothur's scoring on the 14 genes richest in ambiguity codes" "--like mothur" 1 -1 2 2 1 0 0 mothur
run_mode "Biopython agrees, mnw's ambiguity rule on those 14" "" 4 -5 10 10 0
finish
