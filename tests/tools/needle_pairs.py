#!/usr/bin/env python3
"""needle_pairs.py FASTA PAIRS_TSV_GZ - every pair (i, j) of an mnw --like needle
run's pairs.tsv.gz against EMBOSS needle (its defaults for DNA: EDNAFULL,
-gapopen 10 -gapextend 0.5, free end gaps), sequence i needle's asequence:
one needle call per row sequence i against the sequences j < i. Prints
"PAIRS SCORES_DIFFER IDENTITIES_DIFFER" (Score: the same number; Identity:
the same count over the same length); the first differences go to stderr.
Used by tests/sh/t_needle.sh and bench/like_agree.sh. Writes na.fa and nb.fa
in the current directory."""
import gzip, os, re, subprocess, sys
fa, pairs = sys.argv[1], sys.argv[2]
seqs = []
for l in open(fa):
    l = l.strip()
    if l.startswith(">"):
        seqs.append([l[1:].split()[0], ""])
    elif l:
        seqs[-1][1] += l
got = {}
for i in range(1, len(seqs)):
    open("na.fa", "w").write(">s%d\n%s\n" % (i, seqs[i][1]))
    open("nb.fa", "w").write("".join(">s%d\n%s\n" % (j, seqs[j][1]) for j in range(i)))
    out = subprocess.run(["needle", "-asequence", "na.fa", "-bsequence", "nb.fa", "-gapopen", "10", "-gapextend", "0.5",
                          "-outfile", "stdout", "-auto"], capture_output=True, text=True, check=True).stdout
    for j, s, nid, ln in zip(re.findall(r"# 2: s(\d+)", out), re.findall(r"# Score: (\S+)", out),
                             re.findall(r"# Identity:\s+(\d+)/", out), re.findall(r"# Identity:\s+\d+/(\d+)", out)):
        got[(i, int(j))] = (s, int(nid), int(ln))
n = bs = bi = 0
for r in [l.rstrip("\n").split("\t") for l in gzip.open(pairs, "rt")][1:]:
    key = (int(r[0]), int(r[1]))
    if key not in got:
        continue
    n += 1
    s, nid, ln = got[key]
    if float(s) != float(r[4]):
        bs += 1
        if bs <= 3: print("#  pair %d %d: needle Score %s, mnw %s" % (key + (s, r[4])), file=sys.stderr)
    if ln != int(r[5]) or abs(nid / ln - float(r[10])) > 1e-6:
        bi += 1
        if bi <= 3: print("#  pair %d %d: needle Identity %d/%d, mnw %s/%s" % (key + (nid, ln, r[6], r[5])), file=sys.stderr)
print(n, bs, bi)
