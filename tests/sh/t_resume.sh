# t_resume.sh - bookmarks and resume (docs/RESUME.md), with real processes,
# real signals and real Open MPI ranks:
#  - 9 kill -9 of the whole job (4 under MNW_TEST_QUICK) at random moments and in chosen phases (as
#    soon as the first bookmark exists, mid-run, while a bookmark is being
#    written, while a resumed run starts), each followed by --resume, with
#    1, 2 or 3 ranks in turn; the finished outputs are byte-identical to an
#    uninterrupted run;
#  - SIGTERM (one rank, all ranks, SIGUSR1 to mpirun): exit 3 with a valid
#    bookmark; a second signal exits at once and the bookmark still holds;
#  - a full disk (a file-size limit): a clear error, then a resume that ends
#    identical;
#  - every refusal (no bookmark, a damaged or truncated one, outputs shorter
#    than the bookmark, another input, a contradicting setting) names the
#    file and leaves OUTDIR as it was; a complete run is left untouched.
source "$(dirname "$0")/../lib.sh"
cd "$TMP"
cp "$TDATA/16s-200.fa" s200.fa
# the kill cycles: the first 350 genes of 16s-500, 61,075 pairs, room for
# 9 kills (about 20,000 pairs done by the last kill on 2 cores);
# MNW_TEST_QUICK (the sanitizer runs, several times slower): 4 kills, on
# the first 150 genes of 16s-500 (11,175 pairs; about 4,000 done by the last
# kill under ASan on 2 cores)
kn=350 kpairs=61075
[ -n "${MNW_TEST_QUICK:-}" ] && kn=150 kpairs=11175
zcat "$ROOT/data/16s-500.fa.gz" | awk -v n=$kn '/^>/{k++} k>n{exit} {print}' > s$kn.fa
kset=s$kn kref=ref$kn
# the stop signals and refusals: each run is stopped, then resumed to the
# end; on 16s-200, under MNW_TEST_QUICK on its first 120 genes (7,140 pairs)
sset=s200 sref=ref spairs=19900
[ -n "${MNW_TEST_QUICK:-}" ] && sset=s120 sref=ref120 spairs=7140
# results-changing settings of every run here (work lists of 100 pairs: 199
# lists, many bookmarks), node settings vary
opts=(--cigar --phylip --worklist-size 100 --gap-open 12 --gap-extend 2 --bind no)
seed=${MNW_TEST_SEED:-$RANDOM}
RANDOM=$seed
echo "# random kill moments from seed $seed (MNW_TEST_SEED=$seed repeats them)"

awk '/^>/{n++} n>120{exit} {print}' s200.fa > s120.fa
# ref_run SET PAIRS : the uninterrupted reference run of SET.fa into refN
# (ref for s200)
ref_run() {
    local r=ref${1#s} np=$2
    [ "$1" = s200 ] && r=ref
    "$MNW" -q -i $1.fa -o $r "${opts[@]}" -t 2 --gpus none
    check "uninterrupted reference run of $1 ($np pairs)" '[ -s $r/dist.phylip ] && grep -q "^watermark $np$" $r/mnw.bookmark'
}
ref_run $kset $kpairs
ref_run $sset $spairs

watermark() { sed -n 's/^watermark //p' "$1/mnw.bookmark" 2>/dev/null; }
# start NP ARGS... : the job in the background (NP 1: no mpirun); pid in $job
start() {
    local np=$1; shift
    if [ "$np" -eq 1 ]; then "$MNW" -q "$@" --gpus none >>job.log 2>&1 &
    else "${MPIRUN[@]}" -np "$np" "$MNW" -q "$@" --gpus none >>job.log 2>&1 & fi
    job=$!
}
# kill9 DIR : kill -9 every process of the job at once, reap it
kill9() { kill -9 $job $(mnw_pids "$1") 2>/dev/null; wait $job 2>/dev/null; sleep 0.2; }
# wait_for FILE [S] : until FILE exists (at most S s); 1 if it never came
wait_for() {
    local k
    for ((k = 0; k < ${2:-30} * 100; k++)); do [ -e "$1" ] && return 0; sleep 0.01; done
    return 1
}

# --- 10 x kill -9 and resume ---
D=k9
start 1 -i $kset.fa -o $D "${opts[@]}" -t 1 --bookmark-every 0.1
wait_for $D/mnw.bookmark
kill9 $D
check "kill -9 #1 (as soon as the first bookmark exists): a bookmark is there" '[ -n "$(watermark $D)" ]'
last=$(watermark $D)
cycle=2
mono=1
# MNW_TEST_QUICK (the sanitizer runs): each phase once, 4 kills in all
phases="mid mid mid mid mid bookmark mid resume-start"
[ -n "${MNW_TEST_QUICK:-}" ] && phases="mid bookmark resume-start"
# kills: the first start's, then one per phase; resumes started: one per
# phase and the last, uninterrupted one (as many as the kills)
nkills=$(( $(echo $phases | wc -w) + 1 ))
for phase in $phases; do
    np=$((1 + cycle % 3))
    case $phase in
    mid)
        start $np --resume $D -t 1 --bookmark-every 0.1
        sleep "$((RANDOM % 20 / 10)).$((RANDOM % 10))"
        kill9 $D ;;
    bookmark) # held between the temporary file and the rename
        rm -f $D/.mnw.bookmark.tmp
        MNW_TEST_BOOKMARK_PAUSE=0.5 start $np --resume $D -t 1 --bookmark-every 0.1
        sleep 0.3
        rm -f $D/.mnw.bookmark.tmp
        wait_for $D/.mnw.bookmark.tmp
        kill9 $D
        check "kill -9 #$cycle landed while a bookmark was being written (its temporary file is there)" \
            '[ -e $D/.mnw.bookmark.tmp ]' ;;
    resume-start)
        start $np --resume $D -t 1 --bookmark-every 0.1
        sleep 0.05
        kill9 $D ;;
    esac
    w=$(watermark $D)
    check "kill -9 #$cycle ($phase, $np rank(s)): the bookmark is whole (watermark $w)" '[ -n "$w" ] && tail -1 $D/mnw.bookmark | grep -q "^end [0-9a-f]\{8\}$"'
    [ -n "$w" ] && [ "$w" -lt "$last" ] && mono=0
    last=${w:-0}
    cycle=$((cycle + 1))
done
check "the watermark never went back over the $nkills kills" '[ $mono -eq 1 ]'
check "the kills landed before the end (watermark now $last of $kpairs)" '[ "$last" -lt $kpairs ]'
"${MPIRUN[@]}" -np 2 "$MNW" -q --resume $D -t 1 --gpus none >final.log 2>&1
rc=$?
check "the last resume (2 ranks) completes: exit 0" '[ $rc -eq 0 ]' || sed 's/^/#   /' final.log | tail -5
check "after $nkills kill -9 and resumes the outputs are byte-identical to the uninterrupted run" 'same_bytes $kref $D'
check "the bookmark of the finished run says all $kpairs pairs" '[ "$(watermark $D)" = $kpairs ]'
# How many of the killed resumes got far enough to log (and count) themselves
# depends on the machine's speed (4 to 9 on 2 cores, fewer under a sanitizer):
# at least the last, uninterrupted one, and never more than were started.
minres=1
nlog=$(grep -c "resuming the run in" $D/mnw.log)
check "the log tells the resumes ($nlog of the $nkills started; at least $minres)" '[ "$nlog" -ge $minres ] && [ "$nlog" -le $nkills ]'

# mnw status on a run killed with -9 (2 ranks at its last kill: the file
# says running, its pid is gone) and on the finished run
check "mnw status after the last kill -9: the run is not updating, resume it" \
    '"$MNW" status $D >status_k9.txt 2>&1; grep -q "k9" status_k9.txt && grep -qi "resume" status_k9.txt'
check "mnw status of the finished run: complete, one row per rank" \
    '"$MNW" status $D >status_done.txt 2>&1 && grep -q "complete" status_done.txt && [ "$(grep -cE "^ +[01] +" status_done.txt)" -eq 2 ]'
nres=$(sed -n 's/.*"resumes": \([0-9]*\),.*/\1/p' $D/progress.json)
check "progress.json counts the resumes ($nres; $nkills started, at least $minres)" '[ -n "$nres" ] && [ "$nres" -ge $minres ] && [ "$nres" -le $nkills ]'
# progress.log (cld/proglog.h): the history of every run of OUTDIR, read by
# Python's json: "LINES UNREADABLE RUNS FIRST_STATE LAST_STATE LAST_DONE
# IN_ORDER STATES" (RUNS: distinct resume counts; IN_ORDER: they never go
# back; STATES: each line's state and resume count, in order)
plog() {
    python3 - "$1/progress.log" <<'PY'
import json, sys
good, bad = [], 0
for line in open(sys.argv[1]):
    try:
        good.append(json.loads(line))
    except ValueError:
        bad += 1
res = [g["resumes"] for g in good]
inorder = all(a <= b for a, b in zip(res, res[1:]))
print(len(good), bad, len(set(res)), good[0]["state"], good[-1]["state"], good[-1]["pairs_done"], int(inorder),
      ",".join("%s/%d" % (g["state"], g["resumes"]) for g in good))
PY
}
read -r pl_n pl_bad pl_runs pl_first pl_last pl_done pl_order pl_states <<<"$(plog $D)"
check "progress.log: $pl_n snapshots over $pl_runs runs, in order, the last one done with all $kpairs pairs ($pl_bad lines cut by a kill)" \
    '[ "$pl_first" = running ] && [ "$pl_last" = done ] && [ "$pl_done" = $kpairs ] && [ "$pl_order" = 1 ] && [ "$pl_runs" -ge 2 ] && [ "$pl_bad" -le $nkills ]'

# --- a complete run is left alone ---
sum() { (cd "$1" && cat mnw.bookmark mnw.log pairs.tsv.gz dist.column.gz dist.phylip | md5sum); }
before=$(sum $D)
out=$("$MNW" --resume $D -t 1 --gpus none 2>&1)
rc=$?
check "resuming a complete run: exit 0, says it is complete" '[ $rc -eq 0 ] && [[ "$out" == *"is complete ($kpairs pairs); nothing to do"* ]]'
check "resuming a complete run changes no file (log included)" '[ "$(sum $D)" = "$before" ]'

# --- SIGTERM ---
# stop_run SIGNAL TARGET NP : starts a fresh run in dir st_*, signals it
# after 1 s (TARGET: rank0, rank1, all or mpirun), waits; sets rc, secs
stop_run() {
    local sig=$1 target=$2 np=$3 d=st_$1_$2
    rm -rf $d
    start $np -i $sset.fa -o $d "${opts[@]}" -t 1
    wait_for $d/mnw.bookmark
    sleep 1
    local pids t0
    case $target in
    rank0) pids=$( [ "$np" -eq 1 ] && echo $job || rank_pid $d 0) ;;
    rank1) pids=$(rank_pid $d 1) ;;
    all) pids=$(for p in $(mnw_pids $d); do [ "$p" != "$job" ] && echo $p; done) ;;
    mpirun) pids=$job ;;
    esac
    t0=$(date +%s%N)
    kill -$sig $pids
    wait $job
    rc=$?
    secs=$(( ($(date +%s%N) - t0) / 1000000 ))
    echo "# $sig to $target ($np rank(s)): exit $rc after $secs ms"
    dir=$d
}
resume_same() { # resume_same DIR NP : completes DIR and compares with ref
    if [ "$2" -eq 1 ]; then "$MNW" -q --resume $1 -t 2 --gpus none >>job.log 2>&1
    else "${MPIRUN[@]}" -np "$2" "$MNW" -q --resume $1 -t 1 --gpus none >>job.log 2>&1; fi
    same_bytes $sref $1
}

stop_run TERM rank0 1
check "SIGTERM: exit 3 (stopped, resumable)" '[ $rc -eq 3 ]'
check "SIGTERM: stopped within 10 s ($secs ms; --stop-grace 2)" '[ $secs -lt 10000 ]'
check "SIGTERM: the bookmark is whole and short of the end" 'w=$(watermark $dir); [ -n "$w" ] && [ "$w" -lt $spairs ]'
check "SIGTERM: the log says stopped and how to continue" 'grep -q "stopped (SIGTERM)" $dir/mnw.log'
check "SIGTERM: progress.json says stopped, and mnw status tells how to continue" \
    'grep -q "\"state\": \"stopped\"" $dir/progress.json && "$MNW" status $dir | grep -q "mnw --resume"'
check "SIGTERM: a resume (3 ranks) ends byte-identical" 'resume_same $dir 3'
read -r pl_n pl_bad pl_runs pl_first pl_last pl_done pl_order pl_states <<<"$(plog $dir)"
check "SIGTERM: progress.log has the stop and the resume ($pl_states)" \
    '[[ ",$pl_states," =~ ^,running/0,(.*,)?stopped/0,running/1,(.*,)?done/1,$ ]] && [ "$pl_bad" = 0 ] && [ "$pl_done" = $spairs ]'

stop_run TERM rank1 2
check "SIGTERM to rank 1 of 2: the whole job stops, exit 3" '[ $rc -eq 3 ] && grep -q "rank 1 (.*) got SIGTERM" $dir/mnw.log'
check "SIGTERM to rank 1 of 2: resume with 1 rank ends byte-identical" 'resume_same $dir 1'

stop_run TERM all 3
check "SIGTERM to every rank (as srun and scancel do): exit 3" '[ $rc -eq 3 ]'
check "SIGTERM to every rank: resume ends byte-identical" 'resume_same $dir 2'

stop_run USR1 mpirun 2
check "SIGUSR1 to mpirun (forwarded to the ranks): exit 3" '[ $rc -eq 3 ]'
check "SIGUSR1: resume ends byte-identical" 'resume_same $dir 1'

# --stop-grace 0: the lists in flight are dropped at once (STOP to the
# other rank, workers leave their lists mid-way)
d=st_drop
start 2 -i $sset.fa -o $d "${opts[@]}" -t 1 --stop-grace 0 --worklist-size 100
wait_for $d/mnw.bookmark
sleep 1
kill -TERM $(rank_pid $d 0)
wait $job
rc=$?
check "--stop-grace 0: exit 3, the lists in flight dropped" '[ $rc -eq 3 ] && grep -q "dropping the [1-9][0-9]* work list" $d/mnw.log'
check "--stop-grace 0: a resume ends byte-identical" 'resume_same $d 2'

# a second signal: out at once (128 + 15), the bookmark before still whole;
# the first stop's last bookmark is held (MNW_TEST_BOOKMARK_PAUSE) so the
# second signal lands while it is being written
d=st_twice
MNW_TEST_BOOKMARK_PAUSE=0.6 start 1 -i $sset.fa -o $d "${opts[@]}" -t 1 --bookmark-every 1000
wait_for $d/mnw.bookmark
sleep 1.5
w0=$(watermark $d)
kill -TERM $job
rm -f $d/.mnw.bookmark.tmp
wait_for $d/.mnw.bookmark.tmp 10
kill -TERM $job
wait $job
rc=$?
check "a second SIGTERM (during the last bookmark) exits at once with 143" '[ $rc -eq 143 ]'
check "after a second SIGTERM the bookmark before is there, whole (watermark $w0)" '[ "$(watermark $d)" = "$w0" ] && tail -1 $d/mnw.bookmark | grep -q "^end "'
check "after a second SIGTERM a resume ends byte-identical" 'resume_same $d 1'

# --- a full disk: a 150 KiB file-size limit ---
d=full
( ulimit -f 150; exec "$MNW" -q -i $sset.fa -o $d "${opts[@]}" -t 2 --gpus none ) >full.log 2>&1
rc=$?
check "file-size limit reached: exit 1" '[ $rc -eq 1 ]'
check "file-size limit: the error names the file and the reason" 'grep -qE "$d/(pairs.tsv.gz|dist.column.gz|dist.phylip): write failed: File too large" full.log'
w=$(watermark $d)
check "file-size limit: the bookmark is whole ($w pairs)" '[ -n "$w" ] && [ "$w" -lt $spairs ]'
check "file-size limit: a resume with room ends byte-identical" 'resume_same $d 1'

# --- refusals: a clear error, nothing changed ---
# refused DESC WANT-RC PATTERN DIR ARGS... : mnw ARGS exits WANT-RC with
# PATTERN in its message and DIR's files unchanged
refused() {
    local desc=$1 want=$2 pat=$3 dir=$4; shift 4
    local b a out rc
    b=$(cd "$dir" && ls -la --time-style=+%s.%N && cat ./* 2>/dev/null | md5sum)
    out=$("$MNW" "$@" 2>&1)
    rc=$?
    a=$(cd "$dir" && ls -la --time-style=+%s.%N && cat ./* 2>/dev/null | md5sum)
    check "$desc: exit $want, says so" '[ $rc -eq $want ] && [[ "$out" =~ $pat ]]' || echo "#   exit $rc: $out"
    check "$desc: nothing in $dir changed" '[ "$a" = "$b" ]'
}
mkdir part
start 1 -i $sset.fa -o part "${opts[@]}" -t 1
wait_for part/mnw.bookmark
sleep 1
kill -TERM $job
wait $job
cp -r part keep
head -150 s200.fa > other.fa
refused "another input file" 1 "other.fa: these sequences are not the input of the run in part" part --resume part -i other.fa
refused "a contradicting setting (--gap-open 10)" 2 "part/mnw.bookmark: the run was made with gap-open 12, and this command asks for gap-open 10" part --resume part --gap-open 10
refused "a contradicting setting (--gap 12 means gap-extend 12)" 2 "made with gap-extend 2" part --resume part --gap 12
refused "a contradicting output setting (no --phylip in a config)" 2 "made with outputs pairs,dist,phylip, and this command asks for outputs pairs,dist" part --resume part -c <(echo "phylip = no")
refused "a contradicting output setting (--outputs dist)" 2 "made with outputs pairs,dist,phylip, and this command asks for outputs dist" part --resume part --outputs dist
refused "--resume with --force" 2 "a resumed run keeps what is in part" part --resume part --force
refused "a fresh run into a directory holding a run" 1 "it holds a run \(mnw.bookmark\): continue it with mnw --resume part" part -i $sset.fa -o part
mkdir empty
refused "--resume of a directory without a bookmark" 1 "empty/mnw.bookmark: .*holds no run to resume" empty --resume empty
sed -i 's/^watermark \([0-9]*\)/watermark 1\1/' part/mnw.bookmark
refused "a bookmark changed by hand (checksum)" 1 "part/mnw.bookmark" part --resume part
cp keep/mnw.bookmark part/
head -c 200 keep/mnw.bookmark > part/mnw.bookmark
refused "a truncated bookmark" 1 "part/mnw.bookmark:" part --resume part
cp keep/mnw.bookmark part/
bytes=$(sed -n 's/^output pairs.tsv.gz \([0-9]*\).*/\1/p' part/mnw.bookmark)
head -c $((bytes - 1)) keep/pairs.tsv.gz > part/pairs.tsv.gz
refused "an output shorter than the bookmark says" 1 "part/pairs.tsv.gz: $((bytes - 1)) bytes, shorter than the $bytes" part --resume part
cp keep/pairs.tsv.gz part/
"$MNW" -q --resume part --worklist-size 100 --cigar -t 2 --gpus none
rc=$?
check "the same settings given again are accepted, and the run completes identical" '[ $rc -eq 0 ] && same_bytes $sref part'
mv $sset.fa moved.fa
cp -r keep keep2
refused "the input moved away" 1 "$sset.fa: .*give its new place with -i" keep2 --resume keep2
"$MNW" -q --resume keep2 -i moved.fa -t 2 --gpus none
rc=$?
check "the input given at its new place with -i: completes identical" '[ $rc -eq 0 ] && same_bytes $sref keep2'
finish
