# t_prune_count.sh - the pairs the filter prunes (issue 39) are counted as
# done and shown everywhere: on 16s-200 at --cutoff 0.03 (--outputs dist, the
# filter on by default), the bookmark's "pruned", progress.json's (the run's
# and the nodes'), mnw status, mnw verify, mnw report (page and summary
# line) and mnw.log's last line agree; pruned + the pairs with a dist line
# <= the pairs; with --prune no every count is 0 and the bookmark stays
# version 2; a run killed with -9 and resumed ends with the uninterrupted
# run's count (the resume starts from its bookmark's); two MPI ranks, output
# through MPI-IO and through rank 0, count the same, their nodes' counts
# adding up; three shards' counts add up to the whole run's and mnw merge
# writes that sum. Skipped (no line, neither pass nor fail) only while
# bin/mnw has no --prune: the filter is merged before this lands.
. "$(dirname "$0")/../lib.sh"
if ! "$MNW" --help 2>&1 | grep -q -- '--prune'; then
    echo "# skip: the filter is not built yet (mnw --help lists no --prune)"
    exit 0
fi
cd "$TMP" || exit 1
IN=$TDATA/16s-200.fa
NPAIRS=19900
opts=(--outputs dist --cutoff 0.03 --gpus none)

bm_pruned() { local v; v=$(sed -n 's/^pruned //p' "$1/mnw.bookmark"); echo "${v:-0}"; }
pj_pruned() { sed -nE 's/^  "pruned": ([0-9]+),$/\1/p' "$1/progress.json"; }
# the nodes' pruned in progress.json, summed
pj_nodes_pruned() { sed -nE 's/^      "pruned": ([0-9]+),$/\1/p' "$1/progress.json" | awk '{s += $1} END {print s + 0}'; }
# mnw status's "pruned N (x% of the pairs done)", 0 when it has no such line
st_pruned() {
    local v
    v=$("$MNW" status "$1" | sed -nE 's/^  pruned     ([0-9,]+) \(.*% of the pairs done\)$/\1/p' | tr -d ,)
    echo "${v:-0}"
}
vf_pruned() { "$MNW" verify "$1" | sed -nE 's/.*: ([0-9,]+) of the pairs written were pruned .*/\1/p' | tr -d ,; }
# mnw report: its summary line's count and the page's row, "A B"
rp_pruned() {
    local a b
    a=$("$MNW" report "$1" -o "$TMP/$2.html" | sed -nE 's/.*; ([0-9]+) pairs pruned\)$/\1/p')
    b=$(sed -nE 's/.*data-k="pruned">([0-9]+) \(.*/\1/p' "$TMP/$2.html")
    echo "$a $b"
}
dist_lines() { zcat "$1/dist.column.gz" | wc -l; }
# all DIR NAME : every count of DIR agrees; prints it
agree() {
    local d=$1 b p s v r
    b=$(bm_pruned "$d") p=$(pj_pruned "$d") s=$(st_pruned "$d") v=$(vf_pruned "$d") r=$(rp_pruned "$d" "$2")
    echo "# $d: bookmark $b, progress.json $p, status $s, verify $v, report $r" >&2
    [ "$b" = "$p" ] && [ "$b" = "$s" ] && [ "$b" = "$v" ] && [ "$r" = "$b $b" ] && echo "$b"
}

# --- one run, the filter on (auto) ---
"$MNW" -q -i "$IN" -o on "${opts[@]}" -t 2 >on.log 2>&1
rc=$?
n_on=$(agree on on)
check "the filter on: exit 0; bookmark, progress.json, status, verify and report agree ($n_on pruned)" \
    '[ $rc -eq 0 ] && [ -n "$n_on" ]'
check "it pruned pairs, and pruned + the pairs with a dist line ($(dist_lines on)) <= $NPAIRS" \
    '[ "$n_on" -gt 0 ] && [ $((n_on + $(dist_lines on))) -le $NPAIRS ]'
check "its bookmark is version 3; the node's pruned is the run's" \
    'head -1 on/mnw.bookmark | grep -qx "mnw-bookmark 3" && [ "$(pj_nodes_pruned on)" = "$n_on" ]'
check "mnw.log's last line gives pairs, pruned and pairs/s" \
    'grep -qE "INFO done: $NPAIRS pairs in [0-9.]+s: [0-9]+ pairs/s, [0-9.]+ GCUPS, $n_on pruned \([0-9.]+%\)" on/mnw.log'
check "the progress.log lines count them: the last says $n_on" \
    'tail -1 on/progress.log | grep -q "\"pruned\":$n_on,\"nodes\""'

# --- the filter off ---
"$MNW" -q -i "$IN" -o off "${opts[@]}" -t 2 --prune no >off.log 2>&1
rc=$?
n_off=$(agree off off)
check "--prune no: exit 0; every count 0, the bookmark version 2 without a pruned line" \
    '[ $rc -eq 0 ] && [ "$n_off" = 0 ] && head -1 off/mnw.bookmark | grep -qx "mnw-bookmark 2" && ! grep -q "^pruned" off/mnw.bookmark && ! "$MNW" status off | grep -q pruned'
check "filter on and off: dist.column.gz byte-identical" 'cmp -s on/dist.column.gz off/dist.column.gz'

# --- killed with -9 and resumed: the count goes on from the bookmark ---
# every bookmark write holds the CLD 0.3 s (MNW_TEST_BOOKMARK_PAUSE), so the
# run is caught between its first bookmark past 0 and its end
MNW_TEST_BOOKMARK_PAUSE=0.3 "$MNW" -q -i "$IN" -o kr "${opts[@]}" -t 1 --worklist-size 100 --bookmark-every 0.1 \
    >kr.log 2>&1 &
job=$!
wm=
for ((k = 0; k < 3000; k++)); do
    wm=$(sed -n 's/^watermark //p' kr/mnw.bookmark 2>/dev/null)
    [ -n "$wm" ] && [ "$wm" -gt 0 ] && break
    sleep 0.01
done
# shellcheck disable=SC2046 # pids, one word each
kill -9 $job $(mnw_pids kr) 2>/dev/null
wait $job 2>/dev/null
wm=$(sed -n 's/^watermark //p' kr/mnw.bookmark)
kp=$(bm_pruned kr)
check "kill -9 at watermark $wm of $NPAIRS ($kp pruned below it)" '[ "$wm" -gt 0 ] && [ "$wm" -lt $NPAIRS ]'
"$MNW" -q --resume kr -t 2 --gpus none >>kr.log 2>&1
rc=$?
n_kr=$(agree kr kr)
check "resumed: exit 0, the counts agree, and equal the uninterrupted run's ($n_kr, $n_on); the same distances" \
    '[ $rc -eq 0 ] && [ "$n_kr" = "$n_on" ] && cmp -s <(zcat kr/dist.column.gz) <(zcat on/dist.column.gz)'
check "the resumed run's node counted only its own pairs ($(pj_nodes_pruned kr) = $n_kr - $kp)" \
    '[ "$(pj_nodes_pruned kr)" -eq $((n_kr - kp)) ]'

# --- two MPI ranks: output through MPI-IO and through rank 0 ---
for via in mpiio rank0; do
    "${MPIRUN[@]}" -np 2 "$MNW" -q -i "$IN" -o mpi_$via "${opts[@]}" -t 1 --output-via $via >mpi_$via.log 2>&1
    rc=$?
    n=$(agree mpi_$via mpi_$via)
    check "2 ranks, --output-via $via: exit 0, counts agree and equal one rank's ($n, $n_on); the nodes' add up" \
        '[ $rc -eq 0 ] && [ "$n" = "$n_on" ] && [ "$(pj_nodes_pruned mpi_$via)" = "$n" ] && cmp -s mpi_$via/dist.column.gz on/dist.column.gz'
done

# --- three shards and mnw merge ---
sum=0
ok_sh=1
for i in 1 2 3; do
    "$MNW" -q -i "$IN" -o sh$i "${opts[@]}" -t 2 --shard $i/3 >sh$i.log 2>&1 || ok_sh=0
    n=$(agree sh$i sh$i) || ok_sh=0
    sum=$((sum + ${n:-0}))
done
check "3 shards: each one's counts agree; they add up to the whole run's ($sum, $n_on)" \
    '[ $ok_sh -eq 1 ] && [ $sum -eq "$n_on" ]'
"$MNW" merge merged sh2 sh3 sh1 >merge.log 2>&1
rc=$?
n_m=$(bm_pruned merged)
check "mnw merge: the merged bookmark, progress.json and status say $n_m, the sum; verify and report agree" \
    '[ $rc -eq 0 ] && [ "$n_m" = "$n_on" ] && [ "$(agree merged merged)" = "$n_on" ] && sed "s/\([0-9]\),\([0-9]\)/\1\2/g" merge.log | grep -q "($n_on pruned), into merged"'
finish
