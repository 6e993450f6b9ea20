#!/usr/bin/env python3
"""16s-100k: 100,000 real 16S rDNA genes for issue 39's larger benchmark, drawn as
../shared/data/16s/make_sets.py draws 16s-25k, from the same Debian package.

Source: Combined16SrRNA of Debian's ncbi-rrna-data (NCBI, public domain), read with
`blastdbcmd` of ncbi-blast+ (apt-get install ncbi-rrna-data ncbi-blast+). The pool is
make_sets.py's: sequences of 1,200-1,700 bases, upper-cased, exact duplicates and repeated
ids removed, in blastdbcmd's order. The draw: random.Random(2013), first rng.sample(pool,
25000) (make_sets.py's draw: these are 16s-25k, byte for byte), then, with the same
generator, rng.sample of 75,000 from the rest of the pool. So 16s-25k is the first 25,000
records of 16s-100k, and the set is deterministic.

usage: make_100k.py OUT.fa.gz [N]   (N: records in all, default 100000; at most the pool)
"""
import gzip, random, subprocess, sys


def wrap(s, w=80):
    return "\n".join(s[i:i + w] for i in range(0, len(s), w))


def main():
    if len(sys.argv) not in (2, 3):
        sys.exit(__doc__)
    path = sys.argv[1]
    n = int(sys.argv[2]) if len(sys.argv) == 3 else 100000
    out = subprocess.run(["blastdbcmd", "-db", "/usr/share/ncbi/data/Combined16SrRNA", "-entry", "all",
                          "-outfmt", "%t\t%s"], check=True, capture_output=True, text=True).stdout
    seen, pool = set(), []
    for line in out.splitlines():
        title, seq = line.split("\t")
        seq = seq.upper()
        if not 1200 <= len(seq) <= 1700 or seq in seen:
            continue
        seen.add(seq)
        rid, _, rest = title.partition(" ")
        pool.append((rid, rest.strip(), seq))
    ids = set()
    pool = [r for r in pool if not (r[0] in ids or ids.add(r[0]))]
    if not 25000 <= n <= len(pool):
        sys.exit("make_100k.py: N must be from 25000 to the pool's %d" % len(pool))
    rng = random.Random(2013)
    first = rng.sample(pool, 25000)
    taken = set(id(r) for r in first)
    rest = [r for r in pool if id(r) not in taken]
    sel = first + rng.sample(rest, n - 25000)
    with gzip.open(path, "wt") as f:
        for rid, title, seq in sel:
            f.write(">%s %s\n%s\n" % (rid, title, wrap(seq)) if title else ">%s\n%s\n" % (rid, wrap(seq)))
    print("pool %d, wrote %d records to %s" % (len(pool), len(sel), path))


if __name__ == "__main__":
    main()
