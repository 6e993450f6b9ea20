#!/usr/bin/env python3
"""paf_check.py - a strict reader of mnw's alignments.paf.gz (tests only).

No PAF reader is packaged in Debian (minimap2's paftools.js is left out of
its package), so this one reads the file as the PAF specification and the
SAM optional-field rules say, sharing no code with mnw:

  paf_check.py FASTA PAF_GZ MATCH MISMATCH GAP_OPEN GAP_EXTEND FREE_ENDS
               [--pairs PAIRS_TSV_GZ] [--iddef NAME]

For every line: at least 12 tab-separated columns, each of its type
(names without white space, integers, 0 <= start <= end <= length, strand
'+' or '-', mapping quality 0-255); then tags TAG:TYPE:VALUE, each valid for
its type, none twice, and cg:Z:, AS:i:, NM:i: and de:f: present. The lines
come in mnw's pair order (query = sequence i, target = sequence j, j < i),
with the names and lengths of the FASTA records and both sequences whole.
The CIGAR is canonical (= X I D runs, none empty, no op twice in a row),
consumes exactly qe - qs query and te - ts target bases, says '=' exactly
where both bases are the same A/C/G/T, and re-scores (docs/SCORING.md:
ambiguity codes 0, a gap run of L costs GAP_OPEN + (L-1) GAP_EXTEND, end
runs free when FREE_ENDS is 1) to AS:i:. Column 10 is the number of '='
columns, column 11 the CIGAR's columns, NM:i: its X, I and D columns.
--pairs: de:f: is 1 - the identity column of that pairs.tsv.gz (same pair
order); --iddef vsearch2: de:f: is also 1 - M / (columns without end gaps)
computed here, M counted as vsearch does (the IUPAC base sets overlap). Prints "ok - ..." / "not ok - ..." lines; exit 1 on any
failure.
"""
import gzip
import re
import sys

ACGT = set("ACGT")
NAME = re.compile(r"^[!-~]+$")
INT = re.compile(r"^(0|[1-9][0-9]*)$")
TAG = re.compile(r"^([A-Za-z][A-Za-z0-9]):([AifZHB]):(.*)$")
TYPE_RE = {  # the SAM specification's value rules
    "A": re.compile(r"^[!-~]$"),
    "i": re.compile(r"^[-+]?[0-9]+$"),
    "f": re.compile(r"^[-+]?[0-9]*\.?[0-9]+([eE][-+]?[0-9]+)?$"),
    "Z": re.compile(r"^[ !-~]*$"),
    "H": re.compile(r"^([0-9A-F][0-9A-F])*$"),
    "B": re.compile(r"^[cCsSiIf](,[-+]?[0-9]*\.?[0-9]+([eE][-+]?[0-9]+)?)*$"),
}
IUPAC = dict(A=1, C=2, G=4, T=8, R=5, Y=10, S=6, W=9, K=12, M=3, B=14, D=13, H=11, V=7, N=15)
CIGAR_RUN = re.compile(r"([0-9]+)([MIDNSHP=X])")


def read_fasta(path):
    opener = gzip.open if path.endswith(".gz") else open
    recs, name, parts = [], None, []
    with opener(path, "rt") as f:
        for line in f:
            line = line.rstrip("\r\n")
            if line.startswith(">"):
                if name is not None:
                    recs.append((name, "".join(parts)))
                name, parts = line[1:].split()[0], []
            elif line.strip():
                parts.append(line.strip().upper().replace("U", "T"))
    if name is not None:
        recs.append((name, "".join(parts)))
    return recs


def main(argv):
    args, opts = [], {}
    it = iter(argv[1:])
    for a in it:
        if a in ("--pairs", "--iddef"):
            opts[a] = next(it)
        else:
            args.append(a)
    if len(args) != 7:
        sys.exit(__doc__)
    fasta, paf = args[0], args[1]
    match, mismatch, gopen, gext, free = (int(x) for x in args[2:7])
    recs = read_fasta(fasta)
    n = len(recs)
    pairs = gzip.open(opts["--pairs"], "rt") if "--pairs" in opts else None
    if pairs:
        head = pairs.readline().rstrip("\n").split("\t")
        id_col = head.index("identity")
    errors = []
    lines = 0
    i, j = 1, 0
    stats = {"tags": set()}

    def bad(msg):
        if len(errors) < 20:
            errors.append("line %d (pair %d, %d): %s" % (lines, i, j, msg))

    with gzip.open(paf, "rt", newline="") as f:
        for raw in f:
            lines += 1
            if not raw.endswith("\n"):
                bad("no line end")
            cols = raw.rstrip("\n").split("\t")
            if i >= n:
                bad("more lines than the %d pairs of %d sequences" % (n * (n - 1) // 2, n))
                break
            if len(cols) < 12:
                bad("%d columns, PAF has 12 before its tags" % len(cols))
                continue
            qn, ql, qs, qe, strand, tn, tl, ts, te, nm_, blk, mq = cols[:12]
            ints = [ql, qs, qe, tl, ts, te, nm_, blk, mq]
            if not all(INT.match(x) for x in ints) or not NAME.match(qn) or not NAME.match(tn):
                bad("a column not of its type: %r" % cols[:12])
                continue
            ql, qs, qe, tl, ts, te, nmatch, blk, mq = (int(x) for x in ints)
            if strand not in "+-" or len(strand) != 1:
                bad("strand %r" % strand)
            if not (0 <= qs <= qe <= ql and 0 <= ts <= te <= tl) or mq > 255:
                bad("coordinates or mapping quality out of range")
            tags = {}
            for t in cols[12:]:
                m = TAG.match(t)
                if not m or not TYPE_RE[m.group(2)].match(m.group(3)):
                    bad("tag %r is not TAG:TYPE:VALUE of a SAM type" % t)
                    continue
                if m.group(1) in tags:
                    bad("tag %s twice" % m.group(1))
                tags[m.group(1)] = (m.group(2), m.group(3))
            stats["tags"].add(tuple(sorted(tags)))
            want = {"cg": "Z", "AS": "i", "NM": "i", "de": "f"}
            if any(tags.get(k, ("", ""))[0] != v for k, v in want.items()):
                bad("not every one of cg:Z, AS:i, NM:i, de:f: %r" % sorted(tags))
                continue
            (qname, qseq), (tname, tseq) = recs[i], recs[j]
            if (qn, ql, tn, tl) != (qname, len(qseq), tname, len(tseq)):
                bad("query/target %s %d / %s %d, the FASTA has %s %d / %s %d"
                    % (qn, ql, tn, tl, qname, len(qseq), tname, len(tseq)))
            if (qs, qe, ts, te, strand) != (0, ql, 0, tl, "+"):
                bad("a global alignment covers both sequences on +")
            cigar = tags["cg"][1]
            runs = [(int(a), b) for a, b in CIGAR_RUN.findall(cigar)]
            if "".join("%d%s" % r for r in runs) != cigar or any(r[0] == 0 for r in runs) or \
                    any(r[1] not in "=XID" for r in runs) or any(a[1] == b[1] for a, b in zip(runs, runs[1:])):
                bad("CIGAR not canonical runs of = X I D")
                continue
            qc = sum(a for a, b in runs if b in "=XI")
            tc = sum(a for a, b in runs if b in "=XD")
            if qc != qe - qs or tc != te - ts:
                bad("CIGAR consumes %d/%d bases, the coordinates say %d/%d" % (qc, tc, qe - qs, te - ts))
                continue
            score, x, y, eq, diff, vs_m = 0, qs, ts, 0, 0, 0
            for k, (ln, op) in enumerate(runs):
                if op == "=":
                    a = qseq[x:x + ln]
                    if a != tseq[y:y + ln] or not set(a) <= ACGT:
                        bad("= at query %d, target %d: %s against %s" % (x, y, a, tseq[y:y + ln]))
                    score += match * ln
                    vs_m += ln
                    x += ln
                    y += ln
                    eq += ln
                elif op == "X":
                    a, b = qseq[x:x + ln], tseq[y:y + ln]
                    for ca, cb in zip(a, b):
                        if ca == cb and ca in ACGT:
                            bad("X at query %d, target %d: %s against %s" % (x, y, ca, cb))
                            break
                        score += mismatch if ca in ACGT and cb in ACGT else 0
                        vs_m += (IUPAC[ca] & IUPAC[cb]) != 0
                    x += ln
                    y += ln
                    diff += ln
                else:
                    end = k == 0 or k == len(runs) - 1
                    if not (free and end):
                        score -= gopen + (ln - 1) * gext
                    diff += ln
                    if op == "I":
                        x += ln
                    else:
                        y += ln
            if score != int(tags["AS"][1]):
                bad("the CIGAR re-scores to %d, AS:i:%s" % (score, tags["AS"][1]))
            cols_ = sum(a for a, b in runs)
            if nmatch != eq or blk != cols_ or int(tags["NM"][1]) != diff:
                bad("matches/block/NM %d/%d/%s, the CIGAR has %d/%d/%d" % (nmatch, blk, tags["NM"][1], eq, cols_, diff))
            de = float(tags["de"][1])
            if pairs:
                pl = pairs.readline().rstrip("\n").split("\t")
                if pl[:4] != [str(i), str(j), qn, tn] or abs(de - (1.0 - float(pl[id_col]))) > 1.5e-6:
                    bad("de:f:%s, pairs.tsv has %r" % (tags["de"][1], pl[:4] + [pl[id_col]]))
            if opts.get("--iddef") == "vsearch2":
                inner = cols_ - (runs[0][0] if runs[0][1] in "ID" else 0) - \
                    (runs[-1][0] if len(runs) > 1 and runs[-1][1] in "ID" else 0)
                ident = vs_m / inner if inner > 0 else 0.0  # vsearch's matches: the base sets overlap
                if abs(de - (1.0 - ident)) > 5.01e-7:
                    bad("de:f:%s, vsearch2 computed here gives %.9f" % (tags["de"][1], 1.0 - ident))
            j += 1
            if j == i:
                i, j = i + 1, 0
    total = n * (n - 1) // 2
    ok = lambda c, d: print(("ok - " if c else "not ok - ") + d)
    ok(lines == total, "%s: %d lines for the %d pairs of %d sequences" % (paf, lines, total, n))
    ok(not errors, "%s: every line strict PAF, in pair order, its CIGAR re-scored to AS:i: (%d errors)%s"
       % (paf, len(errors), "".join("\n    " + e for e in errors)))
    ok(len(stats["tags"]) == 1, "%s: every line has the same tags: %r" % (paf, sorted(stats["tags"])))
    return 0 if lines == total and not errors and len(stats["tags"]) == 1 else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv))
