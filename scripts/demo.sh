#!/usr/bin/env bash
# scripts/demo.sh - `make demo`: installs what is missing, builds mnw and
# aligns the bundled real 16S sample (data/16s-500.fa.gz, 124,750 pairs),
# then prints a short summary, makes its report page (mnw report) and says
# where the results are.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/deps.sh build
make -s bin/mnw
out=demo-out
rm -rf "$out"
# every core: a CPU-only demo has no GPU dispatcher or trace-back thread to leave room for
bin/mnw -i data/16s-500.fa.gz -o "$out" --cigar --phylip --threads "$(nproc)"
set +o pipefail # head closes the pipes early on purpose
echo
echo "first pairs (pairs.tsv.gz, CIGAR column cut):"
zcat "$out/pairs.tsv.gz" | head -4 | cut -f1-11
echo
echo "closest pairs (dist.column.gz, distance = 1 - identity, vsearch --iddef 2):"
zcat "$out/dist.column.gz" | sort -k3,3g | head -3
echo
bin/mnw report "$out" >/dev/null
echo "the run and its results in pictures: $(pwd)/$out/report.html  (mnw report; open it in a browser)"
echo "all results: $(pwd)/$out/  (docs/FORMATS.md explains each file)"
