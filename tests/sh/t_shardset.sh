#!/usr/bin/env bash
# t_shardset.sh - `mnw status PARENT` for a run split by mnw-submit --shards
# (src/status_shards.c, lib/shardset.c; docs/STATUS.md): the shards run here
# as mnw-submit's batch script runs them (outside Slurm), one complete, one
# stopped by SIGTERM, one killed with SIGKILL, one not started; the sum of
# their pairs, each state, the advice, the JSON form; and every damaged or
# foreign manifest or shard refused with the file (and line) named.
. "$(dirname "$0")/../lib.sh"
cd "$TMP"
SUB=$ROOT/slurm/mnw-submit
cp "$TDATA/16s-200.fa" a.fa
opts=(-t 1 --gpus none --worklist-size 100 --bookmark-every 1)
"$SUB" --mnw "$MNW" --dry-run --shards 4 -i a.fa -o P -- "${opts[@]}" >submit.out 2>&1
check "mnw-submit --shards 4 --dry-run: the manifest P/mnw.shards" '[ -f P/mnw.shards ]' || sed 's/^/#   /' submit.out

SLURM_ARRAY_TASK_ID=1 bash P/mnw-shards.sbatch >task1.log 2>&1
term_mid_run P/shard-2 -i a.fa --shard 2/4 "${opts[@]}"
check "shard 2 stopped by SIGTERM (exit 3)" '[ $rc -eq 3 ]'
"$MNW" -o P/shard-3 -i a.fa --shard 3/4 "${opts[@]}" 2>/dev/null &
job=$!
for ((k = 0; k < 3000; k++)); do [ -s P/shard-3/mnw.bookmark ] && break; sleep 0.01; done
sleep 0.2
kill -KILL $job
wait $job 2>/dev/null

"$MNW" status P >st.txt 2>&1
rc=$?
show() { sed 's/^/#   /' st.txt; }
check "mnw status P: exit 0, the run split into 4 shards, its input" \
    '[ $rc -eq 0 ] && grep -q "^mnw run in P, split into 4 shards" st.txt && grep -q "^  input      $TMP/a.fa$" st.txt' || show
check "the count: 1 done, 0 running, 0 queued, 3 stopped or not started" \
    'grep -q "shards     1 done, 0 running, 0 queued, 3 stopped or not started" st.txt' || show
row() { grep -E "^  $1/4 " st.txt; }
check "shard 1: done, all of its pairs" 'row 1 | grep -qE "^  1/4 +done +100.0%"' || show
check "shard 2: stopped, part of its pairs" 'row 2 | grep -qE "^  2/4 +stopped +[0-9.]+%" && ! row 2 | grep -q "100.0%"' || show
check "shard 3: killed (its progress says running, its process is gone)" 'row 3 | grep -qE "^  3/4 +killed "' || show
check "shard 4: not started" 'row 4 | grep -qE "^  4/4 +not started +- "' || show
# the whole run's pairs come from a shard's bookmark
total=$(sed -n 's/^pairs //p' P/shard-1/mnw.bookmark)
check "the whole run's pairs: 19,900 (from a shard's bookmark)" '[ "$total" = 19900 ] && grep -q " of 19,900 pairs$" st.txt' || show
"$MNW" status --json P >st.json 2>&1
check "--json: one JSON object, 4 shards, states done/stopped/killed/not started, pairs_total 19900" \
    'python3 -c "
import json, sys
d = json.load(open(\"st.json\"))
assert d[\"mnw_shards_status\"] == 1 and d[\"shards\"] == 4 and d[\"pairs_total\"] == 19900, d
assert [s[\"state\"] for s in d[\"shard\"]] == [\"done\", \"stopped\", \"killed\", \"not started\"], d
assert d[\"shard\"][0][\"pairs_done\"] == d[\"shard\"][0][\"pairs_total\"] > 0
assert d[\"shard\"][3][\"pairs_total\"] is None and d[\"merged\"][\"state\"] == \"none\"
assert d[\"pairs_done\"] == sum(s[\"pairs_done\"] for s in d[\"shard\"])
"' || sed 's/^/#   /' st.json
check "the advice: shards 2, 3, 4 are neither complete nor running nor queued: mnw-submit --resume P" \
    'grep -q "^Shards 2, 3, 4 are neither complete nor running nor queued: continue them and the merge with mnw-submit --resume P$" st.txt' || show

# the rest finished, merged by the merge script: complete. Not under the
# sanitizers (MNW_TEST_QUICK): the merge and a complete parent's status run
# instrumented in t_submit.sh, and mnw runs cost most of this test there
if [ -z "${MNW_TEST_QUICK:-}" ]; then
    for i in 2 3 4; do
        if [ -e P/shard-$i/mnw.bookmark ]; then "$MNW" -q --resume P/shard-$i; else SLURM_ARRAY_TASK_ID=$i bash P/mnw-shards.sbatch >/dev/null 2>&1; fi
    done
    bash P/mnw-merge.sbatch >merge.log 2>&1
    # (merged bytes against a whole run: t_shard.sh, t_submit.sh, make test-slurm)
    "$MNW" verify P/merged >verify.log 2>&1
    vrc=$?
    check "the shards resumed and merged: the merged run verifies (mnw verify)" '[ $vrc -eq 0 ] && [ -s P/merged/mnw.bookmark ]' ||
        sed 's/^/#   /' merge.log verify.log
    "$MNW" status P >st.txt 2>&1
    check "mnw status P: 4 done, 19,900 of 19,900 pairs, the run complete in P/merged" \
        'grep -q "4 done, 0 running" st.txt && grep -q "19,900 of 19,900 pairs" st.txt &&
         grep -q "merged     P/merged: complete" st.txt && grep -q "^The run is complete: its 4 shards are merged into P/merged" st.txt' || show
fi

# --- refused: exit 1, the file (and line) named ---
bad() { # bad DESC PATTERN : mnw status P with the manifest as it is now
    "$MNW" status P >bad.out 2>&1
    local r=$? pat=$2
    check "refused ($1): exit 1, says '$2'" '[ $r -eq 1 ] && grep -qF -- "$pat" bad.out' || sed 's/^/#   /' bad.out
}
cp P/mnw.shards good.shards
edit() { cp good.shards P/mnw.shards && sed -i "$1" P/mnw.shards; }
edit 's/^mnw-shards 1/mnw-shards 2/'
bad "a newer version" "P/mnw.shards:2: version 2: written by a newer mnw-submit"
edit '2i shards 4'
bad "a line before the version" "P/mnw.shards:2: not an mnw shards manifest"
edit 's/^merged merged/merged ../'
bad "merged outside the parent" "merged '..' is not a name inside the parent"
edit 's/^shard 2 shard-2/shard 2 ..\/x/'
bad "a shard outside the parent" "shard 2's directory '../x' is not a name inside the parent"
edit '/^shard 3 /d'
bad "a shard line missing" "P/mnw.shards: shard 3 of 4 has no 'shard' line"
edit 's/^shard 4 shard-4/shard 4 shard-1/'
bad "two shards in one directory" "P/mnw.shards: shards 1 and 4 share the directory 'shard-1'"
edit 's/^shards 4/shards 0/'
bad "zero shards" "shards '0' is not a number of shards"
edit 's/^input .*/input a.fa/'
bad "a relative input" "input 'a.fa' is not an absolute path"
edit '$a colour blue'
bad "an unknown key" "unknown key 'colour'"
edit '$a job merge 12x'
bad "a bad job line" "not 'job shards ID LIST' or 'job merge ID'"
edit 's/^shard 1 shard-1/shard 1 shard-2/; s/^shard 2 shard-2/shard 2 shard-1/'
bad "shards in each other's directories" "the run there is shard 2/4, not 1/4: not this run's shard"
cp good.shards P/mnw.shards
echo "junk" >>P/shard-2/mnw.bookmark # stopped above: it has one
bad "a damaged shard bookmark" "P/shard-2/mnw.bookmark"
finish
