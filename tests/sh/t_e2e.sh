# t_e2e.sh - bin/mnw end to end on real 16S sets: every pair written is
# checked (CIGAR/score/counts/identity agree; scores equal parasail's
# nw_trace/sg_trace; the first pairs equal the reference aligner) in each
# scoring mode; outputs are identical whatever the thread count, work-list
# size or instruction set; config file and command line agree.
source "$(dirname "$0")/../lib.sh"
CHECK="$BUILD/tools/check_output"
# Under a sanitizer (tests/san/run.sh sets MNW_SAN) the scores are not also
# compared with parasail's: parasail is not instrumented, and its trace
# tables, allocated per pair, cost minutes of page faults under ASan on a
# 2-core VM; `make test` compares them. Every other check runs.
PARASAIL=--parasail
[ -n "${MNW_SAN:-}" ] && PARASAIL=
# MNW_TEST_QUICK (the sanitizer runs): the same paths, repeated less: the
# default-scoring check on 100 genes instead of 200, fewer pairs also run
# through the reference aligner, three of the seven worker setups
LIN=s200 NREF=60 NREF80=40
variants=("--threads 1" "--threads 3" "--worklist-size 1" "--worklist-size 7 --threads 2" "--gzip-level 1"
          "--traceback-thread --threads 2" "--traceback-thread --worklist-size 7 --threads 3")
if [ -n "${MNW_TEST_QUICK:-}" ]; then
    LIN=s100 NREF=10 NREF80=6
    variants=("--threads 3" "--worklist-size 1" "--traceback-thread --worklist-size 7 --threads 3")
fi
cd "$TMP"
cp "$TDATA/16s-200.fa" s200.fa
# 40 genes with IUPAC codes and 40 without, from the RDP gold sample
gold80 gold80.fa
awk '/^>/{n++} n>100{exit} {print}' s200.fa > s100.fa
awk '/^>/{n++} n>40{exit} {print}' s200.fa > s40.fa
check "gold80: 80 genes, 40 with IUPAC codes" '[ "$(grep -c ">" gold80.fa)" -eq 80 ] && [ "$(grep -v "^>" gold80.fa | tr a-z A-Z | grep -c "[RYSWKMBDHVN]")" -ge 40 ]'

# default scoring, 16s-200 (19,900 pairs): all checked against parasail
ok "mnw runs on $LIN (default linear +4/-5/10)" "$MNW" -q -i $LIN.fa -o lin --cigar
"$CHECK" $LIN.fa lin/pairs.tsv.gz 4 -5 10 10 0 $PARASAIL --ref $NREF || T_FAILED=1

# other scoring modes on real genes with IUPAC codes
ok "mnw runs affine (open 16, extend 4)" "$MNW" -q -i gold80.fa -o aff --cigar --gap-open 16 --gap-extend 4
"$CHECK" gold80.fa aff/pairs.tsv.gz 4 -5 16 4 0 $PARASAIL --ref $NREF80 || T_FAILED=1
ok "mnw runs linear with free end gaps" "$MNW" -q -i gold80.fa -o fe --cigar --free-end-gaps
"$CHECK" gold80.fa fe/pairs.tsv.gz 4 -5 10 10 1 $PARASAIL --ref $NREF80 || T_FAILED=1
ok "mnw runs affine with free end gaps, other scores" "$MNW" -q -i gold80.fa -o afe --cigar --match 2 --mismatch -3 --gap-open 5 --gap-extend 2 --free-end-gaps
"$CHECK" gold80.fa afe/pairs.tsv.gz 2 -3 5 2 1 $PARASAIL --ref $NREF80 || T_FAILED=1
ok "mnw runs with scores that need 32-bit lanes" "$MNW" -q -i gold80.fa -o big --cigar --match 200 --mismatch -300 --gap 400
"$CHECK" gold80.fa big/pairs.tsv.gz 200 -300 400 400 0 --ref $NREF80 || T_FAILED=1

# same results whatever the worker setup. Lists of one pair fill one SIMD
# lane of 32 (AVX-512; 16 with AVX2), so each pair costs about as much as a
# full lane group: that setup runs on 40 genes (780 lists, one gzip member
# each), against a base run of the same 40
"$MNW" -q -i s100.fa -o base --cigar --phylip
"$MNW" -q -i s40.fa -o base40 --cigar --phylip
for v in "${variants[@]}"; do
    rm -rf alt
    fa=s100 b=base
    case " $v " in *" --worklist-size 1 "*) fa=s40 b=base40 ;; esac
    "$MNW" -q -i $fa.fa -o alt --cigar --phylip $v
    check "identical outputs with $v ($fa)" 'cmp -s <(zcat $b/pairs.tsv.gz) <(zcat alt/pairs.tsv.gz) && cmp -s <(zcat $b/dist.column.gz) <(zcat alt/dist.column.gz) && cmp -s $b/dist.phylip alt/dist.phylip'
    [ "$v" = "--gzip-level 1" ] && mv alt level1
done
if [ -d level1 ]; then # --gzip-level fast is level 1: the same bytes, on other threads too
    "$MNW" -q -i s100.fa -o fast --cigar --phylip --gzip-level fast --threads 3
    check "--gzip-level fast writes level 1's bytes" 'cmp -s level1/pairs.tsv.gz fast/pairs.tsv.gz && cmp -s level1/dist.column.gz fast/dist.column.gz && grep -q "pairs.tsv.gz fast (libdeflate 1)" fast/mnw.log'
fi
for isa in sse41 avx2 avx512; do
    rm -rf alt
    MNW_SIMD=$isa "$MNW" -q -i s100.fa -o alt --cigar --phylip
    if grep -q " $isa (" alt/mnw.log; then
        check "identical outputs with $isa lanes (MNW_SIMD=$isa)" 'cmp -s <(zcat base/pairs.tsv.gz) <(zcat alt/pairs.tsv.gz)'
    elif [ $isa = avx512 ]; then
        echo "# this CPU has no AVX-512BW: MNW_SIMD=avx512 fell back to $(grep -o "CPU workers.*" alt/mnw.log)"
    else
        echo "not ok - MNW_SIMD=$isa was not used: $(grep -o "CPU workers.*" alt/mnw.log)"; T_FAILED=1
    fi
done
check "gzip outputs pass gzip -t" 'gzip -t base/pairs.tsv.gz && gzip -t base/dist.column.gz'

# formats
check "pairs.tsv.gz: header + 4950 lines" '[ "$(zcat base/pairs.tsv.gz | wc -l)" -eq 4951 ]'
check "dist.column.gz: 4950 lines of 'id_i id_j distance'" '[ "$(zcat base/dist.column.gz | awk "NF==3" | wc -l)" -eq 4950 ]'
check "dist.phylip: n, then row i holds i distances" '[ "$(head -1 base/dist.phylip)" = 100 ] && awk "NR>1 && NF!=NR-1{bad=1} END{exit bad}" base/dist.phylip && [ "$(wc -l < base/dist.phylip)" -eq 101 ]'
check "dist.column and pairs.tsv agree (distance = 1 - identity, ids in the same order)" 'paste -d" " <(zcat base/pairs.tsv.gz | awk "NR>1{print \$3, \$4, \$11}") <(zcat base/dist.column.gz) | awk "\$1!=\$4 || \$2!=\$5 || (\$6-(1-\$3))^2 > 1e-12 {bad=1} END{exit bad}"'
rm -rf cut
"$MNW" -q -i s100.fa -o cut --cutoff 0.03
check "--cutoff 0.03 keeps exactly the pairs at distance <= 0.03" 'cmp -s <(zcat base/dist.column.gz | awk "\$3<=0.03") <(zcat cut/dist.column.gz)'
check "without --cigar there is no cigar column" '[ "$(zcat cut/pairs.tsv.gz | head -1 | awk -F"\t" "{print NF}")" -eq 11 ]'

# config file == command line
cat > job.conf <<CONF
# a job file
input = s100.fa
outdir = conf
cigar
phylip = yes
CONF
ok "config file run" "$MNW" -q -c job.conf
check "config file gives the command line's results" 'cmp -s <(zcat base/pairs.tsv.gz) <(zcat conf/pairs.tsv.gz) && cmp -s base/dist.phylip conf/dist.phylip'
check "log file written with settings and summary" 'grep -q "scoring: match 4 mismatch -5" base/mnw.log && grep -q "done: 4950 pairs" base/mnw.log'
"$MNW" --help > help.txt
check "--help lists the options" 'grep -q -- "--free-end-gaps" help.txt && grep -q -- "--iddef" help.txt'
check "--version" '"$MNW" --version | grep -q "^mnw [0-9]" && "$MNW" --version | grep -q "^License: MIT"'
finish
