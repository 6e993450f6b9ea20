#!/usr/bin/env bash
# bench/like_agree.sh - issue 41's targets measured on genes the tests do not
# use: the last N genes of the carried 16s-25k (default 300: 44,850 pairs),
# vsearch 2.22 --allpairs_global with its defaults against mnw --like
# vsearch (the share of pairs whose every field, caln and id0-id4 included,
# is vsearch's text), and mothur 1.48 pairwise.seqs (calc=onegap, countends
# T, kmercutoff=10) on the last M of them (default 100: 4,950 pairs) against
# mnw --like mothur (the share of equal distances), and EMBOSS needle 6.6
# (its defaults) on the last P (default 60: 1,770 pairs) against mnw --like
# needle (the share of equal Score and Identity lines,
# tests/tools/needle_pairs.py). Prints the counts.
#   bash bench/like_agree.sh [N] [M] [P]
set -uo pipefail
. "$(dirname "$0")/lib.sh"
N=${1:-300} M=${2:-100} P=${3:-60}
W=bench/tmp/agree
bench_fresh $W
zcat devdata/16s-25k.fa.gz | awk '/^>/ { n++ } { print n "\t" $0 }' | awk -F'\t' -v n0=$((25000 - N)) '$1 > n0' |
    cut -f2- >$W/vs.fa
awk -v m0=$((N - M)) '/^>/ { n++ } n > m0' $W/vs.fa >$W/mo.fa
awk -v p0=$((N - P)) '/^>/ { n++ } n > p0' $W/vs.fa >$W/nd.fa
echo "# $(bench_stamp)"
echo "# genes: the last $N of devdata/16s-25k.fa.gz (vsearch), the last $M of them (mothur), the last $P (needle)"
F=query+target+id0+id1+id2+id3+id4+alnlen+mism+opens+gaps+raw+caln
vsearch --version 2>&1 | head -1 | sed 's/^/# /'
vsearch --allpairs_global $W/vs.fa --acceptall --qmask none --threads "$(nproc)" --quiet --userout $W/vs.tsv --userfields $F
bin/mnw -q -i $W/vs.fa -o $W/lv --like vsearch --outputs userout --userfields $F
join -t "$(printf '\t')" <(awk -F'\t' '{ print $1 "|" $2 "\t" $0 }' $W/vs.tsv | sort -t "$(printf '\t')" -k1,1) \
    <(zcat $W/lv/userout.tsv.gz | awk -F'\t' '{ print $1 "|" $2 "\t" $0 }' | sort -t "$(printf '\t')" -k1,1) |
    awk -F'\t' '{ n++; if ($14 == $27) c++; d = 0; for (k = 2; k <= 14; k++) if ($k != $(k + 13)) d = 1; if (!d) same++;
        i = 0; for (k = 4; k <= 8; k++) if ($k != $(k + 13)) i = 1; if (!i) ids++ }
        END { printf "vsearch: %d pairs; same caln %d (%.3f%%); id0-id4 all equal %d (%.3f%%); every field %d (%.3f%%)\n",
              n, c, 100 * c / n, ids, 100 * ids / n, same, 100 * same / n }'
mkdir -p $W/mo
(cd $W && mothur "#set.dir(output=mo); pairwise.seqs(fasta=mo.fa, calc=onegap, countends=T, output=column, kmercutoff=10, processors=$(nproc))" >mothur.log 2>&1)
bin/mnw -q -i $W/mo.fa -o $W/lm --like mothur --outputs dist
awk 'NR == FNR { k[$1 " " $2] = $3; next } { key = $1 " " $2; if (key in k) { n++; if (k[key] == $3) s++ } }
    END { printf "mothur (onegap, countends T): %d pairs; same distance %d (%.3f%%)\n", n, s, 100 * s / n }' \
    <(zcat $W/lm/dist.column.gz) $W/mo/mo.dist
needle -version 2>&1 | tail -1 | sed 's/^/# needle /'
bin/mnw -q -i $W/nd.fa -o $W/ln --like needle --outputs pairs
read -r n bs bi < <(cd $W && python3 "$OLDPWD/tests/tools/needle_pairs.py" nd.fa ln/pairs.tsv.gz)
awk -v n="$n" -v bs="$bs" -v bi="$bi" 'BEGIN { printf "needle: %d pairs; same Score %d (%.3f%%); same Identity %d (%.3f%%)\n",
    n, n - bs, 100 * (n - bs) / n, n - bi, 100 * (n - bi) / n }'
[ -n "${KEEP:-}" ] || rm -rf $W
