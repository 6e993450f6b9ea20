# t_shard.sh - --shard I/N and mnw merge (docs/SHARDS.md): shards 1..N of
# one run, each its own run with its own OUTDIR, concatenated in order, are
# byte for byte the whole run's outputs (gzip members, plain text, the
# PAF), for several N, genes of very uneven lengths and more shards than
# work lists (empty shards); a shard killed with -9 and resumed; a shard on
# 2 MPI ranks; mnw status and verify of a shard; a bad --shard and a resume
# asking for another shard are refused with nothing written. mnw merge of
# the shards (any order) is the whole run, for status, verify and --resume
# too; a missing, duplicated, incomplete, foreign or damaged shard, a whole
# run given as a shard and a non-empty OUTDIR are refused, naming it, with
# nothing written; what a killed merge left is named as such, with what to
# do (rm -r, then merge again: mnw merge has no --force).
source "$(dirname "$0")/../lib.sh"
cd "$TMP"
# 120 genes of 16s-200, the first 80 cut to 300 bases: the cells, not the
# pairs, set the boundaries
awk '/^>/{n++} n>120{exit} {print}' "$TDATA/16s-200.fa" |
    awk '/^>/{n++; b = 0; print; next} n > 80 {print; next} b < 300 {print substr($0, 1, 300 - b); b += length($0)}' > u120.fa
outs=(--cigar --outputs pairs,dist,phylip,paf,dist-plain,userout)
files="pairs.tsv.gz dist.column.gz dist.phylip alignments.paf.gz dist.column userout.tsv.gz"
opts=(-q -t 2 --worklist-size 100 --gpus none "${outs[@]}")
"$MNW" -i u120.fa -o whole "${opts[@]}"
check "the whole run (7,140 pairs, 72 work lists of 100; 80 genes of 300 bases, 40 whole)" \
    'grep -q "^watermark 7140$" whole/mnw.bookmark && [ "$(awk "/^>/{if (l) print l; l = 0; next} {l += length(\$0)} END {print l}" u120.fa | grep -c "^300$")" -eq 80 ]'

# joined N DIR... : each output of the shard dirs concatenated equals the whole run's
joined() {
    local n=$1 f d; shift
    for f in $files; do
        for d in "$@"; do cat "$d/$f"; done | cmp -s - whole/$f || { echo "# $n shards: $f differs"; return 1; }
    done
}
for n in 1 2 3 7 80; do
    dirs=()
    for ((i = 1; i <= n; i++)); do
        "$MNW" -i u120.fa -o sh${n}_$i "${opts[@]}" --shard $i/$n || echo "# shard $i/$n: exit $?"
        dirs+=(sh${n}_$i)
    done
    check "$n shard(s) concatenated in order: every output byte-identical to the whole run" 'joined $n "${dirs[@]}"'
done
sum_pairs() { local t=0 d; for d in "$@"; do t=$((t + $(zcat $d/pairs.tsv.gz | grep -vc "^i"))); done; echo $t; }
check "3 shards: 7,140 pairs in all, each shard's pairs.tsv its own lines, the header only in the first" \
    '[ "$(sum_pairs sh3_1 sh3_2 sh3_3)" -eq 7140 ] && [ "$(zcat sh3_1/pairs.tsv.gz | head -1 | cut -f1)" = i ] && ! zcat sh3_2/pairs.tsv.gz sh3_3/pairs.tsv.gz | grep -q "^i"'
r=$(sed -n 's/^setting shard-range //p' sh2_1/mnw.bookmark)
check "2 shards of uneven genes: balanced by cells, not pairs (the first holds ${r#* } of 7,140)" \
    '[ "${r%% *}" = 0 ] && [ "${r#* }" -gt 4500 ] && [ $(( ${r#* } % 100 )) -eq 0 ]'
check "the shard's log says which pairs it aligns" 'grep -q "shard 2/3: pairs [0-9]* to [0-9]*, [0-9]* of the 7140" sh3_2/mnw.log'
nempty=0
for ((i = 1; i <= 80; i++)); do grep -q "no pair (more shards than work lists" sh80_$i/mnw.log && nempty=$((nempty + 1)); done
check "80 shards of 72 work lists: at least 8 are empty ($nempty), and say so" '[ $nempty -ge 8 ]'
e=$(for ((i = 2; i <= 80; i++)); do grep -q "no pair" sh80_$i/mnw.log && echo sh80_$i && break; done)
check "an empty shard ($e): complete, its gzip outputs empty, mnw verify accepts it" \
    '[ -n "$e" ] && [ ! -s $e/pairs.tsv.gz ] && [ ! -s $e/alignments.paf.gz ] && "$MNW" verify $e >verify_empty.txt 2>&1 && grep -q "the shard is complete" verify_empty.txt'

# mnw status and verify of a shard
"$MNW" status sh3_2 >status.txt 2>&1
check "mnw status of a shard: the shard and its own pairs" 'grep -q "shard      2/3" status.txt && grep -q "complete" status.txt'
"$MNW" verify sh3_2 >verify.txt 2>&1
rc=$?
check "mnw verify of a shard: exit 0, the shard is complete" '[ $rc -eq 0 ] && grep -q "pairs written: the shard 2/3 is complete" verify.txt'
out=$("$MNW" --resume sh3_2 2>&1)
check "--resume of a complete shard: nothing to do" '[[ "$out" == *"shard 2/3 in sh3_2 is complete"*"nothing to do"* ]]'

# a shard killed with -9 as soon as its first bookmark is there, then resumed
"$MNW" -i u120.fa -o k -q -t 1 --worklist-size 100 --gpus none "${outs[@]}" --shard 2/3 --bookmark-every 0.1 >/dev/null 2>&1 &
job=$!
for ((t = 0; t < 300; t++)); do grep -qs "^watermark" k/mnw.bookmark && break; sleep 0.01; done
sleep 0.05 # the shard takes about a second on one core
kill -9 $job; wait $job 2>/dev/null
cp -r k kpart # an incomplete shard, for mnw merge below
w=$(sed -n 's/^watermark //p' k/mnw.bookmark)
r=$(sed -n 's/^setting shard-range //p' k/mnw.bookmark)
check "shard 2/3 killed with -9: its bookmark is whole, within its pairs ($w in $r)" \
    '[ -n "$w" ] && [ "$w" -ge "${r%% *}" ] && [ "$w" -le "${r#* }" ] && tail -1 k/mnw.bookmark | grep -q "^end "'
"$MNW" -q --resume k -t 2 --gpus none
rc=$?
check "the killed shard resumed: exit 0, its outputs equal the uninterrupted shard's" '[ $rc -eq 0 ] && same_bytes sh3_2 k && cmp -s sh3_2/dist.column k/dist.column'

# a shard on 2 MPI ranks
"${MPIRUN[@]}" -np 2 "$MNW" -i u120.fa -o mpi3 -q -t 1 --worklist-size 100 --gpus none "${outs[@]}" --shard 3/3 >mpi.log 2>&1
rc=$?
check "shard 3/3 on 2 MPI ranks: exit 0, the same bytes as on one" '[ $rc -eq 0 ] && same_bytes sh3_3 mpi3 && cmp -s sh3_3/dist.column mpi3/dist.column'

# refusals: nothing written
for bad in 0/3 4/3 x 1/0 2; do
    out=$("$MNW" -i u120.fa -o bad "${opts[@]}" --shard $bad 2>&1)
    rc=$?
    check "--shard $bad: exit 2, the value named, OUTDIR not created" '[ $rc -eq 2 ] && [[ "$out" == *"shard takes I/N"*"$bad"* ]] && [ ! -e bad ]'
done
b=$(cat k/mnw.bookmark | md5sum)
out=$("$MNW" --resume k --shard 1/3 2>&1)
rc=$?
check "--resume of shard 2/3 with --shard 1/3: exit 2, both named, nothing changed" \
    '[ $rc -eq 2 ] && [[ "$out" == *"made with shard 2/3"*"shard 1/3"* ]] && [ "$(cat k/mnw.bookmark | md5sum)" = "$b" ]'
out=$("$MNW" --resume whole --shard 1/2 2>&1)
rc=$?
check "--resume of a whole run with --shard 1/2: exit 2 (the run was made with shard none)" '[ $rc -eq 2 ] && [[ "$out" == *"made with shard none"* ]]'
# mnw merge
"$MNW" merge m3 sh3_2 sh3_3 sh3_1 >merge.txt 2>&1
rc=$?
check "mnw merge of shards 3, 1, 2 of 3 (any order): exit 0, says the run is complete" '[ $rc -eq 0 ] && grep -q "3 shards, 7,140 pairs, into m3: the run is complete" merge.txt'
check "the merged outputs are byte for byte the whole run's (all five)" 'for f in $files; do cmp -s m3/$f whole/$f || exit 1; done'
check "the merged bookmark: the whole run's, line for line (shard none, every pair, the same checksums), but for the input's path" \
    'grep -q "^watermark 7140$" m3/mnw.bookmark && grep -q "^setting shard none$" m3/mnw.bookmark && ! grep -q "^setting shard-range" m3/mnw.bookmark && diff <(grep -v "^end\|^setting input" whole/mnw.bookmark) <(grep -v "^end\|^setting input" m3/mnw.bookmark)'
"$MNW" verify m3 >verify_m3.txt 2>&1
rc=$?
check "mnw verify of the merged run: exit 0, complete" '[ $rc -eq 0 ] && grep -q "the run is complete" verify_m3.txt'
"$MNW" status m3 >status_m3.txt 2>&1
check "mnw status of the merged run: done, merged from 3 shards, 7,140 of 7,140 pairs" 'grep -q "state      done: merged from 3 shards" status_m3.txt && grep -q "7,140 of 7,140 pairs" status_m3.txt'
out=$("$MNW" --resume m3 2>&1)
check "--resume of the merged run: complete, nothing to do" '[[ "$out" == *"the run in m3 is complete (7140 pairs); nothing to do"* ]]'
"$MNW" merge m80 $(for ((i = 80; i >= 1; i--)); do echo sh80_$i; done) >/dev/null 2>&1
rc=$?
check "mnw merge of 80 shards, some empty: the whole run's bytes" '[ $rc -eq 0 ] && for f in $files; do cmp -s m80/$f whole/$f || exit 1; done'
"$MNW" merge m1 sh1_1 >/dev/null 2>&1
check "mnw merge of the one shard of 1/1: the whole run's bytes" 'for f in $files; do cmp -s m1/$f whole/$f || exit 1; done'

# refusals: exit 1, the culprit named, nothing written
"$MNW" -q -i u120.fa -o g6 -t 2 --worklist-size 100 --gpus none "${outs[@]}" --shard 2/3 --gzip-level 6
awk '/^>/{n++} n>120{exit} {print}' "$TDATA/16s-200.fa" > o120.fa
"$MNW" -q -i o120.fa -o other -t 2 --worklist-size 100 --gpus none "${outs[@]}" --shard 2/3
cp -r sh3_2 bad2
printf 'X' | dd of=bad2/dist.column.gz bs=1 seek=$(( $(stat -c %s bad2/dist.column.gz) / 2 )) conv=notrunc 2>/dev/null
refuse() { # refuse DESC PATTERN OUT SHARDS...
    local desc=$1 pat=$2 o=$3; shift 3
    local out rc
    out=$("$MNW" merge $o "$@" 2>&1)
    rc=$?
    check "mnw merge, $desc: exit 1, says so, $o not made" '[ $rc -eq 1 ] && [[ "$out" == *$pat* ]] && [ ! -e $o ]' || echo "#   exit $rc: $out"
}
refuse "a shard missing" "shard 2/3 is missing" x1 sh3_1 sh3_3
refuse "a shard given twice" "shard 2/3 given twice: sh3_2 and sh3_2" x2 sh3_1 sh3_2 sh3_2 sh3_3
refuse "a shard of another split" "shards of different splits" x3 sh3_1 sh2_2 sh3_3
refuse "a shard with other settings" "setting gzip-level" x4 sh3_1 g6 sh3_3
refuse "a shard of other sequences" "shards of different inputs" x5 sh3_1 other sh3_3
refuse "a shard not complete" "kpart/mnw.bookmark: shard 2/3 is not complete" x6 sh3_1 kpart sh3_3
refuse "a whole run given as a shard" "whole/mnw.bookmark: not a shard" x7 whole
refuse "a shard output damaged in the middle" "bad2/dist.column.gz: its bytes are not what shard 2/3 wrote" x8 sh3_1 bad2 sh3_3
mkdir full && echo keep > full/note
out=$("$MNW" merge full sh3_1 sh3_2 sh3_3 2>&1)
rc=$?
check "mnw merge into a non-empty OUTDIR: exit 1, nothing changed" '[ $rc -eq 1 ] && [ "$(ls full)" = note ] && [ "$(cat full/note)" = keep ]' || echo "#   exit $rc: $out"
check "the message says to give another directory (mnw merge has no --force)" \
    '[[ $out == *"full: output directory is not empty: mnw merge writes only into a new or empty directory"* ]] && [[ $out != *--force* ]]' ||
    echo "#   $out"
# what a merge killed before its bookmark leaves: renamed outputs, a temporary
# .NAME.merge, its log and lock (issue 38)
mkdir killed && cp m3/pairs.tsv.gz m3/mnw.log killed/ && head -c 1000 m3/dist.column.gz > killed/.dist.column.gz.merge &&
    : > killed/mnw.lock
out=$("$MNW" merge killed sh3_1 sh3_2 sh3_3 2>&1)
rc=$?
check "mnw merge into what a killed merge left: exit 1, says to remove it and merge again (rm -r), no --force" \
    '[ $rc -eq 1 ] && [[ $out == *"killed: holds what a stopped mnw merge left"*"rm -r killed) and run mnw merge again"* ]] && [[ $out != *--force* ]]' ||
    echo "#   exit $rc: $out"
rm -r killed
"$MNW" merge killed sh3_1 sh3_2 sh3_3 >/dev/null 2>&1
rc=$?
check "after rm -r, the merge again: exit 0, the whole run's bytes" '[ $rc -eq 0 ] && for f in $files; do cmp -s killed/$f whole/$f || exit 1; done'
mkdir empty
refuse2() { "$MNW" merge empty sh3_1 bad2 sh3_3 >/dev/null 2>&1; }
check "mnw merge into an empty OUTDIR, failing on the damaged shard mid-copy: OUTDIR stays empty (no lock, no temporary file)" '! refuse2 && [ -d empty ] && [ -z "$(ls -A empty)" ]'
"$MNW" merge >/dev/null 2>&1
rc=$?
check "mnw merge without arguments: exit 2" '[ $rc -eq 2 ]'
finish
