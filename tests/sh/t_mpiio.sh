# t_mpiio.sh - output through MPI-IO (--output-via mpiio, issue 22,
# docs/DISTRIBUTED.md) when something goes wrong, with real Open MPI ranks:
#  - kill -9 of a writing rank (not rank 0) in the middle of a write, after
#    a write and before its sync, after the sync and before its report (the
#    rank pauses there: MNW_TEST_WRITE_PAUSE), 5 tries (MNW_TEST_QUICK, the
#    sanitizer runs: 1, mid-write): each time the
#    bookmark is whole, `mnw verify` finds every byte it counts on disk, and
#    --resume ends byte-identical to the uninterrupted run;
#  - an output cut (`: > FILE`) while the ranks write (issue 38): rank 1
#    pauses after writing a list, the file is cut, the other ranks write
#    past the cut (the length comes back, NUL bytes below): the job ends
#    non-zero naming the file and the rank that found it (each rank's
#    read-back of its own lists, MNW_TEST_NO_HOLE_CHECK=1; then with rank
#    0's hole check too, on dist.column.gz), the bookmark stays whole,
#    `mnw verify` names the damage where it counts cut bytes (the head of
#    pairs.tsv.gz), and where it counts none --resume ends byte-identical;
#  - every PLACE and WRITTEN message by rendezvous (a 256-byte eager
#    limit), and 8 ranks: byte-identical to one process;
#  - one rank that does not see OUTDIR (a private mount namespace where
#    OUTDIR's parent is an empty tmpfs: a node-local directory), or sees it
#    read-only: the start ends on every rank (exit 1, no MPI_Abort) with a
#    message naming the rank, its host and the path; the run then continues
#    with --output-via rank0, byte-identical;
#  - a full file system (a small tmpfs under the whole job): an error naming
#    the rank, host and file, a bookmark that counts only what is on disk,
#    and a resume elsewhere that ends byte-identical.
# The mount namespaces need unshare(1) and the right to use it (root); where
# it is refused those checks are skipped, saying so.
source "$(dirname "$0")/../lib.sh"
cd "$TMP"
zcat "$ROOT/data/16s-500.fa.gz" | awk '/^>/{k++} k>150{exit} {print}' > s150.fa
opts=(--cigar --phylip --worklist-size 100 --bind no --gpus none -q)
"$MNW" -i s150.fa -o ref "${opts[@]}" -t 2
check "uninterrupted reference run (11,175 pairs, lists of 100)" 'grep -q "^watermark 11175$" ref/mnw.bookmark'

# --- kill -9 of a writing rank ---
# kill_writer TRY WHERE RANK NTH : a 3-rank run into w$TRY whose rank RANK
# pauses WHERE at its NTH list and is killed there; sets rc
kill_writer() {
    local d=w$1 where=$2 rank=$3 nth=$4 pid="" t
    MNW_TEST_WRITE_PAUSE=8:$where:$nth "${MPIRUN[@]}" -np 3 "$MNW" -i s150.fa -o $d "${opts[@]}" -t 1 \
        --bookmark-every 0.1 >$d.log 2>&1 &
    local job=$!
    for t in $(seq 1 300); do # the paused rank's line: "[RANK/host/...] WARN test ...: pid P pauses"
        pid=$(sed -nE "s/.*\[$rank\/[^]]*\] WARN test \(MNW_TEST_WRITE_PAUSE\): pid ([0-9]+) pauses.*/\1/p" $d.log)
        [ -n "$pid" ] && break
        sleep 0.1
    done
    if [ -n "$pid" ]; then kill -9 "$pid"; else echo "# rank $rank of $d never paused"; tail -5 $d.log; fi
    for t in $(seq 1 600); do kill -0 $job 2>/dev/null || break; sleep 0.1; done
    kill -9 $job $(mnw_pids $d) 2>/dev/null
    wait $job
    rc=$?
    [ -n "$pid" ] || rc=99
}
tries="1:mid:1:3 2:unsynced:2:4 3:unreported:1:5 4:mid:2:6 5:unreported:2:3"
[ -n "${MNW_TEST_QUICK:-}" ] && tries="1:mid:1:3"
good=0 n=0
for t in $tries; do
    IFS=: read -r try where rank nth <<<"$t"
    n=$((n + 1))
    kill_writer $try $where $rank $nth
    case $where in
    mid) what="kill -9 of rank $rank in the middle of writing its list $nth" ;;
    unsynced) what="kill -9 of rank $rank after writing its list $nth, before the sync" ;;
    unreported) what="kill -9 of rank $rank after syncing its list $nth, before reporting it" ;;
    esac
    check "$what: the job ends non-zero" '[ $rc -ne 0 ] && [ $rc -ne 99 ]'
    check "$what: the bookmark is whole" 'tail -1 w$try/mnw.bookmark | grep -q "^end [0-9a-f]\{8\}$"'
    "$MNW" verify w$try >verify$try.txt 2>&1
    vrc=$?
    check "$what: mnw verify finds every byte the bookmark counts on disk" '[ $vrc -eq 0 ]' || sed 's/^/#   /' verify$try.txt
    check "$what: bytes written past the durable lists are on disk, not counted" \
        'grep -q "pairs.tsv.gz: ok .* bytes beyond the bookmark" verify$try.txt'
    "${MPIRUN[@]}" -np 2 "$MNW" -q --resume w$try -t 1 --gpus none >resume$try.log 2>&1
    rrc=$?
    if [ $rrc -eq 0 ] && same_bytes ref w$try; then good=$((good + 1)); fi
    check "$what: --resume (2 ranks, MPI-IO) ends byte-identical" '[ $rrc -eq 0 ] && same_bytes ref w$try' ||
        sed 's/^/#   /' resume$try.log | tail -5
done
check "kill -9 of a writing rank, then --resume: byte-identical in $good of $n tries" '[ $good -eq $n ]'
check "the paused rank said where it paused (mid-write)" 'grep -q "pauses 8.0 s in the middle of writing pairs" w1.log'

# --- an output cut while the ranks write (issue 38) ---
# cut_during DIR FILE [ENV...] : a 3-rank run (bookmarks only at the end,
# so only the new checks can see the cut) whose rank 1 pauses 2 s after
# writing its 2nd list; FILE is cut 0.3 s into the pause; sets rc
cut_during() {
    local d=$1 f=$2 t
    shift 2
    env MNW_TEST_WRITE_PAUSE=2:unsynced:2 "$@" "${MPIRUN[@]}" -np 3 "$MNW" -i s150.fa -o "$d" "${opts[@]}" -t 1 \
        --output-via mpiio --bookmark-every 1000 >"$d.log" 2>&1 &
    local job=$!
    for t in $(seq 1 300); do grep -q "\[1/[^]]*\] WARN test" "$d.log" 2>/dev/null && break; sleep 0.05; done
    sleep 0.3
    : >"$d/$f"
    wait $job
    rc=$?
}
for cut in "pairs.tsv.gz MNW_TEST_NO_HOLE_CHECK=1" "dist.column.gz"; do
    read -r f env <<<"$cut"
    d=cut-${f%%.*}
    # shellcheck disable=SC2086 # $env: nothing or one VAR=VALUE
    cut_during "$d" "$f" $env
    what="$f cut during the run"
    [ -n "$env" ] && what="$what (the checks of the ranks alone)"
    check "$what: the job ends non-zero" '[ $rc -ne 0 ]'
    check "$what: the message names the file and a rank, and says what happened" \
        'grep -qE "rank [0-2] \($(hostname -s)\): .*$d/$f(:| has| is).* cut during the run" "$d.log"' ||
        sed 's/^/#   /' "$d.log" | head -5
    check "$what: the bookmark is whole" 'tail -1 "$d/mnw.bookmark" | grep -q "^end [0-9a-f]\{8\}$"'
    "$MNW" verify "$d" >"$d.verify" 2>&1
    vrc=$?
    if [ "$f" = pairs.tsv.gz ]; then # its head, counted by the first bookmark, is cut too
        check "$what: mnw verify exits 1 naming the file" '[ $vrc -eq 1 ] && grep -q "error: $d/$f" "$d.verify"' ||
            sed 's/^/#   /' "$d.verify"
    else # the only bookmark (at pair 0) counts none of its bytes: the run goes on from there
        check "$what: mnw verify finds every byte the bookmark counts" '[ $vrc -eq 0 ]' || sed 's/^/#   /' "$d.verify"
        "${MPIRUN[@]}" -np 2 "$MNW" -q --resume "$d" -t 1 --gpus none >"$d.resume" 2>&1
        rrc=$?
        check "$what: --resume ends byte-identical" '[ $rrc -eq 0 ] && same_bytes ref "$d"' ||
            sed 's/^/#   /' "$d.resume" | tail -5
    fi
done

# --- every metadata message by rendezvous ---
# Open MPI's shared-memory transport sends messages above its eager limit
# only once the receiver has posted a receive: with the limit at 256 bytes
# PLACE (rank 0 -> a rank) and WRITTEN (a rank -> rank 0) batches cross at
# the same time; both go out non-blocking, so neither side waits on the other
# (MNW_TEST_QUICK, the sanitizer runs: left to make test; t_mpi's runs
# there go through the same sends)
if [ -z "${MNW_TEST_QUICK:-}" ]; then
    OMPI_MCA_btl_vader_eager_limit=256 timeout 300 "${MPIRUN[@]}" -np 4 "$MNW" -i s150.fa -o rndv "${opts[@]}" -t 1 \
        >rndv.log 2>&1
    rc=$?
    check "4 ranks with a 256-byte eager limit: exit 0, byte-identical" '[ $rc -eq 0 ] && same_bytes ref rndv' ||
        sed 's/^/#   /' rndv.log | tail -5
    # 8 ranks (of one CPU worker each) writing the same files
    "${MPIRUN[@]}" -np 8 "$MNW" -i s150.fa -o np8 "${opts[@]}" -t 1 >np8.log 2>&1
    rc=$?
    check "8 ranks through MPI-IO: exit 0, byte-identical to one process" \
        '[ $rc -eq 0 ] && same_bytes ref np8 && grep -q "8 ranks" np8/mnw.log' || sed 's/^/#   /' np8.log | tail -5
fi

# --- a rank that does not see OUTDIR, or sees it read-only ---
if ! unshare -m --propagation private true 2>/dev/null; then
    for what in "a rank that does not see OUTDIR" "a rank that sees OUTDIR read-only" "a full file system"; do
        echo "ok - $what # skip unshare -m is not permitted here (no private mount namespace)"
    done
    finish
fi
# hide.sh DIR CMD... : CMD in a private mount namespace where DIR is an
# empty tmpfs; ro.sh DIR CMD... : where DIR is read-only
printf '#!/bin/sh\nd=$1; shift\nexec unshare -m --propagation private sh -c '"'"'mount -t tmpfs none "$0" && exec "$@"'"'"' "$d" "$@"\n' > hide.sh
printf '#!/bin/sh\nd=$1; shift\nexec unshare -m --propagation private sh -c '"'"'mount --bind "$0" "$0" && mount -o remount,bind,ro "$0" && exec "$@"'"'"' "$d" "$@"\n' > ro.sh
chmod +x hide.sh ro.sh
h=$(hostname -s)
# rank2_in WRAPPER DIR LOG MNW-ARGS... : a 3-rank job whose rank 2 runs
# under WRAPPER DIR (ranks 0 and 1 see the real DIR); sets rc
rank2_in() {
    local w=$1 d=$2 log=$3
    shift 3
    mkdir -p "$d"
    mpmd -np 2 "$MNW" "$@" : -np 1 "./$w" "$TMP/$d" "$MNW" "$@" >"$log" 2>&1
    rc=$?
}
rank2_in hide.sh vis hide.log -i s150.fa -o vis/out "${opts[@]}" -t 1
check "a rank that does not see OUTDIR: exit 1" '[ $rc -eq 1 ]' || sed 's/^/#   /' hide.log | tail -5
check "the message names rank 2, its host and OUTDIR, and says what to do" \
    'grep -q "rank 2 ($h): does not see OUTDIR $TMP/vis/out .*No such file.*--output-via rank0" hide.log'
check "every rank ended by itself (no MPI_Abort)" '! grep -q "MPI_ABORT" hide.log'
check "nothing was aligned; the bookmark is there at pair 0" 'grep -q "^watermark 0$" vis/out/mnw.bookmark'
rank2_in hide.sh vis hide2.log --resume vis/out --output-via rank0 -q -t 1 --gpus none
check "resumed with --output-via rank0 (rank 2 still blind): exit 0, byte-identical" '[ $rc -eq 0 ] && same_bytes ref vis/out' ||
    sed 's/^/#   /' hide2.log | tail -5

rank2_in ro.sh rod ro.log -i s150.fa -o rod/out "${opts[@]}" -t 1
check "a rank that sees OUTDIR read-only: exit 1" '[ $rc -eq 1 ]' || sed 's/^/#   /' ro.log | tail -5
check "the message names rank 2, its host and the file it cannot write" \
    'grep -q "rank 2 ($h): $TMP/rod/out/pairs.tsv.gz: cannot write: Read-only file system" ro.log'

# --- a full file system under every rank ---
mkdir -p full roomy
unshare -m --propagation private sh -c 'mount -t tmpfs -o size=400k none full || exit 97
    "$@" >full.log 2>&1; echo $? > full.rc
    "$0" verify full/out >full-verify.txt 2>&1; echo $? > full-verify.rc
    cp -a full/out roomy/' "$MNW" "${MPIRUN[@]}" -np 3 "$MNW" -i s150.fa -o full/out "${opts[@]}" -t 1
rc=$(cat full.rc 2>/dev/null)
check "a full file system: the job ends non-zero" '[ -n "$rc" ] && [ "$rc" -ne 0 ]'
# whichever writer meets the full disk first: another rank ("rank 0 (HOST):
# error: rank 2 (HOST): FILE: writing ..."), rank 0's own write (the
# absolute path every rank agreed on) or its bookmark (OUTDIR as given:
# "full/out/.mnw.bookmark.tmp: No space left on device")
full_re="rank [0-2] \\($h\\): (error: )?($TMP/)?full/out/[a-z.]+: .*No space left on device"
check "the message names the rank, its host, the file and the cause" 'grep -qE "$full_re" full.log'
grep -qE "$full_re" full.log || sed 's/^/#   /' full.log | grep -v "^#   *$" | head -8
check "mnw verify then: every byte the bookmark counts is on disk" '[ "$(cat full-verify.rc)" -eq 0 ]' ||
    sed 's/^/#   /' full-verify.txt
"${MPIRUN[@]}" -np 2 "$MNW" -q --resume roomy/out -t 1 --gpus none >full2.log 2>&1
rc=$?
check "copied where there is room, --resume ends byte-identical" '[ $rc -eq 0 ] && same_bytes ref roomy/out' ||
    sed 's/^/#   /' full2.log | tail -5
finish
