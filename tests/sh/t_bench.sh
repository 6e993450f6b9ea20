# t_bench.sh - the benchmarks still build and run (issue 16: bench-cpu once
# stopped compiling and nothing noticed). `make test-build` builds every
# bench program this machine can build (the Makefile's BENCH_BIN: bench_cpu,
# clockprobe, and bench_gpu and bench_gpu_prune where nvcc is); here each one that was built is
# checked to be there, and bench_cpu runs on a few real 16S genes: every
# timed tool's scores must agree with mnw's (its own verification line).
source "$(dirname "$0")/../lib.sh"
cd "$TMP"
check "bench_cpu was built by make test-build" '[ -x "$BUILD/bench/bench_cpu" ]'
check "clockprobe was built by make test-build" '[ -x "$BUILD/bench/clockprobe" ]'
check "bench_finish was built by make test-build" '[ -x "$BUILD/bench/bench_finish" ]'
if [ -e "$BUILD/workers/gpu/gpu_dev.o" ]; then
    check "bench_gpu was built by make test-build (nvcc found)" '[ -x "$BUILD/bench/bench_gpu" ]'
    check "bench_gpu_prune (issue 39's GPU filter) was built by make test-build (nvcc found)" \
        '[ -x "$BUILD/bench/bench_gpu_prune" ]'
fi
awk '/^>/{n++} n>12{exit} {print}' "$TDATA/16s-200.fa" > s12.fa
"$BUILD/bench/bench_cpu" s12.fa --budget 0.05 --rounds 1 --ref-pairs 3 >bench.txt 2>&1
rc=$?
check "bench_cpu runs on 12 real genes: exit 0" '[ $rc -eq 0 ]' || sed 's/^/#   /' bench.txt | tail -5
check "bench_cpu: mnw, parasail, vsearch and the reference rows are there" \
    'grep -q "^mnw CPU worker" bench.txt && grep -q "parasail best nw_trace" bench.txt && grep -q "^vsearch --allpairs_global" bench.txt && grep -q "^ref_nw" bench.txt'
check "bench_cpu: every tool's scores agree with mnw's" 'grep -q "^verification: all scores agree with mnw on every timed pair" bench.txt'

# bench_finish (make bench-finish): real alignments, then the production
# finishing path and the baseline on 1 and 2 threads; both give the same
# decompressed bytes, and the summary line is there
"$BUILD/bench/bench_finish" s12.fa --worklist 10 --threads 1,2 --reps 1 >finish.txt 2>&1
rc=$?
check "bench_finish runs on 12 real genes (66 pairs, work lists of 10): exit 0" '[ $rc -eq 0 ]' || sed 's/^/#   /' finish.txt | tail -5
check "bench_finish: production and baseline outputs decompress to the same bytes, default and --cigar" \
    '[ $(grep -c "equal the baseline.s text in every work list (0 of 7 work lists differ)" finish.txt) -eq 2 ]'
check "bench_finish: rows for both paths, both settings, 1 and 2 threads, the PAF rows, the userout rows (30 bytes a pair or more: the fields written), and the summary lines" \
    '[ $(grep -cE "^(default|cigar) +(mnw|baseline) +[12] +66 " finish.txt) -eq 8 ] && [ $(grep -cE "^paf +mnw +[12] +66 " finish.txt) -eq 2 ] &&
     grep -qE "^finish: paf [0-9]+ pairs/s/core$" finish.txt &&
     [ $(grep -cE "^userout +mnw +[12] +66 +[0-9.]+ +[0-9]+ +[0-9]+ +([3-9][0-9]|[1-9][0-9][0-9])\.[0-9]+$" finish.txt) -eq 2 ] &&
     grep -qE "^finish: userout [0-9]+ pairs/s/core \([0-9.]+x paf" finish.txt &&
     tail -1 finish.txt | grep -qE "^finish: default [0-9]+ pairs/s/core, cigar [0-9]+ pairs/s/core \(baseline [0-9]+, [0-9]+\)$"'
"$BUILD/bench/bench_finish" s12.fa --threads 0 >finbad.txt 2>&1
rc=$?
check "bench_finish --threads 0: refused (exit 2)" '[ $rc -eq 2 ] && grep -q "threads" finbad.txt'

# bench_prune (issue 39, the CPU filter as built: workers/cpu/prune_cpu.h):
# the filter alone and the DP on the same run, on 60 real genes at 0.03 and
# 0.10; its decisions are the prototype's (the same bound, the same
# figures), so its pruned counts must equal prune_proto's on the same genes
check "bench_prune was built by make test-build" '[ -x "$BUILD/bench/bench_prune" ]'
awk '/^>/{n++} n>60{exit} {print}' "$TDATA/16s-200.fa" > s60.fa
"$BUILD/bench/bench_prune" s60.fa --cutoff 0.03 --cutoff 0.10 --dp-pairs 200 --threads 2 --no-ed >bprune.txt 2>&1
rc=$?
check "bench_prune --no-ed (the q-gram stage alone) on 60 real genes at 0.03 and 0.10, 2 threads: exit 0" '[ $rc -eq 0 ]' || sed 's/^/#   /' bprune.txt | tail -5
"$BUILD/bench/bench_prune" s60.fa --cutoff 0.03 --cutoff 0.10 --dp-pairs 200 --threads 2 >bprune2.txt 2>&1
rc=$?
check "bench_prune with stage 2 (the edit-distance bound) at 0.03 and 0.10: exit 0, at least the q-gram stage's pruned, its line's figures sane (ED on at most the stage's pairs, pruned at most those, filter = count + band + guided + ED)" \
    '[ $rc -eq 0 ] && python3 - bprune.txt bprune2.txt <<"PY"
import re, sys
a, b = open(sys.argv[1]).read(), open(sys.argv[2]).read()
for cut in ("0.03", "0.1"):
    pa = int(re.search(r"^cutoff %s: pairs \d+, pruned (\d+)" % re.escape(cut), a, re.M).group(1))
    pb = int(re.search(r"^cutoff %s: pairs \d+, pruned (\d+)" % re.escape(cut), b, re.M).group(1))
    assert pb >= pa, (cut, pa, pb)
    assert re.search(r"^cutoff %s: plan on .*, the edit-distance bound" % re.escape(cut), b, re.M), b
    m = re.search(r"^cutoff %s: edit-distance stage on (\d+) pairs \(ED computed on (\d+), .*\), pruned (\d+); "
                  r"guides and guided bands (\d+), ED (\d+) ns/pair over all pairs" % re.escape(cut), b, re.M)
    assert m, b
    on, ran, pr, tg, te = (int(x) for x in m.groups())
    assert ran <= on and pr <= on and pb - pa <= pr, (on, ran, pr, pa, pb)
    f = re.search(r"^cutoff %s: filter (\d+) ns/pair \(q-gram count (\d+), bands and decisions (\d+)" % re.escape(cut), b, re.M)
    tot, cnt, band = (int(x) for x in f.groups())
    assert abs(cnt + band + tg + te - tot) <= 3, (tot, cnt, band, tg, te)
PY' || sed 's/^/#   /' bprune2.txt | tail -8
for cut in 0.03 0.10; do
    "$BUILD/bench/prune_proto" s60.fa --cutoff $cut --dp-pairs 10 >pp$cut.txt 2>&1
done
ok "bench_prune: pairs 1770 at each cutoff, pruned = prune_proto's, more at 0.03 than at 0.10, figures sane (count + band = filter, ns > 0, speed-up = dp / (filter + dp x kept share))" \
    python3 - bprune.txt pp0.03.txt pp0.10.txt <<'PY'
import re, sys
t = open(sys.argv[1]).read()
assert re.search(r"^dp: (\d+) ns/pair", t, re.M), t
dp = float(re.search(r"^dp: (\d+) ns/pair", t, re.M).group(1))
pr = {}
for cut, proto in (("0.03", sys.argv[2]), ("0.1", sys.argv[3])):
    m = re.search(r"^cutoff %s: pairs (\d+), pruned (\d+) \(([\d.]+)%%\)" % re.escape(cut), t, re.M)
    assert m, t
    pairs, pruned = int(m.group(1)), int(m.group(2))
    assert pairs == 1770, t
    want = int(re.search(r"^pruned: (\d+)$", open(proto).read(), re.M).group(1))
    assert pruned == want, "bench_prune %d, prune_proto %d at %s" % (pruned, want, cut)
    f = re.search(r"^cutoff %s: filter (\d+) ns/pair \(q-gram count (\d+), bands and decisions (\d+) ns/pair" % re.escape(cut), t, re.M)
    assert f, t
    tot, cnt, band = (int(x) for x in f.groups())
    assert tot > 0 and cnt > 0 and abs(cnt + band - tot) <= 1, t
    s = re.search(r"^cutoff %s: dp / filter per pair ([\d.]+)x, would-be speed-up .* ([\d.]+)x$" % re.escape(cut), t, re.M)
    assert s, t
    want_s = dp * pairs / (tot * pairs + dp * (pairs - pruned))
    assert abs(float(s.group(2)) - want_s) <= 0.02 * want_s + 0.01, (s.group(2), want_s)
    pr[cut] = pruned
assert pr["0.03"] > pr["0.1"] and pr["0.03"] > 1500, pr
PY
"$BUILD/bench/bench_prune" s60.fa --cutoff 1.5 >bpbad.txt 2>&1
rc=$?
check "bench_prune --cutoff 1.5: refused (exit 2)" '[ $rc -eq 2 ] && grep -q "cutoff" bpbad.txt'

# bench_fwdcount (issue 20's forward-count prototype, AVX-512BW only): its
# figures equal mnw's counts mode on every pair, so it still measures the
# same question after a change to the tie rule or the figures
check "bench_fwdcount was built by make test-build" '[ -x "$BUILD/bench/bench_fwdcount" ]'
if grep -qw avx512bw /proc/cpuinfo; then
    "$BUILD/bench/bench_fwdcount" s12.fa --reps 1 >fwd.txt 2>&1
    rc=$?
    check "bench_fwdcount on 12 real genes: exit 0, every figure equal to mnw's counts mode, the five rows" \
        '[ $rc -eq 0 ] && grep -q "^verification: every figure and score identical" fwd.txt && [ $(grep -cE "^(mnw|fwd|floor).* [0-9.]+x$" fwd.txt) -eq 5 ]' || sed 's/^/#   /' fwd.txt | tail -5
else
    echo "# no AVX-512BW on this CPU: bench_fwdcount not run"
fi

# prune_proto (issue 39's exact prune filter, docs/PRUNE.md): with --check it
# aligns every pair with mnw's aligner and fails (exit 1) if a pruned pair is
# within the cutoff. Real genes, plus pairs built at the bound: a perfect core
# between long terminal gaps, one sequence much shorter, identical sequences,
# ambiguity codes (N matches for vsearch2), a tandem repeat and a shorter
# copy, a piece with exactly 3% substitutions, and 2% spread over a gene
check "prune_proto was built by make test-build" '[ -x "$BUILD/bench/prune_proto" ]'
python3 - "$TDATA/16s-200.fa" >bound.fa <<'PY'
import random, sys
recs, cur = [], None
for line in open(sys.argv[1]):
    line = line.strip()
    if line.startswith(">"):
        cur = [line[1:].split()[0], ""]; recs.append(cur)
    elif cur: cur[1] += line.upper()
g = next(s for _, s in recs if set(s) <= set("ACGT"))
rnd = random.Random(39)
def mutate(s, k):
    s = list(s)
    for p in rnd.sample(range(len(s)), k):
        s[p] = rnd.choice([c for c in "ACGT" if c != s[p]])
    return "".join(s)
out = [(n, s) for n, s in recs[:14]]
out += [("G", g), ("G_copy", g), ("G_core600", g[300:900]), ("G_short60", g[500:560])]
amb = list(g)
for p in range(40, len(g), 70): amb[p] = "N"
out.append(("G_N", "".join(amb)))
piece = g[100:300]
out += [("P200", piece), ("P200_3pct", mutate(piece, 6)), ("G_2pct", mutate(g, len(g) // 50))]
unit = "ACGTTGCAAGGCT"
out += [("rep40", unit * 40), ("rep33", unit * 33)]
for n, s in out: print(">%s\n%s" % (n, s))
PY
for cut in 0.03 0.10; do
    "$BUILD/bench/prune_proto" bound.fa --cutoff $cut --check >prune$cut.txt 2>&1
    rc=$?
    check "prune_proto --check at cutoff $cut on 14 real genes and 10 built at the bound (276 pairs): exit 0, no pruned pair within the cutoff" \
        '[ $rc -eq 0 ] && grep -q "^check: every pruned pair is beyond the cutoff (all 276 pairs aligned)$" prune$cut.txt' ||
        sed 's/^/#   /' prune$cut.txt | tail -8
    ok "prune_proto at cutoff $cut: pruned + kept = pairs, pruned <= beyond, misses = kept - within, the built pairs within" \
        python3 - prune$cut.txt $cut <<'PY'
import re, sys
t = open(sys.argv[1]).read()
num = lambda k: int(re.search(r"^" + re.escape(k) + r".*?: (\d+)", t, re.M).group(1))
pairs, within, pruned, kept, miss = (num(k) for k in ("pairs", "within the cutoff", "pruned", "kept", "kept but beyond"))
assert pairs == 276 and pruned + kept == pairs, t
assert pruned <= pairs - within and miss == kept - within, t
# mnw's distances on this set: 7 pairs at 0 (G, G_copy, G_N and the real
# gene G was drawn from; rep33/rep40), 4 at 0.0198 (G_2pct), more at 0.10;
# G_core600 and G_short60 are not within: with linear gaps every alignment
# with their 600 (60) matches and no mismatch ties, and the tie rule's path
# (diagonal first, from the end) spreads the matches over 141 (46) gap runs
# (mnw: identity 0.514 and 0.269), yet the bound must keep them or prove them
assert within >= (11 if sys.argv[2] == "0.03" else 17), t
if sys.argv[2] == "0.03": assert pruned > 200, "the filter prunes the real pairs at 0.03: " + t
PY
done
# a random mutation series across D: 24 copies of one gene with 0-8%
# substitutions and 1-3 base indels, each cut by 0-80 bases at either end
# (terminal gaps), so that many pairs lie near 0.03 and 0.05
python3 - "$TDATA/16s-200.fa" >series.fa <<'PY'
import random, sys
seqs, cur = [], None
for line in open(sys.argv[1]):
    line = line.strip()
    if line.startswith(">"):
        cur = []; seqs.append(cur)
    elif cur is not None: cur.append(line.upper())
g = next("".join(s) for s in seqs[20:] if set("".join(s)) <= set("ACGT"))
rnd = random.Random(3939)
for k in range(24):
    rate = 0.08 * k / 23
    s = list(g)
    for _ in range(int(rate * len(g))):
        p = rnd.randrange(len(s))
        r = rnd.random()
        if r < 0.7: s[p] = rnd.choice([c for c in "ACGT" if c != s[p]])
        elif r < 0.85: del s[p:p + rnd.randint(1, 3)]
        else: s[p:p] = [rnd.choice("ACGT") for _ in range(rnd.randint(1, 3))]
    s = "".join(s)[rnd.randint(0, 80):]
    s = s[:len(s) - rnd.randint(0, 80)]
    print(">m%02d\n%s" % (k, s))
PY
for cut in 0.03 0.05; do
    "$BUILD/bench/prune_proto" series.fa --cutoff $cut --check >series$cut.txt 2>&1
    rc=$?
    check "prune_proto --check on a mutation series (24 copies, 0-8%, cut ends) at $cut: exit 0, more than 5 pairs within and more than 50 pruned" \
        '[ $rc -eq 0 ] && grep -q "^check: every pruned pair is beyond the cutoff (all 276 pairs aligned)$" series$cut.txt &&
         [ "$(sed -n "s/^within the cutoff.*: //p" series$cut.txt)" -gt 5 ] && [ "$(sed -n "s/^pruned: //p" series$cut.txt)" -gt 50 ]' ||
        sed 's/^/#   /' series$cut.txt | tail -8
done
"$BUILD/bench/prune_proto" bound.fa --cutoff 0.10 --q 6 --diag --check >prunediag.txt 2>&1
rc=$?
check "prune_proto --check --diag --q 6 at cutoff 0.10 (the diagonal count on every pair): exit 0" \
    '[ $rc -eq 0 ] && grep -q "^check: every pruned pair is beyond the cutoff (all 276 pairs aligned)$" prunediag.txt' ||
    sed 's/^/#   /' prunediag.txt | tail -8
"$BUILD/bench/prune_proto" series.fa --cutoff 0.10 --ed --check >pruneed.txt 2>&1
rc=$?
check "prune_proto --check --ed at 0.10 on the mutation series (its bit-vector edit distance equal to a plain DP on 400 random pairs first): exit 0" \
    '[ $rc -eq 0 ] && grep -q "^check: every pruned pair is beyond the cutoff (all 276 pairs aligned)$" pruneed.txt' ||
    sed 's/^/#   /' pruneed.txt | tail -8
# prune_ed_proto (Theorem 2 of docs/PRUNE.md, the edit-distance bound):
# every pair aligned and checked, with Y from each kind of band and from
# the optimal alignment; --no-slack (a wrong bound) must be caught
check "prune_ed_proto was built by make test-build" '[ -x "$BUILD/bench/prune_ed_proto" ]'
for f in bound series; do
    for cut in 0.05 0.10; do
        "$BUILD/bench/prune_ed_proto" $f.fa --cutoff $cut --w 4 --aw 16 --sw 8 --gw 8 --gw 16 >ed$f$cut.txt 2>&1
        rc=$?
        check "prune_ed_proto on $f.fa (276 pairs) at $cut, Y from 5 kinds of band and the oracle: exit 0, no pair within proved beyond, the oracle proves at least as many as each band" \
            '[ $rc -eq 0 ] && grep -q "^check: no pair within the cutoff proved beyond$" ed$f$cut.txt &&
             python3 - ed$f$cut.txt <<"PY"
import re, sys
t = open(sys.argv[1]).read()
assert re.search(r"^within \d+, beyond \d+$", t, re.M)
orc = float(re.search(r"oracle C2\*:\s+([0-9.]+)%", t).group(1))
for m in re.finditer(r"ED bound, (band|adaptive|slanted|guided) w\s*\d+:\s+([0-9.]+)%", t):
    assert float(m.group(2)) <= orc + 1e-9, m.group(0)
PY' || sed 's/^/#   /' ed$f$cut.txt | tail -8
    done
done
"$BUILD/bench/prune_ed_proto" series.fa --cutoff 0.10 --gw 8 --no-slack >ednoslack.txt 2>&1
rc=$?
check "prune_ed_proto --no-slack (the bound without its slack terms): exit 1, pairs within proved beyond named" \
    '[ $rc -eq 1 ] && grep -q "^FAIL oracle: pair " ednoslack.txt && grep -q "^FAILED: " ednoslack.txt'
"$BUILD/bench/prune_proto" bound.fa --cutoff 0.03 --check --prune-all >pruneall.txt 2>&1
rc=$?
check "prune_proto --check --prune-all (every pair pruned, the bound ignored): exit 1, the pairs within named" \
    '[ $rc -eq 1 ] && grep -q "^FAIL: pair G_copy G " pruneall.txt && grep -q "^check: FAILED" pruneall.txt'

# bench_gpu on the emulated GPU (the same source as the real one, without
# Rodinia-NW): every requested row is printed and written to --json, which
# make bench-gpu commits as bench/results/gpu-kernels-latest.json
if [ -e "$BUILD/tests/test_gpu_emu" ]; then
    check "bench_gpu_emu was built with test_gpu_emu" '[ -x "$BUILD/tests/bench_gpu_emu" ]'
    # the sanitizer runs (MNW_TEST_QUICK): the same rows on fewer pairs
    gp=40 hp=10 cp=5
    [ -n "${MNW_TEST_QUICK:-}" ] && gp=8 hp=4 cp=2
    "$BUILD/tests/bench_gpu_emu" s12.fa --trim 90 --pairs $gp --host-pairs $hp --reps 1 --cpu-pairs $cp --rodinia-pairs 0 \
        --kernels auto,rscan,dscan --lanes x2,x1 --tb device,host,score --finishers 2 --json g.json --label "t_bench" \
        >gbench.txt 2>&1
    rc=$?
    check "bench_gpu (emulated GPU): exit 0" '[ $rc -eq 0 ]' || sed 's/^/#   /' gbench.txt | tail -5
    ok "bench_gpu --json: the rows as JSON (device, date, command, label, entries with kernel, gaps, traceback, lanes, pairs, gcups)" \
        python3 - g.json gbench.txt $gp $hp $cp <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
gp, hp, cp = (int(x) for x in sys.argv[3:6])
for k in ("device", "date", "command", "label", "build", "entries"):
    assert k in d, "no " + k
assert d["label"] == "t_bench" and "emulated GPU" in d["device"] and "--json g.json" in d["command"]
E = d["entries"]
rows = [l.split() for l in open(sys.argv[2]) if l.split() and l.split()[0] in ("linear", "affine")]
assert len(rows) == len(E), "%d printed rows, %d entries" % (len(rows), len(E))
want = set()
for g in ("linear", "affine"):
    want.add((g, "cpu1-pair", "host", "-"))
    for tb in ("device", "host", "none"):
        want.add((g, "rscan", tb, "x1"))
        for k in ("auto", "dscan"):
            for l in ("x2", "x1"):
                want.add((g, k, tb, l))
got = set((e["gaps"], e["kernel"], e["traceback"], e["lanes"]) for e in E)
assert got == want, "missing %s, extra %s" % (sorted(want - got), sorted(got - want))
for e, r in zip(E, rows):
    assert e["gcups"] >= 0 and e["pairs_per_s"] > 0 and e["seconds"] > 0, e
    assert e["pairs"] == (cp if e["kernel"] == "cpu1-pair" else hp if e["traceback"] == "host" else gp), e
    assert int(r[2]) == e["pairs"] and abs(float(r[4]) - e["gcups"]) <= 0.01 + 1e-3 * e["gcups"], (r, e)
PY
    "$BUILD/tests/bench_gpu_emu" s12.fa --pairs 4 --reps 1 --cpu-pairs 2 --rodinia-pairs 0 --kernels auto --tb score \
        --gaps linear --json "$TMP/no/such/dir/g.json" >gbad.txt 2>&1
    rc=$?
    check "bench_gpu --json into a missing directory: exit 1, the file named" \
        '[ $rc -eq 1 ] && grep -q "no/such/dir/g.json" gbad.txt'
fi
finish
