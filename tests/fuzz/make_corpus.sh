#!/usr/bin/env bash
# tests/fuzz/make_corpus.sh - (re)makes the seed corpus of the fuzz targets,
# tests/fuzz/corpus/{fasta,config,bookmark}/, from the repository's own
# files. Run by hand when the inputs change; `make fuzz-run` never writes
# here (it fuzzes a copy). Each FASTA and bookmark seed starts with the
# target's mode byte (tests/fuzz/fuzz_fasta.c, fuzz_bookmark.c).
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
cd "$ROOT"
C=tests/fuzz/corpus
rm -rf "$C"
mkdir -p "$C/fasta" "$C/config" "$C/bookmark"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# FASTA: mode byte (bit 0 preload, bit 1 also gzip, level in bits 2+), then the file
seed() { # seed NAME MODE FILE
    { printf "\\x$(printf %02x "$2")"; cat "$3"; } > "$C/fasta/$1"
}
S=tests/data/16s-200.fa
awk '/^>/{n++} n>2{exit} {print}' $S > "$tmp/two.fa"
awk '/^>/{n++} n>=3 && n<=5' $S > "$tmp/three.fa"
awk '/^>/{n++} n==6' $S > "$tmp/one.fa"
seed 16s-2 0 "$tmp/two.fa"
seed 16s-3-gzip6 $((2 | 6 << 2)) "$tmp/three.fa"
seed 16s-1-preload 1 "$tmp/one.fa"
sed 's/$/\r/' "$tmp/two.fa" > "$tmp/crlf.fa"
seed 16s-2-crlf 2 "$tmp/crlf.fa"
{ printf '\xef\xbb\xbf\n  \n'; awk 'NR==1{print $0 " description words"; next} {print tolower($0) "  "}' "$tmp/one.fa"; } > "$tmp/bom.fa"
seed 16s-1-bom-lower 0 "$tmp/bom.fa"
zcat tests/data/gold-sample.fa.gz | awk '
    function flush() { if (h != "" && toupper(s) ~ /[RYSWKMBDHVN]/ && k < 2) { printf "%s\n%s", h, s; k++ } }
    /^>/ { flush(); h = $0; s = ""; next } { s = s $0 "\n" } END { flush() }' > "$tmp/iupac.fa"
seed gold-iupac-2 3 "$tmp/iupac.fa"
gzip -9 -n -c "$tmp/two.fa" > "$tmp/two.fa.gz"
seed 16s-2-fa.gz 0 "$tmp/two.fa.gz"
for f in tests/data/bad/*; do seed "bad-$(basename "$f")" 0 "$f"; done

# config: the example job file, per-host sections, flags, a bad key
cp config/example.conf "$C/config/example.conf"
printf 'threads = 1\n[host no-such-host*]\nthreads = 7\n[host node*]\nthreads = 2\nprefetch = 1\n' > "$C/config/hosts.conf"
printf '# a job file\ninput = s100.fa\noutdir = conf\ncigar\nphylip = yes\nfree-end-gaps = no\n' > "$C/config/job.conf"
printf 'input = x.fa\r\noutdir = o\r\ngap-open = 16\r\ngap-extend = 4\r\nhost = n*:threads=3,bind=no\r\ncutoff = 0.03\r\niddef = mothur-onegap-noends\r\n' > "$C/config/crlf-host.conf"
printf 'threads = 1\n[host *]\nmatch = 3\n' > "$C/config/bad-section.conf"
printf 'colour = blue\n' > "$C/config/bad-key.conf"

# bookmark: real bookmarks written by mnw_bookmark_write (the fingerprint of
# 16s-200 and the settings a run of it records; the unit test's sample)
cat > "$tmp/bm.c" <<'EOF'
#include <stdio.h>
#include "cld/bookmark.h"
#include "lib/fasta.h"
int main(int argc, char **argv)
{
    mnw_err e;
    mnw_seqset s;
    mnw_seqset_init(&s);
    if (argc != 4 || mnw_fasta_read(argv[1], &s, &e)) return 1;
    mnw_bookmark b;
    mnw_bookmark_init(&b);
    mnw_bookmark_input_hash(&s, b.input_hash);
    b.sequences = s.n;
    b.pairs = s.n * (s.n - 1) / 2;
    b.watermark = 15000;
    const char *set[][2] = {{"input", argv[1]}, {"match", "4"}, {"mismatch", "-5"}, {"gap-open", "10"},
                            {"gap-extend", "10"}, {"free-end-gaps", "no"}, {"iddef", "vsearch2"}, {"cutoff", "none"},
                            {"cigar", "yes"}, {"phylip", "yes"}, {"gzip-level", "6"}, {"worklist-size", "5000"}};
    for (size_t k = 0; k < sizeof set / sizeof *set; k++) MNW_IGNORE(mnw_bookmark_set(&b, set[k][0], set[k][1], &e));
    MNW_IGNORE(mnw_bookmark_output(&b, "pairs.tsv.gz", 1843200, &e));
    MNW_IGNORE(mnw_bookmark_output(&b, "dist.column.gz", 401234, &e));
    MNW_IGNORE(mnw_bookmark_output(&b, "dist.phylip", 380100, &e));
    if (mnw_bookmark_write(argv[2], &b, &e)) return 1;
    mnw_bookmark_free(&b);
    mnw_bookmark_init(&b); /* tests/unit/test_bookmark.c's sample */
    snprintf(b.input_hash, sizeof b.input_hash, "0123456789abcdef0123456789abcdef");
    b.sequences = 200;
    b.pairs = 19900;
    b.watermark = 5000;
    MNW_IGNORE(mnw_bookmark_set(&b, "match", "2", &e));
    MNW_IGNORE(mnw_bookmark_set(&b, "identity", "mothur onegap countends", &e));
    MNW_IGNORE(mnw_bookmark_output(&b, "pairs.tsv.gz", 123456789012ull, &e));
    MNW_IGNORE(mnw_bookmark_output(&b, "dist.column.gz", 42, &e));
    if (mnw_bookmark_write(argv[3], &b, &e)) return 1;
    mnw_bookmark_free(&b);
    mnw_seqset_free(&s);
    return 0;
}
EOF
# the bookmark's sources as the fuzz target links them (Makefile, FUZZ_SRC_bookmark), and
# libdeflate from the system or from scripts/deps.sh's .deps/usr
dfl=
[ -f .deps/usr/include/libdeflate.h ] && dfl="-I.deps/usr/include -L$(dirname "$(ls .deps/usr/lib/*/libdeflate.a .deps/usr/lib/libdeflate.a 2>/dev/null | head -1)")"
${CC:-gcc} -std=c11 -D_GNU_SOURCE -Wall -Werror -I. $dfl -o "$tmp/bm" "$tmp/bm.c" cld/bookmark.c lib/sum.c lib/outsel.c \
    lib/regfile.c lib/afile.c lib/fasta.c lib/seq.c lib/util.c lib/buf.c lib/fmtnum.c -l:libdeflate.a -lz
mkdir -p "$tmp/b1" "$tmp/b2"
"$tmp/bm" tests/data/16s-200.fa "$tmp/b1" "$tmp/b2"
bseed() { { printf "\\x$(printf %02x "$2")"; cat "$3"; } > "$C/bookmark/$1"; }
bseed 16s-200 0 "$tmp/b1/mnw.bookmark"
bseed 16s-200-fixcrc 1 "$tmp/b1/mnw.bookmark"
bseed sample 0 "$tmp/b2/mnw.bookmark"
head -c 150 "$tmp/b1/mnw.bookmark" > "$tmp/cut"
bseed 16s-200-truncated 0 "$tmp/cut"
ls "$C"/* | wc -l
