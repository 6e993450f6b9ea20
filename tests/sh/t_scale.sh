# t_scale.sh - 150,000 sequences as one resumable job (issue 22): a set of
# 150,000 16S-length sequences (11,249,925,000 pairs, beyond 2^32) built
# from the bundled real 16S genes (each gene with 3 substitutions placed by
# its number, so no two are alike), started on 2 ranks and stopped with
# SIGTERM, resumed on 3 ranks writing through MPI-IO and stopped again:
# pair counts, progress.json, the ETA and `mnw status` while it runs and
# after, the bookmark's arithmetic (the watermark on list edges, growing by
# what each run wrote), `mnw verify`, and the written prefix byte for byte
# against the same prefix of a single-process run of the same set. Then the
# last shard of 2 (pairs from 5,624,962,500, past 2^32) for a few lists:
# each pair's names are those the pair number says. Minutes, not hours: each
# run aligns a few tens of thousands of pairs. Not run under the sanitizers
# (tests/san/run.sh: three ranks of 225 MB of sequences each, instrumented);
# the same code runs there on small sets.
source "$(dirname "$0")/../lib.sh"
cd "$TMP"
N=150000 total=11249925000
zcat "$ROOT/data/16s-500.fa.gz" | awk -v n=$N '
    /^>/ { if (s != "") g[k++] = s; s = ""; next } { s = s $0 }
    END { if (s != "") g[k++] = s
          split("A C G T", b, " "); nb["A"] = 1; nb["C"] = 2; nb["G"] = 3; nb["T"] = 4
          for (i = 0; i < n; i++) {
              x = g[i % k]; L = length(x)
              for (m = 0; m < 3; m++) { # 3 substitutions where the number i puts them
                  p = 1 + (int(i / k) * (m == 0 ? 7 : m == 1 ? 13 : 29) + m * 97) % L
                  c = substr(x, p, 1); c = (c in nb) ? b[1 + nb[c] % 4] : "A"
                  x = substr(x, 1, p - 1) c substr(x, p + 1)
              }
              printf ">s%d\n%s\n", i, x
          } }' > big.fa
check "the set: 150,000 sequences of 16S length" \
    '[ "$(grep -c "^>" big.fa)" -eq $N ] && [ "$(awk "NR==2{print length}" big.fa)" -gt 1000 ]'
check "no two sequences alike" '[ "$(grep -v "^>" big.fa | sort -u | wc -l)" -eq $N ]'
opts=(--worklist-size 1000 --bookmark-every 0.5 --gpus none --bind no -q)
# wm DIR: the bookmark's watermark; bm DIR KEY: a bookmark line's value
wm() { sed -n 's/^watermark //p' "$1/mnw.bookmark" 2>/dev/null; }
bm() { sed -n "s/^$2 //p" "$1/mnw.bookmark" 2>/dev/null | head -1; }
# wait_mark DIR PAIRS S: until DIR's bookmark holds PAIRS pairs (at most S s)
wait_mark() {
    local t w
    for ((t = 0; t < $3 * 10; t++)); do w=$(wm "$1"); [ -n "$w" ] && [ "$w" -ge "$2" ] && return 0; sleep 0.1; done
    return 1
}
# pj DIR KEY: a number from progress.json
pj() { sed -nE "s/^  \"$2\": ([0-9.]+),?$/\1/p" "$1/progress.json"; }

# --- 1: two ranks, stopped ---
"${MPIRUN[@]}" -np 2 "$MNW" -i big.fa -o big "${opts[@]}" -t 1 >run1.log 2>&1 &
job=$!
wait_mark big 6000 300
for t in $(seq 1 50); do # a speed (and so an ETA) once progress.json has one
    "$MNW" status big >status_running.txt 2>&1
    grep -qE "ETA +[0-9]" status_running.txt && break
    sleep 0.2
done
kill -USR1 $job # mpirun passes it on to the ranks (as Slurm's --signal does)
wait $job
rc=$?
w1=$(wm big)
check "2 ranks, SIGUSR1: exit 3 (stopped, bookmark written)" '[ $rc -eq 3 ]' || sed 's/^/#   /' run1.log | tail -5
check "the bookmark counts every pair of the set: $total, beyond 2^32" \
    '[ "$(bm big pairs)" = $total ] && [ "$(bm big sequences)" = $N ] && [ $total -gt 4294967296 ]'
check "the watermark ($w1) lies on a list edge, past the 6,000 waited for" \
    '[ -n "$w1" ] && [ $((w1 % 1000)) -eq 0 ] && [ $w1 -ge 6000 ] && [ $w1 -lt $total ]'
check "mnw status while it ran: the whole count, a speed and an ETA" \
    'grep -q "11,249,925,000" status_running.txt && grep -qE "ETA +[0-9]" status_running.txt' ||
    sed "s/^/#   /" status_running.txt
check "progress.json after the stop: stopped, $w1 of $total" \
    'grep -q "\"state\": \"stopped\"" big/progress.json && [ "$(pj big pairs_total)" = $total ] && [ "$(pj big pairs_done)" = $w1 ]'

# --- 2: resumed on three ranks writing through MPI-IO, stopped again ---
"${MPIRUN[@]}" -np 3 "$MNW" --resume big --output-via mpiio -t 1 --gpus none -q >run2.log 2>&1 &
job=$!
wait_mark big $((w1 + 6000)) 300
"$MNW" status big --json >status2.json 2>&1
kill -TERM $(rank_pid big 0) $(rank_pid big 1) $(rank_pid big 2) # every rank, as a scancel does
wait $job
rc=$?
w2=$(wm big)
check "resumed on 3 ranks (MPI-IO), SIGTERM to every rank: exit 3" '[ $rc -eq 3 ]' || sed 's/^/#   /' run2.log | tail -5
check "the ranks wrote through MPI-IO" 'grep -q "3 ranks" big/mnw.log && grep -q "every rank writes its own results into .* through MPI-IO" big/mnw.log'
check "the watermark grew by what the resumed run wrote ($w1 -> $w2), on a list edge" \
    '[ -n "$w2" ] && [ $w2 -gt $w1 ] && [ $((w2 % 1000)) -eq 0 ]'
# "stopped (SIGTERM): W of T pairs written (P%), R in this run"
line=$(grep "WARN stopped (" big/mnw.log | tail -1)
check "mnw.log: $w2 of $total written, $((w2 - w1)) in the resumed run" \
    'echo "$line" | grep -q ": $w2 of $total pairs written (0.0%), $((w2 - w1)) in this run"' || echo "#   $line"
check "progress.json: one resume, started at $w1, $w2 done of $total" \
    '[ "$(pj big resumes)" = 1 ] && [ "$(pj big pairs_at_start)" = $w1 ] && [ "$(pj big pairs_done)" = $w2 ] && [ "$(pj big pairs_total)" = $total ]'
check "mnw status --json while the resumed run ran: its total and an ETA" \
    'grep -q "11249925000" status2.json && grep -qE "\"eta_s\": [0-9]" status2.json' || head -c 600 status2.json | sed 's/^/#   /'
"$MNW" status big >status_stopped.txt 2>&1
check "mnw status after the stop: stopped, the whole count, how to continue" \
    'grep -qi "stopped" status_stopped.txt && grep -q "11,249,925,000" status_stopped.txt && grep -q "mnw --resume" status_stopped.txt' ||
    sed 's/^/#   /' status_stopped.txt
"$MNW" verify big >verify.txt 2>&1
rc=$?
check "mnw verify: every byte the bookmark counts is there" '[ $rc -eq 0 ]' || sed 's/^/#   /' verify.txt

# --- the same prefix from one process ---
"$MNW" -i big.fa -o one "${opts[@]}" -t 2 >one.log 2>&1 &
job=$!
wait_mark one $w2 600
kill -TERM $job
wait $job
check "a single-process run of the set reaches pair $w2 ($(wm one))" '[ "$(wm one)" -ge $w2 ]'
prefix_same() {
    local name len
    while read -r name len; do
        [ -n "$len" ] && [ "$len" -gt 0 ] || return 1
        cmp -s -n "$len" "big/$name" "one/$name" || { echo "# $name differs in its first $len bytes"; return 1; }
    done < <(sed -n 's/^output \([^ ]*\) \([0-9]*\) .*/\1 \2/p' big/mnw.bookmark)
}
check "the 2- then 3-rank run's written prefix is byte-identical to the single-process run's" 'prefix_same'

# --- past 2^32: the last shard of two ---
"${MPIRUN[@]}" -np 2 "$MNW" -i big.fa -o last --shard 2/2 "${opts[@]}" -t 1 >last.log 2>&1 &
job=$!
for t in $(seq 1 600); do grep -q "shard 2/2: pairs" last/mnw.log 2>/dev/null && break; sleep 0.1; done
k0=$(sed -nE 's/.*shard 2\/2: pairs ([0-9]+) to.*/\1/p' last/mnw.log)
wait_mark last $((${k0:-0} + 2000)) 300
kill -TERM $job
wait $job
check "shard 2/2 starts past 2^32 (pair $k0)" '[ -n "$k0" ] && [ "$k0" -gt 4294967296 ]'
# each line (no header: not the first shard) against pair k0 + its number:
# k = i(i-1)/2 + j (lib/pairs.h); columns i, j, id_i, id_j
names_right() {
    zcat last/pairs.tsv.gz 2>/dev/null | awk -F'\t' -v k0="$k0" '
        { k = k0 + NR - 1; i = int((1 + sqrt(1 + 8 * k)) / 2)
          while (i * (i - 1) / 2 > k) i--; while ((i + 1) * i / 2 <= k) i++
          j = k - i * (i - 1) / 2
          if ($1 != i || $2 != j || $3 != "s" i || $4 != "s" j) {
              print "# line " NR ": " $1 " " $2 " " $3 " " $4 ", but pair " k " is " i " " j; bad = 1; exit }
          n++ }
        END { exit bad || n < 2000 }'
}
check "its first 2,000 pairs or more name the sequences their pair numbers say" 'names_right'
finish
