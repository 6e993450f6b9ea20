#!/usr/bin/env python3
"""tests/tools/report_check.py OUTDIR REPORT.html [OUTLIER] - recomputes what
`mnw report` shows from OUTDIR/pairs.tsv.gz with Python's gzip and csv (no
code shared with mnw), and compares it with the numbers the page marks
(data-k attributes). Prints one line per figure, "ok - ..." or
"not ok - ..."; exit status 1 if any differs."""
import gzip
import html
import re
import sys

outdir, report = sys.argv[1], sys.argv[2]
outlier = float(sys.argv[3]) if len(sys.argv) > 3 else 0.80
thresholds = [0.865, 0.945, 0.97, 0.987, 0.99]
pairs = 0
above = [0] * len(thresholds)
nn = {}
with gzip.open(outdir + "/pairs.tsv.gz", "rt") as f:
    header = f.readline().rstrip("\n").split("\t")
    col = {name: k for k, name in enumerate(header)}
    for line in f:
        c = line.rstrip("\n").split("\t")
        i, j, ident = int(c[col["i"]]), int(c[col["j"]]), float(c[col["identity"]])
        pairs += 1
        for k, t in enumerate(thresholds):
            above[k] += ident >= t
        for a in (i, j):
            if ident > nn.get(a, -1.0):
                nn[a] = ident
outliers = sum(1 for v in nn.values() if v < outlier)
page = open(report, encoding="utf-8").read()
marks = {m.group(1): html.unescape(m.group(2)) for m in re.finditer(r'data-k="([^"]+)">([^<]*)', page)}
bad = 0


def check(what, want, got):
    global bad
    ok = str(want) == str(got)
    bad += not ok
    print("%s - report: %s: page %s, recomputed %s" % ("ok" if ok else "not ok", what, got, want))


check("pairs written", pairs, marks.get("pairs", "").split(" ")[0])
for k, t in enumerate(thresholds):
    check("pairs at or above %.3f" % t, above[k], marks.get("above-%.3f" % t))
check("sequences whose nearest neighbour is below %.2f" % outlier, outliers, marks.get("outliers", "").split(" ")[0])
sys.exit(1 if bad else 0)
